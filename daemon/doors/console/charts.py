"""Server-rendered SVG charts: geometry computed here, drawn by templates/chart.svg.html (escaped).

Pure functions from numbers to points; no JavaScript, no chart CDN.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT, PAD = 560, 200, 36
MAX_LABELS = 7  # x-axis labels at most: more would overlap
LABEL_GAP_PX = 40  # the least room between two x labels (a MM-DD label is about 30 px wide)
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


def labelled_points(count: int, step: float) -> list[int]:
    """Which of `count` points, `step` pixels apart, get an x label: evenly spaced, at most
    MAX_LABELS, and always the first and the last (the newest point is the one looked for);
    the label before the last is dropped when it would crowd it."""
    if count == 0:
        return []
    every = max(1, -(-count // MAX_LABELS))
    chosen = list(range(0, count, every))
    last = count - 1
    if chosen[-1] != last:
        if len(chosen) > 1 and (last - chosen[-1]) * step < LABEL_GAP_PX:
            chosen.pop()
        chosen.append(last)
    return chosen


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
    x_labels = [(px(i), x[i]) for i in labelled_points(len(x), step)]
    y_ticks = [(py(top * f), f"{top * f:.4g}") for f in (0.0, 0.5, 1.0)]
    return Chart(title, unit, x_labels, y_ticks, series)
