"""Fact query latency vs. store size (1k, 100k, 1M facts), p50/p99, plus store load time.

Run: .venv/bin/python benchmarks/bench_fact_query.py [--sizes 1000 100000 1000000]
Prints a markdown table and writes benchmarks/results/fact_query.json.

Whole processes, before/after: .venv/bin/python benchmarks/bench_fact_query.py
--before /tmp/main-checkout [--sizes …] [--pairs 5]: for each size, a deployment seeded
with N facts of the agent's owner (one `facts.jsonl` for the checkout in `--before`,
shards for this one), then interleaved (before, after) pairs of one whole
`metaeng-daemon memory query` process each; medians, and each side's ratio to its 1k
case. The first query after seeding (which builds the SQLite index) is reported apart.
Writes benchmarks/results/fact_query_processes.json.

`--index-build` (whole processes, this checkout only): for each size a sharded store is
seeded once, then `--pairs` times the query index file is deleted and one `memory query`
process builds it again (what the first query after an upgrade, or with a missing index,
pays): wall time and peak RSS. Writes benchmarks/results/fact_query_index_build.json.

Facts are spread over 100 owners; every query asks for an existing (owner, entity, key).
"Indexed" uses the daemon's default settings (filter_entity + time_aware, top_k 3): the
candidate set comes from the (owner, entity) index. "Owner-wide" turns filter_entity off,
so every record of the owner is ranked (the published lab's semantics): that grows with
the owner's share of the store, and is reported as such.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from daemon.kernel.memory_settings import MemorySettings
from memory_engine import factstore
from memory_engine.memory import Memory
from memory_engine.records import PUBLISHED_SCHEMA, FactRecord

KEYS = ("city", "language", "timezone", "delivery", "color", "plan")
OWNERS = 100


def build(n: int) -> list[FactRecord]:
    rng = random.Random(n)
    records = []
    for i in range(n):
        owner = i % OWNERS
        records.append(
            FactRecord(
                tenant="t",
                user=f"u{owner}",
                entity=f"e{i // (OWNERS * len(KEYS))}",
                key=KEYS[(i // OWNERS) % len(KEYS)],
                value=f"v{rng.randrange(10**6)}",
                confidence=0.9,
                source="user",
                valid_from="2026-01-01",
                id=f"f-{i:09d}",
                source_event_id=f"s@{i}",
                observed_at="2026-01-01",
            )
        )
    return records


def latencies(memory: Memory, records: list[FactRecord], queries: int) -> tuple[float, float]:
    rng = random.Random(7)
    samples = []
    for _ in range(queries):
        target = records[rng.randrange(len(records))]
        start = time.perf_counter()
        result = memory.query(
            target.owner, target.entity, target.key, "2026-02-01", f"{target.entity} {target.key}"
        )
        samples.append(time.perf_counter() - start)
        assert result.answer == target.value or not memory.settings.filter_entity
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1]


def whole_processes(before: Path, sizes: list[int], pairs: int) -> None:
    import tempfile

    from benchmarks.bench_fact_write import daemon, seed, seed_records
    from tests.support.deploy import base_config, write_config

    here = Path(__file__).resolve().parents[1]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        configs: dict[tuple[str, int], tuple[Path, Path]] = {}
        cold: dict[int, float] = {}
        for n in sizes:
            records = seed_records(n)
            for label, checkout in (("before", before.resolve()), ("after", here)):
                root = Path(tmp) / f"{label}-{n}"
                root.mkdir()
                config = write_config(root, base_config(root, None))
                (root / "state" / "agents" / "ada").mkdir(parents=True)
                seed(root / "ada", records, sharded=label == "after")
                configs[(label, n)] = (checkout, config)
            del records
            cold[n], _rss, _out = daemon(here, configs[("after", n)][1], *query_args(n))
            print(f"seeded {n}; index built in {cold[n]:.2f} s", flush=True)
        samples: dict[tuple[str, int], list[float]] = {key: [] for key in configs}
        for _ in range(pairs):
            for n in sizes:
                for label in ("before", "after"):
                    checkout, config = configs[(label, n)]
                    seconds, _rss, out = daemon(checkout, config, *query_args(n))
                    assert out.strip() and not out.startswith("no answer"), out
                    samples[(label, n)].append(seconds)
        for (label, n), values in samples.items():
            rows.append({"side": label, "facts": n, "median_s": statistics.median(values), "samples": values})
        smallest = min(sizes)
        base = {r["side"]: r["median_s"] for r in rows if r["facts"] == smallest}
        for r in rows:
            r["ratio_to_smallest"] = r["median_s"] / base[r["side"]]
            r["index_build_s"] = cold[r["facts"]] if r["side"] == "after" else None
    save_results("fact_query_processes", rows)
    print_table(
        ["side", "facts", "memory query (median)", "ratio to 1k", "first query (builds the index)"],
        (
            [
                r["side"],
                f"{r['facts']:,}",
                f"{r['median_s']:.2f} s",
                f"{r['ratio_to_smallest']:.2f}×",
                f"{r['index_build_s']:.2f} s" if r["index_build_s"] is not None else "",
            ]
            for r in rows
        ),
    )


def index_builds(sizes: list[int], repeats: int) -> None:
    import tempfile

    from benchmarks.bench_fact_write import daemon, seed, seed_records
    from tests.support.deploy import base_config, write_config

    here = Path(__file__).resolve().parents[1]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            root = Path(tmp) / f"after-{n}"
            root.mkdir()
            config = write_config(root, base_config(root, None))
            state = root / "state" / "agents" / "ada"
            state.mkdir(parents=True)
            seed(root / "ada", seed_records(n), sharded=True)
            samples = []
            for _ in range(repeats):
                for index in state.glob("facts-index.sqlite3*"):
                    index.unlink()
                seconds, rss, out = daemon(here, config, *query_args(n))
                assert out.strip() and not out.startswith("no answer"), out
                samples.append({"seconds": seconds, "rss_kib": rss})
            rows.append(
                {
                    "facts": n,
                    "median_s": statistics.median(s["seconds"] for s in samples),
                    "peak_rss_kib": max(s["rss_kib"] for s in samples),
                    "samples": samples,
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    save_results("fact_query_index_build", rows)
    print_table(
        ["facts", "first query, builds the index (median)", "runs", "peak RSS"],
        (
            [
                f"{r['facts']:,}",
                f"{r['median_s']:.2f} s",
                " / ".join(f"{s['seconds']:.1f}" for s in r["samples"]),
                f"{r['peak_rss_kib'] / 1024:.0f} MiB",
            ]
            for r in rows
        ),
    )


def query_args(n: int) -> list[str]:
    """A query for an existing fact of the seeded store (entity in the middle of it)."""
    entity = f"e{(n // 2) // 6}"
    return ["memory", "query", "--agent", "ada", "--entity", entity, "--key", "city", "--as-of", "2026-02-01"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--before", type=Path, help="whole processes: checkout of the code to compare with")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--index-build", action="store_true", help="whole processes: the index build alone")
    args = parser.parse_args()
    if args.index_build:
        index_builds(args.sizes, args.pairs)
        return
    if args.before is not None:
        whole_processes(args.before, args.sizes, args.pairs)
        return
    rows = []
    for n in args.sizes:
        records = build(n)
        text = factstore.render(records)
        start = time.perf_counter()
        parsed = factstore.parse(text.decode(), "bench")
        indexed = Memory.from_records(
            parsed,
            MemorySettings(filter_entity=True, time_aware=True, top_k=3),
            PUBLISHED_SCHEMA,
            lambda p, e: "x",
        )
        load_s = time.perf_counter() - start
        owner_wide = Memory.from_records(
            parsed,
            MemorySettings(filter_entity=False, time_aware=True, top_k=3),
            PUBLISHED_SCHEMA,
            lambda p, e: "x",
        )
        p50, p99 = latencies(indexed, records, args.queries)
        w50, w99 = latencies(owner_wide, records, max(50, args.queries // 20))
        rows.append(
            {
                "facts": n,
                "file_mb": len(text) / 2**20,
                "load_s": load_s,
                "indexed_p50_us": p50 * 1e6,
                "indexed_p99_us": p99 * 1e6,
                "owner_wide_p50_us": w50 * 1e6,
                "owner_wide_p99_us": w99 * 1e6,
            }
        )
        print(f"done {n}", flush=True)
    save_results("fact_query", rows)
    print_table(
        ["facts", "store file", "load + index", "indexed query p50 / p99", "owner-wide query p50 / p99"],
        (
            [
                f"{r['facts']:,}",
                f"{r['file_mb']:.1f} MiB",
                f"{r['load_s']:.2f} s",
                f"{r['indexed_p50_us']:.0f} / {r['indexed_p99_us']:.0f} µs",
                f"{r['owner_wide_p50_us']:.0f} / {r['owner_wide_p99_us']:.0f} µs",
            ]
            for r in rows
        ),
    )


if __name__ == "__main__":
    main()
