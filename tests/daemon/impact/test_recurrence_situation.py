"""Recurrence by situation: two statements of different sessions near in wording but under the
bar are the same thing said again when the agent's turns around them are alike about what they
say — the same mistake, set right the same way; never by the situation alone, within one
message, by tool calls and output, code, or the words an agent ends every turn with. And a word
with an elided article ("l'adresse") is the word alone."""

from __future__ import annotations

from daemon.impact.content import content, unelided
from daemon.impact.recurrence import group
from daemon.impact.situation import Situation, situation
from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language
from daemon.text.words import tokens

ROUNDED = "I rounded the Dupont invoice totals to whole euros: 1,240 € instead of 1,239.60 €."
ROUNDED_AGAIN = "Here is the Dupont invoice, totals rounded to whole euros (1,240 €)."
CENTS = "Back to cents: the Dupont totals read 1,239.60 € again."
OTHER_BEFORE = "The onboarding email for Keller GmbH is drafted, three paragraphs."
OTHER_REPLY = "Shortened the onboarding email to one paragraph."
# rules of other sessions, unrelated: a history's words weigh as they do in one
FILLER = (
    "Always answer in English.", "Never deploy on Fridays.", "Use pnpm, not npm.",
    "Keep commit messages under 72 characters.", "No emojis in the changelog.",
    "Dates are ISO 8601, not US style.", "Always run the linter before you push.",
)  # fmt: skip
# what an agent ends many turns with, whatever the work
BOILERPLATE = "I've made the changes. All 42 tests pass and the linter is clean. Let me know if you want anything else."


def said(session: int, message: str, day: str, answered: str) -> list[Statement]:
    return detect_statements(message, f"s{session}.jsonl", 3, f"{day}T09:00:00+00:00", answered=answered)


def rounding(before: tuple[str, str], after: tuple[str, str]) -> tuple[list[Statement], dict[Statement, Situation]]:
    """"Don't round the invoice totals" and, weeks later, "Never round invoice amounts": near in
    wording (they share "round" and "invoice" and little else), each with the agent's turns
    around it (the turn it answers, the reply)."""
    first = said(1, "Don't round the invoice totals, keep the cents.", "2026-03-02", before[0])
    again = said(2, "Never round invoice amounts, two decimals.", "2026-03-23", after[0])
    assert first and again, "both are statements"
    around = {first[0]: situation(*before), again[0]: situation(*after)}
    return [*first, *again], around


def history() -> list[Statement]:
    return [s for k, m in enumerate(FILLER) for s in said(10 + k, m, f"2026-02-{k + 1:02d}", "Done, I updated the file.")]


def sizes(statements: list[Statement], around: dict[Statement, Situation] | None = None) -> list[int]:
    return [len(i.statements) for i in group(statements, situations=around)]


def test_near_wording_said_at_the_same_mistake_joins_one_item() -> None:
    statements, around = rounding((ROUNDED, CENTS), (ROUNDED_AGAIN, CENTS))
    assert sizes(statements) == [1, 1]  # by wording alone: two things
    (item,) = group(statements, situations=around)
    assert [s.quote for s in item.recurrences] == ["Never round invoice amounts, two decimals."]


def test_either_turn_alone_tells_the_same_mistake() -> None:
    """The same wrong thing done again and set right in other words; or other words before it,
    and the same thing set right."""
    assert sizes(*rounding((ROUNDED, CENTS), (ROUNDED_AGAIN, OTHER_REPLY))) == [2]
    assert sizes(*rounding((ROUNDED, CENTS), (OTHER_BEFORE, CENTS))) == [2]


def test_near_wording_in_other_situations_stays_apart() -> None:
    assert sizes(*rounding((ROUNDED, CENTS), (OTHER_BEFORE, OTHER_REPLY))) == [1, 1]


def test_the_situation_alone_joins_nothing() -> None:
    """Two rules that share a word and little else, said at the same turn of the agent's, are
    two rules."""
    first = said(1, "Don't round the invoice totals, keep the cents.", "2026-03-02", ROUNDED)
    other = said(2, "Always attach the timesheet to the invoice as a PDF.", "2026-03-23", ROUNDED_AGAIN)
    around = {first[0]: situation(ROUNDED, CENTS), other[0]: situation(ROUNDED_AGAIN, CENTS)}
    assert sizes([*first, *other], around) == [1, 1]


def test_two_near_rules_of_one_message_stay_two() -> None:
    """The sentences of one message share their situation: it tells nothing between them."""
    message = "Don't use tables in the README. Don't put badges in the README header."
    before = "I updated the README with a table of the options and two badges."
    statements = said(1, message, "2026-03-02", before)
    assert len(statements) == 2
    around = dict.fromkeys(statements, situation(before, "Removed the README table and the badges."))
    others = history()
    assert sizes([*others, *statements], around) == [1] * (len(others) + 2)


def with_fillers(closing: str) -> tuple[list[Statement], dict[Statement, Situation]]:
    """The history of fillers, each said after a turn of the agent's that ends with `closing`."""
    others = history()
    return others, {s: situation(f"Updated the file. {closing}", closing) for s in others}


def test_what_an_agent_writes_every_time_is_no_situation() -> None:
    """Near rules about the README, each after the same closing words of the agent's, which it
    writes after every piece of work and which name the README too: they tell no mistake."""
    others, around = with_fillers(BOILERPLATE)
    first = said(1, "Don't use tables in the README.", "2026-03-02", BOILERPLATE)
    again = said(2, "Don't put badges in the README header.", "2026-03-23", BOILERPLATE)
    around |= {first[0]: situation(BOILERPLATE, BOILERPLATE), again[0]: situation(BOILERPLATE, BOILERPLATE)}
    assert sizes([*others, *first, *again], around) == [1] * (len(others) + 2)
    # … in Japanese too: "修正しました。テストを実行しました。" after every change
    closing = "修正しました。テストを実行しました。"
    others, around = with_fillers(closing)
    first = said(1, "テストを勝手に直さないで。", "2026-03-02", closing)
    again = said(2, "設定ファイルを勝手に変えないで。", "2026-03-23", closing)
    assert first and again
    # (its sentences end with "。" and no space: each is counted alone)
    around |= {first[0]: situation("はい。" + closing, closing), again[0]: situation("はい。" + closing, closing)}
    assert sizes([*others, *first, *again], around) == [1] * (len(others) + 2)


def test_the_words_both_statements_say_are_no_bridge() -> None:
    """Two turns that share only what both rules name ("README") tell nothing of which."""
    first = said(1, "Don't use tables in the README.", "2026-03-02", "I reworked the README section.")
    again = said(2, "Don't put badges in the README header.", "2026-03-23", "I reworked the README section.")
    others = history()
    around = {first[0]: situation("I reworked the README section.", "Done."), again[0]: situation("I reworked the README section.", "Done.")}
    assert sizes([*others, *first, *again], around) == [1] * (len(others) + 2)


def test_an_agent_writing_another_language_is_read_in_its_own() -> None:
    """A person who writes French to an agent that answers in English: "the" is no word of what
    was done, and the turns share only "README"."""
    first = said(1, "Pas de tableaux dans le README, des listes.", "2026-03-02", "I added the options table to the README.")
    again = said(2, "Pas de badges dans l'en-tête du README, c'est moche.", "2026-03-23", "I put the badges in the README.")
    assert first and again
    around = {
        first[0]: situation("I added the options table to the README.", "Done."),
        again[0]: situation("I put the badges in the README.", "Done."),
    }
    others = history()
    assert sizes([*others, *first, *again], around) == [1] * (len(others) + 2)


def test_turns_alike_in_one_word_or_in_little_of_their_weight_are_not_alike() -> None:
    # one word in common ("totals"), whatever its weight
    assert sizes(*rounding(("Rounded the totals.", "OK."), ("Here are the totals.", "Sure."))) == [1, 1]
    # two words in common among many others
    long_before = "The Dupont totals are in the quarterly export with the VAT lines, the shipping, the discounts and the notes."
    other_before = "Keller's contract, the renewal date, the Dupont address and the new totals of the quarter are in the folder."
    assert sizes(*rounding((long_before, "OK."), (other_before, "Sure."))) == [1, 1]


def test_code_in_the_reply_is_no_situation() -> None:
    code = "```python\nround(invoice_total, 2)\n```\nDone."
    assert sizes(*rounding((OTHER_BEFORE, code), ("The Keller contract is renewed.", code))) == [1, 1]


def test_tool_calls_their_output_and_code_are_no_situation() -> None:
    """The same test run (Claude Code's rendering, Codex's, the adapters' lines), the same code
    before both statements, and prose about other things: the project prints that every
    session, it says nothing about which mistake."""
    printed = (
        "● Bash(pytest -q tests/invoices)\n  ⎿ 42 passed in 3.10s\n      round(total, 0) for the invoice totals\n"
        "• Ran pytest -q tests/invoices\n  └ 42 passed: invoice totals rounded\n    invoice totals ok\n"
        "└ 42 passed: Dupont invoice totals rounded to euros\n"
        "[tool: Edit: src/invoice_totals.py]\n```python\nround(total_invoice_amount, 0)\n```\n"
    )
    statements, around = rounding(
        (printed + OTHER_BEFORE, "Shortened the onboarding email."),
        (printed + "Keller's contract is renewed.", "Added the renewal date."),
    )
    assert around[statements[0]].before == OTHER_BEFORE
    assert sizes(statements, around) == [1, 1]


def test_a_situation_keeps_the_end_of_the_turn_answered_and_the_head_of_the_reply() -> None:
    long_turn = "Earlier work on the importer. " * 200 + ROUNDED
    long_reply = CENTS + " Then I re-ran the whole test suite. " * 200
    found = situation(long_turn, long_reply)
    assert found.before.endswith(ROUNDED) and "importer" in found.before
    assert found.after.startswith(CENTS)
    assert len(found.before) <= 800 and len(found.after) <= 800


def test_a_turn_read_from_inside_its_code_block_keeps_its_closing_prose() -> None:
    code = "```python\n" + "".join(f"total_{n} = round(amount_{n}, 0)\n" for n in range(200)) + "```\n"
    found = situation(code + ROUNDED, CENTS)
    assert found.before == ROUNDED


def test_an_elided_article_is_the_word_alone() -> None:
    french, italian = language("fr"), language("it")
    assert french is not None and italian is not None
    assert content("L'adresse de facturation", french).stems == content("adresse de facturation", french).stems
    assert "iban" in content("e l'iban xe ancora quello", italian).stems
    assert "ultim" in content("la 'l'ultima' volta", italian).stems  # in quotation marks too
    # the same length, so that what is found keeps its place in the text
    assert unelided("Vérifie l'adresse.", french) == "Vérifie   adresse."
    # not a word whose head no list elides ("aujourd'hui"), nor a language that elides nothing
    assert unelided("aujourd'hui", french) == "aujourd'hui"
    english = language("en")
    assert english is not None and unelided("don't", english) == "don't"
    # … and only where impact reads content words: a surname stays whole where names are looked for
    assert tokens("D'Angelo", italian) == ["dangel"]


def test_a_recall_or_a_cue_with_an_elided_article_is_still_no_content() -> None:
    """"je te l'ai dit la semaine dernière" says when it was said, not what; "d'abord" says
    how: two rules said so are told apart by what they are about."""
    french = language("fr")
    assert french is not None
    assert content("Pas de tableaux, je te l'ai dit la semaine dernière.", french).stems == {"tableau"}
    assert "abord" not in content("D'abord les tests, ensuite le commit.", french).stems
    first = said(1, "Pas de tableaux, je te l'ai dit la semaine dernière.", "2026-03-02", "J'ai ajouté un tableau.")
    other = said(2, "Pas d'emojis, je te l'ai dit la semaine dernière.", "2026-03-23", "J'ai ajouté des emojis.")
    assert sizes([*first, *other]) == [1, 1]
