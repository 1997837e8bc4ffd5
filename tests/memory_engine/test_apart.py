"""What of a message is not the person's own words (memory_engine/apart.py): a tag never closed
runs to the end when it opens a line (a pasted document cut short) or is a recalled memory's,
but one named inside a line of prose is a mention, apart alone; the claim check and impact
both read the words after it as the person's."""

from __future__ import annotations

from daemon.impact.statements import detect_statements
from daemon.text.language import language
from memory_engine.apart import apart_spans

PROSE = "Vi skriver Composition API med <script setup> her, ikke Options API. Resten av appen er sånn."


def test_a_tag_named_in_prose_is_apart_alone() -> None:
    start = PROSE.index("<script")
    assert apart_spans(PROSE) == [(start, start + len("<script setup>"), "quoted")]


def test_a_tag_never_closed_that_opens_a_line_or_recalls_runs_to_the_end() -> None:
    pasted = "see below\n<document>\nI live in Oslo"
    assert apart_spans(pasted) == [(pasted.index("<document>"), len(pasted), "quoted")]
    recalled = "as you said <memory>user lives in Paris"
    assert apart_spans(recalled) == [(recalled.index("<memory>"), len(recalled), "recalled")]


def test_closed_tags_in_a_line_are_each_apart_and_the_words_between_are_not() -> None:
    text = "a <b>bold</b> word and <i>x</i> here"
    assert apart_spans(text) == [(2, 13, "quoted"), (23, 31, "quoted")]


def test_impact_reads_the_sentence_after_a_tag_named_in_prose() -> None:
    (statement,) = detect_statements(PROSE, "s1.jsonl", 3, None, answered="Done, I wrote the component.", usual=language("nb"))
    assert statement.cues == ("contrast:ikke",)
