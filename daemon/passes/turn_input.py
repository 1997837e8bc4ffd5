"""The shared start of every transcript-driven pass: read its new turns, apply the 4-turn rule.

Fewer than 4 new turns: the pass does nothing and its offsets are committed anyway, so a
few turns do not pile up and get over-read later (docs/explanation/transcripts.md) — except
a turn cut because it is longer than the read window: it always comes with few others, and
committing it unread would lose it.
"""

from __future__ import annotations

from daemon.kernel.changeset import Changeset, PassDetails
from daemon.kernel.json_contract import Omittable
from daemon.passes.protocol import PassContext
from daemon.transcripts import cursors
from daemon.transcripts.files import source_of
from daemon.transcripts.reader import MIN_NEW_TURNS, TurnBatch, read_new_turns
from daemon.transcripts.turn_render import compact_json


class TurnsSeen(PassDetails):
    """A transcript-driven pass that stopped before the model: the new turns it saw and the
    reader's warnings (absent when it stopped before reading them: no usable model)."""

    turns: int
    warnings: Omittable[list[str]] = None


def new_turns(context: PassContext, consumer: str) -> TurnBatch:
    """`consumer`'s new complete turns since its cursors.

    What the agent used in them goes to the run's usage log whatever the pass then does
    with the turns (even none, under the 4-turn rule): every run that reads turns records
    usage (docs/explanation/skills.md#usage-signals).
    """
    batch = read_new_turns(
        source_of(context.agent), cursors.for_consumer(context.cursors, consumer), consumer, context.now
    )
    if context.usage is not None:
        context.usage.add(batch.usage)
    return batch


def too_few(
    batch: TurnBatch, pass_name: str, verb: str, shape: type[TurnsSeen] = TurnsSeen
) -> Changeset | None:
    """A `nothing` changeset committing the offsets if the batch is under the 4-turn rule, else None.

    A batch holding a turn cut at the read window is never under the rule. `shape` is the
    pass's own details for that case, if it reports more than `TurnsSeen` (all defaulted).
    """
    if len(batch.turns) >= MIN_NEW_TURNS or batch.window_cut:
        return None
    warnings = list(batch.warnings)
    return Changeset(
        pass_name=pass_name,
        status="nothing",
        reason=f"{len(batch.turns)} new turn(s), fewer than {MIN_NEW_TURNS}: offsets committed without {verb}",
        cursor_advances=batch.advances,
        report=tuple(warnings),
        details=shape(turns=len(batch.turns), warnings=warnings),
    )


def turns_for_model(
    context: PassContext, pass_name: str, verb: str, force: bool = False, shape: type[TurnsSeen] = TurnsSeen
) -> TurnBatch | Changeset:
    """The new turns if the model should see them now, else the changeset that says why not.

    Fewer than 4 turns: `nothing`, offsets committed — unless `force` (the pass has other
    turns to send anyway, such as turns a person re-queued). No usable model (none
    configured, no key, cap, budget, breaker): `skipped`, offsets kept for the next cycle.
    """
    batch = new_turns(context, pass_name)
    early = None if force else too_few(batch, pass_name, verb, shape)
    if early is not None:
        return early
    reason = context.deep.availability()
    if reason:
        return Changeset(
            pass_name=pass_name, status="skipped", reason=reason, details=TurnsSeen(turns=len(batch.turns))
        )
    return batch


def untrusted_block(body: object) -> str:
    """Compact JSON wrapped in the delimiters the system prompts call untrusted data (OWASP LLM01 #6)."""
    return (
        "<untrusted_transcript_data>\n"
        + compact_json(body)
        + "\n</untrusted_transcript_data>"
    )
