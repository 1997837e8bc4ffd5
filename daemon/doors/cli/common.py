"""What every command gets: environment, output, clock, and the loaded deployment."""

from __future__ import annotations

import argparse
import math
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from daemon.doors.output import Output

if TYPE_CHECKING:
    # Imported where used: a command that reads no config (`lab grid`) or applies no run
    # (`status`, `config check`) starts without the config models or the run machinery.
    from daemon.config import Deployment
    from daemon.doors.environment import ModelAccess
    from daemon.run.manual import ManualResult

# How the config path was chosen: `--config`, $METAENG_CONFIG, or the default path.
ConfigOrigin = Literal["option", "environment", "default"]


class Command(Protocol):
    def register(self, sub: argparse._SubParsersAction) -> None: ...


@dataclass(frozen=True)
class CliContext:
    env: Mapping[str, str] = field(repr=False)  # holds the API key: never in a repr or a traceback
    out: Output
    err: Output
    clock: Callable[[], datetime]
    config_path: str
    # How this program was started, so a printed command works as shown (a venv's
    # `.venv/bin/metaeng-daemon` is not on PATH).
    program: str = "metaeng-daemon"
    config_origin: ConfigOrigin = "option"  # how `config_path` was chosen (`config_choice`)

    def command(self, *args: str) -> str:
        """A command line that runs this program on this config with `args`, shell-quoted."""
        words = (*shlex.split(self.program), "--config", self.config_path, *args)
        return " ".join(shlex.quote(word) for word in words)

    def missing_config(self, path: Path) -> str:
        """Why no file at `path` was read — how the path was chosen — and how to get one."""
        init = self.command("init")
        if self.config_origin == "option":
            return (
                f"no config file at {path} (given with --config); write one there with `{init}`, "
                "or give --config the path of an existing one"
            )
        if self.config_origin == "environment":
            return (
                f"no config file at {path} (from $METAENG_CONFIG); write one there with `{init}`, "
                "or point $METAENG_CONFIG or --config at an existing one"
            )
        return (
            f"no config file at {path} (the default: neither --config nor $METAENG_CONFIG was given); "
            f"write one there with `{init}`, or name yours with --config PATH or $METAENG_CONFIG"
        )

    def deployment(self) -> Deployment:
        """The loaded deployment; its secrets (API key, `redact_env`) are registered for redaction."""
        from daemon.config import load_deployment
        from daemon.doors.environment import register_secrets
        from daemon.wiring.derived import delivering

        deployment = load_deployment(Path(self.config_path), self.env)
        register_secrets(deployment.model, self.env, deployment.config.redact_env)
        return delivering(deployment)

    def model_access(self, deployment: Deployment) -> ModelAccess:
        """The model key or why there is none; raises InvalidApiKey for a key HTTP cannot carry."""
        from daemon.doors.environment import model_access

        return model_access(deployment.model, self.env, deployment.config.redact_env)


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document for scripts")


def at_least_one(text: str) -> int:
    """An argparse type: a whole number of 1 or more (a usage error names the option otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def wait_seconds(text: str) -> float:
    """An argparse type for --wait: finite seconds, 0 or more (filelock waits forever below 0)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, 0 or more, got {text}")
    return value


def add_agent(parser: argparse.ArgumentParser, required: bool = True) -> None:
    parser.add_argument("--agent", required=required, help="agent name from the config")


def print_manual_run(result: ManualResult, as_json: bool, context: CliContext) -> int:
    """What a command that applied a person's change as a run prints: with --json its run id,
    reason and details; else the reason and how to undo it."""
    if as_json:
        details = result.changeset.details
        context.out.json(
            {
                "run_id": result.run_id,
                "reason": result.changeset.reason,
                **(details.model_dump(mode="json") if details is not None else {}),
            }
        )
        return 0
    context.out.line(result.changeset.reason)
    if result.run_id:
        context.out.line(f"run {result.run_id}; undo with: {context.command('undo', result.run_id)}")
    return 0
