"""Build real deployments (config file, agent homes, transcripts) in a temp folder."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from daemon.doors.cli import main
from daemon.kernel.paths import HOME_LOCK

TEST_KEY = "sk-test-SECRET-0123456789"


def base_config(root: Path, model_url: str | None, agents: Iterable[str] = ("ada",)) -> dict[str, Any]:
    config: dict[str, Any] = {
        "version": 1,
        "state_dir": str(root / "state"),
        "budget": {"daily_usd": 5.0, "per_agent_daily_usd": 1.0},
        "agents": {},
    }
    if model_url:
        config["model"] = {
            "base_url": model_url,
            "model": "deep-test",
            "api_key_env": "TEST_API_KEY",
            "price_input_per_million": 1.0,
            "price_output_per_million": 4.0,
            "max_output_tokens": 1000,
            # Long enough for a scripted answer on a loaded 2-core machine (5 s failed a call
            # now and then); tests of a timeout set their own.
            "timeout_seconds": 30,
        }
    for name in agents:
        home = root / name
        home.mkdir(parents=True, exist_ok=True)
        config["agents"][name] = {"home": str(home)}
    return config


def write_config(root: Path, config: Mapping[str, Any]) -> Path:
    path = root / "config.yaml"
    path.write_text(yaml.safe_dump(dict(config), sort_keys=False), encoding="utf-8")
    return path


def message(role: str, content: str, ts: str | None = None) -> str:
    body: dict[str, Any] = {"role": role, "content": content}
    if ts:
        body["ts"] = ts
    return json.dumps(body) + "\n"


def conversation(pairs: Iterable[tuple[str, str]], day: str = "2026-11-02", end: bool = True) -> str:
    """JSONL for user/assistant pairs (one turn each), optionally closed by session_end."""
    lines = []
    for index, (user, assistant) in enumerate(pairs):
        stamp = f"{day}T10:{index:02d}:00Z"
        lines.append(message("user", user, stamp))
        lines.append(message("assistant", assistant, stamp))
    if end:
        lines.append(json.dumps({"type": "session_end"}) + "\n")
    return "".join(lines)


def write_transcript(home: Path, name: str, text: str, old: bool = True) -> Path:
    path = home / "transcripts" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)
    if old:
        os.utime(path, (1_700_000_000, 1_700_000_000))
    return path


@dataclass(frozen=True)
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(config: Path, *args: str, env: Mapping[str, str] | None = None, **kwargs: Any) -> CliResult:
    stdout, stderr = io.StringIO(), io.StringIO()
    environment = {"HOME": os.environ.get("HOME", "/nonexistent"), "TEST_API_KEY": TEST_KEY}
    if env:
        environment.update(env)
    code = main(["--config", str(config), *args], env=environment, stdout=stdout, stderr=stderr, **kwargs)
    return CliResult(code, stdout.getvalue(), stderr.getvalue())


def usage_error(config: Path, *args: str) -> str:
    """What argparse prints for a command line it refuses (exit 2, before any command runs)."""
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            code = main(["--config", str(config), *args], env={"HOME": os.environ.get("HOME", "/nonexistent")})
    except SystemExit as exc:
        assert exc.code == 2, f"{' '.join(args)} exited {exc.code}"
        return stderr.getvalue()
    raise AssertionError(f"{' '.join(args)} was accepted (exit {code})")


def tree_snapshot(root: Path, skip: Iterable[str] = ()) -> dict[str, bytes]:
    """Every regular file under `root` (relative path → bytes), for byte-identical checks.

    The home lock (`.metaeng/lock`, empty whenever no run holds it) is the daemon's own
    bookkeeping, created by the first run that locks the home, and is left out.
    """
    skipped = tuple(skip)
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if any(rel == s or rel.startswith(s + "/") for s in skipped):
            continue
        if rel == HOME_LOCK or rel.endswith("/" + HOME_LOCK):
            continue
        if path.is_file() and not path.is_symlink():
            found[rel] = path.read_bytes()
    return found
