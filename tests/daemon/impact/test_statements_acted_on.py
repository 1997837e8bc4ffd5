"""A sentence with no cue the agent acts on: the person says something about the agent's turn
before ("The importer fills due_date from the order date.", after a migration the agent
wrote), and the agent's reply redoes that work — edits a file the turn before edited or
wrote, or opens amending or redoing — though it amends nothing the sentence says (sentences
written for these tests, in the shapes the fifteen read corpora showed, and the inputs their
review found)."""

from __future__ import annotations

import pytest

from daemon.impact.reply import Reply
from daemon.impact.statements import Statement, detect_statements
from daemon.impact.swapped import Rewrites
from daemon.text.language import language
from daemon.transcripts.guards import tool_summary

# the agent's turn before, with the tool calls the adapters write after its words
MIGRATION = (
    "Added the migration: `ALTER TABLE invoices ADD COLUMN due_date date NULL;` and updated the importer.\n"
    "Write: db/migrations/0042_due_date.sql\nEdit: importer/invoices.py"
)
REDONE = "Edit: db/migrations/0042_due_date.sql"  # the same file edited again
RULE = "The importer takes due_date from the order date, 30 days later."
# a path longer than the adapters' line for a tool call
DEEP = "/Users/ana/work/acme-billing/invoicing/db/migrations/0042_due_date_not_null_from_orders.sql"
SIBLING = "/Users/ana/work/acme-billing/invoicing/db/migrations/0043_invoice_number_index.sql"
# … and one cut before its name shows: any file of its folder
DEEPER = "/Users/ana/work/acme-billing/services/invoicing/db/migrations/versions/0042_due_date.sql"
DEEPER_SIBLING = "/Users/ana/work/acme-billing/services/invoicing/db/migrations/versions/0043_index.sql"
DUE = "Added the migration for due_date.\n[tool: "  # the turn before, up to its tool line


def folder(length: int) -> str:
    """A folder path of `length` characters: the adapter's "Write: " line for a file in it
    shows 79 - 7 - `length` characters of the file's name."""
    return "/srv/" + "a" * (length - 6) + "/"


def cut_pair(shown: int) -> tuple[str, str]:
    """The turn before (its Write cut to show `shown` letters of the name) and the reply (its
    Edit, cut one letter later)."""
    path = folder(79 - 7 - shown) + "duedatenotnullfromorders.sql"
    return DUE + tool_summary("Write", {"file_path": path}) + "]", tool_summary("Edit", {"file_path": path})
PATCH = "*** Begin Patch\n*** Update File: db/migrations/0042_due_date.sql\n@@\n-NULL\n+NOT NULL\n*** End Patch"


def found(message: str, answered: str = MIGRATION, reply: str = REDONE, code: str = "en") -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-12-01T10:00:00+00:00", answered=answered, usual=language(code), reply=reply
    )


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply"),
    [
        ("en", MIGRATION, RULE, REDONE),
        ("en", MIGRATION, "due_date can't be null, the importer fills it from the order.", "Edit: importer/invoices.py"),
        # as a runtime renders the edits, and as Codex patches a file
        (
            "de",
            "Migration angelegt: `ALTER TABLE invoices ADD COLUMN due_date date NULL;`.\n"
            "● Write(db/migrations/0042_due_date.sql)",
            "due_date kommt vom Auftrag, die Spalte darf nicht leer sein.",
            "● Update(db/migrations/0042_due_date.sql)\n  ⎿  Updated with 1 addition and 1 removal",
        ),
        (
            "en",
            "Added the migration.\nshell: apply_patch *** Begin Patch *** Add File: db/migrations/0042_due_date.sql",
            RULE,
            "shell: apply_patch *** Begin Patch *** Update File: db/migrations/0042_due_date.sql",
        ),
        # a reply that opens redoing, with no tool at all (a chat)
        ("en", MIGRATION, RULE, "Updated the migration and the importer."),
        # the turn before as the report writes it (the adapter's line) and an absolute path
        # edited again under its relative name
        ("en", "Added the migration.\n[tool: Write: /srv/app/db/migrations/0042_due_date.sql]", RULE, REDONE),
        # a path the adapter cut where eight letters of the file's name show
        ("en", *cut_pair(8)[:1], RULE, cut_pair(8)[1]),
        # … against the runtime's rendering of it, uncut, with the spaces the adapter folds
        ("en", "Added the migration for due_date.\n● Write(/Users/ana/My  Documents/acme/db/migrations/0042_due_date_not_null.sql)",
         RULE, tool_summary("Edit", {"file_path": "/Users/ana/My  Documents/acme/db/migrations/0042_due_date_not_null.sql"})),
        # a deep path the adapter cut ("…"), at other lengths for "Write" and "Edit"
        ("en", "Added the migration for due_date.\n[tool: " + tool_summary("Write", {"file_path": DEEP}) + "]", RULE,
         tool_summary("Edit", {"file_path": DEEP})),
        # Codex's patches, as its adapter summarises them (`tool_summary`: one line, cut at 80)
        (
            "en",
            "Added the migration.\n[tool: " + tool_summary("apply_patch", PATCH.replace("Update", "Add")) + "]",
            RULE,
            tool_summary("apply_patch", PATCH),
        ),
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
        (RULE, "", REDONE),  # the message answers no turn of the agent's: it states the task
        # the next task: the reply edits files the turn before did not
        ("Next, write tests for the importer and due_date.", MIGRATION, "Write: tests/test_importer.py"),
        # an answer to the agent's question, acted on as asked
        (
            "fill it from the order date plus 30 days.",
            MIGRATION + "\nShould the importer skip rows with an empty due_date, or fill it from the order date?",
            REDONE,
        ),
        # … asked in words indented under a tool line, a bullet or a list: words, not output
        (RULE, MIGRATION + "\n[tool: Bash: pytest -q]\n  Should the importer fill due_date from the order date?", REDONE),
        (RULE, MIGRATION + "\n• Ran the importer tests: 12 passed\n  Should the importer fill due_date?", REDONE),
        (RULE, MIGRATION + "\n[tool: Bash: pytest -q]\n  - 12 passed\n  - Should the importer fill due_date?", REDONE),
        ("can due_date be empty?", MIGRATION, REDONE),  # a question
        ("also the logo is blurry on mobile.", MIGRATION, REDONE),  # nothing of the agent's turn
        ("here is what the importer logs for due_date:", MIGRATION, REDONE),  # introduces what follows
        ("the importer was fine with due_date before.", MIGRATION, REDONE),  # a story: a verb in the past
        ("Suppose the importer fills due_date from the order date.", MIGRATION, REDONE),  # a supposition
        ("ok, the importer and due_date are fine.", MIGRATION, REDONE),  # approves
        ("The importer looks great, thanks a lot.", MIGRATION, REDONE),  # … in each of its clauses
        ("fill due_date in the importer from the order date please.", MIGRATION, REDONE),  # asks for more work
        ("Maria says the importer fills due_date from the order date.", MIGRATION, REDONE),  # someone else's words
        ("the importer fills due_date from the order date lol", MIGRATION, REDONE),  # a joke
        ("the importer, due_date.", MIGRATION, REDONE),  # no word the turn did not hold
        # more than three such sentences in one message are a pasted text
        (
            "The importer fills due_date. The importer reads the order date. "
            "The importer adds 30 days to due_date. The importer rounds due_date to a weekday.",
            MIGRATION,
            REDONE,
        ),
        # … and so is a message of more than twenty sentences, whatever one of them says
        (" ".join(["The client liked the new layout."] * 24) + " " + RULE, MIGRATION, REDONE),
        # the next task said plainly: more work asked for, in the file just edited
        ("now add a due_date index to the migration.", MIGRATION, REDONE),
        # a question mark in a query string or in code is no question of the agent's; an offer is
        (RULE, MIGRATION + "\nWant me to backfill the old rows too?", REDONE),
        # a cut path names the file it starts, not a sibling in its folder: the next task
        (RULE, "Added the migration for due_date.\n[tool: " + tool_summary("Write", {"file_path": DEEP}) + "]",
         tool_summary("Write", {"file_path": SIBLING})),
        (RULE, "Added the migration for due_date.\n[tool: " + tool_summary("Write", {"file_path": DEEPER}) + "]",
         tool_summary("Edit", {"file_path": DEEPER})),
        # two siblings cut to the same line; a cut name longer than the file of the turn before; a
        # cut inside a folder's name; seven letters of the name shown
        (RULE, DUE + tool_summary("Write", {"file_path": DEEPER}) + "]", tool_summary("Write", {"file_path": DEEPER_SIBLING})),
        (RULE, DUE + "Write: /srv/app/web/src/billing/InvoiceTable.ts]",
         tool_summary("Edit", {"file_path": "/srv/app/web/src/billing/InvoiceTable.ts_backup_2026_12_01_before_the_fix_of_rounding.ts"})),
        (RULE, DUE + tool_summary("Write", {"file_path": folder(60) + "componentsandwidgets/Foo.tsx"}) + "]",
         f"● Update({folder(60)}componentsandwidgets/Foo.tsx)"),
        (RULE, *cut_pair(7)),
        # … or digits alone: "202412031…" may be any migration of that day
        (RULE, DUE + tool_summary("Write", {"file_path": folder(63) + "20241203121500_create_customers.rb"}) + "]",
         tool_summary("Edit", {"file_path": folder(63) + "20241203121500_create_customers.rb"})),
        # two relative paths name one file only when equal: another README is the next task
        ("The README lists the importer's due_date.", "Wrote the docs.\n[tool: Write: docs/README.md]", "Edit: README.md"),
        # a sentence beside another that someone else said is not read for the reply
        ("Maria says we always deploy on Fridays. " + RULE, MIGRATION, REDONE),
    ],
)
def test_what_the_reply_acts_on_but_is_no_correction(message: str, answered: str, reply: str) -> None:
    assert found(message, answered, reply) == []


def test_a_diff_of_no_file_edited_is_no_act_on_the_file_but_a_rework_of_the_turn_before() -> None:
    # the diff writes the ALTER TABLE line of the turn before again, changed (`Rewrites.reworks`)
    (statement,) = found(RULE, MIGRATION, "```diff\n- due_date date NULL\n+ due_date date NOT NULL\n```")
    assert statement.cues == ("reworked:importer",)


def test_a_sentence_beside_a_statement_is_acted_on_too() -> None:
    # the reply redid the work the sentence beside the rule is about: both are statements
    rule, acted = found("Always run the tests first. " + RULE)
    assert rule.quote == "Always run the tests first."
    assert (acted.quote, acted.cues) == (RULE, ("acted_on:due_date",))
    # … unless a sentence of the message is left out: what follows may go on with its words
    assert found("Maria says we always deploy on Fridays. " + RULE) == []
    # praise beside the rule is no correction; a correction after praise in its sentence is
    (rule,) = found("Always run the tests first. The importer looks great, thanks a lot.")
    assert rule.quote == "Always run the tests first."
    (acted,) = found("Looks good, but the importer takes due_date from the order date.")
    assert acted.cues == ("acted_on:due_date",)


def test_a_reply_that_amends_nothing_it_takes_up_still_acts_on_the_sentence() -> None:
    # "Changed …" opens redoing but takes up nothing new of the message: the edit still acts on it
    (statement,) = found(RULE, reply="Changed the migration.\nEdit: db/migrations/0042_due_date.sql")
    assert statement.cues == ("acted_on:due_date",)


def test_a_question_mark_in_an_address_or_in_code_asks_nothing() -> None:
    answered = (
        MIGRATION + "\nSee https://wiki.example/importer?page=2, localhost:3000/rows?page=2 and `row.due ? row.due : None`."
        "\n```sql\nSELECT * FROM invoices WHERE id = ?\n```\n[tool: Bash: curl 'localhost:3000/rows?page=2']"
    )
    (statement,) = found(RULE, answered)
    assert statement.cues == ("acted_on:due_date",)


def test_a_message_the_reply_found_pasted_is_not_read_again() -> None:
    # four sentences the amending reply takes up are a pasted text: not even the one sentence
    # that holds a word of the turn before ("invoices") is acted on
    answered = "I wrote the importer for invoices.\nWrite: importer/all.py"
    message = (
        "invoices keep timestamps in UTC. refunds keep timestamps in UTC. "
        "products keep timestamps in UTC. orders keep timestamps in UTC."
    )
    reply = "Fixed: invoices, refunds, products and orders keep timestamps in UTC.\nEdit: importer/all.py"
    assert found(message, answered, reply) == []


def test_a_short_sentence_acted_on_stands_alone() -> None:
    (statement,) = found("Deploying takes ages here. invoices_v2.", reply="Changed the table.\n" + REDONE)
    assert statement.quote == "invoices_v2."


def test_the_word_taken_up_is_one_the_person_wrote() -> None:
    # "tests" is also the meaning "@test" to the text layer: the cue names the word written
    answered = "J'ai ajouté les tests des factures.\nWrite: tests/test_factures.py"
    (statement,) = found("Les tests tournent sur la préprod.", answered, "Edit: tests/test_factures.py", "fr")
    assert statement.cues == ("acted_on:tests",)


DRAFT = (
    "Here's the draft:\n\nHi Marta,\n\nThe March invoice for the Harbor Lane fit-out is attached: "
    "14 hours of design review at 95 EUR, 1,330 EUR in total, due on 15 April. Payment by bank "
    "transfer to the usual account.\n\nBest,\nJon"
)
REWRITTEN = (
    "Hi Marta,\n\nThe March invoice for the Harbor Lane fit-out is attached: 14 hours of design "
    "review at 95 EUR, 1,330 EUR in total, due on 30 April. Payment by bank transfer to the usual "
    "account.\n\nBest,\nJon"
)


AS_LIST = (
    "Hi Marta,\n\n- Invoice: March, Harbor Lane fit-out (attached)\n- Design review: 14 hours at 95 EUR\n"
    "- Total: 1,330 EUR\n- Due: 15 April\n- Payment: bank transfer, the usual account\n\nBest,\nJon"
)


def test_a_chat_reply_that_writes_its_draft_again_acts_on_a_sentence_about_it() -> None:
    # no edit, no amending opening, no line written again alike: the draft written again as a
    # list is the work redone (`Rewrites.writes_again`), read after a value swapped in or a line reworked
    (statement,) = found("Marta reads these on her phone between site visits.", DRAFT, AS_LIST)
    assert statement.cues == ("acted_on:marta",)


@pytest.mark.parametrize(
    "reply",
    [
        # a reply that goes on to other work shares its subject's words, not most of its words
        "Sure. Next I'll set up the reminder for the Lisbon trip: flights on 3 May, hotel near the "
        "river, the client dinner on Friday evening with the Porto team.",
        # … or is too short to write anything again
        "Noted, Harbor Lane.",
    ],
)
def test_a_chat_reply_that_does_not_write_its_draft_again_acts_on_nothing(reply: str) -> None:
    assert found("Marta reads these on her phone between site visits.", DRAFT, reply) == []


SENT_AGAIN = "Final version:\n\n" + DRAFT.split("\n\n", 1)[1]


@pytest.mark.parametrize(
    "message",
    # the draft sent again as it was: an approval or news is acted on by nothing (review, helper-110)
    ["Great draft.", "Amazing work on the invoice.", "Sounds good, send it to Marta tomorrow.", "Sarah got promoted last week, by the way."],
)
def test_a_draft_sent_again_unchanged_acts_on_nothing(message: str) -> None:
    assert found(message, DRAFT, SENT_AGAIN) == []


def writes_again(reply: str, before: str) -> bool:
    """Whether `reply` may be a draft (`Reply.drafts`) that writes `before` again (`Rewrites.writes_again`)."""
    return Reply(reply).drafts() and Rewrites(before, reply).writes_again()


def test_a_reply_writes_its_turn_again_with_most_of_its_words_and_no_question() -> None:
    assert writes_again(REWRITTEN, DRAFT)
    assert not writes_again(REWRITTEN + "\n\nShould I send it from your address?", DRAFT)
    assert not writes_again("Sure. Next: the Lisbon trip, flights on 3 May, hotel near the river.", DRAFT)
    # an edit tool called: a tool session's reply redoes by its files, not its words
    assert not writes_again(REWRITTEN + "\nEdit: drafts/other.md", DRAFT)
    # … and its tool calls are no draft: only "Let me look again." is prose
    before = "[tool: Read: src/importer.py] the importer reads invoices; 3 tests fail in importer tests"
    assert not writes_again("Let me look again.\n[tool: Read: src/importer.py]\n[tool: Read: src/models/invoice.py]", before)
    assert not writes_again(SENT_AGAIN, DRAFT)


@pytest.mark.parametrize("message", ["the routes look fine.", "thanks, the timed stops work now.", "nice, the import works fine"])
def test_praise_of_the_work_the_reply_redoes_is_no_correction(message: str) -> None:
    # the reply edits the same file again for the next task; the praise before it corrected
    # nothing (review helper-210: "look", "work" as people conjugate them, not only "looks")
    before = "• Edited routes.py (+34 -6)\n• Ran python routes.py orders.xlsx\n  └ orders.xlsx updated\n\nTimed stops now come first."
    after = "• Edited routes.py (+3 -2)\n• Ran python routes.py orders.xlsx\n  └ orders.xlsx updated\n\nAdded the VAT column."
    assert detect_statements(message, "s1.jsonl", 5, None, answered=before, reply=after) == []
