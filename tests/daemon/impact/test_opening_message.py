"""What a session's opening message says of its task is no statement: a sentence opening with
"and" after a detail of the task (another part of it: "Und dazu eine kurze Mail an beide"), the
"always" of "as always" in a sentence that gives values (how the task is done: "R$ 890 como
sempre", "як завжди на 192.168.1.40"), a contrast said as "instead of" before a value ("7:00
ipv 7:30"). The rules people open a session with stay: "and" after a rule, "as always" before a
way of working, "instead of" a way, "not" in capitals, a rule written with "=" (review
helper-205; `OPENING_TASK`, daemon/impact/sentence_reading.py; `points`,
daemon/impact/neighbours.py; sentences written for these tests, in the shapes the read corpora
showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language


def opening(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 1, None, answered="", usual=language(code))


def answering(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered="Done: the export is in out/export.csv.", usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("de", "Rechnungen für die Semesterferien bitte: Familie Novak, 245 €, keine Anzahlung. Und dazu eine kurze Mail an beide mit Zahlungsinfo."),
        ("pt", "R$ 890 como sempre, boleto + pix."),
        ("uk", "принтер зебра як завжди на 192.168.1.40"),
        ("nl", "kun je een appje maken voor de riders: morgen sneeuw, shifts beginnen om 7:00 ipv 7:30"),
        ("de", "Chor Floridsdorf 31, Dienstbeginn 15:00 statt 16:00, Sonntag normal"),
    ],
)
def test_what_an_opening_message_says_of_its_task_is_no_statement(code: str, message: str) -> None:
    assert [s.quote for s in opening(message, code) if not any(c.startswith("prohibition:") for c in s.cues)] == []


@pytest.mark.parametrize(
    ("code", "message", "count"),
    [
        ("en", "We deploy with make release now, not fab.", 1),
        ("en", "We do NOT use semicolons in this codebase", 1),
        ("de", "Schreib die Commits immer auf Englisch. Und die PR-Beschreibungen kurz halten.", 2),
        ("nb", "svar alltid på norsk. og hold svarene korte.", 2),
        ("en", "as always, run the tests before you commit", 1),
        ("de", "Antworte bitte auf Deutsch, statt auf Englisch.", 1),
        ("en", "new column = new schema version + changelog line", 1),
    ],
)
def test_the_rules_a_session_opens_with_stay(code: str, message: str, count: int) -> None:
    assert len(opening(message, code)) == count, opening(message, code)


def test_the_and_sentence_after_a_statement_is_another_point_of_it_when_answering() -> None:
    said = answering("keine Anzahlung mehr auf den Rechnungen. Und die Mail an beide kurz.", "de")
    assert [s.quote for s in said] == ["keine Anzahlung mehr auf den Rechnungen.", "Und die Mail an beide kurz."]
    assert any(c.startswith("also:") for c in said[1].cues)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("pt", "sempre me manda 3 opções de legenda"),
        ("uk", "завжди пиши суми з ПДВ"),
        ("en", "Amounts in EUR, as always."),
        ("nl", "shifts beginnen om 7:00 ipv 7:30"),
    ],
)
def test_answering_the_agent_they_still_set_a_rule(code: str, message: str) -> None:
    assert answering(message, code)
