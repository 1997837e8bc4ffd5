"""One transcript line → a message (docs/explanation/transcripts.md): the JSON Lines format, nothing about files.

A line is `{"role": "user"|"assistant"|"tool"|"system", "content": ..., "ts": ...}`, or
`{"type": "session_end"}` when a session closes. Content may be a string, a list of text
parts or an object; `content: null` is an assistant turn that only called tools.

`parse_line` is total: whatever the bytes, it returns a message, `SESSION_END` or a
`Malformed` naming why, and never raises. A line is malformed unless it can be fully
normalised into text every later stage can handle:
- it is UTF-8 (a leading byte-order mark is ignored) and JSON;
- it nests at most MAX_DEPTH arrays/objects — checked before parsing, so no input reaches
  the recursion limit of the parser or of the re-serialising of object content;
- its text and `ts` hold no lone surrogate (`"\\ud83d"`, what JavaScript writes for a
  cut emoji): such text cannot be encoded to send to the model or to write a file.

Control characters other than tab, newline and carriage return are stripped from the text
rather than refusing the line: they come from tool output (terminal colours, a stray NUL
or BEL) around text that is otherwise fine, they mean nothing to the model, and kept they
would make stored quotes binary to git or rewrite a person's terminal. ANSI escape
sequences (`ESC [ ... m`) are stripped whole, so no `[31m` is left behind.

Every text that leaves this module is valid, encodable UTF-8 without control characters.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from daemon.kernel.json_contract import RawJson

ROLES = ("user", "assistant", "tool", "system")
SESSION_END = "session_end"
MAX_DEPTH = 32
KIND_CHARS = 60

_OPENERS = (b"[", b"{")
# A JSON string, unrolled so a megabyte of text is one fast scan: quotes, then runs of
# ordinary bytes separated by escapes.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ANSI = re.compile("\x1b\\[[0-?]*[ -/]*[@-~]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Either of the above: one scan finds the (rare) text that needs a closer look.
_UNUSUAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


@dataclass(frozen=True)
class Message:
    """One normalised message, whatever the runtime that wrote it.

    `tools` is a short summary of the tools an assistant message called; `source` the
    runtime's own id for the line (a Claude Code `uuid`), for citations; `part_of` the id
    of the API message a line is one part of (Claude Code splits one over several lines,
    the scan joins them); `guarded` the precision guards that cut something out of it.
    """

    role: str
    content: str
    ts: str | None
    offset: int
    tools: tuple[str, ...] = ()
    source: str | None = None
    part_of: str | None = None
    guarded: tuple[str, ...] = ()


@dataclass(frozen=True)
class Skipped:
    """A well-formed line that is not analysed: `rule` names the precision guard that
    skipped it (counted in the run report); None for the runtime's own bookkeeping lines
    (snapshots, progress, turn context), which are not worth a count.

    `unknown` names the line's kind when the adapter does not know it (`last-prompt`,
    `system:turn_duration`, `attachment:deferred_tools_delta`): counted by kind and shown
    in `transcripts` and `status`, so a runtime that starts writing a new kind of line is
    seen, not silently skipped."""

    rule: str | None
    unknown: str | None = None


@dataclass(frozen=True)
class Malformed:
    """A line that is not a message of the format, and why (shown after its file and offset)."""

    reason: str


def too_deep(raw: bytes) -> bool:
    """Whether arrays and objects nest more than MAX_DEPTH deep in the JSON text `raw`.

    Brackets inside strings do not count; a line with few brackets is not scanned at all.
    """
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for match in _BRACKET.finditer(_JSON_STRING.sub(b'""', raw)):
        depth += 1 if match.group() in _OPENERS else -1
        if depth > MAX_DEPTH:
            return True
    return False


def clean_text(text: str) -> str | None:
    """`text` without ANSI escape sequences and control characters other than \\t, \\n and \\r.

    None if it holds a lone surrogate: no cleaning makes that encodable as UTF-8.
    """
    if not _UNUSUAL.search(text):
        return text
    if _SURROGATE.search(text):
        return None
    return _CONTROL.sub("", _ANSI.sub("", text))


def kind_label(*parts: object) -> str:
    """`system:turn_duration` — a line's kind as its own fields name it, for a count.

    Parts that are not short text (missing, a number, an object) are left out; the label is
    cleaned of control characters and cut to KIND_CHARS, so no line can flood a report.
    """
    words = [clean_text(p) or "?" for p in parts if isinstance(p, str) and p]
    label = ":".join(" ".join(w.split()) for w in words) or "?"
    return label if len(label) <= KIND_CHARS else label[: KIND_CHARS - 1] + "…"


def _text_of(content: object) -> str | None:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for item in content:
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                parts.append(item["text"])
            else:
                parts.append(json.dumps(item, ensure_ascii=False, sort_keys=True))
        return "\n".join(parts)
    if isinstance(content, dict):
        return json.dumps(content, ensure_ascii=False, sort_keys=True)
    return None


Parsed = Message | str | Skipped | Malformed


def load_object(raw: bytes) -> RawJson | Malformed:
    """The JSON object on the line `raw`, or Malformed: not UTF-8, too deep, not JSON, not an object."""
    try:
        decoded = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        return Malformed(f"not valid UTF-8 (byte {exc.start} of the line)")
    if too_deep(raw):
        return Malformed(f"nested deeper than {MAX_DEPTH} arrays or objects")
    try:
        obj = json.loads(decoded)
    except (ValueError, RecursionError):
        return Malformed("not JSON")
    if not isinstance(obj, dict):
        return Malformed("not a JSON object")
    return obj


def load_nested(text: str, what: str) -> object:
    """The JSON value encoded in the string `text` (tool arguments inside a line or row).

    `text` itself if it is not JSON (a plain-text argument); Malformed, naming `what`, if
    it nests deeper than MAX_DEPTH — a line's own depth check cannot see inside a string.
    """
    if too_deep(text.encode("utf-8", "surrogatepass")):
        return Malformed(f"{what} nested deeper than {MAX_DEPTH} arrays or objects")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def first_field(fh: BinaryIO, budget: int, pick: Callable[[RawJson], object]) -> str | None:
    """The first non-empty text `pick` finds in the complete lines of `fh`, read one line at a
    time from where it is, at most `budget` bytes in all; None if none holds one."""
    while budget > 0:
        line = fh.readline(budget)
        budget -= len(line)
        if not line.endswith(b"\n"):
            return None  # the end of the file, a line still being written, or the budget spent
        obj = load_object(line.rstrip(b"\n"))
        value = pick(obj) if isinstance(obj, dict) else None
        if isinstance(value, str) and value:
            return value
    return None


def parse_line(raw: bytes, offset: int = -1) -> Message | str | Malformed:
    """A message (at the line's byte `offset`), SESSION_END, or Malformed with the reason."""
    obj = load_object(raw)
    if isinstance(obj, Malformed):
        return obj
    if obj.get("type") == SESSION_END:
        return SESSION_END
    role = obj.get("role")
    if role not in ROLES:
        return Malformed(f"no role of {', '.join(ROLES)}")
    # `content: null` is legitimate (an assistant turn that only called tools); a missing key is not.
    if "content" not in obj:
        return Malformed("no content")
    text = _text_of(obj["content"])
    if text is None:
        return Malformed("content is neither text, a list nor an object")
    ts = obj.get("ts")
    content = clean_text(text)
    stamp = clean_text(ts) if isinstance(ts, str) else ""
    if content is None or stamp is None:
        return Malformed("a lone surrogate escape in its text (a cut emoji?): not encodable as UTF-8")
    return Message(role=role, content=content, ts=stamp or None, offset=offset)
