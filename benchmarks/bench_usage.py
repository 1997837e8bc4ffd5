"""Usage signals at scale: the record at 10,000 sessions and 1,000 skills, and the probe's cost on reading.

Run: .venv/bin/python benchmarks/bench_usage.py [--sessions 10000] [--skills 1000] [--mb 64]
Prints two markdown tables and writes benchmarks/results/usage.json.

- record: load `usage.json`, count one run's reads (100 sessions with new turns, 3 uses
  each) and write it back, as the runner does; and load it alone, as `skills list` and
  `status` do;
- probe: read a Claude Code transcript of `--mb` megabytes (one in ten lines a tool call,
  one in a hundred a skill opened) with and without the probe.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts import usage_record
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import read_new_turns
from daemon.transcripts.usage import SessionUsage, UsageEvent, probe_for

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def seeded(path: Path, sessions: int, skills: int) -> None:
    """A record holding `sessions` sessions (each with two skills used) and `skills` skills."""
    reads = [
        SessionUsage(
            f"-srv-project/{n:08d}-0000-4000-8000-000000000000.jsonl",
            f"{n:08d}",
            f"line:{n:016x}",
            10_000,
            tuple(
                UsageEvent("skill_opened", f"skill-{(n * 7 + k) % skills}", f"{n:08d}", f"f@{k}", None, k * 100)
                for k in range(2)
            ),
            "2026-11-20T10:00:00+00:00",
        )
        for n in range(sessions)
    ]
    usage_record.record(path, reads, NOW)


def one_run(sessions: int, skills: int) -> list[SessionUsage]:
    """What one run reads: 100 sessions with new turns, 3 uses each, half of them new sessions."""
    return [
        SessionUsage(
            f"-srv-project/{n:08d}-0000-4000-8000-000000000000.jsonl",
            f"{n:08d}",
            f"line:{n:016x}",
            20_000,
            (
                UsageEvent("skill_opened", f"skill-{n % skills}", f"{n:08d}", "f@10000", None, 12_000),
                UsageEvent("facts_view_read", None, f"{n:08d}", "f@10000", None, 13_000),
                UsageEvent("hook_context", None, f"{n:08d}", "f@10000", None, 14_000),
            ),
            "2026-11-30T10:00:00+00:00",
        )
        for n in range(sessions - 50, sessions + 50)
    ]


def timed(fn: object, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def transcript(path: Path, megabytes: int) -> None:
    lines = []
    content: object
    for n in range(1000):
        if n % 10 == 0:
            name, args = ("Skill", {"skill": "release"}) if n % 100 == 0 else ("Bash", {"command": "make test"})
            content = [{"type": "tool_use", "id": f"t{n}", "name": name, "input": args}]
            role = "assistant"
        elif n % 2:
            content = [{"type": "text", "text": "Working on it. " + "y" * 300}]
            role = "assistant"
        else:
            content = "Please look at the failing deploy " + "x" * 200
            role = "user"
        line = {"type": role, "uuid": f"u{n}", "sessionId": "s", "timestamp": "2026-11-05T09:00:00Z"}
        lines.append(json.dumps({**line, "message": {"role": role, "content": content}}) + "\n")
    block = "".join(lines).encode()
    with path.open("wb") as fh:
        for _ in range(megabytes * 1024 * 1024 // len(block) + 1):
            fh.write(block)
    os.utime(path, (1_700_000_000, 1_700_000_000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--skills", type=int, default=1_000)
    parser.add_argument("--mb", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        record = Path(tmp) / "usage.json"
        seeded(record, args.sessions, args.skills)
        size = record.stat().st_size
        original = record.read_bytes()
        reads = one_run(args.sessions, args.skills)

        def run() -> None:
            record.write_bytes(original)
            usage_record.record(record, reads, NOW)

        load = timed(lambda: usage_record.load(record), args.repeats)
        count = timed(run, args.repeats)
        results["record"] = {"sessions": args.sessions, "skills": args.skills, "bytes": size, "load_s": load, "run_s": count}
        print_table(
            ["sessions", "skills", "usage.json", "load (skills list, status)", "one run's 100 sessions counted and written"],
            [[args.sessions, args.skills, f"{size / 1024 / 1024:.2f} MiB", f"{load * 1000:.0f} ms", f"{count * 1000:.0f} ms"]],
            ["right", "right", "right", "right", "right"],
        )
        home = Path(tmp) / "home"
        home.mkdir()
        transcript(home / "s.jsonl", args.mb)
        settings = TranscriptSettings(format="claude-code", glob="*.jsonl", max_read_bytes=(args.mb + 1) * 1024 * 1024)
        bare = TranscriptSource(home, settings)
        probed = TranscriptSource(home, settings, probe=probe_for("claude-code", ".claude/metaeng-facts.md"))
        plain_s = timed(lambda: read_new_turns(bare, {}, "bench", NOW), 3)
        probe_s = timed(lambda: read_new_turns(probed, {}, "bench", NOW), 3)
        uses = sum(len(u.events) for u in read_new_turns(probed, {}, "bench", NOW).usage)
        results["probe"] = {"mb": args.mb, "without_s": plain_s, "with_s": probe_s, "uses": uses}
        print()
        print_table(
            ["transcript", "read without the probe", "read with the probe", "uses found"],
            [[f"{args.mb} MB", f"{plain_s:.2f} s", f"{probe_s:.2f} s", uses]],
            ["right", "right", "right", "right"],
        )
    print(f"\nresults: {save_results('usage', results)}")


if __name__ == "__main__":
    main()
