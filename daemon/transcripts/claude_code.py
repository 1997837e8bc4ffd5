"""Claude Code session lines → messages (`transcripts.format: claude-code`).

`~/.claude/projects/<project>/<session>.jsonl`, append-only, one JSON object per line with
`type`, `uuid`, `parentUuid`, `sessionId`, `timestamp`, `isSidechain` and, for `user` and
`assistant` lines, `message` {role, content} where content is a string or blocks (`text`,
`tool_use`, `tool_result`, `thinking`, `image`). Rules (docs/reference/transcript-formats.md,
checked against the shapes of Claude Code 2.1.11 to 2.1.132):

- a user turn starts at a `user` line that is not a sidechain, meta or compaction summary,
  holds no `tool_result` (tool output is written as a `user` line), was not sent by
  something else than the person (`origin.kind` other than `human`: a background task's
  `task-notification` from 2.1.90, another session's message), and is not a background
  task's `<task-notification>`, a command wrapper, a local command's output ("Unknown
  skill: x") or an interruption notice; each of those is skipped by its named guard;
- a prompt typed while the agent was busy is written as an `attachment` line of type
  `queued_command` (`commandMode: prompt`), never as a `user` line: it is read as a user
  message under the same guards;
- the IDE's context blocks (`<ide_opened_file>`, `<ide_selection>`, any `<ide_…>`) are
  cut out of the person's words, each content block on its own;
- assistant text blocks are kept, `tool_use` blocks become a one-line tool summary,
  `thinking` is dropped; the parts of one API message written over several lines (same
  `message.id`) are joined into one message;
- `summary` and `system` `compact_boundary` lines are compaction; `file-history-snapshot`,
  `queue-operation`, `progress`, `custom-title` and `system` `local_command` lines are
  the runtime's bookkeeping, and so are the `attachment` lines of hooks (`hook_success`,
  `hook_additional_context` …) and loaded memory files; any other type (`last-prompt`, `permission-mode`,
  `ai-title`, other `system` subtypes and `attachment` types) is counted by kind
  (`Skipped.unknown`); a line without a `type` string is malformed;
- a subagent's own file (`agent-*.jsonl`, `<session>/subagents/`) has every line marked
  `isSidechain`: read with `transcripts.subagents: true` (`parser`), skipped whole otherwise.
There is no session-end line: the idle rule closes the last turn.
"""

from __future__ import annotations

from pathlib import Path

from daemon.kernel.json_contract import RawJson
from daemon.transcripts import guards
from daemon.transcripts.files import open_transcript
from daemon.transcripts.lines import Malformed, Parsed, Skipped, first_field, kind_label, load_object
from daemon.transcripts.window import LineParser

EXPECTED = 'Claude Code session lines, {"type": "user"|"assistant"|..., "message": {...}, "uuid": ...}'
# Line types that hold no words of a conversation: not counted. Any type not read, guarded
# or listed here is counted by kind, so a new kind of line shows in `transcripts` and `status`.
BOOKKEEPING = frozenset({"file-history-snapshot", "queue-operation", "progress", "custom-title"})
SYSTEM_BOOKKEEPING = frozenset({"local_command"})
# Attachments that record what the runtime added around a prompt, never the person's words:
# what a hook ran and gave (`metaeng-daemon hook` among them), the memory files it loaded.
ATTACHMENT_BOOKKEEPING = frozenset(
    {"hook_additional_context", "hook_success", "hook_non_blocking_error", "hook_blocking_error", "instructions", "nested_memory"}
)
HUMAN = "human"
CWD_LOOKUP_BYTES = 1024 * 1024


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


def _text(blocks: list[RawJson]) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The visible text of `blocks`, the summaries of the tools they call, and the IDE blocks cut."""
    parts: list[str] = []
    tools: list[str] = []
    cut: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            text, ide = guards.strip_ide(block["text"])
            cut.extend([guards.IDE_CONTEXT] * ide)
            if not ide or text.strip():
                parts.append(text.strip() if ide else text)
        elif kind == "tool_use":
            name = block.get("name")
            tool = guards.tool_summary(name if isinstance(name, str) and name else "tool", block.get("input"))
            tools.append(tool)
            parts.append(guards.tool_line(tool))
        elif kind == "image":
            parts.append("[image]")
    return "\n".join(parts), tuple(tools), tuple(cut)


def _origin_rule(*holders: object) -> str | None:
    """The guard for a message something other than the person sent (`origin.kind`), or None."""
    for holder in holders:
        origin = holder.get("origin") if isinstance(holder, dict) else None
        kind = origin.get("kind") if isinstance(origin, dict) else None
        if kind == "task-notification":
            return guards.TASK_NOTIFICATION
        if isinstance(kind, str) and kind != HUMAN:
            return guards.NOT_TYPED
    return None


def _typed_rule(text: str) -> str | None:
    """The guard for user text the person did not type, or None."""
    if guards.is_task_notification(text):
        return guards.TASK_NOTIFICATION
    if guards.is_command_wrapper(text):
        return guards.COMMAND
    if guards.is_command_output(text):
        return guards.COMMAND_OUTPUT
    if text.lstrip().startswith(guards.INTERRUPTION):
        return guards.INTERRUPTED
    return None


def _source(obj: RawJson) -> str | None:
    uuid = obj.get("uuid")
    return uuid if isinstance(uuid, str) else None


def _queued(obj: RawJson, offset: int, sidechain: bool) -> Parsed:
    """An `attachment` line: a prompt typed while the agent was busy, or a kind counted by name."""
    attachment = obj.get("attachment")
    kind = attachment.get("type") if isinstance(attachment, dict) else None
    if not isinstance(attachment, dict) or kind != "queued_command":
        return Skipped(None, None if kind in ATTACHMENT_BOOKKEEPING else kind_label("attachment", kind))
    if obj.get("isSidechain") is True and not sidechain:
        return Skipped(guards.SIDECHAIN)
    mode = attachment.get("commandMode")
    if mode == "task-notification":
        return Skipped(guards.TASK_NOTIFICATION)
    rule = _origin_rule(attachment, obj)
    if rule is not None:
        return Skipped(rule)
    if attachment.get("isMeta") is True or obj.get("isMeta") is True:
        return Skipped(guards.META)
    if mode not in (None, "prompt"):
        return Skipped(guards.COMMAND)  # a shell command (`!`) typed while the agent worked
    blocks = _blocks(attachment.get("prompt"))
    if blocks is None:
        return Malformed("a queued_command attachment without a prompt of text or blocks")
    text, _, cut = _text(blocks)
    rule = _typed_rule(text)
    if rule is not None:
        return Skipped(rule)
    return guards.guarded_message(
        "user", text, obj.get("timestamp"), offset, source=_source(obj), cut_before=cut
    )


def _parse(raw: bytes, offset: int, sidechain: bool) -> Parsed:
    obj = load_object(raw)
    if isinstance(obj, Malformed):
        return obj
    kind = obj.get("type")
    if not isinstance(kind, str):
        return Malformed("no type (not a Claude Code session line)")
    subtype = obj.get("subtype")
    if kind == "summary" or (kind == "system" and subtype == "compact_boundary"):
        return Skipped(guards.COMPACTION)
    if kind == "system":
        return Skipped(None, None if subtype in SYSTEM_BOOKKEEPING else kind_label("system", subtype))
    if kind == "attachment":
        return _queued(obj, offset, sidechain)
    if kind not in ("user", "assistant"):
        return Skipped(None, None if kind in BOOKKEEPING else kind_label(kind))
    message = obj.get("message")
    if not isinstance(message, dict):
        return Malformed(f"a {kind} line without a message object")
    blocks = _blocks(message.get("content"))
    if blocks is None:
        return Malformed("message content is neither text nor a list of blocks")
    if obj.get("isSidechain") is True and not sidechain:
        return Skipped(guards.SIDECHAIN)
    if kind == "user":
        if obj.get("isCompactSummary") is True:
            return Skipped(guards.COMPACTION)
        if obj.get("isMeta") is True:
            return Skipped(guards.META)
        if "toolUseResult" in obj or any(b.get("type") == "tool_result" for b in blocks):
            return Skipped(guards.TOOL_RESULT)
        rule = _origin_rule(obj)
        if rule is not None:
            return Skipped(rule)
    text, tools, cut = _text(blocks)
    if kind == "user":
        rule = _typed_rule(text)
        if rule is not None:
            return Skipped(rule)
    part_of = message.get("id") if kind == "assistant" else None
    return guards.guarded_message(
        kind,
        text,
        obj.get("timestamp"),
        offset,
        tools,
        source=_source(obj),
        part_of=part_of if isinstance(part_of, str) else None,
        cut_before=cut,
    )


def parse(raw: bytes, offset: int) -> Parsed:
    """One line of a session file: a message, a Skipped (guard, bookkeeping or unknown kind), or Malformed."""
    return _parse(raw, offset, sidechain=False)


def parse_subagent(raw: bytes, offset: int) -> Parsed:
    """One line of a subagent's own file, where every line is a sidechain line: read as `parse` reads a session's."""
    return _parse(raw, offset, sidechain=True)


def is_subagent_file(rel: str) -> bool:
    return rel.rsplit("/", 1)[-1].startswith("agent-") or "/subagents/" in f"/{rel}"


def parser(rel: str, subagents: bool) -> LineParser:
    """How the lines of the file `rel` are read: a subagent's own file is read as one when asked for."""
    return parse_subagent if subagents and is_subagent_file(rel) else parse


def skip_file(rel: str, subagents: bool) -> str | None:
    """The guard that skips the whole file `rel`, if any: subagent transcripts unless asked for."""
    if not subagents and is_subagent_file(rel):
        return guards.SUBAGENT
    return None


def project_folder(path: Path) -> Path:
    """The folder Claude Code keeps the session file `path` in: `projects/<project>/`.

    A subagent's file lies deeper, in `<project>/<session>/subagents/`.
    """
    parent = path.parent
    if parent.name == "subagents":
        return parent.parent.parent
    return parent


def session_cwd(path: Path) -> str | None:
    """The folder the session ran in: the first `cwd` its lines record (within CWD_LOOKUP_BYTES)."""
    with open_transcript(path) as fh:
        return first_field(fh, CWD_LOOKUP_BYTES, lambda obj: obj.get("cwd"))
