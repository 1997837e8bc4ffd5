"""Shared output of the benchmark scripts: raw results as JSON, figures as a Markdown table."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

RESULTS = Path(__file__).parent / "results"

Align = Literal["left", "right"]
_SEPARATOR: dict[Align, str] = {"left": "---", "right": "---:"}


def save_results(name: str, data: object) -> Path:
    """Write `data` as indented JSON to benchmarks/results/<name>.json and return that path."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def print_table(
    headers: Sequence[str], rows: Iterable[Sequence[object]], align: Align | Sequence[Align] = "left"
) -> None:
    """Print a Markdown table: the header line, the separator, then one line per row.

    `align` is one value for every column or one per column: "left" prints `---` (the
    default alignment), "right" prints `---:`. Cells are printed with `str()`, so format
    numbers before passing them.
    """
    aligns = [align] * len(headers) if isinstance(align, str) else list(align)
    if len(aligns) != len(headers):
        raise ValueError(f"{len(aligns)} alignments for {len(headers)} columns")
    lines = [_line(headers), _line(_SEPARATOR[a] for a in aligns)]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"row of {len(row)} cells for {len(headers)} columns: {row!r}")
        lines.append(_line(row))
    print("\n".join(lines))


def _line(cells: Iterable[object]) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"
