"""The sd_notify protocol against a datagram socket in tmp_path."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from daemon.doors.service.notify import notify, watchdog_seconds
from tests.daemon.doors.service.helpers import NotifySocket


def test_notify_sends_one_datagram_of_lines_to_a_path_socket(tmp_path: Path) -> None:
    server = NotifySocket(tmp_path / "n.sock")
    try:
        assert notify({"NOTIFY_SOCKET": str(server.path)}, "READY=1", "STATUS=serving 2 agents\nnow")
        assert server.drain() == ["READY=1\nSTATUS=serving 2 agents now"]
    finally:
        server.close()


def test_notify_reaches_an_abstract_socket() -> None:
    name = f"metaeng-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind("\0" + name)
    server.settimeout(2)
    try:
        assert notify({"NOTIFY_SOCKET": "@" + name}, "WATCHDOG=1")
        assert server.recv(1024) == b"WATCHDOG=1"
    finally:
        server.close()


def test_notify_without_a_socket_or_with_a_dead_one_is_a_silent_no_op(tmp_path: Path) -> None:
    assert notify({}, "READY=1") is False
    assert notify({"NOTIFY_SOCKET": "vsock:2:1234"}, "READY=1") is False
    assert notify({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens.sock")}, "READY=1") is False


def test_watchdog_interval_is_honoured_only_for_this_pid() -> None:
    assert watchdog_seconds({"WATCHDOG_USEC": "120000000"}, 42) == 120.0
    assert watchdog_seconds({"WATCHDOG_USEC": "120000000", "WATCHDOG_PID": "42"}, 42) == 120.0
    assert watchdog_seconds({"WATCHDOG_USEC": "120000000", "WATCHDOG_PID": "43"}, 42) is None
    assert watchdog_seconds({"WATCHDOG_USEC": "0"}, 42) is None
    assert watchdog_seconds({"WATCHDOG_USEC": "soon"}, 42) is None
    assert watchdog_seconds({}, 42) is None
