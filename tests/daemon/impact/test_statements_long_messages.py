"""Messages a year of production holds, read in one pass (daemon/impact/cues.py, sentences.py):
one sentence of thousands of cues, thousands of blank lines, a pasted blob of one long token,
thousands of indented lines. Each took seconds to minutes when it was read pair by pair; the
assertions say what is read, and the suite's time says the rest (speed figures are in
benchmarks/RESULTS.md)."""

from __future__ import annotations

from daemon.impact.statements import Statement, detect_statements

AGENT = "Done, I updated the file."


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=AGENT, reply="Done, changed it.")


def test_one_sentence_of_thousands_of_cues_is_one_standing_instruction() -> None:
    # each cue compared only with those a longer phrase of its class could hold (5,000 words)
    statements = found("never " * 5000)
    assert [s.kind for s in statements] == ["standing_instruction"]


def test_rules_around_thousands_of_blank_lines_are_both_found() -> None:
    statements = found("Never use npm here.\n" + "\n" * 10_000 + "Always use pnpm.")
    assert [s.quote for s in statements] == ["Never use npm here.", "Always use pnpm."]


def test_rules_around_a_pasted_blob_of_one_long_token_are_both_found() -> None:
    statements = found("Never commit this key:\n" + "QUJD" * 5000 + "\nAlways use the vault.")
    assert [s.quote for s in statements][-1] == "Always use the vault."
    assert any(s.quote.startswith("Never commit this key") for s in statements)


def test_thousands_of_indented_lines_are_output_and_say_nothing() -> None:
    assert found("  never\n" * 5000) == []


def test_a_quotation_reaching_into_a_later_sentence_is_someone_elses_there_too() -> None:
    # the quoted span opens in the sentence before: its words in this one are still quoted
    message = "the old wiki said 'never deploy on fridays. always test' and that's it. Use pnpm, not npm."
    assert [s.quote for s in found(message)] == ["Use pnpm, not npm."]


def test_a_phrase_inside_a_longer_one_of_its_class_is_left_out() -> None:
    # "told you" starts a word after "i told you": the longer phrase is compared with it
    assert [s.cues for s in found("I told you, we deploy on Fridays")] == [("reminder:i told you",)]
