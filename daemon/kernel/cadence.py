"""Cadence presets (docs/reference/configuration.md): schedules and daily deep caps move together."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

CadenceName = Literal["relaxed", "balanced", "aggressive"]


@dataclass(frozen=True)
class Cadence:
    transcript_every: timedelta
    deep_passes_per_day: int
    memory_consolidation_every: timedelta
    maintenance_every: timedelta


CADENCES: dict[str, Cadence] = {
    "relaxed": Cadence(timedelta(hours=4), 6, timedelta(days=1), timedelta(days=7)),
    "balanced": Cadence(timedelta(hours=2), 12, timedelta(days=1), timedelta(days=1)),
    "aggressive": Cadence(timedelta(hours=1), 24, timedelta(hours=6), timedelta(days=1)),
}

# Which interval of the preset schedules each pass.
PASS_INTERVAL_FIELD: dict[str, str] = {
    "distillation": "transcript_every",
    "skill_learning": "transcript_every",
    "memory_consolidation": "memory_consolidation_every",
    "library_maintenance": "maintenance_every",
    "workspace_consolidation": "maintenance_every",
    "instruction_review": "maintenance_every",
}


def interval_for(cadence: str, pass_name: str) -> timedelta:
    preset = CADENCES[cadence]
    interval: timedelta = getattr(preset, PASS_INTERVAL_FIELD[pass_name])
    return interval
