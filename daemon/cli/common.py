"""What every command gets: environment, output, clock, and the loaded deployment."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from daemon.config import Deployment, load_deployment
from daemon.environment import ModelAccess, model_access
from daemon.output import Output


class Command(Protocol):
    def register(self, sub: argparse._SubParsersAction) -> None: ...


@dataclass(frozen=True)
class CliContext:
    env: Mapping[str, str]
    out: Output
    err: Output
    clock: Callable[[], datetime]
    config_path: str

    def deployment(self) -> Deployment:
        return load_deployment(Path(self.config_path), self.env)

    def model_access(self, deployment: Deployment) -> ModelAccess:
        return model_access(deployment.model, self.env)


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document for scripts")


def add_agent(parser: argparse.ArgumentParser, required: bool = True) -> None:
    parser.add_argument("--agent", required=required, help="agent name from the config")
