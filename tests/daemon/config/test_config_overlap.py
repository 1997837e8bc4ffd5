"""Config refuses paths whose roles overlap (issue 12, item 3): each problem names both keys and lines."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.deploy import run_cli, tree_snapshot

EXAMPLES = Path(__file__).parents[3] / "examples"

HEAD = """\
version: 1
state_dir: ./state
agents:
  ada:
    home: ./ada
"""


def write(root: Path, agent_keys: str, extra: str = "") -> Path:
    """A config whose agent `ada` has `agent_keys` (indented under it) from line 6 on."""
    (root / "ada").mkdir(exist_ok=True)
    (root / "ben").mkdir(exist_ok=True)
    path = root / "config.yaml"
    path.write_text(HEAD + agent_keys + extra, encoding="utf-8")
    return path


def refused(root: Path, config: Path) -> list[str]:
    """`config check` problems; asserts exit 1 and that nothing was written anywhere."""
    before = tree_snapshot(root)
    result = run_cli(config, "config", "check", "--json")
    assert result.code == 1, result.out
    once = run_cli(config, "once", "--agent", "ada")
    assert once.code == 1 and "invalid configuration" in once.err
    assert tree_snapshot(root) == before
    assert not (root / "state").exists() and not (root / "ada" / ".metaeng").exists()
    problems: list[str] = result.json()["problems"]
    return problems


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (
            "    memory:\n      markdown_view: MEMORY.md\n",
            "agents.ada.memory.markdown_view (config.yaml:7) is the same file as "
            "agents.ada.workspace.long_memory (default): MEMORY.md",
        ),
        (
            "    skills:\n      learned: .\n",
            "agents.ada.skills.learned (config.yaml:7) is the agent home itself ('.'); "
            "name a folder inside the home",
        ),
        (
            "    workspace:\n      daily_logs: ./\n",
            "agents.ada.workspace.daily_logs (config.yaml:7) is the agent home itself ('./')",
        ),
        (
            '    transcripts:\n      glob: "*.md"\n',
            "agents.ada.transcripts.glob (config.yaml:7) matches agents.ada.workspace.identity (default): "
            "IDENTITY.md; narrow the glob to the transcripts' own folder, e.g. transcripts/*.md",
        ),
        (
            '    transcripts:\n      glob: "**/*.jsonl"\n',
            "agents.ada.transcripts.glob (config.yaml:7) can match files inside the daemon's own folder "
            ".metaeng: .metaeng/; narrow the glob to the transcripts' own folder, "
            "e.g. transcripts/**/*.jsonl",
        ),
        (
            '    transcripts:\n      glob: "memory/*.md"\n',
            "agents.ada.transcripts.glob (config.yaml:7) can match files inside "
            "agents.ada.workspace.daily_logs (default): memory/",
        ),
        (
            "    skills:\n      learned: memory/skills\n",
            "agents.ada.skills.learned (config.yaml:7) is inside agents.ada.workspace.daily_logs (default): "
            "memory/skills is inside memory; give each its own path",
        ),
        (
            "    workspace:\n      instructions:\n        - AGENTS.md\n        - skills/RULES.md\n",
            "agents.ada.workspace.instructions (config.yaml:9) is inside agents.ada.skills.learned (default): "
            "skills/RULES.md is inside skills",
        ),
        (
            "    memory:\n      markdown_view: .metaeng/facts.md\n",
            "agents.ada.memory.markdown_view (config.yaml:7) is inside the daemon's own folder .metaeng: "
            ".metaeng/facts.md is inside .metaeng; only the fact store may sit there",
        ),
        (
            "    skills:\n      learned: .metaeng\n",
            "agents.ada.skills.learned (config.yaml:7) is the same folder as the daemon's own folder "
            ".metaeng: .metaeng",
        ),
        (
            "    memory:\n      store: USER.md\n",
            "agents.ada.memory.store (config.yaml:7) is the same file as "
            "agents.ada.workspace.long_memory (default): USER.md",
        ),
        (
            "    memory:\n      store: notes/facts.jsonl\n      markdown_view: ./notes/facts.jsonl\n",
            "agents.ada.memory.markdown_view (config.yaml:8) is the same file as "
            "agents.ada.memory.store (config.yaml:7): notes/facts.jsonl",
        ),
        (
            "    memory:\n      store: notes/facts.jsonl\n      markdown_view: notes/facts.jsonl.d/FACTS.md\n",
            "agents.ada.memory.markdown_view (config.yaml:8) is inside agents.ada.memory.store's shard folder "
            "(config.yaml:7): notes/facts.jsonl.d/FACTS.md is inside notes/facts.jsonl.d; give each its own path",
        ),
        (
            "    transcripts:\n      root: ./ada/skills/sessions\n",
            "agents.ada.transcripts.root (config.yaml:7) is inside agents.ada.skills.learned (default): "
            "skills/sessions; keep transcripts out of the paths the daemon manages",
        ),
        (
            '    transcripts:\n      root: .\n      glob: "ada/*.md"\n',
            "agents.ada.transcripts.glob (config.yaml:8) matches agents.ada.workspace.identity (default): "
            "ada/IDENTITY.md (relative to the transcript root)",
        ),
        (
            "    transcripts:\n      root: ./ben/transcripts\n",
            "agents.ada.transcripts.root (config.yaml:7): {root}/ben/transcripts overlaps the home of "
            "agent ben ({root}/ben); an agent's transcripts are its own",
        ),
        (
            "    transcripts:\n      root: ./state/agents\n",
            "agents.ada.transcripts.root (config.yaml:7): {root}/state/agents overlaps the state folder",
        ),
    ],
)
def test_overlapping_paths_are_refused_naming_both_keys_and_lines(
    root: Path, keys: str, expected: str
) -> None:
    config = write(root, keys, extra="  ben:\n    home: ./ben\n")
    problems = refused(root, config)
    expected = expected.format(root=root)
    assert any(expected in p for p in problems), problems


def test_every_overlap_is_reported_at_once(root: Path) -> None:
    config = write(
        root,
        "    skills:\n      learned: .\n"
        "    memory:\n      markdown_view: MEMORY.md\n"
        '    transcripts:\n      glob: "*.md"\n',
    )
    problems = refused(root, config)
    # learned; markdown_view; the glob matches the six default role files and the view.
    assert len(problems) == 1 + 1 + 7
    assert sum("transcripts.glob" in p for p in problems) == 7
    assert sum("markdown_view" in p for p in problems) == 2  # same file as MEMORY.md, matched by *.md


def test_defaults_and_paths_that_do_not_overlap_are_valid(root: Path) -> None:
    config = write(
        root,
        "    skills:\n      learned: library\n"
        "    workspace:\n      daily_logs: journal\n"
        "    memory:\n      store: .metaeng/ada-facts.jsonl\n      markdown_view: views/FACTS.md\n"
        '    transcripts:\n      glob: "sessions/**/*.jsonl"\n',
        extra="  ben:\n    home: ./ben\n",
    )
    result = run_cli(config, "config", "check", "--json")
    assert result.code == 0, result.err
    default = write(root, "")
    assert run_cli(default, "config", "check").code == 0


def test_transcript_root_outside_the_home_may_use_a_wide_glob(root: Path) -> None:
    (root / "runtime" / "projects").mkdir(parents=True)
    config = write(root, '    transcripts:\n      root: ./runtime/projects\n      glob: "**/*.jsonl"\n')
    result = run_cli(config, "config", "check")
    assert result.code == 0, result.err
    shown = run_cli(config, "config", "show", "--agent", "ada", "--json").json()["settings"]
    row = next(r for r in shown if r["key"] == "transcripts.root")
    assert row == {
        "key": "transcripts.root",
        "value": str(root / "runtime" / "projects"),
        "origin": "agent ada (config.yaml:7)",
    }
    default = write(root, "")
    shown = run_cli(default, "config", "show", "--agent", "ada", "--json").json()["settings"]
    row = next(r for r in shown if r["key"] == "transcripts.root")
    assert row == {"key": "transcripts.root", "value": str(root / "ada"), "origin": "default"}


def test_the_example_deployment_is_still_valid(root: Path) -> None:
    target = root / "demo"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("state"))
    result = run_cli(target / "config.yaml", "config", "check")
    assert result.code == 0, result.err
