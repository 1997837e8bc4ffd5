"""A backlog of turns as model requests: consecutive groups that each fit one request.

Requests are sized on what is really sent. The turns travel as JSON inside the user
message, and that message is itself a JSON string in the request body, so every quote
and backslash is escaped twice: a turn costs `len(json.dumps(json.dumps(turn)))` bytes
of body, not the length of its text (the difference is 1.2–2.4× on ordinary
transcripts). `split_turns` adds turns to a group while the sum of those exact costs
stays within the room the pass has left in its request, never splits a turn, and stops
after `max_calls` groups: the rest waits for the next cycle.

One turn larger than a whole request is cut with markers the model can see ("[…cut: …]"):
first each message past MAX_MESSAGE_CHARS, then the messages that do not fit. A turn is
never refused for its size, so no transcript can stall on it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from daemon.kernel.deep_tier import CallResult
from daemon.kernel.errors import ModelResponseInvalid, ModelUnavailable
from daemon.kernel.passes import PassContext
from daemon.kernel.transcripts import Turn, TurnBatch

T = TypeVar("T", bound=BaseModel)

MAX_MESSAGE_CHARS = 4000
SEPARATOR_BYTES = 2  # ", " between two items of a JSON list


def wire_bytes(value: Any) -> int:
    """Bytes `value` takes in the request body: JSON inside a JSON string, UTF-8."""
    inner = json.dumps(value, ensure_ascii=False)
    return len(json.dumps(inner, ensure_ascii=False).encode("utf-8")) - 2


def _cut(text: str, keep: int) -> str:
    return f"{text[:keep]} […cut: {len(text) - keep} more characters not shown]"


def turn_body(turn_id: str, turn: Turn, max_bytes: int | None = None) -> dict[str, Any]:
    """The turn as the model sees it; within `max_bytes` of request body if given."""
    messages = [
        {"role": m.role, "content": m.content if len(m.content) <= MAX_MESSAGE_CHARS else _cut(m.content, MAX_MESSAGE_CHARS)}
        for m in turn.messages
    ]
    body: dict[str, Any] = {"id": turn_id, "date": turn.ts, "messages": messages}
    if max_bytes is None or wire_bytes(body) <= max_bytes:
        return body
    # Keep whole messages while they fit, then say how many were left out.
    kept: list[dict[str, str]] = []
    for index, message in enumerate(messages):
        left = len(messages) - index
        note = {"role": "system", "content": f"[…cut: {left} more message(s) of this turn not shown]"}
        trial = {**body, "messages": [*kept, message, note]}
        if wire_bytes(trial) > max_bytes:
            if not kept:  # the first message alone is too large: shorten it
                return {**body, "messages": [_shortened(body, message, note, max_bytes)]}
            return {**body, "messages": [*kept, note]}
        kept.append(message)
    return {**body, "messages": kept}


def _shortened(body: dict[str, Any], message: dict[str, str], note: dict[str, str], max_bytes: int) -> dict[str, str]:
    text = message["content"]
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits, found by bisection
        mid = (low + high + 1) // 2
        trial = {**body, "messages": [{**message, "content": _cut(text, mid)}, note]}
        if wire_bytes(trial) <= max_bytes:
            low = mid
        else:
            high = mid - 1
    return {**message, "content": _cut(text, low)}


@dataclass(frozen=True)
class TurnGroup:
    """One request's worth of turns: ids `T1…` within the group, the bodies sent, and
    `end`, how many turns of the backlog are covered once this group is done."""

    turns: tuple[tuple[str, Turn], ...]
    bodies: tuple[dict[str, Any], ...]
    end: int
    wire_bytes: int

    @property
    def by_id(self) -> dict[str, Turn]:
        return dict(self.turns)


def split_turns(turns: Sequence[Turn], room: int, max_calls: int) -> list[TurnGroup]:
    """Consecutive groups of `turns`, each within `room` bytes of request body, at most `max_calls`.

    `room` is what the pass's request has left once everything but the turns is in it
    (`DeepTier.room_for`); a group always holds at least one turn, cut to fit if needed.
    """
    groups: list[TurnGroup] = []
    start = 0
    room = max(room, 1)
    while start < len(turns) and len(groups) < max_calls:
        chosen: list[tuple[str, Turn]] = []
        bodies: list[dict[str, Any]] = []
        used = 0
        for turn in turns[start:]:
            turn_id = f"T{len(chosen) + 1}"
            body = turn_body(turn_id, turn, room - SEPARATOR_BYTES)
            cost = wire_bytes(body) + SEPARATOR_BYTES
            if chosen and used + cost > room:
                break
            chosen.append((turn_id, turn))
            bodies.append(body)
            used += cost
        start += len(chosen)
        groups.append(TurnGroup(tuple(chosen), tuple(bodies), start, used))
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


def work_through(
    context: PassContext,
    batch: TurnBatch,
    *,
    purpose: str,
    system: str,
    user: Callable[[list[dict[str, Any]]], str],
    response_model: type[T],
    handle: Callable[[TurnGroup, CallResult[T]], None],
) -> Backlog:
    """Send `batch`'s turns to the model in as many requests as needed and allowed.

    `user(bodies)` builds the user message around the turn bodies (it may change between
    requests: the pass can fold each answer into what the next request shows); `handle`
    takes each answer. A failure on the first request propagates (the pass is skipped,
    its turns kept); a later one stops the work, keeping what earlier requests settled.
    The returned batch covers exactly the turns whose answers were handled.
    """
    deep = context.deep
    model = deep.model
    assert model is not None
    turns = batch.turns
    done = calls = 0
    stopped: str | None = None
    while done < len(turns) and calls < model.max_calls_per_pass:
        room = deep.room_for(system, user([]), response_model)
        (group,) = split_turns(turns[done:], room, 1)
        if len(turns) > len(group.turns) or calls:
            context.progress(
                f"{purpose}: request {calls + 1}, turns {done + 1}–{done + len(group.turns)} of {len(turns)}"
                f" ({group.wire_bytes:,} bytes of turns)"
            )
        try:
            answer = deep.call(purpose, system, user(list(group.bodies)), response_model)
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
