"""A number of the agent's turn written back in another notation sets its notation right
(`daemon.impact.notation`); one written with fewer marks, or the same, only names it."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language


def set_right(message: str, answered: str, code: str) -> list[str]:
    found = detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language(code))
    return [c for s in found for c in s.cues if c.startswith("set_right:")]


@pytest.mark.parametrize(
    ("code", "answered", "message", "cue"),
    [
        # the group and decimal marks swapped, as the person's country writes them
        ("de", "Rechnung 2026-031: Gesamt 23,480.50 EUR, fällig am 15.04.", "bitte 23.480,50 € schreiben", "set_right:23.480,50"),
        ("en", "Total: 1,250.00 kr. excl. VAT.", "1.250,00 kr. we write danish amounts", "set_right:1.250,00"),
        # the same marks grouped otherwise (lakh)
        ("hi", "Total fees collected: ₹2,460,000 (41 students).", "₹24,60,000 likho yaar", "set_right:24,60,000"),
        # marks where the agent wrote none, a space among them
        ("en", "Quote total: ZAR 4350.00 incl. VAT.", "4 350,00 pls, like on the invoices", "set_right:4 350,00"),
    ],
)
def test_a_number_written_back_in_another_notation_sets_it_right(code: str, answered: str, message: str, cue: str) -> None:
    assert cue in set_right(message, answered, code)


@pytest.mark.parametrize(
    ("answered", "message"),
    [
        ("Invoice total: 1,250.00 EUR.", "1250 is fine, send it"),  # fewer marks: the person names it
        ("Invoice total: 1,250.00 EUR.", "ok 1,250.00 it is, send it"),  # the agent's own notation
        ("Call booked for 14:30 with the supplier.", "14.30 passt"),  # a time, not a number of the agent's
        ("Order 12345678 shipped today.", "great, thanks"),
    ],
)
def test_a_number_named_in_the_agents_notation_or_with_fewer_marks_is_no_correction(answered: str, message: str) -> None:
    assert set_right(message, answered, "en") == []
