"""An "always" or a "never" beside a word that says a thing is so whatever anyone does
(`impact.regardless`: "anyway", "eh", "i tak", "uansett", "zaten") tells how others are, not a
rule (`daemon.impact.story`); sentences written for these tests."""

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
        ("en", "the panto folk never pay before March anyway"),
        ("de", "der Obmann zahlt eh immer bar"),
        ("nb", "Jostein glemmer alltid rampen uansett"),
        ("pl", "ksiegowa i tak zawsze narzeka na spacje"),
        ("cs", "Martin stejně vždycky vrací sudy až po měsíci"),
        ("fr", "les jeunes lisent jamais le groupe de toute facon"),
    ],
)
def test_how_others_are_whatever_anyone_does_is_no_rule(code: str, message: str) -> None:
    assert not cues(message, code)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # the word opens its clause, as a rule's does
        ("en", "always CC Dana anyway"),
        # the person's own way: a house rule
        ("en", "we never deploy on Fridays anyway"),
        ("de", "wir schicken eh immer zwei Mahnungen"),
        # the word gives a later clause's reason
        ("pl", "nigdy nie pushuj na main, main jest chroniony i tak by nie przeszlo"),
    ],
)
def test_a_rule_said_with_anyway_stays_a_rule(code: str, message: str) -> None:
    assert any(c.startswith("standing:") for c in cues(message, code)), cues(message, code)
