"""A sentence whose words several languages share as much is read in the language the person
writes in (`daemon.text.language.within`): German "nie" is "never", Polish "nie" is "no". And
the lead-ins people type before a "no" ("ah no", "heu non"). Sentences written for these tests
in the shapes the read corpora showed."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import detect, language, within

AGENT = "Done, I updated the file."


def found(message: str, code: str | None) -> list[Statement]:
    usual = language(code) if code else None
    return detect_statements(message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", answered=AGENT, usual=usual)


# the sentence with "nie" fits German and Polish alike; the message around it is Polish
POLISH_NO = [
    "haha nie. Daj znać, jak skończysz.",
    "nie nie, Becker mowi po polsku lepiej niz ja. Wyślij mu maila po polsku.",
    "nie no, dysk tylko sie powiekszyl, nic nie padlo. Dzięki za sprawdzenie.",
]


@pytest.mark.parametrize("message", POLISH_NO)
def test_a_polish_no_in_a_polish_session_is_no_never(message: str) -> None:
    assert found(message, "pl") == []


@pytest.mark.parametrize("message", POLISH_NO)
def test_the_same_words_in_a_german_session_read_nie_as_never(message: str) -> None:
    """The German reading stays for a person who writes German: the session decides."""
    assert [s.cues for s in found(message, "de")] == [("standing:nie",)]


def test_a_merge_resolves_to_the_first_language_written_in_and_only_to_one_of_its_own() -> None:
    merge = detect(["nie nie."])
    assert merge is not None and merge.code == "de+pl"
    polish, german, french = language("pl"), language("de"), language("fr")
    assert within(merge, None, polish) is polish
    assert within(merge, german, polish) is german
    assert within(merge, french) is merge  # not one of the merge: the words still tell
    assert within(merge) is merge
    assert within(polish, german) is polish  # one language told: kept
    assert within(None, polish) is None


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("en", "Ah no, the invoices go to finance.", "correction:no"),
        ("fr", "heu non, la réunion c'est jeudi.", "correction:non"),
    ],
)
def test_a_no_after_an_interjection_opens_a_correction(code: str, message: str, cue: str) -> None:
    (statement,) = found(message, code)
    assert statement.kind == "correction" and statement.cues == (cue,)


@pytest.mark.parametrize(
    "message", ["ah no you're grand, nobody uses that dropdown.", "no you're grand, I'll do that myself"]
)
def test_no_youre_grand_declines(message: str) -> None:
    assert found(message, "en") == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("cs", "Je to tak, že faktury posíláme vždy v pondělí."),  # "it's like this: …"
        ("cs", "Ne, je to tak, že faktury posíláme vždy v pondělí."),
        ("da", "Ikke endnu færdig, du skal aldrig merge før review."),  # "not done yet"
        ("en", "you're grand, just never push to main"),
        ("tr", "Hayır, haklı olabilirsin, ama raporda asla kuruş gösterme."),
        ("ja", "せやな、今後は税込で出してな"),  # "right, from now on …": no "no" before it
    ],
)
def test_words_that_may_grant_the_agent_is_right_still_open_the_rule_after_them(code: str, message: str) -> None:
    (statement,) = found(message, code)
    assert statement.kind == "standing_instruction"
