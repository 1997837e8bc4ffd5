from __future__ import annotations

from pathlib import Path

import pytest

from daemon.kernel.errors import PathRefused
from daemon.kernel.view import AgentView
from skills_engine.edits import SkillEdits
from tests.skills_engine.builders import agent_settings, skills_config


@pytest.mark.parametrize(
    "path",
    [
        "AGENTS.md",
        "memory/2026-11-30.md",
        ".metaeng/facts.jsonl",
        "../packs/x/SKILL.md",
        "/etc/passwd",
        "skillsx/a",
    ],
)
def test_skills_passes_refuse_any_write_outside_the_learned_library(root: Path, path: str) -> None:
    agent = agent_settings(skills_config(root, None))
    edits = SkillEdits(agent, AgentView(agent.home))
    with pytest.raises(PathRefused):
        edits.write(path, b"x")
    with pytest.raises(PathRefused):
        edits.delete(path)


def test_learned_library_fork_bases_and_quarantine_are_writable(root: Path) -> None:
    agent = agent_settings(skills_config(root, None))
    edits = SkillEdits(agent, AgentView(agent.home))
    for path in (
        "skills/a/SKILL.md",
        ".metaeng/fork-bases/a/SKILL.md",
        ".metaeng/skill-quarantine/a/quarantine.json",
    ):
        edits.write(path, b"x")
    changeset = edits.changeset("skill_learning", "r", [], {})
    assert changeset.status == "changes" and len(changeset.writes) == 3
    assert edits.view.read_bytes("skills/a/SKILL.md") == b"x"
