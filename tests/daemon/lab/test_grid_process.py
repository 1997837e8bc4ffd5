"""`lab grid` as a process imports only what the grid needs (benchmarks/bench_grid.py --process)."""

from __future__ import annotations

import json
import subprocess
import sys

from daemon.doors.cli import lab_distill
from daemon.lab import distill_bench

HEAVY = (
    "daemon.lab.distill_bench",
    "daemon.lab.distill_corpus",
    "daemon.lab.experiment_ledger",
    "daemon.lab.evidence",
    "daemon.run.model_client",
)


def test_importing_the_lab_commands_leaves_out_the_benchmark_the_ledger_and_the_model_client() -> None:
    probe = "import json, sys; import daemon.doors.cli.lab_cmd; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    assert "daemon.lab.grid" in loaded
    assert not loaded & set(HEAVY)


def test_the_distill_help_states_the_budget_limit_the_benchmark_enforces() -> None:
    assert lab_distill.MAX_BUDGET_USD == distill_bench.MAX_BUDGET_USD
