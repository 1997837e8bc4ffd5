"""Fact query latency vs. store size (1k, 100k, 1M facts), p50/p99, plus store load time.

Run: .venv/bin/python benchmarks/bench_fact_query.py [--sizes 1000 100000 1000000]
Prints a markdown table and writes benchmarks/results/fact_query.json.

Facts are spread over 100 owners; every query asks for an existing (owner, entity, key).
"Indexed" uses the daemon's default settings (filter_entity + time_aware, top_k 3): the
candidate set comes from the (owner, entity) index. "Owner-wide" turns filter_entity off,
so every record of the owner is ranked (the published lab's semantics): that grows with
the owner's share of the store, and is reported as such.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=2000)
    args = parser.parse_args()
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
