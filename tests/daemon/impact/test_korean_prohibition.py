"""Korean says "don't" at a sentence's end, by the negative imperative of 말다 in every register
(`preference` in ko.yaml): 마세요, 마십시오, and the plain 마라, the polite-casual 마요, 말아요 and
Gyeongsang's 마소 (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

ASKED = "공지 초안 올렸습니다. 배송 안내 문구도 넣어 두었어요."


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("공지에 이모티콘 달지 마라", "마라"),
        ("토요일 도착 이런 문구 적지 마요", "마요"),
        ("입금 확인 전에는 발송 처리하지 말아요", "말아요"),
        ("단골한테 가는 문자에 가격 붙이지 마소", "마소"),
        ("주문 들어오자마자 확정하지 마세요", "마세요"),
    ],
)
def test_the_negative_imperative_in_every_register_is_a_prohibition(message: str, said: str) -> None:
    (found,) = detect_statements(message, "s1.jsonl", 3, None, answered=ASKED, usual=language("ko"))
    assert found.kind == "preference"
    assert f"preference:{said}" in found.cues


def test_a_word_that_only_starts_like_it_is_none() -> None:
    assert detect_statements("마라톤 참가비는 어제 입금했어요", "s1.jsonl", 3, None, answered=ASKED, usual=language("ko")) == []
