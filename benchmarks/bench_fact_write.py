"""A distillation run adding 10 facts to a 1k vs. a 100k-fact store, before and after shards.

Run: .venv/bin/python benchmarks/bench_fact_write.py --before /tmp/main-checkout [--sizes 1000 100000] [--pairs 5]

`--before` is a second checkout of the code to compare with (main at the branch point);
its own code runs from there (PYTHONPATH), with this venv's packages. For each size and
each side a deployment is seeded with N facts of the agent's owner — as one
`facts.jsonl` for the single-file side, as shards for the sharded side (what the first
run after the upgrade leaves) — and committed by a first `once`. Then, interleaved
(before, after) pairs: a transcript of 10 new turns is added, the scripted model answers
with 10 facts, and one whole `metaeng-daemon once` process is timed. Per run: wall time,
peak RSS of the process (VmHWM, polled every 10 ms), and how many bytes the store's git folder grew.
Medians of `--pairs` runs; ratios 100k / 1k. Writes benchmarks/results/fact_write.json.

`--view`: the agent writes the facts view (`memory.markdown_view: FACTS.md`, what every
runtime adapter turns on by default), both sides are seeded as shards, and `--before` is a
checkout with shards whose view read every shard; writes fact_write_view.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import print_table, save_results  # noqa: E402
from daemon.kernel.settings import PUBLISHED_ALLOWED_KEYS  # noqa: E402
from memory_engine import factstore  # noqa: E402
from memory_engine.fact_shards import by_shard  # noqa: E402
from memory_engine.records import FactRecord  # noqa: E402
from tests.support.deploy import TEST_KEY, base_config, conversation, write_config, write_transcript  # noqa: E402
from tests.support.fake_model import FakeModelServer  # noqa: E402

STORE = ".metaeng/facts.jsonl"
NEW_FACTS = 10


def seed_records(n: int) -> list[FactRecord]:
    rng = random.Random(n)
    keys = PUBLISHED_ALLOWED_KEYS
    return [
        FactRecord(
            tenant="default",
            user="ada",
            entity=f"e{i // len(keys)}",
            key=keys[i % len(keys)],
            value=f"value {rng.randrange(10**9)} of a fact about something the user said",
            confidence=0.9,
            source="user",
            valid_from="2026-01-01",
            id=f"f-{i:012x}",
            source_event_id=f"transcripts/seed.jsonl@{i * 300}",
            observed_at="2026-01-01",
            quote=f"the user said something about e{i // len(keys)}",
        )
        for i in range(n)
    ]


def seed(home: Path, records: list[FactRecord], sharded: bool) -> None:
    if sharded:
        for path, group in by_shard(records, STORE).items():
            target = home / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(factstore.render(group))
    else:
        (home / STORE).parent.mkdir(parents=True, exist_ok=True)
        (home / STORE).write_bytes(factstore.render(records))


def deployment(root: Path, model: FakeModelServer, n: int, sharded: bool, view: bool = False) -> Path:
    config = base_config(root, model.url)
    if view:
        config["agents"]["ada"]["memory"] = {"markdown_view": "FACTS.md"}
    config["passes"] = {
        name: name == "distillation"
        for name in (
            "distillation",
            "skill_learning",
            "memory_consolidation",
            "library_maintenance",
            "workspace_consolidation",
            "instruction_review",
        )
    }
    path = write_config(root, config)
    home = root / "ada"
    (home / "AGENTS.md").write_text("# Instructions\n\n- Be brief.\n", encoding="utf-8")
    seed(home, seed_records(n), sharded)
    return path


def daemon(checkout: Path, config: Path, *args: str) -> tuple[float, int, str]:
    """Run one whole `metaeng-daemon` process from `checkout`: (seconds, peak RSS KiB, stdout)."""
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/nonexistent"),
        "PYTHONPATH": str(checkout),
        "TEST_API_KEY": TEST_KEY,
    }
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "daemon", "--config", str(config), *args],
            cwd=checkout,
            env=env,
            stdout=out,
            stderr=err,
        )
        # The child's own peak RSS: VmHWM of its (post-exec) memory, read until it exits.
        # (wait4's ru_maxrss would include this process's size at the fork.)
        peak = 0
        while True:
            pid, status, _usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peak = max(peak, _hwm_kib(proc.pid))
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed in {checkout}: {err.read().decode()[-2000:]}")
        return seconds, peak, out.read().decode()


def _hwm_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def git_bytes(root: Path) -> int:
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    return sum(p.stat().st_size for p in git_dir.rglob("*") if p.is_file())


def turns_and_answer(run: int) -> tuple[str, dict[str, Any]]:
    pairs, facts = [], []
    for i in range(NEW_FACTS):
        name = f"proj{run}x{i}"
        quote = f"Project {name} color is blue{run}x{i}"
        pairs.append((quote + ".", "Noted."))
        facts.append(
            {
                "turn": f"T{i + 1}",
                "quote": quote,
                "entity": name,
                "key": "color",
                "value": f"blue{run}x{i}",
                "confidence": 0.95,
                "valid_from": "2026-11-02",
            }
        )
    return conversation(pairs), {"facts": facts}


class Side:
    """One checkout at one store size: its deployment and its measured runs."""

    def __init__(
        self, label: str, checkout: Path, root: Path, model: FakeModelServer, n: int, sharded: bool, view: bool
    ):
        self.label, self.checkout, self.root, self.model = label, checkout, root, model
        self.config = deployment(root, model, n, sharded, view)
        self.samples: list[dict[str, float]] = []
        daemon(checkout, self.config, "once", "--agent", "ada")  # import commit of the seeded store

    def measure(self, run: int) -> None:
        text, answer = turns_and_answer(run)
        write_transcript(self.root / "ada", f"run{run}.jsonl", text)
        self.model.clear()
        self.model.reply(answer, schema="DistillationResponse")
        before = git_bytes(self.root)
        seconds, rss, out = daemon(self.checkout, self.config, "once", "--agent", "ada", "--json")
        passes = {p["name"]: p for p in json.loads(out)["passes"]}
        stored = passes["distillation"].get("stored", 0)
        if stored != NEW_FACTS:
            raise SystemExit(f"{self.label}: {stored} facts stored, expected {NEW_FACTS}: {passes['distillation']}")
        self.samples.append({"seconds": seconds, "rss_kib": rss, "git_growth": git_bytes(self.root) - before})

    def medians(self) -> dict[str, float]:
        return {k: statistics.median(s[k] for s in self.samples) for k in ("seconds", "rss_kib", "git_growth")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="checkout of the code to compare with")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--view", action="store_true", help="with the facts view on (see above)")
    args = parser.parse_args()
    model = FakeModelServer().start()
    rows: list[dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sides: dict[tuple[str, int], Side] = {}
            for n in args.sizes:
                for label, checkout, sharded in (("before", args.before, args.view), ("after", ROOT, True)):
                    root = Path(tmp) / f"{label}-{n}"
                    root.mkdir()
                    sides[(label, n)] = Side(label, checkout.resolve(), root, model, n, sharded, args.view)
                    print(f"seeded {label} {n}", flush=True)
            for run in range(args.pairs):
                for n in args.sizes:
                    for label in ("before", "after"):
                        sides[(label, n)].measure(run)
                print(f"pair {run + 1} done", flush=True)
            for (label, n), side in sides.items():
                rows.append({"side": label, "facts": n, **side.medians(), "samples": side.samples})
    finally:
        model.stop()
    smallest = min(args.sizes)
    by = {(r["side"], r["facts"]): r for r in rows}
    for r in rows:
        r["ratio_to_smallest"] = r["seconds"] / by[(r["side"], smallest)]["seconds"]
    save_results("fact_write_view" if args.view else "fact_write", rows)
    print_table(
        ["side", "facts", "once (median)", "ratio to 1k", "peak RSS", "git folder growth per run"],
        (
            [
                r["side"],
                f"{r['facts']:,}",
                f"{r['seconds']:.2f} s",
                f"{r['ratio_to_smallest']:.2f}×",
                f"{r['rss_kib'] / 1024:.0f} MiB",
                f"{r['git_growth'] / 1024:.1f} KiB",
            ]
            for r in rows
        ),
    )


if __name__ == "__main__":
    main()
