from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.daemon.doors.service.helpers import Daemon
from tests.support.fake_model import FakeModelServer


@pytest.fixture(autouse=True)
def hermetic(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Never touch the real $HOME, git config or API keys."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for key in list(os.environ):
        if key.startswith("GIT_") or key in (
            "OPENAI_API_KEY",
            "METAENG_CONFIG",
            "STATE_DIRECTORY",
            "METAENG_CRASH_AT",
        ):
            monkeypatch.delenv(key, raising=False)
    yield
    assert not any(home.iterdir()), f"a test wrote into $HOME: {list(home.iterdir())}"


@pytest.fixture
def fake_model() -> Iterator[FakeModelServer]:
    server = FakeModelServer().start()
    yield server
    server.stop()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first: pytest-xdist hands tests out in collection order, so a
    minutes-long test collected last would run alone at the end while the other core idles."""
    first = [i for i in items if i.get_closest_marker("timeout") and i.get_closest_marker("slow")]
    items[:] = first + [i for i in items if i not in first]
