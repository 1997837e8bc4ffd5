"""The run that migrates a single-file fact store into shards: wall time and peak memory.

Run: .venv/bin/python benchmarks/bench_migration.py --before /tmp/main-checkout
[--sizes 100000 1000000] [--repeats 1]

`--before` is a second checkout of the code to compare with (e.g. `git archive HEAD`
before the streaming migration); its own code runs from there (PYTHONPATH), with this
venv's packages. For each size a legacy `.metaeng/facts.jsonl` of N facts of the agent's
owner is written once (sorted, as the single-file daemon left it) and copied into a fresh
deployment per sample (distillation only, as `bench_fact_write.py`); a first `once`
imports it into the store. Then a transcript of 10 new turns is added, the scripted model
answers with 10 facts, and the one whole `metaeng-daemon once` process that stores them —
and so migrates the store — is measured: wall time and its peak RSS (VmHWM, polled every
10 ms). Every sample checks that the single file is gone and records a digest of the
shard tree, so the two sides can be compared byte for byte. Writes
benchmarks/results/migration.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_fact_write import STORE, daemon, deployment, seed_records, turns_and_answer  # noqa: E402
from benchmarks.report import print_table, save_results  # noqa: E402
from memory_engine import factstore  # noqa: E402
from tests.support.deploy import write_transcript  # noqa: E402
from tests.support.fake_model import FakeModelServer  # noqa: E402


def legacy_file(folder: Path, n: int) -> Path:
    """The single-file store of `seed_records(n)`, rendered in slices (its records sorted)."""
    path = folder / f"legacy-{n}.jsonl"
    if path.exists():
        return path
    records = seed_records(n)
    records.sort(key=factstore.sort_key)
    with path.open("wb") as out:
        for start in range(0, n, 50_000):
            out.write(factstore.render(records[start : start + 50_000]))
    return path


def shard_digest(home: Path) -> tuple[str, int]:
    """sha256 over every shard's relative path and bytes, in path order; and the shard count."""
    digest = hashlib.sha256()
    shards = sorted((home / (STORE + ".d")).glob("*/*/*.jsonl"))
    for shard in shards:
        digest.update(shard.relative_to(home).as_posix().encode() + b"\0" + shard.read_bytes())
    return digest.hexdigest(), len(shards)


def sample(label: str, checkout: Path, root: Path, model: FakeModelServer, legacy: Path, n: int) -> dict[str, Any]:
    config = deployment(root, model, 0, sharded=False)
    home = root / "ada"
    shutil.copyfile(legacy, home / STORE)
    daemon(checkout, config, "once", "--agent", "ada")  # the import commit of the single file
    text, answer = turns_and_answer(0)
    write_transcript(home, "run0.jsonl", text)
    model.clear()
    model.reply(answer, schema="DistillationResponse")
    seconds, rss, out = daemon(checkout, config, "once", "--agent", "ada", "--json")
    passes = {p["name"]: p for p in json.loads(out)["passes"]}
    if passes["distillation"].get("stored") != 10 or (home / STORE).exists():
        raise SystemExit(f"{label} {n}: the run did not migrate: {passes['distillation']}")
    digest, shards = shard_digest(home)
    return {"seconds": seconds, "rss_kib": rss, "shards": shards, "shards_sha256": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="checkout of the code to compare with")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--sides", nargs="+", default=["before", "after"], choices=["before", "after"])
    parser.add_argument("--out", default="migration", help="name of the results file")
    args = parser.parse_args()
    checkouts = {"before": args.before.resolve(), "after": ROOT}
    model = FakeModelServer().start()
    rows: list[dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n in args.sizes:
                legacy = legacy_file(Path(tmp), n)
                for run in range(args.repeats):
                    for label in args.sides:
                        root = Path(tmp) / f"{label}-{n}-{run}"
                        root.mkdir()
                        row = {"side": label, "facts": n, "file_bytes": legacy.stat().st_size}
                        row.update(sample(label, checkouts[label], root, model, legacy, n))
                        rows.append(row)
                        print(json.dumps(row), flush=True)
                        shutil.rmtree(root)
                legacy.unlink()
    finally:
        model.stop()
    save_results(args.out, rows)
    print_table(
        ["side", "facts", "single file", "migrating run", "peak RSS (VmHWM)", "shards", "shard tree sha256"],
        (
            [
                r["side"],
                f"{r['facts']:,}",
                f"{r['file_bytes'] / 2**20:.0f} MiB",
                f"{r['seconds']:.1f} s",
                f"{r['rss_kib'] / 1024:.0f} MiB",
                r["shards"],
                r["shards_sha256"][:12],
            ]
            for r in rows
        ),
    )


if __name__ == "__main__":
    main()
