"""A "no" declining what the agent offered at its turn's end with no question mark ("… if you
want.", "Если нужно, могу …"; `offering`, daemon/impact/reply.py) answers it as a "no" to a
question does, and corrects nothing; what follows the "no" keeps its cues (sentences written for
these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements


def found(message: str, answered: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 5, "2026-04-14T10:00:00+00:00", answered=answered)


@pytest.mark.parametrize(
    ("offered", "done", "message"),
    [
        (
            "The quote for Mr Hale is ready.\n\nI can email it to him as a PDF if you give me his address.",
            "The quote for Mr Hale is ready.\n\nI emailed it to him as a PDF.",
            "no, I'll hand it to him myself tomorrow",
        ),
        (
            "המחירון מעודכן. אפשר להעלות אותו גם לדף הפייסבוק אם תרצה.",
            "המחירון מעודכן. העליתי אותו גם לדף הפייסבוק.",
            "לא, את הפייסבוק אני מעדכן לבד.",
        ),
        (
            "Сводка готова. Если нужно, могу присылать её каждый понедельник в 9:00.",
            "Сводка готова. Я настроил отправку каждый понедельник в 9:00.",
            "нет, сводку я пока буду собирать сама.",
        ),
        (
            "Todavía no falla; es solo un aviso. Si quieres lo cambio ya a argumentos por nombre.",
            "Todavía no falla; es solo un aviso. Lo cambié ya a argumentos por nombre.",
            "no, así déjalo, ahorita no le muevo a eso.",
        ),
    ],
)
def test_a_no_declining_an_offer_corrects_nothing(offered: str, done: str, message: str) -> None:
    assert found(message, offered) == []
    (said,) = found(message, done)  # the same "no" to what the agent did corrects it
    assert said.kind == "correction"


def test_an_offer_before_the_last_line_is_no_offer_at_the_end() -> None:
    told = "I can add a deposit line if you want.\n\nThe invoice is sent to Mr Hale."
    (said,) = found("no, I'll hand it to him myself tomorrow", told)
    assert said.kind == "correction"


def test_what_follows_a_no_to_an_offer_keeps_its_own_cues() -> None:
    offered = "The banner is live on the shop page. I can add it to the checkout too if you like."
    (said,) = found("No, never put banners on the checkout.", offered)
    assert said.kind == "standing_instruction"
    assert not any(c.startswith("correction:") for c in said.cues)


def test_a_value_after_a_no_to_an_offer_still_sets_it_right() -> None:
    offered = "Invoice drafted with a 20% deposit line. I can send it to the client if you want."
    (said,) = found("No, the deposit is 30%.", offered)
    assert said.kind == "correction"
