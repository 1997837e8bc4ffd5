"""Codex CLI rollout lines → messages (`transcripts.format: codex`).

`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`, append-only; every line is
`{"timestamp", "type", "payload"}`. Rules (docs/reference/transcript-formats.md):

- a user turn starts at an `event_msg` of type `user_message`; the `response_item` user
  message that repeats it is not counted again, and contextual ones (`<environment_context>`,
  `<user_instructions>`, AGENTS.md restated) are skipped as injected context;
- assistant text is the `response_item` message's `output_text`; `event_msg`
  `agent_message` repeats it and is not counted; `function_call` (and custom/local shell
  calls) become a one-line tool summary; their outputs are skipped as tool results;
  `reasoning` is dropped; `compacted` is a compaction summary;
- `task_complete` closes the turn without the idle wait;
- a session whose `session_meta.source` marks a subagent or an internal job (a memory
  consolidation) is skipped whole; archived rollouts move to `archived_sessions/`, so the
  cursor is keyed by the session id in the file name, not by its path.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from daemon.kernel.json_contract import RawJson
from daemon.transcripts import guards
from daemon.transcripts.files import open_transcript
from daemon.transcripts.lines import (
    SESSION_END,
    Malformed,
    Parsed,
    Skipped,
    load_nested,
    load_object,
)

EXPECTED = 'Codex rollout lines, {"timestamp": ..., "type": ..., "payload": {...}}'
FIRST_LINE_LIMIT = 1024 * 1024
_SESSION_ID = re.compile(
    r"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$"
)
_TOOL_CALLS = ("function_call", "custom_tool_call", "local_shell_call", "web_search_call")
_TOOL_OUTPUTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")


def _text(content: object, kinds: tuple[str, ...]) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(
        b["text"]
        for b in content
        if isinstance(b, dict) and b.get("type") in kinds and isinstance(b.get("text"), str)
    )


def _arguments(payload: RawJson) -> object:
    """The call's arguments, decoded if they are JSON text; Malformed if nested too deep."""
    raw = payload.get("arguments", payload.get("input", payload.get("action")))
    return load_nested(raw, "tool call arguments") if isinstance(raw, str) else raw


def _message(role: str, text: str, ts: object, offset: int, tools: tuple[str, ...] = ()) -> Parsed:
    return guards.guarded_message(role, text, ts, offset, tools)


def parse(raw: bytes, offset: int) -> Parsed:
    """One rollout line: a message, SESSION_END (`task_complete`), a Skipped, or Malformed."""
    obj = load_object(raw)
    if isinstance(obj, Malformed):
        return obj
    kind, payload, ts = obj.get("type"), obj.get("payload"), obj.get("timestamp")
    if not isinstance(kind, str) or not isinstance(payload, dict):
        return Malformed("no type and payload (not a Codex rollout line)")
    ptype = payload.get("type")
    if kind == "compacted":
        return Skipped(guards.COMPACTION)
    if kind == "event_msg":
        if ptype == "user_message" and isinstance(payload.get("message"), str):
            return _message("user", payload["message"], ts, offset)
        if ptype == "task_complete":
            return SESSION_END
        return Skipped(None)
    if kind != "response_item":
        return Skipped(None)  # session_meta, turn_context and kinds newer than this reader
    if ptype == "message":
        role = payload.get("role")
        if role == "assistant":
            return _message("assistant", _text(payload.get("content"), ("output_text", "text")), ts, offset)
        if role in ("developer", "system"):
            return Skipped(guards.SYSTEM_PROMPT)
        text = _text(payload.get("content"), ("input_text", "text"))
        _, cut = guards.strip_injected(text)
        # The user's own words arrive as event_msg user_message; this copy is not counted.
        return Skipped(cut[0] if cut else None)
    if ptype in _TOOL_CALLS:
        arguments = _arguments(payload)
        if isinstance(arguments, Malformed):
            return arguments
        tool = guards.tool_summary(str(payload.get("name") or ptype), arguments)
        return _message("assistant", f"[tool: {tool}]", ts, offset, (tool,))
    if ptype in _TOOL_OUTPUTS:
        return Skipped(guards.TOOL_RESULT)
    return Skipped(None)  # reasoning and item kinds newer than this reader


def cursor_key(rel: str) -> str:
    """`codex-session:<uuid>` from the rollout's file name, so an archived file keeps its cursor."""
    match = _SESSION_ID.search(rel)
    return f"codex-session:{match.group(1).lower()}" if match else rel


def _source_skips(source: object) -> bool:
    text = json.dumps(source).lower() if not isinstance(source, str) else source.lower()
    return any(word in text for word in ("subagent", "sub_agent", "internal", "memory"))


def skip_file(path: Path, subagents: bool) -> str | None:
    """SUBAGENT if the rollout's `session_meta` marks a subagent or an internal job, else None."""
    with open_transcript(path) as fh:
        first = fh.readline(FIRST_LINE_LIMIT)
    obj = load_object(first.rstrip(b"\n")) if first.endswith(b"\n") else None
    if not isinstance(obj, dict) or obj.get("type") != "session_meta":
        return None
    payload = obj.get("payload")
    source = payload.get("source") if isinstance(payload, dict) else None
    if source is None or (subagents and "internal" not in json.dumps(source).lower()):
        return None
    return guards.SUBAGENT if _source_skips(source) else None
