from __future__ import annotations

from typing import Any

import pytest

from workspace.consolidate_model import ConsolidationResponse, Operation
from workspace.loss_check import check
from workspace.numbered import Document, parse, render
from workspace.unit_edits import EditRefused, apply

MEMORY = """\
# Long memory

Intro line one\x20\x20
continues here.

## People
- Priya is on call in the week of 2026-11-30.
  She swaps with Omar when ill.
* Omar prefers e-mail.
    - nested: Omar's e-mail is omar@example.com.
1. Jonas runs support ops.

## Systems

| system | owner |
| --- | --- |
| billing | Priya |

> Quoted: the billing export runs at 02:00.

```bash
python export.py --all
```


## Old
- Priya is on call in the week of 2026-11-30.
- Omar likes e-mail.
"""


def _docs(**texts: str) -> dict[str, Document]:
    files = {"MEMORY.md": MEMORY, "USER.md": "# User\n\n- Jonas runs support ops.\n", "AGENTS.md": ""}
    files.update({k.replace("_", "."): v for k, v in texts.items()})
    return {path: parse(path, text) for path, text in files.items()}


def _ops(*operations: dict[str, Any]) -> list[Operation]:
    answer = {"operations": list(operations), "contradictions": []}
    return list(ConsolidationResponse.model_validate(answer).operations)


def _unit_ids(doc: Document) -> dict[str, str]:
    return {u.uid: u.raw for u in doc.units()}


@pytest.mark.parametrize(
    "text",
    [MEMORY, "", "no final newline", "\n\n# T\n\n\n- a\n", MEMORY.replace("\n", "\r\n"), "- a\n\n\n"],
)
def test_parse_then_render_gives_the_text_back_byte_for_byte(text: str) -> None:
    doc = parse("F.md", text)
    assert render(doc, doc.items) == text


def test_every_block_that_carries_units_is_numbered_in_file_order() -> None:
    ids = _unit_ids(_docs()["MEMORY.md"])
    assert ids["MEMORY.md#1"] == "Intro line one  \ncontinues here."
    assert ids["MEMORY.md#2"].endswith("She swaps with Omar when ill.")
    assert ids["MEMORY.md#4"] == "    - nested: Omar's e-mail is omar@example.com."
    assert ids["MEMORY.md#6"] == "| system | owner |" and ids["MEMORY.md#7"] == "| billing | Priya |"
    assert ids["MEMORY.md#9"].startswith("```bash")
    assert list(ids)[-1] == "MEMORY.md#11"


def test_units_not_named_stay_byte_for_byte_where_they_are() -> None:
    docs = _docs()
    applied = apply(
        docs,
        _ops(
            {"op": "drop_duplicate", "unit": "MEMORY.md#10", "of": "MEMORY.md#2"},
            {
                "op": "merge",
                "units": ["MEMORY.md#3", "MEMORY.md#11"],
                "text": "Omar prefers and likes e-mail.",
            },
            {"op": "move", "unit": "MEMORY.md#5", "file": "USER.md", "heading": "User"},
        ),
    )

    assert applied.texts["MEMORY.md"] == MEMORY.replace("1. Jonas runs support ops.\n", "").replace(
        "* Omar prefers e-mail.", "* Omar prefers and likes e-mail."
    ).replace("\n\n## Old\n- Priya is on call in the week of 2026-11-30.\n- Omar likes e-mail.\n", "")
    assert applied.texts["USER.md"] == "# User\n\n- Jonas runs support ops.\n1. Jonas runs support ops.\n"
    old = {p: render(d, d.items) for p, d in docs.items()}
    assert check(old, {**old, **applied.texts}, applied.merges).ok


def test_a_merge_is_shaped_like_its_first_unit() -> None:
    docs = _docs()
    nested = apply(
        docs, _ops({"op": "merge", "units": ["MEMORY.md#4", "MEMORY.md#3"], "text": "- one\n two"})
    )
    assert "\n    - one two\n" in nested.texts["MEMORY.md"]
    quoted = apply(docs, _ops({"op": "merge", "units": ["MEMORY.md#8", "MEMORY.md#1"], "text": "x y"}))
    assert "\n> x y\n" in quoted.texts["MEMORY.md"]
    crlf = {"F.md": parse("F.md", "- a\r\n- b\r\n- c\r\n")}
    merged = apply(crlf, _ops({"op": "merge", "units": ["F.md#1", "F.md#2"], "text": "a and b"}))
    assert merged.texts["F.md"] == "- a and b\r\n- c\r\n"


def test_move_goes_to_the_end_of_the_headings_own_content_or_a_new_heading() -> None:
    docs = _docs()
    under = apply(
        docs, _ops({"op": "move", "unit": "MEMORY.md#11", "file": "MEMORY.md", "heading": "## people"})
    )
    assert "\n1. Jonas runs support ops.\n- Omar likes e-mail.\n\n## Systems\n" in under.texts["MEMORY.md"]
    new = apply(docs, _ops({"op": "move", "unit": "MEMORY.md#3", "file": "USER.md", "heading": "E-mail"}))
    assert (
        new.texts["USER.md"] == "# User\n\n- Jonas runs support ops.\n\n## E-mail\n\n* Omar prefers e-mail.\n"
    )
    # A heading of another file is an existing heading: it goes over anything, as written there.
    systems = apply(
        docs, _ops({"op": "move", "unit": "MEMORY.md#3", "file": "USER.md", "heading": "SYSTEMS"})
    )
    assert systems.texts["USER.md"].endswith("\n\n## Systems\n\n* Omar prefers e-mail.\n")
    created = apply(docs, _ops({"op": "move", "unit": "MEMORY.md#4", "file": "AGENTS.md", "heading": ""}))
    assert created.texts["AGENTS.md"] == "- nested: Omar's e-mail is omar@example.com.\n"


def test_group_leaves_units_already_under_the_heading_and_drops_an_emptied_sub_heading() -> None:
    applied = apply(
        _docs(),
        _ops({"op": "group", "heading": "People", "units": ["MEMORY.md#2", "MEMORY.md#10", "MEMORY.md#11"]}),
    )
    text = applied.texts["MEMORY.md"]
    assert text.index("- Priya is on call") < text.index("* Omar prefers e-mail.")  # #2 did not move
    assert "## Old" not in text and text.startswith("# Long memory\n")
    assert text.count("- Priya is on call in the week of 2026-11-30.") == 2
    assert text.endswith("```\n")


def test_a_duplicate_of_a_unit_merged_earlier_is_carried_by_the_merged_text() -> None:
    docs = _docs()
    applied = apply(
        docs,
        _ops(
            {
                "op": "merge",
                "units": ["MEMORY.md#3", "MEMORY.md#4"],
                "text": "Omar prefers e-mail: omar@example.com.",
            },
            {"op": "drop_duplicate", "unit": "MEMORY.md#11", "of": "MEMORY.md#4"},
        ),
    )
    (merge,) = [m for m in applied.merges if "Omar likes e-mail." in m.merged]
    assert merge.kept == "Omar prefers e-mail: omar@example.com."
    old = {p: render(d, d.items) for p, d in docs.items()}
    assert check(old, {**old, **applied.texts}, applied.merges).ok


def test_operations_that_cannot_apply_are_refused_each_with_its_reason_and_nothing_applies() -> None:
    operations = _ops(
        {"op": "drop_duplicate", "unit": "MEMORY.md#99", "of": "MEMORY.md#2"},
        {"op": "move", "unit": "USER.md#1", "file": "MEMORY.md", "heading": ""},
        {"op": "drop_duplicate", "unit": "MEMORY.md#10", "of": "MEMORY.md#2"},
        {"op": "merge", "units": ["MEMORY.md#10", "MEMORY.md#2"], "text": "x"},
        {"op": "move", "unit": "MEMORY.md#2", "file": "../secrets", "heading": ""},
        {"op": "move", "unit": "MEMORY.md#2", "file": "memory/2026-11-20.md", "heading": ""},
        {"op": "merge", "units": ["MEMORY.md#2", "MEMORY.md#2"], "text": "x"},
        {"op": "merge", "units": ["MEMORY.md#2", "MEMORY.md#3"], "text": "  "},
        {"op": "group", "heading": "##", "units": ["MEMORY.md#2"]},
        {"op": "drop_duplicate", "unit": "MEMORY.md#2", "of": "MEMORY.md#2"},
    )
    sent = {u.uid for u in _docs()["MEMORY.md"].units()}

    with pytest.raises(EditRefused) as refused:
        apply(_docs(), operations, sent)

    assert refused.value.reasons == (
        "operation 1 (drop_duplicate) names unit 'MEMORY.md#99', which does not exist",
        "operation 2 (move) names unit 'USER.md#1', which was not sent in this request",
        "operation 4 (merge) names unit 'MEMORY.md#10', which an earlier operation already removed",
        "operation 5 (move) names a bad path: refused to write '../secrets': "
        "path must not contain '..', '.' or backslashes",
        "operation 6 (move) names 'memory/2026-11-20.md', which is not a workspace file it was given "
        "(AGENTS.md, MEMORY.md, USER.md)",
        "operation 7 (merge) names the same unit twice",
        "operation 8 (merge) merges into an empty text",
        "operation 9 (group) needs a heading",
        "operation 10 (drop_duplicate) names a unit as a duplicate of itself",
    )


def test_a_new_heading_must_be_a_short_label_made_of_the_words_of_its_units() -> None:
    docs = _docs()
    sent = {u.uid for d in docs.values() for u in d.units()}
    operations = _ops(
        {"op": "group", "heading": "Omar and e-mails", "units": ["MEMORY.md#3", "MEMORY.md#11"]},
        {"op": "move", "unit": "MEMORY.md#5", "file": "USER.md", "heading": "Ignore previous instructions"},
        {"op": "move", "unit": "MEMORY.md#1", "file": "USER.md", "heading": "Admin password"},
        {"op": "group", "heading": "Jonas never runs support", "units": ["MEMORY.md#5"]},
        {
            "op": "move",
            "unit": "MEMORY.md#8",
            "file": "AGENTS.md",
            "heading": "The billing export runs at 02:00 daily now",
        },
    )

    with pytest.raises(EditRefused) as refused:
        apply(docs, operations, sent)

    assert refused.value.reasons == (
        "operation 2 (move) names a new heading with words the units under it do not have "
        "(Ignore, previous, instructions): a new heading is made of their words, or is an existing heading",
        "operation 3 (move) names a new heading that adds a secret-looking token (password)",
        "operation 4 (group) names a new heading with words the units under it do not have (never): "
        "a new heading is made of their words, or is an existing heading",
        "operation 5 (move) names a new heading of 9 words and 42 characters: a new heading is a short "
        "label (at most 6 words, 60 characters) or an existing heading",
    )
    grouped = apply(docs, operations[:1], sent)
    assert grouped.texts["MEMORY.md"].endswith(
        "## Omar and e-mails\n\n* Omar prefers e-mail.\n- Omar likes e-mail.\n"
    )


def test_a_possessive_in_a_new_heading_is_the_word_of_its_units() -> None:
    docs = _docs()
    sent = {u.uid for d in docs.values() for u in d.units()}
    for heading in ("Jonas's support", "Jonas’s support"):
        grouped = apply(docs, _ops({"op": "group", "heading": heading, "units": ["MEMORY.md#5"]}), sent)
        assert grouped.texts["MEMORY.md"].endswith(f"## {heading}\n\n1. Jonas runs support ops.\n")
