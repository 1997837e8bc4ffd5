"""Logging: named events with fields. JSON lines off a terminal (journald), readable on one.

Journald reads a `<N>` prefix as the syslog priority, so `journalctl -p err` works while
the message stays pure JSON.

Secrets never reach the log: tracebacks carry no frame locals (a local may hold the
environment or an `Authorization` header), and the last step of every renderer passes
the finished line through `daemon.kernel.redact`.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO

import structlog
from structlog.tracebacks import ExceptionDictTransformer

from daemon.kernel import redact

PRIORITY = {"critical": 2, "error": 3, "warning": 4, "info": 6, "debug": 7}


def _journald_prefix(_logger: Any, method: str, event: Any) -> Any:
    return f"<{PRIORITY.get(method, 6)}>{event}"


def _redact_line(_logger: Any, _method: str, line: Any) -> Any:
    return redact.redact(line) if isinstance(line, str) else line


def configure(
    stream: TextIO | None = None, level: str = "info", json_lines: bool | None = None, journald: bool = False
) -> None:
    """Configure structlog once at the edge; `json_lines=None` picks by whether `stream` is a TTY."""
    target = stream or sys.stderr
    as_json = (not target.isatty()) if json_lines is None else json_lines
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if as_json:
        processors += [
            structlog.processors.ExceptionRenderer(ExceptionDictTransformer(show_locals=False)),
            structlog.processors.JSONRenderer(sort_keys=True),
        ]
        if journald:
            processors.append(_journald_prefix)
    else:
        processors.append(
            structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback)
        )
    processors.append(_redact_line)
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(file=target),
        cache_logger_on_first_use=False,
    )
