"""Junk never blocks truth: candidates that say different values for one key and date (pure).

The memory keeps one value per (owner, entity, key) from one date; a second, different
value with the same `valid_from` would be refused as `same_date_conflict` — so whichever
candidate was written first would win, and a trap the model answered first would block the
true fact behind it. Before anything is written, the candidates of one distillation run
that passed every check are grouped by (owner, entity, key, valid_from): within a group
saying more than one value, the candidates whose quote grounds their value most strongly
(`fact_grounding.Verdict.strength`: the value as written, then every word of it, then
inflected) are written, if they all say one value; the weaker ones are refused as
`weaker_conflict`. When the strongest say different values, none is written: all are held
for a person (`held_conflict`; `memory refused --reason held_conflict`, `memory keep`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Contest:
    status: str  # rejected | held
    reason: str
    detail: str


def _same(value: object) -> str:
    return " ".join(str(value).casefold().split())


def settle(candidates: Sequence[tuple[Mapping[str, object], int]]) -> list[Contest | None]:
    """For each (proposal, strength), None if it may be written, else why it may not."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, (raw, _strength) in enumerate(candidates):
        scope = tuple(str(raw[k]) for k in ("tenant", "user", "entity", "key", "valid_from"))
        groups.setdefault(scope, []).append(index)
    verdicts: list[Contest | None] = [None] * len(candidates)
    for scope, members in groups.items():
        values = {_same(candidates[i][0]["value"]) for i in members}
        if len(values) < 2:
            continue
        best = max(candidates[i][1] for i in members)
        strongest = {_same(candidates[i][0]["value"]) for i in members if candidates[i][1] == best}
        said = ", ".join(sorted(repr(str(candidates[i][0]["value"])) for i in members))
        where = f"{scope[2]}.{scope[3]} from {scope[4]}"
        for i in members:
            value = _same(candidates[i][0]["value"])
            if len(strongest) > 1:
                verdicts[i] = Contest(
                    "held",
                    "held_conflict",
                    f"the turns say {said} for {where}, each as firmly: none stored, all held for a "
                    "person (memory keep)",
                )
            elif value not in strongest:
                winner = next(str(candidates[j][0]["value"]) for j in members if candidates[j][1] == best)
                verdicts[i] = Contest(
                    "rejected",
                    "weaker_conflict",
                    f"{where}: another quote grounds {winner!r} more firmly",
                )
    return verdicts
