"""A run's report with each line said once: what several passes report alike is grouped.

The passes that read transcripts (distillation, skill learning, instruction review) read
the same files, each with its own cursor, so the reader's warnings and the precision
guards' counts ("skipped by precision guards: 5 tool results") come back from each of
them word for word. The run report (`once`, the run commit's message) prints such a line
once, under the passes that reported it, and each pass keeps the lines only it reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SharedLines:
    passes: tuple[str, ...]  # the passes that each reported every one of `lines`, in run order
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ReportLayout:
    own: dict[str, tuple[str, ...]]  # pass name → the lines no other pass reported
    shared: tuple[SharedLines, ...]  # in the order the lines were first reported


def lay_out(reports: Sequence[tuple[str, Sequence[str]]]) -> ReportLayout:
    """Given (pass name, its report lines) in run order, return each pass's own lines and
    the lines more than one pass reported, grouped by the passes that reported them."""
    reporters: dict[str, list[str]] = {}
    for name, lines in reports:
        for line in dict.fromkeys(lines):
            reporters.setdefault(line, []).append(name)
    shared = {line: tuple(names) for line, names in reporters.items() if len(names) > 1}
    own = {name: tuple(line for line in lines if line not in shared) for name, lines in reports}
    groups: dict[tuple[str, ...], list[str]] = {}
    for line, names in shared.items():
        groups.setdefault(names, []).append(line)
    return ReportLayout(own, tuple(SharedLines(names, tuple(lines)) for names, lines in groups.items()))


def reporters(passes: Sequence[str]) -> str:
    """`distillation, skill_learning and instruction_review` — the header of a shared group."""
    return passes[0] if len(passes) == 1 else f"{', '.join(passes[:-1])} and {passes[-1]}"
