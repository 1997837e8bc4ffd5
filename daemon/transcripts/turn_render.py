"""The one compact rendering of transcript turns that every model pass sends (prompt economy).

Distillation, the skill scout and instruction review read the same new turns; all three
show them to the model through this module, so a turn looks the same to each of them and
costs as little as its meaning allows:

- a message is a `[role, text]` pair, not a `{"role": …, "content": …}` object, and the
  JSON is written without spaces (every byte of it is escaped twice on the wire);
- the date is the turn's day (`YYYY-MM-DD`) when its timestamp is ISO, else as written;
- tool output is cut to its first TOOL_CHARS characters with a marker saying how much is
  not shown (runtime adapters send a one-line summary of each tool call instead);
- a system message that repeats one shown earlier in the same request is replaced by a
  marker naming the turn that shows it (runtimes repeat their boilerplate every turn);
- any other message past MAX_MESSAGE_CHARS is cut with a marker.

Grounding reads the rendering, not the transcript: `shown_turn` is the turn with each
message's content replaced by exactly the text the model saw (markers excluded), so a
fact's quote, a skill step or an instruction proposal's evidence must be words the model
was actually shown. Turn ids (`T1`, `T2`, …) count from the first turn of the batch a
pass reads, so they are the same for every request of that pass.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from daemon.transcripts.lines import Message
from daemon.transcripts.window import Turn

MAX_MESSAGE_CHARS = 4000
TOOL_CHARS = 300
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def compact_json(value: Any) -> str:
    """`value` as JSON without insignificant spaces (what the untrusted blocks carry)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def wire_bytes(value: Any) -> int:
    """Bytes `value` takes in the request body: compact JSON inside a JSON string, UTF-8."""
    inner = compact_json(value)
    return len(json.dumps(inner, ensure_ascii=False).encode("utf-8")) - 2


def cut_marker(cut: int, what: str) -> str:
    return f" […cut: {cut} more characters of {what} not shown]"


@dataclass(frozen=True)
class ShownMessage:
    """One message as the model sees it: `text` is verbatim transcript text, `note` our marker."""

    role: str
    text: str
    note: str = ""

    def pair(self) -> list[str]:
        return [self.role, self.text + self.note]


def tool_text(message: Message) -> str:
    """What stands for a tool message's output before it is cut to TOOL_CHARS.

    Runtime adapters never yield tool messages: a precision guard skips tool results and
    the assistant message that called a tool carries a one-line summary in its text
    (`[tool: Bash: ls -la]`, see transcript_guards.tool_summary). Plain JSONL transcripts
    do hold tool messages, and their output itself is shown, cut.
    """
    return message.content


def shown_message(message: Message, turn_id: str, system_seen: dict[str, str]) -> ShownMessage:
    """`message` as shown in turn `turn_id`; `system_seen` (system text → id of the turn showing it) grows."""
    if message.role == "tool":
        text = tool_text(message)
        if len(text) <= TOOL_CHARS:
            return ShownMessage("tool", text)
        return ShownMessage("tool", text[:TOOL_CHARS], cut_marker(len(text) - TOOL_CHARS, "tool output"))
    if message.role == "system":
        first = system_seen.get(message.content)
        if first is not None:
            return ShownMessage("system", "", f"[…same system text as in {first}, not repeated]")
        system_seen[message.content] = turn_id
    text = message.content
    if len(text) <= MAX_MESSAGE_CHARS:
        return ShownMessage(message.role, text)
    return ShownMessage(message.role, text[:MAX_MESSAGE_CHARS], cut_marker(len(text) - MAX_MESSAGE_CHARS, "this message"))


def turn_day(turn: Turn) -> str | None:
    stamp = turn.ts
    if stamp and _ISO_DAY.match(stamp):
        return stamp[:10]
    return stamp


class TurnBody(TypedDict):
    """One turn in the request: its id (`T3`), its day, and `[role, text]` message pairs."""

    id: str
    date: str | None
    messages: list[list[str]]


@dataclass(frozen=True)
class RenderedTurn:
    """A turn as sent: `body` goes into the request, `shown` is what grounding checks against."""

    body: TurnBody
    shown: Turn


def _shown_turn(turn: Turn, messages: list[ShownMessage]) -> Turn:
    texts = [
        Message(m.role, s.text, m.ts, m.offset) for m, s in zip(turn.messages, messages, strict=False)
    ]
    return replace(turn, messages=tuple(texts))


def render_turn(
    turn_id: str, turn: Turn, system_seen: dict[str, str], max_bytes: int | None = None
) -> RenderedTurn:
    """`turn` rendered as `turn_id`, within `max_bytes` of request body if given.

    A turn too large for `max_bytes` keeps whole messages while they fit and then says how
    many were left out; if not even the first fits, the first is shortened to fit.
    `system_seen` is only updated with system text that was actually shown.
    """
    seen = dict(system_seen)
    shown = [shown_message(m, turn_id, seen) for m in turn.messages]
    body = TurnBody(id=turn_id, date=turn_day(turn), messages=[s.pair() for s in shown])
    if max_bytes is None or wire_bytes(body) <= max_bytes:
        system_seen.update(seen)
        return RenderedTurn(body, _shown_turn(turn, shown))
    kept: list[ShownMessage] = []
    # Wire bytes add up over a list's items (escaping is per character), so the size of a
    # trial is counted, not re-serialised: a turn of 20,000 tool lines stays linear.
    empty = wire_bytes(TurnBody(id=turn_id, date=body["date"], messages=[]))
    used = 0  # the kept pairs and the commas between them
    for index, message in enumerate(shown):
        note = ["system", f"[…cut: {len(shown) - index} more message(s) of this turn not shown]"]
        pair_bytes = wire_bytes(message.pair()) + (1 if kept else 0)
        if empty + used + pair_bytes + 1 + wire_bytes(note) > max_bytes:
            if not kept:  # the first message alone is too large: shorten it
                kept = [_shortened(body, message, note, max_bytes)]
            body = TurnBody(id=turn_id, date=body["date"], messages=[*(k.pair() for k in kept), note])
            break
        kept.append(message)
        used += pair_bytes
    else:
        body = TurnBody(id=turn_id, date=body["date"], messages=[k.pair() for k in kept])
    system_seen.update({k.text: turn_id for k in kept if k.role == "system" and k.text and k.text not in system_seen})
    return RenderedTurn(body, _shown_turn(turn, kept))


def _shortened(body: TurnBody, message: ShownMessage, note: list[str], max_bytes: int) -> ShownMessage:
    text = message.text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits, found by bisection
        mid = (low + high + 1) // 2
        candidate = ShownMessage(message.role, text[:mid], cut_marker(len(text) - mid, "this message"))
        if wire_bytes(TurnBody(id=body["id"], date=body["date"], messages=[candidate.pair(), note])) <= max_bytes:
            low = mid
        else:
            high = mid - 1
    return ShownMessage(message.role, text[:low], cut_marker(len(text) - low, "this message"))
