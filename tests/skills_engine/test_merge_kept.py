"""A conflict resolution keeps what both sides kept: headings, steps and sentences (issue 33)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.skills_engine.builders import fork_on_disk, make_skill, skills_config
from tests.skills_engine.test_merge import (
    SKILL,
    conflicting,
    edit,
    fork_state,
    library,
    merged_entry,
    ours,
    resolution,
    setup,
    theirs,
)
from tests.support.fake_model import FakeModelServer

NOTES = "\n## Notes\nBe kind.\n"


def answer(fake_model: FakeModelServer, content: str) -> None:
    fake_model.reply({"files": [{"path": "SKILL.md", "content": content}]}, schema="ConflictResolution")


@pytest.mark.parametrize(
    ("left_out", "reason"),
    [
        (NOTES, "section “Notes”, sentence “Be kind.”"),
        ("3. Close duplicates\n", "step “Close duplicates”"),
    ],
)
def test_a_resolution_that_leaves_out_what_every_side_holds_keeps_the_fork_pending(
    root: Path, fake_model: FakeModelServer, left_out: str, reason: str
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    before = fork_state(root)
    good = resolution(root)
    assert left_out in good
    answer(fake_model, good.replace(left_out, ""))
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending" and merge["kept_ours"] == ["SKILL.md"]
    assert merge["reason"] == (
        "the model's resolution was refused, nothing merged (asked again next pass): "
        f"SKILL.md: the model's answer drops what both sides kept: {reason}"
    )
    assert fork_state(root) == before


def test_a_resolution_that_drops_a_sentence_every_side_holds_beside_one_side_changed_keeps_the_fork_pending(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    make_skill(root / "packs", "triage", SKILL.replace("Be kind.", "Be kind. Use plain words."))
    fork_on_disk(config, "triage")
    conflicting(root)
    edit(theirs(root, "SKILL.md"), "Use plain words.", "Use plain words. Thank the reporter.")
    before = fork_state(root)
    answer(fake_model, resolution(root).replace("Use plain words.", "Thank the reporter."))
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending"
    assert merge["reason"].endswith("drops what both sides kept: sentence “Use plain words.”")
    assert fork_state(root) == before
    answer(fake_model, resolution(root).replace("Use plain words.", "Use plain words. Thank the reporter."))
    assert merged_entry(library(config, key=True, hours=2))["outcome"] == "merged"


def test_a_resolution_that_takes_one_sides_rewrite_of_a_section_merges(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    edit(theirs(root, "SKILL.md"), "Be kind.", "Stay polite.")
    good = resolution(root).replace("Be kind.", "Stay polite.")
    answer(fake_model, good)
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "merged", merge["reason"]
    assert ours(root, "SKILL.md").read_text() == good


def test_a_resolution_that_drops_a_section_one_side_deleted_and_the_other_left_alone_merges(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    edit(theirs(root, "SKILL.md"), NOTES, "")
    good = resolution(root).replace(NOTES, "")
    answer(fake_model, good)
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "merged", merge["reason"]
    assert "## Notes" not in ours(root, "SKILL.md").read_text()


def test_a_resolution_that_joins_the_conflicting_steps_and_moves_a_section_merges(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    moved = resolution(root).replace(NOTES, "").replace("## Steps", "## Notes\nBe kind.\n\n## Steps")
    answer(fake_model, moved)
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "merged", merge["reason"]
    assert ours(root, "SKILL.md").read_text() == moved


def test_a_resolution_of_a_script_keeps_every_line_both_sides_kept(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    make_skill(
        root / "packs",
        "triage",
        SKILL,
        {"run.sh": "echo starting\nfetch --queue triage\nlabel --all\nexit 0\n"},
    )
    fork_on_disk(config, "triage")
    edit(ours(root, "run.sh"), "label --all", "label --all --team")
    edit(theirs(root, "run.sh"), "label --all", "label --all --taxonomy v2")
    before = fork_state(root)
    joined = "fetch --queue triage\nlabel --all --team --taxonomy v2\nexit 0\n"
    fake_model.reply({"files": [{"path": "run.sh", "content": joined}]}, schema="ConflictResolution")
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending"
    assert merge["reason"].endswith(
        "run.sh: the model's answer drops what both sides kept: line “echo starting”"
    )
    assert fork_state(root) == before
    fake_model.reply(
        {"files": [{"path": "run.sh", "content": "echo starting\n" + joined}]}, schema="ConflictResolution"
    )
    assert merged_entry(library(config, key=True, hours=2))["outcome"] == "merged"
