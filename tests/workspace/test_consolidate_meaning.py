"""A consolidation whose declared merge changes what a sentence says is rejected whole, through `once --json`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer
from tests.workspace.ada import MEMORY_NEW, MERGES, USER_NEW, clock, consolidation_answer, copy_example

PASS = ("--pass", "workspace_consolidation")


def _entry(config: Path) -> dict[str, Any]:
    result = run_cli(config, "once", "--agent", "ada", *PASS, "--json", clock=clock)
    assert result.code == 0, result.err
    entry: dict[str, Any] = next(p for p in result.json()["passes"] if p["name"] == "workspace_consolidation")
    return entry


def _memory_flip(old: str, new: str) -> tuple[str, dict[str, Any]]:
    """MEMORY.md gains the line `old`; the model answers it merged into `new`."""
    answer = consolidation_answer(merges=[*MERGES, {"kept": new, "merged": [old]}])
    for item in answer["files"]:
        if item["path"] == "MEMORY.md":
            item["content"] = MEMORY_NEW + f"- {new}\n"
    return old, answer


def _prefers_to_hates() -> tuple[str, dict[str, Any]]:
    flipped = "Jonas hates bullet points; use prose."
    merges = [m for m in MERGES if m["kept"] != "Jonas prefers bullet points over prose."]
    merges.append(
        {"kept": flipped, "merged": ["Jonas likes bullet points.", "Jonas prefers bullet points over prose."]}
    )
    answer = consolidation_answer(merges=merges)
    for item in answer["files"]:
        if item["path"] == "USER.md":
            item["content"] = USER_NEW.replace("Jonas prefers bullet points over prose.", flipped)
    return "Jonas likes bullet points.", answer


CASES = {
    "allergic-to-not-allergic": (
        _memory_flip("Jonas is allergic to peanuts.", "Jonas is not allergic to peanuts."),
        "adds negation “not”",
    ),
    "three-to-four": (
        _memory_flip(
            "The support team has three on-call engineers.", "The support team has four on-call engineers."
        ),
        "drops number “3”",
    ),
    "email-to-host": (
        _memory_flip("Send vendor invoices to billing@acme.com.", "Send vendor invoices to acme.co."),
        "drops email “billing@acme.com”",
    ),
    "prefers-to-hates": (_prefers_to_hates(), "adds negation “not”"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_declared_merge_that_changes_meaning_rejects_the_rewrite_and_writes_nothing(
    tmp_path: Path, fake_model: FakeModelServer, case: str
) -> None:
    (old, answer), why = CASES[case]
    config = copy_example(tmp_path, fake_model.url, instruction_hold=False)
    home = config.parent / "ada"
    memory = home / "MEMORY.md"
    if old not in memory.read_text() and old not in (home / "TOOLS.md").read_text():
        memory.write_text(memory.read_text() + f"- {old}\n")
    before = tree_snapshot(home)
    fake_model.reply(answer, schema="ConsolidationResponse")

    entry = _entry(config)

    assert entry["status"] == "nothing" and entry["rewrite"] == "rejected"
    lost = {u["text"]: u["reason"] for u in entry["lost_units"]}
    assert old in lost and why in lost[old]
    if case == "prefers-to-hates":  # both sentences merged into the flipped one are lost
        assert set(lost) == {old, "Jonas prefers bullet points over prose."}
    else:
        assert list(lost) == [old]
    assert "nothing written" in entry["reason"]
    assert tree_snapshot(home) == before


def test_the_same_rewrite_with_the_meaning_kept_applies(tmp_path: Path, fake_model: FakeModelServer) -> None:
    config = copy_example(tmp_path, fake_model.url, instruction_hold=False)
    home = config.parent / "ada"
    memory = home / "MEMORY.md"
    memory.write_text(memory.read_text() + "- Jonas is allergic to peanuts.\n")
    (_old, answer) = _memory_flip(
        "Jonas is allergic to peanuts.", "Jonas has a peanut allergy: he is allergic to peanuts."
    )
    fake_model.reply(answer, schema="ConsolidationResponse")

    entry = _entry(config)

    assert entry["lost_units"] == [] and entry["rewrite"] != "rejected"
    assert "Jonas has a peanut allergy: he is allergic to peanuts." in memory.read_text()
