"""What a session's opening message says of its task is no statement: a code defined there
("SK = Signe Kjaer"), a word shouted there ("NOR tendered"), a sentence opening with "and"
after it (another part of the task: "Und dazu eine kurze Mail an beide"), the "always" of "as
always" (how the task is done: "R$ 890 como sempre", "як завжди"; answering the agent it
reminds of a rule, test_statements_languages.py), a contrast said as "instead of" ("7:00 ipv
7:30"; not one said as "not"); a bare "always" still sets a rule
(`OPENING_TASK`, daemon/impact/sentence_reading.py; daemon/impact/statements.py; sentences
written for these tests, in the shapes the read corpora showed)."""

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
        ("da", "koderne i eksporten: SK = Signe Kjaer, AL = Anders Lund, MB = Mads Bruun."),
        ("de", "Rechnungen für die Semesterferien bitte: Familie Novak, 245 €, keine Anzahlung. Und dazu eine kurze Mail an beide mit Zahlungsinfo."),
        ("pt", "R$ 890 como sempre, boleto + pix."),
        ("uk", "принтер зебра як завжди на 192.168.1.40"),
        ("nl", "aanmelden bij Henk Lubbers zoals altijd"),
        ("nl", "kun je een appje maken voor de riders: morgen sneeuw, shifts beginnen om 7:00 ipv 7:30"),
        ("de", "Chor Floridsdorf 31, Dienstbeginn 15:00 statt 16:00, Sonntag normal"),
    ],
)
def test_what_an_opening_message_says_of_its_task_is_no_statement(code: str, message: str) -> None:
    assert [s.quote for s in opening(message, code) if not any(c.startswith("prohibition:") for c in s.cues)] == []


def test_the_and_sentence_after_a_statement_is_another_point_of_it_when_answering() -> None:
    said = answering("keine Anzahlung mehr auf den Rechnungen. Und die Mail an beide kurz.", "de")
    assert [s.quote for s in said] == ["keine Anzahlung mehr auf den Rechnungen.", "Und die Mail an beide kurz."]
    assert any(c.startswith("also:") for c in said[1].cues)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("pt", "sempre me manda 3 opções de legenda"),
        ("uk", "завжди пиши суми з ПДВ"),
        ("nl", "altijd eerst de foto, daarna pas vervangen"),
    ],
)
def test_a_bare_always_still_sets_a_rule(code: str, message: str) -> None:
    assert any(c.startswith("standing:") for s in answering(message, code) for c in s.cues)


def test_a_contrast_said_as_not_in_an_opening_message_still_sets_a_rule() -> None:
    (said,) = opening("We deploy with make release now, not fab.", "en")
    assert any(c.startswith("contrast:") for c in said.cues)


def test_an_instead_of_answering_the_agent_still_corrects() -> None:
    said = answering("shifts beginnen om 7:00 ipv 7:30", "nl")
    assert any(c.startswith("contrast:") for s in said for c in s.cues)
