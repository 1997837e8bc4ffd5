"""The lists Japanese, Korean, Chinese and Thai lacked (`impact.every`, `third_person`,
`precedent`, `sympathy`, `kidding`, `house`, `address`, `request_question_closing`): each
phrase read where it makes or keeps the right reading, and not where it would misfire
(sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.reply import Reply
from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done: I ran the import on production, 412 rows written."
# an agent's turn that runs a command on port 5432, in each language
PSQL = {
    "ja": "`psql postgres://rota@localhost:5432/rota -c 'select 1'` を実行してロックを再現しています。",
    "zh": "正在运行 `psql postgres://rota@localhost:5432/rota -c 'select 1'` 复现锁的问题。",
    "th": "กำลังรัน `psql postgres://rota@localhost:5432/rota -c 'select 1'` เพื่อดูปัญหา lock",
}
# the person's words on the port, in each language: no cue of their own
PORT = {"ja": "ローカルのDBは5433です。", "zh": "本地数据库在5433。", "th": "db อยู่ที่ 5433 ครับ"}


def found(message: str, code: str, answered: str = AGENT, reply: str = "") -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=answered, usual=language(code), reply=reply)


def cues(message: str, code: str, answered: str = AGENT) -> list[str]:
    return [c for s in found(message, code, answered) for c in s.cues]


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("ja", "各請求書は税込で出して", "standing:各"),
        ("ja", "毎リリースのタグ付けは必須です", "standing:毎"),
        ("zh", "每个PR都必须写描述", "standing:每 个"),
        ("zh", "每张发票都需要抄送财务", "standing:每 张"),
        ("ko", "각 PR에는 설명을 꼭 써 주세요", "standing:각"),
        ("ko", "매 배포 전에 꼭 백업해 주세요", "standing:매"),
        ("th", "แต่ละ PR ต้องมีคำอธิบาย", "standing:แต่ละ"),
    ],
)
def test_each_opening_a_clause_that_asks_is_a_rule(code: str, message: str, cue: str) -> None:
    statements = found(message, code)
    assert statements and statements[0].kind == "standing_instruction" and cue in statements[0].cues, statements


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ja", "各テストが通りました"),  # a report
        ("ja", "毎度ありがとうございます、助かります"),  # 毎度 is a word of its own
        ("zh", "每个测试都通过了"),
        ("zh", "每个人都很忙"),  # 每个人 is one word: everyone
        ("ko", "각 테스트가 통과했어요"),
        ("ko", "매 순간이 소중해"),
        ("th", "แต่ละไฟล์ผ่านหมดแล้ว"),
        ("th", "แต่ละคนมีงานของตัวเอง"),
    ],
)
def test_each_in_a_report_is_no_rule(code: str, message: str) -> None:
    assert not any(c.startswith("standing:") for c in cues(message, code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ja", "彼はいつもレビューを忘れる"),
        ("ja", "あいつはいつも遅刻する"),
        ("zh", "他总是忘记写测试"),
        ("zh", "那家伙总是不写测试"),
        ("ko", "그녀는 항상 테스트를 안 써요"),
        ("ko", "그 사람은 항상 늦어요"),
        ("th", "เขาลืมเขียนเทสเสมอ"),
        ("th", "พวกเขาส่งช้าทุกครั้ง"),
        ("th", "เค้าลืมเสมอ"),
    ],
)
def test_always_said_of_a_third_person_tells_a_habit(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ja", "いつもレビューを忘れないで"),
        ("zh", "总是先写测试"),
        ("ko", "항상 테스트 먼저 돌려요"),
        ("th", "ถามผมก่อนทุกครั้ง"),
    ],
)
def test_always_with_no_third_person_stays_a_rule(code: str, message: str) -> None:
    statements = found(message, code)
    assert statements and statements[0].kind == "standing_instruction"


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("ja", "件名はv2.1、前回と同じで", "precedent:前回 と 同じ で"),
        ("ja", "3行で、いつも通りで", "precedent:いつも 通り で"),
        ("zh", "三个要点放上面，跟上次一样", "precedent:跟上 次 一样"),
        ("zh", "commit用v2格式，老样子", "precedent:老 样子"),
        ("ko", "요약은 3줄로, 지난번처럼", "precedent:지난번처럼"),
        ("ko", "커밋 메시지는 v2 형식으로, 평소처럼", "precedent:평소처럼"),
        ("th", "ใช้ 3 bullet เหมือนครั้งที่แล้ว", "precedent:เหมือน ครั้ง ที่ แล้ว"),
        ("th", "ใช้ port 5432 ตามเดิม", "precedent:ตาม เดิม"),
    ],
)
def test_a_way_named_as_before_recalls_a_preference(code: str, message: str, cue: str) -> None:
    statements = found(message, code)
    assert statements and cue in statements[0].cues, statements
    assert statements[0].recalls


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ja", "前回と同じで？"),  # a question
        ("zh", "跟上次一样？"),
        ("zh", "还是老样子"),  # still the same: names no way
        ("ko", "지난번처럼?"),
        ("ko", "예전처럼 빠르지 않아"),  # not fast as before: closes no clause
        ("th", "เหมือนครั้งที่แล้วไหม"),
        ("th", "เขาพังเหมือนครั้งที่แล้ว"),  # a third person's doing
    ],
)
def test_a_bare_or_told_as_before_recalls_nothing(code: str, message: str) -> None:
    assert not any(c.startswith("precedent:") for c in cues(message, code))


@pytest.mark.parametrize(
    ("code", "reply"),
    [
        ("ja", "申し訳ありません、お待たせしました。5433のクエリは次にやります。"),
        ("zh", "抱歉让你久等了，5433的查询下一步做。"),
        ("zh", "很抱歉听到这个消息，5433的查询下一步做。"),
        ("th", "ขอโทษที่ให้รอครับ query บน 5433 จะทำต่อไป"),
    ],
)
def test_an_apology_for_the_wait_amends_nothing(code: str, reply: str) -> None:
    assert found(PORT[code], code, PSQL[code], reply) == []


@pytest.mark.parametrize(
    ("code", "reply"),
    [
        ("ja", "申し訳ありません、ポートを5433に直しました。"),
        ("zh", "抱歉，已把端口改成5433。"),
        ("th", "ขอโทษครับ แก้ port เป็น 5433 แล้ว"),
    ],
)
def test_an_apology_that_opens_amending_still_amends(code: str, reply: str) -> None:
    (statement,) = found(PORT[code], code, PSQL[code], reply)
    assert statement.cues[0].startswith("amended:")


@pytest.mark.parametrize(
    ("reply", "consoles"),
    [
        ("기다리게 해서 죄송합니다. 5433 쿼리는 다음에 할게요.", True),
        ("그렇다니 안타깝네요. 로그를 확인해 볼게요.", True),
        ("お待たせして申し訳ありません。ログを確認します。", True),
        ("ขอโทษที่ตอบช้าครับ กำลังดู log อยู่", True),
        ("죄송합니다, 포트를 5433으로 바꿨습니다.", False),
        ("すみません、ログを確認します。", False),
    ],
)
def test_a_reply_opening_with_sympathy_consoles(reply: str, consoles: bool) -> None:
    assert Reply(reply).consoles() is consoles


@pytest.mark.parametrize(
    ("code", "answered", "message"),
    [
        ("ko", AGENT, "17 아니고 21이에요 농담이야"),
        ("th", "ตั้งค่า retry เป็น 3 ครั้งแล้วครับ", "retry 9000 ครั้ง ล้อเล่น"),
    ],
)
def test_the_person_saying_they_are_joking_sets_nothing_right(code: str, answered: str, message: str) -> None:
    assert found(message, code, answered) == []


@pytest.mark.parametrize(
    ("code", "answered", "message"),
    [
        ("ko", AGENT, "17 아니고 21이에요"),
        ("ko", AGENT, "농담 아니고 항상 main에 푸시하지 마"),  # "no kidding": said in earnest
        ("th", "ตั้งค่า retry เป็น 3 ครั้งแล้วครับ", "retry 9000 ครั้ง"),
    ],
)
def test_with_no_joke_word_the_same_words_count(code: str, answered: str, message: str) -> None:
    assert found(message, code, answered)


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("ko", "PR은 스쿼시 머지로 해 주세요, 우리 팀 규칙이에요", "standing:우리 팀 규칙이에요"),
        ("th", "PR ให้ squash merge ที่นี่เราทำกันแบบนี้", "standing:ที่ นี่ เรา ทำ กัน แบบ นี้"),
        ("th", "squash merge เป็นกฎของทีม", "standing:เป็น กฎ ของ ทีม"),
    ],
)
def test_how_things_are_done_where_the_person_works_is_a_rule(code: str, message: str, cue: str) -> None:
    statements = found(message, code)
    assert statements and statements[0].kind == "standing_instruction" and cue in statements[0].cues, statements


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ko", "우리 팀 규칙이 뭐였지"),
        ("ko", "우리 회사는 서버가 느려요"),  # "at ours" with whatever follows
        ("th", "ที่บริษัทเน็ตช้ามาก"),
    ],
)
def test_where_the_person_works_with_no_rule_is_no_statement(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("ตอบลูกค้าใช้ภาษาทางการ", "preference:ใช้ ภาษา ทางการ"),
        ("อีเมลถึงลูกค้าลงท้ายด้วยค่ะ", "preference:ลงท้าย ด้วย ค่ะ"),
    ],
)
def test_a_thai_form_of_address_set_as_the_way_to_write_is_a_preference(message: str, cue: str) -> None:
    statements = found(message, "th")
    assert statements and cue in statements[0].cues, statements


@pytest.mark.parametrize("message", ["ใช้ภาษาทางการไหม", "ภาษาไทยทางการมีหลายระดับ"])
def test_a_thai_form_of_address_asked_about_or_spoken_of_is_no_statement(message: str) -> None:
    assert found(message, "th") == []


def test_a_korean_request_closing_a_question_asks_for_the_rule() -> None:
    (statement,) = found("항상 먼저 물어봐 줄래요?", "ko")
    assert statement.kind == "standing_instruction"


@pytest.mark.parametrize(
    "message",
    [
        "테스트 돌려 줄래요?",  # one deed
        "항상 리베이스하는지 알려 줄래요?",  # asks about a rule, the request far from it
        "항상 먼저 물어봐요?",  # no request
    ],
)
def test_a_korean_question_that_requests_no_rule_stays_a_question(message: str) -> None:
    assert found(message, "ko") == []
