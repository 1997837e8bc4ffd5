"""Logging: named events with fields. JSON lines off a terminal (journald), readable on one.

Journald reads a `<N>` prefix as the syslog priority, so `journalctl -p err` works while
the message stays pure JSON.

Secrets never reach the log: tracebacks carry no frame locals (a local may hold the
environment or an `Authorization` header), and the last step of every renderer passes
the finished line through `daemon.kernel.redact`. Libraries that log through the standard
`logging` module (uvicorn, APScheduler, httpx, openai) go through the same renderers and
the same redaction, at WARNING and above only (their INFO lines are not ours to print).
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
    stamping: list[Any] = [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    rendering: list[Any] = []
    if as_json:
        rendering += [
            structlog.processors.ExceptionRenderer(ExceptionDictTransformer(show_locals=False)),
            structlog.processors.JSONRenderer(sort_keys=True),
        ]
        if journald:
            rendering.append(_journald_prefix)
    else:
        rendering.append(
            structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback)
        )
    rendering.append(_redact_line)
    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars, *stamping, *rendering],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(file=target),
        cache_logger_on_first_use=False,
    )
    _route_stdlib(target, stamping, rendering, level)


class _StdlibHandler(logging.StreamHandler):
    """The one handler `configure` puts on the root logger (replaced, never stacked)."""


def _route_stdlib(target: TextIO, stamping: list[Any], rendering: list[Any], level: str) -> None:
    """Render standard-library log records like ours: same format, same redaction."""
    handler = _StdlibHandler(target)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *stamping],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *rendering],
        )
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _StdlibHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(max(logging.WARNING, logging.getLevelName(level.upper())))
