"""A "don't" a verb-final language closes a clause with (`closing_clause`: Turkish "yazma",
"dokunma") is read closing a clause as well as the sentence, not where it opens a noun phrase
("yazma izni") nor in a list of such words, which are nouns too ("ekleme, silme ve güncelleme
ekranları") (sentences written for these tests)."""

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
        # review helper-151: nouns in a list, or words left out as more often nouns
        "Kullanıcı ekleme, silme ve güncelleme ekranlarını kontrol et.",
        "Dosya yükleme, 2 MB sınırı var.",
        "Hesap açma, para transferi ve fatura ödeme adımlarını test et.",
        "Şifre değiştirme, e-posta doğrulama ve profil düzenleme sayfalarını ekledim.",
    ],
)
def test_the_same_word_opening_a_noun_phrase_or_the_sentence_is_none(message: str) -> None:
    found = kinds(message, "tr")
    assert not any(c.startswith("preference:") for cues in found for c in cues), found
