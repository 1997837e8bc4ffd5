"""Start-up cost of short commands as whole processes, against the floor of their stack.

Run: .venv/bin/python benchmarks/bench_startup.py [--before REV|DIR] [--pairs 15]
Prints a markdown table and writes benchmarks/results/startup.json.

`--help`, `--version`, `config check` (systemd's ExecStartPre) and `status` (a script's
probe) are each timed as `python -m daemon …` on a copy of the example deployment, for this
checkout and for `--before` (a git revision exported with `git archive` into a temporary
folder, or a folder holding a tree), interleaved in every round with two floors and the bare
interpreter, so load changes hit all of them alike:

- the argparse floor, `python -c "import argparse"`: what `--help` and `--version` are held to
  (target 1.5×);
- the stack floor, a process that imports pydantic and yaml and validates one small pydantic
  model: what `config check` and `status` are held to (target 2×).

Medians over the rounds; ratios to the floor each command is held to. Every process reads
compiled bytecode from the benchmark's own cache folder (PYTHONPYCACHEPREFIX), filled by a
warm-up round that is not counted, as an installed program reads what `pip install` compiled.
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
STACK_FLOOR = (
    "import pydantic, yaml\n"
    "class Probe(pydantic.BaseModel):\n"
    "    name: str\n"
    "    every: int = 1\n"
    "Probe.model_validate(yaml.safe_load('name: ada\\nevery: 2'))\n"
)
FLOORS = {
    "bare": ["-c", "pass"],
    "argparse floor": ["-c", "import argparse"],
    "stack floor": ["-c", STACK_FLOOR],
}
# Each command, its words after `--config FILE`, the floor it is held to and the target ratio.
COMMANDS: dict[str, tuple[list[str], str, float]] = {
    "--help": (["--help"], "argparse floor", 1.5),
    "--version": (["--version"], "argparse floor", 1.5),
    "config check": (["config", "check"], "stack floor", 2.0),
    "status": (["status"], "stack floor", 2.0),
}


def timed(argv: list[str], tree: Path | None, cwd: Path) -> float:
    env = dict(os.environ)
    # Every process reads compiled bytecode, as an installed program does (`pip install`
    # compiles it; an editable install writes it on first run): from one cache folder of
    # the benchmark's own, filled by the warm-up round, never from the checkout's folders.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cwd / "pycache")
    if tree is not None:
        env["PYTHONPATH"] = str(tree)  # ahead of the editable install's finder
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    return elapsed


def before_tree(before: str, work: Path) -> Path:
    """A folder holding the tree to compare with: `before` itself, or that revision exported."""
    if Path(before).is_dir():
        return Path(before).resolve()
    tree = work / "before"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", before], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="HEAD", help="git revision or folder to compare with")
    parser.add_argument("--pairs", type=int, default=15, help="interleaved rounds (median taken)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    try:
        trees = {"before": before_tree(args.before, work), "after": REPO}
        # The before tree's example: a config key added since would be refused by the older code.
        examples = trees["before"] / "examples"
        shutil.copytree(examples if examples.is_dir() else REPO / "examples", work / "demo")
        config = str(work / "demo" / "config.yaml")
        samples: dict[str, list[float]] = {name: [] for name in FLOORS}
        for label in COMMANDS:
            for side in trees:
                samples[f"{label} {side}"] = []
        for round_no in range(-1, args.pairs):  # round -1 warms up (compiles) and is not counted
            for name, words in FLOORS.items():
                samples[name].append(timed([sys.executable, *words], None, work))
            for label, (words, _, _) in COMMANDS.items():
                sides = list(trees.items())
                if round_no % 2:
                    sides.reverse()
                for side, tree in sides:
                    argv = [sys.executable, "-m", "daemon", "--config", config, *words]
                    samples[f"{label} {side}"].append(timed(argv, tree, work))
            if round_no < 0:
                samples = {name: [] for name in samples}
            print(f"round {round_no + 1}/{args.pairs}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    median = {name: statistics.median(values) for name, values in samples.items()}
    for name in FLOORS:
        print(f"{name}: {median[name] * 1000:.0f} ms, median of {args.pairs}")
    print()
    rows = []
    for label, (_, floor, target) in COMMANDS.items():
        b, a, f = median[f"{label} before"], median[f"{label} after"], median[floor]
        rows.append(
            [label, floor, f"≤ {target:g}×", f"{b * 1000:.0f} ms", f"{b / f:.2f}×", f"{a * 1000:.0f} ms", f"{a / f:.2f}×"]
        )
    print_table(
        ["command", "held to", "target", f"before ({args.before})", "÷ floor", "after", "÷ floor"],
        rows,
        ["left", "left", "right", "right", "right", "right", "right"],
    )
    save_results(
        "startup",
        {
            "before": args.before,
            "pairs": args.pairs,
            "floors": {name: " ".join(words) for name, words in FLOORS.items()},
            "held_to": {label: {"floor": floor, "target": target} for label, (_, floor, target) in COMMANDS.items()},
            "samples_s": samples,
            "median_s": median,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
