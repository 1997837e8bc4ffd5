"""Server-rendered SVG charts: geometry computed here, drawn by templates/chart.svg.html (escaped).

Pure functions from numbers to points; no JavaScript, no chart CDN.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT, PAD = 560, 200, 36
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    points: list[tuple[float, float]]  # pixel coordinates
    values: list[tuple[str, float]]  # label, value (for the <title> of each point)


@dataclass(frozen=True)
class Chart:
    title: str
    unit: str
    x_labels: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    series: list[Series] = field(default_factory=list)
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def empty(self) -> bool:
        return not any(s.points for s in self.series)


def line_chart(title: str, unit: str, x: Sequence[str], lines: Mapping[str, Sequence[float | None]]) -> Chart:
    """One line per entry of `lines` over the labels `x` (None = no point there)."""
    values = [v for series in lines.values() for v in series if v is not None]
    top = max(values, default=0.0)
    top = top if top > 0 else 1.0
    step = (WIDTH - 2 * PAD) / max(1, len(x) - 1)

    def px(i: int) -> float:
        return round(PAD + i * step, 1)

    def py(v: float) -> float:
        return round(HEIGHT - PAD - (v / top) * (HEIGHT - 2 * PAD), 1)

    series = []
    for n, (name, data) in enumerate(lines.items()):
        points = [(px(i), py(v)) for i, v in enumerate(data) if v is not None]
        labelled = [(x[i], v) for i, v in enumerate(data) if v is not None]
        series.append(Series(name, PALETTE[n % len(PALETTE)], points, labelled))
    every = max(1, -(-len(x) // 7))  # at most 7 labels: they must not overlap
    x_labels = [(px(i), label) for i, label in enumerate(x) if i % every == 0]
    y_ticks = [(py(top * f), f"{top * f:.4g}") for f in (0.0, 0.5, 1.0)]
    return Chart(title, unit, x_labels, y_ticks, series)
