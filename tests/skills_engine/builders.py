"""Deployments with skill sources for the skills-engine tests: real folders, real config."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from daemon.config import load_deployment
from daemon.kernel import atomic
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from skills_engine.fork import plan_fork
from skills_engine.inventory import load_inventory
from tests.support.deploy import (
    TEST_KEY,
    base_config,
    conversation,
    run_cli,
    tree_snapshot,
    write_config,
    write_transcript,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def clock(hours: int = 0) -> Any:
    """A fixed clock `hours` after NOW."""
    return lambda: NOW + timedelta(hours=hours)


def skill_md(
    name: str,
    description: str = "Do a thing. Use when asked.",
    steps: Sequence[str] = ("First step", "Second step"),
    sections: Sequence[tuple[str, str]] = (),
    title: str | None = None,
    metadata: str = "",
) -> str:
    lines = ["---", f"name: {name}", f"description: {description}"]
    if metadata:
        lines.append(metadata)
    lines += ["---", "", f"# {title or name}", "", "## Steps"]
    lines += [f"{i}. {s}" for i, s in enumerate(steps, start=1)]
    for heading, body in sections:
        lines += ["", f"## {heading}", body]
    return "\n".join(lines) + "\n"


def make_skill(
    parent: Path, name: str, text: str | None = None, files: Mapping[str, bytes | str] | None = None
) -> Path:
    folder = parent / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(text if text is not None else skill_md(name), encoding="utf-8")
    for rel, data in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return folder


def skills_config(root: Path, model_url: str | None, **agent: Any) -> Path:
    config = base_config(root, model_url)
    (root / "managed").mkdir(exist_ok=True)
    (root / "packs").mkdir(exist_ok=True)
    config["agents"]["ada"]["skills"] = {
        "managed": [str(root / "managed")],
        "packs": [str(root / "packs")],
        "learned": "skills",
    }
    config["agents"]["ada"].update(agent)
    return write_config(root, config)


def agent_settings(config: Path) -> AgentSettings:
    return load_deployment(config, {"HOME": str(config.parent)}).agent("ada")


# What the scripted scout answers rest on: a new skill's steps must find their words in the
# turns they cite, as they would in a real session where the user walked the agent through them.
WALKTHROUGH = (
    "Steps: pull the export, count by priority, post the summary, mention who is on call next week, "
    "close duplicates and ping the owner. Write in German and copy the account manager. "
    "Add a customer impact section with affected accounts and duration, and add a chart of the totals."
)


def add_turns(home: Path, count: int = 4, name: str = "t1.jsonl") -> None:
    pairs = [(f"Please do the weekly report, part {i}. {WALKTHROUGH}", f"Done part {i}") for i in range(count)]
    write_transcript(home, name, conversation(pairs))


def fork_on_disk(config: Path, name: str) -> None:
    """Fork the original `name` into the learned library as the scout would (files written directly)."""
    agent = agent_settings(config)
    view = AgentView(agent.home)
    original = load_inventory(agent, view).original(name)
    assert original is not None
    plan = plan_fork(
        original, home=agent.home, learned="skills", view=view, now=NOW, run_id=None, cites=["t@0"]
    )
    for write in plan.writes:
        atomic.write_bytes(agent.home / write.path, write.content)


def once(config: Path, *passes: str, key: str | None = TEST_KEY, hours: int = 0) -> dict[str, Any]:
    args = ["once", "--agent", "ada", "--json"]
    for name in passes:
        args += ["--pass", name]
    result = run_cli(config, *args, env={"TEST_API_KEY": key or ""}, clock=clock(hours))
    assert result.err == "" or "warning" in result.err, result.err
    data: dict[str, Any] = result.json()
    data["_code"] = result.code
    return data


def pass_entry(result: Mapping[str, Any], name: str) -> dict[str, Any]:
    entry: dict[str, Any] = next(p for p in result["passes"] if p["name"] == name)
    return entry


def digest_tree(root: Path) -> dict[str, str]:
    """sha256 of every regular file under `root`, as `tree_snapshot` sees them (home lock left out)."""
    return {rel: hashlib.sha256(data).hexdigest() for rel, data in tree_snapshot(root).items()}


def candidate(action: str, name: str, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "action": action,
        "name": name,
        "capability": fields.pop("capability", f"{action} {name}"),
        "reason": fields.pop("reason", f"reason for {name}"),
        "cites": fields.pop("cites", ["T1"] if action != "skip" else []),
        "description": fields.pop("description", ""),
        "trigger": fields.pop("trigger", ""),
        "steps": fields.pop("steps", []),
        "sections": fields.pop("sections", []),
        "file_additions": fields.pop("file_additions", []),
    }
    assert not fields, fields
    return body
