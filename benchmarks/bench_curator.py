"""The skill curator at 3,000 learned skills and a usage record of 10,000 sessions, against 300.

Run: .venv/bin/python benchmarks/bench_curator.py [--sizes 300 3000] [--sessions 10000] [--repeats 5]
Prints a markdown table and writes benchmarks/results/curator.json.

Per size N, a deployment of N learned skills the daemon wrote (provenance sidecars; one in
five with a script, one in seven with a reference file; made-up words, so no two are alike)
and a usage record of `--sessions` sessions over 200 days: 90 % of the skills used in the
last sessions, 5 % idle for months (archived by the first run, through the consent
proposal, which the setup approves) and 5 % — cohort B — used lately until the measured
real runs, for which the record says B has been idle for months: each real run archives
5 % of the library (under the 10 % consent share, so without a proposal), and is undone
(not timed) before the next. Timed, medians of `--repeats`, rows interleaved repeat by
repeat:

- `curator --dry-run --json` and a real `curator --json`, as whole processes (the
  `metaeng-daemon` console script of this environment) and in process (`main()` as the
  tests call it, configuration loading included);
- a real run with nothing to archive (cohort B used lately): the curator's daily cost when
  nothing moves.

The ratio column is N = the largest size against the smallest.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import Align, print_table, save_results
from skills_engine.provenance import Provenance, sidecar_write
from tests.support.deploy import base_config, run_cli, write_config

SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


class Library:
    """One deployment: N learned skills, the usage record, the CLI both ways."""

    def __init__(self, root: Path, skills: int, sessions: int, seed: int = 3) -> None:
        self.root = root
        self.rng = random.Random(seed)
        self.now = datetime.now(UTC)
        self.sessions = sessions
        config = base_config(root, None)
        config["agents"]["ada"]["skills"] = {"learned": "skills"}
        self.config = write_config(root, config)
        self.home = root / "ada"
        self.usage = root / "state" / "agents" / "ada" / "usage.json"
        self.names = [f"{self.word()}-{self.word()}-{n}" for n in range(skills)]
        twentieth = max(skills // 20, 1)
        self.cohort_a = self.names[:twentieth]  # idle for months: the consent proposal's
        self.cohort_b = self.names[twentieth : 2 * twentieth]  # idle for months in the timed real runs
        self.script = str(Path(sys.executable).parent / "metaeng-daemon")

    def word(self) -> str:
        return "".join(self.rng.choice(SYLLABLES) for _ in range(3))

    def build(self) -> None:
        learned_at = (self.now - timedelta(days=250)).isoformat()
        for index, name in enumerate(self.names):
            folder = self.home / "skills" / name
            (folder / "scripts").mkdir(parents=True)
            words = [self.word() for _ in range(8)]
            (folder / "SKILL.md").write_text(
                f"---\nname: {name}\ndescription: Handle {words[0]} {words[1]}. Use when asked.\n---\n\n"
                f"# {name}\n\n## Steps\n1. {words[2]} the {words[3]}\n2. {words[4]} every {words[5]}\n"
            )
            if index % 5 == 0:
                (folder / "scripts" / "run.sh").write_text(f"#!/bin/sh\necho {words[6]}\n")
            if index % 7 == 0:
                (folder / "reference.md").write_text(f"# {words[7]}\n")
            write = sidecar_write("skills", Provenance(name=name, kind="created", created_at=learned_at))
            (self.home / write.path).write_bytes(write.content)
        self.write_usage(b_idle=False)
        self.cli_ok("once", "--agent", "ada", "--pass", "workspace_consolidation")
        proposal = self.cli_ok("curator", "--agent", "ada", "--json")["proposal"]
        if not proposal:
            raise SystemExit("the first curator run proposed nothing")
        self.cli_ok("review", "approve", proposal, "--agent", "ada", "--json")

    def write_usage(self, b_idle: bool) -> None:
        """10,000 sessions over 200 days; who used what, as the module docstring says."""
        days = 200
        per_day = self.sessions // days
        by_day = {(self.now - timedelta(days=d)).date().isoformat(): per_day for d in range(1, days + 1)}
        seen = per_day * days
        long_ago = (self.now - timedelta(days=120)).isoformat(timespec="seconds")
        lately = (self.now - timedelta(days=1)).isoformat(timespec="seconds")
        idle = set(self.cohort_a) | (set(self.cohort_b) if b_idle else set())
        skills: dict[str, Any] = {}
        for name in self.names:
            when, mark = (long_ago, seen - 120 * per_day) if name in idle else (lately, seen - self.rng.randint(0, 10))
            skills[name] = {"count": 5, "sessions": 3, "first": when, "last": when, "mark": mark}
        record = {"version": 1, "sessions_seen": seen, "sessions_by_day": by_day, "skills": skills}
        self.usage.parent.mkdir(parents=True, exist_ok=True)
        self.usage.write_text(json.dumps(record))

    def cli_ok(self, *args: str) -> Any:
        done = run_cli(self.config, *args)
        if done.code != 0:
            raise SystemExit(f"{' '.join(args)} exited {done.code}: {done.err[-600:]}")
        return json.loads(done.out) if "--json" in args else done.out

    def process(self, *args: str) -> Any:
        done = subprocess.run([self.script, "--config", str(self.config), *args], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} exited {done.returncode}: {done.stderr[-600:]}")
        return json.loads(done.stdout)

    def archived(self, result: dict[str, Any]) -> None:
        """Check a real run archived cohort B, and undo it (untimed) for the next repeat."""
        if sorted(result["archived"]) != sorted(self.cohort_b):
            raise SystemExit(f"the real run archived {len(result['archived'])} skills, not cohort B ({len(self.cohort_b)})")
        self.cli_ok("undo", result["run_id"], "--json")


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def measure(library: Library, repeats: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {}

    def add(row: str, seconds: float) -> None:
        samples.setdefault(row, []).append(seconds)

    dry = ("curator", "--agent", "ada", "--dry-run", "--json")
    real = ("curator", "--agent", "ada", "--json")
    for _ in range(repeats):
        library.write_usage(b_idle=False)
        seconds, result = timed(lambda: library.process(*dry))
        add("dry run, process", seconds)
        if result["would_archive"]:
            raise SystemExit(f"nothing should be due, {len(result['would_archive'])} are")
        add("dry run, in process", timed(lambda: library.cli_ok(*dry))[0])
        seconds, result = timed(lambda: library.process(*real))
        add("real run, nothing due, process", seconds)
        add("real run, nothing due, in process", timed(lambda: library.cli_ok(*real))[0])
        library.write_usage(b_idle=True)
        seconds, result = timed(lambda: library.process(*dry))
        add("dry run, 5 % due, process", seconds)
        if sorted(result["would_archive"]) != sorted(library.cohort_b) or result["consent"]:
            raise SystemExit(f"cohort B should be due without a proposal: {result['consent']}")
        seconds, result = timed(lambda: library.process(*real))
        add("real run, archives 5 %, process", seconds)
        library.archived(result)
        seconds, result = timed(lambda: library.cli_ok(*real))
        add("real run, archives 5 %, in process", seconds)
        library.archived(result)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 3000])
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    medians: dict[int, dict[str, float]] = {}
    setup: dict[int, float] = {}
    for size in args.sizes:
        root = Path(tempfile.mkdtemp(prefix="bench-curator-"))
        try:
            library = Library(root, size, args.sessions)
            setup[size] = timed(library.build)[0]
            samples = measure(library, args.repeats)
            medians[size] = {row: statistics.median(values) for row, values in samples.items()}
        finally:
            shutil.rmtree(root, ignore_errors=True)
    small, large = min(args.sizes), max(args.sizes)
    rows = [
        [row, *(f"{medians[size][row]:.2f} s" for size in args.sizes), f"{medians[large][row] / medians[small][row]:.1f}×"]
        for row in medians[small]
    ]
    print(
        f"{args.sessions:,} sessions in the usage record; setup (skills written, imported, the first archive "
        f"proposed and approved): " + ", ".join(f"{setup[s]:.0f} s at {s:,}" for s in args.sizes)
    )
    right: Align = "right"
    aligns: list[Align] = ["left", *[right] * len(args.sizes), right]
    print_table(["curator", *(f"{size:,} skills" for size in args.sizes), f"{large:,} ÷ {small:,}"], rows, aligns)
    save_results(
        "curator",
        {
            "sizes": args.sizes,
            "sessions": args.sessions,
            "repeats": args.repeats,
            "setup_s": setup,
            "medians_s": medians,
            "ratios": {row: medians[large][row] / medians[small][row] for row in medians[small]},
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
