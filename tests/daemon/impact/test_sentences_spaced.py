"""An ideographic space between Chinese or Japanese letters ends a sentence, as people type
them casually; inside brackets or quotation marks, or between other letters, it ends nothing
(sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.sentences import sentences
from daemon.impact.statements import detect_statements

SPACE = "\u3000"


def texts(message: str) -> list[str]:
    return [s.text for s in sentences(message)]


def test_an_ideographic_space_between_japanese_letters_ends_a_sentence() -> None:
    message = f"請求書は税込で出して{SPACE}先方のシステムが税抜を読まへんねん{SPACE}あと宛名は様で"
    assert texts(message) == ["請求書は税込で出して", "先方のシステムが税抜を読まへんねん", "あと宛名は様で"]


def test_the_offsets_of_each_piece_point_into_the_message() -> None:
    message = f"  ああ{SPACE}{SPACE}配送は火曜や。次"
    for piece in sentences(message):
        assert message[piece.start : piece.end] == piece.text
    assert texts(message) == ["ああ", "配送は火曜や。", "次"]


@pytest.mark.parametrize(
    "message",
    [
        # inside corner brackets, a name with its space ("佐藤 花子" written full-width)
        f"署名は「デザイン室{SPACE}佐藤」だけにして",
        # inside round brackets, full-width and half-width
        f"宛先（経理部{SPACE}山田）に送って",
        f"宛先(経理部{SPACE}山田)に送って",
        # beside a Latin word or a digit: a space of layout, not the end of a sentence
        f"ブランチは{SPACE}main{SPACE}から",
        f"合計{SPACE}300円",
        # a half-width space among ideographs is as often inside one (an address, an account)
        "梅田支店 普通 7283941 です",
    ],
)
def test_the_space_ends_nothing_inside_brackets_nor_beside_other_letters(message: str) -> None:
    assert texts(message) == [message]


def test_a_closed_bracket_does_not_keep_the_next_space_from_ending_a_sentence() -> None:
    message = f"件名は「月次報告」で{SPACE}本文は三行まで"
    assert texts(message) == ["件名は「月次報告」で", "本文は三行まで"]


def test_chinese_too() -> None:
    assert texts(f"别用旧版本{SPACE}我们用新的") == ["别用旧版本", "我们用新的"]


def test_two_points_of_one_message_spaced_so_are_two_statements() -> None:
    agent = "店舗のお知らせを作りました：\n定休日は毎週水曜日です。価格は税抜で表示しています。"
    message = f"定休日は火曜や、水曜ちゃうで{SPACE}値段は税込で出さんといて言うたやろ、税抜はあかん"
    found = detect_statements(message, "s1", 3, None, answered=agent)
    quotes = [s.quote for s in found]
    assert any("値段は税込" in q and "定休日" not in q for q in quotes), quotes


def test_a_long_message_of_many_spaces_is_read_piece_by_piece() -> None:
    message = SPACE.join(["在庫を確認して"] * 5000)
    found = sentences(message)
    assert len(found) == 5000
    assert all(message[s.start : s.end] == "在庫を確認して" for s in found)


@pytest.mark.parametrize(
    "message",
    [
        f"今後は{SPACE}必ずテストを走らせてから{SPACE}プッシュしてください",
        f"絵文字は{SPACE}使わないでください",
        f"把{SPACE}旧文件删掉",
    ],
)
def test_a_particle_before_the_space_joins_on(message: str) -> None:
    # review helper-148: the topic before は, a clause ending in から, a leading 把
    assert texts(message) == [message]
