"""A "don't" a verb-final language closes a clause with (`closing_clause`: Turkish "yazma",
"dokunma") is read closing a clause as well as the sentence, not where it opens a noun phrase
("yazma izni"); the Arabic comma parts clauses, and the Arabic "لا" says "not" only before
what it names (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

DRAFT = "Dear valued partner,\nPlease find attached the proforma invoice PF-2026-031."


def kinds(message: str, code: str, answered: str = DRAFT) -> list[tuple[str, ...]]:
    return [s.cues for s in detect_statements(message, "s1", 3, None, answered=answered, usual=language(code))]


@pytest.mark.parametrize(
    "message",
    [
        "'Dear valued partner' falan yazma, iki satır yeter",
        "asıl dosyaya dokunma, kopyasında çalış",
        "canlı temaya direkt atma, önce kopyada dene",
        "uzun uzun yazma",
        "gonderilen klasorunun ustune de yazma, kopyalar orada",
    ],
)
def test_a_turkish_dont_closing_a_clause_is_a_preference(message: str) -> None:
    found = kinds(message, "tr")
    assert any(c.startswith("preference:") for cues in found for c in cues), found


@pytest.mark.parametrize(
    "message",
    [
        "yazma izni yok, admin'e sor",  # "no write permission": a noun phrase
        "Yazma, dosyayı okuyor sadece",  # opening the sentence: what the script does
    ],
)
def test_the_same_word_opening_a_noun_phrase_or_the_sentence_is_none(message: str) -> None:
    found = kinds(message, "tr")
    assert not any(c.startswith("preference:") for cues in found for c in cues), found


def test_the_arabic_comma_ends_the_clause_a_not_closes() -> None:
    agent = "الفاتورة:\nشاشة آيفون: ٤٢٠٠ ج.م\nضمان سنة على الشاشة\nالعميل: السيد صائغ"
    found = detect_statements("وصايغ مش صائغ، هيك بتكتبها هي", "s1", 3, None, answered=agent, usual=language("ar"))
    assert found and found[0].kind == "correction", found


@pytest.mark.parametrize(
    "message",
    [
        "وصل الطرد، لا يوجد ضرر",  # "لا" negates the present verb: no damage
        "شكرا، لا نحتاج نسخة ثانية",
    ],
)
def test_an_arabic_la_before_a_verb_after_a_comma_sets_nothing_right(message: str) -> None:
    assert kinds(message, "ar", answered="تم إرسال الطرد.") == []


def test_an_arabic_la_before_a_name_closing_its_clause_is_a_contrast() -> None:
    found = kinds("نستخدم pnpm، لا npm", "ar", answered="تم: npm install && npm run build")
    assert any("contrast:لا" in cues for cues in found), found
