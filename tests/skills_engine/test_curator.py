"""The skill curator through the CLI: stale, archived with consent, restored, pinned, never lost."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from skills_engine.provenance import Provenance, sidecar_write
from tests.skills_engine.builders import make_skill, skill_md, skills_config
from tests.support.deploy import run_cli, tree_snapshot

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
LEARNED_AT = "2026-06-01T10:00:00+00:00"


def clock() -> datetime:
    return NOW


def learned(home: Path, name: str, created_at: str = LEARNED_AT, machine: bool = True) -> None:
    make_skill(home / "skills", name, skill_md(name, description=f"Handle {name.replace('-', ' ')}. Use when asked."))
    if machine:
        record = Provenance(name=name, kind="created", created_at=created_at)
        write = sidecar_write("skills", record)
        (home / write.path).write_bytes(write.content)


def usage(root: Path, sessions: int, used: dict[str, tuple[str, int]] | None = None) -> None:
    """The agent's usage record: `sessions` sessions seen since June; `used`: name → (last use, mark)."""
    skills = {
        name: {"count": 3, "sessions": 2, "first": last, "last": last, "last_session": "s", "last_turn": "t@0", "mark": mark}
        for name, (last, mark) in (used or {}).items()
    }
    record = {"version": 1, "sessions_seen": sessions, "sessions_by_day": {"2026-06-02": sessions}, "skills": skills,
              "facts_view": {}, "hook_context": {}, "sources": {}}
    path = root / "state" / "agents" / "ada" / "usage.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))


@pytest.fixture
def library(tmp_path: Path) -> dict[str, Any]:
    """Ten learned skills (eight the daemon's, one a person's, one recently used), 100 sessions seen."""
    config = skills_config(tmp_path, None)
    home = tmp_path / "ada"
    for n in range(8):
        learned(home, f"idle-{n}")
    learned(home, "by-hand", machine=False)
    learned(home, "busy")
    usage(tmp_path, 100, {"busy": ("2026-11-19T09:00:00+00:00", 99)})
    assert run_cli(config, "once", "--agent", "ada", "--pass", "workspace_consolidation", clock=clock).code == 0
    return {"config": config, "home": home, "root": tmp_path}


def cli(library: dict[str, Any], *args: str) -> Any:
    done = run_cli(library["config"], *args, clock=clock)
    assert done.code == 0, done.err
    return done


def test_dry_run_says_what_would_move_and_why_and_changes_nothing(library: dict[str, Any]) -> None:
    before = tree_snapshot(library["root"])
    shown = cli(library, "curator", "--agent", "ada", "--dry-run", "--json").json()
    states = {row["name"]: row["state"] for row in shown["skills"]}
    assert states["busy"] == "active" and states["by-hand"] == "kept"
    assert all(states[f"idle-{n}"] == "archive" for n in range(8))
    assert shown["would_archive"] == [f"idle-{n}" for n in range(8)]
    assert "first archive" in shown["consent"]
    why = next(r["why"] for r in shown["skills"] if r["name"] == "idle-0")
    assert "never used since it was learned: 100 session(s)" in why
    assert tree_snapshot(library["root"]) == before


def test_the_first_archive_waits_for_consent_then_moves_and_undoes_byte_exact(library: dict[str, Any]) -> None:
    home = library["home"]
    run = cli(library, "curator", "--agent", "ada", "--json").json()
    assert run["proposal"] and run["archived"] == []
    assert (home / "skills" / "idle-0" / "SKILL.md").exists()  # nothing moved yet
    (proposal,) = [p for p in cli(library, "review", "list", "--agent", "ada", "--json").json() if p["kind"] == "skill-archive"]
    before = tree_snapshot(home)
    cli(library, "review", "approve", proposal["id"], "--agent", "ada")
    for n in range(8):
        assert not (home / "skills" / f"idle-{n}").exists()
        assert (home / ".metaeng" / "skill-archive" / f"idle-{n}" / "skill" / "SKILL.md").exists()
        assert (home / ".metaeng" / "skill-archive" / f"idle-{n}" / "provenance.json").exists()
    assert (home / "skills" / "busy").exists() and (home / "skills" / "by-hand").exists()
    listed = {r["name"]: r for r in cli(library, "skills", "list", "--agent", "ada", "--json").json()}
    assert listed["idle-3"]["state"] == "archived" and listed["idle-3"]["source"] == "archive"
    runs = cli(library, "runs", "--agent", "ada", "--json").json()
    newest = (runs["runs"] if isinstance(runs, dict) else runs)[0]["run_id"]
    cli(library, "undo", newest)
    after = tree_snapshot(home)
    assert {k: v for k, v in after.items() if "/review/" not in k} == {k: v for k, v in before.items() if "/review/" not in k}


def test_once_consented_the_curator_archives_on_its_own_but_asks_again_for_a_big_share(library: dict[str, Any]) -> None:
    home = library["home"]
    cli(library, "curator", "--agent", "ada")
    (proposal,) = [p for p in cli(library, "review", "list", "--agent", "ada", "--json").json() if p["kind"] == "skill-archive"]
    cli(library, "review", "approve", proposal["id"], "--agent", "ada")
    decided = cli(library, "review", "show", proposal["id"], "--agent", "ada", "--json").json()
    assert decided["status"] == "approved"  # the queue keeps the consent
    # one more idle skill of a library of three learned: 1 of 3 is more than 10 %, so it asks
    learned(home, "idle-late")
    again = cli(library, "curator", "--agent", "ada", "--json").json()
    assert again["proposal"] and "more than 10%" in again["waiting"]
    # with a share that allows it, it moves on its own
    raw = yaml.safe_load(library["config"].read_text())
    raw["agents"]["ada"]["skills"]["curator"] = {"consent_share": 0.5}
    library["config"].write_text(yaml.safe_dump(raw))
    cli(library, "review", "reject", again["proposal"], "--agent", "ada")
    moved = cli(library, "curator", "--agent", "ada", "--json").json()
    assert moved["archived"] == ["idle-late"] and not (home / "skills" / "idle-late").exists()


def test_restore_brings_an_archived_skill_back_and_refuses_to_overwrite(library: dict[str, Any]) -> None:
    home = library["home"]
    original = (home / "skills" / "idle-2" / "SKILL.md").read_bytes()
    cli(library, "curator", "--agent", "ada")
    (proposal,) = [p for p in cli(library, "review", "list", "--agent", "ada", "--json").json() if p["kind"] == "skill-archive"]
    cli(library, "review", "approve", proposal["id"], "--agent", "ada")
    cli(library, "skills", "restore", "idle-2", "--agent", "ada")
    assert (home / "skills" / "idle-2" / "SKILL.md").read_bytes() == original
    assert (home / "skills" / "idle-2.provenance.json").exists()
    assert not (home / ".metaeng" / "skill-archive" / "idle-2").exists()
    # its time without use counts from the restore: the next run does not archive it again
    shown = cli(library, "curator", "--agent", "ada", "--dry-run", "--json").json()
    assert next(r for r in shown["skills"] if r["name"] == "idle-2")["state"] == "active"
    missing = run_cli(library["config"], "skills", "restore", "idle-2", "--agent", "ada", clock=clock)
    assert missing.code == 1 and "no archived skill 'idle-2'" in missing.err
    learned(home, "idle-4")  # learned again since it was archived
    before = tree_snapshot(home)
    clash = run_cli(library["config"], "skills", "restore", "idle-4", "--agent", "ada", clock=clock)
    assert clash.code == 1 and "already holds a skill 'idle-4'" in clash.err
    assert tree_snapshot(home) == before


def test_a_pinned_skill_never_moves_and_unpinning_gives_it_back(library: dict[str, Any]) -> None:
    cli(library, "skills", "pin", "idle-0", "--agent", "ada")
    shown = cli(library, "curator", "--agent", "ada", "--dry-run", "--json").json()
    assert "idle-0" not in shown["would_archive"]
    assert next(r for r in shown["skills"] if r["name"] == "idle-0")["state"] == "pinned"
    unknown = run_cli(library["config"], "skills", "pin", "nope", "--agent", "ada", clock=clock)
    assert unknown.code == 1 and "no skill 'nope'" in unknown.err
    cli(library, "skills", "unpin", "idle-0", "--agent", "ada")
    assert "idle-0" in cli(library, "curator", "--agent", "ada", "--dry-run", "--json").json()["would_archive"]


def test_stale_before_archived_and_reported_once(tmp_path: Path) -> None:
    config = skills_config(tmp_path, None)
    home = tmp_path / "ada"
    learned(home, "quiet")
    usage(tmp_path, 25)  # past stale (20 sessions) but not archive (60)
    first = run_cli(config, "curator", "--agent", "ada", "--json", clock=clock)
    assert first.code == 0, first.err
    assert first.json()["newly_stale"] == ["quiet"] and first.json()["archived"] == []
    second = run_cli(config, "curator", "--agent", "ada", "--json", clock=clock).json()
    assert second["stale"] == ["quiet"] and second["newly_stale"] == []
    listed = run_cli(config, "skills", "list", "--agent", "ada", clock=clock).out
    assert "quiet: stale — never used since it was learned: 25 session(s)" in listed


def test_a_fresh_deployment_counts_no_sessions_so_nothing_goes_stale(tmp_path: Path) -> None:
    config = skills_config(tmp_path, None)
    learned(tmp_path / "ada", "old", created_at="2025-01-01T00:00:00+00:00")
    shown = run_cli(config, "curator", "--agent", "ada", "--dry-run", "--json", clock=clock).json()
    assert shown["skills"][0]["state"] == "active" and shown["would_archive"] == []


def test_bad_thresholds_are_refused_naming_the_key(tmp_path: Path) -> None:
    config = skills_config(tmp_path, None)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"]["skills"]["curator"] = {"stale_after_sessions": 50, "archive_after_sessions": 10}
    config.write_text(yaml.safe_dump(raw))
    done = run_cli(config, "config", "check")
    assert done.code == 1 and "skills.curator" in done.err and "stale before it is archived" in done.err


def test_a_skill_learned_again_under_an_archived_name_is_proposed_never_written(root: Path, fake_model: Any) -> None:
    from skills_engine.archive import ArchiveRecord
    from tests.skills_engine.builders import add_turns, candidate, once, pass_entry

    config = skills_config(root, fake_model.url)
    home = root / "ada"
    add_turns(home, 5)
    archived = home / ".metaeng" / "skill-archive" / "vendor-email"
    make_skill(archived, "skill", skill_md("vendor-email"))
    record = ArchiveRecord(name="vendor-email", why="never used", uses=0, last_use=None, sessions_since=70, days_since=120,
                           archived_at="2026-10-01T00:00:00+00:00", run_id=None, moved_from="skills/vendor-email")
    (archived / "archive.json").write_text(record.model_dump_json())
    fake_model.reply(
        {"candidates": [candidate("create", "vendor-email", description="Email vendors. Use when asked.", steps=["Write in German"])]},
        schema="ScoutResponse",
    )
    entry = pass_entry(once(config, "skill_learning"), "skill_learning")
    assert entry["candidates"][0]["outcome"] == "proposed"
    assert not (home / "skills" / "vendor-email").exists()
    (proposal,) = run_cli(config, "review", "list", "--agent", "ada", "--json").json()
    assert proposal["kind"] == "skill-create" and "was archived" in proposal["title"]


def test_after_a_restore_status_skills_list_and_the_curator_agree_on_every_place(library: dict[str, Any]) -> None:
    cli(library, "curator", "--agent", "ada")
    (proposal,) = [p for p in cli(library, "review", "list", "--agent", "ada", "--json").json() if p["kind"] == "skill-archive"]
    cli(library, "review", "approve", proposal["id"], "--agent", "ada")
    cli(library, "skills", "restore", "idle-2", "--agent", "ada")
    dry = cli(library, "curator", "--agent", "ada", "--dry-run", "--json").json()
    places = {row["name"]: row["state"] for row in dry["skills"]}
    assert places["idle-2"] == "active"  # its quiet time counts from the restore
    (ada,) = cli(library, "status", "--json").json()["agents"]
    health = ada["library"]
    assert health["due_for_archive"] == len(dry["would_archive"]) == 0
    assert health["active"] == sum(1 for state in places.values() if state == "active") == 2  # idle-2, busy
    assert health["stale_skills"] == sorted(n for n, state in places.items() if state in ("stale", "archive"))
    listed = {r["name"]: r["state"] for r in cli(library, "skills", "list", "--agent", "ada", "--json").json()}
    assert listed["idle-2"] == "active"


def test_a_restored_skill_used_before_it_was_archived_counts_its_quiet_time_from_the_restore(tmp_path: Path) -> None:
    config = skills_config(tmp_path, None)
    home = tmp_path / "ada"
    for n in range(3):
        learned(home, f"idle-{n}")
    usage(tmp_path, 100, {"idle-0": ("2026-06-15T09:00:00+00:00", 5)})  # last used in June, 95 sessions ago
    lib = {"config": config, "home": home, "root": tmp_path}
    assert run_cli(config, "once", "--agent", "ada", "--pass", "workspace_consolidation", clock=clock).code == 0
    cli(lib, "curator", "--agent", "ada")
    (proposal,) = [p for p in cli(lib, "review", "list", "--agent", "ada", "--json").json() if p["kind"] == "skill-archive"]
    cli(lib, "review", "approve", proposal["id"], "--agent", "ada")
    cli(lib, "skills", "restore", "idle-0", "--agent", "ada")
    dry = cli(lib, "curator", "--agent", "ada", "--dry-run", "--json").json()
    row = next(r for r in dry["skills"] if r["name"] == "idle-0")
    assert row["state"] == "active" and row["uses"] == 3 and row["last_use"] == "2026-06-15T09:00:00+00:00"
    assert row["why"] == "restored from the archive 2026-11-20: 0 session(s) and 0 day(s) since"
    assert dry["would_archive"] == []
