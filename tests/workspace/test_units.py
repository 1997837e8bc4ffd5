from __future__ import annotations

import pytest

from workspace.units import (
    critical_tokens,
    fingerprint_key,
    normalise,
    parse_blocks,
    sentences,
    similarity,
    units_of,
)


def test_blocks_of_a_markdown_file() -> None:
    text = "# Title\n\nIntro line one\ncontinues here.\n\n- a bullet\n  continued\n- b\n\n| x | y |\n|---|---|\n\n```\ncode\n```\n"
    kinds = [(b.kind, b.start, b.end) for b in parse_blocks(text)]
    assert kinds == [
        ("heading", 1, 1),
        ("paragraph", 3, 4),
        ("bullet", 6, 7),
        ("bullet", 8, 8),
        ("row", 10, 10),
        ("rule", 11, 11),
        ("code", 13, 15),
    ]


def test_unclosed_code_fence_runs_to_the_end() -> None:
    blocks = parse_blocks("text\n\n```\nline\nmore")
    assert blocks[-1].kind == "code" and blocks[-1].raw == "```\nline\nmore"


def test_sentences_do_not_split_links_abbreviations_or_paths() -> None:
    text = "See e.g. the [docs](https://x.example/a.b) now. Use exports/tickets.csv. Done"
    assert sentences(text) == [
        "See e.g. the [docs](https://x.example/a.b) now.",
        "Use exports/tickets.csv.",
        "Done",
    ]


def test_normalise_ignores_case_emphasis_and_trailing_punctuation_but_not_code() -> None:
    assert normalise("**Always** answer  in the user's language.") == normalise(
        "always answer in the user’s language"
    )
    assert normalise("Run `make Test`.") != normalise("run `make test`")


def test_normalise_keeps_strike_through_a_struck_note_is_another_note() -> None:
    assert normalise("~~Send the invoice reminder~~") != normalise("Send the invoice reminder")
    assert normalise("~~Send the invoice reminder.~~") == normalise("~~send the invoice  reminder~~")
    # However it is struck: HTML or one tilde (GitHub strikes both), not "~5" or "~/notes".
    for struck in (
        "<del>Send the invoice reminder.</del>",
        "<s>Send the invoice reminder</s>",
        "~Send the invoice reminder~",
    ):
        assert normalise(struck) == normalise("~~Send the invoice reminder~~"), struck
    assert normalise("Wait ~5 minutes, see ~/notes.") == "wait ~5 minutes, see ~/notes"
    assert normalise("_Send_ the __invoice__ reminder") == normalise("Send the invoice reminder")


def test_normalise_folds_only_what_never_changes_meaning() -> None:
    # Same note: NFD and NFC, case (ẞ is the capital of ß), display width, spacing.
    assert normalise("Ju\u0308rgen HAT  Rufbereitschaft.") == normalise("J\u00fcrgen hat Rufbereitschaft")
    assert normalise("nur in MAẞEN") == normalise("nur in Maßen")
    assert normalise("ＡＰＩ３ ｶﾞｽ") == normalise("API3 ガス")
    # Other notes: casefold's ß -> ss and NFKC's superscripts change the words and numbers.
    assert normalise("nur in Massen") != normalise("nur in Maßen")
    assert normalise("10⁶ EUR") != normalise("106 EUR")
    assert normalise("2³ per second") != normalise("23 per second")
    # "I" lowers to "ı" in Turkish: ILIK is "lukewarm", ilik "marrow".
    assert normalise("ILIK") != normalise("ilik")
    assert normalise("İstanbul") != normalise("istanbul")


def test_fingerprint_key_stays_the_old_fold_so_rejected_contradictions_stay_rejected() -> None:
    assert fingerprint_key("**It** costs 10⁶ EUR in Maßen.") == "it costs 106 eur in massen"


def test_units_carry_file_and_line() -> None:
    units = list(units_of("SOUL.md", "# Soul\n\nCalm. Brief.\n- Be brief.\n"))
    assert [(u.line, u.kind, u.text) for u in units] == [
        (3, "sentence", "Calm."),
        (3, "sentence", "Brief."),
        (4, "bullet", "Be brief."),
    ]


@pytest.mark.slow
def test_critical_tokens() -> None:
    tokens = critical_tokens(
        "Post to #ops-reports at 20% of exports/tickets.csv, see [x](https://a.example/b) and `cmd -v`."
    )
    assert {"#ops-reports", "20%", "exports/tickets.csv", "[x](https://a.example/b)", "`cmd -v`"} <= tokens
    assert "#ops" not in tokens


@pytest.mark.slow
def test_similarity_of_paraphrases() -> None:
    assert (
        similarity("Reply in the user's language.", "Always answer in the language the user writes in.")
        >= 0.5
    )
    assert similarity("Vendor emails are written in German.", "Be brief.") < 0.5
