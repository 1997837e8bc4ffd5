"""The impact lists Greek, Turkish, Arabic, Hebrew and Hindi had none of: `every`,
`third_person`, `precedent`, `sympathy`, `kidding`, and where empty `house`, `address` and
`request_question_closing` (sentences written for these tests). Each list makes or keeps the
right reading, and does not misfire on what only looks like it."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done: I ran the import on production, 412 rows written."
PSQL = "Running `psql postgres://rota@localhost:5432/rota -c 'select 1'` to reproduce the lock."


def found(message: str, code: str, answered: str = AGENT, reply: str = "") -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=answered, usual=language(code), reply=reply)


def cues(message: str, code: str) -> list[str]:
    return [c for s in found(message, code) for c in s.cues]


# every: "each X" opening its clause, naming the kind and no more
@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("el", "κάθε τιμολόγιο", "standing:κάθε"),
        ("el", "κάθε commit με το νούμερο του ticket παρακαλώ", "standing:κάθε"),
        ("tr", "her yeni PR", "standing:her yeni"),
        ("tr", "her bir fatura", "standing:her bir"),
        ("hi", "हर कमिट", "standing:हर"),
    ],
)
def test_each_thing_of_a_kind_is_a_standing_rule(code: str, message: str, cue: str) -> None:
    statements = found(message, code)
    assert any(cue in s.cues for s in statements), statements
    assert {s.kind for s in statements} == {"standing_instruction"}


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("el", "κάθε test περνάει τώρα, ευχαριστώ"),  # a report
        ("el", "κάθε πρωί ελέγχω τα mail"),  # the person's habit
        ("tr", "Her neyse, devam et"),  # "anyway": bare "her" is not listed
        ("tr", "Her şey çalışıyor, teşekkürler"),
        ("hi", "हर सुबह मैं मेल चेक करता हूँ"),  # the person's habit
        ("hi", "हर चीज़ ठीक है, धन्यवाद"),
        ("ar", "كل الملفات"),  # "all the files": كل is not listed
        ("he", "כל הכבוד, עובד"),  # "well done": כל is not listed
    ],
)
def test_each_said_in_a_report_a_habit_or_a_filler_is_no_rule(code: str, message: str) -> None:
    assert not any(c.startswith("standing:") for c in cues(message, code))


# third_person: "always" said of them tells what they do
@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("el", "αυτόσ πάντα αργεί να απαντήσει"),
        ("el", "εκείνη δεν απαντάει ποτέ στα mail"),
        ("tr", "onlar her zaman geç öder"),
        ("tr", "o adam hiçbir zaman cevap vermiyor"),
        ("ar", "هو دايما بيتأخر في الدفع"),
        ("he", "הוא תמיד שוכח את המע\"מ"),
        ("he", "ההוא תמיד משלם באיחור"),
        ("hi", "वो बंदा हमेशा देर से पेमेंट करता है"),
    ],
)
def test_always_said_of_a_third_person_tells_their_habit(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("el", "αυτοί οι έλεγχοι να τρέχουν πάντα"),  # "these checks": a demonstrative, not "they"
        ("tr", "o dosyayı her zaman sil"),  # "that file": "o" is not listed
        ("ar", "دايما استخدم pnpm"),
        ("he", "תמיד לשלוח עם מע\"מ"),
        ("hi", "हमेशा pnpm इस्तेमाल करो"),
    ],
)
def test_a_rule_with_no_third_person_stays_a_rule(code: str, message: str) -> None:
    assert [s.kind for s in found(message, code)] == ["standing_instruction"]


# precedent: "as before" closing a clause that names a way
@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("el", "τρεισ κουκκίδεσ στην αρχή, όπωσ την προηγούμενη φορά", "precedent:όπωσ την προηγούμενη φορά"),
        ("el", "τρεις κουκκίδες στην αρχή, οπως συνηθως", "precedent:οπωσ συνηθωσ"),
        ("tr", "başlıkta üç madde, geçen seferki gibi", "precedent:geçen seferki gibi"),
        ("tr", "başlıkta 3 madde, gecen seferki gibi", "precedent:geçen seferki gibi"),
        ("tr", "başlıkta üç madde lütfen, her zamanki gibi", "precedent:her zamanki gibi"),
        ("ar", "3 نقاط فوق، زي المرة اللي فاتت", "precedent:زي المرة اللي فاتت"),
        ("ar", "3 نقاط فوق، كالعادة", "precedent:كالعادة"),
        ("he", "3 נקודות למעלה, כרגיל", "precedent:כרגיל"),
        ("he", "שלוש נקודות למעלה, כמו בפעם הקודמת", "precedent:כמו בפעם הקודמת"),
        ("hi", "ऊपर 3 पॉइंट्स, पिछली बार की तरह", "precedent:पिछली बार की तरह"),
        ("hi", "ऊपर 3 पॉइंट्स, पहले जैसा", "precedent:पहले जैसा"),
    ],
)
def test_a_way_named_as_before_recalls_a_preference(code: str, message: str, cue: str) -> None:
    (statement,) = found(message, code)
    assert statement.recalls and statement.kind == "preference"
    assert cue in statement.cues


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("el", "έσπασε όπως την προηγούμενη φορά"),  # a story
        ("tr", "geçen seferki gibi bozuldu"),
        ("ar", "اتكسر زي المرة اللي فاتت"),
        ("he", "נשבר כמו בפעם הקודמת"),
        ("hi", "पिछली बार की तरह टूट गया"),
    ],
)
def test_something_broken_as_before_recalls_nothing(code: str, message: str) -> None:
    assert not any(c.startswith("precedent:") for c in cues(message, code))


# sympathy: an apology for a wait opens the agent's reply and amends nothing
@pytest.mark.parametrize(
    ("code", "message", "consoling", "amending"),
    [
        (
            "el",
            "η βάση είναι στο 5433 τοπικά.",
            "Συγγνώμη για την αναμονή. Το επόμενο είναι το query στο 5433.",
            "Συγγνώμη, το DATABASE_URL είναι τώρα 5433.",
        ),
        (
            "tr",
            "veritabanı lokalde 5433'te.",
            "Kusura bakma, beklettim. Sıradaki iş 5433 üzerindeki sorgu.",
            "Kusura bakma, DATABASE_URL artık 5433.",
        ),
        (
            "ar",
            "قاعدة البيانات على 5433 محليا.",
            "آسف على التأخير. الخطوة التالية هي الاستعلام على 5433.",
            "آسف، DATABASE_URL الآن 5433.",
        ),
        (
            "he",
            "מסד הנתונים על 5433 מקומית.",
            "סליחה על העיכוב. הבא בתור הוא השאילתה על 5433.",
            "סליחה, DATABASE_URL עכשיו 5433.",
        ),
        (
            "hi",
            "लोकल में डेटाबेस 5433 पर है।",
            "सॉरी, देर हो गई। अगला काम 5433 वाली query है।",
            "सॉरी, DATABASE_URL अब 5433 है।",
        ),
    ],
)
def test_sorry_for_the_wait_amends_nothing_and_sorry_alone_still_does(
    code: str, message: str, consoling: str, amending: str
) -> None:
    assert found(message, code, PSQL, consoling) == []
    (statement,) = found(message, code, PSQL, amending)
    assert statement.cues[0].startswith("amended:")


# kidding: the person says it is a joke; "not kidding" says it in earnest
@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("el", "πάντα pnpm, πλάκα κάνω"),
        ("tr", "her zaman pnpm kullan, şaka şaka"),
        ("tr", "her zaman pnpm kullan, sakaydi"),
        ("ar", "دايما استخدم pnpm، كنت بهزر"),
        ("he", "תמיד pnpm, סתם צוחק"),
        ("hi", "हमेशा pnpm इस्तेमाल करो, बस मज़ाक था"),
    ],
)
def test_a_rule_said_as_a_joke_is_none(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("el", "δεν κάνω πλάκα, πάντα pnpm"),
        ("tr", "şaka bir yana, her zaman pnpm kullan"),  # "joking aside": bare "şaka" is not listed
        ("tr", "şaka yapmıyorum, her zaman pnpm kullan"),
        ("he", "אני לא צוחק, תמיד pnpm"),
        ("hi", "मैं मज़ाक नहीं कर रहा, हमेशा pnpm इस्तेमाल करो"),
    ],
)
def test_a_rule_said_in_earnest_stays_one(code: str, message: str) -> None:
    assert [s.kind for s in found(message, code)] == ["standing_instruction"]


# house and address (Arabic, Hindi)
@pytest.mark.parametrize(
    ("code", "message", "kind", "cue"),
    [
        ("ar", "هيك منشتغل عنا", "standing_instruction", "standing:هيك منشتغل عنا"),
        ("ar", "القاعدة عندنا إنو ما في deploy يوم الجمعة", "standing_instruction", "standing:القاعدة عندنا"),
        ("ar", "خاطب العملاء بدون ألقاب", "preference", "preference:بدون ألقاب"),
        ("ar", "خاطب العملاء بصيغة حضرتك", "preference", "preference:بصيغة حضرتك"),
        ("hi", "हमारे यहाँ ऐसे ही होता है, इनवॉइस डॉलर में बनते हैं", "standing_instruction", "standing:हमारे यहाँ ऐसे ही होता है"),
        ("hi", "ग्राहकों को आप कहकर लिखो", "preference", "preference:आप कहकर"),
    ],
)
def test_how_things_are_done_here_and_how_to_address_people(code: str, message: str, kind: str, cue: str) -> None:
    statements = found(message, code)
    assert statements and statements[0].kind == kind and cue in statements[0].cues, statements


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ar", "عندنا 500 error على البرود"),  # "at ours" with news
        ("ar", "أهلا بحضرتك"),  # a polite greeting sets no form of address
        ("hi", "हमारे यहाँ कल छुट्टी है"),  # "at ours" with news
        ("hi", "आप करके देखिए"),  # "try it": no form of address
    ],
)
def test_at_ours_with_news_or_a_polite_word_sets_nothing(code: str, message: str) -> None:
    assert found(message, code) == []


# request_question_closing (Turkish, Hindi): a question that asks as a request does
@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("tr", "testleri her zaman çalıştırır mısın?"),
        ("hi", "टेस्ट हमेशा चला सकते हो?"),
    ],
)
def test_would_you_always_is_asked_as_a_request(code: str, message: str) -> None:
    assert [s.kind for s in found(message, code)] == ["standing_instruction"]


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("tr", "testleri her zaman çalıştırıyor musun?"),  # "do you always run …?" asks
        ("hi", "क्या हम हमेशा rebase कर सकते हैं?"),  # "can we always …?" asks
        ("hi", "क्या तुम हमेशा rebase करते हो?"),
    ],
)
def test_a_question_about_a_habit_stays_a_question(code: str, message: str) -> None:
    assert found(message, code) == []
