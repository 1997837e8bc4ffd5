"""Precision guards: never analyse what the daemon or the runtime put into a conversation.

Each guard is a named rule; the adapters count every line or block a rule skips, and the
passes report the counts ("skipped by precision guards: 12 tool results, 3 injected
memory blocks"). Distilling from these would re-learn the daemon's own facts, a system
prompt restated every session, or tool output nobody said (docs/reference/transcript-formats.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from daemon.transcripts.lines import Malformed, Message, Skipped, clean_text
from daemon.transcripts.window import Turn

TOOL_RESULT = "tool_result"
SIDECHAIN = "sidechain"
SUBAGENT = "subagent"
META = "meta"
COMPACTION = "compaction_summary"
COMMAND = "command_wrapper"
INTERRUPTED = "interrupted"
INJECTED_MEMORY = "injected_memory"
INJECTED_CONTEXT = "injected_context"
SYSTEM_PROMPT = "system_prompt"
HEARTBEAT = "heartbeat"
REINSERTED = "reinserted_row"
TASK_NOTIFICATION = "task_notification"
NOT_TYPED = "not_typed"
IDE_CONTEXT = "ide_context"
COMMAND_OUTPUT = "command_output"

# How the run report names each rule's count (plural forms).
LABELS = {
    TOOL_RESULT: "tool results",
    SIDECHAIN: "sidechain messages",
    SUBAGENT: "subagent sessions",
    META: "meta messages",
    COMPACTION: "compaction summaries",
    COMMAND: "command wrappers",
    INTERRUPTED: "interruption notices",
    INJECTED_MEMORY: "injected memory blocks",
    INJECTED_CONTEXT: "injected context blocks",
    SYSTEM_PROMPT: "system prompts",
    HEARTBEAT: "heartbeat or memory-flush turns",
    REINSERTED: "re-inserted rows",
    TASK_NOTIFICATION: "background task notifications",
    NOT_TYPED: "messages another session or the runtime sent",
    IDE_CONTEXT: "IDE context blocks",
    COMMAND_OUTPUT: "local command outputs",
}

# Recalled memory a runtime or a memory plugin pastes into a user message, and the
# daemon's own facts view quoted back (its heading down to its last fact line).
_MEMORY_BLOCKS = (
    re.compile(r"<relevant-memories>.*?(?:</relevant-memories>|\Z)", re.DOTALL),
    re.compile(r"<recalled[-_]memor(?:y|ies)>.*?(?:</recalled[-_]memor(?:y|ies)>|\Z)", re.DOTALL),
    re.compile(r"<memory-context>.*?(?:</memory-context>|\Z)", re.DOTALL),
    re.compile(
        r"^# Facts \(valid on [0-9-]+\)[^\n]*\n(?:[ \t]*\n|<!--[^\n]*-->[ \t]*\n?|- [^\n]*\n?)*", re.MULTILINE
    ),
)
# What a runtime restates on every session: instructions, environment, reminders.
_CONTEXT_BLOCKS = (
    re.compile(r"<system-reminder>.*?(?:</system-reminder>|\Z)", re.DOTALL),
    re.compile(r"<user_instructions>.*?(?:</user_instructions>|\Z)", re.DOTALL),
    re.compile(r"<environment_context>.*?(?:</environment_context>|\Z)", re.DOTALL),
    re.compile(r"# AGENTS\.md instructions for [^\n]*\n.*?(?:</INSTRUCTIONS>|\Z)", re.DOTALL),
)
# What an IDE extension puts before the person's words: Claude Code's blocks for the file
# open, the lines selected, diagnostics (`<ide_opened_file>`, `<ide_selection>`, any
# `<ide_…>`; one content block each, so one left open ends with its block: `strip_ide`),
# and Codex's "# Context from my IDE setup:" (or "# Files mentioned by the user:") headed
# sections up to "## My request for Codex:", after which the person's words start.
_IDE_TAG = re.compile(r"<(ide_[a-z_]+)>.*?(?:</\1>|\Z)", re.DOTALL)
_IDE_BLOCKS = (
    _IDE_TAG,
    re.compile(
        r"\A\s*# (?:Context from my IDE setup|Files mentioned by the user):[ \t]*\n.*?"
        r"^## My request for Codex:[ \t]*\n?",
        re.DOTALL | re.MULTILINE,
    ),
)
# A local command's answer written as a user line of its own, without a wrapper: Claude
# Code's "Unknown skill: x" when `/x` names no command or skill.
_COMMAND_OUTPUT = re.compile(r"(?:Args from )?[Uu]nknown (?:skill|slash command|command): \S+")
TASK_NOTIFICATION_PREFIX = "<task-notification>"
COMMAND_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
)
INTERRUPTION = "[Request interrupted by user"
HEARTBEAT_REPLIES = frozenset({"HEARTBEAT_OK", "NO_REPLY"})


def strip_injected(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` without injected memory and context blocks, and the rule of each block cut out."""
    rules: list[str] = []
    for rule, patterns in (
        (INJECTED_MEMORY, _MEMORY_BLOCKS),
        (INJECTED_CONTEXT, _CONTEXT_BLOCKS),
        (IDE_CONTEXT, _IDE_BLOCKS),
    ):
        for pattern in patterns:
            text, count = pattern.subn("", text)
            rules.extend([rule] * count)
    return (text.strip() if rules else text), tuple(rules)


def strip_ide(text: str) -> tuple[str, int]:
    """One content block without its `<ide_…>` blocks, and how many were cut."""
    return _IDE_TAG.subn("", text)


def is_command_wrapper(text: str) -> bool:
    return text.lstrip().startswith(COMMAND_PREFIXES)


def is_command_output(text: str) -> bool:
    """A local command's answer alone on a user line ("Unknown skill: deploy")."""
    return _COMMAND_OUTPUT.fullmatch(text.strip()) is not None


def is_task_notification(text: str) -> bool:
    """A background task's result a runtime hands the agent as a user message."""
    return text.lstrip().startswith(TASK_NOTIFICATION_PREFIX)


def is_heartbeat_reply(text: str) -> bool:
    """An assistant reply that only acknowledges a heartbeat or a silent memory flush."""
    return text.strip() in HEARTBEAT_REPLIES


# How an adapter writes a tool call into the agent's message, one line each: the impact
# readings tell the agent's tool calls from its words by it (`daemon.impact.tool_lines`).
TOOL_LINE_MARK = "[tool: "
TOOL_LINE_END = "]"


def tool_line(summary: str) -> str:
    """The line standing for one tool call in the agent's message: `[tool: Bash: ls -la]`."""
    return f"{TOOL_LINE_MARK}{summary}{TOOL_LINE_END}"


def tool_called(line: str) -> str | None:
    """The summary a tool call's line (`tool_line`) stands for ("Bash: ls -la"), or None for a
    line of the agent's words."""
    if not line.startswith(TOOL_LINE_MARK):
        return None
    return line.removeprefix(TOOL_LINE_MARK).removesuffix(TOOL_LINE_END)


def tool_summary(name: str, arguments: object, limit: int = 80) -> str:
    """`Bash: ls -la` — the tool's name and its first short string argument, one line."""
    hint = ""
    if isinstance(arguments, Mapping):
        for key in (
            "command",
            "cmd",
            "file_path",
            "path",
            "pattern",
            "query",
            "url",
            "description",
            "action",
        ):
            value = arguments.get(key)
            if isinstance(value, list):
                value = " ".join(str(v) for v in value if isinstance(v, str | int | float) and not isinstance(v, bool))
            if isinstance(value, str) and value.strip():
                hint = value
                break
    elif isinstance(arguments, str):
        hint = arguments
    line = " ".join(f"{name}: {hint}".split()) if hint else name
    return line if len(line) <= limit else line[: limit - 1] + "…"


def summary(counts: Mapping[str, int]) -> str:
    """`12 tool results, 3 injected memory blocks` (largest first), or "" if nothing was skipped."""
    items = sorted(((n, r) for r, n in counts.items() if n), key=lambda item: (-item[0], item[1]))
    return ", ".join(f"{n} {LABELS.get(rule, rule)}" for n, rule in items)


def merged(counts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for item in counts:
        for rule, n in item.items():
            total[rule] = total.get(rule, 0) + n
    return total


def guarded_message(
    role: str,
    text: str,
    ts: object,
    offset: int,
    tools: tuple[str, ...] = (),
    source: str | None = None,
    part_of: str | None = None,
    cut_before: tuple[str, ...] = (),
) -> Message | Skipped | Malformed:
    """A runtime's message once injected blocks are cut out, or why it is none.

    `cut_before` names the blocks the adapter already cut (per content block). Nothing
    left but injected text: skipped by the guard that cut it. A lone surrogate (a cut
    emoji, which JavaScript writers produce) in the text or the timestamp: malformed.
    """
    text, cut_now = strip_injected(text)
    cut = cut_before + cut_now
    if not text.strip():
        return Skipped(cut[0] if cut else None)
    content = clean_text(text)
    stamp = clean_text(ts) if isinstance(ts, str) else ""
    if content is None or stamp is None:
        return Malformed("a lone surrogate escape in its text (a cut emoji?): not encodable as UTF-8")
    return Message(
        role=role,
        content=content,
        ts=stamp or None,
        offset=offset,
        tools=tools,
        source=source,
        part_of=part_of,
        guarded=cut,
    )


def without_heartbeats(turns: list[Turn], skipped: dict[str, int]) -> list[Turn]:
    """`turns` less those a heartbeat or a silent memory flush made (HEARTBEAT_OK, NO_REPLY),
    counted under HEARTBEAT in `skipped`; every adapter, file or database, drops them alike."""
    kept = [
        t
        for t in turns
        if not any(m.role == "assistant" and is_heartbeat_reply(m.content) for m in t.messages)
    ]
    if len(kept) < len(turns):
        skipped[HEARTBEAT] = skipped.get(HEARTBEAT, 0) + len(turns) - len(kept)
    return kept
