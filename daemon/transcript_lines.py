"""One transcript line → a message (SPEC §3.2): the JSON Lines format, nothing about files.

A line is `{"role": "user"|"assistant"|"tool"|"system", "content": ..., "ts": ...}`, or
`{"type": "session_end"}` when a session closes. Content may be a string, a list of text
parts or an object; `content: null` is an assistant turn that only called tools.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

ROLES = ("user", "assistant", "tool", "system")


@dataclass(frozen=True)
class Message:
    role: str
    content: str
    ts: str | None
    offset: int


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


def parse_line(raw: bytes) -> Message | str | None:
    """A message, the string "session_end", or None if the line is malformed."""
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(obj, dict):
        return None
    if obj.get("type") == "session_end":
        return "session_end"
    role = obj.get("role")
    # `content: null` is legitimate (an assistant turn that only called tools); a missing key is not.
    text = _text_of(obj["content"]) if "content" in obj else None
    if role not in ROLES or text is None:
        return None
    ts = obj.get("ts")
    return Message(role=role, content=text, ts=ts if isinstance(ts, str) else None, offset=-1)
