"""Korean's faces typed in jamo ("ㅋㅋ", "ㅠㅠ") end a clause as a comma would: what stands
before them is read as its own clause (`clauses.FACE_IN_JAMO`); a face alone says nothing."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

SUMMARY = "## 요약\n- 배치 시간 변경\n- 리포트 추가\n- 테스트 통과"
INSTALLED = "● Bash(yarn install)\n  ⎿  Done in 3.2s\nyarn으로 설치했어요."


def cues(message: str, answered: str) -> list[str]:
    found = detect_statements(message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", answered=answered, usual=language("ko"))
    return [cue for statement in found for cue in statement.cues]


@pytest.mark.parametrize(
    ("message", "answered", "cue"),
    [
        # a complaint about the agent's turn, the clause after the cry asking for what it wants
        ("요약 너무 길어요 ㅠ 바뀐 것만 두세 줄이면 돼요", SUMMARY, "excess:너무 길어요"),
        ("요약 너무 길어요 ㅠㅠ 바뀐 것만요", SUMMARY, "excess:너무 길어요"),
        # a "not" closing its clause at a laugh, what is meant after it
        ("yarn 아님ㅋㅋ 저희 pnpm 써요", INSTALLED, "contrast:아님"),
    ],
)
def test_a_face_in_jamo_ends_the_clause_before_it(message: str, answered: str, cue: str) -> None:
    assert cue in cues(message, answered)


@pytest.mark.parametrize(
    "message",
    [
        "ㅋㅋ 좋아요 감사합니다 ㅠㅠ 최고",
        "ㅎㅎ 네 그렇게 해주세요",
        "ㅠㅠ 오늘 너무 바빴어요",
    ],
)
def test_a_face_alone_says_nothing(message: str) -> None:
    assert cues(message, SUMMARY) == []
