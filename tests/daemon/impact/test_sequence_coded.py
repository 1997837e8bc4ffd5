"""An order of work whose first step names a thing of the work as code does (a flag, a file's
name, a path: `shapes.CODED`) is read in a language that lists no verbs in the past too
("önce --dry-run ile çalıştır, …, ondan sonra gerçek dosya"), and its later step may be the
person's own ("`--dry-run` först, sen pushar vi", "я дивлюсь очима, тоді вже --upload"); a
report or a plan with no such step still sets none (daemon/impact/shapes.py, `sequence`;
sentences written for these tests, in the shapes the read corpora showed)."""

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
        ("tr", "dur dur, önce --dry-run ile çalıştır, çıktıya ben bakayım, ondan sonra gerçek dosya"),
        ("el", "πρώτα στο ~/staging, κάνω ένα test booking, μετά live"),
        ("el", "όχι στο live!! πρώτα στο staging.example.gr, το κοιτάμε εκεί και μετά το περνάμε"),
        ("sv", "`--dry-run` först, sen pushar vi"),
        ("uk", "спочатку вивантажуєш у price_preview.csv, я дивлюсь очима, тоді вже --upload"),
    ],
)
def test_an_order_whose_first_step_is_code_is_a_statement(code: str, message: str) -> None:
    assert ordered(found(message, code)), found(message, code)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("tr", "Önce build geçti, sonra testler patladı."),
        ("el", "Πρώτα πέρασε το build, μετά έσκασαν τα τεστ."),
        ("en", "gotta grab lunch first, then we decide"),
        ("de", "erst das Meeting, dann entscheiden wir"),
        ("en", "`--dry-run` first, then it crashed"),  # the later step tells what happened
    ],
)
def test_a_report_or_a_plan_with_no_step_in_code_sets_no_order(code: str, message: str) -> None:
    assert not ordered(found(message, code))
