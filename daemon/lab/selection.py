"""The fixed selection rule (docs/explanation/lab.md, lab-reference §8).

Ranking a set of configurations (the grid): drop any candidate failing a hard check (it
ranks after every candidate that passes them, and is never "best"); then most scenarios
passed; then fewest mean stored records (rounded to 4 places). The sort is stable, so an
exact tie keeps enumeration order.

Comparing a candidate with its parent (campaign, `lab evaluate`, adoption): reject if
any hard check failed or fewer scenarios pass; accept if more pass, or as many pass and
strictly fewer records are stored; anything else (an exact tie) keeps the parent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from daemon.kernel.errors import DaemonError
from daemon.lab.evaluator import Evaluation

Recommendation = Literal["recommend_accept", "recommend_reject"]


class Scored(Protocol):
    @property
    def passed(self) -> int: ...

    @property
    def mean_stored_records(self) -> float: ...

    @property
    def violations(self) -> int: ...


def rank_key(score: Scored) -> tuple[bool, int, float]:
    """Sort key of the selection rule: eligible first, most passed, fewest stored records."""
    return (score.violations > 0, -score.passed, round(score.mean_stored_records, 4))


@dataclass(frozen=True)
class Comparison:
    recommendation: Recommendation
    reason: str
    delta_passed: int
    delta_success: float
    wins: tuple[str, ...]
    losses: tuple[str, ...]
    ties: int
    parent_stored: float
    candidate_stored: float

    def as_json(self) -> dict[str, object]:
        return {
            "recommendation": self.recommendation,
            "reason": self.reason,
            "delta_passed": self.delta_passed,
            "delta_success": round(self.delta_success, 4),
            "wins": list(self.wins),
            "losses": list(self.losses),
            "ties": self.ties,
            "parent_mean_stored_records": round(self.parent_stored, 4),
            "candidate_mean_stored_records": round(self.candidate_stored, 4),
        }


def compare(candidate: Evaluation, parent: Evaluation) -> Comparison:
    """Scenario-by-scenario comparison of `candidate` with `parent` on the same suite."""
    parent_ids = [r.scenario_id for r in parent.runs]
    if [r.scenario_id for r in candidate.runs] != parent_ids:
        raise DaemonError("cannot compare evaluations of different scenario suites")
    wins = tuple(
        c.scenario_id for c, p in zip(candidate.runs, parent.runs, strict=True) if c.passed > p.passed
    )
    losses = tuple(
        c.scenario_id for c, p in zip(candidate.runs, parent.runs, strict=True) if c.passed < p.passed
    )
    delta = candidate.passed - parent.passed
    c_stored, p_stored = round(candidate.mean_stored_records, 4), round(parent.mean_stored_records, 4)
    recommendation: Recommendation
    if candidate.violations:
        recommendation, reason = "recommend_reject", f"{candidate.violations} hard-check violation(s)"
    elif delta < 0:
        recommendation, reason = "recommend_reject", f"{-delta} fewer scenario(s) pass"
    elif delta > 0:
        recommendation, reason = "recommend_accept", f"{delta} more scenario(s) pass"
    elif c_stored < p_stored:
        recommendation = "recommend_accept"
        reason = f"as many scenarios pass with fewer stored records ({p_stored:g} → {c_stored:g})"
    else:
        recommendation = "recommend_reject"
        reason = "no improvement: as many scenarios pass and no fewer records are stored (parent kept)"
    return Comparison(
        recommendation=recommendation,
        reason=reason,
        delta_passed=delta,
        delta_success=delta / candidate.total,
        wins=wins,
        losses=losses,
        ties=candidate.total - len(wins) - len(losses),
        parent_stored=parent.mean_stored_records,
        candidate_stored=candidate.mean_stored_records,
    )
