"""Czech tells the past by a verb's -l ending (`past_forms`): "viděla", "chtěli" after ě too;
nouns of who does a thing in -tel are no verbs ("odesílatel", "uživateli"), so a sentence
naming a sender is not a story; nor is "měl", also "should" ("měl bys vždycky …"; sentences
written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language


@pytest.mark.parametrize("word", ["byl", "napsal", "poslali", "viděla", "chtěli", "vyletěl", "seděly"])
def test_verbs_in_the_past_are_read_so(word: str) -> None:
    assert language("cs").matches("past_forms", word)


@pytest.mark.parametrize("word", ["odesílatel", "odesilatel", "uživateli", "dodavatel", "ředitel", "zadavateli", "přítel", "měl", "měla"])
def test_nouns_in_tel_are_no_verbs(word: str) -> None:
    assert not language("cs").matches("past_forms", word)


def test_a_never_beside_a_verb_in_the_past_tells_a_story() -> None:
    agent = "Hotovo, faktura je odeslaná."
    assert detect_statements("Starý účetní nám nikdy nic nevysvětlil.", "s1", 3, None, answered=agent, usual=language("cs")) == []
    assert detect_statements("Pan Novák nikdy nepsal včas.", "s1", 3, None, answered=agent, usual=language("cs")) == []


def test_should_said_with_mel_is_a_rule() -> None:
    agent = "Hotovo, pushnul jsem to do mainu."
    (statement,) = detect_statements("Správně bys měl vždycky psát česky.", "s1", 3, None, answered=agent, usual=language("cs"))
    assert statement.kind == "standing_instruction"


def test_a_sender_set_right_with_the_reply_fixing_it_is_a_correction() -> None:
    agent = "Štítky jsou hotové.\nOdesílatel na štítcích: Pivovar Horní s.r.o."
    reply = "Opraveno, všech 14 štítků: odesílatel horni-eshop."
    (statement,) = detect_statements(
        "na stitcich je odesilatel horni-eshop.", "s1", 3, None, answered=agent, usual=language("cs"), reply=reply
    )
    assert statement.kind == "correction"
