"""Runtime adapters at size: a 100 MB Claude Code session and an OpenClaw database of 1M events.

1. Claude Code: 100 MB of session consumed (cursor at its end) + 1 MB appended, read after
   the cursor, vs. the same 1 MB alone — in process (`read_new_turns`) and as whole
   `metaeng-daemon transcripts --agent A --json` processes. Target: ratio ≤ 1.2.
2. OpenClaw SQLite: `transcript_events` with 1M events (1,000 sessions × 1,000), every
   session's cursor at its end, 1,000 new events in one session: read vs. a database that
   holds only those 1,000 events; and the first read of one whole 1,000-event session.

Run: .venv/bin/python benchmarks/bench_adapters.py [--consumed-mb 100] [--events 1000000]
Prints markdown tables and writes benchmarks/results/adapters.json. Interleaved pairs, medians.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from daemon.kernel.changeset import Cursor, CursorAdvance
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts import cursors as cursor_file
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import read_new_turns
from daemon.transcripts.resume import cursor_at
from daemon.transcripts.sqlite_common import SQLITE_HEAD

SESSION = "5f0c1a2e-1111-4a4a-8b8b-00000000beef"


def claude_pair(n: int) -> bytes:
    """One user turn in Claude Code's format: the user line, an assistant tool call, its result, the answer."""
    base = {
        "sessionId": SESSION,
        "isSidechain": False,
        "cwd": "/srv/p",
        "version": "2.1.0",
        "userType": "external",
    }
    lines = [
        {
            **base,
            "type": "user",
            "uuid": f"u{n}",
            "parentUuid": f"a{n - 1}",
            "timestamp": "2026-11-02T09:00:00Z",
            "message": {"role": "user", "content": f"Please compile the weekly report {n} " + "x" * 160},
        },
        {
            **base,
            "type": "assistant",
            "uuid": f"t{n}",
            "parentUuid": f"u{n}",
            "timestamp": "2026-11-02T09:00:01Z",
            "message": {
                "id": f"msg_{n}",
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"toolu_{n}",
                        "name": "Bash",
                        "input": {"command": "make report"},
                    }
                ],
            },
        },
        {
            **base,
            "type": "user",
            "uuid": f"r{n}",
            "parentUuid": f"t{n}",
            "timestamp": "2026-11-02T09:00:02Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": "ok " * 40}],
            },
            "toolUseResult": {"stdout": "ok"},
        },
        {
            **base,
            "type": "assistant",
            "uuid": f"a{n}",
            "parentUuid": f"r{n}",
            "timestamp": "2026-11-02T09:00:03Z",
            "message": {
                "id": f"msg_{n}b",
                "role": "assistant",
                "content": [{"type": "text", "text": "Done: " + "y" * 160}],
            },
        },
    ]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def fill(path: Path, megabytes: float, start: int = 0) -> int:
    """Append whole turns until `megabytes` more are written; the next turn number."""
    n, written = start, 0
    with path.open("ab") as fh:
        while written < megabytes * 2**20:
            chunk = b"".join(claude_pair(i) for i in range(n, n + 200))
            fh.write(chunk)
            written += len(chunk)
            n += 200
    return n


CLAUDE = TranscriptSettings(
    format="claude-code", glob="*.jsonl", turn_idle_seconds=0, max_read_bytes=64 * 2**20
)


def timed_read(root: Path, settings: TranscriptSettings, cursors: dict[str, Cursor]) -> tuple[float, int]:
    start = time.perf_counter()
    batch = read_new_turns(TranscriptSource(root, settings), cursors, "bench", datetime.now(UTC))
    return time.perf_counter() - start, len(batch.turns)


def deployment(folder: Path, root: Path) -> Path:
    config = {
        "version": 1,
        "state_dir": str(folder / "state"),
        "agents": {
            "a": {
                "home": str(folder / "home"),
                "transcripts": {
                    "format": "claude-code",
                    "root": str(root),
                    "glob": "*.jsonl",
                    "turn_idle_seconds": 0,
                    "max_read_bytes": 64 * 2**20,
                },
            }
        },
    }
    (folder / "home").mkdir(parents=True)
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def process_read(config: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "daemon", "--config", str(config), "transcripts", "--agent", "a", "--json"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def bench_claude(tmp: Path, consumed_mb: int, new_mb: float, repeats: int) -> dict[str, object]:
    big_root, small_root = tmp / "big-sessions", tmp / "small-sessions"
    big_root.mkdir()
    small_root.mkdir()
    big, small = big_root / f"{SESSION}.jsonl", small_root / f"{SESSION}.jsonl"
    n = fill(big, consumed_mb)
    st = big.stat()
    cursor = cursor_at(big, st.st_size, (st.st_dev, st.st_ino))
    fill(big, new_mb, n)
    fill(small, new_mb, n)
    cursors = {big.name: cursor}
    big_config, small_config = (
        deployment(tmp / "dep-big", big_root),
        deployment(tmp / "dep-small", small_root),
    )
    cursor_file.advance(
        tmp / "dep-big" / "state" / "agents" / "a" / "cursors.json",
        [CursorAdvance(consumer="distillation", file=big.name, cursor=cursor)],
    )
    inc, alone, proc_inc, proc_alone = [], [], [], []
    turns_big = turns_small = 0
    for _ in range(repeats):
        seconds, turns_big = timed_read(big_root, CLAUDE, cursors)
        inc.append(seconds)
        seconds, turns_small = timed_read(small_root, CLAUDE, {})
        alone.append(seconds)
    for _ in range(max(3, repeats // 3)):
        proc_inc.append(process_read(big_config))
        proc_alone.append(process_read(small_config))
    assert turns_big == turns_small, (turns_big, turns_small)
    return {
        "consumed_bytes": cursor.offset,
        "new_bytes": big.stat().st_size - cursor.offset,
        "turns": turns_big,
        "read_after_cursor_s": statistics.median(inc),
        "new_alone_s": statistics.median(alone),
        "ratio": statistics.median(inc) / statistics.median(alone),
        "process_after_cursor_s": statistics.median(proc_inc),
        "process_alone_s": statistics.median(proc_alone),
        "process_ratio": statistics.median(proc_inc) / statistics.median(proc_alone),
    }


def event(session: int, seq: int) -> str:
    role = "user" if seq % 2 else "assistant"
    text = (
        f"session {session} event {seq}: "
        + ("the user says something worth keeping " if role == "user" else "ok ") * 4
    )
    return json.dumps(
        {
            "type": "message",
            "id": f"e{session}-{seq}",
            "timestamp": "2026-09-01T00:00:00Z",
            "message": {"role": role, "content": [{"type": "text", "text": text}]},
        }
    )


def openclaw_db(path: Path, sessions: int, per_session: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(
            "CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, "
            "PRIMARY KEY (session_id, seq))"
        )
        for s in range(sessions):
            connection.executemany(
                "INSERT INTO transcript_events VALUES (?, ?, ?)",
                ((f"s{s:05d}", q, event(s, q)) for q in range(1, per_session + 1)),
            )
    connection.close()


def append_events(path: Path, session: int, first: int, count: int) -> None:
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO transcript_events VALUES (?, ?, ?)",
            ((f"s{session:05d}", q, event(session, q)) for q in range(first, first + count)),
        )
    connection.close()


OPENCLAW = TranscriptSettings(format="openclaw", glob="agent/*.sqlite", turn_idle_seconds=0)


def bench_openclaw(tmp: Path, events: int, repeats: int) -> dict[str, object]:
    per_session = 1000
    sessions = max(1, events // per_session)
    big_root, small_root = tmp / "oc-big", tmp / "oc-small"
    big, small = big_root / "agent" / "a.sqlite", small_root / "agent" / "a.sqlite"
    start = time.perf_counter()
    openclaw_db(big, sessions, per_session)
    build = time.perf_counter() - start
    st = big.stat()
    cursors = {
        f"agent/a.sqlite#s{s:05d}": Cursor(offset=per_session, dev=st.st_dev, ino=st.st_ino, head=SQLITE_HEAD)
        for s in range(sessions)
    }
    append_events(big, 0, per_session + 1, 1000)
    openclaw_db(small, 1, 0)
    append_events(small, 0, per_session + 1, 1000)
    inc, alone, first = [], [], []
    turns_big = turns_small = turns_first = 0
    for _ in range(repeats):
        seconds, turns_big = timed_read(big_root, OPENCLAW, cursors)
        inc.append(seconds)
        seconds, turns_small = timed_read(small_root, OPENCLAW, {})
        alone.append(seconds)
    # Only session 1 unread: its whole 1,000 events (session 0's new events already read).
    one = {k: v for k, v in cursors.items() if not k.endswith("#s00001")}
    one["agent/a.sqlite#s00000"] = Cursor(
        offset=per_session + 1000, dev=st.st_dev, ino=st.st_ino, head=SQLITE_HEAD
    )
    for _ in range(max(3, repeats // 3)):
        seconds, turns_first = timed_read(big_root, OPENCLAW, one)
        first.append(seconds)
    assert turns_big == turns_small, (turns_big, turns_small)
    return {
        "events": sessions * per_session + 1000,
        "sessions": sessions,
        "db_bytes": big.stat().st_size
        + (Path(f"{big}-wal").stat().st_size if Path(f"{big}-wal").exists() else 0),
        "build_s": build,
        "new_events": 1000,
        "turns": turns_big,
        "read_after_cursors_s": statistics.median(inc),
        "new_alone_s": statistics.median(alone),
        "ratio": statistics.median(inc) / statistics.median(alone),
        "first_read_one_session_s": statistics.median(first),
        "first_read_turns": turns_first,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--consumed-mb", type=int, default=100)
    parser.add_argument("--new-mb", type=float, default=1.0)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as name:
        tmp = Path(name)
        claude = bench_claude(tmp, args.consumed_mb, args.new_mb, args.repeats)
        openclaw = bench_openclaw(tmp, args.events, args.repeats)
    save_results("adapters", {"claude_code": claude, "openclaw_sqlite": openclaw})
    c, o = claude, openclaw
    print_table(
        [
            "Claude Code session",
            "new",
            "turns",
            "read after cursor",
            "1 MB alone",
            "ratio",
            "process: after cursor / alone",
            "ratio",
        ],
        [
            [
                f"{c['consumed_bytes'] / 2**20:.0f} MiB consumed",  # type: ignore[operator]
                f"{c['new_bytes'] / 2**20:.2f} MiB",  # type: ignore[operator]
                c["turns"],
                f"{c['read_after_cursor_s'] * 1000:.1f} ms",  # type: ignore[operator]
                f"{c['new_alone_s'] * 1000:.1f} ms",  # type: ignore[operator]
                f"{c['ratio']:.2f}",
                f"{c['process_after_cursor_s']:.2f} s / {c['process_alone_s']:.2f} s",
                f"{c['process_ratio']:.2f}",
            ]
        ],
    )
    print()
    print_table(
        [
            "OpenClaw database",
            "sessions",
            "new events",
            "turns",
            "read after cursors",
            "new alone",
            "ratio",
            "first read of one 1,000-event session",
        ],
        [
            [
                f"{o['events']:,} events, {o['db_bytes'] / 2**20:.0f} MiB",  # type: ignore[operator]
                o["sessions"],
                o["new_events"],
                o["turns"],
                f"{o['read_after_cursors_s'] * 1000:.1f} ms",  # type: ignore[operator]
                f"{o['new_alone_s'] * 1000:.1f} ms",  # type: ignore[operator]
                f"{o['ratio']:.2f}",
                f"{o['first_read_one_session_s'] * 1000:.1f} ms ({o['first_read_turns']} turns)",  # type: ignore[operator]
            ]
        ],
    )


if __name__ == "__main__":
    main()
