"""A "don't" said right after its verb, as Korean says it: "-지 마" ("확정하지 마라", don't
confirm) and "-면 안 돼" ("건들면 안되고", must not touch) forbid whatever verb they close;
the same words alone do not ("마라 떡볶이" is a dish, "참치 마요" mayonnaise), nor after a
noun ("결제 화면 안돼요": the payment screen does not work), nor with the other's negation
("로그인 유지 안돼요": staying logged in fails), nor "걱정하지 마요" (don't worry). Sentences written for these tests, in the shapes the seventy-second corpus showed once
read."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "주간탭에 이번 주 주문 정리했어요. 스마트스토어 주문은 확정 처리했습니다."


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=AGENT, usual=language("ko"))


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("원본탭은 본사 POS에서 넘어오는거라 건들면 안되고 니꺼는 주간탭에", "prohibition:건들면 안되고"),
        ("들어오자마자 확정하지 마라, 내가 누른다", "prohibition:확정하지 마라"),
        ("스마트스토어 재고 그대로 넣으면 안 돼요", "prohibition:넣으면 안 돼요"),
        ("카톡에 ₩ 쓰지 마세요", "prohibition:쓰지 마세요"),
        # whoever the clause names, and "we" (review helper-214)
        ("제가 확인하기 전에는 머지하면 안 돼요", "prohibition:머지하면 안 돼요"),
        ("우린 main에 직접 푸시하면 안 돼", "prohibition:푸시하면 안 돼"),
    ],
)
def test_a_dont_right_after_its_verb_forbids(message: str, cue: str) -> None:
    statements = found(message)
    assert any(cue in s.cues for s in statements)
    assert {s.kind for s in statements} == {"preference"}


@pytest.mark.parametrize(
    "message",
    [
        "마라 떡볶이 주문 들어왔어",
        "참치 마요 3개 추가",
        "결제 화면 안돼요",
        "메시지 마요 빼고 보냈어",
        "걱정하지 마요, 괜찮아",
        "이 파일 건들면 안 돼요?",  # a question
        # review helper-213: each form with its own negation ("staying logged in fails"),
        # reassurances
        "로그인 유지 안돼요",
        "알림 중지 안 돼요, 계속 와요",
        "너무 자책하지 마",
        "걱정하지 말아",
        "오해하지 마요, 보고서 좋아",
        "무리하지 마",
    ],
)
def test_the_same_words_after_no_verb_so_formed_forbid_nothing(message: str) -> None:
    assert found(message) == []
