"""Ukrainian "тоді вже" and Russian "тогда уже" ("only then") close an order of work as "тільки
тоді" did ("спочатку вивантажуєш у price_preview.csv, я дивлюсь очима, тоді вже --upload");
told in the past they still set none. An order whose first step names code is read no other
way than any order: in a language that lists no past verbs, or with the person as the subject
of a later step, it sets none, since "önce migrate_0042 çalıştı, sonra patladı" and "first `npm
ci`, then i get this error" report (review helper-201; `impact.then`, daemon/impact/shapes.py;
sentences written for these tests)."""

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
def test_a_report_or_a_plan_sets_no_order(code: str, message: str) -> None:
    assert not ordered(found(message, code))
