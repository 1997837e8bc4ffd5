"""The shared start of every transcript-driven pass: read its new turns, apply the 4-turn rule.

Fewer than 4 new turns: the pass does nothing and its offsets are committed anyway, so a
few turns do not pile up and get over-read later (SPEC §3.2).
"""

from __future__ import annotations

from typing import Any

from daemon import cursors
from daemon.changeset import Changeset
from daemon.passes import PassContext
from daemon.transcripts import MIN_NEW_TURNS, TurnBatch, read_new_turns


def new_turns(context: PassContext, consumer: str) -> TurnBatch:
    """`consumer`'s new complete turns since its cursors."""
    agent = context.agent
    return read_new_turns(
        agent.home, agent.transcripts, cursors.for_consumer(context.cursors, consumer), consumer, context.now
    )


def too_few(batch: TurnBatch, pass_name: str, verb: str, **details: Any) -> Changeset | None:
    """A `nothing` changeset committing the offsets if the batch is under the 4-turn rule, else None."""
    if len(batch.turns) >= MIN_NEW_TURNS:
        return None
    warnings = list(batch.warnings)
    return Changeset(
        pass_name=pass_name,
        status="nothing",
        reason=f"{len(batch.turns)} new turn(s), fewer than {MIN_NEW_TURNS}: offsets committed without {verb}",
        cursor_advances=batch.advances,
        report=tuple(warnings),
        details={"turns": len(batch.turns), "warnings": warnings, **details},
    )
