"""The five tunable settings of the memory engine, as data.

The lab searches over exactly these; the daemon reads them from the YAML file (or from
an approved lab proposal). Bounds and types are strict: a bool is not a number and a
number is not a bool, so a patch like `top_k: true` is refused rather than coerced.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, field_validator

SETTING_NAMES = ("min_confidence", "filter_entity", "time_aware", "deduplicate", "top_k")
TOP_K_MIN, TOP_K_MAX = 1, 8


class MemorySettings(BaseModel):
    """Retrieval and write settings; the lab's baseline is the default."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    min_confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    filter_entity: bool = False
    time_aware: bool = False
    deduplicate: bool = False
    top_k: int = Field(default=3, ge=TOP_K_MIN, le=TOP_K_MAX)

    @field_validator("min_confidence", mode="before")
    @classmethod
    def _finite_number(cls, value: object) -> object:
        if isinstance(value, bool):
            raise ValueError("must be a number in [0, 1], not a boolean")
        if isinstance(value, int | float) and not math.isfinite(float(value)):
            raise ValueError("must be a finite number in [0, 1]")
        if isinstance(value, int):
            return float(value)
        return value

    def key(self) -> tuple[float, bool, bool, bool, int]:
        """A hashable identity, used to recognise already-tested configurations."""
        return (self.min_confidence, self.filter_entity, self.time_aware, self.deduplicate, self.top_k)

    def describe(self) -> str:
        return (
            f"min_confidence={self.min_confidence:g} filter_entity={self.filter_entity} "
            f"time_aware={self.time_aware} deduplicate={self.deduplicate} top_k={self.top_k}"
        )


BASELINE = MemorySettings()
