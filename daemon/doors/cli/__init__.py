"""The `metaeng-daemon` command line: a thin layer over the library.

Exit codes: 0 success; 1 an expected failure (bad config, busy agent, refused undo, a
failed pass), with a one-line message naming what is at fault; 3 an unexpected error,
with the traceback in the log; 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata
from typing import TextIO

import structlog

from daemon.doors import logs
from daemon.doors.cli import (
    breaker_cmd,
    config_cmd,
    lab_cmd,
    mcp_cmd,
    memory_cmd,
    once_cmd,
    review_cmd,
    run_cmd,
    runs_cmd,
    service_cmd,
    skills_cmd,
    status_cmd,
    transcripts_cmd,
)
from daemon.doors.cli.common import CliContext, Command
from daemon.doors.output import Output
from daemon.kernel.errors import DaemonError

COMMANDS: tuple[Command, ...] = (
    once_cmd,
    runs_cmd,
    config_cmd,
    memory_cmd,
    review_cmd,
    skills_cmd,
    lab_cmd,
    breaker_cmd,
    run_cmd,
    status_cmd,
    transcripts_cmd,
    mcp_cmd,
    service_cmd,
)
DEFAULT_CONFIG = "/etc/metaeng-daemon/config.yaml"


def build_parser(env: Mapping[str, str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="metaeng-daemon",
        description=(
            "Maintain AI agents between their conversations: distil facts from transcripts, learn and "
            "guard skills, tidy workspace files, propose instruction changes — every run one commit "
            "in a git-backed store that `undo` reverts."
        ),
    )
    parser.add_argument(
        "--config",
        default=env.get("METAENG_CONFIG", DEFAULT_CONFIG),
        help=f"deployment YAML file (default: $METAENG_CONFIG or {DEFAULT_CONFIG})",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress (info level) to stderr")
    parser.add_argument("--version", action="version", version=f"metaeng-daemon {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


def _version() -> str:
    try:
        return metadata.version("metaeng-daemon")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def program_name(argv0: str, executable: str) -> str:
    """How to start this program again as it was started: a command that works when pasted.

    `python -m daemon` stays that (with this interpreter); an executable found on PATH
    under its own name is that name; anything else is the path as typed.
    """
    name = os.path.basename(argv0)
    if name in ("__main__.py", "-m", "-c") or not argv0:
        return f"{shlex.quote(executable)} -m daemon"
    found = shutil.which(name)
    if found and os.path.realpath(found) == os.path.realpath(argv0):
        return name
    return shlex.quote(argv0)


def main(
    argv: Sequence[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    clock: Callable[[], datetime] | None = None,
) -> int:
    environment = dict(os.environ) if env is None else dict(env)
    err_stream = stderr or sys.stderr
    parser = build_parser(environment)
    args = parser.parse_args(argv)
    level = "info" if args.verbose else environment.get("METAENG_LOG_LEVEL", "warning")
    logs.configure(err_stream, level=level)
    context = CliContext(
        env=environment,
        out=Output(stdout),
        err=Output(err_stream),
        clock=clock or (lambda: datetime.now(UTC)),
        config_path=args.config,
        program=program_name(sys.argv[0], sys.executable) if argv is None else "metaeng-daemon",
    )
    try:
        handler: Callable[[argparse.Namespace, CliContext], int] = args.handler
        return handler(args, context)
    except DaemonError as exc:
        context.err.line(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        context.err.line("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (`... | head`): not a crash. Point stdout at /dev/null so the
        # interpreter's final flush does not raise again; 141 is what a shell reports for SIGPIPE.
        if stdout is None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141
    except Exception as exc:
        # The log's traceback carries no frame locals (`environment` above holds every
        # variable, the API key included), and both lines pass through daemon.kernel.redact.
        structlog.get_logger("metaeng.cli").exception("cli.crashed", command=args.command)
        context.err.line(f"internal error: {type(exc).__name__}: {exc} (traceback in the log above)")
        return 3
