"""The meaning check on multilingual cases, per language and per category (run by hand).

    .venv/bin/python -m benchmarks.meaning_multilingual.run                  # the held-out cases beside this file
    .venv/bin/python -m benchmarks.meaning_multilingual.run --corpus tests/meaning_corpus/corpus.json
    .venv/bin/python -m benchmarks.meaning_multilingual.run --json

Every item goes through the same judge as the meaning corpus test (`tests.meaning_corpus.judge`):
a planted change is caught when every check that runs it refuses it, a legitimate merge is
applied when none refuses it. An item's language is the first part of its note ("Polish;
inflected …"); an item without one is placed by its script (Latin → English).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from tests.meaning_corpus.judge import Verdict, judge

CASES = Path(__file__).with_name("cases.json")
LANGUAGES = (
    "English", "German", "French", "Spanish", "Italian", "Portuguese", "Dutch", "Swedish", "Norwegian",
    "Danish", "Polish", "Czech", "Russian", "Ukrainian", "Turkish", "Japanese", "Chinese", "Korean",
    "Greek", "Hindi", "Arabic", "Hebrew", "Thai",
)  # fmt: skip
SCRIPTS = (  # first match wins: kana before Han
    ("Japanese", r"[\u3040-\u30ff]"),
    ("Korean", r"[\uac00-\ud7af]"),
    ("Chinese", r"[\u4e00-\u9fff]"),
    ("Hindi", r"[\u0900-\u097f]"),
    ("Arabic", r"[\u0600-\u06ff]"),
    ("Hebrew", r"[\u0590-\u05ff]"),
    ("Thai", r"[\u0e00-\u0e7f]"),
    ("Greek", r"[\u0370-\u03ff]"),
    ("Russian", r"[\u0400-\u04ff]"),
)


def language(item: dict[str, Any]) -> str:
    first = re.split(r"[;,:(]", item.get("note", ""), maxsplit=1)[0].strip()
    if first in LANGUAGES:
        return first
    text = " ".join([*item["sources"], item["merged"]])
    return next((name for name, pattern in SCRIPTS if re.search(pattern, text)), "English")


def run(path: Path) -> dict[str, Any]:
    cases = json.loads(path.read_text(encoding="utf-8"))
    by_language: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: {"planted": [0, 0], "legitimate": [0, 0]}
    )
    by_category: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: {"planted": [0, 0], "legitimate": [0, 0]}
    )
    totals = {"planted": [0, 0], "legitimate": [0, 0]}
    wrong = []
    for kind in ("planted", "legitimate"):
        for item in cases[kind]:
            verdict: Verdict = judge(item, kind == "planted")
            lang = language(item)
            for row in (by_language[lang][kind], by_category[item["category"]][kind], totals[kind]):
                row[0] += verdict.correct
                row[1] += 1
            if not verdict.correct:
                wrong.append(
                    {
                        "id": item["id"],
                        "kind": kind,
                        "language": lang,
                        "note": item.get("note", ""),
                        "refused": verdict.refused,
                        "reasons": {check: why for check, why in verdict.reasons.items() if why},
                    }
                )
    return {
        "file": str(path),
        "planted_caught": totals["planted"],
        "legitimate_applied": totals["legitimate"],
        "by_language": dict(sorted(by_language.items())),
        "by_category": dict(sorted(by_category.items())),
        "wrong": wrong,
    }


def fraction(pair: list[int]) -> str:
    part, whole = pair
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "—"


def table(title: str, rows: dict[str, dict[str, list[int]]]) -> None:
    width = max(len(title), *(len(name) for name in rows))
    print(f"{title:<{width}}  {'planted caught':<16}  legitimate applied")
    for name, row in rows.items():
        print(f"{name:<{width}}  {fraction(row['planted']):<16}  {fraction(row['legitimate'])}")
    print()


def show(results: dict[str, Any]) -> None:
    print(f"{results['file']}")
    print(
        f"planted caught {fraction(results['planted_caught'])}, legitimate applied {fraction(results['legitimate_applied'])}\n"
    )
    table("language", results["by_language"])
    table("category", results["by_category"])
    print(f"wrong verdicts ({len(results['wrong'])}):")
    for w in results["wrong"]:
        planted = w["kind"] == "planted"
        at_fault = [check for check, refused in w["refused"].items() if refused != planted]
        verdict = f"{'planted, passed' if planted else 'legitimate, refused'} by {' and '.join(at_fault)}"
        reasons = " | ".join(f"{check}: {why}" for check, why in w["reasons"].items()) or "no reason given"
        print(f"  {w['id']} [{verdict}] {w['note'] or w['language']} — {reasons}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "cases",
        nargs="?",
        type=Path,
        default=CASES,
        help="a cases file (default: cases.json beside this script)",
    )
    parser.add_argument(
        "--corpus", type=Path, help="a cases file instead, e.g. tests/meaning_corpus/corpus.json"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results = run(args.corpus or args.cases)
    if args.json:
        json.dump(results, sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        show(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
