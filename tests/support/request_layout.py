"""Read a pass's request the way the shared layout writes it (daemon/passes/turn_prompt.py):
the turns between <untrusted_transcript_data> tags, then <task>, then the task's data."""

from __future__ import annotations

import json
from typing import Any


def user_text(body: dict[str, Any]) -> str:
    """The user message of a recorded request body."""
    return str(body["messages"][1]["content"])


def turns_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The turns a request carried."""
    text = user_text(body).split("<untrusted_transcript_data>\n", 1)[1].split("\n</untrusted_transcript_data>", 1)[0]
    turns: list[dict[str, Any]] = json.loads(text)["turns"]
    return turns


def data_of(body: dict[str, Any], tag: str) -> Any:
    """The JSON a request's task carried between `<tag>` tags."""
    text = user_text(body).split(f"<{tag}>\n", 1)[1].split(f"\n</{tag}>", 1)[0]
    return json.loads(text)
