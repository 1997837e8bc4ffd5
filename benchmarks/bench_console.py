"""Console page latency against the command a person would type instead, on a store of many runs.

Run: .venv/bin/python benchmarks/bench_console.py [--runs 20 1000] [--repeats 7]
For each store size: one agent whose store holds that many runs (approve / undo of one
daily-log proposal, alternating), a real `metaeng-daemon console` subprocess, then
interleaved pairs: GET of a page over HTTP (warm server, with the session cookie) vs.
the equivalent CLI process started from scratch (`runs --json`, `show RUN`,
`review list --json`, `status --json`). Medians and their ratio (page / command).
Writes benchmarks/results/console.json and prints a markdown table.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from daemon.config import load_deployment
from daemon.wiring.review import decide
from daemon.wiring.undo import undo
from tests.daemon.doors.console.helpers import open_proposal, review_deployment
from tests.daemon.doors.console.process import ConsoleProcess

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
            last = undo(deployment, "ada", last, now, 0).run_id
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
        console = ConsoleProcess(config, root)
        try:
            link = console.url()
            base = link.split("?")[0]
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            opener.open(link).read()
            pairs = [
                ("/runs", "runs", ["runs", "--json"]),
                (f"/runs/ada/{run_id}", "run diff", ["show", run_id]),
                ("/review", "review queue", ["review", "list", "--json"]),
                ("/agents", "agents", ["status", "--json"]),
            ]
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
    parser.add_argument("--runs", type=int, nargs="+", default=[20, 1000])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rows = [row for runs in args.runs for row in measure(runs, args.repeats)]
    save_results("console", {"rows": rows, "repeats": args.repeats})
    print_table(
        ["runs in store", "page", "command", "page (median)", "command (median)", "page / command"],
        [[f"{r['runs']:,}", r["page"], f"`{r['command']}`", f"{r['page_ms']} ms", f"{r['command_ms']} ms", str(r["ratio"])] for r in rows],
    )


if __name__ == "__main__":
    main()
