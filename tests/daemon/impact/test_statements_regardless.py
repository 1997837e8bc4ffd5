"""An "always" or a "never" right after a word that says a thing is so whatever anyone does
(`impact.regardless`: "eh", "i tak", "stejně", "zaten"), after the clause's subject, tells how
others are, not a rule (`daemon.impact.story`); sentences written for these tests, the rules
kept among them from helper-166's review."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

AGENT = "Done: the reminder list is updated and the invoices for March are drafted."


def cues(message: str, code: str) -> list[str]:
    return [c for s in detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code)) for c in s.cues]


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("de", "der Obmann zahlt eh immer bar"),
        ("de", "der Bäcker Strobl zahlt eh nie pünktlich"),
        ("pl", "ksiegowa i tak zawsze narzeka na spacje"),
        ("cs", "Martin stejně vždycky vrací sudy až po měsíci"),
    ],
)
def test_how_others_are_whatever_anyone_does_is_no_rule(code: str, message: str) -> None:
    assert not cues(message, code)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # the word stands after the cue, or opens the clause: no subject before it
        ("en", "Invoices are always in EUR regardless of the client's country."),
        ("en", "You should always run the linter anyway."),
        ("nb", "Kjør alltid testene uansett."),
        ("ko", "어차피 항상 UTC로 써 주세요."),
        ("pl", "Faktury zawsze wystawiaj w EUR i tak dalej"),
        ("cs", "Faktury vždycky formátuj stejně jako minule"),
        # a request's verb or an imperative in the clause
        ("de", "Schick die Rechnungen sowieso immer in EUR."),
        ("cs", "Faktury stejně vždycky posílej v EUR"),
        # the person's own way: a house rule
        ("de", "wir schicken eh immer zwei Mahnungen"),
    ],
)
def test_a_rule_said_with_anyway_stays_a_rule(code: str, message: str) -> None:
    assert any(c.startswith("standing:") for c in cues(message, code)), cues(message, code)


def test_a_message_of_thousands_of_resigned_cues_is_read_in_linear_time() -> None:
    # each clause is read for a request once, each cue looks its word up by position
    assert len(cues("der Obmann zahlt eh immer bar, " * 3000, "de")) <= 1
