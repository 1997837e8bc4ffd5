from __future__ import annotations

import json
from typing import Any

from daemon.kernel.settings import ModelSettings
from workspace.consolidate_requests import Layout, plan_layout, request_bytes
from workspace.numbered import parse
from workspace.roles import WorkspaceFile


def _model(limit: int, mode: Any = "json_schema") -> ModelSettings:
    return ModelSettings(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        price_input_per_million=0,
        price_output_per_million=0,
        max_input_bytes=limit,
        structured_output=mode,
    )


def _layout(limit: int, mode: Any = "json_schema", **texts: str) -> Layout:
    files = [WorkspaceFile(name.replace("_", "."), "long_memory", text) for name, text in texts.items()]
    docs = {f.path: parse(f.path, f.text or "") for f in files}
    return plan_layout(files, docs, _model(limit, mode))


def _sent(layout: Layout) -> list[str]:
    return [uid for r in layout.requests for p in r.pieces for uid in p.uids]


def _sections(count: int, notes: int) -> str:
    lines = ["# Memory", ""]
    for s in range(count):
        lines += [
            f"## Section {s}",
            "",
            *(f"- Section {s} note {n}: the job ran {n} times." for n in range(notes)),
            "",
        ]
    return "\n".join(lines)


def test_files_that_fit_together_go_in_one_request() -> None:
    layout = _layout(120_000, USER_md="# User\n\n- Jonas runs ops.\n", MEMORY_md="- A fact.\n- Another.\n")

    (request,) = layout.requests
    assert request.files == ["USER.md", "MEMORY.md"] and request.uids == {
        "USER.md#1",
        "MEMORY.md#1",
        "MEMORY.md#2",
    }
    body = json.loads(request.user.removeprefix("<workspace_files>\n").removesuffix("\n</workspace_files>"))
    assert [f["complete"] for f in body["files"]] == [True, True]
    assert body["units"]["USER.md"] == ["# User", [1, "- Jonas runs ops."]]
    assert request.size == request_bytes(_model(120_000), request.user) <= 120_000


def test_a_large_file_is_cut_at_its_sections_and_each_request_stays_within_the_limit() -> None:
    text = _sections(60, 12)
    layout = _layout(12_000, MEMORY_md=text)

    assert len(layout.requests) > 3 and not layout.too_large
    assert all(r.size <= 12_000 for r in layout.requests)
    assert _sent(layout) == [f"MEMORY.md#{n}" for n in range(1, 60 * 12 + 1)]  # each once, in order
    for request in layout.requests:
        body = json.loads(
            request.user.removeprefix("<workspace_files>\n").removesuffix("\n</workspace_files>")
        )
        assert body["files"][0]["complete"] is False
        # Whole sections: every piece starts at its heading and holds all 12 notes of it.
        assert all(p.items[0].kind == "heading" and len(p.uids) == 12 for p in request.pieces)


def test_a_section_larger_than_a_request_is_cut_into_runs_under_its_heading() -> None:
    layout = _layout(8_000, MEMORY_md=_sections(1, 200))

    assert len(layout.requests) > 2 and all(r.size <= 8_000 for r in layout.requests)
    assert len(_sent(layout)) == 200
    later = layout.requests[1].pieces[0]
    assert [h.raw for h in later.context] == ["# Memory", "## Section 0"]


def test_a_unit_no_request_can_hold_is_left_as_it_is_and_reported() -> None:
    huge = "- " + "word " * 3000
    layout = _layout(10_000, MEMORY_md=f"- small one\n{huge}\n- small two\n")

    assert layout.too_large == ("MEMORY.md#2",)
    assert _sent(layout) == ["MEMORY.md#1", "MEMORY.md#3"]


def test_the_size_counts_the_schema_in_the_system_message_for_json_object_servers() -> None:
    text = "- A fact.\n"
    strict = _layout(120_000, MEMORY_md=text).requests[0]
    grammar = _layout(120_000, "json_object", MEMORY_md=text).requests[0]

    assert grammar.size > strict.size
    assert _layout(1_000, MEMORY_md=text).capacity < 0  # instructions and schema alone exceed it
