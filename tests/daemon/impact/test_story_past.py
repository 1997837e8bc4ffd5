"""An "always"/"never" after a verb in the past in its clause tells what was, not a rule for
the agent's work; a verb in the past after it may say what a rule is about (sentences written
for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

AGENT = "Done: the crate labels are printed."


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("fr", "Avant on écrivait tout au feutre et Marcel faisait des fautes à chaque fois"),
        ("es", "la señora Carmen hacía esto a mano y nunca se equivocó en 20 años"),
        ("en", "the old printer was slow and it never got the margins right"),
    ],
)
def test_always_or_never_after_a_verb_in_the_past_tells_what_was(code: str, message: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code)) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "never print what was not reviewed"),
        ("es", "nunca imprimas lo que no revisé"),
        ("fr", "imprime toujours ce que j'ai validé"),
    ],
)
def test_a_verb_in_the_past_after_it_leaves_the_rule(code: str, message: str) -> None:
    (statement,) = detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))
    assert statement.kind == "standing_instruction"
