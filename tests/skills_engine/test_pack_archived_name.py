"""A pack never brings an archived name back silently: a pack skill whose name a learned skill
held before it was archived is `held` — not served — until a person decides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.skills_engine.builders import make_skill, skill_md, skills_config
from tests.support.deploy import run_cli
from tests.support.skill_library import archived

NAME = "on-call-lookup"


def deployment(root: Path) -> Path:
    """`on-call-lookup` learned, then archived; a pack update adds a skill of the same name."""
    config = skills_config(root, None)
    archived(root / "ada", NAME)
    make_skill(root / "packs", NAME, skill_md(NAME, description="Find who is on call. Use when paged."))
    return config


def listed(config: Path) -> dict[str, dict[str, Any]]:
    done = run_cli(config, "skills", "list", "--agent", "ada", "--json")
    assert done.code == 0, done.err
    return {f"{r['source']}:{r['name']}": r for r in done.json()}


def test_a_pack_skill_of_an_archived_name_is_held_and_says_how_to_decide(root: Path) -> None:
    config = deployment(root)
    rows = listed(config)
    assert rows[f"pack:{NAME}"]["status"] == "held"
    assert rows[f"archive:{NAME}"]["status"] == "archived"
    human = run_cli(config, "skills", "list", "--agent", "ada").out
    assert f"{NAME}: held — a learned skill {NAME} is in the archive" in human
    assert f"`skills restore {NAME}`" in human and f"`skills pin {NAME}` serves the pack's" in human
    (ada,) = run_cli(config, "status", "--json").json()["agents"]
    assert ada["library"]["held"] == [NAME]
    assert f"pack skills held, their name archived: {NAME}" in run_cli(config, "status").out


def test_pinning_the_name_serves_the_packs_skill_and_the_archived_one_stays(root: Path) -> None:
    config = deployment(root)
    assert run_cli(config, "skills", "pin", NAME, "--agent", "ada").code == 0
    rows = listed(config)
    assert rows[f"pack:{NAME}"]["status"] == "active"
    assert (root / "ada" / ".metaeng" / "skill-archive" / NAME / "skill" / "SKILL.md").exists()


def test_restoring_the_archived_skill_shadows_the_packs(root: Path) -> None:
    config = deployment(root)
    assert run_cli(config, "skills", "restore", NAME, "--agent", "ada").code == 0
    rows = listed(config)
    assert rows[f"learned:{NAME}"]["status"] == "active"
    assert rows[f"pack:{NAME}"]["status"] == "shadowed"
