"""Run every corpus item through the real checks: the workspace loss check and the library step-union check.

An item is the sentences a merge claims to carry (`sources`) and the sentence that carries
them (`merged`). The workspace check sees them as bullets of `MEMORY.md` replaced by one
bullet with a declared merge; the library check sees each source as a step of its own
member skill and `merged` as the one step of the canonical version.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skills_engine.step_union import MemberStep, check_union
from workspace.loss_check import DeclaredMerge, check

CORPUS = Path(__file__).with_name("corpus.json")
CHECKS = ("workspace", "library")


@dataclass(frozen=True)
class Verdict:
    id: str
    category: str
    planted: bool
    refused: dict[str, bool]  # check → refused
    reasons: dict[str, str]

    @property
    def correct(self) -> bool:
        """Planted: refused by every check that ran it. Legitimate: refused by none."""
        return all(self.refused.values()) if self.planted else not any(self.refused.values())


def workspace(sources: list[str], merged: str) -> tuple[bool, str]:
    old = {"MEMORY.md": "".join(f"- {s}\n" for s in sources)}
    new = {"MEMORY.md": f"- {merged}\n"}
    report = check(old, new, [DeclaredMerge(kept=merged, merged=tuple(sources))])
    reasons = [f.reason for f in report.lost] + [f"added: {f.text}" for f in report.added]
    return not report.ok, "; ".join(reasons)


def library(sources: list[str], merged: str) -> tuple[bool, str]:
    steps = [MemberStep(f"member-{i}", 1, text) for i, text in enumerate(sources, start=1)]
    report = check_union(steps, [merged])
    return not report.ok, report.refusal() or ""


def judge(item: dict[str, Any], planted: bool) -> Verdict:
    refused, reasons = {}, {}
    for name in item.get("checks", CHECKS):
        run = workspace if name == "workspace" else library
        refused[name], reasons[name] = run(item["sources"], item["merged"])
    return Verdict(item["id"], item["category"], planted, refused, reasons)


def verdicts() -> Iterator[Verdict]:
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    for item in corpus["planted"]:
        yield judge(item, True)
    for item in corpus["legitimate"]:
        yield judge(item, False)
