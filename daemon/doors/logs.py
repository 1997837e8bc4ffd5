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
from collections.abc import Callable
from typing import Any, TextIO

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
    import structlog
    from structlog.tracebacks import ExceptionDictTransformer

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
    import structlog

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


def configure_when_used(stream: TextIO, level: str) -> None:
    """`configure(stream, level)`, done when structlog is first imported (at once if it is).

    A short command (`status`, `config check`) may never log: importing structlog (and the
    asyncio it brings) is then a fifth of its start-up. Until then a standard-library record
    that reaches the root logger imports structlog itself, so it is rendered and redacted
    like every other line.
    """

    def apply() -> None:
        configure(stream, level=level)

    if "structlog" in sys.modules:
        apply()
        return
    for finder in [f for f in sys.meta_path if isinstance(f, _ConfigureOnImport)]:
        sys.meta_path.remove(finder)  # a later call wins, as with `configure`
    sys.meta_path.insert(0, _ConfigureOnImport(apply))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _StdlibHandler)]:
        root.removeHandler(old)
    root.addHandler(_PendingHandler())
    root.setLevel(max(logging.WARNING, logging.getLevelName(level.upper())))


class _ConfigureOnImport:
    """A meta path finder that finds nothing itself: it runs `apply` right after structlog's
    first import (found by the finders after it), then steps aside."""

    def __init__(self, apply: Callable[[], None]) -> None:
        self.apply = apply

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if name != "structlog":
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(name)
        if spec is None or spec.loader is None:
            return None
        loader: Any = spec.loader
        run = loader.exec_module
        apply = self.apply

        def exec_module(module: Any) -> None:
            run(module)
            apply()

        loader.exec_module = exec_module
        return spec


class _PendingHandler(_StdlibHandler):
    """The root logger's handler until structlog is imported: the first record imports it
    (which configures logging and replaces this handler) and goes to the real handler."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    def emit(self, record: logging.LogRecord) -> None:
        import structlog  # noqa: F401  (the import configures logging: `_ConfigureOnImport`)

        for handler in logging.getLogger().handlers:
            if isinstance(handler, _StdlibHandler) and handler is not self:
                handler.handle(record)
