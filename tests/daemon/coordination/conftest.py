"""Fixtures of the coordination tests: one PostgreSQL server per session, one database per test."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest

from daemon.coordination.backends import close_all
from tests.support.postgres import PostgresServer, postgres_server

_numbers = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    try:
        with postgres_server() as server:
            yield server
    except RuntimeError as exc:
        cannot_install = os.environ.get("METAENG_PG_UNAVAILABLE")  # set by .ci/run when apt-get failed
        if cannot_install:
            pytest.skip(f"PostgreSQL server cannot be installed here: {cannot_install}")
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def pg_url(pg_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty database on the session's server; pools opened on it are closed afterwards."""
    if not pg_server.running():
        pg_server.start()  # a test that stopped it and failed before starting it again
    url = pg_server.create_database(f"t{next(_numbers)}")
    yield url
    close_all()
