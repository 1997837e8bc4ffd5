"""An ideographic space between Chinese or Japanese letters ends a sentence, as people type
them casually; inside brackets or quotation marks, or between other letters, it ends nothing.
A half-width space between letters of a script written without spaces ends one after a closing
particle (`space_ends_after`: Thai ค่ะ, Chinese 喔) (sentences written for these tests)."""

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


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # Thai spaces sentences, not words: after a closing particle the space ends one
        ("มัดจำคนละ 500 บาทค่ะ ไม่ใช่ 30% แล้ว 1,500 คือรวม VAT แล้วนะคะ ไม่ต้องบวก 7% เพิ่ม",
         ["มัดจำคนละ 500 บาทค่ะ ไม่ใช่ 30% แล้ว 1,500 คือรวม VAT แล้วนะคะ", "ไม่ต้องบวก 7% เพิ่ม"]),
        ("ส่งพรุ่งนี้ครับ อย่าส่งวันนี้", ["ส่งพรุ่งนี้ครับ", "อย่าส่งวันนี้"]),
        # Chinese typed with a space for a pause, after 喔 / 啦
        ("大杯才有喔 中杯不參加", ["大杯才有喔", "中杯不參加"]),
        ("不要用簡體啦 我們是台灣", ["不要用簡體啦", "我們是台灣"]),
        # Japanese after よ / です
        ("水曜は休みだよ 木曜に送って", ["水曜は休みだよ", "木曜に送って"]),
    ],
)
def test_a_half_width_space_after_a_closing_particle_ends_a_sentence(message: str, expected: list[str]) -> None:
    assert texts(message) == expected
    for piece in sentences(message):
        assert message[piece.start : piece.end] == piece.text


@pytest.mark.parametrize(
    "message",
    [
        # between other letters a half-width space is inside a sentence: an address, a list
        "信義店是松仁路 58 號 不是松高路",
        "甜度寫 正常糖 少糖 半糖",
        "ห้อง Deluxe ราคา 1,200 บาท",
        "ใช้ชื่อ บ้านลานนา ในข้อความ",
        # a particle inside brackets or quotation marks
        "標題寫「好喝喔 快來買」就好",
        # between Latin letters nothing changes
        "always run the tests first please",
        # review helper-151: a word that only ends in a particle's letters ("ชนะ", "除了",
        # "完了", "たいへん"), 了 that marks the aspect, a contrast after the space ("不是")
        "ทีมเราชนะ เพราะเราซ้อมทุกวัน",
        "ผมก็เลย ลองใช้ตัวใหม่",
        "除了 這兩個檔案 其他都不要動",
        "我們改用 pnpm 了 不是 npm",
        "金額用分存吧 不是浮點數",
        "テスト完了 次は本番",
        "たいへん 助かりました",
    ],
)
def test_a_half_width_space_elsewhere_ends_nothing(message: str) -> None:
    assert texts(message) == [message]


def test_two_thai_corrections_of_one_message_are_two_statements() -> None:
    agent = "Deposit: 30% of the total. Price 1,500 THB per person plus 7% VAT (1,605 THB)."
    message = "มัดจำคนละ 500 บาทค่ะ ไม่ใช่ 30% แล้ว 1,500 คือรวม VAT แล้วนะคะ ไม่ต้องบวก 7% เพิ่ม"
    reply = "Price: 1,500 THB/person (VAT included, no 7% on top)\nDeposit: 500 THB/person"
    found = detect_statements(message, "s1", 3, None, answered=agent, reply=reply)
    quotes = [s.quote for s in found]
    assert any(q.startswith("มัดจำคนละ 500") and "ไม่ต้องบวก" not in q for q in quotes), quotes
    assert any(q.startswith("ไม่ต้องบวก") for q in quotes), quotes


def test_a_long_thai_message_of_many_spaces_is_read_piece_by_piece() -> None:
    message = " ".join(["ส่งพรุ่งนี้ค่ะ"] * 5000)
    found = sentences(message)
    assert len(found) == 5000


@pytest.mark.parametrize(
    "text",
    ['aur "Mr. Sharma" nahi, Sharma sir likho', "ask (Dr. Who) for the keys", "sag «Dr. Meier» Bescheid", "i tak „Dr. Nowak” nie przyjdzie"],
)
def test_an_abbreviation_opened_by_a_quote_or_a_bracket_ends_no_sentence(text: str) -> None:
    assert [s.text for s in sentences(text)] == [text]


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # an abbreviation the quote or bracket closes right after is named, not used (review, helper-155)
        ('just remove the "etc." Always list every item.', ['just remove the "etc."', "Always list every item."]),
        ("you wrote (approx.) Never guess numbers.", ["you wrote (approx.)", "Never guess numbers."]),
    ],
)
def test_an_abbreviation_closed_by_its_quote_is_named_and_the_sentence_ends(text: str, parts: list[str]) -> None:
    assert [s.text for s in sentences(text)] == parts


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a half-width space before a word that opens the next point (`space_ends_before`),
        # after a digit or a letter alike
        ("信義店開到 23:00 不是 22:00 然後「服務質量」寫「服務品質」", ["信義店開到 23:00 不是 22:00", "然後「服務質量」寫「服務品質」"]),
        ("中杯不參加 還有「視頻」我們說「影片」", ["中杯不參加", "還有「視頻」我們說「影片」"]),
        ("ลบ 543 ด้วย แล้ว แท็บ live ห้ามแตะนะคะ", ["ลบ 543 ด้วย", "แล้ว แท็บ live ห้ามแตะนะคะ"]),
    ],
)
def test_a_half_width_space_before_the_next_point_ends_a_sentence(message: str, expected: list[str]) -> None:
    assert texts(message) == expected
    for piece in sentences(message):
        assert message[piece.start : piece.end] == piece.text


@pytest.mark.parametrize(
    "message",
    [
        # an order's first step or a rule's scope before it: what it says holds for what
        # follows (`impact.first`, `impact.standing`; review helper-175)
        "先跑測試 然後部署",
        "ส่งเทสก่อน แล้วค่อยส่งจริง",
        "以後每次部署 然後都要通知我",
        # a "don't" before it: one rule (`prohibition_openers`, `stop_openers`; review helper-176)
        "不要直接推主分支 然後開合併請求",
        "ห้ามแก้ไฟล์นี้ตรงๆ แล้วเปิด PR",
        # a condition before it: the rule holds only then (review helper-177)
        "如果客人問價格 然後一律回答五百元",
        "ถ้าลูกค้าเป็นบริษัท แล้วต้องออกใบกำกับภาษีเต็มรูปทุกครั้ง",
        # after a Latin letter: English or a code name naming the word
        "Wrong, the word should be 然後 not 然后.",
        # the next step of an order after it (`impact.then`)
        "跑完測試 然後再部署",
        "รันเทสให้ผ่าน แล้วค่อย deploy",
        # Thai "แล้ว" also says "already": before a closing particle, or last
        "ราคา 1,500 รวม VAT แล้วนะคะ",
        "ราคา 1,500 รวม VAT แล้ว",
    ],
)
def test_a_word_that_may_open_a_point_ends_nothing_in_an_order_a_scope_or_as_already(message: str) -> None:
    assert texts(message) == [message]


def test_two_chinese_points_run_together_are_two_statements() -> None:
    agent = "端午節公告：信義店營業至 22:00。為了給您更好的服務質量，歡迎預訂。"
    message = "信義店那天開到 23:00 不是 22:00 然後「服務質量」是對岸講法 寫「服務品質」"
    reply = "端午節公告：信義店營業至 23:00。歡迎預訂，給您更好的服務品質。"
    quotes = [s.quote for s in detect_statements(message, "s1", 3, None, answered=agent, reply=reply)]
    assert any("23:00" in q and "服務" not in q for q in quotes), quotes
