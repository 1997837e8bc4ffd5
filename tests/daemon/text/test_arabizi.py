"""Egyptian Arabic typed in Latin letters ("Arabizi", "Franco"): keyed to consonants on both
sides, digits read as the letters Latin has none of, read with the Arabic lists; a sentence so
typed among Arabic script is read in that reading too (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import detect, known

AGENT = "تمام، عدلت الشيت."


@pytest.mark.parametrize(
    ("arabic", "typed"),
    [
        ("مش", "msh"),
        ("مش", "mesh"),
        ("تاني", "tany"),
        ("تاني", "tani"),
        ("لازم", "lazem"),
        ("دايما", "dayman"),  # the tanwin the script leaves unwritten
        ("طبعا", "tab3an"),
        ("قلتلك", "2oltelak"),  # ق said as a glottal stop, typed 2
        ("معلش", "ma3lesh"),
        ("عايز", "3ayez"),
        ("خلاص", "5alas"),
        ("خلاص", "khalas"),
        ("حاجة", "7aga"),
        ("كده", "keda"),  # ه unsaid at a word's end
        ("متكتبش", "matektebsh"),
    ],
)
def test_an_arabic_word_and_its_ways_of_being_typed_have_one_spelling(arabic: str, typed: str) -> None:
    spelling = known()["ar"].spelling
    assert spelling is not None
    assert spelling.key(arabic) == spelling.key(typed)


def test_a_letter_before_ha_is_never_read_with_it() -> None:
    # كهرباء is k-h, not the "kh" of خ; كده is k-d, not "dh"
    spelling = known()["ar"].spelling
    assert spelling is not None
    assert spelling.key("كهرباء") != spelling.key("خرباء")
    assert spelling.key("كده") != spelling.key("كذ")


def test_arabizi_is_told_from_the_languages_written_in_latin_letters() -> None:
    found = detect(["ana 3ayez el message 2osayara, msh keda. ma3lesh bas lazem bokra"])
    assert found is not None and found.code == "ar-latn"
    english = detect(["the message is too long, please keep it short tomorrow"])
    assert english is not None and english.code == "en"


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("w el 3omola 35 msh 30", "contrast:ms"),  # "and the commission is 35, not 30"
        ("el cutoff 12 msh 2", "contrast:ms"),
    ],
)
def test_an_arabizi_sentence_among_arabic_is_read_in_latin_letters(message: str, cue: str) -> None:
    arabic = known()["ar"]
    # the session's language is Arabic in its script; the sentence, too short to tell alone
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, answered=AGENT, usual=arabic)
    assert statement.language == "ar-latn" and statement.kind == "correction" and cue in statement.cues


def test_an_arabizi_sentence_that_sets_nothing_right_is_no_statement() -> None:
    arabic = known()["ar"]
    assert detect_statements("el sawa2 gay bokra el sob7 msh 3aref emta", "s1.jsonl", 3, None, answered=AGENT, usual=arabic) == []


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("The demo went badly yesterday.", "ar"),  # "badly" keyed is بدل ("instead")
        ("Biden signed the bill.", "ar"),  # "Biden" keyed is بدون ("without")
        ("The homes page loads slowly.", "hi"),  # "homes" keyed is हमेशा ("always")
    ],
)
def test_an_english_sentence_in_such_a_session_is_not_read_as_typed_in_latin_letters(message: str, code: str) -> None:
    # two of the common words the language lists as typed must be said ("el", "msh")
    assert detect_statements(message, "s1.jsonl", 3, None, answered=AGENT, usual=known()[code]) == []


def test_a_digit_is_a_letter_only_in_a_language_typed_with_digits() -> None:
    # Hinglish types no letter as a digit: "python3" and "python2" are values set right
    hindi = known()["hi"]
    (statement,) = detect_statements("python3 use karo, python2 nahi", "s1.jsonl", 3, None, answered=AGENT, usual=hindi)
    assert statement.language == "hi-latn" and statement.kind == "correction"
