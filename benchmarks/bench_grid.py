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
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[1, 10, 100], help="suite sizes as ×20 stories"
    )
    parser.add_argument("--repeat", type=int, default=3, help="grid runs per suite (best time reported)")
    parser.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    args = parser.parse_args()
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
        ["suite", "stories", "configs", "wall (s)", "configs/s", "ms/config", "µs/scenario run"],
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
