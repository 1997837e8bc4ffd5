"""Recurrence by situation: two statements near in wording but under the bar are the same thing
said again when the agent's turns around them are alike — the same mistake, set right the same
way; never by the situation alone, nor by tool output the project prints every session. And a
word with an elided article ("l'adresse") is the word alone."""

from __future__ import annotations

from daemon.impact.content import content, unelided
from daemon.impact.recurrence import group
from daemon.impact.situation import Situation, situation
from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language
from daemon.text.words import tokens

ROUNDED = "I rounded the Dupont invoice totals to whole euros: 1,240 € instead of 1,239.60 €."
ROUNDED_AGAIN = "Here is the Dupont invoice, totals rounded to whole euros (1,240 €)."
CENTS = "Back to cents: the Dupont totals read 1,239.60 € again."
OTHER_BEFORE = "The onboarding email for Keller GmbH is drafted, three paragraphs."
OTHER_REPLY = "Shortened the onboarding email to one paragraph."


def said(session: int, message: str, day: str, answered: str) -> list[Statement]:
    return detect_statements(message, f"s{session}.jsonl", 3, f"{day}T09:00:00+00:00", answered=answered)


def rounding(before: tuple[str, str], after: tuple[str, str]) -> tuple[list[Statement], dict[Statement, Situation]]:
    """"Don't round the totals" and, weeks later, "Never round invoice amounts": near in wording
    (they share "round" and little else), each with the agent's turns around it."""
    first = said(1, "Don't round the invoice totals, keep the cents.", "2026-03-02", before[0])
    again = said(2, "Never round invoice amounts, two decimals.", "2026-03-23", after[0])
    assert first and again, "both are statements"
    around = {first[0]: situation(before[0], before[1]), again[0]: situation(after[0], after[1])}
    return [*first, *again], around


def test_near_wording_said_at_the_same_mistake_joins_one_item() -> None:
    statements, around = rounding((ROUNDED, CENTS), (ROUNDED_AGAIN, CENTS))
    assert [len(i.statements) for i in group(statements)] == [1, 1]  # by wording alone: two things
    (item,) = group(statements, situations=around)
    assert [s.quote for s in item.recurrences] == ["Never round invoice amounts, two decimals."]


def test_near_wording_in_other_situations_stays_apart() -> None:
    statements, around = rounding((ROUNDED, CENTS), (OTHER_BEFORE, OTHER_REPLY))
    assert [len(i.statements) for i in group(statements, situations=around)] == [1, 1]


def test_the_situation_alone_joins_nothing() -> None:
    """Two rules that share a word and little else, said at the same turn of the agent's, are
    two rules."""
    first = said(1, "Don't round the invoice totals, keep the cents.", "2026-03-02", ROUNDED)
    other = said(2, "Always attach the timesheet to the invoice as a PDF.", "2026-03-23", ROUNDED_AGAIN)
    around = {first[0]: situation(ROUNDED, CENTS), other[0]: situation(ROUNDED_AGAIN, CENTS)}
    assert [len(i.statements) for i in group([*first, *other], situations=around)] == [1, 1]


def test_tool_output_and_code_are_no_situation() -> None:
    """The same test run, the same code block before both statements, and prose about other
    things: the project prints that every session, it says nothing about which mistake."""
    printed = "● Bash(pytest -q tests/invoices)\n  ⎿ 42 passed in 3.10s\n```python\nround(total_invoice_amount, 0)\n```\n"
    statements, around = rounding(
        (printed + OTHER_BEFORE, "Shortened the onboarding email."),
        (printed + "Keller's contract is renewed.", "Added the renewal date."),
    )
    assert around[statements[0]].before.startswith("The onboarding email")
    assert [len(i.statements) for i in group(statements, situations=around)] == [1, 1]


def test_a_situation_keeps_the_end_of_the_turn_answered_and_the_head_of_the_reply() -> None:
    long_turn = "Earlier work on the importer. " * 200 + ROUNDED
    long_reply = CENTS + " Then I re-ran the whole test suite. " * 200
    found = situation(long_turn, long_reply)
    assert found.before.endswith(ROUNDED) and "importer" in found.before
    assert found.after.startswith(CENTS)
    assert len(found.before) <= 800 and len(found.after) <= 800


def test_an_elided_article_is_the_word_alone() -> None:
    french, italian = language("fr"), language("it")
    assert french is not None and italian is not None
    assert content("L'adresse de facturation", french).stems == content("adresse de facturation", french).stems
    assert "iban" in content("e l'iban xe ancora quello", italian).stems
    # the same length, so that what is found keeps its place in the text
    assert unelided("Vérifie l'adresse.", french) == "Vérifie   adresse."
    # not a word whose head no list elides ("aujourd'hui"), nor a language that elides nothing
    assert unelided("aujourd'hui", french) == "aujourd'hui"
    english = language("en")
    assert english is not None and unelided("don't", english) == "don't"
    # … and only where impact compares statements: a surname stays whole where names are looked for
    assert tokens("D'Angelo", italian) == ["dangel"]
