"""The lines of an agent's turn that are its work, as words (pure, no I/O): what a reading of
the reply compares with the turn before (`daemon.impact.swapped`).

The lines of a tool call and of what a command printed (under "● Bash(…)", "• Ran …",
"[tool: shell …]") are not read: a command's output changes with the world, not with what
the person said. An edit's diff (under "● Update(…)", "• Edited …") is the agent's work, its
lines with their signs; so is a change an edit's summary writes with an arrow ("zone:
ch-gva-2 → ch-dk-2"), read as a diff's two lines.
"""

from __future__ import annotations

import re

from daemon.impact.clauses import words_of
from daemon.impact.tool_lines import BARE_TOOL, EDIT_CALL, MARKS, TOOL_CALL

# A diff's line under an edit: its number, one space, then its sign against the line (Claude
# Code's "12 -    runs-on: …", Codex's "4 -terraform_version = …"); a space in the sign's
# place is a line kept ("14        - run: make test" is a list's item).
DIFF = re.compile(r"^(?:\d+ )?([+-])")
# … and in a ```diff fence, where the sign opens the line; not a file's header ("--- a/x").
FENCED_DIFF = re.compile(r"^(?!(?:---|\+\+\+)(?:[ \t]|\Z))([+-])")
# A change an edit's summary writes as "old → new" under the edit ("└ zone: ch-gva-2 →
# ch-dk-2"): the word before the arrow was the line's, the word after it is, as a diff's "-" and
# "+" lines. Not in prose, where an arrow is as often a route or a result ("Linate → AMS",
# "`pytest` → 31 passed"); one arrow a line (two are a path or a pipeline).
ARROW = re.compile(r"(\S+)[ \t]*(?:→|->)[ \t]*(\S+)")
# A placeholder of a draft ("Dear [NAME],", "<client>", "{first_name}"): no value of the
# agent's, and the person's word filling it is an answer, not a correction.
PLACEHOLDER = re.compile(r"\{\{?[^\W\d][\w ]{0,29}\}?\}|\[[^\W\d][\w ]{0,29}\]|<[^\W\d][\w ]{0,29}>")


def work_lines(text: str, blanked: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    """The lines of an agent's turn as (diff sign or "", words), without its tool calls' lines
    and what a command printed under one (indented lines after it). A "+" or "-" opening a line
    is a diff's sign only in an edit's diff (the indented lines after it) or a ```diff fence; in
    prose it is a list's mark; a line under an edit with one ARROW is its two lines, "-" and
    "+". `blanked`: without the placeholders of a draft (PLACEHOLDER)."""
    found: list[tuple[str, tuple[str, ...]]] = []
    under: str | None = None  # "edit" or "output": the tool call the indented lines belong to
    fenced = False  # inside a ```diff fence
    for raw in text.splitlines():
        if raw.lstrip().startswith("```"):
            fenced = raw.lstrip()[3:].strip().casefold() == "diff" and not fenced
            under = None
            continue
        if BARE_TOOL.match(raw):
            under = None
            continue
        if TOOL_CALL.match(raw):
            under = "edit" if EDIT_CALL.match(raw) else "output"
            continue
        if under is not None and raw[:1] in (" ", "\t") and raw.strip():
            if under == "output":
                continue
        else:
            under = None
        line = MARKS.sub("", raw)
        sign = ""
        diff = DIFF.match(line) if under == "edit" else FENCED_DIFF.match(raw) if fenced else None
        if diff is not None:
            sign, line = diff.group(1), line[diff.end() :]
        arrow = ARROW.search(line) if under == "edit" and not sign and line.count("→") + line.count("->") == 1 else None
        if arrow is not None:
            was, now = line[: arrow.start(2)] + line[arrow.end() :], line[: arrow.start()] + line[arrow.start(2) :]
            found += [(mark, said) for mark, part in (("-", was), ("+", now)) if (said := _words(part, blanked))]
            continue
        said = _words(line, blanked)
        if said:
            found.append((sign, said))
    return found


def _words(line: str, blanked: bool) -> tuple[str, ...]:
    return words_of(PLACEHOLDER.sub(" ", line) if blanked else line).low
