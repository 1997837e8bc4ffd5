"""Shared setup for runner tests: one agent with four complete turns and a scripted model."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.deploy import TEST_KEY, base_config, conversation, write_config, write_transcript
from tests.support.fake_model import FakeModelServer

OTHER_PASSES = (
    "skill_learning",
    "memory_consolidation",
    "library_maintenance",
    "workspace_consolidation",
    "instruction_review",
)
FOUR_TURNS = [
    ("I live in Berlin.", "Noted."),
    ("I speak German at work.", "Good to know."),
    ("What's the weather?", "Sunny."),
    ("Thanks!", "You're welcome."),
]


def berlin_fact(turn: str = "T1", **extra: Any) -> dict[str, Any]:
    body = {
        "turn": turn,
        "quote": "I live in Berlin",
        "entity": "user",
        "key": "city",
        "value": "Berlin",
        "confidence": 0.95,
        "valid_from": "2026-11-02",
    }
    body.update(extra)
    return body


def setup_agent(
    root: Path,
    model: FakeModelServer | None,
    model_changes: dict[str, Any] | None = None,
    **config_changes: Any,
) -> Path:
    config = base_config(root, model.url if model else None)
    if model_changes:
        config["model"].update(model_changes)
    # These tests are about the runner and distillation; the other passes are off.
    config["passes"] = {name: name == "distillation" for name in (*OTHER_PASSES, "distillation")}
    for key, value in config_changes.items():
        config[key] = value
    path = write_config(root, config)
    home = root / "ada"
    (home / "AGENTS.md").write_text("# Instructions\n\n- Be brief.\n- Answer in German.\n", encoding="utf-8")
    write_transcript(home, "s1.jsonl", conversation(FOUR_TURNS))
    return path


def add_turns(root: Path, name: str = "s2.jsonl", count: int = 4, first: str | None = None) -> None:
    """`count` more turns dated 2026-11-03; the first user message is `first` if given."""
    pairs = [(f"Question {i}?", f"Answer {i}.") for i in range(count)]
    if first is not None:
        pairs[0] = (first, "Noted.")
    write_transcript(root / "ada", name, conversation(pairs, day="2026-11-03"))


def once_killed_at(config: Path, root: Path, point: str, timeout: float = 120) -> None:
    """`once --agent ada` started through `tests.support.armed`, killed at crash point `point`."""
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY, "METAENG_CRASH_AT": point}
    crashed = subprocess.run(
        [sys.executable, "-m", "tests.support.armed", "--config", str(config), "once", "--agent", "ada"],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
