"""Random-point crash trials: kill -9 a running operation at a random moment, then check.

Run: .venv/bin/python benchmarks/bench_crash_trials.py [--trials 120] [--seed 1]
Each trial prepares one operation from tests/hardening/crash_ops.py (every pass, undo,
review approval) in a fresh folder, starts it as a subprocess against the fake model
server, sends SIGKILL after a random delay, runs the next start's recovery, and checks
the invariants of the crash matrix: `git fsck` clean, work tree equal to the pre-run
state or to the committed post-run state, cursors untouched unless committed, no journal,
no temp files, spend ledger consistent, and the next run completes. Writes
benchmarks/results/crash_trials.json and prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.report import print_table, save_results  # noqa: E402
from tests.hardening.crash_ops import OPS  # noqa: E402
from tests.hardening.test_crash_matrix import check_consistent, head, read  # noqa: E402
from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot  # noqa: E402
from tests.support.fake_model import FakeModelServer  # noqa: E402


def trial(root: Path, model: FakeModelServer, rng: random.Random, max_delay: float) -> tuple[str, str]:
    op = rng.choice(OPS)
    command = op.prepare(root, model)
    config = root / "config.yaml"
    idle = next(name for name in ("distillation", "instruction_review") if name not in op.passes)
    run_cli(config, "once", "--agent", "ada", "--pass", idle)
    before_tree, before_head = tree_snapshot(root / "ada"), head(root)
    cursors = root / "state" / "agents" / "ada" / "cursors.json"
    before_cursors = read(cursors)
    for content, schema in op.replies:
        model.reply(content, schema=schema)
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY}
    proc = subprocess.Popen(
        [sys.executable, "-m", "daemon", "--config", str(config), *command],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(rng.uniform(0, max_delay))
    killed = proc.poll() is None
    if killed:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    run_cli(config, "once", "--agent", "ada", "--dry-run")  # the next start: recovery
    check_consistent(root)
    committed = head(root) != before_head
    if not committed:
        assert tree_snapshot(root / "ada") == before_tree, "rolled back but tree differs"
        assert read(cursors) == before_cursors, "rolled back but cursors moved"
        model.clear()
        for content, schema in op.replies:
            model.reply(content, schema=schema)
        finished = subprocess.run(
            [sys.executable, "-m", "daemon", "--config", str(config), *command],
            env=env,
            cwd=REPO,
            capture_output=True,
        )
        assert finished.returncode == 0, finished.stderr
        check_consistent(root)
        assert head(root) != before_head, "the redo did not complete the operation"
    model.clear()
    outcome = (
        "finished before the kill"
        if not killed
        else ("committed, completed" if committed else "rolled back, redone")
    )
    return op.name, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=1.6, help="seconds; kill uniformly in [0, this]")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    model = FakeModelServer().start()
    outcomes: Counter[tuple[str, str]] = Counter()
    failures: list[str] = []
    started = time.monotonic()
    try:
        for index in range(args.trials):
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    outcomes[trial(Path(tmp), model, rng, args.max_delay)] += 1
                except AssertionError as exc:
                    failures.append(f"trial {index}: {exc}")
            print(f"\r{index + 1}/{args.trials}", end="", flush=True)
    finally:
        model.stop()
    print()
    by_outcome = Counter(outcome for (_op, outcome) in outcomes.elements())
    result = {
        "trials": args.trials,
        "seed": args.seed,
        "seconds": round(time.monotonic() - started, 1),
        "failures": failures,
        "by_outcome": dict(by_outcome),
        "by_operation": {f"{op}: {outcome}": n for (op, outcome), n in sorted(outcomes.items())},
    }
    save_results("crash_trials", result)
    print_table(
        [
            "trials",
            "killed mid-run, rolled back and redone",
            "killed after commit, completed",
            "finished before the kill",
            "invariant failures",
        ],
        [
            [
                args.trials,
                by_outcome["rolled back, redone"],
                by_outcome["committed, completed"],
                by_outcome["finished before the kill"],
                len(failures),
            ]
        ],
    )
    for failure in failures:
        print(f"FAILURE {failure}")


if __name__ == "__main__":
    main()
