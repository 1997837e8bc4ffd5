"""Statements read from the turns around the person's: a complaint about the agent's turn
("way too long"), a correction the agent's reply amends ("db's on 5433 locally." / "You're
right — 5433"), an "again" closing a first clause that names what came back (sentences written
for these tests, in the shapes the twelfth and thirteenth blind corpora showed, and the inputs
their review found)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

DRAFT = "Here's the PR description: ## Summary ## Context ## Changes ## Tests ## Risks ## Rollout — six sections."
PSQL = "Running `psql postgres://rota@localhost:5432/rota -c 'select 1'` to reproduce the lock."


def found(message: str, code: str = "en", answered: str = DRAFT, reply: str = "") -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-12-01T10:00:00+00:00", answered=answered, usual=language(code), reply=reply
    )


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "these PR descriptions are way too long, nobody reads six headers for a 40 line change."),
        ("en", "too long again, just the diff + 2 lines pls"),
        ("en", "bit much that, I just need what broke"),
        ("es", "demasiado largo otra vez, dame el diff y dos líneas"),
        ("pt", "ta muito textao isso, ninguem le no zap."),
        ("fr", "trop de # encore, 3."),
        ("pl", "za długie, 3-4 punkty"),
        ("tr", "basliklar fazla uzun, marka urun gramaj yeter"),
        ("ja", "これ長すぎ"),
        ("ru", "слишком длинно, три строки"),
        # a long text named for what it is not (`excess`: essay, novela, elaborat, poema, 長文 …)
        ("en", "it's an essay. just the diff"),
        ("es", "me escribiste una novela, dame el diff"),
        ("pl", "review znowu elaborat."),
        ("it", "ancora un poema."),
        ("ru", "опять простыня"),
        ("zh", "又是小作文"),
        # beside a word of address or a laugh, which say nothing of what is too long, the other
        # words after it
        ("en", "way too long for slack mate, people skim it"),
        ("en", "too long for the crew lol. times and places"),
        ("en", "bro that's way too long for whatsapp"),
    ],
)
def test_a_complaint_about_the_agents_turn_asks_for_less(code: str, message: str) -> None:
    (statement,) = found(message, code)
    assert statement.kind == "preference"
    assert any(c.startswith("excess:") for c in statement.cues)


@pytest.mark.parametrize(
    ("message", "answered"),
    [
        ("the meeting was way too long", DRAFT),  # a story: a verb in the past
        ("the queue at the post office is way too long", DRAFT),  # two things the agent did not write
        ("the queue at the post office is way too long lol mate", DRAFT),  # … beside a laugh and a word of address
        # … a word of its own before the phrase, or right after it (review, helper-223)
        ("the queue is way too long lol", DRAFT),
        ("traffic is way too long mate", DRAFT),
        ("too much traffic mate", DRAFT),
        ("the drive is possibly too long", DRAFT),  # a word of a longer joke is no laugh
        ("is it too long?", DRAFT),  # a question
        ("too long", ""),  # answering no turn of the agent's: nothing to complain about
        ("too many meetings this week, I'm exhausted", DRAFT),  # what is too many is not the agent's
        ("too much sugar in that recipe", DRAFT),
        ("it's not too long, love it", DRAFT),  # "not": praise
        ("sorry for the wall of text", DRAFT),  # the person's own text
        ("it isn't too long, love it", DRAFT),  # "not" as an ending
        ("fazla uzun değil, güzel", DRAFT),  # "not" after the phrase
        ("the queue at the post office is way too long", "Refactored the queueing worker; posts go to the officers' channel."),  # words, not parts of words
        ("muchas gracias, demasiado bueno", DRAFT),  # an intensifier praise shares is no entry
        ("купи простыни и полотенца", DRAFT),  # "bedsheets" are no entry
        ("summarize the lecture", DRAFT),  # a long text's name said of one the agent did not write
        ("translate chapter 3 of the novel", DRAFT),
        ("the essay for the journal is due friday", DRAFT),
        ("write an essay on carbon markets", DRAFT),  # work asked for
        ("sigue con la novela", "Escribí el capítulo 3 de tu novela."),  # a book, no bare noun listed
        ("palestra às 14h", DRAFT),
    ],
)
def test_what_is_not_a_complaint_about_the_agents_turn(message: str, answered: str) -> None:
    assert found(message, answered=answered) == []


@pytest.mark.parametrize(
    ("message", "answered"),
    [
        ("email way too long", "Here is the draft email to the client."),  # a noun opens the clause
        ("still too long", "Here's the shorter summary (the first one was too long): …"),  # the agent said it too
    ],
)
def test_a_complaint_about_length_stands_beside_the_agents_own_words(message: str, answered: str) -> None:
    (statement,) = found(message, answered=answered)
    assert statement.cues == ("excess:too long",)


def test_a_polite_complaint_is_still_one() -> None:
    (statement,) = found("sorry, but that's way too long")
    assert statement.kind == "preference"


def test_a_complaint_alone_takes_in_what_is_wanted_after_it() -> None:
    (statement,) = found("trop long. pas besoin de me réexpliquer chaque ligne, je lis le code.", "fr")
    assert statement.quote == "trop long. pas besoin de me réexpliquer chaque ligne, je lis le code."


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply"),
    [
        ("en", PSQL, "db's on 5433 locally.", "You're right, my mistake: DATABASE_URL now points at 5433."),
        ("en", "Ran `python -m unittest discover`: 41 tests OK.", "pytest.", "Sorry, switched to pytest: 41 passed."),
        ("fr", "J'ai lancé les migrations sur `reservations`.", "la base locale c'est resa_dev", "Corrigé : migrations relancées sur resa_dev."),
        ("es", "Configuré el worker con `acks_late=False`.", "el broker es redis en el 6380", "Perdón, corregido: redis en el 6380."),
        ("de", "Ich habe die Rechnung an buchhaltung@flink.de geschickt.", "die Belege gehen an belege@lexoffice.de", "Entschuldigung, korrigiert: an belege@lexoffice.de geschickt."),
        ("ja", "打ち合わせを4月15日(水)に入れました。", "水曜は定休日です。", "失礼しました、水曜の定休日を避けて木曜に変更します。"),
    ],
)
def test_a_correction_the_reply_amends(code: str, answered: str, message: str, reply: str) -> None:
    (statement,) = found(message, code, answered, reply)
    assert statement.kind == "correction"
    assert statement.cues[0].startswith("amended:")


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("db's on 5433 locally.", "Looking at the Metabase query next."),  # the reply goes on
        ("db's on 5433 locally.", "Understood, 5433."),  # acknowledging news is no amending
        ("db's on 5433 locally.", "Fixed the lock: the Metabase query was holding it."),  # takes up nothing new
        ("add the VAT line on 5433 too", "Sorry, added the VAT line on 5433."),  # it asked for work
        ("the Metabase one on 5433 is fine.", "Sorry — fixed 5433."),  # it approves
        ("the Metabase report ran on 5433 yesterday.", "Sorry, fixed 5433."),  # a story, in the past
        ("lint says this about 5433:", "Fixed 5433."),  # it introduces what follows
        ("Who's on call? Kofi is on 5433. Ama is on 5434. Ben is on 5435. Efua is on 5436.", "Sorry — 5433, 5434, 5435 and 5436 now."),  # pasted
        # the reply does not amend: it refuses, asks, says it is not done, or says it later
        ("db's on 5433 locally.", "Sorry, I can't reach anything on 5433 — connection refused."),
        ("db's on 5433 locally.", "Sorry — should I point DATABASE_URL at 5433?"),
        ("db's on 5433 locally.", "Not fixed yet, 5433 refuses connections too."),
        ("db's on 5433 locally.", "Sorry, I can't reach 5433."),  # "not" as an ending
        ("db's on 5433 locally.", "Haven't fixed it yet, 5433 next."),  # "not" before the phrase
        ("db's on 5433 locally.", "I looked again and you're right about 5433."),
        ("Thanks!", "Thanks for the correction, 5433 it is."),  # the phrase's own words are no echo
    ],
)
def test_what_the_reply_takes_up_but_is_no_correction(message: str, reply: str) -> None:
    assert [s for s in found(message, answered=PSQL, reply=reply) if s.cues[0].startswith("amended:")] == []


def test_work_redone_after_the_agent_asked_is_an_answer_not_a_correction() -> None:
    for asked in ("Which port is your local Postgres on?", "Which port? Once you tell me I'll update .env.local."):
        assert found("it's on 5433.", answered=asked, reply="Changed DATABASE_URL to port 5433.") == []
    # … and a correction when the agent asked nothing
    (statement,) = found("it's on 5433.", answered=PSQL, reply="Changed DATABASE_URL to port 5433.")
    assert statement.cues == ("amended:changed",)


def test_a_correction_the_reply_amends_stands_alone() -> None:
    """A sentence the reply amends says what it sets right ("pytest."): it does not take in
    the praise before it."""
    statements = found("Nice, the plan reads well. pytest.", answered="Ran `python -m unittest`.", reply="Sorry, switched to pytest.")
    assert [s.quote for s in statements] == ["pytest."]


def test_no_reply_is_read_for_a_message_that_answers_no_turn() -> None:
    assert found("db's on 5433 locally.", answered="", reply="You're right, 5433.") == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # "again" closing a short first clause names what came back as often as news: not read
        ("en", "Works again, thanks"),
        ("en", "Down again — 503 since 9:00"),
        ("en", "try again, its up now"),
        ("pt", "a ultradent mandou de novo, parece que vai liberar."),
    ],
)
def test_again_closing_a_first_clause_recalls_nothing(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "no yeah you're right, monthly til we raise."),
        ("en", "no yeah, you're right, monthly is fine"),
        ("en", "no that's perfect actually, book it"),
        ("en", "no, dont bother with a postmortem, its a one liner."),
        ("en", "No, not needed, Nitin is on call tonight, he will keep an eye."),
        ("fr", "Non, t'as raison, c'était du hardcode qui traînait depuis l'été passé."),
        ("ja", "いや、いらんいらん。森さんはメール本文で十分"),
    ],
)
def test_agreeing_and_only_asking_as_typed(code: str, message: str) -> None:
    assert found(message, code) == []


CARD = "The decline makes sense: your team card has a $5,000 monthly limit and you'd spent $3,460."


@pytest.mark.parametrize(
    ("code", "answered", "message"),
    [
        ("en", CARD, "the card limit is 2,500, not 5k — that's why it bounced lol."),
        ("en", "Drafted the intro for Elana.", "Elena, not Elana, she runs the team lol."),
        ("pt", "Mandei a guia da Taís.", "Thaís com h, ela odeia Taís kkkk"),
        # a script without capitals: a word closing its clause after the "not" names what is meant
        ("th", "ร่าง Slack: พี่ปานครับ api-gateway ขึ้น prod แล้ว", "ป่าน ไม้เอกครับ ไม่ใช่ปาน 555"),
    ],
)
def test_a_laugh_beside_a_value_set_right_is_the_persons_mood(code: str, answered: str, message: str) -> None:
    (statement,) = found(message, code, answered)
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    "message",
    [
        "โอเคครับ ไม่ใช่ว่าผิด 555",  # "ok, not that it's wrong lol": "ว่า" ("that") names nothing
        "ส่งได้ ไม่ใช่เรื่องด่วนอะไรเลยนะ 555",  # "send it, nothing urgent at all lol": more than a name
    ],
)
def test_a_laugh_beside_a_not_before_more_than_a_name_is_mood_in_a_script_without_capitals(message: str) -> None:
    assert found(message, "th", "ร่าง Slack: พี่ปานครับ api-gateway ขึ้น prod แล้ว") == []


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply"),
    [
        ("pt", "Mandei o orçamento pra Cera Vida.", "Cera VIVA mano kkkk com v", "Corrigido e reenviado pra Cera Viva."),
        ("th", "ส่งสรุปให้พี่ปานแล้วครับ", "ป่าน ไม้เอกครับ 555", "ขอโทษครับ แก้เป็นพี่ป่านแล้วครับ"),
    ],
)
def test_a_laugh_beside_what_the_reply_amends_is_the_persons_mood(code: str, answered: str, message: str, reply: str) -> None:
    (statement,) = found(message, code, answered, reply)
    assert statement.kind == "correction" and statement.cues[0].startswith("amended:")


THAI_DRAFT = "สรุป incident: 1. api-gateway ล่ม 2. เพิ่ม limit 3. restart 4. ตั้ง alert 5. เพิ่ม HPA 6. ทำ load test ก่อน release"
PREZADA = 'Rascunho: "Prezada cliente, seu pedido saiu hoje."'
OI = 'Rascunho: "Oi Juliana, seu pedido saiu hoje."'
DATABASE_5432 = "DATABASE_URL=postgres://rota@localhost:5432/rota"


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply", "cue"),
    [
        # a laugh at a repeat: the person says it was said before
        ("ja", "入稿前チェックは10日（火）で入れました。", "10日水曜やん、何回目よ笑", "", "reminder:"),
        ("pt", 'Rascunho: "Prezada Sra. Juliana, seu pedido saiu hoje."', 'de novo o "Prezada Sra." kkkk', OI, "again:"),
        # … and beside the line the reply writes again, changed
        ("pt", PREZADA, 'nao fala "prezada cliente" kkkk, a gente fala "oi Juliana"', OI, "swapped:"),
        ("en", DATABASE_5432, "port is 5433 lol", DATABASE_5432.replace("5432", "5433"), "swapped:"),
        ("pt", 'Rascunho: "Prezado Paulo, a consulta ficou pra terça."', "tira esse Prezado kkkk", 'Rascunho: "Paulo, a consulta ficou pra terça."', "dropped:"),
        # … and at the length of the agent's own turn
        ("en", DRAFT, "too long lol", "", "excess:"),
        ("th", THAI_DRAFT, "ยาวไปครับ อ่านไม่ไหว 555", "", "excess:"),
    ],
)
def test_a_laugh_beside_a_repeat_or_what_the_reply_rewrites_is_the_persons_mood(
    code: str, answered: str, message: str, reply: str, cue: str
) -> None:
    (statement,) = found(message, code, answered, reply)
    assert statement.quote == message and any(c.startswith(cue) for c in statement.cues)


def test_a_laugh_beside_a_sentence_the_agent_reworks_its_work_after_is_the_persons_mood() -> None:
    message = "bitte pnpm, nicht npm. und die Überschriften sind mir zu gross haha"
    before, after = "## Installation\nnpm install\n## Start\nnpm run dev", "### Installation\npnpm install\n### Start\npnpm run dev"
    rule, laughed = found(message, "de", before, after)
    assert rule.quote == "bitte pnpm, nicht npm."
    assert laughed.quote == "und die Überschriften sind mir zu gross haha" and laughed.cues[0].startswith("reworked:")


def test_a_laugh_beside_a_repeat_keeps_the_sentence_it_recalls_in() -> None:
    (statement,) = found("not Elana. I told you this last time lol.", answered="Sent the invite to Elana for Tuesday.")
    assert statement.quote == "not Elana. I told you this last time lol."
    assert "reminder:i told you" in statement.cues


def test_a_joke_the_person_calls_one_stays_one_though_the_reply_amends() -> None:
    assert found("retries 9000 lol jk", answered="Set retries to 3.", reply="Sorry — retries set to 9000.") == []
    # … and a laugh beside what the reply only agrees with is a joke
    for agreeing in ("You're right, Rust would be faster, but Python is fine for this parser.", "You're absolutely right, Rust would be faster, but Python is fine here."):
        assert found("the parser in rust lol", answered="Wrote the parser in Python.", reply=agreeing) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "never deploy on a friday lol"),  # a rule nobody means
        ("en", "no yeah fair, not worth it for one membership lol"),  # a "not" before no name
        ("es", "y nunca despliegues en viernes, jaja"),
        ("ja", "いや、冗談やって笑。"),
    ],
)
def test_a_laugh_beside_a_rule_or_a_plain_not_is_a_joke(code: str, message: str) -> None:
    assert found(message, code) == []


REFUND = "Opened PR #251 with the refund webhook; reviewer Laxmi (@lakshmi-n). The alert shows the time in UTC."


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply"),
    [
        ("en", REFUND, "Laxmi again 🙏", "Sorry — changed the reviewer from Laxmi to Lakshmi."),
        ("en", REFUND, "the time is UTC again..", "Fixed: the alert time now reads 09:40 IST instead of UTC."),
        ("ko", "리뷰어는 셋 다 지훈님으로 지정했습니다.", "리뷰어 또다시 지훈님임;; 다은님이요", "세 PR 모두 리뷰어를 지훈님에서 다은님으로 바꿨습니다."),
        # a longer sentence, its "again" in a short clause (Chinese is cut into many short words)
        ("zh", "退款同步好了，refund 金额存为小数。", "refund又存成小数了，跟订单一样用分，integer。", "已改：refund 金额改为用分存 integer。"),
        ("en", REFUND, "the time is UTC again, ops read the alert in Bengaluru and nobody converts at 3 am", "Fixed: the alert time now reads 09:40 IST instead of UTC."),
    ],
)
def test_again_in_a_short_sentence_about_the_agents_word_the_reply_amends(
    code: str, answered: str, message: str, reply: str
) -> None:
    statements = found(message, code, answered, reply)
    assert statements and all(s.kind == "correction" for s in statements)
    assert any(c.startswith("again:") for s in statements for c in s.cues)


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply"),
    [
        # the reply takes the word up without amending ("Switched: …", a diff), or there is none
        ("en", "Set the region to us-east-1 and ran terraform plan.", "region again.", "Switched the region to eu-west-1."),
        ("he", 'terraform { backend "local" {} }', 'backend "local" שוב??', '```diff\n-  backend "local" {}\n+  backend "s3" {\n```'),
        ("pl", "Raport godzinowy (UTC): 09:00–17:00.", "znowu UTC?", "Poprawione: raport w czasie polskim, UTC → CET."),
        ("ar", "التقرير بتوقيت UTC.", "UTC مرة أخرى؟؟", "عدلت التقرير: UTC → توقيت القاهرة."),
        ("ru", "Добавил промокоды в рассылку.", "опять промокоды?", "Исправил: убрал промокоды из рассылки."),
        # an edit tool called, as the adapters write it after the reply's words
        ("en", "Set the region to us-east-1 and ran terraform plan.", "region again.", "Done — region is eu-west-1 now.\nEdit: infra/main.tf\nBash: terraform plan"),
    ],
)
def test_again_about_the_agents_word_the_reply_takes_up(code: str, answered: str, message: str, reply: str) -> None:
    (statement,) = found(message, code, answered, reply)
    assert statement.kind == "correction" and statement.cues[0].startswith("again:")


@pytest.mark.parametrize(
    ("answered", "message"),
    [
        # a question that asks: its mark single and more than two words
        ("The webhook path is /hooks/stripe.", "what's the webhook path again?"),
        ("Set the provider to us-east-1.", "the region again?"),
        # … or two words answered by a reply that changes nothing
        ("The API listens on port 5432.", "port again?"),
    ],
)
def test_a_question_with_again_about_the_agents_word_that_asks(answered: str, message: str) -> None:
    assert found(message, answered=answered, reply="It is /hooks/stripe; the region is us-east-1; the port is 5432.") == []


def test_a_request_with_doubled_marks_the_reply_does_is_no_correction() -> None:
    assert found("can you run the tests again??", answered="Ran the tests.", reply="Running the tests again.") == []


@pytest.mark.parametrize(
    ("answered", "message", "reply"),
    [
        # news with "again" about the agent's words: the reply takes none of it up, or consoles
        ("I restarted the worker; it should work now.", "Works again, thanks", "Great!"),
        ("Merged the migration to staging.", "staging is red again", "Looking at the CI log now."),
        ("I restarted the api server.", "api server down again", "Sorry to hear that — checking the api server logs now."),
        # … or looks into it, or cheers: the reply names the word but changes nothing
        ("Merged the migration to staging.", "staging is red again", "Let me check the staging CI logs."),
        ("I restarted the worker; it should work now.", "Works again, thanks", "Glad the worker works!"),
        # … or there is no reply (the last message of a session still going)
        ("Merged the migration to staging.", "staging is red again", ""),
        # … or it names a change it looks into, an arrow in a trace or code, a plan's bullet
        ("Merged the migration to staging.", "staging is red again", "Let me check what changed in the staging CI since the merge."),
        ("Merged the migration to staging.", "staging is red again", "Let me trace it: staging deploy -> migration -> seed job."),
        ("Merged the migration to staging.", "staging is red again", "Looking at the staging handler: `rows.map(r => r.id)` is empty."),
        ("Merged the migration to staging.", "staging is red again", "Here's my plan:\n• Write a failing test for staging first."),
        ("Drafted the email to Klaus.", "Klaus emailed again", "Want me to answer him?"),
        # … or the sentence is long: a story, not what came back
        ("Merged the migration to staging.", "staging was red again last night while the vendor ran its weekly import, third time", "Sorry — fixed the import."),
        ("Merged the migration to staging.", "staging is red again since the vendor ran its weekly import of the seed job, third time", "Sorry — fixed the import."),
        # … or its clause is short in a long sentence, and the reply only looks into it
        ("Merged the migration to staging.", "staging is red again, the vendor ran its weekly import last night and I think the seed job broke", "Let me check the staging CI logs."),
        # … or approves, and asks for more work the reply does (review, helper-109)
        ("Fixed the export; the refunds page works now.", "refunds page works again, thanks, now please also add a CSV export button to the refunds page header", "Done.\nEdit: src/refunds/page.tsx"),
    ],
)
def test_again_about_the_agents_word_that_is_news(answered: str, message: str, reply: str) -> None:
    assert [s for s in found(message, answered=answered, reply=reply) if any(c.startswith("again:") for c in s.cues)] == []


def test_an_apology_amends_the_word_set_right_without_repeating_what_was_new() -> None:
    """An agent that says it was wrong may leave out what was new to it ("Bosch ми не беремо"
    answered "Виправила… Bosch прибрала"); one that only says it redid the work must write
    something new ("Changed" alone also answers a request)."""
    answered = "Відповіла клієнту: ремонтуємо мотори Bosch і Bafang, діагностика 350 грн."
    (statement,) = found("Bosch ми не ремонтуємо, там все через дилера.", "uk", answered, "Виправила: Bosch прибрала з відповіді.")
    assert statement.cues == ("amended:виправила",)
    psql = found("the rota db is on localhost.", answered=PSQL, reply="Changed it: localhost, rota db.")
    assert psql == []


def test_three_corrections_in_one_message_the_reply_amends_all_count() -> None:
    message = "Kofi is on 5434. Ama is on 5435. Ben is on 5436."
    statements = found(message, answered=PSQL, reply="Sorry — Kofi 5434, Ama 5435, Ben 5436 now.")
    assert [s.quote for s in statements] == ["Kofi is on 5434.", "Ama is on 5435.", "Ben is on 5436."]


@pytest.mark.parametrize("reply", ["Renamed it: `rota_dev` now.", "Updated DATABASE_URL to rota_dev."])
def test_work_redone_in_more_words(reply: str) -> None:
    (statement,) = found("the local db is rota_dev.", answered=PSQL, reply=reply)
    assert statement.cues[0].startswith("amended:")


@pytest.mark.parametrize(
    ("answered", "message", "reply"),
    [
        # an apology for news or a wait is sympathy
        ("Booked the Berlin hotel for the 12th.", "Berlin is off.", "Sorry to hear that. Should I cancel the Berlin hotel?"),
        ("I restarted the api server.", "api server down again", "Sorry to hear that — checking the api server logs now."),
        # someone else's words
        ("I restarted the api server.", "Maria says the api server is down again", "Sorry — restarted the api server."),
        # a word that closes the reply's first sentence says it only in a language that ends with its verb
        (PSQL, "pagination for the orders list next.", "Sure — here's what changed. The orders list now pages by 50."),
        # a verb written without its accents tells the person what to do ("Remplace l'URL…")
        ("J'ai poussé la branche.", "le remote c'est gitlab.", "Remplace l'URL du remote gitlab dans .git/config."),
    ],
)
def test_what_opens_a_reply_but_amends_nothing(answered: str, message: str, reply: str) -> None:
    assert found(message, "fr" if "remote" in message else "en", answered, reply) == []


def test_a_verb_last_closing_the_reply_is_cut_only_where_the_sentence_ends() -> None:
    """A first sentence longer than the head read is cut, and its last word read there is no
    closing word ("…のスケジュールを変更しました" cut mid-sentence)."""
    answered = "打ち合わせを4月15日(水)に入れました。"
    whole = found("水曜は定休日です。", "ja", answered, "打ち合わせを水曜から木曜に変更しました。")
    assert whole and whole[0].cues[0].startswith("amended:")
    cut = "打ち合わせの日程について、" + "確認のうえ" * 80 + "水曜から木曜に変更しました、念のため先方にも連絡します。"
    assert found("水曜は定休日です。", "ja", answered, cut) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "way too long 😅 3 bullets max pls"),  # the sweating smile says "awkward", not a joke
        ("zh", "又出現「用戶」了 😅 不要再用「用戶」了，使用者啦"),
    ],
)
def test_a_sweating_smile_beside_a_correction_is_no_joke(code: str, message: str) -> None:
    assert found(message, code)


@pytest.mark.parametrize(
    ("code", "answered", "message"),
    [
        ("en", DRAFT, "never deploy on a friday 😂"),
        ("en", DRAFT, "always blame Kevin, not Steve lol"),  # a rule nobody means, with a "not X"
        ("de", DRAFT, "Immer Kaffee, nicht Tee haha"),  # German capitalises every noun
        ("en", "Set retries to 3.", "retries 9000 lol jk"),  # the person says it is a joke
    ],
)
def test_a_laugh_still_marks_a_joke(code: str, answered: str, message: str) -> None:
    assert found(message, code, answered) == []


@pytest.mark.parametrize("message", ["no kidding, always use pnpm here", "I'm not joking, never push to main"])
def test_a_joke_word_after_not_is_said_in_earnest(message: str) -> None:
    (statement,) = found(message)
    assert statement.kind == "standing_instruction"


def test_a_rule_said_sheepishly_is_still_one() -> None:
    (statement,) = found("never push to main 😅")
    assert statement.kind == "standing_instruction"


@pytest.mark.parametrize(
    ("reply", "amends"),
    [
        ("Sorry for the delay — fixed DATABASE_URL to 5433.", True),  # an apology for the wait, then "fixed"
        ("Ah, sorry for the wait. The Metabase query on 5433 is next.", False),  # after an interjection
        ("Sorry — it took the old port from .env; DATABASE_URL is 5433 now.", True),
    ],
)
def test_sympathy_is_read_where_it_opens(reply: str, amends: bool) -> None:
    statements = found("db's on 5433 locally.", answered=PSQL, reply=reply)
    assert bool(statements) == amends


def test_a_first_sentence_cut_at_a_space_does_not_close_with_its_last_word() -> None:
    answered = "리뷰어는 셋 다 지훈님으로 지정했습니다."
    message = "결제 쪽은 다은님이 코드오너예요"
    (closed,) = found(message, "ko", answered, "세 PR 모두 리뷰어를 다은님으로 바꿨습니다.")
    assert closed.cues == ("amended:바꿨습니다",)
    head = "세 PR 모두 " + "확인 " * 128 + "리뷰어를 지훈님에서 다은님으로 바꿨습니다"
    reply = head[:399] + " 라고 생각했는데 원래 설정이 맞아서 그대로 두겠습니다."
    assert len(head[:399]) == 399 and found(message, "ko", answered, reply) == []


@pytest.mark.parametrize(("code", "message"), [("de", "Ich scherze nicht, nie direkt auf main pushen.")])
def test_a_joke_word_before_not_is_said_in_earnest(code: str, message: str) -> None:
    assert found(message, code)


@pytest.mark.parametrize(
    ("code", "message", "complaint"),
    [
        # Thai, Chinese and Japanese space where a clause ends: "too long, can't read it"
        ("th", "ยาวไปครับ อ่านไม่ไหว", "ยาวไปครับ อ่านไม่ไหว"),
        ("ja", "これ長すぎ 読まへん", "これ長すぎ 読まへん"),
        # … and beside a laugh or a face in the space ("too long lol can't read it")
        ("th", "ยาวไปครับ 555 อ่านไม่ไหว", "ยาวไปครับ 555 อ่านไม่ไหว"),
        ("ja", "これ長すぎ 😂 読まへん", "これ長すぎ 😂 読まへん"),
    ],
)
def test_a_space_between_letters_of_a_script_written_without_spaces_ends_a_clause(code: str, message: str, complaint: str) -> None:
    (statement,) = found(message, code, THAI_DRAFT)
    assert statement.quote == complaint and statement.cues[0].startswith("excess:")


@pytest.mark.parametrize(
    ("code", "message", "reply"),
    [
        ("en", "also rule of thumb for the future: never email investors after two glasses of wine.", "Ha — noted as a life lesson, not a calendar rule."),
        ("en", "Rule one of epidemiology: never let the PI near the raw data.", "😄 Figures are in figures/."),
        ("en", "never trust a pipeline that passes first time", "Haha, fair. The pipeline is green on main."),
        ("es", "y nunca despliegues en viernes.", "Ha, noted in spirit. Anything else for checkout-web?"),
    ],
)
def test_a_message_the_agent_laughs_back_at_and_changes_nothing_after_is_a_joke(code: str, message: str, reply: str) -> None:
    assert found(message, code) != []  # the rule alone, with no reply, is read
    assert found(message, code, reply=reply) == []


@pytest.mark.parametrize(
    ("code", "message", "reply"),
    [
        # the reply laughs but changes the work: an amending phrase, an edit
        ("en", "lol the port is 5433, not 5432", "Haha, sorry about that! Fixed: the database URL now uses port 5433."),
        ("en", "never put emojis in the commit message", "Ha, fair point, I will take them out of the template.\n● Update(.gitmessage)\n  ⎿  Updated .gitmessage with 1 removal"),
        # "Ha" opening a reply in Italian is "has", no laugh
        ("it", "mai più di tre hashtag", "Ha senso: ne lascio tre."),
    ],
)
def test_a_reply_that_laughs_and_changes_the_work_or_does_not_laugh_keeps_the_statement(code: str, message: str, reply: str) -> None:
    assert found(message, code, reply=reply) != []


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        # the reply laughs, then takes the correction up in its first sentence or promises a rule
        ("the port is 5433, not 5432", "Ha, fair point — you're right, it's 5433. I'll use that for the rest of the session."),
        ("from now on always ask before deploying to prod", "Ha, fair. I'll ask before every prod deploy from now on."),
        ("always use pnpm in this repo, never npm", "Haha, fair — switched to pnpm."),
        ("the port is 5433, not 5432", "😂 Oh no, my bad — it's 5433."),
        # a word that says a joke is no laugh
        ("never push to main", "Joking aside, that's a real rule — I've noted it and won't push to main."),
        # an edit past the head and before the tail the reply's other readings look at
        (
            "the port is 5433, not 5432",
            "Haha, fair enough. " + "I looked at the config and the compose file to see where the port is set. " * 6
            + "\nEdit: .env.local\n" + "\n".join(f"Bash: pytest tests/integration/test_module_{i}.py -q" for i in range(80)),
        ),
    ],
)
def test_a_reply_that_laughs_but_takes_the_correction_up_keeps_it(message: str, reply: str) -> None:
    assert found(message, reply=reply) != []


OFFER = "Added the card component. Want me to add snapshot tests for it too?"
PLAN = "Added the card component. Next I'll add snapshot tests for it too."


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("nah, they just churn.", "OK, no snapshot tests then."),
        ("nee, da doe ik volgende week zelf", "Prima, dan laat ik het zo."),
        ("no, Marcus already has one from his last job.", "Got it."),
    ],
)
def test_an_opening_no_the_agent_changes_nothing_after_declines(message: str, reply: str) -> None:
    code = "nl" if message.startswith("nee") else "en"
    assert found(message, code, OFFER, reply) == []  # answering the offer, the "no" answers it
    # … and said to a plan the agent tells, not asks, the reply that changes nothing shows it
    assert found(message, code, PLAN, reply) == []


@pytest.mark.parametrize(
    "reply",
    [
        "Switched to pnpm: removed package-lock.json and ran pnpm install.",  # it amends
        "● Update(package.json)\n  ⎿  Updated package.json with 1 addition and 1 removal",  # it edits
        "",  # no reply yet: nothing tells a decline
    ],
)
def test_an_opening_no_the_agent_acts_on_or_not_yet_answered_corrects(reply: str) -> None:
    (statement,) = found("no, we use pnpm in this repo", "en", "Installed the deps with npm install.", reply)
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    ("code", "message", "answered", "reply"),
    [
        # the reply takes up a word new to the agent, or says it keeps to it from now on
        ("en", "no, we use pnpm in this repo", "Installed the deps with npm install.", "Understood, pnpm it is."),
        ("en", "No. The deadline is Friday.", "I set the deadline to Monday.", "Got it, Friday."),
        ("nl", "nee, we gebruiken pnpm", "Installed the deps with npm install.", "Begrepen, ik gebruik voortaan pnpm."),
        # no offer is declined with "that's wrong" or "not quite"
        ("en", "that's wrong, it was the US market", "Q3 revenue grew 12%, driven by the EU market.", "Thanks for flagging that."),
        ("en", "not quite, it was mostly the US", "Q3 revenue grew 12%, driven by the EU market.", "Understood."),
    ],
)
def test_an_opening_no_the_agent_takes_up_in_words_or_a_wrong_corrects(code: str, message: str, answered: str, reply: str) -> None:
    assert [s.kind for s in found(message, code, answered, reply)] == ["correction"]
