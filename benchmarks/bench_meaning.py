"""Catch rate and false-refusal rate of the meaning checks on the corpus, per category.

Run: .venv/bin/python benchmarks/bench_meaning.py
Every item of `tests/meaning_corpus/corpus.json` goes through the real checks: the
workspace loss check (the sources as bullets of MEMORY.md, replaced by the merged bullet
with a declared merge) and the library step-union check (each source a step of its own
member skill, the merged sentence the canonical step); an item lists the checks that run
it. A planted change is caught when every check that runs it refuses it; a legitimate
merge is falsely refused when any check refuses it. Also times the checks (the corpus run
20 times). Writes benchmarks/results/meaning.json and prints Markdown tables.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.report import print_table, save_results
from tests.meaning_corpus.judge import Verdict, verdicts

REPEATS = 20


def rate(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


def by_category(found: list[Verdict]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = defaultdict(
        lambda: {"items": 0, "correct": 0, "workspace": 0, "library": 0}
    )
    for v in found:
        row = table[v.category]
        row["items"] += 1
        row["correct"] += v.correct
        for check, refused in v.refused.items():
            row[check] += refused
    return dict(table)


def main() -> None:
    found = list(verdicts())
    started = time.perf_counter()
    for _ in range(REPEATS):
        list(verdicts())
    per_item_ms = (time.perf_counter() - started) * 1000 / (REPEATS * len(found))
    planted = [v for v in found if v.planted]
    legitimate = [v for v in found if not v.planted]
    caught = sum(v.correct for v in planted)
    false_refusals = [v for v in legitimate if not v.correct]
    results = {
        "planted": len(planted),
        "caught": caught,
        "catch_rate": caught / len(planted),
        "legitimate": len(legitimate),
        "falsely_refused": len(false_refusals),
        "false_refusal_rate": len(false_refusals) / len(legitimate),
        "ms_per_item": round(per_item_ms, 3),
        "planted_by_category": by_category(planted),
        "legitimate_by_category": by_category(legitimate),
        "missed": [v.id for v in planted if not v.correct],
        "false_refusals": {v.id: v.reasons for v in false_refusals},
    }
    save_results("meaning", results)
    print_table(
        [
            "planted category",
            "items",
            "caught",
            "catch rate",
            "refused by loss check",
            "refused by step union",
        ],
        (
            [cat, r["items"], r["correct"], rate(r["correct"], r["items"]), r["workspace"], r["library"]]
            for cat, r in sorted(results["planted_by_category"].items())
        ),
        ["left", "right", "right", "right", "right", "right"],
    )
    print()
    print_table(
        ["legitimate category", "items", "falsely refused", "false-refusal rate"],
        (
            [cat, r["items"], r["items"] - r["correct"], rate(r["items"] - r["correct"], r["items"])]
            for cat, r in sorted(results["legitimate_by_category"].items())
        ),
        ["left", "right", "right", "right"],
    )
    print()
    print_table(
        ["corpus", "items", "catch rate", "false-refusal rate", "time per item (both checks)"],
        [
            [
                "all",
                len(found),
                f"{rate(caught, len(planted))} ({caught}/{len(planted)})",
                f"{rate(len(false_refusals), len(legitimate))} ({len(false_refusals)}/{len(legitimate)})",
                f"{per_item_ms:.2f} ms",
            ]
        ],
        ["left", "right", "right", "right", "right"],
    )
    for v in false_refusals:
        print(f"note: falsely refused {v.id}: {'; '.join(v.reasons.values())}")


if __name__ == "__main__":
    main()
