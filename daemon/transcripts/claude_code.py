"""Claude Code session lines → messages (`transcripts.format: claude-code`).

`~/.claude/projects/<project>/<session>.jsonl`, append-only, one JSON object per line with
`type`, `uuid`, `parentUuid`, `sessionId`, `timestamp`, `isSidechain` and, for `user` and
`assistant` lines, `message` {role, content} where content is a string or blocks (`text`,
`tool_use`, `tool_result`, `thinking`, `image`). Rules (docs/reference/transcript-formats.md):

- a user turn starts at a `user` line that is not a sidechain, meta or compaction summary,
  holds no `tool_result` (tool output is written as a `user` line), and is not a command
  wrapper or an interruption notice; each of those is skipped by its named guard;
- assistant text blocks are kept, `tool_use` blocks become a one-line tool summary,
  `thinking` is dropped; the parts of one API message written over several lines (same
  `message.id`) are joined into one message;
- `summary`, `system`, `file-history-snapshot`, `queue-operation`, `progress` and other
  lines are the runtime's bookkeeping; a line without a `type` string is malformed.
There is no session-end line: the idle rule closes the last turn.
"""

from __future__ import annotations

from daemon.kernel.json_contract import RawJson
from daemon.transcripts import guards
from daemon.transcripts.lines import Malformed, Parsed, Skipped, load_object

EXPECTED = 'Claude Code session lines, {"type": "user"|"assistant"|..., "message": {...}, "uuid": ...}'


def _blocks(content: object) -> list[RawJson] | None:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        # A bare string is text; a number, null or list is no block at all (never its repr).
        return [
            b if isinstance(b, dict) else {"type": "text", "text": b}
            for b in content
            if isinstance(b, dict | str)
        ]
    return None


def _text(blocks: list[RawJson]) -> tuple[str, tuple[str, ...]]:
    """The visible text of `blocks` and the summaries of the tools they call."""
    parts: list[str] = []
    tools: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif kind == "tool_use":
            name = block.get("name")
            tool = guards.tool_summary(name if isinstance(name, str) and name else "tool", block.get("input"))
            tools.append(tool)
            parts.append(f"[tool: {tool}]")
        elif kind == "image":
            parts.append("[image]")
    return "\n".join(parts), tuple(tools)


def parse(raw: bytes, offset: int) -> Parsed:
    """One Claude Code line: a message, a Skipped (guard or bookkeeping), or Malformed."""
    obj = load_object(raw)
    if isinstance(obj, Malformed):
        return obj
    kind = obj.get("type")
    if not isinstance(kind, str):
        return Malformed("no type (not a Claude Code session line)")
    if kind == "summary" or (kind == "system" and obj.get("subtype") == "compact_boundary"):
        return Skipped(guards.COMPACTION)
    if kind not in ("user", "assistant"):
        return Skipped(None)
    message = obj.get("message")
    if not isinstance(message, dict):
        return Malformed(f"a {kind} line without a message object")
    blocks = _blocks(message.get("content"))
    if blocks is None:
        return Malformed("message content is neither text nor a list of blocks")
    if obj.get("isSidechain") is True:
        return Skipped(guards.SIDECHAIN)
    if kind == "user":
        if obj.get("isCompactSummary") is True:
            return Skipped(guards.COMPACTION)
        if obj.get("isMeta") is True:
            return Skipped(guards.META)
        if "toolUseResult" in obj or any(b.get("type") == "tool_result" for b in blocks):
            return Skipped(guards.TOOL_RESULT)
    text, tools = _text(blocks)
    if kind == "user":
        if guards.is_command_wrapper(text):
            return Skipped(guards.COMMAND)
        if text.lstrip().startswith(guards.INTERRUPTION):
            return Skipped(guards.INTERRUPTED)
    uuid = obj.get("uuid")
    part_of = message.get("id") if kind == "assistant" else None
    return guards.guarded_message(
        kind,
        text,
        obj.get("timestamp"),
        offset,
        tools,
        source=uuid if isinstance(uuid, str) else None,
        part_of=part_of if isinstance(part_of, str) else None,
    )


def skip_file(rel: str, subagents: bool) -> str | None:
    """The guard that skips the whole file `rel`, if any: subagent transcripts unless asked for."""
    name = rel.rsplit("/", 1)[-1]
    if not subagents and (name.startswith("agent-") or "/subagents/" in f"/{rel}"):
        return guards.SUBAGENT
    return None
