"""Detection in the languages beyond the corpus's: for each, a correction, a standing
instruction and a preference or a "told you" are found, and a question, a polite "no" and a
one-off request are left out (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

# The agent's turn the person answers (the first message of a session states a task).
AGENT = "Done, I updated the file."


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", "s1.jsonl@120", answered=AGENT)


@pytest.mark.parametrize(
    ("code", "message", "kind", "cue"),
    [
        ("it", "No, la riunione è giovedì.", "correction", "correction:no"),
        # Swiss German as typed
        ("de", "Und d Tests mit pytest, nöd mit unittest.", "correction", "contrast:nöd"),
        (
            "it",
            "D'ora in poi esegui sempre i test prima del commit.",
            "standing_instruction",
            "standing:sempre",
        ),
        ("it", "Te l'ho già detto, usiamo pnpm.", "correction", "reminder:te l'ho già detto"),
        ("it", "Preferisco risposte brevi, senza elenchi puntati.", "preference", "preference:preferisco"),
        ("pt", "Não, a reunião é na quinta.", "correction", "correction:não"),
        (
            "pt",
            "Daqui pra frente, sempre rode os testes antes do commit.",
            "standing_instruction",
            "standing:sempre",
        ),
        ("pt", "Eu já te disse, a gente usa pnpm.", "correction", "reminder:já te disse"),
        ("pt", "Prefiro respostas curtas, sem listas.", "preference", "preference:prefiro"),
        ("nl", "Nee, de vergadering is donderdag.", "correction", "correction:nee"),
        ("nl", "Draai voortaan altijd eerst de tests.", "standing_instruction", "standing:altijd"),
        (
            "nl",
            "Ik heb liever korte antwoorden zonder opsommingen.",
            "preference",
            "preference:ik heb liever",
        ),
        ("sv", "Nej, mötet är på torsdag.", "correction", "correction:nej"),
        ("sv", "Kör alltid testerna innan du committar.", "standing_instruction", "standing:alltid"),
        ("sv", "Jag föredrar korta svar utan punktlistor.", "preference", "preference:jag föredrar"),
        ("da", "Nej, mødet er på torsdag.", "correction", "correction:nej"),
        ("da", "Kør fremover altid testene før du committer.", "standing_instruction", "standing:altid"),
        (
            "da",
            "Jeg foretrækker korte svar uden punktopstillinger.",
            "preference",
            "preference:jeg foretrækker",
        ),
        ("nb", "Nei, møtet er på torsdag.", "correction", "correction:nei"),
        ("nb", "Kjør alltid testene før du committer.", "standing_instruction", "standing:alltid"),
        ("nb", "Jeg foretrekker korte svar uten punktlister.", "preference", "preference:jeg foretrekker"),
        ("cs", "Ne, porada je ve čtvrtek.", "correction", "correction:ne"),
        ("cs", "Odteď vždycky nejdřív spusť testy.", "standing_instruction", "standing:vždycky"),
        ("cs", "Už jsem ti říkal, používáme pnpm.", "correction", "reminder:už jsem ti říkal"),
        ("ru", "Нет, совещание в четверг.", "correction", "correction:нет"),
        ("ru", "Впредь всегда сначала запускай тесты.", "standing_instruction", "standing:всегда"),
        ("ru", "Я же говорил, мы используем pnpm.", "correction", "reminder:я же говорил"),
        ("uk", "Ні, нарада в четвер.", "correction", "correction:ні"),
        ("uk", "Відтепер завжди спочатку запускай тести.", "standing_instruction", "standing:завжди"),
        ("uk", "Я ж казав, ми використовуємо pnpm.", "correction", "reminder:я ж казав"),
        ("el", "Όχι, η σύσκεψη είναι την Πέμπτη.", "correction", "correction:όχι"),
        ("el", "Από εδώ και πέρα τρέχε πάντα πρώτα τα τεστ.", "standing_instruction", "standing:πάντα"),
        ("el", "Σου το έχω πει, χρησιμοποιούμε pnpm.", "correction", "reminder:σου το έχω πει"),
        ("tr", "Hayır, toplantı perşembe günü.", "correction", "correction:hayır"),
        (
            "tr",
            "Bundan sonra testleri her zaman önce çalıştır.",
            "standing_instruction",
            "standing:her zaman",
        ),
        ("tr", "Commit mesajlarında emoji olmasın.", "preference", "preference:olmasın"),
        ("ja", "いいえ、会議は木曜日です。", "correction", "correction:いいえ"),
        ("ja", "これからは必ずテストを先に実行してください。", "standing_instruction", "standing:必ず"),
        ("ja", "前にも言ったけど、pnpmを使ってください。", "correction", "reminder:前 に も 言 っ"),
        ("zh", "不对，会议是周四。", "correction", "correction:不对"),
        ("zh", "以后每次提交前都要先跑测试。", "standing_instruction", "standing:每次"),
        ("zh", "我说过了，我们用pnpm。", "correction", "reminder:我 说 过"),
        ("ko", "아니요, 회의는 목요일이에요.", "correction", "correction:아니요"),
        ("ko", "앞으로는 항상 테스트를 먼저 실행해 주세요.", "standing_instruction", "standing:항상"),
        ("ko", "pnpm 쓰라고 말했잖아요.", "correction", "reminder:말했잖아요"),
        ("hi", "नहीं, मीटिंग गुरुवार को है।", "correction", "correction:नहीं"),
        ("hi", "आगे से हमेशा पहले टेस्ट चलाना।", "standing_instruction", "standing:हमेशा"),
        ("hi", "मैंने पहले ही कहा था, हम pnpm इस्तेमाल करते हैं।", "correction", "reminder:मैंने पहले ही कहा"),
        ("ar", "لا، الاجتماع يوم الخميس.", "correction", "correction:لا"),
        ("ar", "من الآن فصاعدا شغّل الاختبارات دائما قبل الدمج.", "standing_instruction", "standing:دائما"),
        ("ar", "قلت لك، نحن نستخدم pnpm.", "correction", "reminder:قلت لك"),
        ("he", "לא, הפגישה ביום חמישי.", "correction", "correction:לא"),
        ("he", "מעכשיו תמיד תריץ קודם את הבדיקות.", "standing_instruction", "standing:תמיד"),
        ("he", "אמרתי לך, אנחנו משתמשים ב-pnpm.", "correction", "reminder:אמרתי לך"),
        ("th", "ไม่ใช่, ประชุมวันพฤหัส", "correction", "correction:ไม่ใช่"),
        ("th", "ต่อไปนี้ให้รันเทสต์ก่อนทุกครั้ง", "standing_instruction", "standing:ทุก ครั้ง"),
        ("th", "บอกแล้วไงว่าให้ใช้ pnpm", "correction", "reminder:บอก แล้ว ไง"),
    ],
)
def test_each_language_finds_its_corrections_instructions_and_preferences(
    code: str, message: str, kind: str, cue: str
) -> None:
    (statement,) = found(message)
    assert code in statement.language.split("+")
    assert statement.kind == kind
    assert cue in statement.cues
    assert statement.quote == message


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("it", "Dobbiamo sempre eseguire i test prima?"),
        ("it", "No, va bene, lascia la bozza così."),
        ("it", "Questa volta usa il server di riserva, non quello principale."),
        ("pt", "Devemos sempre rodar os testes antes?"),
        ("pt", "Não, obrigado, o layout atual está ótimo."),
        ("pt", "Desta vez usa o servidor reserva, não o principal."),
        ("nl", "Moeten we altijd eerst de tests draaien?"),
        ("nl", "Nee, dank je, de lijst is zo goed."),
        ("nl", "Gebruik deze keer de reserveserver, niet de hoofdserver."),
        ("sv", "Ska vi alltid köra testerna först?"),
        ("sv", "Nej tack, listan räcker som den är."),
        ("sv", "Använd reservservern den här gången, inte huvudservern."),
        ("da", "Skal vi altid køre testene først?"),
        ("da", "Nej tak, listen er fin som den er."),
        ("da", "Brug reserveserveren denne gang, ikke hovedserveren."),
        ("nb", "Skal vi alltid kjøre testene først?"),
        ("nb", "Nei takk, lista holder som den er."),
        ("nb", "Bruk reserveserveren denne gangen, ikke hovedserveren."),
        ("cs", "Máme vždycky nejdřív spouštět testy?"),
        ("cs", "Ne, díky, seznam stačí tak, jak je."),
        ("cs", "Tentokrát použij záložní server, ne hlavní."),
        ("ru", "Нам всегда нужно сначала запускать тесты?"),
        ("ru", "Нет, спасибо, список и так хороший."),
        ("ru", "На этот раз используй резервный сервер, не основной."),
        ("uk", "Нам завжди треба спочатку запускати тести?"),
        ("uk", "Ні, дякую, список і так гарний."),
        ("uk", "Цього разу візьми резервний сервер, не основний."),
        ("el", "Πρέπει να τρέχουμε πάντα πρώτα τα τεστ?"),
        ("el", "Όχι, ευχαριστώ, η λίστα είναι μια χαρά."),
        ("el", "Αυτή τη φορά χρησιμοποίησε τον εφεδρικό server, όχι τον κύριο."),
        ("tr", "Testleri her zaman önce mi çalıştırmalıyız?"),
        ("tr", "Hayır, teşekkürler, liste böyle iyi."),
        ("tr", "Bu sefer yedek sunucuyu kullan, ana sunucuyu değil."),
        ("ja", "いつもテストを先に実行すべきですか？"),
        ("ja", "いいえ、大丈夫です。そのままで結構です。"),
        ("ja", "今回だけはステージングのDBを使ってください、いつもの本番ではなく。"),
        ("zh", "我们是不是应该每次都先跑测试？"),
        ("zh", "不用了，谢谢，现在这样挺好。"),
        ("zh", "这次用备用服务器，不是主服务器。"),
        ("ko", "테스트를 항상 먼저 실행해야 하나요?"),
        ("ko", "아니요, 괜찮아요. 그대로 두세요."),
        ("ko", "이번에만 백업 서버를 써 주세요, 항상 쓰는 메인 말고요."),
        ("hi", "क्या हमें हमेशा पहले टेस्ट चलाने चाहिए?"),
        ("hi", "नहीं, धन्यवाद, सूची ऐसे ही ठीक है।"),
        ("hi", "इस बार बैकअप सर्वर इस्तेमाल करो, मुख्य सर्वर नहीं।"),
        ("ar", "هل يجب أن نشغل الاختبارات دائما أولا?"),
        ("ar", "لا، شكرا، القائمة جيدة هكذا."),
        ("ar", "هذه المرة استخدم الخادم الاحتياطي، وليس الرئيسي."),
        ("he", "אנחנו צריכים תמיד להריץ קודם את הבדיקות?"),
        ("he", "לא תודה, הרשימה טובה כמו שהיא."),
        ("he", "הפעם תשתמש בשרת הגיבוי, לא בראשי."),
        ("th", "เราควรรันเทสต์ก่อนทุกครั้งไหม?"),
        ("th", "ไม่เป็นไรครับ รายการนี้โอเคแล้ว"),
        ("th", "ครั้งนี้ใช้เซิร์ฟเวอร์สำรองแทนนะ"),
    ],
)
def test_each_language_leaves_out_questions_polite_noes_and_one_off_requests(code: str, message: str) -> None:
    assert found(message) == [], code


@pytest.mark.parametrize(
    "message",
    [
        "هل يجب أن نشغل الاختبارات دائما أولا؟",  # the Arabic question mark
        "Πρέπει να τρέχουμε πάντα πρώτα τα τεστ;",  # the Greek question mark (;)
        "Πρέπει να τρέχουμε πάντα πρώτα τα τεστ\u037e",  # the same, as typed before NFC
        "เราควรรันเทสต์ก่อนทุกครั้งไหม",  # a Thai question, its particle (ไหม) and no mark
        "เราควรรันเทสต์ก่อนทุกครั้งไหม ",  # … with a space after it
        "总是先跑测试吗",  # a Chinese question by its particle (吗)
    ],
)
def test_a_question_marked_only_in_its_own_script_is_left_out(message: str) -> None:
    assert found(message) == []
    # the same words told, not asked, are a standing instruction
    told = message.rstrip().rstrip("؟;\u037e").removesuffix("ไหม").removesuffix("吗")
    assert [s.kind for s in found(told)] == ["standing_instruction"]


@pytest.mark.parametrize(
    ("asked", "told"),
    [
        # Thai asks by a question word closing the sentence as by its particle (the seventy-fourth
        # once read): "really?" (not ยังไง, "how": "ไม่ว่ายังไง" is "no matter what"; nor อะไรบ้าง,
        # ไหนบ้าง, "what all", "where all", which close a clause after ว่า as often)
        ("เราต้องรันเทสต์ก่อนทุกครั้งเหรอ", "เราต้องรันเทสต์ก่อนทุกครั้ง"),
        ("ใช้ภาษาไทยทุกครั้งหรอครับ", "ใช้ภาษาไทยทุกครั้งครับ"),
    ],
)
def test_a_thai_question_closed_by_its_question_word_is_left_out(asked: str, told: str) -> None:
    assert found(asked) == []
    assert [s.kind for s in found(told)] == ["standing_instruction"]


@pytest.mark.parametrize(
    "message", ["ต้องรันเทสต์ก่อน push ทุกครั้ง ไม่ว่ายังไง", "ทุกครั้งที่ commit ให้เขียนด้วยว่าแก้อะไรบ้าง"]
)
def test_a_thai_rule_said_no_matter_what_or_with_what_all_stands(message: str) -> None:
    assert [s.kind for s in found(message)] == ["standing_instruction"]


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("あと高橋じゃなくて髙橋です（はしごだか）", "correction"),  # "か" closes the aside, not the sentence
        ("あと高橋じゃなくて髙橋です（はしごだか）。", "correction"),
        ("always rebase before you push (the main branch)", "standing_instruction"),
    ],
)
def test_a_question_in_an_aside_closing_the_sentence_asks_nothing(message: str, kind: str) -> None:
    assert [s.kind for s in found(message)] == [kind]


@pytest.mark.parametrize(
    "message",
    [
        "Should we always rebase (before pushing)?",
        "总是先跑测试吗（在合并前）",
        "we never squash commits (do we?)",  # a question in the aside asks
        "提交信息总是用英文（对吗？）",
    ],
)
def test_a_question_with_an_aside_before_its_end_still_asks(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("Dans la newsletter, on tutoie les lecteurs.", "preference:tutoie"),
        ("Die Kunden werden gesiezt, auch wenn sie selbst locker schreiben.", "preference:gesiezt"),
        ("vi er på du med kunderne", "preference:er på du"),
        ("a la gente del ministerio se le habla de usted", "preference:de usted"),
        ("s hospodskými tykáme, s úřady vykáme", "preference:tykáme"),
        ("клиентам пиши на вы", "preference:на вы"),
        ("お客さんへのLINEは敬語で", "preference:敬語 で"),
    ],
)
def test_a_form_of_address_set_as_the_way_to_write_is_a_preference(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.kind == "preference" and cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "Sollen wir die Kinder eigentlich auch siezen?",  # a question
        "Mein alter Chef hat alle geduzt, war komisch.",  # how it was
        "si on tutoyait les clients, ça passerait mieux ?",
        # the same words saying something else: "remember, you …", "sort by first name"
        "Husk på, du skal sende fakturaen i dag.",
        "Sortuj pliki po imieniu autora.",
        "Βάλε τη λέξη στον πληθυντικό.",
    ],
)
def test_a_form_of_address_asked_about_or_told_of_the_past_is_no_statement(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("коммиты на английском, у нас так принято", "standing:у нас так принято"),
        ("Uf Prod wird am Fritig nöd deployed, das isch bi üs eso.", "standing:bi üs eso"),
        ("we don't go near a client's network till the ticket's approved, that's how we roll", "standing:that's how we roll"),
        ("faturayı ayın 5'inde kesiyoruz, bizde böyle yapılır", "standing:bizde böyle yapılır"),
        ("請求書は月末締め、うちのルールやから", "standing:うち の ルール"),
        # the seventy-first once read: how people work there
        ("branche + Mathis pour la PR, c'est comme ça qu'on bosse ici", "standing:c'est comme ça qu'on bosse ici"),
        # a word in the past inside quotation marks is the commits' wording, not the person's story
        ('у нас принято писать коммиты как "исправил баг в модуле"', "standing:у нас принято"),
    ],
)
def test_how_things_are_done_where_the_person_works_is_a_standing_instruction(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.kind == "standing_instruction" and cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "у нас так было раньше",  # how it was
        "u nas tak jest?",  # a question
        "c'est comme ça qu'on bossait avant",  # how it was
        # review helper-214: a page asked for, a style set aside, a dough worked, a worker's loop
        "Write an onboarding doc that explains how we work here.",
        "Eigentlich nicht unser Stil, aber für diesen Kunden machen wir das mal so.",
        "C'est comme ça qu'on travaille la pâte brisée, à la main.",
        "У нас так работают все воркеры: берут задачу из очереди.",
        "u nas tak nie działa, build się wywala",  # "it doesn't work for us like that": a bug
        "bei uns wird das früher anders gewesen sein, war ja vor meiner Zeit",
        # "we have", "at ours": a trouble or a fact, no rule
        "У нас 500 ошибка на проде.",
        "Bei uns läuft der Build gerade nicht durch.",
        "Bizde bugün internet yok.",
        "Chez nous, le build plante depuis ce matin.",
        "У нас так же падает на staging.",
        "Bei uns wird gerade umgebaut, deshalb bin ich langsam.",
        "U nas tak samo, build nie przechodzi.",
        "in our team we have five people",
        "Chez nous on a un souci avec le build.",
        "Da noi si blocca il build ogni mattina.",
    ],
)
def test_how_things_are_where_the_person_works_asked_or_told_of_the_past_is_no_statement(message: str) -> None:
    assert found(message) == []


def test_a_greek_semicolon_asks_only_in_greek() -> None:
    """An English sentence ending in ";" is not a question: "always" still counts."""
    (statement,) = found("Always run the tests first;")
    assert statement.kind == "standing_instruction"


def test_a_thai_correction_opener_followed_by_a_space_is_found() -> None:
    (statement,) = found("ไม่ใช่ ใช้ pnpm")
    assert statement.kind == "correction"


def test_a_thai_correction_opener_running_into_its_clause_is_a_word_not_a_correction() -> None:
    """Without the pause "ไม่ใช่" runs into what follows ("is not …"), like "no" before a word."""
    assert [s.cues for s in found("ไม่ใช่ปัญหาของเรา")] == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        # a full-width comma or an ideographic one breaks a clause as a comma does
        ("金额用分存，别用浮点数。", "stop:别用"),
        ("用pnpm，而不是npm。", "contrast:而不是"),
        ("不对，用pnpm，不要用npm。", "stop:不要"),
        ("又是npm。", "again:又是"),
    ],
)
def test_chinese_with_latin_names_in_it_is_read_as_chinese_with_its_clauses(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.language == "zh" and cue in statement.cues


def test_a_chinese_clause_after_a_full_width_comma_that_forbids_nothing_is_no_statement() -> None:
    assert found("金额用分存，别人会检查。") == []


@pytest.mark.parametrize(
    "message",
    [
        "sürüm 1.24 değil 1.29.",  # between two values
        "make release ile deploy ediyoruz, eski Fabric script değil.",  # a few words that name something
        "kargoyu yurtici ile gonderiyoruz, eski Aras anlasmasi degil.",  # typed without its accents
        # in the first clause, after a name, with what is meant in a clause after it
        "faturalarda kesen firma Kaya Tarım Ltd degil, babamin sahis firmasi: Mehmet Kaya.",
    ],
)
def test_a_turkish_not_after_what_it_negates_is_a_contrast(message: str) -> None:
    (statement,) = found(message)
    assert statement.kind == "correction" and any(c.startswith("contrast:") for c in statement.cues)


@pytest.mark.parametrize(
    "message",
    [
        "siparişler kargoya verildi, fatura henüz hazır değil.",  # reports the invoice not ready
        "hazır değil, yarın bakarız.",  # in the first clause: says what is, not what is meant
        "bu sorun değil, devam et.",
        # one word that names nothing: the clause reports
        "Fatura hazır, ödeme değil.",
        "Müşteri aradı, acil değil.",
        "Sunucu çalışıyor, veritabanı değil.",
        "Kaya Tarım Ltd değil.",  # a first clause with nothing after it
        # a word opening the sentence is capitalised as any (review, helper-109)
        "Acil değil, yarın yaparız.",
        "Fena değil, devam et.",
        "Mümkün değil, bugün olmaz.",
        "Bu hafta Ankara'dan gelen sipariş hazır değil, yarın.",  # what it negates is no name
    ],
)
def test_a_turkish_not_ending_a_clause_of_its_own_is_no_contrast(message: str) -> None:
    assert found(message) == []


def test_a_korean_not_x_but_y_is_a_correction_not_only_but_also_is_not() -> None:
    (statement,) = found("npm 말고 pnpm 써.")
    assert statement.language == "ko" and statement.kind == "correction"
    # "아니라" alone is also "not only … but also": praise and reports
    assert found("속도뿐만 아니라 안정성도 좋아요.") == []
    assert found("내 잘못이 아니라 서버 문제였어.") == []


@pytest.mark.parametrize("message", ["그리고 17 아니고 21이에요, 21 밑으론 안 떠요.", "버전 3.2 아니고 3.3이에요."])
def test_a_korean_not_between_two_values_is_a_contrast(message: str) -> None:
    (statement,) = found(message)
    assert statement.language == "ko" and any(c.startswith("contrast:") for c in statement.cues)


@pytest.mark.parametrize(
    "message",
    [
        "我们用pnpm，不是npm，你把package-lock.json删掉。",  # a term in Latin letters names something
        "切日要按北京时间，不是UTC。",
        "不是17，是21。",  # opening the sentence, a number to its clause's end
    ],
)
def test_a_chinese_not_before_what_it_names_is_a_contrast(message: str) -> None:
    (statement,) = found(message)
    assert statement.language == "zh" and any(c.startswith("contrast:不是") for c in statement.cues)


@pytest.mark.parametrize(
    "message",
    [
        "谢谢，不是很急。",  # "not very urgent"
        "这个不是bug。",  # inside its clause: says what something is
        "不是100%确定，但是可以试试。",  # "not 100% sure": a word after the number
        "不是我说的，是他说的。",
    ],
)
def test_a_chinese_not_before_other_words_is_no_contrast(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("絵文字使わないで。", "preference:ない で"),  # "don't", closing the sentence
        ("税抜きでお願いします。", "asked:で お願い し ます"),  # "please" after the で that says how
        ("英語で頼む。", "asked:で 頼む"),
        ("もう一回言うけど、PDFで。", "reminder:もう 一回 言う"),
    ],
)
def test_japanese_asks_for_a_way_and_forbids_closing_its_sentence(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.language == "ja" and cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "確認しないで送っちゃった。",  # "without checking": "ないで" inside the sentence
        "これでお願いします。",  # "this one, please": agrees
        "請求書の送付お願いします。",  # asks for a deed, with no で
    ],
)
def test_japanese_without_and_a_request_for_a_deed_are_no_statements(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        # Kansai "don't": the dictionary cuts the verb's ending where it finds words
        ("水曜は制作日やから打ち合わせ入れんといて。", "preference:ん とい て"),
        ("そんなん書かんとって", "preference:ん と って"),
        ("mainに直接pushせんといて", "preference:ん とい て"),  # せん / とい / て
        ("お客さんに値段のこと言わんといて。", "preference:ん とい て"),  # 言 / わん / とい / て
        ("タイトルに【】つけんといてな", "preference:ん とい て な"),
        # … or closing a clause, what is meant after it (書 / かん / とい / て)
        ("時間 午後5時 とか書かんといて、17:00 でええねん", "preference:ん とい て"),
        ("請求書に担当者の名前は入れんとって、会社名だけでええ", "preference:ん と って"),
    ],
)
def test_a_kansai_dont_closing_its_sentence_is_read_in_its_letters(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.language == "ja" and statement.kind == "preference" and cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "昨日は雨やったから外に出んといてって言われた",  # reported: the "don't" does not close it
        "これ送らなくていい？",  # a question
        "これ読んでええよ。",  # "you may read it": "〜んでええ" is not listed
        "確認しないで、そのまま送ってしもた",  # "without" closing a clause: only the Kansai forms count there
        # someone else's "don't", quoted by what opens the clause after it (`quoting`)
        "部長が書かんといて、って言うてたで",
        "書かんといて、とは言うてへんで。",
        "お客さんが触らんといて、言うてはったわ",
    ],
)
def test_a_kansai_dont_inside_a_sentence_or_asked_is_no_statement(message: str) -> None:
    assert found(message) == []


def test_a_greek_told_you_again_and_a_chinese_how_many_times_are_reminders() -> None:
    (greek,) = found("σου το έχω ξαναπεί, τα τιμολόγια φεύγουν Δευτέρα.")
    (chinese,) = found("说了多少次了，要用英文写commit。")
    assert greek.kind == chinese.kind == "correction"
    assert greek.recalls and chinese.recalls


def test_chinese_and_japanese_sentences_end_at_a_full_stop_with_no_space_after_it() -> None:
    """"…見せてね。今回はこれでOK" is two sentences: the second's one-off ("今回は", this time)
    leaves the first, a rule, standing; a full stop inside a quotation ends no sentence."""
    (rule,) = found("英語のメールは送る前に必ず私に見せてね。今回はこれでOK、送っといて")
    assert rule.quote == "英語のメールは送る前に必ず私に見せてね。"
    first, second = found("我们用pnpm，而不是npm。还有以后回复我用中文就行")
    assert first.quote == "我们用pnpm，而不是npm。" and second.kind == "standing_instruction"
    (quoted,) = found("「了解。」だけの返事はやめてください。")
    assert quoted.quote == "「了解。」だけの返事はやめてください。"


def test_chinese_dont_counts_after_what_is_spoken_of() -> None:
    (statement,) = found("金额别parseFloat，转成分存integer")  # 别 forbids after the topic
    assert "preference:别" in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "别的方案也行。",
        "又快又好，谢谢",
        "别人会看的。",
        # 又 inside a sentence says as often that the world did a thing again
        "今天又下雨了。",
        "CI又挂了，我去看看。",
        "谢谢，不是很急。",  # "not very urgent": 不是 after a comma is no contrast
    ],
)
def test_chinese_words_holding_again_dont_or_not_are_no_statements(message: str) -> None:
    assert found(message) == []


def test_a_run_of_full_stops_before_a_closing_quote_ends_no_sentence_inside_it() -> None:
    (statement,) = found("「了解！？」だけの返事はやめてください。")
    assert statement.quote == "「了解！？」だけの返事はやめてください。"
    (bracketed,) = found("【注意。】以后不要用npm。")
    assert bracketed.quote == "【注意。】以后不要用npm。"


@pytest.mark.parametrize(
    "message",
    [
        "وصل الطرد، لا يوجد ضرر",  # Arabic negates a present verb: "no damage", after its comma
        "Status: deployed · not verified",  # a middle dot is no clause break
        "Dosyaya yazma izni yok.",  # "write permission": a noun, not "don't write"
        "Okuma ve yazma hızı düştü.",
    ],
)
def test_a_report_with_a_not_after_a_foreign_comma_or_a_verbal_noun_is_no_statement(message: str) -> None:
    assert found(message) == []


def test_a_turkish_dont_closing_its_sentence_is_a_preference() -> None:
    # in a Turkish session: the sentence alone holds no word only Turkish lists
    (statement,) = detect_statements("sabunlara organik yazma.", "s1", 3, None, answered=AGENT, usual=language("tr"))
    assert statement.kind == "preference" and "preference:yazma" in statement.cues


def test_a_korean_not_only_but_also_between_two_values_is_no_contrast() -> None:
    assert found("iOS 17뿐만 아니라 18에서도 돼요.") == []


@pytest.mark.parametrize(
    "message",
    [
        # what "we" do not use is news, a task or a state as often as a rule (review helper-58)
        "Good news: we don't use any of the deprecated APIs.",
        "Delete the packages we don't use.",
        "We don't use Redis yet, but we plan to next quarter.",
    ],
)
def test_what_we_do_not_use_is_not_read_as_a_rule(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    ["לא עובד build", "Не бачу logs.", "Не за что bro", "server चल रहा है, database नहीं", "thanks, koi problem नहीं"],
)
def test_a_word_in_latin_letters_names_nothing_outside_chinese_not_before_a_name(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("정산 배치 4시 반에 돈다니까요.", "reminder:돈다니까요"),  # "it runs at 4:30, I'm telling you"
        ("한진 아니라고요 CJ대한통운이라니까요 ㅠㅠ", "reminder:아니라고요"),  # polite 요: anywhere
        ("한진 아니라고", "reminder:아니라고"),  # without 요, closing the sentence
    ],
)
def test_a_korean_reminder_said_by_a_words_ending_corrects(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.language == "ko" and statement.kind == "correction" and cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "비 온다니까 우산 챙겨",  # "since they say it will rain, take an umbrella"
        "비 온다니까, 우산 챙겨",  # … with a comma: -다니까 without 요 is read nowhere
        "뉴스에서 내일 비 온다니까",
        "그렇다니까요",  # "that's what I'm saying": agrees
        "그게 아니라고요?",  # asks
    ],
)
def test_a_korean_since_they_say_or_a_question_is_no_reminder(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        # a dialect's spelling of the negation, listed beside the standard one: Bergen and
        # Nynorsk "ikkje" beside Bokmål "ikke", Neapolitan and Roman "nun" before a verb
        ("nb", "men i sms-en: Zachariasbryggen, ikkje Bryggen", "contrast:ikkje"),
        ("nb", "og ikkje fjern +47 fra numrene, det skal stå der", "stop:ikkje fjern"),
        ("it", "nun toccare 'o foglio delle zone", "stop:nun toccare"),
    ],
)
def test_a_dialects_negation_is_read_as_the_standard_one(code: str, message: str, cue: str) -> None:
    statements = detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))
    assert any(cue in s.cues for s in statements), statements


@pytest.mark.parametrize(
    "message",
    # German "nun" is "now": Neapolitan "nun" is listed only before a verb it forbids (helper-168)
    ["gestern Status 200, nun 500", "früher Jenkins, nun GitHub Actions", "Login klappt, nun hängt der Checkout"],
)
def test_a_dialects_word_that_is_another_languages_word_reads_nothing_there(message: str) -> None:
    assert not detect_statements(message, "s1", 3, None, answered=AGENT, usual=language("de"))


def test_a_dialects_agreement_after_no_is_one_too() -> None:
    # "nei, det trengs ikkje" as "nei, det trengs ikke": what the agent added is not needed, no
    # correction (each "ikke" phrase of nb.yaml's impact lists has its "ikkje" form)
    told = "Jeg la til en engelsk versjon av bekreftelsen."
    assert not detect_statements("nei, det trengs ikkje", "s1", 3, None, answered=told, usual=language("nb"))


@pytest.mark.parametrize(
    ("code", "message", "standing"),
    [
        # Turkish "hep" and Thai "ตลอด" tell how things go ("all the time") far more often than
        # they set a rule: not `standing` words (the read corpora: 0 statements of the person's
        # own against 12 false); "her zaman", "artık hep", "เสมอ" and "ทุกครั้ง" are
        ("tr", "Nermin Hanım hep sesli mesaj atıyor, dinlemeye vakit yok", False),
        ("th", "ช่วงนี้ CPU แตะ 90% ตลอด", False),
        ("tr", "faturaları her zaman TL kes", True),
        ("tr", "artık hep TL kes", True),
        ("th", "ใส่เลขที่ใบกำกับภาษีเสมอนะคะ", True),
        ("th", "ช่วยใส่ VAT ตลอดด้วยนะ", True),  # "ตลอด" asked for, with its particle (helper-169)
        ("th", "ใส่ VAT ตลอดนะ", True),
    ],
)
def test_a_word_for_all_the_time_is_no_rule_where_it_mostly_tells(code: str, message: str, standing: bool) -> None:
    statements = detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))
    assert any(c.startswith("standing:") for s in statements for c in s.cues) is standing, statements


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("es", "quiero que las citas del Google Calendar se pasen a la tabla appointments"),
        ("th", "อยากให้ตารางคลาสบนเว็บอัปเองจาก Google Sheet"),
        ("ja", "摘要の全角スペースを消す処理を足してほしいです"),
        ("en", "I'd like you to write a script that syncs the sheet"),
    ],
)
def test_a_wish_opening_a_session_is_its_task_and_a_preference_after_the_agents_turn(code: str, message: str) -> None:
    # a wish for the work (`impact.wish`) in a message answering no turn of the agent's asks for the task
    assert not detect_statements(message, "s1", 1, None, answered="", usual=language(code))
    assert detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "I want you to always run the tests first"),  # a rule said with it stays
        ("en", "I'd like you to always answer in German"),  # … read with the wish: no supposition
        ("it", "vorrei che mi dessi del tu"),
        ("ja", "件名の【】はやめてください"),  # a "don't" of the preference list is no wish
    ],
)
def test_a_rule_or_a_dont_opening_a_session_stays(code: str, message: str) -> None:
    assert detect_statements(message, "s1", 1, None, answered="", usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [("nb", "fakturaen er fin."), ("da", "fakturaen er fin."), ("sv", "fakturan är fin.")],
)
def test_a_thing_said_fine_approves_as_is_fine_does(code: str, message: str) -> None:
    # "X er fin" as "X is fine" (`agreement`): the reply going on with the work corrects nothing
    answered = "Fakturaen: 3 500 kr.\nEdit: faktura.md"
    reply = "Edit: faktura.md\n  Fakturaen: 3 500 kr, 14 dager"
    assert not detect_statements(message, "s1", 3, None, answered=answered, usual=language(code), reply=reply)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "can you make it output a pdf instead of the terminal thing, the door staff want something to tick"),
        ("da", "mail til Mette om at tegningerne kommer fredag i stedet for onsdag"),
        ("sv", "Skriv ett kort brev om att vi stänger 17:30 på fredagar i stället för 18."),
    ],
)
def test_an_instead_opening_a_session_states_its_task(code: str, message: str) -> None:
    # nothing of the agent's was there to set right; after the agent's turn it corrects
    assert not detect_statements(message, "s1", 1, None, answered="", usual=language(code))
    assert detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))


def test_an_instead_naming_the_project_opening_a_session_is_a_rule() -> None:
    # "in this repo" (`claim.project_deixis`) says what it holds for (helper-170)
    assert detect_statements("Use pnpm instead of npm in this repo.", "s1", 1, None, answered="", usual=language("en"))


@pytest.mark.parametrize(
    ("code", "message", "answered", "reply"),
    [
        (
            "nb",
            "datoen er fin, men klokkeslettet er 14:00.",
            "Booking: fredag 12. mai kl. 10:00.",
            "Beklager! Rettet: fredag 12. mai kl. 14:00.",
        ),
        ("en", "the price is fine but the VAT is 20%.", "Quote: 400 EUR, VAT 19%.", "Sorry, fixed: 400 EUR, VAT 20%."),
    ],
)
def test_what_is_fine_then_what_is_wrong_after_a_but_is_read(code: str, message: str, answered: str, reply: str) -> None:
    # an agreement with a "but" after it turns to what is wrong: the reply's amends read it
    statements = detect_statements(message, "s1", 3, None, answered=answered, usual=language(code), reply=reply)
    assert statements, statements



@pytest.mark.parametrize(
    ("code", "message"),
    [
        # "as always" beside a rule reminds of it: an "always" inside it stays a standing word (a
        # reading that dropped it was taken back after helper-171's review)
        ("en", "Amounts in EUR, as always."),
        ("de", "Wie immer: erst die Tests."),
    ],
)
def test_a_rule_said_as_always_stays_a_rule(code: str, message: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))
