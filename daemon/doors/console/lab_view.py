"""The Lab page's reading: ledger folders under `console.lab_ledgers`, charts, grid table, spend.

A ledger folder is read-only evidence written by `lab grid|campaign`, or edited by hand: what
the page shows of it is validated here first (the models below), so the template only sees
checked values. An unreadable or malformed one is listed with its problem (the file and key
at fault) and never hides the others. Spend per day per agent comes from the spend ledger's
day files.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError, from_json

from daemon.doors.console.charts import Chart, line_chart
from daemon.kernel.paths import StateLayout
from daemon.model.spend import SpendLedger

MAX_LEDGERS = 50
GRID_ROWS = 20
SPEND_DAYS = 30
MAX_FILE_BYTES = 16 * 1024 * 1024


def _fits_a_float(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            float(value)
        except OverflowError:
            raise PydanticCustomError("number_too_large", "Number too large to chart") from None
    return value


# Strict: a boolean or a string is not a number here; finite: the charts scale by the largest.
Number = Annotated[float, Field(strict=True, allow_inf_nan=False), BeforeValidator(_fits_a_float)]


def _scalar(value: object) -> object:
    if value is None or isinstance(value, str | int) or (isinstance(value, float) and math.isfinite(value)):
        return value  # bool is an int
    raise PydanticCustomError("scalar", "Input should be a string, a finite number, true, false or null")


Scalar = Annotated[Any, AfterValidator(_scalar)]


class _Shape(BaseModel):
    # Ledgers carry much more than the page shows: only the parts it reads are checked.
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)


class Outcome(_Shape):
    """A ledger's selected (campaign) or best (grid) settings and how many scenarios they pass."""

    settings: dict[str, Scalar]
    passed: int
    total: int


class GridRow(Outcome):
    mean_stored_records: Number
    violations: int


class _Iteration(_Shape):
    passed: Number | None = None  # absent when the iteration was not evaluated
    mean_stored_records: Number | None = None


class _Campaign(_Shape):
    campaign: int | None = None
    iterations: list[_Iteration] = []


class _Header(_Shape):
    kind: str = "?"
    created_at: str = ""


class _CampaignLedger(_Header):
    campaigns: list[_Campaign] = []
    selected: Outcome | None = None


class _Grid(_Shape):
    results: list[GridRow] = []
    best: GridRow | None = None


class LedgerProblem(Exception):
    """A ledger file that cannot be read or does not have the shape the page reads."""


@dataclass
class LedgerView:
    name: str
    path: Path
    kind: str = "?"
    created_at: str = ""
    problem: str | None = None
    charts: list[Chart] = field(default_factory=list)
    grid_rows: list[GridRow] = field(default_factory=list)
    selected: Outcome | None = None


M = TypeVar("M", bound=BaseModel)


def _read(path: Path) -> object:
    """The JSON in `path`; raises LedgerProblem naming the file if unreadable, too large or not JSON."""
    try:
        # Non-blocking: opening a FIFO left there would wait for a writer and hang the page.
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise LedgerProblem(f"{path.name}: not a regular file")
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise LedgerProblem(f"{path.name}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise LedgerProblem(f"{path.name}: larger than 16 MiB")
    try:
        # pydantic's parser, not json: it caps nesting (no RecursionError) and never overflows.
        return from_json(data)
    except ValueError as exc:
        raise LedgerProblem(f"{path.name}: not JSON: {exc}") from None


def _validate(model: type[M], doc: object, path: Path) -> M:
    """The JSON object `doc` as `model`; raises LedgerProblem naming the file and the first key at fault."""
    if not isinstance(doc, dict):
        raise LedgerProblem(f"{path.name}: not a JSON object")
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        raise LedgerProblem(f"{path.name}: {where}: {err['msg']}") from None


def _campaign_charts(campaigns: Sequence[_Campaign]) -> list[Chart]:
    longest = max((len(c.iterations) for c in campaigns), default=0)
    x = [str(i) for i in range(1, longest + 1)]
    passed: dict[str, list[float | None]] = {}
    stored: dict[str, list[float | None]] = {}
    for c in campaigns:
        label = f"campaign {'?' if c.campaign is None else c.campaign}"
        pad: list[float | None] = [None] * (longest - len(c.iterations))
        passed[label] = [s.passed for s in c.iterations] + pad
        stored[label] = [s.mean_stored_records for s in c.iterations] + pad
    return [
        line_chart("Scenarios passed per iteration", "passed", x, passed),
        line_chart("Mean stored records per iteration", "records", x, stored),
    ]


def _ledger(path: Path) -> LedgerView:
    view = LedgerView(path.name, path)
    try:
        doc = _read(path / "ledger.json")
        header = _validate(_Header, doc, path / "ledger.json")
        view.kind, view.created_at = header.kind, header.created_at
        if header.kind == "campaign":
            ledger = _validate(_CampaignLedger, doc, path / "ledger.json")
            view.charts = _campaign_charts(ledger.campaigns)
            view.selected = ledger.selected
        elif header.kind == "grid":
            grid = _validate(_Grid, _read(path / "grid.json"), path / "grid.json")
            view.grid_rows = grid.results[:GRID_ROWS]
            view.selected = grid.best
    except LedgerProblem as exc:
        view.problem = str(exc)
    return view


def _holds_a_ledger(folder: Path) -> bool:
    try:
        return (folder / "ledger.json").is_file()
    except OSError:  # cannot tell (e.g. another user's folder): listed, and reading it names the problem
        return True


def ledgers(folders: Sequence[Path]) -> list[LedgerView]:
    """Ledger folders (those holding ledger.json) directly under each of `folders`, newest name first."""
    found: list[Path] = []
    for folder in folders:
        try:
            found += [p for p in folder.iterdir() if _holds_a_ledger(p)]
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
