"""Whether the model may be called this run, and with which key: decided at the edge.

The edge (`daemon/doors/environment.py`) reads the key from the environment or a systemd
credential; everything below only receives this value and never prints the key.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelAccess:
    api_key: str | None
    unavailable_reason: str | None

    def __repr__(self) -> str:  # never print the key, even in a traceback
        return f"ModelAccess(api_key={'***' if self.api_key else None}, unavailable_reason={self.unavailable_reason!r})"
