"""OpenClaw session events → messages (`transcripts.format: openclaw`), lines or database rows.

Legacy sessions are `~/.openclaw/agents/<id>/sessions/<session>.jsonl`; since 2026.8 the
same JSON objects are rows of `transcript_events` in the agent's SQLite database
(`daemon.transcripts.sqlite_common`). Events: a `session` header, `message` with
`message.role` `user`/`assistant`/`toolResult` and content blocks (`text`, `thinking`,
`toolCall`), `compaction`, `model_change`, `custom`… Tool results are skipped as such,
`compaction` as a compaction summary, the header, model and thinking-level changes and
`custom` events are bookkeeping, and any other kind is counted by name (an OpenClaw that
writes a new kind of event shows in `transcripts` and `status`); recalled memory pasted into
a user message (`<relevant-memories>`) is cut out, and heartbeat / memory-flush turns
(`HEARTBEAT_OK`, `NO_REPLY`) are dropped by the turn guard.
"""

from __future__ import annotations

from daemon.kernel.json_contract import RawJson
from daemon.transcripts import guards
from daemon.transcripts.lines import Malformed, Parsed, Skipped, kind_label, load_object

# Events that carry no words of the conversation (OpenClaw 2026.8 session format): not
# counted. Any other type is counted by name (Skipped.unknown).
BOOKKEEPING = frozenset({"session", "model_change", "thinking_level_change", "custom"})


def _text(content: object) -> tuple[str, tuple[str, ...]]:
    if isinstance(content, str):
        return content, ()
    if not isinstance(content, list):
        return "", ()
    parts: list[str] = []
    tools: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif kind in ("toolCall", "tool_use", "toolUse"):
            tool = guards.tool_summary(
                str(block.get("name") or "tool"), block.get("arguments", block.get("input"))
            )
            tools.append(tool)
            parts.append(guards.tool_line(tool))
    return "\n".join(parts), tuple(tools)


def parse_event(obj: RawJson, offset: int) -> Parsed:
    """One event object (a line or a row's `event_json`)."""
    kind = obj.get("type")
    if not isinstance(kind, str):
        return Malformed("no type (not an OpenClaw session event)")
    if kind == "compaction":
        return Skipped(guards.COMPACTION)
    if kind != "message":
        return Skipped(None, None if kind in BOOKKEEPING else kind_label(kind))
    message = obj.get("message")
    if not isinstance(message, dict):
        return Malformed("a message event without a message object")
    role = message.get("role")
    if role in ("toolResult", "tool"):
        return Skipped(guards.TOOL_RESULT)
    if role == "system":
        return Skipped(guards.SYSTEM_PROMPT)
    if role not in ("user", "assistant"):
        return Skipped(None, kind_label("message", role))
    text, tools = _text(message.get("content"))
    ident = obj.get("id")
    return guards.guarded_message(
        role, text, obj.get("timestamp"), offset, tools, source=ident if isinstance(ident, str) else None
    )


def parse(raw: bytes, offset: int) -> Parsed:
    obj = load_object(raw)
    return obj if isinstance(obj, Malformed) else parse_event(obj, offset)
