"""A value of the agent's turn set right by the person's sentence, with no correction word
(daemon/impact/setright.py), read through `detect_statements`."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language


def set_right(message: str, answered: str, code: str = "en") -> list[str]:
    found = detect_statements(
        message, "s1.jsonl", 3, None, language=language(code), answered=answered, usual=language(code)
    )
    return [c for s in found for c in s.cues if c.startswith("set_right:")]


@pytest.mark.parametrize(
    ("answered", "message", "code", "cue"),
    [
        # another number after a word the agent gave a number after
        ("Shipping costs 12 € per parcel.", "shipping 15, it went up in may", "en", "set_right:shipping 15"),
        ("Set the timeout to 30 seconds.", "timeout 60. the api is slow", "en", "set_right:timeout 60"),
        (
            "Доставка містом — всього 80 грн.",
            "доставка 120, тарифи змінились",
            "uk",
            "set_right:доставка 120",
        ),
        # a name in code written otherwise: one part changed, reordered, punctuated, one part more
        ("I filtered on `EU-02` for the Oslo depot.", "Oslo is EU-04.", "en", "set_right:EU-04"),
        (
            "The handler lives in `lib/api/billing/index.ts`.",
            "its lib/billing/api/index.ts",
            "en",
            "set_right:lib/billing/api/index.ts",
        ),
        (
            "Total: 1,250.00 kr. excl. VAT.",
            "1.250,00 kr. we write danish amounts",
            "da",
            "set_right:1.250,00",
        ),
        (
            "Deployed the `atlas` project to production.",
            "the project is atlas-api.",
            "en",
            "set_right:atlas-api",
        ),
        ("Bumped the image to python 3.11.", "we are on 3.12", "en", "set_right:3.12"),
        # a contrast before a word of the agent's, the person's own word before it
        ("I'll format all amounts in EUR.", "sek. not eur", "en", "set_right:not eur"),
        (
            "Je lis la table reservations.",
            "la base c'est resa_dev pas reservations",
            "fr",
            "set_right:pas reservations",
        ),
        ("I'll send the contract by email.", "not by email, by post", "en", "set_right:not email"),
        # a name spelled out
        (
            "Dear Eva, thanks for the quick reply.",
            "its Aoife. A-O-I-F-E.",
            "en",
            "set_right:spelled A-O-I-F-E",
        ),
    ],
)
def test_a_value_of_the_agents_turn_set_right_is_a_correction(
    answered: str, message: str, code: str, cue: str
) -> None:
    assert set_right(message, answered, code) == [cue]
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, language=language(code), answered=answered)
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    ("answered", "message"),
    [
        ("Meeting set for 08:15 on Monday.", "8:15 works, thanks"),  # the agent's own time
        ("Thursday: 10:30 call with Flexport.", "add lunch thursday at 12:45"),  # a new booking
        ("Thursday: 10:30 call with Flexport.", "move the call to 11:30"),
        ("Діагностика — 250 грн.", "250 грн ок"),  # the agent's own number
        ("I wrote 3 tests.", "write 5 more tests"),  # no word before the number the agent gave one after
        ("We scheduled follow-up calls.", "the follow-ups are fine"),  # a plural, not a name in code
        ("A/B test is live.", "A-B testing is fine"),  # two letters are no spelling
        ("I filtered on `EU-02`.", "is it EU-04?"),  # a question
        ("Sure, I can do that.", "Not sure."),  # a function word of the agent's
        (
            "I used the staging database.",
            "not bad, the staging database is fine",
        ),  # the agent's word, not after the contrast
        ("Deployed `atlas` to production.", "and atlas-2 next week"),  # a number added is no name
        ("", "its 3.12, not 3.11"),  # nothing answered: the contrast reading decides alone
    ],
)
def test_the_agents_own_value_a_new_one_or_a_question_sets_nothing_right(answered: str, message: str) -> None:
    assert set_right(message, answered) == []


def test_a_long_agent_turn_is_read_once_for_every_sentence() -> None:
    answered = "Totals: " + ", ".join(f"line {n}: {n * 7}.00 kr" for n in range(2000))
    message = ". ".join(f"line {n} {n * 7 + 1}" for n in range(3)) + "."
    assert len(set_right(message, answered, "da")) == 3


def test_a_one_off_change_of_value_without_a_one_off_word_is_read_as_a_correction_too() -> None:
    # documented in docs/explanation/impact.md: a one-off is told only by its words
    assert set_right("table for 6 then", "Booked a table for 4 people at 19:00.") == ["set_right:table 6"]
    assert set_right("table for 6 just this once", "Booked a table for 4 people at 19:00.") == []


@pytest.mark.parametrize(
    ("answered", "message", "cue"),
    [
        # a time alone sets the agent's right; among other words it is as often a booking
        ("Uitnodiging ALV: dinsdag 17 maart, aanvang 19:30 uur.", "20:00. de zaal gaat eerder open", "set_right:20:00"),
        # another number after the word, though the number is elsewhere in the turn
        ("Gyokuro Yame 100 g, Jasmínový perlový 50 g.", "gyokuro ma 50 g!!", "set_right:gyokuro 50"),
        # a name in code of the agent's with a part of letters more
        ("Grant reference: HF-22914", "HF-22914/B. the /B matters", "set_right:HF-22914/B"),
    ],
)
def test_a_time_alone_a_number_after_its_word_and_a_suffixed_code_are_set_right(answered: str, message: str, cue: str) -> None:
    assert set_right(message, answered) == [cue]


def test_a_time_among_other_words_or_the_agents_own_time_sets_nothing_right() -> None:
    answered = "Uitnodiging ALV: dinsdag 17 maart, aanvang 19:30 uur."
    assert set_right("zet de borrel erna op 21:30 in de agenda", answered) == []
    assert set_right("19:30.", answered) == []
    assert set_right("Gyokuro 100 g, yes.", "Gyokuro Yame 100 g, Jasmínový perlový 50 g.") == []
