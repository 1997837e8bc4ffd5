"""A complaint that likens the agent's turn to a text of another kind ("this reads like a bank
letter", `impact.likened`; sentences written for these tests) is a preference about its tone;
not with "not", told in the past before it, beside approval, nor without the agent's turn."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

DRAFT = "Dear Ms. Rita Moreau, we are pleased to inform you that your order has been dispatched. Kind regards, Omar"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "ugh, this reads like a bank letter. it's WhatsApp"),
        ("en", "omar's draft reads like a form letter from the tax office."),
        ("de", "das liest sich wie ein Amtsschreiben, bitte lockerer"),
        ("es", "esto se lee como una carta del banco"),
        ("pl", "to brzmi jak pismo z urzędu"),
        ("nl", "dit leest als een brief van de notaris"),
    ],
)
def test_the_agents_turn_likened_to_another_kind_of_text_is_a_preference(code: str, message: str) -> None:
    statements = detect_statements(message, "s1", 3, None, answered=DRAFT, usual=language(code))
    assert statements and statements[0].kind == "preference" and any(c.startswith("excess:") for c in statements[0].cues)


@pytest.mark.parametrize(
    "message",
    [
        "it doesn't read like a template at all",  # "not"
        "this reads like a real shop talking, perfect",  # approves
        "we once had a clerk whose letters read like poems",  # past before it
    ],
)
def test_what_denies_approves_or_tells_is_no_complaint(message: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered=DRAFT, usual=language("en")) == []


def test_without_the_agents_turn_it_likens_nothing() -> None:
    assert detect_statements("this reads like a bank letter", "s1", 1, None, answered="", usual=language("en")) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("de", "Das klingt wie ein guter Plan."),  # "sounds like" is no list's: it agrees as often
        ("en", "The old README reads like a novel."),  # two words of its own name another text
        ("es", "El correo del cliente parece escrito por un abogado."),
    ],
)
def test_what_likens_another_text_or_agrees_is_no_complaint(code: str, message: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered=DRAFT, usual=language(code)) == []
