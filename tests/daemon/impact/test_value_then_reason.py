"""A sentence that sets a value right in its first clause and tells, in the clauses after it,
why it was wrong or what happened since gives the reason for the value, not a story
("sort code is 30-96-26, sians one had it wrong as well, shes paid already luckily"); a verb in
the past before the value still tells one (daemon/impact/amends.py, `tells`; sentences written
for these tests, in the shapes the read corpora showed)."""

from __future__ import annotations

from daemon.impact.statements import detect_statements
from daemon.text.language import language

ANSWERED = "Bank: Pentwyn Vale RFC, sort code 30-96-62, account 41882270"
REPLY = "Updated: sort code 30-96-26, account 41882270."


def test_a_value_set_right_then_a_reason_in_the_past_is_a_correction() -> None:
    message = "sort code is 30-96-26, sians one had it wrong as well, shes paid already luckily"
    (statement,) = detect_statements(message, "s1", 3, None, answered=ANSWERED, usual=language("en"), reply=REPLY)
    assert statement.kind == "correction"
    assert statement.quote == message


def test_a_value_in_the_last_clause_after_the_past_tells_a_story() -> None:
    message = "we paid sian in march, she had it wrong, sort code 30-96-26"
    assert detect_statements(message, "s1", 3, None, answered=ANSWERED, usual=language("en"), reply=REPLY) == []
