"""Start-up cost of short commands as whole processes, against the bare interpreter.

Run: .venv/bin/python benchmarks/bench_startup.py [--before REV] [--pairs 9]
Prints a markdown table and writes benchmarks/results/startup.json.

`--help`, `config check` (systemd's ExecStartPre) and `status` (a script's probe) are each
timed as `python -m daemon …` on a copy of the example deployment, for this checkout and
for `--before` (a git revision checked out into a temporary worktree, default the commit
before the lazy command table), interleaved with `python -c pass` in every round so load
changes hit all of them alike. Medians over the rounds; ratios to the bare interpreter.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results

REPO = Path(__file__).resolve().parents[1]
COMMANDS = {
    "--help": ["--help"],
    "config check": ["config", "check"],
    "status": ["status"],
}


def timed(argv: list[str], tree: Path | None, cwd: Path) -> float:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)  # ahead of the editable install's finder
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="ef17142", help="git revision to compare with")
    parser.add_argument("--pairs", type=int, default=9, help="interleaved rounds (median taken)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    before = work / "before"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(before), args.before], check=True)
    try:
        shutil.copytree(REPO / "examples", work / "demo")
        config = str(work / "demo" / "config.yaml")
        trees = {"before": before, "after": REPO}
        samples: dict[str, list[float]] = {"bare": []}
        for label in COMMANDS:
            for side in trees:
                samples[f"{label} {side}"] = []
        for round_no in range(args.pairs):
            samples["bare"].append(timed([sys.executable, "-c", "pass"], None, work))
            for label, words in COMMANDS.items():
                sides = list(trees.items())
                if round_no % 2:
                    sides.reverse()
                for side, tree in sides:
                    argv = [sys.executable, "-m", "daemon", "--config", config, *words]
                    samples[f"{label} {side}"].append(timed(argv, tree, work))
            print(f"round {round_no + 1}/{args.pairs}", file=sys.stderr)
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(before)], check=False)
        shutil.rmtree(work, ignore_errors=True)
    median = {name: statistics.median(values) for name, values in samples.items()}
    bare = median["bare"]
    rows = []
    for label in COMMANDS:
        b, a = median[f"{label} before"], median[f"{label} after"]
        rows.append([label, f"{b * 1000:.0f} ms", f"{b / bare:.1f}×", f"{a * 1000:.0f} ms", f"{a / bare:.1f}×", f"{b / a:.1f}×"])
    print(f"bare interpreter (`python -c pass`): {bare * 1000:.0f} ms, median of {args.pairs}")
    print()
    print_table(
        ["command", f"before ({args.before})", "÷ bare", "after", "÷ bare", "before ÷ after"],
        rows,
        ["left", "right", "right", "right", "right", "right"],
    )
    save_results("startup", {"before": args.before, "pairs": args.pairs, "samples_s": samples, "median_s": median})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
