"""A "no" followed by words that say the agent was right or that nothing needs changing
("no, yours is right", "nahi, tum sahi ho", "όχι, σωστά το λες", "いや、それでええ") agrees
with the agent: no statement is read from it, in every language with a data file; a "no"
that sets a value right ("no, GST is 18%, not 5%") still corrects (`impact.agreement`,
daemon/impact/cues.py; sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements

# The agent's turn the person answers, and its reply after the message.
AGENT = "Done, I set the GST rate on the invoice template to 5%."
LEFT_AS_IS = "Great, I'll leave the invoice template as it is."
FIXED = "Fixed: the GST rate on the invoice template is now 18%."


def found(message: str, reply: str) -> list[Statement]:
    return detect_statements(message, "s01", 3, None, answered=AGENT, reply=reply)


AGREEING = [
    ("en", "no, yours is right"),
    ("en", "no, you did it right, the client wanted 5%"),
    ("en", "no, it's fine as it is"),
    ("en", "no no, leave it like that, it's fine"),
    ("en", "no, no need to apologise"),
    ("en", "nope, no stress"),
    ("ar", "لا، انت صح"),
    ("ar", "لا، صح كده، العميل طلب كده"),
    ("ar", "لا، متعتذرش"),
    ("ar", "لا لا، كله تمام"),
    ("cs", "ne, máš to dobře"),
    ("cs", "ne, je to dobře, klient to tak chce"),
    ("cs", "ne ne, udělal jsi to dobře"),
    ("cs", "ne, neomlouvej se"),
    ("cs", "ne, v klidu"),
    ("cs", "ne, všechno sedí"),
    ("da", "nej, det er fint sådan"),
    ("da", "nej, du gjorde det rigtigt, kunden ville have 5 %"),
    ("da", "nej, du skal ikke undskylde"),
    ("da", "nej, ikke endnu, vi kører den manuelt et par uger først"),
    ("de", "nein, passt so"),
    ("de", "nein, ist gut so, der Kunde will das so"),
    ("de", "nee, du hast es richtig gemacht"),
    ("de", "nei, passt scho"),
    ("de", "nein, du musst dich nicht entschuldigen"),
    ("el", "όχι, σωστά το λες"),
    ("el", "όχι, καλά είναι έτσι, έτσι το θέλει ο πελάτης"),
    ("el", "όχι όχι, σωστά το έκανες"),
    ("el", "όχι, όλα σωστά"),
    ("el", "όχι, το δικό σου είναι σωστό"),
    ("el", "oxi, sosta to les"),
    ("el", "oxi, kala einai etsi"),
    ("es", "no, está bien así"),
    ("es", "no, lo hiciste bien, el cliente quería 5 %"),
    ("es", "no, tranqui, no te disculpes"),
    ("es", "no, todo correcto"),
    ("fr", "non, c'est toi qui as raison"),
    ("fr", "non, c'est bon comme ça, le client veut 5 %"),
    ("fr", "non non, t'as bien fait"),
    ("fr", "non, ne t'excuse pas"),
    ("fr", "non, tout est bon"),
    ("fr", "non, t'inquiète"),
    ("he", "לא, זה בסדר ככה"),
    ("he", "לא, עשית את זה נכון, הלקוח רצה 5%"),
    ("he", "לא, אל תתנצל"),
    ("hi", "नहीं, तुम्हारा वाला सही है"),
    ("hi", "नहीं, तुमने ठीक किया, क्लाइंट को 5% ही चाहिए"),
    ("hi", "नहीं, ऐसे ही ठीक है"),
    ("hi", "नहीं, आपने सही किया"),
    ("hi", "nahi, tum sahi ho"),
    ("hi", "nahi nahi, aap sahi ho"),
    ("hi", "nahi, tumhara wala sahi hai"),
    ("hi", "nahi, tumne theek kiya"),
    ("hi", "nahi, sahi bol rahe ho"),
    ("it", "no, hai ragione tu"),
    ("it", "no, va bene così, il cliente vuole il 5%"),
    ("it", "no, non scusarti"),
    ("it", "no, è tutto giusto"),
    ("ja", "いや、あんたの言う通りや"),
    ("ja", "いや、それで合っとる"),
    ("ja", "いや、それで合うてる"),
    ("ja", "いや、それでええ"),
    ("ja", "いや、謝らんでええ"),
    ("ja", "いいえ、謝らなくて大丈夫です"),
    ("ja", "いえ、謝らなくて大丈夫です"),
    ("ja", "いやいや、あんたの言う通りや"),
    ("ja", "いや、そのままでいいよ、お客さんがそう言ってるから"),
    ("ja", "いや、ほんまや、人数分で数えても収まるな"),
    ("ja", "いや、ほんまそれやな、そのままでええ"),
    ("ko", "아니요, 당신 말이 맞아요"),
    ("ko", "아니요, 이대로 좋아요"),
    ("ko", "아니요, 사과 안 하셔도 돼요"),
    ("nb", "nei, ikke noe stress"),
    ("nb", "nei, det er greit sånn, kunden vil ha 5 %"),
    ("nb", "nei nei, du gjorde det riktig"),
    ("nb", "nei, du trenger ikke å beklage"),
    ("nb", "nei, alt stemmer"),
    ("nb", "nei, det er greitt slik"),
    ("nb", "nei, ikkje noko stress"),
    ("nl", "nee, het is goed zo"),
    ("nl", "nee, ge hebt het goed gedaan, de klant wil 5%"),
    ("nl", "nee, sorry hoeft niet"),
    ("nl", "nee, alles klopt"),
    ("pl", "nie, dobrze jest"),
    ("pl", "nie, zrobiłeś to dobrze, klient chce 5%"),
    ("pl", "nie, nie przepraszaj"),
    ("pt", "não, tá certo assim"),
    ("pt", "não, você fez certo, o cliente quer 5%"),
    ("pt", "não, não precisa se desculpar"),
    ("pt", "não, está tudo certo"),
    ("ru", "нет, всё так"),
    ("ru", "нет, ты всё правильно сделал, клиент хочет 5%"),
    ("ru", "нет, всё норм"),
    ("ru", "нет, не извиняйся"),
    ("sv", "nej, det är bra så"),
    ("sv", "nej, du gjorde rätt, kunden vill ha 5 %"),
    ("sv", "nej nej, allt stämmer"),
    ("sv", "nej, du behöver inte be om ursäkt"),
    ("sv", "nej, ingen stress"),
    ("th", "ไม่ครับ ถูกแล้วครับ"),
    ("th", "ไม่ค่ะ แบบนี้ดีแล้ว"),
    ("th", "ไม่ครับ คุณทำถูกแล้ว"),
    ("tr", "hayır, doğru yapmışsın"),
    ("tr", "yok, öyle kalsın iyi, müşteri öyle istiyor"),
    ("tr", "hayır, özür dilemene gerek yok"),
    ("uk", "ні, все так"),
    ("uk", "ні, все правильно, клієнт хоче 5%"),
    ("uk", "ні ні, ти все правильно зробив"),
    ("uk", "ні, все норм"),
    ("uk", "ні, не вибачайся"),
    ("uk", "ні, ти мав рацію"),
    ("zh", "不，这样就行"),
    ("zh", "不，你做得对，客户就要5%"),
    ("zh", "不，不用道歉"),
    # typed without the comma after the "no", or with a word between (the read corpora's), the
    # value the agent kept said again beside it
    ("fr", "non tu as raison, 5 %, pas 18 %"),
    ("fr", "non c'est toi qui as raison, 5 %, pas 18 %"),
    ("ko", "아뇨 맞아요, 5%예요, 18%가 아니에요"),
    ("pl", "nie no, masz racje, 5%, nie 18%"),
    ("tr", "yok yok, doğru hesaplamışsın, %5, %18 değil"),
    ("uk", "ні, то ти правильно пишеш, 5%, а не 18%"),
    ("zh", "不是 你沒講錯 是5% 不是18%"),
]


@pytest.mark.parametrize(("code", "message"), AGREEING)
def test_a_no_that_says_the_agent_was_right_corrects_nothing(code: str, message: str) -> None:
    assert found(message, LEFT_AS_IS) == []


CORRECTING = [
    ("en", "no, GST is 18%, not 5%"),
    ("ar", "لا، الضريبة 18% مش 5%"),
    ("cs", "ne, DPH je 18 %, ne 5 %"),
    ("da", "nej, momsen er 18 %, ikke 5 %"),
    ("de", "nein, die Steuer ist 18 %, nicht 5 %"),
    ("el", "όχι, ο ΦΠΑ είναι 18%, όχι 5%"),
    ("es", "no, el impuesto es 18 %, no 5 %"),
    ("fr", "non, la taxe c'est 18 %, pas 5 %"),
    ("he", "לא, המס הוא 18%, לא 5%"),
    ("hi", "नहीं, GST 18% लगता है, 5% नहीं"),
    ("hi", "nahi, GST 18% lagta hai, 5% nahi"),
    ("it", "no, l'imposta è 18%, non 5%"),
    ("ja", "いや、GSTは18%です、5%じゃない"),
    ("ko", "아니요, GST는 18%예요, 5%가 아니에요"),
    ("nb", "nei, avgiften er 18 %, ikke 5 %"),
    ("nl", "nee, de btw is 18%, niet 5%"),
    ("pl", "nie, ma być 18%, nie 5%"),
    ("pt", "não, o imposto é 18%, não 5%"),
    ("ru", "нет, налог 18%, а не 5%"),
    ("sv", "nej, skatten är 18 %, inte 5 %"),
    ("th", "ไม่ใช่ GST คือ 18% ไม่ใช่ 5%"),
    ("tr", "hayır, vergi %18, %5 değil"),
    ("uk", "ні, податок 18%, а не 5%"),
    ("zh", "不，GST是18%，不是5%"),
    # the value said right, not the agent: "is right" / "sahi hai" of a value still corrects
    ("en", "no, 18% is right, not 5%"),
    ("hi", "nahi, 18% sahi hai, 5% nahi"),
    ("hi", "नहीं, 18% सही है, 5% नहीं"),
    ("el", "όχι, το σωστό είναι 18%, όχι 5%"),
    ("uk", "ні, правильно 18%, а не 5%"),
    ("cs", "ne, správně je 18 %, ne 5 %"),
    ("sv", "nej, rätt är 18 %, inte 5 %"),
    ("nb", "nei, riktig sats er 18 %, ikke 5 %"),
]


@pytest.mark.parametrize(("code", "message"), CORRECTING)
def test_a_no_that_sets_a_value_right_still_corrects(code: str, message: str) -> None:
    (said,) = found(message, FIXED)
    # a language typed in Latin letters reads as its code with "-latn" ("hi-latn")
    assert code in [read.split("-")[0] for read in said.language.split("+")]
    assert said.kind == "correction"


# The agent's turn proposes; the person grants it was right as people type it ("you're saying
# it right", "you did right", "that's right") and asks for the next step, which the reply does.
PROPOSED = "The server runs on UTC, so 9:00 IST is 3:30 UTC: the cron line would be `30 3 * * *`."
DONE_NEXT = '● Bash(crontab -l | { cat; echo "30 3 * * * ./remind.sh"; } | crontab -)\n  ⎿  (no output)\n\nCron line added: 30 3 * * *.'


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("hi", "nahi, sahi keh rahe ho, server UTC pe hi hai. wahi daal do crontab me"),
        ("hi", "nahi nahi, sahi kiya, server UTC pe hi hai. wahi daal do crontab me"),
        ("hi", "nahi, theek bola tumne, server UTC pe hi hai. wahi daal do crontab me"),
        ("hi", "nahi, tumne theek kiya, server UTC pe hi hai. wahi daal do crontab me"),
        ("hi", "nahi, theek kiya, server UTC pe hi hai. wahi daal do crontab me"),
        ("hi", "nahi nahi, sahi bol rahe ho, server UTC pe hi hai. wahi daal do crontab me"),
        ("hi", "nahi, aapne sahi kaha, server UTC pe hi hai. wahi daal do crontab me"),
        ("hi", "नहीं, सही किया, सर्वर UTC पर ही है। वही crontab में डाल दो"),
        ("uk", "ні, ти правильно пишеш, сервер на UTC. став так у crontab"),
        ("ru", "нет, ты правильно пишешь, сервер на UTC. ставь так в crontab"),
    ],
)
def test_a_no_granting_the_agent_was_right_before_the_next_step_corrects_nothing(code: str, message: str) -> None:
    said = detect_statements(message, "s01", 3, None, answered=PROPOSED, reply=DONE_NEXT)
    assert said == [], code


@pytest.mark.parametrize(
    "message",
    [
        "theek kiya, lekin aage se hamesha PR banana",  # no opening "no": a rule after the praise (review helper-174)
        "nee, juist 12 maart, niet 13",  # Dutch "juist" is also "precisely"
        "no, claro que no, nunca lo subas a main",  # "of course not"
        "non tu as raison, mais à partir de maintenant toujours la date en 13 mars",  # a rule after "but"
    ],
)
def test_words_granting_the_agent_was_right_only_after_an_opening_no(message: str) -> None:
    assert detect_statements(message, "s01", 3, None, answered="I set the release date to 13 March and pushed to main.")
