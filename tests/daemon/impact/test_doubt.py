"""A word of the agent's turn said back in disbelief ("??"), then set right: a correction in
any language, with no word list (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("I set Tom's terms to 60 days credit.", "Tom ko 60 days credit?? naya buyer hai, 30 advance 70 BL copy pe"),
        ("I created the bucket in us-east-1.", "רגע, us-east-1?? הכל אצלנו ב-eu-central-1, פרנקפורט"),
        ("I put the summary at the top (resumen arriba).", "y el resumen arriba?? tres bullets, como en el del Buen Fin"),
        ("I set Tom's terms to 60 days credit.", "60 days?! naya buyer hai, 30 advance"),
        ("スケジュールを15日に入れました。", "15日？？ 水曜は定休日、16日にして"),
    ],
)
def test_a_word_of_the_agents_said_back_in_disbelief_then_set_right_is_a_correction(agent: str, message: str) -> None:
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, answered=agent)
    assert statement.kind == "correction" and statement.cues[0].startswith("doubt:")
    assert statement.quote == message


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("Done, tests pass.", "did it work?? great"),  # no word of the agent's turn
        ("I deleted the old logs.", "you deleted the logs?? why?"),  # asks on
        ("I deployed to staging.", "deployed to staging?? nice, thanks!"),  # praises: no value
        ("I deployed to staging.", "deployed to staging?? wow. ok"),
        ("I deployed to staging.", "deployed to staging??\n\nAnyway, the 3 PRs: merge them."),  # another paragraph
        ("", "deployed to staging?? we use prod-2"),  # answering no turn of the agent's
    ],
)
def test_disbelief_without_a_value_set_right_after_it_is_not_a_correction(agent: str, message: str) -> None:
    found = detect_statements(message, "s1.jsonl", 3, None, answered=agent)
    assert not any(c.startswith("doubt:") for s in found for c in s.cues)
