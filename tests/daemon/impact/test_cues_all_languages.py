"""The `changed`, `second_person` and `dismissal` cues, the "same mistake" reminders and the
"thanks again" agreements in the seventeen languages beyond en, de, fr, es, pl and it: a change
of state counts only about a word of the agent's turn before, "you … again" counts anywhere in
the sentence, and a correction said then dismissed ("…, but never mind") is left out; and the
`own_slip` phrases by which the person sets their own words right, in the seventeen languages
whose lists had none; and "no, you're right" as typed in chat, in the twenty-two languages
beyond en (sentences written for these tests)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from daemon.impact.amends import approves, tells
from daemon.impact.clauses import words_of
from daemon.impact.cues import agreement, cues
from daemon.impact.statements import Statement, detect_statements
from daemon.text.keyboard import find
from daemon.text.language import detect, language

# The agent's turn the person answers: it names the tools the person then retires.
ANSWERED = "I'll bundle the app with webpack and run the unit tests with jest."
# A turn about something else: the same sentence is news there, not a correction.
UNRELATED = "I'll update the README and the changelog."


# A turn that names nothing the person sets right: the message answers the agent (the first
# message of a session states a task, and a limit, "instead" or "X, not Y" there is part of it).
NEUTRAL = "Done, I updated the file."


def found(message: str, answered: str = NEUTRAL) -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", "s1.jsonl@120", answered=answered
    )


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("ar", "لم نعد نستخدم jest في هذا المشروع.", "changed:لم نعد"),
        ("cs", "Jest už nepoužíváme, přešli jsme na vitest.", "changed:už nepoužíváme"),
        ("da", "Vi har droppet webpack i det her projekt.", "changed:vi har droppet"),
        ("nb", "Vi har droppet webpack i dette prosjektet.", "changed:vi har droppet"),
        ("sv", "Vi har slutat använda jest i det här projektet.", "changed:vi har slutat använda"),
        ("nl", "We zijn overgestapt van jest naar vitest.", "changed:we zijn overgestapt"),
        ("pt", "Já não usamos o jest neste projeto.", "changed:já não"),
        ("ru", "Мы отказались от jest в этом проекте.", "changed:мы отказались от"),
        ("uk", "Ми відмовилися від jest у цьому проєкті.", "changed:ми відмовилися від"),
        ("el", "Το jest δεν το χρησιμοποιούμε πια σε αυτό το έργο.", "changed:πια"),
        ("he", "כבר לא משתמשים ב-jest בפרויקט הזה.", "changed:כבר לא"),
        ("hi", "हमने jest छोड़ दिया है, अब vitest चलता है।", "changed:छोड़ दिया"),
        ("tr", "Artık jest kullanmıyoruz, vitest'e geçtik.", "changed:kullanmıyoruz"),
        ("ja", "jestはもう使っていません。", "changed:もう 使 って いま せん"),
        ("zh", "我们已经不用jest了。", "changed:已经 不用"),
        ("ko", "jest는 더 이상 안 써요.", "changed:더 이상"),
        ("th", "เราเลิกใช้ jest แล้ว", "changed:เลิก ใช้"),
    ],
)
def test_a_change_of_state_corrects_only_what_the_agent_just_used(code: str, message: str, cue: str) -> None:
    (statement,) = found(message, ANSWERED)
    assert code in statement.language.split("+")
    assert statement.kind == "correction"
    assert cue in statement.cues
    assert all(c.startswith("changed:") for c in statement.cues)
    # the same words about something the agent did not say are news, not a correction
    assert found(message, UNRELATED) == []
    assert found(message) == []


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("ar", "أنت أضفت الإيموجي إلى رسالة الكوميت مرة أخرى.", "again:مرة أخرى"),
        ("cs", "Přidal jsi do commitu zase emoji.", "again:zase"),
        ("da", "Du har tilføjet emojis i commit-beskeden igen.", "again:igen"),
        ("nb", "Du har lagt til emojier i commit-meldingen igjen.", "again:igjen"),
        ("sv", "Du har lagt till emojis i commit-meddelandet igen.", "again:igen"),
        ("nl", "Je hebt weer emoji's in de commitboodschap gezet.", "again:weer"),
        ("pt", "Você colocou emojis na mensagem de commit de novo.", "again:de novo"),
        ("ru", "Ты опять добавил эмодзи в сообщение коммита.", "again:опять"),
        ("uk", "Ти знову додав емодзі в повідомлення коміту.", "again:знову"),
        ("el", "Έβαλες πάλι emoji στο μήνυμα του commit.", "again:πάλι"),
        ("he", "אתה שוב מוסיף אימוג'י להודעת הקומיט.", "again:שוב"),
        ("hi", "तुमने फिर से कमिट मैसेज में इमोजी डाल दिए।", "again:फिर से"),
        ("tr", "Sen yine commit mesajına emoji ekledin.", "again:yine"),
        ("ja", "あなたはまた同じ絵文字をコミットメッセージに入れました。", "again:また 同じ"),
        ("zh", "你今天又把表情符号加到提交信息里了。", "again:又"),
        ("ko", "너 또 커밋 메시지에 이모지를 넣었어.", "again:또"),
        ("th", "คุณใส่อีโมจิในข้อความคอมมิตอีกแล้ว", "again:อีก แล้ว"),
    ],
)
def test_again_counts_when_the_person_says_the_agent_did_it_again(code: str, message: str, cue: str) -> None:
    """Neither at the sentence's start nor in an exclamation: "again" counts because the
    sentence addresses the agent ("you … again")."""
    assert "!" not in message
    (statement,) = found(message)
    assert code in statement.language.split("+")
    assert statement.kind == "correction"
    assert statement.cues == (cue,)
    assert statement.recalls
    # without the language's second-person forms the same "again" would not count
    lang = detect([message])
    assert lang is not None
    unaddressed = replace(lang, impact={k: v for k, v in lang.impact.items() if k != "second_person"})
    assert cues(unaddressed, message, words_of(message), []) == []


@pytest.mark.parametrize(
    ("code", "dismissed", "correction", "cue"),
    [
        ("ar", "لا، السعر 80 وليس 60، لكن لا يهم.", "لا، السعر 80 وليس 60.", "correction:لا"),
        ("cs", "Stojí to 80, ne 60, ale to je jedno.", "Stojí to 80, ne 60.", "contrast:ne"),
        ("da", "Det koster 80, ikke 60, men pyt med det.", "Det koster 80, ikke 60.", "contrast:ikke"),
        ("nb", "Det koster 80, ikke 60, men samma det.", "Det koster 80, ikke 60.", "contrast:ikke"),
        ("sv", "Det kostar 80, inte 60, men strunt samma.", "Det kostar 80, inte 60.", "contrast:inte"),
        ("nl", "Het kost 80, niet 60, maar het maakt niet uit.", "Het kost 80, niet 60.", "contrast:niet"),
        ("pt", "Custa 80, não 60, mas tanto faz.", "Custa 80, não 60.", "contrast:não"),
        ("ru", "Стоит 80, а не 60, но неважно.", "Стоит 80, а не 60.", "contrast:а не"),
        ("uk", "Коштує 80, а не 60, але байдуже.", "Коштує 80, а не 60.", "contrast:а не"),
        ("el", "Κοστίζει 80, όχι 60, αλλά δεν πειράζει.", "Κοστίζει 80, όχι 60.", "contrast:όχι"),
        ("he", "זה עולה 80, לא 60, אבל לא משנה.", "זה עולה 80, לא 60.", "contrast:לא"),
        ("hi", "कीमत 80 है, न कि 60, पर कोई फ़र्क नहीं पड़ता।", "कीमत 80 है, न कि 60।", "contrast:न कि"),
        ("tr", "Hayır, fiyat 80, ama fark etmez.", "Hayır, fiyat 80.", "correction:hayır"),
        (
            "ja",
            "80円ではなく60円ですが、気にしないでください。",
            "80円ではなく60円です。",
            "instead:では なく",
        ),
        ("zh", "不对，是80，不过无所谓。", "不对，是80。", "correction:不对"),
        ("ko", "60 말고 80이에요, 근데 상관없어요.", "60 말고 80이에요.", "instead:말고"),
        ("th", "ไม่ใช่ ราคา 80 แต่ช่างมันเถอะ", "ไม่ใช่ ราคา 80", "correction:ไม่ใช่"),
    ],
)
def test_a_correction_the_person_then_dismisses_is_left_out(
    code: str, dismissed: str, correction: str, cue: str
) -> None:
    (statement,) = found(correction)  # said alone, it corrects …
    assert code in statement.language.split("+")
    assert statement.kind == "correction"
    assert cue in statement.cues
    assert found(dismissed) == []  # … and "but never mind" takes it back


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("ar", "نفس الخطأ في ملف الإعدادات.", "reminder:نفس الخطأ"),
        ("cs", "Zase stejná chyba v konfiguraci.", "reminder:zase stejná chyba"),
        ("da", "Den samme fejl i konfigurationsfilen.", "reminder:den samme fejl"),
        ("nb", "Samme feil i konfigurasjonsfilen.", "reminder:samme feil"),
        ("sv", "Samma fel i konfigurationsfilen.", "reminder:samma fel"),
        ("nl", "Weer dezelfde fout in het configuratiebestand.", "reminder:weer dezelfde fout"),
        ("pt", "O mesmo erro no arquivo de configuração.", "reminder:o mesmo erro"),
        ("ru", "Та же ошибка в файле конфигурации.", "reminder:та же ошибка"),
        ("uk", "Та сама помилка у файлі конфігурації.", "reminder:та сама помилка"),
        # Greek phrases are casefolded: the final ς is σ
        ("el", "Το ίδιο λάθος στο αρχείο ρυθμίσεων.", "reminder:το ίδιο λάθοσ"),
        ("he", "אותה טעות בקובץ ההגדרות.", "reminder:אותה טעות"),
        ("hi", "कॉन्फ़िग फ़ाइल में वही गलती।", "reminder:वही गलती"),
        ("tr", "Yapılandırma dosyasında yine aynı hata.", "reminder:yine aynı hata"),
        ("ja", "設定ファイルで同じ間違いをしています。", "reminder:同じ 間違い"),
        ("zh", "配置文件里又是同样的错误。", "reminder:同样 的 错误"),
        ("ko", "설정 파일에서 같은 실수를 했어요.", "reminder:같은 실수를"),
        ("th", "ไฟล์ตั้งค่าผิดเหมือนเดิม", "reminder:ผิด เหมือน เดิม"),
    ],
)
def test_the_same_mistake_recalls_what_was_said_before(code: str, message: str, cue: str) -> None:
    (statement,) = found(message)
    assert code in statement.language.split("+")
    assert cue in statement.cues
    assert statement.recalls


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ar", "شكرا مرة أخرى على المساعدة في الاختبارات!"),
        ("cs", "Ještě jednou díky za pomoc s testy!"),
        ("da", "Tak igen for hjælpen med testene!"),
        ("nb", "Takk igjen for hjelpen med testene!"),
        ("sv", "Tack igen för hjälpen med testerna!"),
        ("nl", "Nogmaals bedankt voor de hulp met de tests!"),
        ("pt", "Obrigado de novo pela ajuda com os testes!"),
        ("ru", "Ещё раз спасибо за помощь с тестами!"),
        ("uk", "Ще раз дякую за допомогу з тестами!"),
        ("el", "Ευχαριστώ και πάλι για τη βοήθεια με τα τεστ!"),
        ("he", "תודה שוב על העזרה עם הבדיקות!"),
        ("hi", "फिर से धन्यवाद, टेस्ट में बहुत मदद मिली!"),
        ("tr", "Tekrar teşekkürler, testlerde çok yardımcı oldun!"),
        ("ja", "再度ありがとうございます！テストの件、助かりました。"),
        ("zh", "再次感谢你帮忙跑测试！"),
        ("ko", "다시 한번 감사합니다, 테스트 도와줘서요!"),
        ("th", "ขอบคุณอีกครั้งที่ช่วยเรื่องเทสต์!"),
    ],
)
def test_thanks_again_is_gratitude_not_a_repeat(code: str, message: str) -> None:
    """An exclaimed "again" counts (`Emojis again!`); opening a thanks it is left out."""
    lang = detect([message])
    assert lang is not None and code in lang.code.split("+")
    assert "again" in {c.kind for c in cues(lang, message, words_of(message), [])}
    assert agreement(lang, message, words_of(message)) is not None
    assert found(message) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ar", "شكرا على الجدول"),
        ("cs", "díky za tabulku"),
        ("da", "tak, tabellen er på plads"),
        ("de", "sieht gut aus mit der Tabelle"),
        ("el", "ευχαριστώ για τον πίνακα"),
        ("es", "gracias por la tabla"),
        ("fr", "merci pour le tableau"),
        ("he", "תודה על הטבלה"),
        ("hi", "टेबल के लिए धन्यवाद"),
        ("it", "grazie per la tabella"),
        ("ja", "表ありがとう"),
        ("ko", "표 감사합니다"),
        ("nb", "takk for tabellen"),
        ("nl", "bedankt voor de tabel"),
        ("pl", "dzięki za tabelę"),
        ("pt", "valeu pela tabela"),
        ("ru", "спасибо за таблицу"),
        ("sv", "tack för tabellen"),
        ("th", "ขอบคุณสำหรับตาราง"),
        ("tr", "tablo için teşekkürler"),
        ("uk", "дякую за таблицю"),
        ("zh", "谢谢你的表格"),
    ],
)
def test_thanks_for_the_work_approves_it(code: str, message: str) -> None:
    lang = language(code)
    assert lang is not None
    assert approves(lang, message, words_of(message))


@pytest.mark.parametrize(
    ("code", "slip", "correction"),
    [
        ("ar", "آسف، قصدي 80 وليس 60.", "لا، قصدي 80 وليس 60."),
        ("cs", "Promiň, myslel jsem pátek, ne čtvrtek.", "Ne, myslel jsem pátek, ne čtvrtek."),
        ("da", "Undskyld, jeg mente fredag, ikke torsdag.", "Nej, jeg mente fredag, ikke torsdag."),
        ("nb", "Beklager, jeg mente fredag, ikke torsdag.", "Nei, jeg mente fredag, ikke torsdag."),
        ("sv", "Förlåt, jag menade fredag, inte torsdag.", "Nej, jag menade fredag, inte torsdag."),
        ("nl", "Sorry, ik bedoelde vrijdag, niet donderdag.", "Nee, ik bedoelde vrijdag, niet donderdag."),
        (
            "pl",
            "Przepraszam, chodziło mi o piątek, nie czwartek.",
            "Nie, chodziło mi o piątek, nie czwartek.",
        ),
        ("ru", "Извини, я имел в виду пятницу, а не четверг.", "Нет, я имел в виду пятницу, а не четверг."),
        ("uk", "Вибач, я мав на увазі п'ятницю, а не четвер.", "Ні, я мав на увазі п'ятницю, а не четвер."),
        ("el", "Συγγνώμη, εννοούσα Παρασκευή, όχι Πέμπτη.", "Όχι, εννοούσα Παρασκευή, όχι Πέμπτη."),
        ("he", "סליחה, התכוונתי ליום שישי, לא לחמישי.", "לא, התכוונתי ליום שישי, לא לחמישי."),
        ("hi", "सॉरी, मेरा मतलब था शुक्रवार, न कि गुरुवार।", "नहीं, मेरा मतलब था शुक्रवार, न कि गुरुवार।"),
        ("tr", "Pardon, yanlış yazdım: 60 değil 80.", "Hayır, 60 değil 80."),
        ("ja", "木曜ではなく金曜です、書き間違えました。", "木曜ではなく金曜です。"),
        ("zh", "不好意思，我是说周五而不是周四。", "我是说周五而不是周四。"),
        ("ko", "제가 잘못 썼어요, 목요일 말고 금요일이에요.", "목요일 말고 금요일이에요."),
        ("th", "ผมพิมพ์ผิด ไม่ใช่ 60 แต่เป็น 80", "ไม่ใช่ 60 แต่เป็น 80"),
    ],
)
def test_the_person_setting_their_own_words_right_is_left_out(code: str, slip: str, correction: str) -> None:
    """An apology with "I meant", or "I mistyped", sets the person's own words right (`own_slip`):
    "sorry, I meant Friday, not Thursday"; a bare "I meant", or the value alone, corrects the
    agent ("No, I meant Friday, not Thursday")."""
    (statement,) = found(correction)
    assert code in statement.language.split("+")
    assert statement.kind == "correction"
    lang = detect([slip])
    assert lang is not None and code in lang.code.split("+")
    assert find(words_of(slip).low, lang.impact["own_slip"])
    assert found(slip) == []


@pytest.mark.parametrize(
    ("code", "announcing", "value"),
    [
        ("ar", "عندي ملاحظتين.", "مسافتين، مش أربعة."),
        ("cs", "Dvě věci.", "Dvě mezery, ne čtyři."),
        ("da", "To ting.", "To mellemrum, ikke fire."),
        ("de", "Zwei Sachen.", "Zwei Leerzeichen, nicht vier."),
        ("el", "Δυο πράγματα.", "Δύο κενά, όχι τέσσερα."),
        ("en", "Two things.", "Two spaces, not four."),
        ("es", "Dos cosas.", "Dos espacios, no cuatro."),
        ("fr", "Deux choses.", "Deux espaces, pas quatre."),
        ("he", "שני דברים.", "שני רווחים, לא ארבעה."),
        ("hi", "दो बातें।", "दो स्पेस, चार नहीं।"),
        ("it", "Due cose.", "Due spazi, non quattro."),
        ("ja", "二つあります。", "スペースは二つ、四つではない。"),
        ("ko", "두 가지요.", "스페이스 두 개, 네 개 말고."),
        ("nb", "To ting.", "To mellomrom, ikke fire."),
        ("nl", "Twee dingen.", "Twee spaties, niet vier."),
        ("pl", "Dwie rzeczy.", "Dwie spacje, nie cztery."),
        ("pt", "Duas coisas.", "Dois espaços, não quatro."),
        ("ru", "Две вещи.", "Две колонки, не четыре."),
        ("sv", "Två saker.", "Två mellanslag, inte fyra."),
        ("th", "สองเรื่องครับ", "เว้นสองช่อง ไม่ใช่สี่ช่อง"),
        ("tr", "İki şey.", "İki boşluk, dört değil."),  # a capital İ is read as "i" (`clauses.words_of`)
        ("uk", "Дві речі.", "Дві колонки, не чотири."),
        ("zh", "两件事。", "两个空格，不是四个。"),
    ],
)
def test_a_short_sentence_announcing_points_introduces_what_follows(code: str, announcing: str, value: str) -> None:
    """"Two things." only announces the points after it (`impact.several`): it is not itself a
    correction; "two spaces, not four" sets a value right and is not read so."""
    lang = language(code)
    assert lang is not None
    assert find(words_of(announcing).low, lang.impact["several"])
    assert tells(lang, announcing, words_of(announcing))
    assert not find(words_of(value).low, lang.impact["several"])
    assert not tells(lang, value, words_of(value))


@pytest.mark.parametrize(
    ("code", "sentence"),
    [
        ("en", "two things are wrong with the invoice total here"),
        ("fr", "Deux choses ne vont pas dans le total de la facture."),
        ("de", "Zwei Sachen stimmen an der Rechnungssumme hier nicht."),
        ("pl", "Dwie rzeczy nie zgadzają się w sumie tej faktury."),
        ("pt", "Duas coisas estão erradas no total da fatura."),
        ("ja", "請求書の合計について二つあります、確認してください。"),
    ],
)
def test_a_longer_sentence_with_the_phrase_says_something_of_its_own(code: str, sentence: str) -> None:
    """A sentence of more than ANNOUNCING words that holds "two things" is not an announcement."""
    lang = language(code)
    assert lang is not None
    words = words_of(sentence)
    assert len(words.low) > 5
    assert find(words.low, lang.impact["several"])
    assert not tells(lang, sentence, words)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ar", "لا، معاك حق، خليها زي ما هي"),
        ("cs", "ne ne, mas pravdu, nech to tak"),
        ("da", "nej nej, du har jo ret, lad det være"),
        ("de", "nee, hast recht, lass es so"),
        ("el", "οχι οχι, εχεις δικιο, αφησε το ετσι"),
        ("es", "no no, tenés razón, dejalo así"),
        ("fr", "non non, ta raison, laisse comme ça"),
        ("he", "לא לא, אתה צודק, תשאיר ככה"),
        ("hi", "नहीं नहीं, तुम सही कह रहे हो, ऐसे ही रहने दो"),
        ("it", "no no, c'hai ragione tu, lascia così"),
        ("ja", "いやいや、あなたの言う通りです、そのままで"),
        ("ko", "아니, 네 말이 맞아, 그냥 둬"),
        ("nb", "nei nei, du har jo rett, la det være"),
        ("nl", "nee nee, ge hebt gelijk, laat maar zo"),
        ("pl", "nie nie, twoja racja, zostaw tak"),
        ("pt", "nao nao, vc ta certo, deixa assim"),
        ("ru", "нет нет, ты прав, оставь так"),
        ("sv", "nej nej, du har ju rätt, låt det vara"),
        ("th", "ไม่ครับ พูดถูก ปล่อยไว้แบบนั้น"),
        ("tr", "yok yok, haklisin, böyle kalsın"),
        ("uk", "ні ні, ти маєш рацію, залиш так"),
        ("zh", "不不，你说的对，就这样吧"),
    ],
)
def test_no_you_are_right_as_typed_in_chat_agrees(code: str, message: str) -> None:
    """"No, you're right" as people type it in chat (abbreviated, without accents, in dialect,
    after a doubled "no") agrees with the agent: no correction is read from it."""
    lang = language(code)
    assert lang is not None
    assert agreement(lang, message, words_of(message)) is not None
    assert found(message) == []


@pytest.mark.parametrize(
    ("code", "sentence"),
    [
        ("ru", "ещё одно поле лишнее."),  # one more field is extra
        ("ko", "두 가지 색이면 충분해요."),  # two colours are enough
        ("en", "two issues with the total."),
    ],
)
def test_a_phrase_with_a_word_of_its_own_after_it_announces_nothing(code: str, sentence: str) -> None:
    """"ещё одно" announces only when nothing but function words follow it ("ещё одно." /
    "two things here."): "ещё одно поле лишнее" says what is wrong."""
    lang = language(code)
    assert lang is not None
    words = words_of(sentence)
    assert find(words.low, lang.impact["several"])
    assert not tells(lang, sentence, words)
