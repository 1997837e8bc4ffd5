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
- a session whose `session_meta.source` (or `thread_source`) marks a subagent or an
  internal job (a memory consolidation) is skipped whole; archived rollouts move to
  `archived_sessions/`, so the cursor is keyed by the session id in the file name, not by
  its path;
- `$CODEX_HOME/sessions` holds every project's rollouts: a session is bound to its project
  by its `cwd` (`session_cwd`, `daemon.transcripts.binding`);
- other line kinds are bookkeeping (`session_meta`, `turn_context`, `reasoning`, token
  counts…) or, if this reader does not know them, counted by kind (`Skipped.unknown`).
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
    first_field,
    kind_label,
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
# What a rollout holds besides the lines read below, none of it a word of the conversation
# (rollouts of Codex CLI 0.60 to 0.154): not counted. Any other kind is counted by name (Skipped.unknown).
_BOOKKEEPING = frozenset({"session_meta", "turn_context"})
_ITEM_BOOKKEEPING = frozenset({"reasoning", "ghost_snapshot"})
_EVENT_BOOKKEEPING = frozenset(
    {
        "agent_message",
        "agent_reasoning",
        "agent_reasoning_raw_content",
        "agent_reasoning_section_break",
        "token_count",
        "task_started",
        "turn_aborted",
        "context_compacted",
        "thread_rolled_back",
        "undo_completed",
        "entered_review_mode",
        "exited_review_mode",
    }
)


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
        return Skipped(None, None if ptype in _EVENT_BOOKKEEPING else kind_label(kind, ptype))
    if kind != "response_item":
        return Skipped(None, None if kind in _BOOKKEEPING else kind_label(kind))
    if ptype == "message":
        role = payload.get("role")
        if role == "assistant":
            return _message("assistant", _text(payload.get("content"), ("output_text", "text")), ts, offset)
        if role in ("developer", "system"):
            return Skipped(guards.SYSTEM_PROMPT)
        text = _text(payload.get("content"), ("input_text", "text"))
        left, cut = guards.strip_injected(text)
        # The user's own words arrive as event_msg user_message, where what is cut out of
        # them is counted: this copy is not counted; context alone (AGENTS.md, the
        # environment) is counted here, as it has no event of its own.
        return Skipped(cut[0] if cut and not left.strip() else None)
    if ptype in _TOOL_CALLS:
        arguments = _arguments(payload)
        if isinstance(arguments, Malformed):
            return arguments
        tool = guards.tool_summary(str(payload.get("name") or ptype), arguments)
        return _message("assistant", guards.tool_line(tool), ts, offset, (tool,))
    if ptype in _TOOL_OUTPUTS:
        return Skipped(guards.TOOL_RESULT)
    return Skipped(None, None if ptype in _ITEM_BOOKKEEPING else kind_label(kind, ptype))


def cursor_key(rel: str) -> str:
    """`codex-session:<uuid>` from the rollout's file name, so an archived file keeps its cursor."""
    match = _SESSION_ID.search(rel)
    return f"codex-session:{match.group(1).lower()}" if match else rel


def _source_skips(source: object) -> bool:
    text = json.dumps(source).lower() if not isinstance(source, str) else source.lower()
    return any(word in text for word in ("subagent", "sub_agent", "internal", "memory"))


def _session_meta(path: Path) -> RawJson | None:
    """The payload of the rollout's first line if it is a complete `session_meta`, else None."""
    with open_transcript(path) as fh:
        first = fh.readline(FIRST_LINE_LIMIT)
    obj = load_object(first.rstrip(b"\n")) if first.endswith(b"\n") else None
    if not isinstance(obj, dict) or obj.get("type") != "session_meta":
        return None
    payload = obj.get("payload")
    return payload if isinstance(payload, dict) else None


def skip_file(path: Path, subagents: bool) -> str | None:
    """SUBAGENT if the rollout's `session_meta` marks a subagent or an internal job, else None."""
    payload = _session_meta(path)
    if payload is None:
        return None
    source = payload.get("source")
    if payload.get("thread_source") == "subagent" and source is None:
        source = {"subagent": True}
    if source is None or (subagents and "internal" not in json.dumps(source).lower()):
        return None
    return guards.SUBAGENT if _source_skips(source) else None


def session_cwd(path: Path) -> str | None:
    """The folder the session ran in: `session_meta`'s `cwd`, else the first `turn_context`'s.

    Newer rollouts may leave `cwd` out of `session_meta`; every turn's `turn_context`
    carries it. Looked for within the first FIRST_LINE_LIMIT bytes; None if not there
    (yet: a rollout just started has no complete turn_context line).
    """
    meta = _session_meta(path)
    if meta is not None and isinstance(meta.get("cwd"), str) and meta["cwd"]:
        return str(meta["cwd"])

    def turn_cwd(obj: RawJson) -> object:
        payload = obj.get("payload") if obj.get("type") == "turn_context" else None
        return payload.get("cwd") if isinstance(payload, dict) else None

    with open_transcript(path) as fh:
        return first_field(fh, FIRST_LINE_LIMIT, turn_cwd)
