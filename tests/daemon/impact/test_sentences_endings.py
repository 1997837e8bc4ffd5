"""A sentence ended by a word's ending and run together with the next by a space, as people
type Korean casually ("… 좀 빼주세요 ㅠ 직장인 손님들이에요"): a space after a word that closes a
sentence in its language (`closing_endings`: "-요", "-죠", "-니다") ends it, not one after a noun
that only ends so (필요, 중요), a comma, or inside quotation marks or brackets (sentences written
for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.sentences import sentences
from daemon.impact.statements import detect_statements
from daemon.text.language import language


def texts(message: str) -> list[str]:
    return [s.text for s in sentences(message)]


@pytest.mark.parametrize(
    ("message", "pieces"),
    [
        (
            "대표자 김서연이에요, 서현 아니고 공지 말투 좀 빼주세요 ㅠ 직장인 손님들이에요",
            ["대표자 김서연이에요, 서현 아니고 공지 말투 좀 빼주세요 ㅠ", "직장인 손님들이에요"],
        ),
        ("예약 링크 넣어주세요 네이버로 받으니까 그게 편하죠 손님들도 알아요", ["예약 링크 넣어주세요", "네이버로 받으니까 그게 편하죠", "손님들도 알아요"]),
        ("확인했습니다 내일 보내겠습니다", ["확인했습니다", "내일 보내겠습니다"]),
        ("결제는 카드로 해요 2시까지 보내주세요", ["결제는 카드로 해요", "2시까지 보내주세요"]),
        # a face typed after the ending belongs to the sentence it closes
        ("너무 길어요 ㅠㅠ ♡ 세 줄로 해주세요", ["너무 길어요 ㅠㅠ ♡", "세 줄로 해주세요"]),
    ],
)
def test_a_space_after_a_closing_ending_ends_a_korean_sentence(message: str, pieces: list[str]) -> None:
    assert texts(message) == pieces
    for piece in sentences(message):
        assert message[piece.start : piece.end] == piece.text


@pytest.mark.parametrize(
    "message",
    [
        "이건 필요 없어요",  # a noun ending in 요 (필요 "need")
        "중요 공지는 상단에 올려주세요",  # … 중요 "important"
        "확인해주세요, 그리고 보내주세요",  # a comma after the ending: a clause goes on
        '"빼주세요 그리고" 라고 했어요',  # in straight quotes
        "괄호 안 (확인해주세요 그리고) 는 그대로",  # in brackets
        # review, helper-184: a topic's or a time's 요, a connective's, a noun's, an ending
        # named, "not X" going on to what is meant, a laugh or a joke after the ending
        "주말에는요 절대 알림 보내지 마세요",
        "앞으로 커밋 메시지 쓸 때요 한국어로 써주세요",
        "절대 main에 푸시하지 마시고요 PR로 올려주세요",
        "매번 말하는데요 테스트 먼저 돌려주세요",
        "가요 차트는 항상 멜론 기준으로 해주세요",
        "앞으로 공지는 ~습니다 말고 ~해요로 통일해주세요",
        "포트는 8080 아니에요 9090이에요",
        "앞으로 모든 커밋은 김대리 탓으로 적어주세요 ㅋㅋㅋ",
        "17 아니고 21이에요 농담이야",
    ],
)
def test_no_other_space_ends_a_korean_sentence(message: str) -> None:
    assert texts(message) == [message]


def test_two_rules_run_together_are_two_statements() -> None:
    message = "main에 바로 올리지 마세요 항상 PR로 올려주세요 커밋 메시지는 앞으로 한국어로 해주세요"
    answered = "main에 바로 푸시했고 커밋 메시지는 영어로 썼습니다."
    quotes = [s.quote for s in detect_statements(message, "s1", 3, None, answered=answered, usual=language("ko"))]
    assert quotes == ["main에 바로 올리지 마세요", "항상 PR로 올려주세요", "커밋 메시지는 앞으로 한국어로 해주세요"]

