"""The Lab page's reading: ledger folders under `console.lab_ledgers`, charts, grid table, spend.

A ledger folder is read-only evidence; an unreadable one is listed with its problem and
never hides the others. Spend per day per agent comes from the spend ledger's day files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from daemon.doors.console.charts import Chart, line_chart
from daemon.kernel.paths import StateLayout
from daemon.kernel.spend import SpendLedger

MAX_LEDGERS = 50
GRID_ROWS = 20
SPEND_DAYS = 30


@dataclass
class LedgerView:
    name: str
    path: Path
    kind: str = "?"
    created_at: str = ""
    problem: str | None = None
    charts: list[Chart] = field(default_factory=list)
    grid_rows: list[dict[str, Any]] = field(default_factory=list)
    selected: dict[str, Any] | None = None


def _read_json(path: Path) -> Any:
    with path.open("rb") as fh:
        data = fh.read(16 * 1024 * 1024 + 1)
    if len(data) > 16 * 1024 * 1024:
        raise ValueError(f"{path} is larger than 16 MiB")
    return json.loads(data)


def _campaign_charts(doc: dict[str, Any]) -> list[Chart]:
    campaigns = [c for c in doc.get("campaigns", []) if isinstance(c, dict)]
    longest = max((len(c.get("iterations", [])) for c in campaigns), default=0)
    x = [str(i) for i in range(1, longest + 1)]
    passed: dict[str, list[float | None]] = {}
    stored: dict[str, list[float | None]] = {}
    for c in campaigns:
        steps = [s for s in c.get("iterations", []) if isinstance(s, dict)]
        label = f"campaign {c.get('campaign', '?')}"
        passed[label] = [_number(s.get("passed")) for s in steps] + [None] * (longest - len(steps))
        stored[label] = [_number(s.get("mean_stored_records")) for s in steps] + [None] * (longest - len(steps))
    return [
        line_chart("Scenarios passed per iteration", "passed", x, passed),
        line_chart("Mean stored records per iteration", "records", x, stored),
    ]


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _ledger(path: Path) -> LedgerView:
    view = LedgerView(path.name, path)
    try:
        doc = _read_json(path / "ledger.json")
        if not isinstance(doc, dict):
            raise ValueError("ledger.json is not an object")
        view.kind = str(doc.get("kind", "?"))
        view.created_at = str(doc.get("created_at", ""))
        if view.kind == "campaign":
            view.charts = _campaign_charts(doc)
            view.selected = doc.get("selected") if isinstance(doc.get("selected"), dict) else None
        elif view.kind == "grid":
            grid = _read_json(path / "grid.json")
            results = grid.get("results", []) if isinstance(grid, dict) else []
            view.grid_rows = [r for r in results[:GRID_ROWS] if isinstance(r, dict)]
            view.selected = grid.get("best") if isinstance(grid, dict) else None
    except (OSError, ValueError) as exc:
        view.problem = f"{type(exc).__name__}: {exc}"
    return view


def ledgers(folders: Sequence[Path]) -> list[LedgerView]:
    """Ledger folders (those holding ledger.json) directly under each of `folders`, newest name first."""
    found: list[Path] = []
    for folder in folders:
        try:
            found += [p for p in folder.iterdir() if (p / "ledger.json").is_file()]
        except OSError:
            continue
    found.sort(key=lambda p: p.name, reverse=True)
    return [_ledger(p) for p in found[:MAX_LEDGERS]]


def spend_chart(state_dir: Path, agents: Sequence[str], today: date, days: int = SPEND_DAYS) -> Chart:
    """USD spent (settled, else reserved) per UTC day per agent over the last `days` days."""
    layout = StateLayout(state_dir)
    ledger = SpendLedger(layout.spend_dir, layout.spend_lock)
    x = [(today - timedelta(days=days - 1 - i)).isoformat() for i in range(days)]
    lines: dict[str, list[float | None]] = {name: [] for name in agents}
    for day in x:
        has_file = (layout.spend_dir / f"{day}.jsonl").exists()
        for name in agents:
            lines[name].append(round(ledger.totals(day, name).agent_usd, 6) if has_file else 0.0)
    return line_chart("Spend per day per agent", "USD", [day[5:] for day in x], lines)  # MM-DD
