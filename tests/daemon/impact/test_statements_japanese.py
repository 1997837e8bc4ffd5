"""Japanese as people type it to an agent after its work (sentences written for these tests):
"not" said after what it negates ("10%ちゃう", "水曜ではありません"), a day of the week named
as a name is, a way asked for with で and a verb of writing or giving ("税込で出して"), and a
file's name opening what is asked for ("overrides.ts の方でお願いします"); and a term in Latin
letters before a "not" said after it, in Korean and Hindi too ("mvn 아니에요, gradle이에요")."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "請求書を作成しました。消費税(10%) ¥4,800。定休日は毎週水曜日です。価格は税抜で表示しています。"


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=AGENT, usual=language("ja"))


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("持ち帰りは軽減税率で8%やで、10%ちゃう", "contrast:ちゃう"),
        ("定休日は火曜や、水曜ちゃうで", "contrast:ちゃう で"),
        ("持ち帰りは8%です、10%じゃないです", "contrast:じゃ ない です"),
        ("サイトは税込で出してください、税抜だけ出すのは総額表示でアウトです", "asked:で 出し て くだ さい"),
        ("ＣＳＶはShift_JISで出して", "asked:で 出し て"),
        ("値段は税込で書いて", "asked:で 書 い て"),
        ("変換は overrides.ts の方でお願いします", "asked:で お願い し ます"),
    ],
)
def test_what_corrects_or_asks_for_a_way_is_found(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "それは問題じゃないです",  # "that is not a problem": no name before the "not"
        "悪くないじゃない",  # "not bad, is it": no name
        "まだ準備中じゃない？",  # asks
        "うちは月末締めなので、請求書の日付は末日で出してます",  # tells how it is done (出して + ます)
    ],
)
def test_what_only_says_not_or_tells_is_not(message: str) -> None:
    assert found(message) == []


def test_may_is_no_month_where_it_says_may() -> None:
    # "sookhta" keys as a word of permission in Hindi typed in Latin letters (the table's "may"):
    # it names nothing, so "…, X nahi" after it is no "not X"
    message = "pichhle saal lot late hua tha, indigo sookhta hi nahi"
    assert detect_statements(message, "s1", 3, None, answered="Done, I updated the sheet.", usual=language("hi")) == []


@pytest.mark.parametrize(
    ("code", "message", "answered"),
    [
        ("ko", "mvn 아니에요, gradle이에요", "mvn clean install 로 빌드했습니다."),
        ("hi", "npm नहीं, pnpm", "Done, installed with npm."),
    ],
)
def test_a_term_in_latin_letters_opening_the_sentence_names_what_is_not_meant(code: str, message: str, answered: str) -> None:
    # in a language of another script, a word in Latin letters names a thing as a capital would
    (statement,) = detect_statements(message, "s1", 3, None, answered=answered, usual=language(code))
    assert statement.kind == "correction" and any(c.startswith("contrast:") for c in statement.cues)


def test_a_korean_not_after_no_name_is_no_contrast() -> None:
    assert detect_statements("오늘은 아니에요, 내일 해요", "s1", 3, None, answered="배포했습니다.", usual=language("ko")) == []
