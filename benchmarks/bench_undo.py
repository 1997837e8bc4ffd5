"""Snapshot and undo latency on an agent home of 10,000 managed files (vs. 100).

Run: .venv/bin/python benchmarks/bench_undo.py [--files 100 10000] [--repeats 5]
For each size: the first start's import commit (the snapshot of every managed file),
then repeated (run that changes one file → undo of that run), timed through the CLI
in-process. Writes benchmarks/results/undo.json and prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from tests.support.deploy import run_cli
from tests.support.facts import stored_fact


def deployment(root: Path, files: int) -> Path:
    home = root / "ada"
    for index in range(files):
        folder = home / "skills" / f"skill-{index // 10:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file-{index % 10}.md").write_text(f"# note {index}\n\n" + "text line\n" * 20)
    config = root / "config.yaml"
    config.write_text(
        "version: 1\nstate_dir: ./state\n"
        "passes: {distillation: false, skill_learning: false, memory_consolidation: false, library_maintenance: false,"
        " workspace_consolidation: false, instruction_review: false}\n"
        "agents:\n  ada:\n    home: ./ada\n"
    )
    return config


def timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def measure(files: int, repeats: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = deployment(root, files)
        store = root / "ada" / ".metaeng" / "facts.jsonl"
        snapshot_s, _ = timed(lambda: run_cli(config, "once", "--agent", "ada"))
        runs, undos = [], []
        for _ in range(repeats):
            store.parent.mkdir(parents=True, exist_ok=True)
            store.write_text(json.dumps(stored_fact(id="f-1")) + "\n")
            run_cli(config, "once", "--agent", "ada")  # commit the fact as an external edit
            seconds, forgot = timed(
                lambda: run_cli(
                    config,
                    "memory",
                    "forget",
                    "--agent",
                    "ada",
                    "--entity",
                    "user",
                    "--key",
                    "city",
                    "--json",
                )
            )
            assert forgot.code == 0, forgot.err
            runs.append(seconds)
            run_id = forgot.json()["run_id"]
            seconds, undone = timed(lambda: run_cli(config, "undo", run_id))  # noqa: B023
            assert undone.code == 0, undone.err
            undos.append(seconds)
            store.unlink()
        return {
            "files": files,
            "snapshot_s": snapshot_s,
            "run_s": statistics.median(runs),
            "undo_s": statistics.median(undos),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, nargs="+", default=[100, 10_000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rows = [measure(n, args.repeats) for n in args.files]
    save_results("undo", rows)
    print_table(
        [
            "managed files in the home",
            "first snapshot (import commit)",
            "run changing 1 file (median)",
            "undo of that run (median)",
        ],
        (
            [
                f"{r['files']:,}",
                f"{r['snapshot_s']:.2f} s",
                f"{r['run_s'] * 1000:.0f} ms",
                f"{r['undo_s'] * 1000:.0f} ms",
            ]
            for r in rows
        ),
    )


if __name__ == "__main__":
    main()
