"""The line-based transcript formats, one explicit table (`transcripts.format`).

A format says how a line becomes a message (`parse`, or `parser_for` a file read
otherwise), which files it skips whole (`skip_file`, a precision guard), how its cursors are keyed (a path, or a session id for
files that move), and the shape shown when a file is held as not in the format. The
SQLite formats (OpenClaw's database, Hermes) read rows, not lines:
`daemon.transcripts.sqlite_common`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from daemon.transcripts import claude_code, codex
from daemon.transcripts.lines import parse_line
from daemon.transcripts.openclaw import parse as parse_openclaw
from daemon.transcripts.window import LineParser

JSONL_EXPECTED = 'one {"role": ..., "content": ...} object per line'


def _path_key(rel: str) -> str:
    return rel


def _no_skip(path: Path, rel: str, subagents: bool) -> str | None:
    return None


@dataclass(frozen=True)
class LineFormat:
    name: str
    parse: LineParser
    expected: str
    cursor_key: Callable[[str], str] = _path_key
    skip_file: Callable[[Path, str, bool], str | None] = _no_skip
    # Turn-level guards (heartbeat turns) apply to runtime formats, never to `jsonl`.
    runtime: bool = True
    # How a file's lines are read when not by `parse` (Claude Code subagent files).
    parser_for: Callable[[str, bool], LineParser] | None = None

    def parser(self, rel: str, subagents: bool) -> LineParser:
        """The parser for the lines of the file `rel`."""
        return self.parse if self.parser_for is None else self.parser_for(rel, subagents)


FORMATS: dict[str, LineFormat] = {
    "jsonl": LineFormat("jsonl", parse_line, JSONL_EXPECTED, runtime=False),
    "claude-code": LineFormat(
        "claude-code",
        claude_code.parse,
        claude_code.EXPECTED,
        skip_file=lambda _path, rel, sub: claude_code.skip_file(rel, sub),
        parser_for=claude_code.parser,
    ),
    "codex": LineFormat(
        "codex",
        codex.parse,
        codex.EXPECTED,
        cursor_key=codex.cursor_key,
        skip_file=lambda path, _rel, sub: codex.skip_file(path, sub),
    ),
    "openclaw": LineFormat(
        "openclaw",
        parse_openclaw,
        'OpenClaw session lines, {"type": "session"|"message"|..., "message": {...}}',
    ),
}
# The SQLite formats and which files they read as databases (any other file is lines).
DATABASE_SUFFIXES = {"openclaw": (".sqlite", ".sqlite3", ".db"), "hermes": (".db", ".sqlite", ".sqlite3")}


def line_format(name: str) -> LineFormat:
    """The line format `name` (hermes has none: its files are all databases)."""
    return FORMATS.get(name, FORMATS["jsonl"])


def is_database(name: str, rel: str) -> bool:
    return rel.endswith(DATABASE_SUFFIXES.get(name, ()))
