"""A rule the person says was agreed before ("like we agreed", "a gente combinou", "ik heb al
gezegd") recalls it (`impact.reminder`), in every language with cues (sentences written for
these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements

AGENT = "Done, I sent the invoice to the client."


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
 ("cs", "Faktury posílám já, jak jsme se domluvili minulý měsíc.", "jak jsme se domluvili"),
 ("el", "Τα τιμολόγια τα στέλνω εγώ, το είχαμε συμφωνήσει τον προηγούμενο μήνα.", "το είχαμε συμφωνήσει"),
 ("he", "את החשבוניות אני שולחת, כמו שסיכמנו בחודש שעבר.", "כמו שסיכמנו"),
 ("hi", "इनवॉइस मैं भेजूँगी, जैसा तय हुआ था पिछले महीने।", "जैसा तय हुआ था"),
 ("ja", "請求書は私が送るって、先月決めたよね。", "決め た よね"),
 ("ko", "청구서는 제가 보내기로 지난달에 정했잖아요.", "정했잖아요"),
 ("zh", "发票我来发，这是之前说好的。", "说 好的"),
 ("th", "ใบแจ้งหนี้ฉันส่งเอง เราเคยคุยกันแล้วเมื่อเดือนที่แล้ว", "เคย คุย กัน แล้ว"),
 ("ar", "الفواتير أنا برسلها، زي ما اتفقنا الشهر الماضي.", "زي ما اتفقنا"),
 ("pt", "as faturas eu que mando, a gente combinou isso no mês passado.", "a gente combinou"),
 ("nl", "ik heb al gezegd: de facturen stuur ik zelf.", "ik heb al gezegd"),
 ("es", "las facturas las mando yo, habíamos quedado en eso el mes pasado.", "habíamos quedado"),
 ("fr", "les factures c'est moi qui les envoie, on s'était mis d'accord le mois dernier.", "on s'était mis d'accord"),
 ("it", "le fatture le mando io, eravamo d'accordo il mese scorso.", "eravamo d'accordo"),
 ("pl", "faktury wysyłam ja, umawialiśmy się na to w zeszłym miesiącu.", "umawialiśmy się"),
 ("sv", "fakturorna skickar jag själv, som vi kom överens om förra månaden.", "som vi kom överens om"),
 ("nb", "fakturaene sender jeg selv, som vi ble enige om forrige måned.", "som vi ble enige om"),
 ("da", "fakturaerne sender jeg selv, som vi blev enige om sidste måned.", "som vi blev enige om"),
 ("tr", "faturaları ben gönderiyorum, geçen ay böyle anlaşmıştık.", "böyle anlaşmıştık"),
 ("ru", "счета отправляю я сама, мы же договорились в прошлом месяце.", "мы же договорились"),
 ("uk", "рахунки надсилаю я сама, ми ж домовились минулого місяця.", "ми ж домовились"),
 ("en", "I send the invoices myself, like we agreed last month.", "like we agreed"),
],
)
def test_a_rule_said_as_agreed_before_is_recalled(code: str, message: str, cue: str) -> None:
    (said,) = detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=AGENT)
    assert code in said.language.split("+")
    assert f"reminder:{cue}" in said.cues


@pytest.mark.parametrize(
    "message",
    ["اتفقنا.", "סיכמנו, תתחיל.", "Хорошо, договорились, начинай.", "Добре, домовились, починай.", "Dobře, domluvili jsme se, pusť se do toho."],
)
def test_accepting_the_agents_proposal_recalls_nothing(message: str) -> None:
    """"Deal, go ahead" accepts what the agent proposes: only "as we agreed" recalls a rule."""
    said = detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered="I'll send the invoices on Mondays. OK?")
    assert not any(c.startswith("reminder:") for s in said for c in s.cues)


def test_that_was_the_whole_point_recalls_the_reason_given_before() -> None:
    (said,) = detect_statements(
        "refunds are mine. forward it to me, that was the whole point last time",
        "s1.jsonl",
        3,
        None,
        answered=AGENT,
    )
    assert said.kind == "correction" and "reminder:that was the whole point" in said.cues
    # "the whole point of …" tells what a thing is for
    assert detect_statements("the whole point of the app is to save time", "s1.jsonl", 3, None, answered=AGENT) == []
