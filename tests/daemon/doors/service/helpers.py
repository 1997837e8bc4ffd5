"""A real `metaeng-daemon run` subprocess with a fake systemd notify socket, and its log."""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from tests.support.deploy import TEST_KEY, conversation, write_transcript

T = TypeVar("T")
PASSES = (
    "distillation",
    "skill_learning",
    "memory_consolidation",
    "library_maintenance",
    "workspace_consolidation",
    "instruction_review",
)


def fact_reply(quote: str = "I live in Paris", key: str = "city", value: str = "Paris") -> dict[str, Any]:
    """A DistillationResponse citing turn T1 (whose user message must contain `quote`)."""
    fact = {
        "turn": "T1",
        "quote": quote,
        "entity": "user",
        "key": key,
        "value": value,
        "confidence": 0.95,
        "valid_from": "2026-11-02",
    }
    return {"facts": [fact]}


FACT_REPLY = fact_reply()
GERMAN_REPLY = fact_reply("I speak German", "language", "German")


def service_config(cfg: dict[str, Any], **service: Any) -> dict[str, Any]:
    """A test service section: 1 s transcript cadence, no jitter, no watch unless asked."""
    settings: dict[str, Any] = {"intervals": {"transcripts": 1}, "jitter_seconds": 0, "watch": "off"}
    settings.update(service)
    cfg["service"] = settings
    # These tests are about scheduling distillation; the other passes stay off unless a test turns them on.
    cfg.setdefault("passes", {name: name == "distillation" for name in PASSES})
    return cfg


def add_turns(home: Path, name: str, count: int, marker: str, first: str = "I live in Paris") -> None:
    """Append `count` complete turns (closed by session_end); the first user message starts with `first`."""
    pairs = [(f"{first} ({marker})", "Noted.")] + [
        (f"question {i} from {marker}", f"answer {i}") for i in range(1, count)
    ]
    # session_end closes the last turn; a fresh mtime lets polling watchers see the append.
    write_transcript(home, name, conversation(pairs), old=False)


def wait_for(what: str, probe: Callable[[], T | None], timeout: float = 30.0, every: float = 0.05) -> T:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def runs_of(state: Path, agent: str) -> list[dict[str, Any]]:
    return read_jsonl(state / "agents" / agent / "runs.jsonl")


def intervals_overlap(runs: Iterable[dict[str, Any]]) -> bool:
    spans = sorted(
        (datetime.fromisoformat(r["started_at"]), datetime.fromisoformat(r["finished_at"])) for r in runs
    )
    return any(later[0] < earlier[1] for earlier, later in itertools.pairwise(spans))


class NotifySocket:
    """An AF_UNIX datagram socket in tmp_path standing in for systemd's $NOTIFY_SOCKET."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.05)
        self.messages: list[str] = []

    def drain(self) -> list[str]:
        while True:
            try:
                self.messages.append(self.sock.recv(65536).decode("utf-8"))
            except (TimeoutError, BlockingIOError):
                return self.messages

    def lines(self) -> list[str]:
        return [line for message in self.drain() for line in message.splitlines()]

    def close(self) -> None:
        self.sock.close()


class Daemon:
    """`metaeng-daemon --config CONFIG run` as a child process, logging JSON lines to a file."""

    started = 0

    def __init__(self, config: Path, workdir: Path, env: dict[str, str] | None = None) -> None:
        Daemon.started += 1
        # AF_UNIX paths are limited to 108 bytes: keep the name short.
        self.notify = NotifySocket(workdir / f"n{Daemon.started}.sock")
        self.log_path = workdir / f"daemon{Daemon.started}.log"
        environment = dict(os.environ)
        environment.update(
            {
                "TEST_API_KEY": TEST_KEY,
                "NOTIFY_SOCKET": str(self.notify.path),
                "PYTHONUNBUFFERED": "1",
                "METAENG_LOG_LEVEL": "debug",
            }
        )
        environment.update(env or {})
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daemon",  # the console script's entry point, signal handlers first
                "--config",
                str(config),
                "run",
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=environment,
            cwd=workdir,
        )

    def events(self, name: str | None = None) -> list[dict[str, Any]]:
        found = read_jsonl(self.log_path)
        return [e for e in found if name is None or e.get("event") == name]

    def wait_event(self, name: str, timeout: float = 10.0) -> dict[str, Any]:
        return wait_for(f"log event {name}", lambda: (self.events(name) or [None])[-1], timeout)

    def wait_ready(self, timeout: float = 15.0) -> None:
        wait_for("READY=1", lambda: "READY=1" in self.notify.lines() or self._died(), timeout)
        assert self.proc.poll() is None, f"daemon exited early:\n{self.output()}"

    def _died(self) -> bool:
        return self.proc.poll() is not None

    def send(self, signum: signal.Signals) -> None:
        self.proc.send_signal(signum)

    def wait_exit(self, timeout: float = 15.0) -> int:
        return self.proc.wait(timeout)

    def output(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._log.close()
        self.notify.close()
