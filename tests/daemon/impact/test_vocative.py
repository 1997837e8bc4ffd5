"""A word of address after a "no" ("no mate, …", "nee joh, …", "όχι ρε, …", "nahi yaar, …")
leaves it the "no" that corrects, and the "no" that agrees ("nah mate, you're right"); followed
by more words of its clause, the word is its own ("no man pages in the repo"), and a word that
names someone as often is not listed ("no boss, just the team") (sentences written for these
tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done, I set the port to 3000."


def found(message: str, code: str, answered: str = AGENT) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("en", "nah mate, 8080", "correction:nah"),
        ("en", "no mate, the port is 8080", "correction:no"),
        ("nl", "nee joh, de poort is 8080", "correction:nee"),
        ("el", "όχι ρε, η θύρα είναι 8080", "correction:όχι"),
        ("es", "no che, el puerto es 8080", "correction:no"),
        ("de", "nee digga, der Port ist 8080", "correction:nee"),
        ("hi", "nahi yaar, pnpm use karo", "correction:nh"),
    ],
)
def test_a_no_with_a_word_of_address_corrects(code: str, message: str, cue: str) -> None:
    statements = found(message, code)
    assert [s.kind for s in statements] == ["correction"]
    assert cue in statements[0].cues


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "nah mate, you're right"),
        ("nl", "nee joh, je hebt gelijk"),
        ("es", "no che, tenés razón"),
        # asked, or said of an event: a word of address changes neither
        ("en", "no mate, did you get my text?"),
    ],
)
def test_a_no_with_a_word_of_address_that_agrees_or_asks_is_no_statement(code: str, message: str) -> None:
    assert found(message, code) == []


def test_a_word_of_address_followed_by_more_words_is_a_word_of_its_own() -> None:
    (statement,) = found("no man pages in the repo", "en")
    assert statement.cues == ("prohibition:no",)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "no boss, just the team"),
        ("de", "kein Chef, nur das Team"),
        ("es", "sin jefe, solo el equipo"),
        ("nl", "geen baas, alleen het team"),
    ],
)
def test_a_word_that_names_someone_as_often_is_no_word_of_address(code: str, message: str) -> None:
    (statement,) = found(message, code)
    assert statement.kind == "preference" and statement.cues[0].startswith("prohibition:")


def test_a_word_of_address_before_the_arabic_comma_closes_its_clause() -> None:
    (statement,) = found("لا يا عم، المنفذ 8080", "ar", answered="تم، ضبطت المنفذ على 3000.")
    assert statement.kind == "correction" and "correction:لا" in statement.cues


@pytest.mark.parametrize(
    ("code", "message", "answered"),
    [
        ("tr", "kesen firma Kaya Tarım Ltd değil abi, Mehmet Kaya", "Fatura Kaya Tarım Ltd adına kesildi."),
        ("hi", "Mr. Verma nahi yaar, Verma sir", "Done."),
    ],
)
def test_a_not_after_a_name_with_a_word_of_address_contrasts(code: str, message: str, answered: str) -> None:
    statements = found(message, code, answered=answered)
    assert [s.kind for s in statements] == ["correction"]
    assert any(c.startswith("contrast:") for c in statements[0].cues)


def test_a_word_joined_on_by_a_hyphen_is_no_word_of_address() -> None:
    (statement,) = found("No man-hours in the estimate, just story points.", "en")
    assert statement.cues == ("prohibition:no",)
    (statement,) = found("No mate\u2011hours in the estimate, just story points.", "en")
    assert statement.cues == ("prohibition:no",)
