"""What the MCP server gave the agent: `<state_dir>/agents/<agent>/mcp-answers.jsonl`, one line
per answer that gave facts or a skill, for `impact` to count as deliveries
(`daemon.impact.answers`; docs/reference/state-files.md).

A line holds when (UTC), the tool, the fact ids and the skill names given — never a value, a
quote or the question asked. Several servers of one agent may answer at once (one per
runtime session): each line is one `write` to a file opened with O_APPEND, so lines never
interleave. Past LOG_MAX_BYTES the file is moved to `.1` (the older `.1` dropped), like the
hook's `hook.log`; both are read. The log is only written once the agent's state folder
exists (the daemon has run for it), and writing never fails an answer: what goes wrong is
returned, for the server's log.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from daemon.impact.answers import McpAnswer
from daemon.kernel import bounded_log, redact

VERSION = 1
LOG_MAX_BYTES = 1 << 20  # then moved to `.1`: about 2 MiB kept at most, thousands of answers
MAX_NAMES = 200  # ids or names on one line: an answer gives at most 100 facts (`memory_search`)
ROTATED = ".1"  # what daemon.kernel.bounded_log moves a full log to


def append_answer(
    path: Path, now: datetime, tool: str, facts: Sequence[str], skills: Sequence[str]
) -> str | None:
    """Append the line of one answer to the log at `path`; return why it was not written, or
    None (also when there is nothing to log, or no state folder to log in). Never raises."""
    if not facts and not skills:
        return None
    line = {
        "v": VERSION,
        "at": now.astimezone(UTC).isoformat(timespec="seconds"),
        "tool": tool,
        "facts": list(facts[:MAX_NAMES]),
        "skills": list(skills[:MAX_NAMES]),
    }
    data = (redact.redact(json.dumps(line, ensure_ascii=False)) + "\n").encode("utf-8")
    try:
        if not path.parent.is_dir():
            return None
        bounded_log.append(path, data, LOG_MAX_BYTES)  # one write: concurrent servers' lines never interleave
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    return None


def _answer(raw: object) -> McpAnswer | None:
    if not isinstance(raw, dict):
        return None
    at, tool, facts, skills = raw.get("at"), raw.get("tool"), raw.get("facts", []), raw.get("skills", [])
    if (
        not isinstance(at, str)
        or not isinstance(tool, str)
        or not isinstance(facts, list)
        or not isinstance(skills, list)
    ):
        return None
    return McpAnswer(at, tool, tuple(str(f) for f in facts), tuple(str(s) for s in skills))


def read_answers(path: Path) -> tuple[list[McpAnswer], list[str]]:
    """The answers logged at `path` (its rotated `.1` first), and what could not be read, in
    words: an unreadable file, lines that are not an answer, lines of a newer version (left
    for that daemon)."""
    answers: list[McpAnswer] = []
    warnings: list[str] = []
    for file in (path.with_name(path.name + ROTATED), path):
        try:
            lines = file.read_bytes().splitlines()
        except FileNotFoundError:
            continue
        except OSError as exc:
            warnings.append(f"the MCP answers in {file} were not read: {exc.strerror or exc}")
            continue
        bad = newer = 0
        for line in lines:
            try:
                raw = json.loads(line)
            except ValueError:
                raw = None
            version = raw.get("v") if isinstance(raw, dict) else None
            if isinstance(version, int) and version > VERSION:
                newer += 1
                continue
            answer = _answer(raw) if version == VERSION else None
            if answer is None:
                bad += bool(line.strip())
                continue
            answers.append(answer)
        if bad:
            warnings.append(f"{file}: {bad} line(s) are not an MCP answer and were left out")
        if newer:
            warnings.append(
                f"{file}: {newer} line(s) of a newer version than {VERSION} were left out (written by a newer daemon)"
            )
    return answers, warnings
