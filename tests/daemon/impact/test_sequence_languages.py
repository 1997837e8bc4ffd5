"""An order of work in the languages whose data file had none (Turkish, Japanese, Chinese,
Korean, Arabic, Hebrew, Greek, Hindi, Thai; `impact.first`, `impact.then`; sentences written
for these tests). None of them lists its verbs in the past (`past_forms`), so an order of two
clauses there is not read — "first the build passed, then the tests broke" is a report —,
only a `first` closing a clause that names a way ("staging ก่อนครับ"). A `then` of several
words orders the steps wherever the `first` stands, in a language that tells its past."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done: I ran the import on production, 412 rows written."


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))


def ordered(statements: list[Statement]) -> bool:
    return any(c.startswith("sequence:") for s in statements for c in s.cues)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("th", "staging ก่อนครับ"),
        ("tr", "staging önce"),
        ("el", "staging πρώτα"),
        ("it", "sul sito prima si mette su staging, lo guardo dal telefono, e solo dopo si va in produzione"),
        ("en", "dry run first, and only then the real import"),
        ("ru", "сначала тесты, и только тогда мерж"),
        ("uk", "міграції спочатку на staging, і тільки тоді прод"),
    ],
)
def test_an_order_of_work_is_a_statement(code: str, message: str) -> None:
    statements = found(message, code)
    assert statements and ordered(statements), statements


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # reports and plans told in two clauses (review helper-148)
        ("tr", "Önce build geçti, sonra testler patladı."),
        ("tr", "İki gün önce build geçiyordu, ondan sonra bozuldu."),
        ("tr", "Önce logları kontrol edeceğim, ondan sonra deploy ederim."),
        ("el", "Πρώτα πέρασε το build, μετά έσκασαν τα τεστ."),
        ("ja", "最初にビルドが通って、次にテストで落ちました"),
        ("zh", "先编译通过，然后测试就挂了"),
        ("ko", "먼저 빌드가 됐고 그 다음에 테스트가 실패했어요"),
        ("hi", "पहले धन्यवाद, फिर एक सवाल है"),
        ("ar", "أولا شغلت الاختبارات، بعدين فشل البناء"),
        ("he", "קודם הבילד עבר, אחר כך הטסטים נפלו"),
        ("he", "האפסים נעלמים בהתחלה של המספר"),  # "at the beginning" of a number: no order
        ("en", "first I'll check the logs and after that we decide"),  # the person's plan
        ("en", "it first crashed and after that it hung"),  # a bug report
        ("ru", "сначала я открыл логи, и только тогда заметил ошибку"),  # a story
    ],
)
def test_a_report_or_a_plan_sets_no_order(code: str, message: str) -> None:
    assert not ordered(found(message, code))


def test_a_message_of_thousands_of_orders_is_read_in_linear_time() -> None:
    # each `first` looks up its later `then` by bisection and each clause is read once
    statements = found("first the tests then the commit " * 3000, "en")
    assert len(statements) <= 1


# Ukrainian "тоді вже" and Russian "тогда уже" ("only then") close an order of work as "тільки
# тоді" did; an order whose first step names code is read no other way than any order: in a
# language that lists no past verbs, or with the person as the subject of a later step, it
# sets none ("önce migrate_0042 çalıştı, sonra patladı", "first `npm ci`, then i get this
# error" report: review helper-201)
@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("uk", "спочатку вивантажуєш у price_preview.csv, я дивлюсь очима, тоді вже --upload"),
        ("ru", "сначала выгружаешь в превью, я смотрю, тогда уже в боевую"),
    ],
)
def test_only_then_closes_an_order(code: str, message: str) -> None:
    assert ordered(found(message, code)), found(message, code)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("uk", "спочатку я подивився логи, тоді вже було пізно"),
        ("tr", "önce migrate_0042 çalıştı, sonra patladı"),
        ("el", "πρώτα έτρεξε το --dry-run, μετά έσκασε"),
        ("da", "først kørte --dry-run fint, så crashede den"),
        ("en", "first `npm ci`, then i get this error"),
        ("de", "erst `npm ci`, dann krieg ich den fehler"),
        ("en", "gotta grab lunch at 12 first, then we decide"),
    ],
)
def test_a_report_with_a_step_in_code_or_a_timed_plan_sets_no_order(code: str, message: str) -> None:
    assert not ordered(found(message, code))
