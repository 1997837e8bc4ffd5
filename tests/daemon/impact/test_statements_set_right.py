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
        # a name in code written otherwise: a number or a near spelling changed, reordered, one part more
        ("I filtered on `EU-02` for the Oslo depot.", "Oslo is EU-04.", "en", "set_right:EU-04"),
        (
            "The handler lives in `lib/api/billing/index.ts`.",
            "its lib/billing/api/index.ts",
            "en",
            "set_right:lib/billing/api/index.ts",
        ),
        (
            "Deployed the `atlas` project to production.",
            "the project is atlas-api.",
            "en",
            "set_right:atlas-api",
        ),
        ("Bumped the image to python 3.10.", "we are on 3.12", "en", "set_right:3.12"),
        ("Leo `public.costos_envio`.", "es public.costos_envios", "es", "set_right:public.costos_envios"),
        # a contrast before a word of the agent's, the person's own word before it
        ("I'll format all amounts in EUR.", "sek. not eur", "en", "set_right:not eur"),
        (
            "Je lis la table reservations.",
            "la base c'est resa_dev pas reservations",
            "fr",
            "set_right:pas reservations",
        ),
        ("Totals are in USD.", "for the uk workspace, gbp not usd", "en", "set_right:not usd"),
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
        # a number of the person's before a "not" after the agent's word says something else
        # (reviews helper-223, helper-224)
        ("Happy to help!", "paid 200 for it and still not happy"),
        ("The script is working now.", "tried 3 times and script not working"),
        # the same value in another notation (a formatting rule has words: "we write …"; the
        # notation itself is read apart, `daemon.impact.notation`)
        ("Total: 1,250.00 kr. excl. VAT.", "1.250,00 kr. we write danish amounts"),
        ("Price is $19.99 a month.", "that works for me, 19.99 monthly then"),
        ("Chapter 05 is drafted.", "chapter 5 looks good"),
        ("Timeout: 30.0 s", "timeout 30 works"),
        ("Order total: 60 EUR", "total ６０ ok"),
        ("Server is AR-01.", "ok, ar_01 it is"),
        ("See src/components", "great, ./src/components looks clean"),
        # a follow-up on a sibling: asked for, added, or the next one
        ("Deployed version 1.2.3.", "great, now release 1.2.4 to prod"),
        ("Fixed src/api/users.ts", "now do the same for src/api/orders.ts"),  # a sibling, not a respelling
        ("Branch `feature/login` is merged.", "merge feature/signup next"),
        ("Released v1.2.3", "great, 1.2.3 looks good"),  # the agent's own, "v" left out
        ("I used the `login` component.", "the login-page is broken"),  # a new name, not closing its clause
        ("Server is at 192.168.1.10", "add 192.168.1.11 as a second node"),
        ("Python 3.11 is installed.", "I have 3.12 locally, fine."),
        ("Rechnung Nr. 2024-017 ist raus.", "jetzt bitte Rechnung 2024-018"),
        ("Here is page 1 of the report.", "show page 2"),
        ("Room 101 is booked.", "Thanks, room 102 for my colleague too"),
        # saying "not" of a common word of the agent's is no name set right
        ("That's not a problem for the build, it runs fine.", "Not a problem."),
        ("This is urgent, I'll do it now.", "Not urgent."),
        ("I'll send the contract by email.", "not by email, by post"),
        # letters in the alphabet's order are grades or a test, not a name
        ("Grading scheme attached.", "Grades go A-B-C-D-F here"),
        # a time among other words
        ("Call at 10:00 tomorrow.", "Thanks. 12:45 lunch."),
    ],
)
def test_the_agents_own_value_a_new_one_or_a_question_sets_nothing_right(answered: str, message: str) -> None:
    assert set_right(message, answered) == []


def test_a_long_agent_turn_is_read_once_for_every_sentence() -> None:
    answered = "Totals: " + ", ".join(f"line {n}: {n * 7}.00 kr" for n in range(2000))
    message = ". ".join(f"line {n} {n * 7 + 5}" for n in range(2)) + "."
    assert len(set_right(message, answered, "da")) == 2
    # a third is a pasted table, not the person setting values right
    assert set_right(message + " line 2 24.", answered, "da") == []


def test_a_pasted_log_or_table_sets_nothing_right_however_many_lines_differ() -> None:
    answered = "The worker started at 12:00:05 on node-1, exit 0."
    log = "\n".join(f"node-{n} exit {n + 10}" for n in range(2, 40))
    assert set_right(log, answered) == []
    table = "\n".join(f"| EU-0{n} | {n * 3} |" for n in range(2, 8))
    assert set_right(table, "Regions: EU-01, US-01.") == []


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


def test_a_turkish_not_after_a_word_of_the_agents_turn_sets_it_right() -> None:
    """"değil" said after what it negates, closing its clause, even the first: what it negates
    is the agent's ("Aras Kargo"), so the person contradicts the agent."""
    answered = "Siparişleri Aras Kargo ile gönderdim."
    assert set_right("aras degil, yurtici ile calisiyoruz.", answered, "tr") == ["set_right:aras degil"]
    assert set_right("pnpm kullan, npm değil.", "npm install ile kurdum.", "tr") == ["set_right:npm değil"]
    assert set_right("hazır değil, yarın bakarız.", "Fatura hazır, gönderiyorum.", "tr") == ["set_right:hazır değil"]
    # not a word of the agent's, or not the word right before it: the person reports
    assert set_right("hazır değil, yarın bakarız.", "Siparişleri gönderdim.", "tr") == []
    assert set_right("Aras pahalı değil, tamam.", answered, "tr") == []
