"""A "no" opening the answer to the agent's question answers it, and is no correction of its
own (`correction_openers`, daemon/impact/statements.py); what follows it keeps its cues
(sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.reply import ends_asking
from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language


def found(message: str, answered: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=answered)


@pytest.mark.parametrize(
    ("asked", "told", "message"),
    [
        (
            "Tests pass. Shall I commit it straight away?",
            "Tests pass, and I committed it straight away.",
            "no, I'll commit it myself, I want to read it first.",
        ),
        (
            "PATCH přijímá delivery_note. Mám to rovnou commitnout?",
            "PATCH přijímá delivery_note. Rovnou jsem to commitnul.",
            "ne, to si commitnu sam, chci to jeste projit.",
        ),
        (
            "Die Liste ist fertig. Soll ich sie gleich an Frau Brandt schicken?",
            "Die Liste ist fertig, ich habe sie gleich an Frau Brandt geschickt.",
            "Nein, die schicke ich morgen selbst.",
        ),
        (
            # Greek asks with ";", which NFC makes a semicolon
            "Έτοιμο. Να προσθέσω και πεδίο στη φόρμα, να φαίνεται ποιος έκανε τον έλεγχο;",
            "Έτοιμο. Πρόσθεσα και πεδίο στη φόρμα, να φαίνεται ποιος έκανε τον έλεγχο.",
            "όχι, αυτό το κάνει το χάρτινο έντυπο στο λιμάνι.",
        ),
    ],
)
def test_a_no_answering_the_agents_question_corrects_nothing(asked: str, told: str, message: str) -> None:
    assert found(message, asked) == []
    (said,) = found(message, told)  # the same "no" to what the agent did corrects it
    assert said.kind == "correction"
    assert any(c.startswith("correction:") for c in said.cues)


def test_what_follows_the_no_keeps_its_own_cues() -> None:
    asked = "The PR is open. Shall I push the branch to release/2026.02 as well?"
    (said,) = found("No, never push to a release branch directly.", asked)
    assert said.kind == "standing_instruction"
    assert not any(c.startswith("correction:") for c in said.cues)


def test_a_no_answering_the_question_with_a_value_after_it_sets_it_right() -> None:
    asked = "Deploying to us-east-1 as before?"
    (said,) = found("No, the region is eu-west-1 now.", asked)
    assert said.kind == "correction"
    assert found("No, I'll deploy it myself later.", asked) == []
    # a value the person takes on themselves answers the offer
    assert found("No, I'll commit it myself in 10 minutes.", "Tests pass. Shall I commit it straight away?") == []


@pytest.mark.parametrize(
    "message",
    [
        "No, that was supposed to go only to Maria.",  # told of what was done: a verb in the past
        "That's wrong, the report should only go to Maria.",  # "wrong" answers no question
        "Incorrect, the report should only go to Maria.",
    ],
)
def test_wrong_or_a_no_about_what_was_done_corrects_though_the_turn_asks(message: str) -> None:
    (said,) = found(message, "Done — I emailed the report to the whole team. Anything else?")
    assert said.kind == "correction"


@pytest.mark.parametrize(
    ("turn", "asks"),
    [
        ("Να προσθέσω και το PDF;", True),  # a Latin word closing a Greek question
        ("Να το αλλάξω σε 60;", True),
        ("Να το κάνω (με το νέο πεδίο);", True),
        ("Να προσθέσω πεδίο «Έλεγχος»;", True),
        ("Set R1 = 10 kΩ; R2 = 4.7 kΩ; done.", False),  # a Greek letter in English prose
        ("with α; β fixed, done.", False),
        ("x = 1; y = 2", False),
        ("Έτοιμο. Ευχαριστώ.", False),
    ],
)
def test_a_turn_asks_with_greeks_question_mark_only_ending_a_greek_sentence(turn: str, asks: bool) -> None:
    assert ends_asking(turn) is asks



@pytest.mark.parametrize(
    ("asked", "message", "code"),
    [
        # a "no" and a "don't" or a "no X" answering an offer may set a rule: a decline read so
        # took these (taken back after helper-167's review)
        ("Shall I deploy to prod now?", "no, don't deploy on Fridays", "en"),
        ("Soll ich Tabs nehmen?", "nein, keine Tabs, Leerzeichen", "de"),
        ("Хотите, я напишу клиенту?", "нет, не пиши клиентам напрямую", "ru"),
        ("Ska jag lägga emoji i commit-meddelandena?", "nej, inga emoji i commits", "sv"),
    ],
)
def test_a_no_answering_an_offer_keeps_the_rule_after_it(asked: str, message: str, code: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered=asked, usual=language(code))
