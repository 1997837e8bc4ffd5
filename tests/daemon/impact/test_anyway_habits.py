"""An "always" or "never" beside a word saying "anyway" inside its clause tells how others go
whatever is done, not a rule for the agent (`anyway` in each language's data,
daemon/impact/story.py). Opening its clause the word turns to what follows; a sentence that
speaks to the agent still asks; and a rule of the person's own stays one: "we", the project,
a "must", a value, or a language whose verb alone may say "we" (review helper-208; sentences
written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

ANSWERED = "Invoice 2026-041 is drafted: 14 kegs, VAT 23 %, due in 30 days."
MERGED = "I merged the PR with a merge commit and converted the timestamps to local time."


def found(message: str, usual: str, answered: str = ANSWERED) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language(usual))


@pytest.mark.parametrize(
    ("message", "usual"),
    [
        ("the courier never rings the bell anyway", "en"),
        ("der Huber zahlt eh immer bar", "de"),
        ("Petersen zahlt sowieso nie vor dem Monatsende", "de"),
        ("le comptable ouvre jamais ses mails avant la fin du mois de toute façon", "fr"),
        ("Jansen betaalt sowieso nooit op tijd", "nl"),
        ("Бухгалтер все равно всегда звонит в пятницу", "ru"),
    ],
)
def test_an_always_beside_anyway_tells_how_others_go(message: str, usual: str) -> None:
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


@pytest.mark.parametrize(
    ("message", "usual"),
    [
        ("we always squash anyway", "en"),  # the person's own
        ("PRs always need two approvals here anyway", "en"),  # the project's
        ("the timestamps are always UTC anyway", "en"),  # a value
        ("Rechnungen müssen ohnehin immer in Euro raus", "de"),  # a "must"
        ("das machen wir eh immer so", "de"),
        ("Kowalski i tak zawsze płaci po terminie", "pl"),  # no `anyway` in Polish: "wysyłamy" says "we"
    ],
)
def test_a_rule_of_the_persons_own_beside_anyway_stands(message: str, usual: str) -> None:
    assert found(message, usual, MERGED) != []
