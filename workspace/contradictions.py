"""Contradictions found during consolidation become review-queue proposals, never fixes.

Choosing a side changes what the agent does, so it waits for a person. Each reported
contradiction is checked first: both quotes must be found in the workspace files (the
file the model named, or the one the quote moved to in this run), which gives the file
and line quoted in the proposal. When the model suggests a side and the other side is a
whole bullet or paragraph, the proposal carries the change that removes it, so approving
applies the choice; otherwise the proposal only records the conflict for a person to fix.
Whatever the model suggests, the proposal offers a person three choices (`review approve
ID --keep a|b|both`): keep the first side (remove the second), keep the second (remove the
first) — each offered when that side is a whole bullet or paragraph — or keep both as they
are. A contradiction already open or rejected in the queue, or one a person kept both
sides of, is not proposed again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from daemon.kernel.review_queue import (
    CHOICES_VERSION,
    Choice,
    Proposal,
    ProposedChange,
    list_proposals,
    make_change,
    new_proposal,
)
from daemon.kernel.view import AgentView
from workspace.consolidate_model import ReportedContradiction, Side
from workspace.units import fingerprint_key, normalise, parse_blocks

KIND = "contradiction"


@dataclass(frozen=True)
class Located:
    file: str
    line: int
    text: str  # the whole line, as written


def locate(side: Side, files: Mapping[str, str]) -> Located | None:
    """Where the quote of `side` is now: its named file first, then the other files."""
    needle = normalise(side.quote)
    if len(needle) < 3:
        return None
    order = [side.file] + [p for p in files if p != side.file]
    for path in order:
        for number, line in enumerate(files.get(path, "").split("\n"), start=1):
            if needle in normalise(line):
                return Located(path, number, line.strip())
    return None


def _removal(loser: Located, quote: str, files: Mapping[str, str]) -> str | None:
    """The loser's file without the block that is exactly the quote, or None."""
    text = files[loser.file]
    for block in parse_blocks(text):
        if block.start <= loser.line <= block.end and block.kind in ("bullet", "paragraph"):
            if normalise(block.text) != normalise(quote):
                return None
            lines = text.split("\n")
            return "\n".join(lines[: block.start - 1] + lines[block.end :])
    return None


def _choices(first: Located, second: Located, quotes: tuple[str, str], view: AgentView, files: Mapping[str, str]) -> list[Choice]:
    """Keep `a` (the first side), `b` (the second) — where the other side can be removed
    whole — or `both`, which changes nothing."""
    choices = []
    for key, winner, loser, quote in (("a", first, second, quotes[1]), ("b", second, first, quotes[0])):
        removed = _removal(loser, quote, files)
        if removed is not None:
            label = f"{winner.file}:{winner.line} (removes {loser.file}:{loser.line})"
            choices.append(Choice(key=key, label=label, changes=[make_change(view, loser.file, removed)]))
    choices.append(Choice(key="both", label=f"both {first.file}:{first.line} and {second.file}:{second.line}"))
    return choices


def kept_both(view: AgentView) -> set[str]:
    """Fingerprints of the contradictions a person approved keeping both sides of."""
    return {p.fingerprint for p in list_proposals(view) if p.kind == KIND and p.chosen == "both"}


def fingerprint(first: str, second: str) -> str:
    pair = sorted([fingerprint_key(first), fingerprint_key(second)])
    return hashlib.sha256(("contradiction\x00" + "\x00".join(pair)).encode("utf-8")).hexdigest()


def proposals(
    reported: Sequence[ReportedContradiction],
    *,
    agent: str,
    view: AgentView,
    files: Mapping[str, str],
    known: set[str],
    now: datetime,
    run_id: str,
) -> tuple[list[Proposal], list[str]]:
    """Proposals for the verified contradictions, and a report line for each one reported.

    `view` and `files` are the workspace as it will be after this run's direct writes.
    """
    made: list[Proposal] = []
    report: list[str] = []
    for item in reported:
        first, second = locate(item.first, files), locate(item.second, files)
        if first is None or second is None:
            missing = item.first if first is None else item.second
            report.append(
                f"contradiction not proposed: the quote “{missing.quote}” is not in {missing.file} "
                "or any other workspace file"
            )
            continue
        if (first.file, first.line) == (second.file, second.line):
            report.append(
                f"contradiction not proposed: both quotes are the same line ({first.file}:{first.line})"
            )
            continue
        mark = fingerprint(item.first.quote, item.second.quote)
        if mark in known:
            report.append(
                f"contradiction {first.file}:{first.line} vs {second.file}:{second.line}: already in the queue"
            )
            continue
        known.add(mark)
        changes: list[ProposedChange] = []
        suggestion = (
            "The model could not tell which side to keep; edit the files by hand, then reject or approve."
        )
        if item.keep != "unsure":
            winner, loser, quote = (
                (first, second, item.second.quote)
                if item.keep == "first"
                else (
                    second,
                    first,
                    item.first.quote,
                )
            )
            new_text = _removal(loser, quote, files)
            if new_text is not None:
                changes.append(make_change(view, loser.file, new_text))
                suggestion = (
                    f"Suggested: keep {winner.file}:{winner.line} and remove {loser.file}:{loser.line}; "
                    "approving applies exactly that."
                )
            else:
                suggestion = (
                    f"Suggested: keep {winner.file}:{winner.line}; the other side is part of a longer "
                    "passage, so edit it by hand."
                )
        proposal = new_proposal(
            kind=KIND,
            agent=agent,
            title=f"Contradiction: {first.file}:{first.line} vs {second.file}:{second.line}",
            target=changes[0].path if changes else f"{first.file}, {second.file}",
            rationale=(
                f"{item.explanation.strip()} Choosing a side changes what the agent does, so the "
                f"consolidation left both as they are. {suggestion}"
            ),
            evidence=[
                f"{first.file}:{first.line}: {first.text}",
                f"{second.file}:{second.line}: {second.text}",
            ],
            changes=changes,
            now=now,
            run_id=run_id,
        )
        choices = _choices(first, second, (item.first.quote, item.second.quote), view, files)
        made.append(
            proposal.model_copy(update={"fingerprint": mark, "choices": choices, "version": CHOICES_VERSION})
        )
        report.append(f"contradiction proposed for review: {proposal.title} ({proposal.id})")
    return made, report
