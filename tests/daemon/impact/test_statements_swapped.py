"""A sentence whose word the agent's reply writes in place of its own: the person states the
right value alone ("Kowalski, with an i.", "dev_ana."), often beside another statement, and
the reply writes a line of the agent's turn before again with the person's word where the
agent's was — in a draft, in a command, in an edit's diff — whatever it opens with
(`daemon.impact.swapped`; sentences written for these tests, in the shapes the read corpora
showed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

DRAFT = "Here is the reminder:\n\nHi Marta, your session is on Tuesday at 9:00.\nBest regards,\nAnna Kowalsky"
REDRAFT = "Hi Marta, your session is on Tuesday at 9:00.\nBest regards,\nAnna Kowalski"
COMMAND = "Run this:\n\n`dbt build --select stg_orders+ --target dev`"
RECOMMAND = "`dbt build --select stg_orders+ --target dev_ana`"
# the agent ran a command and edited a workflow; the reply edits it again, as Claude Code renders it
WORKFLOW = "● Bash(gh workflow run ci.yml)\n  ⎿  queued\n\nThe CI workflow is queued."
REWORKFLOW = (
    "● Update(.github/workflows/ci.yml)\n"
    "  ⎿  Updated .github/workflows/ci.yml with 1 addition and 1 removal\n"
    "       12 -    runs-on: ubuntu-latest\n"
    "       12 +    runs-on: arm64-runners"
)


def found(message: str, answered: str, reply: str, code: str = "en") -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-12-01T10:00:00+00:00", answered=answered, usual=language(code), reply=reply
    )


def swapped(statements: list[Statement]) -> list[str]:
    return [s.quote for s in statements if any(c.startswith("swapped:") for c in s.cues)]


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply", "quote"),
    [
        # a draft written again with the name spelled as the person spells it
        ("en", DRAFT, "Kowalski, with an i.", REDRAFT, "Kowalski, with an i."),
        # a command given again, the value alone: it stands as a statement of its own
        ("en", COMMAND, "dev_ana. dev is shared, others work there", RECOMMAND, "dev_ana."),
        # … given as code inline, a flag and all: its words are no cue, its value is the person's
        ("en", COMMAND, "`--target dev_ana`", RECOMMAND, "`--target dev_ana`"),
        # an edit's diff: the "-" line is the agent's own, the "+" line takes the person's word
        ("en", WORKFLOW, "arm64-runners, the scanner is built for graviton", REWORKFLOW, "arm64-runners, the scanner is built for graviton"),
        # the same in a ```diff fence the agent wrote
        (
            "en",
            "Set the runner in the workflow.",
            "arm64-runners, the scanner is built for graviton",
            "```diff\n-    runs-on: ubuntu-latest\n+    runs-on: arm64-runners\n```",
            "arm64-runners, the scanner is built for graviton",
        ),
        # in Portuguese, and in Japanese, where the reply's line is written again with the new bank
        ("pt", "Dúvidas, falem com a Dra. Renata Cavalcante.", "Cavalcanti, com i no final", "Dúvidas, falem com a Dra. Renata Cavalcanti.", "Cavalcanti, com i no final"),
        ("ja", "振込先：りそな銀行 本町支店 普通 1123456", "今は三井住友銀行 梅田支店 普通 7283941 です", "振込先：三井住友銀行 梅田支店 普通 7283941", "今は三井住友銀行 梅田支店 普通 7283941 です"),
    ],
)
def test_a_word_the_reply_writes_in_place_of_the_agents_own_is_a_correction(
    code: str, answered: str, message: str, reply: str, quote: str
) -> None:
    statements = found(message, answered, reply, code)
    assert swapped(statements) == [quote]
    assert all(s.kind == "correction" for s in statements)


# an edit whose summary line shows the change with an arrow, as an agent may write it under the edit
CARDS = "Drafted 2 product cards: Beach Towel Mint 100x180 and Beach Towel Navy 100x180, saved to cards.json."
RECARDS = '• Edited cards.json (+2 -2)\n  └ "size": "100x180" → "90x180" (2 cards)'


def test_a_word_an_edits_arrow_puts_in_place_of_the_agents_own_is_a_correction() -> None:
    statements = found("90x180. We have no 100x180 towel.", CARDS, RECARDS)
    assert swapped(statements) == ["90x180."]
    # … and the word before the arrow is taken out: the sentence naming it is one too
    assert [c for s in statements for c in s.cues] == ["swapped:90x180", "dropped:100x180"]


@pytest.mark.parametrize(
    "reply",
    [
        # an arrow in prose is as often a route or a result ("Linate → AMS", "pytest → 31 passed")
        'Sizes: "100x180" → "90x180" (2 cards).',
        # two arrows are a path, not one change
        '• Edited cards.json (+2 -2)\n  └ "size": "100x180" → "90x180" → "80x180"',
    ],
)
def test_an_arrow_in_prose_or_a_path_of_them_swaps_nothing(reply: str) -> None:
    assert swapped(found("90x180. We have no 100x180 towel.", CARDS, reply)) == []


def test_a_value_of_several_words_an_edits_arrow_puts_in_is_a_correction() -> None:
    reply = "• Edited reminder.txt (+1 -1)\n  └ signature: Anna Kowalsky → Anna Kowalski"
    assert swapped(found("Kowalski, with an i.", DRAFT, reply)) == ["Kowalski, with an i."]


@pytest.mark.parametrize(
    "reply",
    [
        # an arrow in the code of a file written, or of an edit's lines: no change summed up
        "● Write(src/loader.py)\n  ⎿  Wrote 2 lines to src/loader.py\n       1 def load(path: str) -> Config:\n       2     return Config.parse(path)",
        "● Update(src/loader.py)\n  ⎿  Updated src/loader.py with 1 addition\n       10   def load(path: str) -> Config:\n       11 +     check(path)",
    ],
)
def test_an_arrow_in_the_code_under_an_edit_is_no_change(reply: str) -> None:
    assert found("The current loader silently ignores missing keys.", "I'll look at the config loader.", reply) == []


def test_a_second_value_beside_a_statement_found_is_found_too() -> None:
    message = "Never sign as Anna K. And Kowalski, with an i."
    statements = found(message, DRAFT, REDRAFT)
    assert [s.quote for s in statements] == ["Never sign as Anna K.", "And Kowalski, with an i."]
    assert swapped(statements) == ["And Kowalski, with an i."]


@pytest.mark.parametrize(
    ("answered", "message", "reply"),
    [
        # a line added beside the agent's, not in place of a word of it: more work asked for
        ("Items:\n- soap", "towels too", "Items:\n- soap\n- towels"),
        # a command's output changes with the world, not with what the person said
        (
            "● Bash(terraform plan)\n  ⎿  Plan: 2 to add, 0 to change, 0 to destroy.",
            "plan ok, apply",
            "● Bash(terraform apply)\n  ⎿  Apply complete! Resources: 2 added, 0 changed, 0 destroyed.",
        ),
        # the line rewritten whole, not a value swapped (more than SPAN words put in)
        (
            "Hi Marta, your session with Dr Renata is on Tuesday at 9:00 in room 4.",
            "something about the weather",
            "Hi Marta, we hope the sunny weather this week finds you well and rested for Tuesday at 9:00 in room 4.",
        ),
        # a word put in beside the agent's, not in place of one
        ("Items: soap, candles", "towels", "Items: soap, candles, towels"),
        # a line of the reply unlike any of the turn before (below LIKE), though a word is shared
        ("Anna wrote the minutes on Tuesday.", "Kowalski, with an i.", "Signed: Anna Kowalski"),
        # a function word is no value
        ("Send it to the office.", "by the office", "Send it by the office."),
        # the word was the agent's already: nothing new to it
        ("Anna Kowalski or Anna Kowalsky?\nBest regards,\nAnna Kowalsky", "Kowalski", "Best regards,\nAnna Kowalski"),
        # a question, and a story, the reply takes up
        (DRAFT, "Is it Kowalski, with an i?", REDRAFT),
        (DRAFT, "Anna Kowalski came by yesterday.", REDRAFT),
    ],
)
def test_a_word_the_reply_takes_up_otherwise_is_no_correction(answered: str, message: str, reply: str) -> None:
    assert swapped(found(message, answered, reply)) == []


def test_a_bullet_of_the_reply_is_no_line_it_removed() -> None:
    # "- " opens a list's item in prose: the reply's bullet is a line it writes, and one it
    # writes again with the person's word is swapped in
    answered = "The list:\n- Anna Kowalsky\n- Marta Nowak"
    reply = "The list:\n- Anna Kowalski\n- Marta Nowak"
    assert swapped(found("Kowalski, with an i.", answered, reply)) == ["Kowalski, with an i."]


def test_many_values_swapped_in_one_message_are_a_pasted_text() -> None:
    answered = "\n".join(f"row {n}: value{n} old" for n in range(6))
    message = " ".join(f"new{n}x." for n in range(6))
    reply = "\n".join(f"row {n}: new{n}x old" for n in range(6))
    assert swapped(found(message, answered, reply)) == []
    # … and three are three corrections
    message = " ".join(f"new{n}x." for n in range(3))
    assert len(swapped(found(message, answered, reply))) == 3


MAIL = "Here is the mail:\n\nSubject: URGENT invoice for March\nDear Mr Tanaka, please find the invoice attached."
REMAIL = "Subject: invoice for March\nDear Mr Tanaka, please find the invoice attached."


def dropped(statements: list[Statement]) -> list[str]:
    return [s.quote for s in statements if any(c.startswith("dropped:") for c in s.cues)]


@pytest.mark.parametrize(
    ("answered", "message", "reply"),
    [
        # a draft written again without the word the sentence names
        (MAIL, "URGENT looks like spam to them.", REMAIL),
        # … in an edit's diff, whose "-" line still holds it
        (
            "Wrote the mail to mail.txt.",
            "URGENT looks like spam to them.",
            "● Update(mail.txt)\n  ⎿  Updated mail.txt with 1 addition and 1 removal\n"
            "       3 -  Subject: URGENT invoice for March\n       3 +  Subject: invoice for March",
        ),
    ],
)
def test_a_word_the_reply_takes_out_of_its_line_is_a_correction(answered: str, message: str, reply: str) -> None:
    statements = found(message, answered, reply)
    assert dropped(statements) == ["URGENT looks like spam to them."]
    assert statements[0].cues == ("dropped:urgent",) and statements[0].kind == "correction"


@pytest.mark.parametrize(
    ("answered", "message", "reply"),
    [
        # the reply still writes the word, in another line ("here" is in the turn before only)
        (MAIL, "URGENT looks like spam to them here.", REMAIL + "\nI kept URGENT in the first line of the body."),
        # the reply writes no line of the turn before again: a new text, not the line set right
        (MAIL, "URGENT looks like spam to them.", "Noted. Anything else for Mr Tanaka?"),
        # a story the reply takes up
        (MAIL, "Tanaka's office wrote URGENT on the last one and nobody read it.", REMAIL),
    ],
)
def test_a_word_the_reply_leaves_out_otherwise_is_no_correction(answered: str, message: str, reply: str) -> None:
    assert dropped(found(message, answered, reply)) == []


@pytest.mark.parametrize(
    ("answered", "message", "reply"),
    [
        # a line added beside the agent's, which the reply writes as it was
        ("Invoice:\nNet: 100 EUR\nTotal: 100 EUR", "add the VAT line", "Invoice:\nNet: 100 EUR\nVAT: 19 EUR\nTotal: 119 EUR"),
        ("Items:\n- soap (2 pcs)\n- candles (3 pcs)", "also towels", "Items:\n- soap (2 pcs)\n- candles (3 pcs)\n- towels (1 pcs)"),
        # an item put into a numbered list: its number is no word of the line
        ("1. soap\n2. candles", "towels", "1. soap\n2. towels\n3. candles"),
        # a line a Claude Code diff kept ("- run" is a list's item, not a removed line)
        (
            "I added the test step to the CI workflow.",
            "also lint",
            "● Update(.github/workflows/ci.yml)\n  ⎿  Updated .github/workflows/ci.yml with 1 addition\n"
            "       14        - run: make test\n       15 +      - run: make lint",
        ),
        # a placeholder of the draft filled in: an answer, not a correction
        ("Here is the draft:\n\nDear [NAME],\nyour order has shipped.", "Marta Nowak", "Dear Marta Nowak,\nyour order has shipped."),
    ],
)
def test_work_added_or_a_blank_filled_is_no_value_swapped(answered: str, message: str, reply: str) -> None:
    assert swapped(found(message, answered, reply)) == []


@pytest.mark.parametrize(
    ("answered", "message", "reply", "cue"),
    [
        # Codex's diff, its sign against the line
        (
            "Pinned Terraform in versions.tf.",
            "1.9.8, that's what's in .terraform-version.",
            '• Edited versions.tf (+1 -1)\n    4 -  required_version = "1.5.7"\n    4 +  required_version = "1.9.8"',
            "swapped:1.9.8",
        ),
        # a list's item removed and added in a ```diff fence
        ("The signature block:\n\n- Anna Kowalsky", "Kowalski, with an i.", "```diff\n-- Anna Kowalsky\n+- Anna Kowalski\n```", "swapped:kowalski"),
        # a short value is new beside a longer word holding it ("5" in "35000", "9:05")
        ("Address: Atatürk Cd. No: 12, 35000 İzmir, delivery at 9:05", "house number 5", "Address: Atatürk Cd. No: 5, 35000 İzmir", "swapped:5"),
        # a reply in decomposed Unicode reads as the person's composed words
        ("Best regards,\nJoao Silva", "João, with its tilde", unicodedata.normalize("NFD", "Best regards,\nJoão Silva"), "swapped:joão"),
    ],
)
def test_a_value_swapped_in_the_shapes_runtimes_write(answered: str, message: str, reply: str, cue: str) -> None:
    (statement,) = found(message, answered, reply)
    assert cue in statement.cues


# a statement of its own ("Never …"), and beside it a sentence with no cue; the reply reworks the draft
GREETING = "Here is the reminder:\n\nDear Mrs Marta Nowak,\nwe kindly remind you of your appointment on Tuesday at 9:00."
REGREETING = "Hi Marta,\njust a reminder: Tuesday at 9:00, see you then!"


def reworked_quotes(statements: list[Statement]) -> list[str]:
    return [s.quote for s in statements if any(c.startswith("reworked:") for c in s.cues)]


def test_a_sentence_beside_a_statement_the_agent_reworks_its_work_after_says_more_of_it() -> None:
    message = "Never write Dear Mrs to patients.\n\nThe whole tone sounds like a bank letter."
    statements = found(message, GREETING, "Hi Marta,\nwe remind you of your appointment on Tuesday at 9:00.")
    assert [s.quote for s in statements] == ["Never write Dear Mrs to patients.", "The whole tone sounds like a bank letter."]
    assert reworked_quotes(statements) == ["The whole tone sounds like a bank letter."]
    assert statements[1].kind == "correction"


def test_a_sentence_alone_the_agent_reworks_its_work_after_says_what_was_wrong() -> None:
    statements = found("The whole tone sounds like a bank letter.", GREETING, "Hi Marta,\nwe remind you of your appointment on Tuesday at 9:00.")
    assert reworked_quotes(statements) == ["The whole tone sounds like a bank letter."]
    assert statements[0].kind == "correction"


def test_alone_a_sentence_needs_a_rework_that_keeps_most_of_the_line() -> None:
    # "Hi Marta, just a reminder: Tuesday at 9:00" keeps a third of the old line: a new text
    # that names the same things, read only beside a statement (`swapped.ALONE`)
    message = "The whole tone sounds like a bank letter."
    assert reworked_quotes(found(message, GREETING, REGREETING)) == []
    assert reworked_quotes(found("Never write Dear Mrs to patients.\n\n" + message, GREETING, REGREETING)) == [message]


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        # the reply writes a new text, no line of the turn before again
        ("Never write Dear Mrs to patients.\n\nThe whole tone sounds like a bank letter.", "Sure. Anything else?"),
        # the sentence beside asks for more work
        ("Never write Dear Mrs to patients.\n\nAlso add the clinic's address below.", REGREETING),
        # … or has one content word
        ("Never write Dear Mrs to patients.\n\nTerrible.", "Hi Marta,\nwe remind you of your appointment on Tuesday at 9:00."),
        # alone, a sentence that asks for more work, or approves it
        ("Also add the clinic's address below.", REGREETING),
        ("Looks fine, thanks.", REGREETING),
    ],
)
def test_a_sentence_is_read_only_when_the_agent_reworks_and_it_says_something(message: str, reply: str) -> None:
    assert reworked_quotes(found(message, GREETING, reply)) == []


DATABASE = "DATABASE_URL=postgres://rota@localhost:5432/rota"
README_NPM = "## Install\nnpm install\n## Run\nnpm run dev\nRoute: /api/orders"


@pytest.mark.parametrize(
    ("beside", "read"),
    [
        ("route looks fine", False),  # approves the work (`impact.approval`)
        ("the route section, that works", False),
        ("thanks for the route section", False),
        ("not sure that works for the route section", True),  # a "not" in its clause approves nothing
        ("the route section is not good", True),
        ('the "all good" banner in the route section is noise', True),  # named, not said
    ],
)
def test_a_sentence_beside_a_statement_that_approves_the_work_is_no_rework(beside: str, read: bool) -> None:
    statements = found(f"use pnpm, not npm. {beside}", README_NPM, README_NPM.replace("npm ", "pnpm "))
    assert statements[0].quote == "use pnpm, not npm."
    assert reworked_quotes(statements) == ([beside] if read else [])


@pytest.mark.parametrize(
    ("code", "answered", "message", "reply"),
    [
        ("en", "Hi Ana, the invoice is attached.\nKind regards, Sam", "sign off with cheers at the end", "Hi Ana, the invoice is attached.\nCheers, Sam"),
        ("pt", "Oi Ana, segue a fatura.\nObrigado, Sam", 'so troca "Obrigado" por "Abraço"', "Oi Ana, segue a fatura.\nAbraço, Sam"),
        ("en", DATABASE, "thanks, but the port is 5433", DATABASE.replace("5432", "5433")),
        ("de", DATABASE, "danke, aber der Port ist 5433", DATABASE.replace("5432", "5433")),
    ],
)
def test_a_word_the_reply_swaps_in_is_a_correction_whatever_thanks_the_sentence_holds(
    code: str, answered: str, message: str, reply: str
) -> None:
    (statement,) = found(message, answered, reply, code)
    assert statement.quote == message and statement.cues[0].startswith("swapped:")


def test_many_sentences_beside_a_statement_are_a_pasted_text() -> None:
    pasted = "\n\n".join(f"The {w} paragraph sounds like a bank letter." for w in ("first", "second", "third", "fourth"))
    message = "Never write Dear Mrs to patients.\n\n" + pasted
    assert reworked_quotes(found(message, GREETING, "Hi Marta,\nwe remind you of your appointment on Tuesday at 9:00.")) == []


def test_an_indented_shell_key_is_no_tool_line() -> None:
    # a workflow's "shell: bash" is a key of the file, and the lines under it are the file's
    workflow = "defaults:\n  run:\n    shell: bash\n  runs-on: ubuntu-latest\n  steps:\n    - run: make test"
    reply = workflow.replace("ubuntu-latest", "arm64-runners")
    assert swapped(found("arm64-runners, the scanner is built for graviton", workflow, reply)) == [
        "arm64-runners, the scanner is built for graviton"
    ]


@pytest.mark.parametrize(
    ("answered", "reply"),
    [
        # two lines sharing only function words are not one written again
        ("I ran the tests and all passed. The build is green.", "Got it. The deploy is done and the site is live."),
        ("The report is ready in the shared folder.", "Thanks for the feedback, it is noted for the next time."),
    ],
)
def test_lines_sharing_only_function_words_are_no_rework(answered: str, reply: str) -> None:
    message = "Never write Dear Mrs to patients.\n\nThe whole tone sounds like a bank letter."
    assert reworked_quotes(found(message, answered, reply)) == []


def test_the_next_task_in_a_later_clause_is_no_rework() -> None:
    message = "Never write Dear Mrs to patients.\n\nAfter that, update the patient list."
    assert reworked_quotes(found(message, GREETING, "Hi Marta,\nwe remind you of your appointment on Tuesday at 9:00.")) == []


def test_a_recall_takes_in_the_sentence_it_recalls_though_the_agent_reworked() -> None:
    statements = found("Again. The whole tone sounds like a bank letter.", GREETING, "Hi Marta,\nwe remind you of your appointment on Tuesday at 9:00.")
    assert [(s.quote, s.cues) for s in statements] == [("Again. The whole tone sounds like a bank letter.", ("again:again",))]


def test_many_sentences_over_all_the_replys_readings_are_a_pasted_text() -> None:
    log = "\n".join(
        [
            "10:00:01 INFO listening on port 8080",
            "10:00:02 INFO port 8080 ready",
            "10:00:03 INFO port 8080 busy",
            "10:00:05 WARN backing off for five seconds",
            "10:00:06 WARN retrying the connection now",
            "10:00:07 WARN giving up on the old socket",
        ]
    )
    statements = found("No, the port is 9090.\n\n" + log, "port = 8080\nhost = 0.0.0.0", "port = 9090\nhost = 0.0.0.0")
    assert [s.quote for s in statements] == ["No, the port is 9090."]


@pytest.mark.parametrize(
    "message",
    [
        "The garage entrance is on Elm Street.",  # answers what the agent asked
        "Sure. The garage entrance is on Elm Street.",
    ],
)
def test_alone_a_sentence_answering_the_agents_question_is_no_rework(message: str) -> None:
    asked = GREETING + "\nShould I mention the parking garage?"
    reply = GREETING + " The garage entrance is on Elm Street."
    assert reworked_quotes(found(message, asked, reply)) == []


@pytest.mark.parametrize("message", ["Great job on the reminder.", "Perfect, the patients will love this one."])
def test_alone_praise_of_the_work_is_no_rework(message: str) -> None:
    reply = "Dear Mrs Marta Nowak,\nwe remind you of your appointment on Tuesday at 9:00 at the Elm Street clinic."
    assert reworked_quotes(found(message, GREETING, reply)) == []


def test_a_turkish_word_with_a_capital_i_is_the_same_word_in_the_reply() -> None:
    # casefolded, "İ" is "i" with a combining dot: the turns are folded as the words are
    answered = "Taslak:\nToplantı İstanbul ofisinde, Salı 10:00."
    (statement,) = found("İstanbul yok artık.", answered, "Taslak:\nToplantı ofiste, Salı 10:00.", "tr")
    assert statement.cues == ("dropped:istanbul",)


# A reply line tied with another for the old line it writes again (each shares four words of
# "Subject: Easter opening hours bakery Linden"): the earlier is that line whatever order a
# set of words comes in, and a set's order changes from one process to the next with its hash
# seed. Before ties were broken by line, 1 seed in 8 read the message as no correction.
TIED = """
import json, sys
from daemon.impact.statements import detect_statements
from daemon.text.language import language
found = detect_statements(
    "the subject sounds clumsy somehow.", "s1.jsonl", 3, "2026-12-01T10:00:00+00:00",
    answered="Draft ready:\\n\\nSubject: Easter opening hours bakery Linden",
    reply="Subject: Easter opening hours Maple\\nLinden bakery notes opening hours", usual=language("en"),
)
print(json.dumps([s.cues for s in found]))
"""


def test_a_tie_between_lines_is_read_the_same_in_every_process() -> None:
    seen = set()
    # The children run what this process already covers: left unmeasured (coverage's
    # subprocess patch follows COVERAGE_PROCESS_CONFIG), each takes a third of the time.
    env = {k: v for k, v in os.environ.items() if k != "COVERAGE_PROCESS_CONFIG"}
    for seed in range(8):
        done = subprocess.run(
            [sys.executable, "-c", TIED], env={**env, "PYTHONHASHSEED": str(seed)}, capture_output=True, text=True, check=True
        )
        seen.add(done.stdout)
    assert [json.loads(s) for s in seen] == [[["reworked:subject"]]]
