"""A backlog of turns as model requests: consecutive groups that each fit one request.

Requests are sized on what is really sent. The turns travel as JSON inside the user
message, and that message is itself a JSON string in the request body, so every quote
and backslash is escaped twice: a turn costs `len(json.dumps(json.dumps(turn)))` bytes
of body, not the length of its text (the difference is 1.2–2.4× on ordinary
transcripts). `split_turns` adds turns to a group while the sum of those exact costs
stays within the room the pass has left in its request, never splits a turn, and stops
after `max_calls` groups: the rest waits for the next cycle.

Each turn is rendered by `daemon.transcripts.turn_render`, the one compact rendering every
pass shares. One turn larger than a whole request is cut with markers the model can see
("[…cut: …]"): the messages that do not fit, then the first one itself. A turn is never
refused for its size, so no transcript can stall on it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from daemon.kernel.errors import ModelResponseInvalid, ModelUnavailable
from daemon.model.deep_tier import CallResult, DeepTier
from daemon.passes.protocol import PassContext
from daemon.passes.turn_prompt import (
    SYSTEM_PROMPT,
    TURN_SHARE_DENOMINATOR,
    TURN_SHARE_NUMERATOR,
    user_message,
)
from daemon.transcripts.reader import Turn, TurnBatch
from daemon.transcripts.turn_render import TurnBody, render_turn, wire_bytes

__all__ = ["Backlog", "TurnGroup", "split_turns", "turn_room", "wire_bytes", "work_through"]

T = TypeVar("T", bound=BaseModel)

SEPARATOR_BYTES = 2  # "," between two items of a JSON list, as escaped on the wire


@dataclass(frozen=True)
class TurnGroup:
    """One request's worth of turns: (id, transcript turn) pairs, the bodies sent, the turns
    as shown (what grounding checks), and `end`, how many turns of the backlog are covered
    once this group is done."""

    turns: tuple[tuple[str, Turn], ...]
    bodies: tuple[TurnBody, ...]
    end: int
    wire_bytes: int
    shown: tuple[Turn, ...]

    @property
    def by_id(self) -> dict[str, Turn]:
        """Turn id → the turn as the model saw it (cut text cut, repeated system text empty)."""
        return {turn_id: shown for (turn_id, _turn), shown in zip(self.turns, self.shown, strict=True)}


def split_turns(turns: Sequence[Turn], room: int, max_calls: int, first_id: int = 1) -> list[TurnGroup]:
    """Consecutive groups of `turns`, each within `room` bytes of request body, at most `max_calls`.

    `room` is what the pass's request has left once everything but the turns is in it
    (`DeepTier.room_for`); a group always holds at least one turn, cut to fit if needed.
    Ids run on from `T<first_id>` across the groups, so a turn keeps its id in every request.
    """
    groups: list[TurnGroup] = []
    start = 0
    room = max(room, 1)
    while start < len(turns) and len(groups) < max_calls:
        chosen: list[tuple[str, Turn]] = []
        bodies: list[TurnBody] = []
        shown: list[Turn] = []
        system_seen: dict[str, str] = {}  # repeated system text is shown once per request
        used = 0
        for turn in turns[start:]:
            turn_id = f"T{first_id + start + len(chosen)}"
            trial_seen = dict(system_seen)
            rendered = render_turn(turn_id, turn, trial_seen, room - SEPARATOR_BYTES)
            cost = wire_bytes(rendered.body) + SEPARATOR_BYTES
            if chosen and used + cost > room:
                break
            system_seen = trial_seen
            chosen.append((turn_id, turn))
            bodies.append(rendered.body)
            shown.append(rendered.shown)
            used += cost
        start += len(chosen)
        groups.append(TurnGroup(tuple(chosen), tuple(bodies), start, used, tuple(shown)))
    return groups


@dataclass(frozen=True)
class Backlog:
    """What a pass got through: the turns covered (for cursors), calls made, why it stopped."""

    done: TurnBatch
    calls: int
    left: int
    stopped: str | None

    def note(self) -> str:
        """A clause for the pass's reason when turns wait for the next cycle, else ""."""
        if not self.left:
            return ""
        why = self.stopped or f"at most {self.calls} request(s) per pass (model.max_calls_per_pass)"
        return f"; {self.left} more turn(s) wait for the next cycle ({why})"


def turn_room(deep: DeepTier, task: str, data: str, response_model: type[BaseModel]) -> int:
    """Bytes of turns one request of a pass may carry: what its request leaves once its task,
    data and schema are in, and never more than the share every pass leaves the turns
    (`turn_prompt.TURN_SHARE_*`), so that passes whose task fits group the same turns alike
    and their requests start with the same bytes."""
    model = deep.model
    assert model is not None
    own = deep.room_for(SYSTEM_PROMPT, user_message([], task, data), response_model)
    frame = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user_message([], "", "")}]
    framing = len(json.dumps({"messages": frame}, ensure_ascii=False).encode("utf-8"))
    shared = model.max_input_bytes * TURN_SHARE_NUMERATOR // TURN_SHARE_DENOMINATOR - framing
    return min(own, shared)


def work_through(
    context: PassContext,
    batch: TurnBatch,
    *,
    purpose: str,
    task: str,
    data: Callable[[], str],
    response_model: type[T],
    handle: Callable[[TurnGroup, CallResult[T]], None],
) -> Backlog:
    """Send `batch`'s turns to the model in as many requests as needed and allowed.

    Each request is the shared layout (`daemon.passes.turn_prompt`): the turns, then `task`
    and `data()` (which may change between requests: the pass can fold each answer into
    what the next request shows); `handle` takes each answer. A failure on the first
    request propagates (the pass is skipped, its turns kept); a later one stops the work,
    keeping what earlier requests settled. The returned batch covers exactly the turns
    whose answers were handled.
    """
    deep = context.deep
    model = deep.model
    assert model is not None
    turns = batch.turns
    done = calls = 0
    stopped: str | None = None
    while done < len(turns) and calls < model.max_calls_per_pass:
        shown = data()
        room = turn_room(deep, task, shown, response_model)
        (group,) = split_turns(turns[done:], room, 1, first_id=done + 1)
        if len(turns) > len(group.turns) or calls:
            context.progress(
                f"{purpose}: request {calls + 1}, turns {done + 1}–{done + len(group.turns)} of {len(turns)}"
                f" ({group.wire_bytes:,} bytes of turns)"
            )
        try:
            answer = deep.call(purpose, SYSTEM_PROMPT, user_message(list(group.bodies), task, shown), response_model)
        except (ModelUnavailable, ModelResponseInvalid) as exc:
            if not calls:
                raise
            stopped = f"stopped after {calls} request(s): {exc}"
            break
        calls += 1
        handle(group, answer)
        done += group.end
    root = context.agent.transcript_root
    return Backlog(batch.take(done, root), calls, len(turns) - done, stopped)
