"""Korean says "don't" at a clause's end in every politeness form: 쓰지 마세요, and the plain
and casual 쓰지 마라, 붙이지 마요, 넣지 말아요 (`impact.preference`; sentences written for these
tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language


@pytest.mark.parametrize(
    "message",
    ["토요일 도착 이런 거 쓰지 마라, 롯데는 토욜 배송 안 돼요", "금액 앞에 ₩ 붙이지 마요", "이모지 넣지 말아요", "이모지 넣지 마세요"],
)
def test_a_korean_dont_in_every_politeness_form_is_a_preference(message: str) -> None:
    (statement,) = detect_statements(message, "s1", 3, None, answered="완료했습니다.", usual=language("ko"))
    assert statement.kind == "preference"
