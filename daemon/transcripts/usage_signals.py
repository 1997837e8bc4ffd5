"""What one transcript line or row says the agent used: pure, no files (docs/explanation/skills.md#usage-signals).

Three kinds of signal, each read from the shapes the runtimes really write:

- `skill_opened` — the agent opened a skill: Claude Code's `Skill` tool (`input.skill`),
  a skill started by its slash command (the `isMeta` line "Base directory for this skill:
  <dir>" without a `sourceToolUseID`), Codex's injected `<skill><name>…` message, Hermes'
  `skill_view` tool, or any runtime's file-read tool or shell reader (`cat`, `sed -n`,
  `head` …) opening a `…/<name>/SKILL.md`;
- `facts_view_read` — the agent read the facts view (`memory.markdown_view`): a file-read
  tool or shell reader on it, or Claude Code loading it as an instruction file
  (`instructions` and `nested_memory` attachment lines);
- `hook_context` — the daemon's hook gave the agent context: text that starts with the
  hook's mark (`[metaeng-daemon]`, `daemon.doors.hook.MARK`) in a Claude Code
  `hook_additional_context` attachment, a Codex `developer` message, an OpenClaw user or
  custom event, or a Hermes user row's `api_content`.

A signal names the skill by what the agent used: the `Skill` tool's argument, or the
folder holding the `SKILL.md` it opened. Names are checked like any input (one line,
at most NAME_CHARS of letters, digits and `.:@+-_`); anything else is no signal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from daemon.kernel.json_contract import RawJson
from daemon.transcripts.lines import Malformed, load_nested
from daemon.transcripts.shell_reads import read_paths

UsageKind = Literal["skill_opened", "facts_view_read", "hook_context"]
SKILL_OPENED: UsageKind = "skill_opened"
FACTS_VIEW_READ: UsageKind = "facts_view_read"
HOOK_CONTEXT: UsageKind = "hook_context"

# The first words of every context the daemon's hook gives (daemon.doors.hook.MARK; a test
# keeps the two equal): how a transcript shows a delivery.
MARK = "[metaeng-daemon]"
SKILL_FILE = "SKILL.md"
SKILL_BASE = "Base directory for this skill:"
NAME_CHARS = 128
_NAME = re.compile(rf"[\w.:@+-]{{1,{NAME_CHARS}}}")
# Codex injects a skill the person named (`$name`) as a user message of this shape.
_CODEX_SKILL = re.compile(r"\s*<skill>\s*<name>([^<\n]+)</name>")
_HOOK_TAG = "<hook_context>"
_LEGACY_HOOK = "hook additional context:"

# Tools that read one file (by lower-cased name), the argument keys that name it, and tools
# that run a shell command (which files it reads: daemon/transcripts/shell_reads.py).
READ_TOOLS = frozenset({"read", "read_file", "readfile", "view", "view_file", "open_file"})
PATH_KEYS = ("file_path", "path", "filePath", "filename", "file")
SHELL_TOOLS = frozenset(
    {"bash", "shell", "exec_command", "exec", "terminal", "shell_command", "local_shell", "run_shell_command"}
)
COMMAND_KEYS = ("command", "cmd", "script")


@dataclass(frozen=True)
class Signal:
    """One use a line shows: its kind, the skill (skill_opened only), when (UTC ISO 8601)."""

    kind: UsageKind
    skill: str | None = None
    ts: str | None = None


@dataclass(frozen=True)
class ViewPath:
    """The facts view, home-relative (`memory.markdown_view`): which paths a read names it by.

    A path names it when it is the relative path itself or ends with `/<it>` (the home's
    absolute path, `~/…`, a project-relative `./…`): the file name is the daemon's own.
    """

    rel: str

    @property
    def name(self) -> str:
        return self.rel.rsplit("/", 1)[-1]

    def matches(self, path: str) -> bool:
        given = _path(path).removeprefix("./")
        return given == self.rel or given.endswith("/" + self.rel)


def utc_stamp(value: object) -> str | None:
    """`value` (ISO 8601 text, or seconds or milliseconds since the epoch) as UTC ISO 8601 to
    the second; None if it is no time (naive text is taken as UTC)."""
    try:
        if isinstance(value, str) and value:
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
            when = when if when.tzinfo else when.replace(tzinfo=UTC)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            when = datetime.fromtimestamp(value / 1000 if abs(value) >= 1e11 else value, UTC)
        else:
            return None
        return when.astimezone(UTC).isoformat(timespec="seconds")
    except (ValueError, OverflowError, OSError):
        return None


def skill_name(text: object) -> str | None:
    """`text` as a skill name (a leading `/` of a slash command dropped), or None if it is none."""
    if not isinstance(text, str):
        return None
    name = text.strip().lstrip("/")
    return name if _NAME.fullmatch(name) else None


def _path(text: str) -> str:
    return text.strip().strip("'\"`").replace("\\", "/")


def skill_of_path(path: object) -> str | None:
    """The skill whose `SKILL.md` `path` is (its folder's name), or None."""
    if not isinstance(path, str):
        return None
    parts = _path(path).rstrip("/").split("/")
    if len(parts) < 2 or parts[-1] != SKILL_FILE:
        return None
    return skill_name(parts[-2])


def marked(text: object) -> bool:
    """Whether `text` is context the daemon's hook gave (it starts with MARK, maybe in a `<hook_context>` tag)."""
    return isinstance(text, str) and text.lstrip().removeprefix(_HOOK_TAG).lstrip().startswith(MARK)


def _arguments(raw: object) -> object:
    """A tool call's arguments, decoded when they are JSON text (None if nested too deep)."""
    value = load_nested(raw, "tool call arguments") if isinstance(raw, str) else raw
    return None if isinstance(value, Malformed) else value


def _opened(paths: list[str], view: ViewPath | None, ts: str | None) -> list[Signal]:
    signals: list[Signal] = []
    for path in paths:
        skill = skill_of_path(path)
        if skill is not None:
            signals.append(Signal(SKILL_OPENED, skill, ts))
        elif view is not None and view.matches(path):
            signals.append(Signal(FACTS_VIEW_READ, None, ts))
    return signals


def tool_call(name: object, raw_arguments: object, view: ViewPath | None, ts: str | None) -> list[Signal]:
    """The uses one tool call shows, whatever the runtime: a skill tool, a file read, a shell reader.

    One call that opens the same file twice is one use.
    """
    if not isinstance(name, str):
        return []
    tool = name.lower()
    arguments = _arguments(raw_arguments)
    args: RawJson = arguments if isinstance(arguments, dict) else {}
    signals: list[Signal] = []
    if tool == "skill":  # Claude Code
        skill = skill_name(args.get("skill", args.get("command")))
        signals = [Signal(SKILL_OPENED, skill, ts)] if skill else []
    elif tool == "skill_view":  # Hermes: the skill's SKILL.md, or one of its other files
        linked = args.get("file_path")
        skill = skill_name(args.get("name"))
        if skill and (not linked or (isinstance(linked, str) and _path(linked).endswith(SKILL_FILE))):
            signals = [Signal(SKILL_OPENED, skill, ts)]
    elif tool in READ_TOOLS:
        path = next((args[k] for k in PATH_KEYS if isinstance(args.get(k), str)), None)
        if path is None and isinstance(arguments, str):
            path = arguments
        signals = _opened([path] if path else [], view, ts)
    elif tool in SHELL_TOOLS:
        command = next((args[k] for k in COMMAND_KEYS if args.get(k)), None)
        if command is None and isinstance(arguments, str | list):
            command = arguments
        signals = _opened(read_paths(command), view, ts)
    return list(dict.fromkeys(signals))


def _blocks(content: object) -> Iterator[RawJson]:
    if isinstance(content, str):
        yield {"type": "text", "text": content}
    elif isinstance(content, list):
        for block in content:
            if isinstance(block, dict):
                yield block
            elif isinstance(block, str):
                yield {"type": "text", "text": block}


def _texts(content: object, kinds: tuple[str, ...] = ("text",)) -> list[str]:
    return [b["text"] for b in _blocks(content) if b.get("type") in kinds and isinstance(b.get("text"), str)]


def _legacy_hook(text: str) -> bool:
    """A hook's context as older Claude Code wrote it: a system reminder "<Event> hook additional context: …"."""
    _before, found, after = text.partition(_LEGACY_HOOK)
    return bool(found) and after.lstrip().startswith(MARK)


def claude_code(obj: RawJson, view: ViewPath | None) -> list[Signal]:
    """Uses in one Claude Code session line (`assistant` tool calls, `user` meta lines, `attachment` lines)."""
    kind, ts = obj.get("type"), utc_stamp(obj.get("timestamp"))
    held = obj.get("message")
    message: RawJson = held if isinstance(held, dict) else {}
    signals: list[Signal] = []
    if kind == "assistant":
        for block in _blocks(message.get("content")):
            if block.get("type") == "tool_use":
                signals += tool_call(block.get("name"), block.get("input"), view, ts)
    elif kind == "user" and obj.get("isMeta") is True:
        text = "\n".join(_texts(message.get("content"))).lstrip()
        if text.startswith(SKILL_BASE) and not obj.get("sourceToolUseID"):
            # A skill started by its slash command; one the Skill tool started is counted by its call.
            folder = _path(text[len(SKILL_BASE) :].split("\n", 1)[0]).rstrip("/")
            skill = skill_name(folder.rsplit("/", 1)[-1])
            signals = [Signal(SKILL_OPENED, skill, ts)] if skill else []
        elif _legacy_hook(text):
            signals = [Signal(HOOK_CONTEXT, None, ts)]
    elif kind == "attachment" and isinstance(obj.get("attachment"), dict):
        signals = _attachment(obj["attachment"], view, ts)
    return signals


def _attachment(attachment: RawJson, view: ViewPath | None, ts: str | None) -> list[Signal]:
    kind = attachment.get("type")
    if kind == "hook_additional_context":
        content = attachment.get("content")
        items = content if isinstance(content, list) else [content]
        return [Signal(HOOK_CONTEXT, None, ts)] if any(marked(item) for item in items) else []
    if view is None:
        return []
    paths: list[object] = []
    if kind == "nested_memory":
        inner = attachment.get("content")
        paths = [attachment.get("path"), inner.get("path") if isinstance(inner, dict) else None]
    elif kind == "instructions":
        files = attachment.get("files")
        paths = [f.get("path") for f in files if isinstance(f, dict)] if isinstance(files, list) else []
    if any(isinstance(p, str) and view.matches(p) for p in paths):
        return [Signal(FACTS_VIEW_READ, None, ts)]
    return []


def codex(obj: RawJson, view: ViewPath | None) -> list[Signal]:
    """Uses in one Codex rollout line (`response_item` calls and messages)."""
    payload = obj.get("payload")
    if obj.get("type") != "response_item" or not isinstance(payload, dict):
        return []
    ts, kind = utc_stamp(obj.get("timestamp")), payload.get("type")
    if kind in ("function_call", "custom_tool_call"):
        return tool_call(payload.get("name"), payload.get("arguments", payload.get("input")), view, ts)
    if kind == "local_shell_call":
        action = payload.get("action")
        command = action.get("command") if isinstance(action, dict) else None
        return tool_call("shell", {"command": command}, view, ts)
    if kind != "message":
        return []
    texts = _texts(payload.get("content"), ("input_text", "text"))
    if payload.get("role") in ("developer", "user") and any(marked(t) for t in texts):
        return [Signal(HOOK_CONTEXT, None, ts)]
    if payload.get("role") == "user":
        names = (skill_name(m.group(1)) for t in texts if (m := _CODEX_SKILL.match(t)))
        return [Signal(SKILL_OPENED, n, ts) for n in dict.fromkeys(names) if n]
    return []


def openclaw(obj: RawJson, view: ViewPath | None) -> list[Signal]:
    """Uses in one OpenClaw event (a session line or a `transcript_events` row)."""
    ts, kind = utc_stamp(obj.get("timestamp")), obj.get("type")
    message = obj.get("message")
    if kind == "message" and isinstance(message, dict):
        role = message.get("role")
        if role == "assistant":
            return [
                s
                for b in _blocks(message.get("content"))
                if b.get("type") in ("toolCall", "tool_use", "toolUse")
                for s in tool_call(b.get("name"), b.get("arguments", b.get("input")), view, ts)
            ]
        if role in ("user", "custom") and any(marked(t) for t in _texts(message.get("content"))):
            return [Signal(HOOK_CONTEXT, None, ts)]
    if kind == "custom" and any(marked(t) for t in _strings(obj.get("data"))):
        return [Signal(HOOK_CONTEXT, None, ts)]
    return []


def _strings(value: object, depth: int = 0) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif depth < 8 and isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif depth < 8 and isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def _chat_calls(calls: object, view: ViewPath | None, ts: str | None) -> list[Signal]:
    """Uses in OpenAI-style `tool_calls` ([{function: {name, arguments}}]), as JSON text or a list."""
    parsed = _arguments(calls)
    signals: list[Signal] = []
    for call in parsed if isinstance(parsed, list) else []:
        function = call.get("function", call) if isinstance(call, dict) else None
        if isinstance(function, dict):
            signals += tool_call(function.get("name"), function.get("arguments"), view, ts)
    return signals


def hermes(row: RawJson, view: ViewPath | None) -> list[Signal]:
    """Uses in one Hermes `messages` row: an assistant row's `tool_calls`, a user row's `api_content`.

    The hook's context is appended to what Hermes sends (`api_content`), never to the
    person's words (`content`): marked there and not in `content`, it was delivered.
    """
    ts, role = utc_stamp(row.get("timestamp")), row.get("role")
    if role == "assistant":
        return _chat_calls(row.get("tool_calls"), view, ts)
    sent, said = row.get("api_content"), row.get("content")
    if (
        role == "user"
        and isinstance(sent, str)
        and MARK in sent
        and not (isinstance(said, str) and MARK in said)
    ):
        return [Signal(HOOK_CONTEXT, None, ts)]
    return []


def chat(obj: RawJson, view: ViewPath | None) -> list[Signal]:
    """Uses in one line of the daemon's own `jsonl` format: OpenAI-style `tool_calls` of an assistant line."""
    if obj.get("role") != "assistant":
        return []
    return _chat_calls(obj.get("tool_calls"), view, utc_stamp(obj.get("ts")))


Detector = Callable[[RawJson, ViewPath | None], list[Signal]]
# Per `transcripts.format`, how a line (or an OpenClaw row's event) is read for uses;
# Hermes rows are read by `hermes`.
DETECTORS: dict[str, Detector] = {
    "claude-code": claude_code,
    "codex": codex,
    "openclaw": openclaw,
    "jsonl": chat,
}
