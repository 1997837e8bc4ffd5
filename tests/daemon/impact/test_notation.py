"""A number of the agent's turn written back in another notation, grouped as amounts are and
standing alone in its clause, sets its notation right (`daemon.impact.notation`); one named in
a sentence about something else, one of the agent's written bare, a phone number, an IBAN or a
decimal mark alone does not (review helper-223)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

TOTAL = "Rechnung 2026-031: Gesamt 23,480.50 EUR, fällig am 15.04."


def notation(message: str, answered: str, code: str) -> list[str]:
    found = detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language(code))
    return [c for s in found for c in s.cues if c.startswith("notation:")]


@pytest.mark.parametrize(
    ("code", "answered", "message", "cue"),
    [
        # the group and decimal marks swapped, as the person's country writes them
        ("de", TOTAL, "bitte so: 23.480,50 €", "notation:23.480,50"),
        ("da", "Moms i alt: 142,310.00 kr.", "og beløbene: 142.310,00 kr.", "notation:142.310,00"),
        # the same marks grouped in lakhs
        ("hi", "Total fees collected: ₹2,460,000 (41 students).", "₹24,60,000 pls", "notation:24,60,000"),
        # a space as the group mark
        ("en", "Quote total: ZAR 4,350.00 incl. VAT.", "4 350,00 pls", "notation:4 350,00"),
    ],
)
def test_a_number_written_back_in_another_notation_sets_it_right(code: str, answered: str, message: str, cue: str) -> None:
    assert notation(message, answered, code) == [cue]


@pytest.mark.parametrize(
    ("code", "answered", "message"),
    [
        ("en", "Invoice total: 1,250.00 EUR.", "1250 is fine, send it"),  # fewer marks: the person names it
        ("en", "Invoice total: 1,250.00 EUR.", "ok 1,250.00 it is, send it"),  # the agent's own notation
        ("de", "Preis: 49.90 € im Monat.", "49,90 € passt"),  # a decimal mark alone
        ("en", "Set max_tokens to 10000.", "ok 10,000 it is"),  # the agent's written bare
        ("en", "Her number is 02079460958.", "great, I'll call 020 7946 0958 tomorrow"),  # not grouped as amounts are
        ("en", "IBAN: DE89370400440532013000", "perfect, transferring to DE89 3704 0044 0532 0130 00 now"),
        # a sentence about something else: paying, agreeing
        ("de", TOTAL, "habe gestern 23.480,50 € überwiesen"),
        ("de", TOTAL, "passt, 23.480,50 € ist korrekt"),
        ("en", "Call booked for 14:30 with the supplier.", "14.30 works"),  # a time
    ],
)
def test_a_number_named_otherwise_is_no_notation_set_right(code: str, answered: str, message: str) -> None:
    assert notation(message, answered, code) == []
