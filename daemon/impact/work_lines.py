"""The lines of an agent's turn that are its work, as words (pure, no I/O): what a reading of
the reply compares with the turn before (`daemon.impact.swapped`).

The lines of a tool call and of what a command printed (under "● Bash(…)", "• Ran …",
"[tool: shell …]") are not read: a command's output changes with the world, not with what
the person said. An edit's diff (under "● Update(…)", "• Edited …") is the agent's work, its
lines with their signs; so is a change an edit's summary line writes with an arrow ("└ zone:
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
# A change an edit's summary line writes with an arrow, under the edit and after an output
# mark ("  └ zone: ch-gva-2 → ch-dk-2", "  ⎿ signature: Anna Kowalsky → Anna Kowalski"): what
# stands between the last ": " and the arrow was the line's, as many words after it are, read
# as a diff's "-" and "+" lines. Not a line of the edit's diff or of a file it wrote ("1 def
# load(path) -> Config:", "node->tail = head"), nor one arrow among others (a path: "a → b →
# c", "a → b ⇒ c"), nor prose, where an arrow is as often a route or a result ("Linate → AMS").
SUMMARY = re.compile(r"^[ \t]*[⎿└][ \t]*(?!\d+[ \t])")
ARROWS = ("→", "->")
OTHER_ARROWS = ("⇒", "=>", "←", "<-", "↔", "⟶")
# A placeholder of a draft ("Dear [NAME],", "<client>", "{first_name}"): no value of the
# agent's, and the person's word filling it is an answer, not a correction.
PLACEHOLDER = re.compile(r"\{\{?[^\W\d][\w ]{0,29}\}?\}|\[[^\W\d][\w ]{0,29}\]|<[^\W\d][\w ]{0,29}>")


def work_lines(text: str, blanked: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    """The lines of an agent's turn as (diff sign or "", words), without its tool calls' lines
    and what a command printed under one (indented lines after it). A "+" or "-" opening a line
    is a diff's sign only in an edit's diff (the indented lines after it) or a ```diff fence; in
    prose it is a list's mark; an edit's summary line with one arrow is its two lines, "-"
    and "+" (SUMMARY). `blanked`: without the placeholders of a draft (PLACEHOLDER)."""
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
        change = _arrowed(line) if under == "edit" and not sign and SUMMARY.match(raw) else None
        if change is not None:
            found += [(mark, said) for mark, part in zip("-+", change, strict=True) if (said := _words(part, blanked))]
            continue
        said = _words(line, blanked)
        if said:
            found.append((sign, said))
    return found


def _arrowed(line: str) -> tuple[str, str] | None:
    """The line before and after the change its one arrow writes (SUMMARY), or None."""
    if sum(line.count(a) for a in ARROWS) != 1 or any(a in line for a in OTHER_ARROWS):
        return None
    arrow = next(a for a in ARROWS if a in line)
    before, after = line.split(arrow)
    cut = before.rfind(": ") + 2 if ": " in before else 0
    # the new value as many words long as the old one; what follows stands on both lines
    # ("→ "90x180" (3 cards)")
    old, new = before[cut:].split(), after.split()
    rest = new[max(1, len(old)) :]
    return " ".join([before[:cut], *old, *rest]), " ".join([before[:cut], *new])


def _words(line: str, blanked: bool) -> tuple[str, ...]:
    return words_of(PLACEHOLDER.sub(" ", line) if blanked else line).low
