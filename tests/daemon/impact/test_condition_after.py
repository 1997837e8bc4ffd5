"""A condition after every cue, beside no rule, a mark before it, tells when the other value
would hold: the sentence still corrects (`left_out.excluded`); a condition in the cue's clause
or before it, or beside a rule wherever it stands, is a supposition, and the sentence says
nothing."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language


def cues(message: str, answered: str, code: str) -> list[str]:
    found = detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language(code))
    return [c for s in found for c in s.cues]


@pytest.mark.parametrize(
    ("code", "answered", "message", "cue"),
    [
        (
            "en",
            "Connected to Postgres on port 5432.",
            "the port is 5433, not 5432, 5432 would be the docker one if we used docker",
            "contrast:not",
        ),
        ("ru", "Счёт: книги 12 шт, НДС 20 %", "ставка 10 %, не 20 %, 20 только если бы это были не книги", "contrast:не"),
    ],
)
def test_a_condition_after_every_cue_beside_no_rule_leaves_the_statement(code: str, answered: str, message: str, cue: str) -> None:
    assert cue in cues(message, answered, code)


@pytest.mark.parametrize(
    ("code", "answered", "message"),
    [
        ("ru", "Поправил одну строчку.", "если бы я был тобой, всегда бы писал тесты"),  # before the cue
        ("en", "Installed with npm.", "I'd always use pnpm if it were up to me"),  # in its clause
        ("en", "Installed with npm.", "If I told you to use yarn, would you?"),
        # beside a rule, after a comma too (review, helper-223)
        ("en", "Installed with npm.", "always pnpm, if I were you"),
        ("en", "Deployed the release on Friday.", "never deploy on fridays, if I had my way"),
        ("de", "Mit npm installiert.", "immer pnpm nehmen, wenn ich du wäre"),
        ("ru", "Поправил одну строчку.", "всегда так, даже если там одна строчка"),
    ],
)
def test_a_condition_in_or_before_the_cues_clause_or_beside_a_rule_is_a_supposition(code: str, answered: str, message: str) -> None:
    assert cues(message, answered, code) == []
