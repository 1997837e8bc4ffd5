"""A named structlog logger that imports structlog at its first event, not at import.

`status` and `config check` import modules that log only when something goes wrong;
structlog (and the asyncio it brings) would otherwise be a fifth of their start-up.
The logger returned is structlog's own once asked for, so events, fields and
configuration are exactly those of `structlog.get_logger(name)`.
"""

from __future__ import annotations

from typing import Any


class LazyLogger:
    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, method: str) -> Any:
        import structlog

        return getattr(structlog.get_logger(self._name), method)


def get_logger(name: str) -> LazyLogger:
    """Given a logger name, a logger whose methods are those of `structlog.get_logger(name)`."""
    return LazyLogger(name)
