"""A sentence with no cue the agent carries out: the person says something new about the agent's
turn before ("here changes go through a pull request …", after an apply from a shell), and the
reply neither amends nor edits again but stays on that turn's work and takes up what the
sentence said new (`amends.carried_out`, `swapped.Rewrites.stays_on`; sentences written for
these tests, in the shapes the read corpora showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.impact.swapped import Rewrites
from daemon.text.language import language

APPLY = "Applied the Terraform plan from my shell: 3 to add, 1 to change. The staging bucket policy now allows the CI role."
HOUSE = "here changes go through a pull request, the pipeline posts the plan and Kofi reviews it."
PUSHED = (
    "Branch infra/bucket-policy pushed and pull request #214 opened; the pipeline posted the plan as a comment, "
    "Kofi is on the review."
)
MEETING = "Ho spostato la riunione con il fornitore a giovedì alle 15, in videochiamata su Teams, e ho avvisato Marco."
REPORT = (
    "Listo: el informe de ventas de marzo por región, con los totales en euros y el IVA incluido. "
    "Lo envié a todo el equipo comercial."
)


DEPLOYED = "Deployed build 1024 to staging at 14:05; 312 tests passed, 0 failed, 2 skipped."
SLIDES = "Drafted the client demo slides for Ana: 12 slides, 3 scenarios, 2 backup accounts."


def found(message: str, answered: str, reply: str, code: str = "en") -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-12-01T10:00:00+00:00", answered=answered, usual=language(code), reply=reply
    )


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply", "cue"),
    [
        ("en", APPLY, HOUSE, PUSHED, "acted_on:plan"),
        (
            "it",
            MEETING,
            "la riunione col fornitore si fa in sede a Bergamo, Giulia prenota la sala.",
            "Giovedì alle 15 in sede a Bergamo; ho chiesto a Giulia di prenotare la sala grande e tolto il link di Teams dall'invito.",
            "acted_on:fornitore",
        ),
        (
            "es",
            REPORT,
            "los totales van sin IVA, contabilidad los quiere netos.",
            "Nueva versión enviada al equipo comercial: totales netos por región, y una nota de que el impuesto va aparte para contabilidad.",
            "acted_on:totales",
        ),
    ],
)
def test_a_sentence_about_the_turn_before_whose_new_word_the_reply_takes_up_is_a_correction(
    code: str, answered: str, message: str, reply: str, cue: str
) -> None:
    # no amending opening, no edit, not the turn written again: the reply stays on its work
    rewrites = Rewrites(answered, reply)
    assert rewrites.stays_on() and not rewrites.writes_again()
    (statement,) = found(message, answered, reply, code)
    assert (statement.quote, statement.cues) == (message, (cue,))


def test_an_opening_no_before_it_is_one_statement_with_it() -> None:
    (statement,) = found("no no. " + HOUSE, APPLY, PUSHED)
    assert statement.quote == "no no. " + HOUSE
    assert statement.cues[-1] == "acted_on:plan"


@pytest.mark.parametrize(
    ("answered", "message", "reply"),
    [
        # the reply goes on to other work: none of its telling words stands in the turn before
        (APPLY, HOUSE, "Kofi's calendar is free Thursday at 10, I booked the review slot."),
        # … it takes up nothing the sentence said new ("plan" and "change" are the turn's own,
        # "here" a function word)
        (
            APPLY,
            HOUSE,
            "Terraform state is clean here after the plan from my shell; the staging bucket policy change reached the "
            "CI role at 10:42 and alarms are quiet.",
        ),
        # … the sentence answers the agent's question: acted on as asked
        (APPLY + " Should I apply the production one too?", HOUSE, PUSHED),
        # … it asks for more work, or gives someone else's words
        (APPLY, "now open a pull request for the plan so Kofi reviews it.", PUSHED),
        (APPLY, "Kofi says changes go through a pull request and the pipeline posts the plan.", PUSHED),
        # … it asks politely, or guesses (review, helper-113)
        (APPLY, "and a pull request with the plan for Kofi, please.", PUSHED),
        (APPLY, "the plan goes through a pull request when Kofi is around, I think.", PUSHED),
        # … the reply keeps only numbers found inside the turn's ("2" in "312"): other work
        (DEPLOYED, "cool. Ana wants the client demo slides for build 1024.", SLIDES),
        # … it says nothing of the turn before
        (APPLY, "Kofi reviews pull requests in the morning.", PUSHED),
    ],
)
def test_what_the_reply_carries_out_but_is_no_correction(answered: str, message: str, reply: str) -> None:
    assert found(message, answered, reply) == []


def test_a_reply_stays_on_the_turn_before_with_a_fifth_of_its_telling_words() -> None:
    assert Rewrites(APPLY, PUSHED).stays_on()
    assert not Rewrites(APPLY, "Kofi's calendar is free Thursday at 10, I booked the review slot.").stays_on()
    # a reply of no telling word stays on nothing, nor one whose numbers stand only inside the turn's
    assert not Rewrites(APPLY, "ok, on it").stays_on()
    assert not Rewrites(DEPLOYED, SLIDES).stays_on()
    assert Rewrites(DEPLOYED, "Build 1024: 312 passed, the 2 skipped ones are the flaky mail tests.").stays_on()
