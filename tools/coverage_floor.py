"""Fail when a module's coverage is under the floor and pyproject.toml does not say why.

Usage (from the repository root, after the README's test command combined its data into `.coverage`):

    .venv/bin/python tools/coverage_floor.py

The figure per module is the one coverage's table prints with `branch = true`: lines and
branch outcomes taken together. A module under FLOOR must be listed in
`[tool.metaeng.coverage-exceptions]` (module path → why it is under). Exit 1 names every
module under the floor without a reason and every listed path that is not a module; a listed
module that has since climbed over the floor is only reported, so the entry can be removed
(a few branches taken by timing in the subprocess tests move by a point from run to run).
"""

from __future__ import annotations

import json
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = 80.0


@dataclass(frozen=True)
class Verdict:
    unexplained: dict[str, float]  # under the floor, no reason given
    stale: dict[str, float]  # a reason given, but the module is at or over the floor now
    unknown: list[str]  # a reason given for a path that is not a measured module


def judge(percents: Mapping[str, float], reasons: Mapping[str, str], floor: float = FLOOR) -> Verdict:
    """Given each module's percent and the listed reasons, return what is wrong with them."""
    return Verdict(
        unexplained={m: p for m, p in sorted(percents.items()) if p < floor and m not in reasons},
        stale={m: percents[m] for m in sorted(reasons) if m in percents and percents[m] >= floor},
        unknown=sorted(m for m in reasons if m not in percents),
    )


def reasons(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, str]:
    """The `[tool.metaeng.coverage-exceptions]` table of pyproject.toml."""
    with pyproject.open("rb") as file:
        table = tomllib.load(file).get("tool", {}).get("metaeng", {}).get("coverage-exceptions", {})
    return {str(module): str(reason) for module, reason in table.items()}


def percents(data_file: Path = ROOT / ".coverage") -> dict[str, float]:
    """Each measured module (a path from the repository root) → its percent covered.

    Raises FileNotFoundError if the test run wrote no coverage data."""
    import coverage  # the dev extra's; imported here so `judge` can be tested without it

    if not data_file.exists():
        raise FileNotFoundError(f"{data_file} not found: run the README's test command first")
    cov = coverage.Coverage(data_file=str(data_file), config_file=str(ROOT / "pyproject.toml"))
    cov.load()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "coverage.json"
        cov.json_report(outfile=str(out))
        files = json.loads(out.read_text(encoding="utf-8"))["files"]
    return {
        Path(name).resolve().relative_to(ROOT).as_posix(): float(entry["summary"]["percent_covered"])
        for name, entry in files.items()
    }


def main() -> int:
    try:
        measured = percents()
    except FileNotFoundError as exc:
        print(exc)
        return 1
    verdict = judge(measured, reasons())
    for module, percent in verdict.stale.items():
        print(f"note: {module} is at {percent:.1f} % now: its coverage exception can go")
    for module in verdict.unknown:
        print(f"{module}: listed in [tool.metaeng.coverage-exceptions] but not a measured module")
    for module, percent in verdict.unexplained.items():
        print(
            f"{module}: {percent:.1f} % covered, under {FLOOR:.0f} %: cover it, or say why in"
            " [tool.metaeng.coverage-exceptions] of pyproject.toml"
        )
    if verdict.unknown or verdict.unexplained:
        return 1
    listed = sum(1 for m, p in measured.items() if p < FLOOR)
    print(f"coverage floor: every module at {FLOOR:.0f} % or more, but {listed} with a reason in pyproject.toml")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
