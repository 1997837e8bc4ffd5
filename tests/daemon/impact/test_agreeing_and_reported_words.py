""""No, you're right" as people say it, and other people's words in Korean: neither is the
person correcting the agent or setting a rule (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements

AGENT = "Done, I updated the file."


@pytest.mark.parametrize(
    "message",
    [
        "لا، صح كلامك، 95 معقولة",
        "لا، معاك حق",
        "לא לא, זה נכון, שומרים את זה שנים.",
        "nahi, sahi kiya, 5% theek hai",
        "nahi, tum sahi ho, alag hi jaayenge.",
        "नहीं, सही किया",
    ],
)
def test_no_followed_by_youre_right_agrees(message: str) -> None:
    assert detect_statements(message, "s1.jsonl", 3, None, answered=AGENT) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("لا، الصح 8 مش 9", "correction:لا"),
        ("לא, זה לא נכון, הפורט הוא 8080", "correction:לא"),
    ],
)
def test_no_followed_by_a_correction_still_corrects(message: str, cue: str) -> None:
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, answered=AGENT)
    assert statement.kind == "correction" and cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "재무팀 민지님이 정산 리포트는 무조건 엑셀로 달라고 하셨는데 그건 다음 주에 따로 하고",
        "보안팀 가이드에 '개인정보는 절대 로그에 남기지 않는다'라고 돼 있긴 한데 마스킹하면 허용이래요",
    ],
)
def test_korean_rules_someone_else_set_are_reported_not_given(message: str) -> None:
    assert detect_statements(message, "s1.jsonl", 3, None, answered=AGENT) == []


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("내가 pnpm 쓰라고 했잖아요", "correction"),
        ("절대 로그에 카드번호 남기지 마세요", "standing_instruction"),
    ],
)
def test_korean_rules_of_ones_own_are_still_given(message: str, kind: str) -> None:
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, answered=AGENT)
    assert statement.kind == kind
