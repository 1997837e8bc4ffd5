"""A sentence with no cue the agent acts on: the person says something about the agent's turn
before ("The importer fills due_date from the order date.", after a migration the agent
wrote), and the agent's reply changes its work — an edit tool called, a diff, a phrase that
redoes the work — though it opens amending nothing (sentences written for these tests, in the
shapes the fifteen read corpora showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

MIGRATION = "Added the migration: `ALTER TABLE invoices ADD COLUMN due_date date NULL;` and updated the importer."
EDITED = "Edit: db/migrations/0042_due_date.sql"  # as the adapters write an edit tool's call
RULE = "The importer fills due_date from the order date plus 30 days."


def found(message: str, answered: str = MIGRATION, reply: str = EDITED, code: str = "en") -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-12-01T10:00:00+00:00", answered=answered, usual=language(code), reply=reply
    )


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply"),
    [
        ("en", MIGRATION, RULE, EDITED),
        ("en", MIGRATION, "due_date can't be null, the importer fills it from the order.", "Edit: db/migrations/0042_due_date.sql\nEdit: importer/invoices.py"),
        # a runtime's rendering of the edit, a diff fence, a phrase that redoes the work
        (
            "de",
            "Migration angelegt: `ALTER TABLE invoices ADD COLUMN due_date date NULL;` und den Importer angepasst.",
            "due_date kommt vom Auftrag, die Spalte darf nicht leer sein.",
            "● Update(db/migrations/0042_due_date.sql)",
        ),
        ("en", MIGRATION, RULE, "```diff\n- due_date date NULL\n+ due_date date NOT NULL\n```"),
        ("en", MIGRATION, RULE, "Updated the importer: due_date is the order date plus 30 days."),
    ],
)
def test_a_sentence_about_the_agents_turn_the_reply_acts_on_is_a_correction(
    code: str, answered: str, message: str, reply: str
) -> None:
    (statement,) = found(message, answered, reply, code)
    assert statement.kind == "correction"
    assert statement.quote == message
    assert statement.cues == ("acted_on:due_date",)


@pytest.mark.parametrize(
    ("message", "answered", "reply"),
    [
        (RULE, MIGRATION, "Let me check how the importer sets it."),  # the reply changes nothing
        (RULE, MIGRATION, ""),  # no reply (yet)
        (RULE, "", EDITED),  # the message answers no turn of the agent's: it states the task
        ("can due_date be null?", MIGRATION, EDITED),  # a question
        ("also the logo is blurry on mobile.", MIGRATION, EDITED),  # nothing of the agent's turn
        ("here is what the importer logs for due_date:", MIGRATION, EDITED),  # introduces what follows
        ("the importer was fine with due_date before.", MIGRATION, EDITED),  # a story: a verb in the past
        ("if due_date were nullable the importer would break.", MIGRATION, EDITED),  # a supposition
        ("ok, the importer and due_date are fine.", MIGRATION, EDITED),  # approves
        ("fill due_date in the importer from the order date please.", MIGRATION, EDITED),  # asks for more work
        ("Maria says the importer fills due_date from the order date.", MIGRATION, EDITED),  # someone else's words
        ("the importer fills due_date from the order date lol", MIGRATION, EDITED),  # a joke
        ("the importer, due_date.", MIGRATION, EDITED),  # no word the turn did not hold
        # more than three such sentences in one message are a pasted text
        (
            "The importer fills due_date. The importer reads the order date. "
            "The importer adds 30 days to due_date. The importer rounds due_date to a weekday.",
            MIGRATION,
            EDITED,
        ),
    ],
)
def test_what_the_reply_acts_on_but_is_no_correction(message: str, answered: str, reply: str) -> None:
    assert found(message, answered, reply) == []


def test_a_message_with_a_statement_of_its_own_gives_the_reply_no_other() -> None:
    # the change the reply made answers the rule; the sentence beside it is not read for it
    (statement,) = found("Always run the tests first. " + RULE)
    assert statement.quote == "Always run the tests first."


def test_a_reply_that_amends_nothing_it_takes_up_still_acts_on_the_sentence() -> None:
    # "Changed …" opens amending but takes up nothing new of the message: the edit still acts on it
    reply = "Changed the migration.\nEdit: db/migrations/0042_due_date.sql"
    (statement,) = found(RULE, reply=reply)
    assert statement.cues == ("acted_on:due_date",)
