from __future__ import annotations

import os
from pathlib import Path

from daemon.kernel.view import AgentView
from skills_engine.inventory import load_inventory, quarantined_names
from tests.skills_engine.builders import agent_settings, make_skill, skill_md, skills_config


def test_learned_shadows_pack_and_pack_shadows_managed(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "managed", "deploy")
    make_skill(root / "packs", "deploy")
    make_skill(root / "packs", "report")
    make_skill(root / "ada" / "skills", "report")
    inventory = load_inventory(agent_settings(config), AgentView(root / "ada"))
    rows = {(s.name, s.source): s for s in inventory.skills}
    assert rows[("deploy", "pack")].status == "active"
    assert rows[("deploy", "pack")].shadows == root / "managed" / "deploy"
    assert rows[("deploy", "managed")].status == "shadowed"
    assert rows[("report", "learned")].shadows == root / "packs" / "report"
    assert rows[("report", "learned")].machine_written is False
    assert rows[("report", "pack")].status == "shadowed"
    assert inventory.serving("report") is rows[("report", "learned")]


def test_malformed_skill_is_reported_and_skipped_without_crashing(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "packs", "broken", "---\nname: broken\ndescription: [x\n---\n")
    make_skill(root / "packs", "fine")
    (root / "packs" / "no-skill-md").mkdir()
    inventory = load_inventory(agent_settings(config), AgentView(root / "ada"))
    assert [s.name for s in inventory.skills] == ["fine"]
    assert any("broken/SKILL.md:3: invalid YAML" in p for p in inventory.problems)
    assert any("no-skill-md/SKILL.md:1: missing SKILL.md" in p for p in inventory.problems)
    assert "broken" in inventory.folder_names


def test_symlinks_inside_a_skill_folder_are_never_followed(root: Path) -> None:
    config = skills_config(root, None)
    folder = make_skill(root / "packs", "linky", skill_md("linky"))
    os.symlink("/etc/passwd", folder / "passwd.txt")
    os.symlink("/etc", folder / "etc-dir")
    inventory = load_inventory(agent_settings(config), AgentView(root / "ada"))
    skill = inventory.original("linky")
    assert skill is not None
    assert sorted(skill.folder.files) == ["SKILL.md"]
    assert any("passwd.txt (symlink, not followed)" in p for p in inventory.problems)
    assert any("etc-dir (symlink, not followed)" in p for p in inventory.problems)


def test_missing_source_folder_is_reported_as_incomplete(root: Path) -> None:
    config = skills_config(root, None)
    (root / "packs").rmdir()
    inventory = load_inventory(agent_settings(config), AgentView(root / "ada"))
    assert inventory.incomplete and "cannot be read" in inventory.incomplete[0]


def test_quarantined_names_is_empty_without_forks(root: Path) -> None:
    config = skills_config(root, None)
    make_skill(root / "ada" / "skills", "mine")
    assert quarantined_names(agent_settings(config)) == []


def test_unreadable_or_newer_sidecar_is_reported_and_the_skill_left_alone(root: Path) -> None:
    from tests.support.deploy import run_cli, tree_snapshot

    config = skills_config(root, None)
    make_skill(root / "ada" / "skills", "broken-sidecar")
    (root / "ada/skills/broken-sidecar.provenance.json").write_text("{not json")
    make_skill(root / "ada" / "skills", "future")
    (root / "ada/skills/future.provenance.json").write_text('{"version": 9}')
    before = tree_snapshot(root / "ada")
    listing = run_cli(config, "skills", "list", "--agent", "ada", "--json")
    assert listing.json() == []
    assert f"{root / 'ada/skills/broken-sidecar.provenance.json'} is unreadable: not JSON" in listing.err
    assert "has version 9; this daemon reads up to version 1" in listing.err
    result = run_cli(config, "once", "--agent", "ada", "--pass", "library_maintenance", "--json")
    assert result.json()["passes"][0]["status"] == "nothing"
    assert tree_snapshot(root / "ada") == before
