from __future__ import annotations

from pathlib import Path

import pytest

from skills_engine import preservation_guard, provenance
from skills_engine.provenance import Provenance
from tests.skills_engine.builders import (
    NOW,
    add_turns,
    fork_on_disk,
    make_skill,
    once,
    pass_entry,
    skill_md,
    skills_config,
)
from tests.support.deploy import run_cli, tree_snapshot

BIG = "x" * 600 + "\n"
ORIGINAL = skill_md(
    "triage",
    "Triage. Use on new tickets.",
    ["One", "Two"],
    [("When to use", "Always."), ("Notes", "n"), ("Extra", "e"), ("Refs", "r")],
)


def record_for(files: dict[str, bytes], machine_written: bool = True, kind: str = "fork") -> Provenance:
    return Provenance(
        name="triage",
        kind=kind,
        created_at=NOW.isoformat(),
        machine_written=machine_written,  # type: ignore[arg-type]
        copy_files=provenance.facts(files),
        headings=preservation_guard.skill_headings(files["SKILL.md"].decode()),
    )


START = {"SKILL.md": ORIGINAL.encode(), "big.md": BIG.encode(), "small.md": b"tiny file\n" * 10}


def test_a_copy_like_its_start_passes() -> None:
    assert preservation_guard.check_copy(record_for(START), START) == []


def test_missing_file_fails() -> None:
    files = {k: v for k, v in START.items() if k != "small.md"}
    assert [f.rule for f in preservation_guard.check_copy(record_for(START), files)] == ["missing-file"]


def test_text_file_below_half_its_starting_size_fails() -> None:
    files = {**START, "big.md": b"x" * 299}
    failures = preservation_guard.check_copy(record_for(START), files)
    assert [f.rule for f in failures] == ["text-shrunk"]
    assert "big.md fell from 601 to 299 bytes" in failures[0].detail


def test_exactly_half_and_small_files_are_exempt() -> None:
    files = {**START, "big.md": b"x" * 301, "small.md": b"."}
    assert preservation_guard.check_copy(record_for(START), files) == []


def test_binary_files_are_not_judged_by_size() -> None:
    start = {**START, "logo.bin": b"\x00" * 1000}
    assert preservation_guard.check_copy(record_for(start), {**start, "logo.bin": b"\x00"}) == []


@pytest.mark.parametrize(
    ("kept", "fails"), [(["Steps", "When to use", "Notes"], False), (["Steps", "When to use"], True)]
)
def test_more_than_a_third_of_the_headings_lost_fails(kept: list[str], fails: bool) -> None:
    # The original has 6 headings (title, Steps, When to use, Notes, Extra, Refs): losing 2 is a third (passes), losing 3 is more (fails).
    body = "\n".join(f"## {h}\nx" for h in ["triage", *kept])
    text = "---\nname: triage\ndescription: d\n---\n" + body + "\n" + "pad " * 200
    failures = preservation_guard.check_copy(record_for(START), {**START, "SKILL.md": text.encode()})
    assert ("headings-lost" in [f.rule for f in failures]) is fails


def test_hand_written_and_created_skills_are_never_judged() -> None:
    assert preservation_guard.check_copy(record_for(START, machine_written=False), {}) == []
    assert preservation_guard.check_copy(record_for(START, kind="created"), {}) == []


def damaged_fork(root: Path, fake_url: str | None = None) -> Path:
    config = skills_config(root, fake_url)
    make_skill(root / "packs", "triage", ORIGINAL + BIG, {"templates/t.md": BIG})
    fork_on_disk(config, "triage")
    (root / "ada/skills/triage/templates/t.md").write_text("short\n")
    return config


def test_skills_check_quarantines_a_failing_fork_and_the_original_serves_again(root: Path) -> None:
    config = damaged_fork(root)
    listing = {
        (r["name"], r["source"]): r
        for r in run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    }
    assert listing[("triage", "learned")]["status"] == "quarantined"
    assert listing[("triage", "pack")]["status"] == "active"
    checked = run_cli(config, "skills", "check", "--agent", "ada", "--json")
    assert checked.code == 0, checked.err
    report = checked.json()
    assert report["quarantined"] == [
        {
            "name": "triage",
            "rule": "text-shrunk",
            "detail": "templates/t.md fell from 601 to 6 bytes (below half)",
        }
    ]
    assert report["ok"] == [] and report["run_id"]
    assert not (root / "ada/skills/triage").exists()
    assert not (root / "ada/skills/triage.provenance.json").exists()
    moved = root / "ada/.metaeng/skill-quarantine/triage"
    assert (moved / "skill/templates/t.md").read_text() == "short\n"
    assert (moved / "provenance.json").exists() and (moved / "quarantine.json").exists()
    rows = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    assert {(r["source"], r["status"], r["shadows"]) for r in rows if r["name"] == "triage"} == {
        ("learned", "quarantined", None),
        ("pack", "active", None),
    }
    # The quarantine is a run: undo puts the copy back where it was.
    assert run_cli(config, "undo", report["run_id"]).code == 0
    assert (root / "ada/skills/triage/templates/t.md").read_text() == "short\n"
    assert not moved.exists()


def test_skills_check_with_nothing_failing_makes_no_run(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "triage", ORIGINAL)
    fork_on_disk(config, "triage")
    report = run_cli(config, "skills", "check", "--agent", "ada", "--json").json()
    assert report == {"quarantined": [], "ok": ["triage"], "unreadable": [], "run_id": None}
    assert run_cli(config, "runs", "--json").json() == []


@pytest.mark.parametrize("damage", ["deleted", "overwritten"])
def test_a_fork_whose_skill_md_is_deleted_or_broken_is_quarantined(root: Path, damage: str) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "triage", ORIGINAL + BIG, {"templates/t.md": "template\n"})
    fork_on_disk(config, "triage")
    copy = root / "ada/skills/triage/SKILL.md"
    if damage == "deleted":
        copy.unlink()
    else:
        copy.write_text("oops\n")
    listing = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    assert {(r["source"], r["status"]) for r in listing} == {("learned", "quarantined"), ("pack", "active")}
    checked = run_cli(config, "skills", "check", "--agent", "ada")
    assert checked.code == 0, checked.err
    rule = "missing-file" if damage == "deleted" else "text-shrunk"
    assert f"quarantined triage ({rule}:" in checked.out
    assert "ok: none" in checked.out and "passes the guard" not in checked.out
    assert not (root / "ada/skills/triage").exists()
    assert (root / "ada/.metaeng/skill-quarantine/triage/quarantine.json").exists()
    status = run_cli(config, "status", "--agent", "ada").out
    assert "quarantined skills: triage" in status


def test_a_fork_with_a_malformed_skill_md_that_passes_the_guard_is_reported_not_ok(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "triage", ORIGINAL)
    fork_on_disk(config, "triage")
    copy = root / "ada/skills/triage/SKILL.md"
    copy.write_text(copy.read_text().replace("name: triage", "name: Not A Name"))
    before = tree_snapshot(root / "ada")
    checked = run_cli(config, "skills", "check", "--agent", "ada")
    assert checked.code == 0
    assert "skipped triage: its SKILL.md cannot be parsed" in checked.out
    assert "warning:" in checked.err and "skill skipped" in checked.err
    assert run_cli(config, "skills", "check", "--agent", "ada", "--json").json() == {
        "quarantined": [],
        "ok": [],
        "unreadable": ["triage"],
        "run_id": None,
    }
    assert tree_snapshot(root / "ada") == before


def test_hand_written_learned_skill_is_never_quarantined(root: Path) -> None:
    config = damaged_fork(root)
    (root / "ada/skills/triage.provenance.json").unlink()  # a person took ownership
    before = tree_snapshot(root / "ada")
    report = run_cli(config, "skills", "check", "--agent", "ada", "--json").json()
    assert report == {"quarantined": [], "ok": [], "unreadable": [], "run_id": None}
    assert tree_snapshot(root / "ada") == before
    rows = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    assert {(r["source"], r["status"]) for r in rows} == {("learned", "active"), ("pack", "shadowed")}


def test_without_a_model_once_still_runs_the_guard_and_keeps_the_turns(root: Path) -> None:
    config = damaged_fork(root)
    add_turns(root / "ada", 5)
    result = once(config, "skill_learning")
    entry = pass_entry(result, "skill_learning")
    assert entry["status"] == "applied" and "scout skipped: no model configured" in entry["reason"]
    assert entry["quarantined"][0]["name"] == "triage"
    shown = run_cli(config, "show", result["run_id"]).out
    assert "quarantined triage (text-shrunk: templates/t.md fell from 601 to 6 bytes" in shown
    assert (root / "ada/.metaeng/skill-quarantine/triage/quarantine.json").exists()
    # The scout's turns were not consumed: the next cycle reads the same five turns.
    assert pass_entry(once(config, "skill_learning", hours=1), "skill_learning")["turns"] == 5


def test_quarantined_names_reports_moved_and_pending_copies(root: Path) -> None:
    from skills_engine.inventory import quarantined_names
    from tests.skills_engine.builders import agent_settings

    config = damaged_fork(root)
    agent = agent_settings(config)
    before = tree_snapshot(root / "ada")
    assert quarantined_names(agent) == ["triage"]
    assert tree_snapshot(root / "ada") == before
    run_cli(config, "skills", "check", "--agent", "ada")
    assert quarantined_names(agent) == ["triage"]
