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
 ("cs", "Faktury posílám já, domluvili jsme se na tom minulý měsíc.", "domluvili jsme se"),
 ("el", "Τα τιμολόγια τα στέλνω εγώ, το είχαμε συμφωνήσει τον προηγούμενο μήνα.", "το είχαμε συμφωνήσει"),
 ("he", "את החשבוניות אני שולחת, סיכמנו את זה בחודש שעבר.", "סיכמנו"),
 ("hi", "इनवॉइस मैं भेजूँगी, जैसा तय हुआ था पिछले महीने।", "जैसा तय हुआ था"),
 ("ja", "請求書は私が送るって、先月決めたよね。", "決め た よね"),
 ("ko", "청구서는 제가 보내기로 지난달에 정했잖아요.", "정했잖아요"),
 ("zh", "发票我来发，上个月我们说好了。", "我们 说好了"),
 ("th", "ใบแจ้งหนี้ฉันส่งเอง เราตกลงกันแล้วเมื่อเดือนที่แล้ว", "ตกลง กัน แล้ว"),
 ("ar", "الفواتير أنا برسلها، اتفقنا على هيك الشهر الماضي.", "اتفقنا على هيك"),
 ("pt", "as faturas eu que mando, a gente combinou isso no mês passado.", "a gente combinou"),
 ("nl", "ik heb al gezegd: de facturen stuur ik zelf.", "ik heb al gezegd"),
 ("es", "las facturas las mando yo, habíamos quedado en eso el mes pasado.", "habíamos quedado"),
 ("fr", "les factures c'est moi qui les envoie, on s'était mis d'accord le mois dernier.", "on s'était mis d'accord"),
 ("it", "le fatture le mando io, eravamo d'accordo il mese scorso.", "eravamo d'accordo"),
 ("pl", "faktury wysyłam ja, umawialiśmy się na to w zeszłym miesiącu.", "umawialiśmy się"),
 ("sv", "fakturorna skickar jag själv, vi kom överens om det förra månaden.", "vi kom överens"),
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
