"""A throwaway PostgreSQL server for the tests: `initdb` + `pg_ctl` in a temp folder, on a loopback port.

PostgreSQL refuses to run as root, so under root the server runs as an unprivileged
system user (created once, `metaeng-pg`) through `runuser`. Password authentication
(scram-sha-256) is on, so the tests exercise the password coming from the environment.
The binaries are found on PATH or under /usr/lib/postgresql/*/bin; `.ci/run` installs
Debian's `postgresql` when they are missing.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

SERVER_USER = "metaeng-pg"
SUPERUSER = "metaeng"
PASSWORD = "pg-test-PASSWORD-7f3a"


def find_bin_dir() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(os.path.realpath(on_path)).parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "pg_ctl").exists() and (Path(candidate) / "initdb").exists():
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_user() -> str | None:
    """The user the server runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        subprocess.run(["id", "-u", SERVER_USER], check=True, capture_output=True)
    except subprocess.CalledProcessError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVER_USER],
            check=True,
            capture_output=True,
        )
    return SERVER_USER


@dataclass
class PostgresServer:
    bin_dir: Path
    root: Path
    port: int
    user: str | None

    @property
    def data(self) -> Path:
        return self.root / "data"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD + "\n", encoding="utf-8")
        if self.user is not None:
            shutil.chown(self.root, self.user)
            shutil.chown(pwfile, self.user)
        self._run(
            "initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=scram-sha-256", f"--pwfile={pwfile}",
            "--no-sync", "-E", "UTF8", "--locale=C",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        result = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "start", check=False)
        if result.returncode != 0:
            log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {result.stderr}\n{log[-2000:]}")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[Any]:
        return psycopg.connect(self.url(database), password=PASSWORD, autocommit=True, connect_timeout=5)

    def create_database(self, name: str) -> str:
        with self.connect() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    @contextmanager
    def stopped(self) -> Iterator[None]:
        """Stop the server for the block, then start it again (on the same port and data)."""
        self.stop()
        try:
            yield
        finally:
            self.start()


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise RuntimeError(
            "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or under /usr/lib/postgresql/*/bin; "
            "install Debian's `postgresql` package (`apt-get install postgresql`; .ci/run does it)"
        )
    user = _server_user()
    root = Path(tempfile.mkdtemp(prefix="metaeng-pg-"))
    server = PostgresServer(bin_dir, root, _free_port(), user)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
