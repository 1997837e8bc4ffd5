"""Corrections the agent's reply amends, several in one message: a person sets up to three
things right, one line each, and a point may take two sentences ("food is 13.5 %, drinks 23.
the 23 only on the cans"); more lines, or more sentences on one line, are a text the person
pasted and the agent rewrote (`daemon.impact.shown`; sentences written for these tests, in the
shape the sixty-fifth corpus showed once read)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

INVOICE = "Invoice 0412\nVAT no. IE9876543T\nTotal with VAT: 506.76\nTo: info@harbourfoods.ie"
FIXED = "Fixed:\nVAT no. IE1234567T\nFood 13.5 %, drinks 23 %\nTo: accounts@harbourfoods.ie"
VAT = "VAT number is IE1234567T"
RATES = "food is 13.5 %, drinks 23."
CANS = "the 23 only on the cans"
MAIL = "invoice goes to accounts@harbourfoods.ie, nobody reads info@"


def amended(message: str, answered: str = INVOICE, reply: str = FIXED) -> list[Statement]:
    found = detect_statements(message, "s1", 3, None, answered=answered, usual=language("en"), reply=reply)
    return [s for s in found if any(c.startswith("amended:") for c in s.cues)]


def test_three_points_on_three_lines_one_of_two_sentences_are_each_a_correction() -> None:
    message = f"{VAT}\n{RATES} {CANS}\n{MAIL}"
    assert [s.quote for s in amended(message)] == [VAT, RATES, CANS, MAIL]


@pytest.mark.parametrize(
    "message",
    [
        f"{VAT}. {RATES} {CANS}. {MAIL}",  # a paragraph of four sentences on one line
        f"{VAT}\nfood is 13.5 %\ndrinks 23 on the cans\n{MAIL}",  # four lines
        f"{VAT}\n{RATES} {CANS}. the 13.5 on the rest. the tips without VAT\n{MAIL}",  # four on one line
    ],
)
def test_more_lines_or_more_sentences_on_a_line_are_a_pasted_text(message: str) -> None:
    assert amended(message) == []

