"""The merge rule table, one test per row, on real folders through the library pass."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from skills_engine.merge import decide
from tests.skills_engine.builders import (
    digest_tree,
    fork_on_disk,
    make_skill,
    once,
    pass_entry,
    skill_md,
    skills_config,
)
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

NOTES = "".join(f"note line {i}\n" for i in range(1, 11))
SKILL = skill_md(
    "triage",
    "Triage tickets. Use on new tickets.",
    ["Open the queue", "Label each ticket", "Close duplicates"],
    [("When to use", "On every new ticket."), ("Notes", "Be kind.")],
)
LOGO = b"\x89PNG\x00\x01\x02binary"


def setup(root: Path, url: str | None = None) -> Path:
    config = skills_config(root, url)
    make_skill(root / "packs", "triage", SKILL, {"notes.md": NOTES, "logo.png": LOGO})
    fork_on_disk(config, "triage")
    return config


def ours(root: Path, rel: str) -> Path:
    return root / "ada" / "skills" / "triage" / rel


def theirs(root: Path, rel: str) -> Path:
    return root / "packs" / "triage" / rel


def library(config: Path, key: bool = False, hours: int = 1) -> dict[str, Any]:
    return pass_entry(
        once(
            config, "library_maintenance", key=None if not key else "sk-test-SECRET-0123456789", hours=hours
        ),
        "library_maintenance",
    )


def merged_entry(entry: dict[str, Any]) -> dict[str, Any]:
    assert len(entry["upstream_merges"]) == 1, entry
    result: dict[str, Any] = entry["upstream_merges"][0]
    return result


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_identical_change_on_both_sides_is_taken(root: Path) -> None:
    config = setup(root)
    for side in (ours, theirs):
        edit(side(root, "notes.md"), "note line 5\n", "note line five\n")
    merge = merged_entry(library(config))
    assert merge["outcome"] == "merged" and merge["rules"] == {"notes.md": "identical-change"}
    assert ours(root, "notes.md").read_text() == theirs(root, "notes.md").read_text()


def test_unchanged_here_takes_the_upstream_version(root: Path) -> None:
    config = setup(root)
    edit(theirs(root, "notes.md"), "note line 1\n", "note line one (v2)\n")
    merge = merged_entry(library(config))
    assert merge["rules"] == {"notes.md": "theirs-changed"}
    assert ours(root, "notes.md").read_bytes() == theirs(root, "notes.md").read_bytes()


def test_file_added_upstream_is_kept(root: Path) -> None:
    config = setup(root)
    theirs(root, "checklist.md").write_text("new upstream checklist\n")
    assert merged_entry(library(config))["rules"] == {"checklist.md": "added-upstream"}
    assert ours(root, "checklist.md").read_text() == "new upstream checklist\n"


def test_deleted_upstream_and_unchanged_here_is_deleted(root: Path) -> None:
    config = setup(root)
    theirs(root, "notes.md").unlink()
    assert merged_entry(library(config))["rules"] == {"notes.md": "deleted-upstream"}
    assert not ours(root, "notes.md").exists()
    record = json.loads((root / "ada/skills/triage.provenance.json").read_text())
    assert "notes.md" not in record["copy_files"] and "notes.md" not in record["source_files"]
    assert not (root / "ada/.metaeng/fork-bases/triage/notes.md").exists()


def test_added_or_changed_here_is_kept(root: Path) -> None:
    config = setup(root)
    ours(root, "local.md").write_text("our own checklist\n")
    edit(ours(root, "notes.md"), "note line 2\n", "note line 2, our wording\n")
    edit(theirs(root, "SKILL.md"), "Be kind.", "Be kind and brief.")
    merge = merged_entry(library(config))
    assert merge["rules"] == {
        "local.md": "added-here",
        "notes.md": "ours-changed",
        "SKILL.md": "theirs-changed",
    }
    assert ours(root, "local.md").read_text() == "our own checklist\n"
    assert "our wording" in ours(root, "notes.md").read_text()
    assert "Be kind and brief." in ours(root, "SKILL.md").read_text()


def test_deleted_upstream_and_changed_here_is_kept_and_reported(root: Path) -> None:
    config = setup(root)
    edit(ours(root, "notes.md"), "note line 3\n", "note line 3, improved\n")
    theirs(root, "notes.md").unlink()
    result = once(config, "library_maintenance", key=None, hours=1)
    assert merged_entry(pass_entry(result, "library_maintenance"))["rules"] == {
        "notes.md": "deleted-upstream-changed-here"
    }
    assert "improved" in ours(root, "notes.md").read_text()
    assert "triage/notes.md: deleted upstream changed here" in run_cli(config, "show", result["run_id"]).out


def test_text_changed_on_both_sides_is_merged_line_by_line(root: Path) -> None:
    config = setup(root)
    edit(ours(root, "SKILL.md"), "3. Close duplicates\n", "3. Close duplicates\n4. Tag the customer tier\n")
    edit(theirs(root, "SKILL.md"), "On every new ticket.", "On every new or reopened ticket.")
    assert merged_entry(library(config))["rules"] == {"SKILL.md": "text-merged"}
    text = ours(root, "SKILL.md").read_text()
    assert "4. Tag the customer tier" in text and "On every new or reopened ticket." in text


def conflicting(root: Path) -> None:
    edit(ours(root, "SKILL.md"), "2. Label each ticket", "2. Label each ticket with team and tier")
    edit(theirs(root, "SKILL.md"), "2. Label each ticket", "2. Label each ticket using the new taxonomy")


def test_true_conflict_is_resolved_by_the_deep_model(root: Path, fake_model: FakeModelServer) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    resolved = (
        ours(root, "SKILL.md")
        .read_text()
        .replace(
            "2. Label each ticket with team and tier",
            "2. Label each ticket with team and tier, using the new taxonomy",
        )
    )
    fake_model.reply({"files": [{"path": "SKILL.md", "content": resolved}]}, schema="ConflictResolution")
    entry = library(config, key=True)
    merge = merged_entry(entry)
    assert merge["rules"] == {"SKILL.md": "conflict"} and merge["kept_ours"] == []
    assert entry["files_resolved_by_model"] == 1 and entry["model_calls"] == 1
    assert ours(root, "SKILL.md").read_text() == resolved
    sent = json.loads(fake_model.requests[0]["messages"][1]["content"])
    assert "<<<<<<< ours" in sent["files"][0]["merged"]


def fork_state(root: Path) -> dict[str, str]:
    """The fork, its sidecar and its merge base: what a refused merge must leave as it was."""
    state = digest_tree(root / "ada" / "skills")
    state.update({f"base/{k}": v for k, v in digest_tree(root / "ada/.metaeng/fork-bases").items()})
    return state


def resolution(root: Path) -> str:
    return (
        ours(root, "SKILL.md")
        .read_text()
        .replace(
            "2. Label each ticket with team and tier",
            "2. Label each ticket with team and tier, using the new taxonomy",
        )
    )


@pytest.mark.slow
def test_refused_resolution_keeps_the_fork_pending_and_a_good_answer_merges_next_pass(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    before = fork_state(root)
    bad = ours(root, "SKILL.md").read_text() + "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n"
    fake_model.reply({"files": [{"path": "SKILL.md", "content": bad}]}, schema="ConflictResolution")
    result = once(config, "library_maintenance", hours=1)
    entry = pass_entry(result, "library_maintenance")
    merge = merged_entry(entry)
    assert merge["outcome"] == "pending" and merge["kept_ours"] == ["SKILL.md"]
    assert merge["reason"] == (
        "the model's resolution was refused, nothing merged (asked again next pass): "
        "SKILL.md: the model's answer contains conflict markers"
    )
    assert entry["pending"] == [f"upstream merge of triage: {merge['reason']}"]
    assert entry["model_calls"] == 1 and entry["files_resolved_by_model"] == 0
    # Base snapshot, hashes and copy untouched: the upstream change is not lost, only postponed.
    assert fork_state(root) == before
    rows = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    assert next(r for r in rows if r["source"] == "learned")["status"] == "drifted"
    # The next pass asks again; a good answer merges and resets the base to the new original.
    good = resolution(root)
    fake_model.reply({"files": [{"path": "SKILL.md", "content": good}]}, schema="ConflictResolution")
    again = merged_entry(library(config, key=True, hours=2))
    assert again["outcome"] == "merged" and again["rules"] == {"SKILL.md": "conflict"}
    assert ours(root, "SKILL.md").read_text() == good
    base = (root / "ada/.metaeng/fork-bases/triage/SKILL.md").read_bytes()
    assert base == theirs(root, "SKILL.md").read_bytes()
    assert library(config, key=True, hours=3)["upstream_merges"] == []


def test_model_answer_that_fails_the_guard_keeps_the_fork_pending(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    before = fork_state(root)
    fake_model.reply(
        {"files": [{"path": "SKILL.md", "content": "---\nname: triage\ndescription: d\n---\n1. Label\n"}]},
        schema="ConflictResolution",
    )
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending" and merge["kept_ours"] == ["SKILL.md"]
    assert "fails the preservation guard" in merge["reason"]
    assert fork_state(root) == before


def test_model_answer_that_changes_what_a_side_says_keeps_the_fork_pending(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    before = fork_state(root)
    flipped = resolution(root).replace("2. Label each ticket", "2. Never label each ticket")
    fake_model.reply({"files": [{"path": "SKILL.md", "content": flipped}]}, schema="ConflictResolution")
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending"
    assert (
        "SKILL.md: the model's answer does not keep what each side says: adds negation “not”"
        in merge["reason"]
    )
    assert fork_state(root) == before


def test_model_answer_that_is_our_side_unchanged_keeps_the_fork_pending(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    before = fork_state(root)
    just_ours = ours(root, "SKILL.md").read_text()  # upstream's "using the new taxonomy" has no token
    fake_model.reply({"files": [{"path": "SKILL.md", "content": just_ours}]}, schema="ConflictResolution")
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending"
    assert "SKILL.md: the model's answer does not keep what each side says: drops word" in merge["reason"]
    assert "word “taxonomy”" in merge["reason"]
    assert fork_state(root) == before


BLAMELESS = "Keep it blameless: describe systems and decisions, not people."


def test_model_answer_that_trades_a_removed_negation_for_an_added_one_keeps_the_fork_pending(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    make_skill(root / "packs", "triage", SKILL.replace("Be kind.", BLAMELESS))
    fork_on_disk(config, "triage")
    edit(ours(root, "SKILL.md"), BLAMELESS, BLAMELESS + " Never share it outside #ops.")
    edit(theirs(root, "SKILL.md"), BLAMELESS, "Name the people involved and describe their decisions.")
    before = fork_state(root)
    answer = (
        ours(root, "SKILL.md")
        .read_text()
        .replace(
            BLAMELESS + " Never share it outside #ops.",
            "Name the people involved and describe their decisions. Share it outside #ops.",
        )
    )
    fake_model.reply({"files": [{"path": "SKILL.md", "content": answer}]}, schema="ConflictResolution")
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending"
    assert "does not keep what each side says: drops negation “not”" in merge["reason"]
    assert fork_state(root) == before


def test_model_answer_that_drops_an_upstream_flag_change_keeps_the_fork_pending(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    edit(
        ours(root, "SKILL.md"),
        "Be kind.",
        "Run the timeline script with --dry-run first, then check the log.",
    )
    edit(theirs(root, "SKILL.md"), "Be kind.", "Run the timeline script with --force.")
    before = fork_state(root)
    answer = ours(root, "SKILL.md").read_text()
    fake_model.reply({"files": [{"path": "SKILL.md", "content": answer}]}, schema="ConflictResolution")
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending"
    assert "does not keep what each side says: drops flag “--force”" in merge["reason"]
    assert fork_state(root) == before


EXAMPLE = "A conflicted file looks like this:\n\n```\n<<<<<<< HEAD\nour line\n=======\ntheir line\n>>>>>>> branch\n```"


def test_a_skill_that_shows_conflict_markers_as_an_example_can_be_resolved_by_the_model(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    make_skill(root / "packs", "triage", SKILL.replace("Be kind.", EXAMPLE))
    fork_on_disk(config, "triage")
    conflicting(root)
    leftover = resolution(root) + "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n"
    fake_model.reply({"files": [{"path": "SKILL.md", "content": leftover}]}, schema="ConflictResolution")
    refused = merged_entry(library(config, key=True))
    assert refused["outcome"] == "pending" and "contains conflict markers" in refused["reason"]
    good = resolution(root)
    fake_model.reply({"files": [{"path": "SKILL.md", "content": good}]}, schema="ConflictResolution")
    merge = merged_entry(library(config, key=True, hours=2))
    assert merge["outcome"] == "merged", merge
    assert ours(root, "SKILL.md").read_text() == good


def test_invalid_model_answer_keeps_the_fork_pending(root: Path, fake_model: FakeModelServer) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    before = fork_state(root)
    fake_model.reply({"files": [{"path": "SKILL.md"}]}, schema="ConflictResolution")
    merge = merged_entry(library(config, key=True))
    assert merge["outcome"] == "pending" and "SKILL.md: model answer invalid" in merge["reason"]
    assert fork_state(root) == before


def test_conflict_without_a_model_is_pending_and_changes_nothing(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup(root, fake_model.url)
    conflicting(root)
    home_before = digest_tree(root / "ada")
    entry = library(config, key=False)
    assert entry["status"] == "skipped" and merged_entry(entry)["outcome"] == "pending"
    assert entry["reason"].startswith("0 library change(s) planned, 1 pending: "), entry["reason"]
    assert any("true conflict in SKILL.md needs the deep model" in p for p in entry["pending"])
    assert digest_tree(root / "ada") == home_before
    rows = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    assert next(r for r in rows if r["source"] == "learned")["status"] == "drifted"


def test_binary_changed_on_both_sides_keeps_ours_and_reports(root: Path) -> None:
    config = setup(root)
    ours(root, "logo.png").write_bytes(LOGO + b"\x00ours")
    theirs(root, "logo.png").write_bytes(LOGO + b"\x00theirs")
    assert merged_entry(library(config))["rules"] == {"logo.png": "binary-both-changed"}
    assert ours(root, "logo.png").read_bytes() == LOGO + b"\x00ours"


def test_deleted_here_and_changed_upstream_restores_theirs() -> None:
    decision = decide("a.md", b"base\n", None, b"changed\n")
    assert (decision.rule, decision.result, decision.reported) == (
        "deleted-here-changed-upstream",
        b"changed\n",
        True,
    )


@pytest.mark.parametrize(
    ("b", "o", "t", "rule", "result"),
    [
        (b"x", b"x", b"x", "same", b"x"),
        (None, None, b"new", "added-upstream", b"new"),
        (b"x", None, None, "identical-change", None),
        (None, b"a\n", b"b\n", "conflict", b"a\n"),
    ],
)
def test_decide_rows(
    b: bytes | None, o: bytes | None, t: bytes | None, rule: str, result: bytes | None
) -> None:
    decision = decide("f.md", b, o, t)
    assert (decision.rule, decision.result) == (rule, result)


def test_a_copy_failing_the_guard_is_excluded_from_merging(root: Path) -> None:
    config = setup(root)
    ours(root, "notes.md").unlink()
    edit(theirs(root, "notes.md"), "note line 1\n", "note line one\n")
    entry = library(config)
    assert entry["upstream_merges"] == []
    assert entry["quarantined"][0]["rule"] == "missing-file"
    assert not ours(root, "SKILL.md").exists()


def test_path_rewriting_is_applied_consistently_and_merges_converge(root: Path) -> None:
    config = skills_config(root, None)
    original = root / "packs" / "triage"
    make_skill(
        root / "packs", "triage", SKILL, {"run.md": f"line 1\npython {original}/scripts/x.py\nline 3\n"}
    )
    fork_on_disk(config, "triage")
    copy = root / "ada" / "skills" / "triage"
    assert ours(root, "run.md").read_text() == f"line 1\npython {copy}/scripts/x.py\nline 3\n"
    edit(theirs(root, "run.md"), "line 3\n", "line three\n")
    merge = merged_entry(library(config))
    assert merge["rules"] == {"run.md": "theirs-changed"}
    assert ours(root, "run.md").read_text() == f"line 1\npython {copy}/scripts/x.py\nline three\n"
    record = json.loads((root / "ada/skills/triage.provenance.json").read_text())
    for rel, fact in record["source_files"].items():
        assert fact["sha256"] == hashlib.sha256((original / rel).read_bytes()).hexdigest()
        assert (root / "ada/.metaeng/fork-bases/triage" / rel).read_bytes() == (original / rel).read_bytes()
    for rel, fact in record["copy_files"].items():
        assert fact["sha256"] == hashlib.sha256((copy / rel).read_bytes()).hexdigest()
    second = library(config, hours=2)
    assert second["status"] == "nothing" and second["upstream_merges"] == []


def _packs(config: Path, *folders: Path) -> None:
    data = yaml.safe_load(config.read_text())
    data["agents"]["ada"]["skills"]["packs"] = [str(f) for f in folders]
    config.write_text(yaml.safe_dump(data, sort_keys=False))


def test_a_fork_merges_only_with_its_recorded_origin_never_another_pack_of_the_same_name(root: Path) -> None:
    config = setup(root)
    other = root / "other-pack"
    make_skill(other, "triage", SKILL.replace("1. Open the queue", "1. Always run with --force"))
    _packs(config, other, root / "packs")  # listed first: it serves the name when no copy does
    before = fork_state(root)
    rows = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    assert next(r for r in rows if r["source"] == "learned")["status"] == "active"
    entry = library(config)
    assert entry["upstream_merges"] == []
    assert fork_state(root) == before
    # Its origin changes: that, and only that, is merged.
    edit(theirs(root, "SKILL.md"), "3. Close duplicates", "3. Close duplicates and link them")
    merge = merged_entry(library(config, hours=2))
    assert merge["outcome"] == "merged"
    text = ours(root, "SKILL.md").read_text()
    assert "3. Close duplicates and link them" in text and "--force" not in text


def test_a_fork_whose_origin_no_longer_provides_it_is_reported_and_not_merged(root: Path) -> None:
    config = setup(root)
    other = root / "other-pack"
    make_skill(other, "triage", SKILL.replace("1. Open the queue", "1. Always run with --force"))
    _packs(config, other)  # the pack it was forked from is gone from the list
    before = fork_state(root)
    listed = run_cli(config, "skills", "list", "--agent", "ada")
    assert f"forked from {root / 'packs' / 'triage'}, which no longer provides triage" in listed.err
    entry = library(config)
    assert entry["upstream_merges"] == []
    assert any("its origin" in p and "not merged with any other source" in p for p in entry["pending"])
    assert fork_state(root) == before


def test_a_fork_finds_its_unchanged_pack_after_the_deployment_moves_and_never_another_vendors(
    root: Path,
) -> None:
    # Recorded origins are absolute. A deployment moved (to /srv, say) keeps byte-identical
    # packs: the fork still has its upstream. Another vendor's pack laid out the same way
    # (<vendor>/skills/<name>) is not its upstream, and an upstream that changed while it
    # moved is reported as gone, never merged blind.
    config = setup(root)
    moved = root / "srv" / "packs"
    moved.parent.mkdir()
    (root / "packs").rename(moved)
    _packs(config, moved)
    before = fork_state(root)
    listed = run_cli(config, "skills", "list", "--agent", "ada")
    assert "no longer provides" not in listed.err
    assert library(config)["upstream_merges"] == [] and fork_state(root) == before

    vendor = root / "vendor-b" / "packs"
    make_skill(vendor, "triage", SKILL.replace("1. Open the queue", "1. Always run with --force"))
    _packs(config, vendor)
    listed = run_cli(config, "skills", "list", "--agent", "ada")
    assert "which no longer provides triage" in listed.err
    entry = library(config, hours=2)
    assert entry["upstream_merges"] == [] and fork_state(root) == before
    assert "--force" not in ours(root, "SKILL.md").read_text()
