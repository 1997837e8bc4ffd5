"""The PostgreSQL coordination backend: reservations per second, and what it adds to a run.

Run: .venv/bin/python benchmarks/bench_coordination.py [--reservations 2000] [--pairs 10]

1. Reservations per second against a throwaway local PostgreSQL (initdb + pg_ctl, as in
   the tests) from 1, 4 and 16 concurrent worker processes, each reserving through the
   ledger the daemon uses (one transaction under the day's advisory lock); the local
   backend (file lock + JSON Lines day file) beside it for scale.
2. The added latency per run: `metaeng-daemon once` as a whole process (one distillation
   model call on 4 new turns against the scripted model server), local backend vs.
   PostgreSQL, in interleaved pairs; medians and their ratio.

Writes benchmarks/results/coordination.json and prints Markdown tables.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))


from benchmarks.report import print_table, save_results
from daemon.config import load_deployment
from daemon.coordination.backends import coordination_for
from tests.support.deploy import TEST_KEY, base_config, conversation, write_config, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.postgres import PASSWORD, postgres_server
from tests.support.runs import berlin_fact

REPO = Path(__file__).resolve().parents[1]
ENV = {"METAENG_PG_PASSWORD": PASSWORD, "TEST_API_KEY": TEST_KEY}


def _config(root: Path, url: str | None, model_url: str | None) -> Path:
    config = base_config(root, model_url, ("ada",))
    config["budget"] = {"daily_usd": 1e9, "per_agent_daily_usd": 1e9}
    config["passes"] = {
        p: p == "distillation"
        for p in ("distillation", "skill_learning", "memory_consolidation", "library_maintenance",
                  "workspace_consolidation", "instruction_review")
    }
    if url:
        config["coordination"] = {"url": url}
    write_transcript(root / "ada", "s0.jsonl", conversation([("Hello.", "Hi.")]))
    return write_config(root, config)


def _worker(config: str, count: int, barrier: Any, index: int, times: Any) -> None:
    os.environ.update(ENV)
    deployment = load_deployment(Path(config), os.environ)
    ledger = coordination_for(deployment).ledger()
    now = datetime.now(UTC)
    ledger.totals(now.date().isoformat(), "ada")  # connected and migrated before the clock starts
    barrier.wait()
    start = time.time()
    for n in range(count):
        ledger.reserve(
            agent="ada", run_id=f"w{index}-{n}", usd=0.001, now=now, deployment_limit=1e9, agent_limit=1e9,
            count_deep_pass=False, deep_cap=1,
        )
    times.put((start, time.time()))  # measured inside: process start and exit are not the ledger's


def reservations_per_second(config: Path, workers: int, total: int) -> float:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers)
    times = context.Queue()
    share = total // workers
    procs = [
        context.Process(target=_worker, args=(str(config), share, barrier, i, times)) for i in range(workers)
    ]
    for proc in procs:
        proc.start()
    spans = [times.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join()
        assert proc.exitcode == 0
    return share * workers / (max(end for _, end in spans) - min(start for start, _ in spans))


def timed_once(config: Path, model: FakeModelServer, turn: int) -> float:
    home = config.parent / "ada"
    write_transcript(home, f"s{turn}.jsonl", conversation([(f"I live in Berlin {turn}.", "Noted.")] * 4))
    model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    env = {**os.environ, **ENV, "HOME": str(config.parent), "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada"],
        env=env, cwd=REPO, capture_output=True, text=True,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"once failed: {result.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reservations", type=int, default=2000)
    parser.add_argument("--pairs", type=int, default=10)
    args = parser.parse_args()
    results: dict[str, Any] = {"throughput": [], "runs": {}}
    model = FakeModelServer().start()
    with postgres_server() as server, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rows = []
        for workers in (1, 4, 16):
            pg = reservations_per_second(
                _config(root / f"pg{workers}", server.create_database(f"b{workers}"), None), workers, args.reservations
            )
            local = reservations_per_second(_config(root / f"local{workers}", None, None), workers, args.reservations)
            results["throughput"].append({"workers": workers, "postgresql_per_s": pg, "local_per_s": local})
            rows.append([workers, args.reservations, f"{pg:.0f}", f"{local:.0f}", f"{pg / local:.2f}"])
        print_table(
            ["workers", "reservations", "PostgreSQL /s", "local files /s", "ratio"], rows, ["right"] * 5
        )
        local_config = _config(root / "run-local", None, model.url)
        pg_config = _config(root / "run-pg", server.create_database("runs"), model.url)
        timed_once(pg_config, model, 0)  # migrate the schema outside the measurement
        timed_once(local_config, model, 0)
        local_times, pg_times = [], []
        for turn in range(1, args.pairs + 1):  # interleaved: machine load hits both alike
            local_times.append(timed_once(local_config, model, turn))
            pg_times.append(timed_once(pg_config, model, turn))
        local_median, pg_median = statistics.median(local_times), statistics.median(pg_times)
        results["runs"] = {"local_s": local_times, "postgresql_s": pg_times}
        print()
        print_table(
            ["backend", "`once` runs", "median wall (s)", "added vs local (ms)", "ratio"],
            [
                ["local files", args.pairs, f"{local_median:.3f}", "-", "1.00"],
                ["PostgreSQL", args.pairs, f"{pg_median:.3f}", f"{(pg_median - local_median) * 1000:+.0f}",
                 f"{pg_median / local_median:.2f}"],
            ],
            ["left", "right", "right", "right", "right"],
        )
    model.stop()
    save_results("coordination", results)


if __name__ == "__main__":
    main()
