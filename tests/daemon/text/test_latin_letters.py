"""Greek typed in Latin letters ("Greeklish"): one spelling for both, the sentence read as
Greek, and no other language's text read so (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import detect, known, language

AGENT = "Done, I updated the file."


@pytest.mark.parametrize(
    ("greek", "typed"),
    [
        ("όχι", "oxi"),
        ("όχι", "ohi"),
        ("όχι", "ochi"),
        ("θέλω", "thelw"),
        ("θέλω", "8elo"),
        ("είπαμε", "ipame"),
        ("ξανά", "ksana"),
        ("ξανά", "xana"),
        ("είναι", "ine"),
        ("αυτό", "ayto"),
        ("αυτό", "afto"),
        ("μπορεί", "mporei"),
        ("μην", "mhn"),
        ("χωρίς", "xwris"),
        ("έχουμε", "exoume"),
        ("καλημέρα", "kalhmera"),
    ],
)
def test_a_greek_word_and_its_ways_of_being_typed_in_latin_letters_have_one_spelling(greek: str, typed: str) -> None:
    spelling = known()["el"].spelling
    assert spelling is not None
    assert spelling.key(greek) == spelling.key(typed)


def test_a_text_typed_in_greeklish_is_read_as_greek_in_latin_letters() -> None:
    found = detect(["den exoume stripe, ayto einai apomeinari apo to prwto prototype"])
    assert found is not None and found.code == "el-latn"
    reading = language("el-latn")
    # its script stays Greek's: a ";" closing a sentence asks there too
    assert reading is not None and reading.keyed and reading.script == "greek"


@pytest.mark.parametrize(
    "text",
    [
        "Send the report to me tomorrow.",
        "Mi piace molto, grazie, sto arrivando.",
        "to jest na stole, nie ruszaj",
        "a mesa ta pronta, pode vir",
        "den ligger i prod sedan förra veckan",
        "The meta tag and the auto-save are broken in mono mode on the new build.",
        # one word keyed as a Greek one is a coincidence
        "Auto mode, not manual.",
        "Echo off, not on.",
        "Mi auto está roto, no lo uses.",
    ],
)
def test_a_text_of_another_latin_language_is_not_read_as_greek(text: str) -> None:
    found = detect([text])
    assert found is None or "el-latn" not in found.code


@pytest.mark.parametrize(
    ("message", "kind", "cue"),
    [
        ("oxi, pnpm, oxi npm.", "correction", "correction:oxi"),
        ("sou to eipa, panta ta tests prwta.", "standing_instruction", "standing:pada"),
        ("mi trexeis pote migrate apo local.", "standing_instruction", "stop:mi"),
        ("kathe fora trexe ta tests prin to commit.", "standing_instruction", "standing:kaqe fora"),
        ("kai pali perilipsi sto telos", "correction", "again:pali"),
    ],
)
def test_greeklish_corrections_and_rules_are_found_by_the_greek_lists(message: str, kind: str, cue: str) -> None:
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, answered=AGENT)
    assert statement.language == "el-latn" and statement.kind == kind and cue in statement.cues


def test_a_greeklish_question_and_one_off_are_left_out_as_in_greek() -> None:
    assert detect_statements("pali npm?? pnpm eipame.", "s1.jsonl", 3, None, answered=AGENT) == []
    assert detect_statements("afti ti fora xwris tests, einai hotfix.", "s1.jsonl", 3, None, answered=AGENT) == []


def test_a_word_keyed_as_greek_does_not_take_a_sentence_from_its_own_language() -> None:
    (english,) = detect_statements("Auto mode, not manual.", "s1.jsonl", 3, None, answered=AGENT)
    assert english.language.startswith("en") and "contrast:not" in english.cues


def test_greeklish_asks_with_a_semicolon_and_keeps_its_numbers() -> None:
    assert detect_statements("panta me pnpm;", "s1.jsonl", 3, None, answered=AGENT) == []
    # "8" in a word is θ ("8elw"); alone it is a number, beside a limit
    (limit,) = detect_statements("max 8 arxeia ana commit", "s1.jsonl", 3, None, answered=AGENT)
    assert limit.cues == ("limit:max",)
