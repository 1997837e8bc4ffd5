"""Console page latency against the command a person would type instead, on a store of many runs.

Run: .venv/bin/python benchmarks/bench_console.py [--runs 20 1000] [--search-runs 10000] [--repeats 7]
For each store size: one agent whose store holds that many runs (approve / undo of one
daily-log proposal, alternating), a real `metaeng-daemon console` subprocess, then
interleaved pairs: GET of a page over HTTP (warm server, with the session cookie) vs.
the equivalent CLI process started from scratch (`runs --json`, `show RUN`,
`review list --json`, `status --json`). Medians and their ratio (page / command).

`--search-runs N` (default 10,000; none with `--search-runs` alone): a store of N runs
appended by `git fast-import` (tests.support.run_history; two of them create
`skills/rare-N` and say "zebra crossing" in their report), then the Runs page's first
page, a search in the reports' text and a search by file against `metaeng-daemon runs`
as a whole process, the newest run's page against `show RUN` and the Agents page against
`status --json`. Writes benchmarks/results/console.json (rows of other sizes and
cases already there are kept) and prints a markdown table.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import RESULTS, print_table, save_results
from daemon.config import load_deployment
from daemon.wiring.review import decide
from daemon.wiring.undo import undo
from tests.daemon.doors.console.helpers import open_proposal, review_deployment
from tests.daemon.doors.console.process import ConsoleProcess
from tests.support.deploy import run_cli
from tests.support.run_history import many_runs

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def build(root: Path, runs: int) -> tuple[Path, str]:
    """A deployment whose store holds `runs` runs; returns the config and the newest run id."""
    config = review_deployment(root)
    pid = open_proposal(config)
    deployment = load_deployment(config, {})
    last = ""
    for n in range(runs - 1):
        now = START + timedelta(seconds=n + 1)
        if n % 2 == 0:
            result = decide(deployment, "ada", pid, "approve", now=now, by="bench", why="", lock_timeout=0)
            last = result.run_id or last
        else:
            last = undo(deployment, "ada", last, now, 0).run_id or last
    return config, last


def _cli(config: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "daemon", "--config", str(config), *args], capture_output=True, check=True)
    return time.perf_counter() - start


def _page(opener: urllib.request.OpenerDirector, url: str) -> float:
    start = time.perf_counter()
    with opener.open(url, timeout=60) as answer:
        answer.read()
    return time.perf_counter() - start


def measure(runs: int, repeats: int) -> list[dict[str, object]]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config, run_id = build(root, runs)
        pairs = [
            ("/runs", "runs", ["runs", "--json"]),
            (f"/runs/ada/{run_id}", "run diff", ["show", run_id]),
            ("/review", "review queue", ["review", "list", "--json"]),
            ("/agents", "agents", ["status", "--json"]),
        ]
        return _pairs(root, config, runs, pairs, repeats)


def measure_search(runs: int, repeats: int) -> list[dict[str, object]]:
    """The Runs page's first page and its searches on a store of `runs` runs, against `runs`."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = many_runs(root, runs, rare={runs // 3, 2 * runs // 3})
        listed = run_cli(config, "runs", "--json")  # builds the run index, as the applier keeps it in production
        assert listed.code == 0
        newest = listed.json()[0]["run_id"]
        pairs = [
            ("/runs", "runs, first page", ["runs"]),
            ("/runs?q=zebra+crossing", "runs, search in report text", ["runs"]),
            ("/runs?q=skills%2Frare-", "runs, search by file", ["runs"]),
            (f"/runs/ada/{newest}", "run page (newest)", ["show", newest]),
            ("/agents", "agents", ["status", "--json"]),
        ]
        return _pairs(root, config, runs, pairs, repeats)


def _pairs(
    root: Path, config: Path, runs: int, pairs: list[tuple[str, str, list[str]]], repeats: int
) -> list[dict[str, object]]:
    console = ConsoleProcess(config, root)
    try:
        link = console.url()
        base = link.split("?")[0]
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        opener.open(link).read()
        rows = []
        for path, label, args in pairs:
            pages, commands = [], []
            for _ in range(repeats):  # interleaved: page, command, page, command, ...
                pages.append(_page(opener, base + path.lstrip("/")))
                commands.append(_cli(config, *args))
            page, command = statistics.median(pages), statistics.median(commands)
            rows.append(
                {
                    "runs": runs,
                    "page": label,
                    "command": " ".join(args),
                    "page_ms": round(page * 1000, 1),
                    "command_ms": round(command * 1000, 1),
                    "ratio": round(page / command, 3),
                }
            )
        return rows
    finally:
        console.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, nargs="*", default=[20, 1000])
    parser.add_argument("--search-runs", type=int, nargs="*", default=[10_000])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rows = [row for runs in args.runs for row in measure(runs, args.repeats)]
    rows += [row for runs in args.search_runs for row in measure_search(runs, args.repeats)]
    saved = RESULTS / "console.json"
    fresh = {(r["runs"], r["page"]) for r in rows}
    kept = [r for r in json.loads(saved.read_text())["rows"] if (r["runs"], r["page"]) not in fresh] if saved.exists() else []
    save_results("console", {"rows": kept + rows, "repeats": args.repeats})
    print_table(
        ["runs in store", "page", "command", "page (median)", "command (median)", "page / command"],
        [[f"{r['runs']:,}", r["page"], f"`{r['command']}`", f"{r['page_ms']} ms", f"{r['command_ms']} ms", str(r["ratio"])] for r in rows],
    )


if __name__ == "__main__":
    main()
