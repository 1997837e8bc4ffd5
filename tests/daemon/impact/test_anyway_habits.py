"""An "always" or "never" beside a word saying "anyway" inside its clause tells how things go
whatever is done, not a rule for the agent (`anyway` in each language's data,
daemon/impact/story.py); opening its clause the word turns to what follows, and a sentence that
speaks to the agent still asks (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

ANSWERED = "Invoice 2026-041 is drafted: 14 kegs, VAT 23 %, due in 30 days."


def found(message: str, usual: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, None, answered=ANSWERED, usual=language(usual))


@pytest.mark.parametrize(
    ("message", "usual"),
    [
        ("the courier never rings the bell anyway", "en"),
        ("der Huber zahlt eh immer bar", "de"),
        ("Kowalski i tak zawsze płaci po terminie", "pl"),
        ("Novák stejně vždycky platí až po splatnosti", "cs"),
        ("le comptable ouvre jamais ses mails avant le 20 de toute façon", "fr"),
    ],
)
def test_an_always_beside_anyway_tells_how_things_go(message: str, usual: str) -> None:
    assert found(message, usual) == []


@pytest.mark.parametrize("message", ["anyway, always cc me on the invoices", "anyway always cc me on the invoices"])
def test_anyway_opening_its_clause_turns_to_a_rule(message: str) -> None:
    (said,) = found(message, "en")
    assert said.kind == "standing_instruction"


def test_a_rule_in_another_clause_than_the_anyway_stands() -> None:
    (said,) = found("always attach the PDF, he never reads the email body anyway", "en")
    assert said.kind == "standing_instruction"


def test_a_sentence_speaking_to_the_agent_still_asks() -> None:
    assert found("you always leave out the VAT line anyway", "en") != []
