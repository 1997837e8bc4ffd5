"""A store of many runs, fast: a real first `once` creates it, `git fast-import` appends runs.

Run i (0-based, oldest first) carries the daemon's message and trailers: pass
`PASSES[i % 3]`, report `[PASS] changes: note i`, and rewrites `memory/notes-{i % 5}.md`;
the runs listed in `rare` instead create `skills/rare-{i}/SKILL.md` and say
`zebra crossing {i}` in their report. The home is then set to match the store's HEAD.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.support.deploy import base_config, run_cli, write_config

PASSES = ("distillation", "skill_learning", "memory_consolidation")
START = datetime(2026, 1, 1, tzinfo=UTC)
OFF = {
    "distillation": False,
    "skill_learning": False,
    "memory_consolidation": False,
    "library_maintenance": False,
    "workspace_consolidation": False,
    "instruction_review": False,
}


def run_id(index: int) -> str:
    return f"{(START + timedelta(hours=index)).strftime('%Y%m%dT%H%M%SZ')}-{index:06x}"


def _git(root: Path, agent: str, *args: str, stdin: bytes | None = None) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_DIR=str(root / "state" / "agents" / agent / "store.git"), GIT_WORK_TREE=str(root / agent))
    return subprocess.run(["git", *args], env=env, input=stdin, capture_output=True, check=True).stdout


def many_runs(root: Path, count: int, rare: Collection[int] = (), agent: str = "ada") -> Path:
    """A deployment (every pass off) whose agent's store holds `count` runs; returns its config."""
    config = base_config(root, None, agents=(agent,))
    config["passes"] = dict(OFF)
    path = write_config(root, config)
    home = root / agent
    (home / "AGENTS.md").write_text("# Instructions\n\n- Be brief.\n")
    assert run_cli(path, "once", "--agent", agent).code == 0  # the store and its import commit
    branch = _git(root, agent, "symbolic-ref", "HEAD").decode().strip()
    head = _git(root, agent, "rev-parse", "HEAD").decode().strip()
    stream: list[bytes] = []
    final: dict[str, bytes] = {}
    for i in range(count):
        name = PASSES[i % len(PASSES)]
        rid = run_id(i)
        file = f"skills/rare-{i}/SKILL.md" if i in rare else f"memory/notes-{i % 5}.md"
        said = f"zebra crossing {i}" if i in rare else f"note {i}"
        content = f"# notes\n\nwritten by run {rid}\n".encode()
        final[file] = content
        message = (
            f"run {rid}: {name} ({agent})\n\n[{name}] changes: {said}\n\n"
            f"Run-Id: {rid}\nAgent: {agent}\nPasses: {name}\nCost-USD: 0.000000\nModel-Calls: 0\n"
        ).encode()
        stamp = int((START + timedelta(hours=i)).timestamp())
        stream.append(f"commit {branch}\ncommitter metaeng-daemon <metaeng-daemon@localhost> {stamp} +0000\n".encode())
        stream.append(b"data %d\n%s\n" % (len(message), message))
        if i == 0:
            stream.append(f"from {head}\n".encode())
        stream.append(f"M 100644 inline {file}\n".encode() + b"data %d\n%s\n" % (len(content), content))
    _git(root, agent, "fast-import", "--quiet", stdin=b"".join(stream))
    for file, content in final.items():
        (home / file).parent.mkdir(parents=True, exist_ok=True)
        (home / file).write_bytes(content)
    _git(root, agent, "reset", "-q")
    return path
