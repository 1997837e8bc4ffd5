"""`metaeng-daemon console` and `run` with `console:`: where it listens, and what it refuses."""

from __future__ import annotations

import signal
import socket
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from daemon.doors.console.auth import token_path
from daemon.doors.console.http_server import listen_on
from daemon.kernel.errors import DaemonError
from tests.daemon.doors.console.helpers import review_deployment
from tests.daemon.doors.console.process import ConsoleProcess, free_port
from tests.daemon.doors.service.helpers import Daemon, wait_for
from tests.support.deploy import run_cli


def _status(url: str) -> int:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(url, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except (urllib.error.URLError, OSError):
        return 0  # not listening (yet)


@pytest.mark.parametrize("bind", ["0.0.0.0:8765", "192.168.1.10:8765", "[::]:8765", "example.org:80"])
def test_a_bind_that_is_not_loopback_is_refused_without_allow_remote(root: Path, bind: str) -> None:
    config = review_deployment(root)
    result = run_cli(config, "console", "--bind", bind)
    assert result.code == 1
    assert "is not a loopback address" in result.err and "SSH port forwarding" in result.err
    assert not token_path(root / "state").exists()


@pytest.mark.parametrize("bind", ["localhost", "127.0.0.1:0", "127.0.0.1:70000", ":8765"])
def test_a_malformed_bind_is_refused(bind: str) -> None:
    with pytest.raises(DaemonError, match="must be HOST:PORT"):
        listen_on(bind, False)


def test_loopback_binds_need_no_flag() -> None:
    assert listen_on("127.0.0.1:8765", False).remote is False
    assert listen_on("[::1]:8765", False).url == "http://[::1]:8765/"
    assert listen_on("0.0.0.0:8765", True).remote is True


@pytest.mark.slow
def test_the_console_subprocess_prints_its_link_and_serves_only_with_the_token(root: Path) -> None:
    config = review_deployment(root)
    console = ConsoleProcess(config, root)
    try:
        link = console.url()
        token = token_path(root / "state").read_text().strip()
        assert link == f"http://127.0.0.1:{console.port}/?token={token}"
        base = link.split("?")[0]
        assert _status(base + "agents") == 401
        assert _status(base + "agents?token=wrong") == 401
        assert _status(link) == 303
    finally:
        console.close()


@pytest.mark.slow
def test_allow_remote_warns(root: Path) -> None:
    config = review_deployment(root)
    console = ConsoleProcess(config, root, "--bind", f"0.0.0.0:{free_port()}", "--allow-remote")
    try:
        console.url()
        assert "warning: the console listens on 0.0.0.0, reachable from other machines" in console.err.read_text()
    finally:
        console.close()


@pytest.mark.slow
def test_run_serves_the_console_when_configured(root: Path, start_daemon: Callable[..., Daemon]) -> None:
    port = free_port()
    config = review_deployment(root, mode="on_demand", console={"bind": f"127.0.0.1:{port}"})
    daemon = start_daemon(config)
    daemon.wait_ready()
    daemon.wait_event("console.listening")
    token = token_path(root / "state").read_text().strip()
    wait_for("the console in `run`", lambda: _status(f"http://127.0.0.1:{port}/agents") == 401)
    assert _status(f"http://127.0.0.1:{port}/agents?token={token}") == 303
    assert token not in daemon.output()  # the log names the token file, never the token
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0


def test_a_port_already_taken_is_one_clear_error_and_no_link(root: Path) -> None:
    config = review_deployment(root)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli(config, "console", "--bind", f"127.0.0.1:{port}")
    assert result.code == 1
    assert result.err.startswith(f"error: console cannot listen on 127.0.0.1:{port}: ") and "in use" in result.err
    assert "token=" not in result.out + result.err
