"""A bare "always" or "never" answered by the agent in a line of talk stays a rule: a reading of
such a sentence as a remark when the reply, in one paragraph, acknowledged nothing, changed
nothing and took no word of it up (tried, then taken back: a review, helper-139, found these
replies of agents to rules it dropped)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

BEFORE = "Done: the March invoices are in invoices/2026-03/, twelve PDFs."


def found(message: str, reply: str, code: str = "en", answered: str = BEFORE) -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-12-01T10:00:00+00:00", answered=answered, usual=language(code), reply=reply
    )


@pytest.mark.parametrize(
    ("message", "reply", "code"),
    [
        ("never skip the tests", "You're right, I shouldn't have done that.", "en"),
        ("never skip the tests", "Sounds good.", "en"),
        ("never skip the tests", "Makes sense.", "en"),
        ("never skip the tests", "Thank you — I'll keep that in mind.", "en"),
        ("never force-push to main", "Should I add branch protection so this can't happen by accident?", "en"),
        ("always reply in Spanish", "¡Claro! Responderé en español.", "en"),
        ("always use British spelling. write a tagline for the bakery", '"Freshly baked flavour, every morning."', "en"),
        ("Rechnungen immer als PDF", "Klar, mache ich.", "de"),
        ("请求书永远用PDF", "没问题。", "zh"),
    ],
)
def test_always_or_never_answered_in_a_line_of_talk_stays_a_rule(message: str, reply: str, code: str) -> None:
    assert any(s.kind == "standing_instruction" for s in found(message, reply, code))
