"""A real `metaeng-daemon console` subprocess on a free loopback port."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.daemon.doors.service.helpers import wait_for


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ConsoleProcess:
    def __init__(self, config: Path, workdir: Path, *args: str) -> None:
        self.port = free_port()
        self.out = workdir / f"console-{self.port}.out"
        self.err = workdir / f"console-{self.port}.err"
        bind = [] if any(a.startswith("--bind") for a in args) else ["--bind", f"127.0.0.1:{self.port}"]
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "daemon", "--config", str(config), "console", *bind, *args],
                stdout=out,
                stderr=err,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                cwd=workdir,
            )

    def url(self) -> str:
        """The login link the console printed, once it answers HTTP."""
        found = wait_for("the console's link", lambda: re.search(r"console: (\S+)", self.out.read_text()) or self._died(), 20)
        assert self.proc.poll() is None, f"console exited early:\n{self.out.read_text()}{self.err.read_text()}"
        link = found.group(1)
        wait_for("the console to answer", lambda: self._answers(link), 20)
        return link

    def _died(self) -> bool:
        return self.proc.poll() is not None

    def _answers(self, link: str) -> bool:
        try:
            urllib.request.urlopen(link.split("?")[0] + "static/console.css", timeout=2).close()
        except (urllib.error.URLError, OSError):
            return False
        return True

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
