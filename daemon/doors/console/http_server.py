"""Serving the console with uvicorn: in the foreground (`console`) or in a thread of `run`.

A bind that is not loopback is refused unless allowed explicitly, and then warned about:
the console can rewrite agents' instructions. uvicorn's access log is off, since a first
visit carries the token in its query string; the console logs its own events instead.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import structlog
import uvicorn

from daemon.config.door_settings import ConsoleSettings, is_loopback, split_bind
from daemon.config.resolve import Deployment
from daemon.doors.console.app import build_app
from daemon.doors.console.auth import Sessions, load_or_create_token, token_path
from daemon.kernel.errors import DaemonError

log = structlog.get_logger("metaeng.console")


@dataclass(frozen=True)
class Listen:
    host: str
    port: int
    remote: bool  # not loopback: allowed explicitly, warned about

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


def listen_on(bind: str, allow_remote: bool) -> Listen:
    """Where to listen; raises DaemonError for a bad bind or a non-loopback one not allowed."""
    try:
        host, port = split_bind(bind)
    except ValueError as exc:
        raise DaemonError(str(exc)) from exc
    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise DaemonError(
            f"console bind {bind} is not a loopback address; the console can change agents' "
            "instructions, so reach it over SSH port forwarding (docs/how-to/console.md), or pass "
            "--allow-remote (console.allow_remote: true) if you really mean it"
        )
    return Listen(host, port, remote)


@dataclass
class Served:
    """A console ready to serve: its uvicorn server, the socket already bound, the login token."""

    server: uvicorn.Server
    sock: socket.socket
    token: str

    def run(self) -> None:
        """Serve until told to stop (blocking); the socket is closed afterwards."""
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self.sock.close()


def bind(listen: Listen) -> socket.socket:
    """A socket bound to `listen`; DaemonError naming the address if it cannot be (already in use …).

    Bound before anything is printed or logged as listening, so a taken port is one clear
    error, not a link to whatever process holds it.
    """
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(listen.host, listen.port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise DaemonError(f"console cannot listen on {listen.host}:{listen.port}: {exc.strerror or exc}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise DaemonError(f"console cannot listen on {listen.host}:{listen.port}: {exc.strerror or exc}") from None
    return sock


def make_server(
    deployment: Callable[[], Deployment],
    state_dir: Path,
    settings: ConsoleSettings,
    listen: Listen,
    *,
    env: Mapping[str, str],
    clock: Callable[[], datetime],
) -> Served:
    """The console bound to `listen`, and its token (the token file is created if missing)."""
    sock = bind(listen)
    try:
        token = load_or_create_token(state_dir)
    except BaseException:
        sock.close()
        raise
    app = build_app(
        deployment, Sessions(token), clock=clock, env=env, hostnames=(listen.host, *settings.hostnames)
    )
    config = uvicorn.Config(
        app, host=listen.host, port=listen.port, access_log=False, log_config=None, lifespan="off"
    )
    if listen.remote:
        log.warning("console.remote_bind", bind=f"{listen.host}:{listen.port}")
    log.info("console.listening", url=listen.url, token_file=str(token_path(state_dir)))
    return Served(uvicorn.Server(config), sock, token)


class ConsoleThread:
    """The console inside `metaeng-daemon run`: uvicorn in a daemon thread, stopped with the service."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.server = served.server
        self.thread = threading.Thread(target=self._serve, name="console", daemon=True)

    def _serve(self) -> None:
        try:
            self.served.run()
        except Exception:  # the console failing must never take the scheduler down
            log.exception("console.crashed")

    def start(self) -> ConsoleThread:
        self.thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
