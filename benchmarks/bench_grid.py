"""Benchmark the settings grid: full-grid wall time, configurations per second, and the cost
per configuration as the scenario suite grows ×10 and ×100 (generated stories).

Run by hand (not part of the test suite):

    .venv/bin/python benchmarks/bench_grid.py            # published suite, ×10, ×100
    .venv/bin/python benchmarks/bench_grid.py --sizes 1 10 --repeat 5

The published suite is the in-repo copy (`builtin:published`, 20 stories). Generated
suites hold N × 20 random stories (updates, future-dated moves, distractor entities,
low-confidence guesses, useful modest facts, confirmations, deletions, a second user),
with expected answers computed from the story's own ground truth, not from the engine.
Their confidences come from the published suite's six values, so every suite has the
same 384-configuration grid and the cost per configuration is comparable.

    .venv/bin/python benchmarks/bench_grid.py --process [--before HEAD] [--reference CMD]

times `lab grid --scenarios builtin:published` as a whole process (start-up included), for
this checkout and for `--before` (a git revision exported with `git archive`, or a folder),
interleaved round by round with the reference implementation when `--reference` gives the
shell command that runs it (the published lab's `scripts/settings_grid.py` in a checkout of
it; the lab is not part of this repository), and writes benchmarks/results/grid_process.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import Align, print_table, save_results
from daemon.lab.grid import run_grid
from daemon.lab.scenarios import Suite, load_suite, parse_suite

SURE = (0.95, 1.0)
GUESS = (0.25, 0.3, 0.4)
USEFUL = 0.6
CITIES = ("Berlin", "Paris", "Rome", "Oslo", "Lisbon", "Vienna", "Prague", "Madrid", "Dublin", "Riga")
ENTITIES = ("home", "office", "project-a", "project-b", "project-c", "project-d")


def _day(n: int) -> str:
    return f"2026-01-{n:02d}"


class Story:
    """One generated story with its ground truth: (tenant, user, entity, key) → [(from, value)]."""

    def __init__(self, sid: str, rng: random.Random) -> None:
        self.id, self.rng = sid, rng
        self.events: list[dict[str, Any]] = []
        self.truth: dict[tuple[str, str, str, str], list[tuple[int, str]]] = {}
        self.deleted: set[tuple[str, str, str, str]] = set()

    def write(
        self,
        at: int,
        entity: str,
        key: str,
        value: str,
        conf: float,
        since: int,
        user: str = "ada",
        keep: bool = True,
    ) -> None:
        fact = {
            "tenant": "north",
            "user": user,
            "entity": entity,
            "key": key,
            "value": value,
            "confidence": conf,
            "valid_from": _day(since),
            "source": "user",
            "kind": "fact",
        }
        self.events.append(
            {
                "action": "write",
                "at": _day(at),
                "tenant": "north",
                "user": user,
                "should_retain": keep,
                "fact": fact,
            }
        )
        if keep:
            self.truth.setdefault(("north", user, entity, key), []).append((since, value))

    def delete(self, at: int, entity: str, key: str, user: str = "ada") -> None:
        self.events.append(
            {
                "action": "delete",
                "at": _day(at),
                "tenant": "north",
                "user": user,
                "entity": entity,
                "key": key,
            }
        )
        self.truth.pop(("north", user, entity, key), None)

    def query(self, at: int, entity: str, key: str, as_of: int, user: str = "ada") -> None:
        versions = sorted(self.truth.get(("north", user, entity, key), []))
        valid = [value for since, value in versions if since <= as_of]
        self.events.append(
            {
                "action": "query",
                "at": _day(at),
                "tenant": "north",
                "user": user,
                "entity": entity,
                "key": key,
                "as_of": _day(as_of),
                "text": key,
                "expected": valid[-1] if valid else None,
            }
        )

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "role": "evaluation", "family": "generated", "events": self.events}


def _updates(s: Story) -> None:
    day, cities = 1, s.rng.sample(CITIES, s.rng.randint(2, 4))
    for city in cities:
        since = day + s.rng.choice((0, 0, 5))  # sometimes announced ahead of time
        s.write(day, "home", "city", city, s.rng.choice(SURE), since)
        day = since + s.rng.randint(1, 4)
    for _ in range(s.rng.randint(1, 3)):
        s.query(day, "home", "city", s.rng.randint(1, day))


def _distractors(s: Story) -> None:
    entities = s.rng.sample(ENTITIES, s.rng.randint(2, len(ENTITIES)))
    for i, entity in enumerate(entities, start=1):
        s.write(i, entity, "plan", s.rng.choice(("free", "team", "pro", "basic")), s.rng.choice(SURE), i)
    s.query(len(entities) + 1, s.rng.choice(entities), "plan", len(entities) + 1)


def _uncertain(s: Story) -> None:
    first, second = s.rng.sample(CITIES, 2)
    s.write(1, "home", "city", first, s.rng.choice(SURE), 1)
    if s.rng.random() < 0.5:
        s.write(3, "home", "city", second, s.rng.choice(GUESS), 3, keep=False)
    else:
        s.write(3, "account", "language", "Portuguese", USEFUL, 3)
        s.query(4, "account", "language", 4)
    s.query(5, "home", "city", 5)


def _confirmations(s: Story) -> None:
    value = s.rng.choice(("green", "blue", "red"))
    for day in range(1, s.rng.randint(3, 5)):
        s.write(day * 3, "account", "color", value, s.rng.choice(SURE), day * 3)
    s.query(20, "account", "color", 20)


def _deletion(s: Story) -> None:
    s.write(1, "home", "city", s.rng.choice(CITIES), s.rng.choice(SURE), 1)
    s.write(2, "home", "timezone", "Europe/Berlin", s.rng.choice(SURE), 2)
    s.write(3, "office", "city", s.rng.choice(CITIES), s.rng.choice(SURE), 3)
    s.delete(4, "home", "city")
    s.query(5, "home", "city", 5)
    s.query(5, "home", "timezone", 5)


def _two_users(s: Story) -> None:
    s.write(1, "home", "city", s.rng.choice(CITIES), s.rng.choice(SURE), 1)
    s.write(1, "home", "city", s.rng.choice(CITIES), s.rng.choice(SURE), 1, user="ben")
    s.query(2, "home", "city", 2, user=s.rng.choice(("ada", "ben")))
    s.query(2, "account", "language", 2, user="ben")


FAMILIES = (_updates, _distractors, _uncertain, _confirmations, _deletion, _two_users)


def generated_suite(stories: int, seed: int = 7) -> Suite:
    rng = random.Random(seed)
    items = []
    for index in range(stories):
        story = Story(f"gen-{index:05d}", rng)
        FAMILIES[index % len(FAMILIES)](story)
        items.append(story.as_json())
    raw = json.dumps({"version": 1, "name": f"generated-{stories}", "scenarios": items}).encode()
    suite = parse_suite(raw, f"generated-{stories}")
    assert suite.confidences() == sorted({*SURE, *GUESS, USEFUL}), "same six threshold classes as published"
    return suite


def measure(suite: Suite, repeat: int) -> dict[str, Any]:
    times, grid = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        grid = run_grid(suite)
        times.append(time.perf_counter() - started)
    assert grid is not None
    best, configs = grid.best, len(grid.results)
    wall = min(times)
    return {
        "suite": suite.name,
        "stories": len(suite.scenarios),
        "configurations": configs,
        "wall_s_min": round(wall, 3),
        "wall_s_median": round(statistics.median(times), 3),
        "configurations_per_s": round(configs / wall, 1),
        "ms_per_configuration": round(1000 * wall / configs, 3),
        "us_per_scenario_run": round(1e6 * wall / (configs * len(suite.scenarios)), 1),
        "best": None if best is None else f"{best.settings.describe()} → {best.passed}/{best.total}",
    }


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str] | str, tree: Path | None, cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, its own children included) of one process.

    CPU time is reported beside wall time because it barely moves with the machine's load,
    which on a shared two-core machine can double a wall-clock median.
    """
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)  # ahead of the editable install's finder
    cpu = _cpu_of_children()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, shell=isinstance(argv, str))
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed, _cpu_of_children() - cpu


def measure_processes(before: str, reference: str | None, rounds: int) -> None:
    """`lab grid` on the published suite as a whole process: before, after, reference."""
    repo = Path(__file__).resolve().parents[1]
    work = Path(tempfile.mkdtemp(prefix="bench-grid-"))
    try:
        tree = Path(before).resolve() if Path(before).is_dir() else work / "before"
        if not tree.is_dir():
            tree.mkdir()
            archive = subprocess.run(["git", "-C", str(repo), "archive", before], check=True, capture_output=True)
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        grid = [sys.executable, "-m", "daemon", "lab", "grid", "--scenarios", "builtin:published"]
        runs: dict[str, tuple[list[str] | str, Path | None]] = {"before": (grid, tree), "after": (grid, repo)}
        if reference:
            runs["reference"] = (reference, None)
        samples: dict[str, list[float]] = {name: [] for name in runs}
        cpu_samples: dict[str, list[float]] = {name: [] for name in runs}
        load = [os.getloadavg()[0]]
        for round_no in range(rounds):
            order = list(runs.items())
            for name, (argv, where) in order if round_no % 2 == 0 else reversed(order):
                wall, cpu = _timed(argv, where, work)
                samples[name].append(wall)
                cpu_samples[name].append(cpu)
            print(f"round {round_no + 1}/{rounds}", file=sys.stderr)
        load.append(os.getloadavg()[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    median = {name: statistics.median(values) for name, values in samples.items()}
    cpu_median = {name: statistics.median(values) for name, values in cpu_samples.items()}
    print(f"`lab grid --scenarios builtin:published` as a whole process, median of {rounds}")
    print(f"load average (1 min) before and after: {load[0]:.2f}, {load[1]:.2f} on {os.cpu_count()} CPU(s)")
    rows = [[name, f"{median[name]:.3f} s", f"{cpu_median[name]:.3f} s"] for name in median]
    headers = ["process", "wall", "CPU"]
    if reference:
        rows = [
            [*row, f"{median[row[0]] / median['reference']:.2f}×", f"{cpu_median[row[0]] / cpu_median['reference']:.2f}×"]
            for row in rows
        ]
        headers += ["wall ÷ reference", "CPU ÷ reference"]
    right: Align = "right"
    align: list[Align] = ["left", *[right] * (len(headers) - 1)]
    print_table(headers, rows, align)
    save_results(
        "grid_process",
        {
            "before": before,
            "reference": reference,
            "rounds": rounds,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average_1min_before_after": load,
            "samples_s": samples,
            "median_s": median,
            "cpu_samples_s": cpu_samples,
            "cpu_median_s": cpu_median,
        },
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--process", action="store_true", help="time `lab grid` as whole processes instead")
    parser.add_argument("--before", default="HEAD", help="with --process: git revision or folder to compare with")
    parser.add_argument("--reference", help="with --process: shell command running the reference implementation")
    parser.add_argument("--rounds", type=int, default=9, help="with --process: interleaved rounds (median taken)")
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[1, 10, 100], help="suite sizes as ×20 stories"
    )
    parser.add_argument("--repeat", type=int, default=3, help="grid runs per suite (best time reported)")
    parser.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    args = parser.parse_args()
    if args.process:
        measure_processes(args.before, args.reference, args.rounds)
        return
    rows = []
    for size in args.sizes:
        suite = load_suite("builtin:published") if size == 1 else generated_suite(20 * size)
        rows.append({"size": f"×{size}", **measure(suite, args.repeat if size < 100 else 1)})
    if args.json:
        print(
            json.dumps(
                {"python": platform.python_version(), "machine": platform.machine(), "rows": rows}, indent=1
            )
        )
        return
    print(f"python {platform.python_version()} on {platform.machine()}")
    print_table(
        ["suite", "stories", "configs", "wall (s)", "configs/s", "ms/config", "µs/config × story"],
        (
            [
                f"{r['size']} {r['suite']}",
                r["stories"],
                r["configurations"],
                r["wall_s_min"],
                r["configurations_per_s"],
                r["ms_per_configuration"],
                r["us_per_scenario_run"],
            ]
            for r in rows
        ),
        align=("left", "right", "right", "right", "right", "right", "right"),
    )
    for r in rows:
        print(f"best on {r['suite']}: {r['best']}")


if __name__ == "__main__":
    main()
