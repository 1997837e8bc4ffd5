from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.service.helpers import Daemon


@pytest.fixture
def start_daemon(tmp_path: Path) -> Iterator[Callable[..., Daemon]]:
    """Start `metaeng-daemon run` subprocesses; every one still alive is killed at teardown."""
    started: list[Daemon] = []

    def start(config: Path, env: dict[str, str] | None = None) -> Daemon:
        daemon = Daemon(config, tmp_path, env)
        started.append(daemon)
        return daemon

    yield start
    for daemon in started:
        daemon.close()
