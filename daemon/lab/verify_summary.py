"""`lab verify`, the claims half: `ledger.json`'s summaries rebuilt from the re-runs.

The hashes and the byte-for-byte re-runs prove the evidence files. `ledger.json` also
*claims* things about them — a grid's best, an evaluation's scores and comparison, a
campaign's chain of parents and its selection — and `lab propose --ledger` acts on the
selection. Resealing the hashes makes any claim look intact, so each one is rebuilt here
from the re-run evidence with the rule its writer used; a difference is a problem naming
the field and both values. The rebuilt selection, never the recorded one, is what the
ledger selects (`Claims.selection`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daemon.kernel.memory_settings import MemorySettings
from daemon.lab import evidence
from daemon.lab.evaluator import Evaluation
from daemon.lab.experiment_ledger import dumps
from daemon.lab.grid import Grid
from daemon.lab.outputs import CandidateError, load_candidate
from daemon.lab.scenarios import Suite
from daemon.lab.selection import compare

SHOWN = 160  # characters of a value quoted in a problem
_ABSENT = object()  # a key the recorded object lacks


@dataclass
class Claims:
    problems: list[str] = field(default_factory=list)
    selection: MemorySettings | None = None  # what the re-run evidence selects

    def differ(self, where: str, name: str, recorded: Any, expected: Any, by: str = "the re-run") -> None:
        """Record every leaf of `recorded` (read from `where`) that is not `expected` (given `by`)."""
        self.problems.extend(
            f"{where}: {path} is {_show(got)} but {by} gives {_show(want)}"
            for path, got, want in differences(name, recorded, _as_read(expected))
        )


def _as_read(value: Any) -> Any:
    """`value` as it reads back from a ledger file (tuples become lists, and so on)."""
    return json.loads(dumps(value))


def _show(value: Any) -> str:
    text = "absent" if value is _ABSENT else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _same(a: Any, b: Any) -> bool:
    """JSON equality that also tells `true` from `1` and `1` from `1.0`."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def differences(path: str, recorded: Any, expected: Any) -> list[tuple[str, Any, Any]]:
    """(path, recorded, expected) for each differing leaf; objects key by key, lists of one length item by item."""
    if isinstance(recorded, dict) and isinstance(expected, dict):
        found = []
        for key in [*expected, *(k for k in recorded if k not in expected)]:
            found.extend(differences(f"{path}.{key}", recorded.get(key, _ABSENT), expected.get(key, _ABSENT)))
        return found
    if isinstance(recorded, list) and isinstance(expected, list) and len(recorded) == len(expected):
        return [
            d
            for i, (r, e) in enumerate(zip(recorded, expected, strict=True))
            for d in differences(f"{path}[{i}]", r, e)
        ]
    return [] if _same(recorded, expected) else [(path, recorded, expected)]


def _suite(doc: dict[str, Any]) -> Any:
    """The recorded suite's sha256 (the only part of it `scenarios.json` determines)."""
    suite = doc.get("suite")
    return {"sha256": suite.get("sha256", _ABSENT)} if isinstance(suite, dict) else suite


def grid_claims(doc: dict[str, Any], suite: Suite, grid: Grid, evaluations: dict[str, Evaluation]) -> Claims:
    """A grid ledger: its size, its best (the selection rule's first eligible), the `best/` folder."""
    claims = Claims()
    claims.differ("ledger.json", "suite", _suite(doc), {"sha256": suite.sha256})
    claims.differ("ledger.json", "configurations", doc.get("configurations"), len(grid.results))
    best = grid.best
    claims.differ("ledger.json", "best", doc.get("best"), best.as_json() if best else None)
    folder = evaluations.get("best")
    if best is None:
        if folder is not None:
            claims.problems.append("best/: present, but no configuration of the re-run grid is eligible")
        return claims
    if folder is None:
        claims.problems.append("best/: no evaluation of the grid's best to re-run")
    else:
        claims.differ(
            "best/evaluation.json",
            "settings",
            folder.settings.model_dump(),
            best.settings.model_dump(),
            by="the re-run grid's best",
        )
    claims.selection = best.settings
    return claims


def evaluate_claims(
    root: Path, doc: dict[str, Any], suite: Suite, evaluations: dict[str, Evaluation]
) -> Claims:
    """An evaluate ledger: the candidate file as read, both scores, their comparison."""
    claims = Claims()
    claims.differ("ledger.json", "suite", _suite(doc), {"sha256": suite.sha256})
    candidate, parent = evaluations.get("evaluation"), evaluations.get("parent")
    for name, found in (("evaluation", candidate), ("parent", parent)):
        if found is None:
            claims.problems.append(f"{name}/: no evaluation to re-run")
    if candidate is None or parent is None:
        return claims
    try:
        given = load_candidate(root / "candidate.json")
    except CandidateError as exc:
        claims.problems.append(f"candidate.json: {exc}")
    else:
        claims.differ(
            "evaluation/evaluation.json",
            "settings",
            candidate.settings.model_dump(),
            given.settings.model_dump(),
            by="candidate.json",
        )
        claims.differ("ledger.json", "defaults_used", doc.get("defaults_used"), list(given.defaults))
    claims.differ("ledger.json", "evaluation", doc.get("evaluation"), evidence.summary(candidate, suite))
    claims.differ("ledger.json", "parent", doc.get("parent"), evidence.summary(parent, suite))
    claims.differ("ledger.json", "comparison", doc.get("comparison"), compare(candidate, parent).as_json())
    claims.selection = candidate.settings
    return claims
