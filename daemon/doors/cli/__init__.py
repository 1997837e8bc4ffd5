"""The `metaeng-daemon` command line: a thin layer over the library.

Exit codes: 0 success; 1 an expected failure (bad config, busy agent, refused undo, a
failed pass), with a one-line message naming what is at fault; 3 an unexpected error,
with the traceback in the log; 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence

from daemon.doors.argv import command_of
from daemon.kernel.errors import ConfigNotFound, DaemonError

# `typing` (like datetime, shlex and shutil, imported where used) is left out of `--help` and
# `--version`, which start at the cost of a process importing argparse; mypy reads this name.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from typing import TextIO

    from daemon.doors.cli.common import ConfigOrigin

# Every command: its module under daemon/doors/cli and its one-line help, in --help order.
# A process imports only the module of the command it runs (`--help` imports none): the
# modules pull in pydantic, the OpenAI SDK, APScheduler… and `config check` runs as systemd's
# ExecStartPre, `status` from scripts. tests/daemon/doors/cli/test_cli.py checks the lines below
# against what each module registers.
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("init_cmd", "find the agent runtimes on this machine, write a config for the projects you pick"),
    "once": ("once_cmd", "run the agent's enabled passes once, now"),
    "runs": ("runs_cmd", "list runs recorded in the agents' stores"),
    "show": ("runs_cmd", "print a run's report and diff"),
    "undo": ("runs_cmd", "revert a run as a new run"),
    "config": ("config_cmd", "validate or show the configuration"),
    "memory": ("memory_cmd", "query, list or forget facts; see what was refused"),
    "review": ("review_cmd", "list, show, approve or reject proposals"),
    "skills": ("skills_cmd", "list an agent's skills, run the preservation guard, pin, unpin or restore a skill"),
    "curator": ("curator_cmd", "move learned skills nobody uses to the archive now, or show what would move (--dry-run)"),
    "lab": (
        "lab_cmd",
        "tune the memory settings against fixed scenarios (grid, campaign, distill, verify, propose)",
    ),
    "breaker": ("breaker_cmd", "show or reset an agent's model-call circuit breaker"),
    "maintenance": ("maintenance_cmd", "apply retention and pack the agents' git stores now (git gc)"),
    "run": ("run_cmd", "run the daemon: every agent's passes on its cadence, until stopped"),
    "status": (
        "status_cmd",
        "show each agent's toggles, next runs, caps and spend today, pending turns, queue",
    ),
    "transcripts": ("transcripts_cmd", "show the transcript turns the passes would read next (read-only)"),
    "impact": (
        "impact_cmd",
        "show the corrections and standing instructions a person gave, what was learned, and what was said again",
    ),
    "mcp": ("mcp_cmd", "serve an agent's facts and skills to its runtime over MCP (stdio, read-only)"),
    "hook": ("hook_cmd", "answer a runtime's prompt hook with the facts and skills that bear on the prompt"),
    "install-service": (
        "service_cmd",
        "write the systemd unit for this deployment and print the remaining steps",
    ),
    "console": (
        "console_cmd",
        "serve the local web console (agents, runs with undo, review queue, memory, skills, lab)",
    ),
}
DEFAULT_CONFIG = "/etc/metaeng-daemon/config.yaml"


def build_parser(env: Mapping[str, str], only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `only`, that command in full and the others by name."""
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
        default=None,  # unset: `config_choice` says which path and why
        help=f"deployment YAML file (default: $METAENG_CONFIG, else {DEFAULT_CONFIG} if it exists, else ~/.config/metaeng-daemon/config.yaml if it exists or you are not root)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress (info level) to stderr")
    parser.add_argument("--version", action=_Version, help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    if only in COMMANDS:  # the command being run, alone: the others are never chosen
        importlib.import_module(f"daemon.doors.cli.{COMMANDS[only][0]}").register(sub)
    elif only is None:
        for name, (module, _) in COMMANDS.items():
            if name not in sub.choices:  # else registered by its module with an earlier command
                importlib.import_module(f"daemon.doors.cli.{module}").register(sub)
    else:
        _list_commands(sub)
    return parser


def _list_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Every command by name and help line, for `--help` and the "invalid choice" message,
    without building a parser for each: argparse looks up its translations on disk for every
    parser it builds (three lookups each, uncached), which cost `--help` more than importing
    argparse. A command chosen here anyway (`command_of` missed it) parses to no handler,
    and `main` parses again in full."""
    unparsed = _Unparsed(add_help=False)
    for name, (_, help_line) in COMMANDS.items():
        sub._name_parser_map[name] = unparsed
        sub._choices_actions.append(sub._ChoicesPseudoAction(name, (), help_line))


class _Unparsed(argparse.ArgumentParser):
    """Stands for every command in the listing: takes the command's words and sets nothing."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        return namespace or argparse.Namespace(), []


class _Version(argparse.Action):
    """`--version`, looked up only when asked for, without importing importlib.metadata."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=kwargs.get("help"))  # type: ignore[arg-type]

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from daemon.doors.version import installed_version

        version = installed_version("metaeng-daemon") or "unknown (not installed)"
        parser._print_message(f"metaeng-daemon {version}\n", sys.stdout)
        parser.exit()


def user_config(env: Mapping[str, str]) -> str | None:
    """A person's own config: `$XDG_CONFIG_HOME/metaeng-daemon/config.yaml` (`init` writes it
    there for a user; `install-service --user` reads it); None without either variable."""
    base = env.get("XDG_CONFIG_HOME") or (os.path.join(env["HOME"], ".config") if env.get("HOME") else None)
    return os.path.join(base, "metaeng-daemon", "config.yaml") if base else None


def config_choice(option: str | None, env: Mapping[str, str]) -> tuple[str, ConfigOrigin]:
    """The config path this command line names and how it was chosen: `--config`, else a
    non-empty $METAENG_CONFIG, else the default: DEFAULT_CONFIG where it exists (a system
    deployment), else the person's own (`user_config`) where that exists, else DEFAULT_CONFIG
    for root and the person's own for anyone else."""
    if option is not None:
        return option, "option"
    if env.get("METAENG_CONFIG"):
        return env["METAENG_CONFIG"], "environment"
    mine = user_config(env)
    if mine is None or os.path.exists(DEFAULT_CONFIG) or (not os.path.exists(mine) and os.geteuid() == 0):
        return DEFAULT_CONFIG, "default"
    return mine, "default"


def program_name(argv0: str, executable: str) -> str:
    """How to start this program again as it was started: a command that works when pasted.

    `python -m daemon` stays that (with this interpreter); an executable found on PATH
    under its own name is that name; anything else is the path as typed.
    """
    import shlex
    import shutil

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
    words = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(environment, only=command_of(words) or "").parse_args(words)
    if not hasattr(args, "handler"):  # the command was not where command_of looked: parse in full
        args = build_parser(environment).parse_args(words)
    level = "info" if args.verbose else environment.get("METAENG_LOG_LEVEL", "warning")
    # Imported after parsing: `--help` and `--version` need neither logging nor config models.
    from datetime import UTC, datetime

    from daemon.doors import logs
    from daemon.doors.cli.common import CliContext
    from daemon.doors.output import Output

    logs.configure_when_used(err_stream, level=level)

    config_path, config_origin = config_choice(args.config, environment)
    context = CliContext(
        env=environment,
        out=Output(stdout),
        err=Output(err_stream),
        clock=clock or (lambda: datetime.now(UTC)),
        config_path=config_path,
        config_origin=config_origin,
        program=program_name(sys.argv[0], sys.executable) if argv is None else "metaeng-daemon",
    )
    try:
        handler: Callable[[argparse.Namespace, CliContext], int] = args.handler
        return handler(args, context)
    except ConfigNotFound as exc:
        context.err.line(f"error: {context.missing_config(exc.path)}")
        return 1
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
        import structlog

        structlog.get_logger("metaeng.cli").exception("cli.crashed", command=args.command)
        context.err.line(f"internal error: {type(exc).__name__}: {exc} (traceback in the log above)")
        return 3
