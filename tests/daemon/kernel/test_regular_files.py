"""Opening a file a person controls: the descriptor has one owner at a time, and is closed once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from daemon.kernel.regular_files import NotRegular, open_regular


class Interrupted(BaseException):
    """An interrupt landing inside the open (a Ctrl-C, a signal handler that raises)."""


def test_a_failure_after_fdopen_took_the_descriptor_never_closes_its_number_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"{}\n")
    theirs = tmp_path / "theirs"
    theirs.write_bytes(b"theirs")
    numbers: list[int] = []
    fdopen = os.fdopen

    def fdopen_failing_after_it_took(fd: int, *args: Any, **kwargs: Any) -> Any:
        # The file object takes the descriptor and, failing, closes it (io.open's own error
        # path); another thread's open gets the freed number at once.
        fdopen(fd, *args, **kwargs).close()
        other = os.open(theirs, os.O_RDONLY)
        if other != fd:
            os.dup2(other, fd)
            os.close(other)
        numbers.append(fd)
        raise Interrupted

    monkeypatch.setattr(os, "fdopen", fdopen_failing_after_it_took)
    with pytest.raises(Interrupted):
        open_regular(path)
    (number,) = numbers
    try:
        assert os.read(number, 6) == b"theirs", "open_regular closed a descriptor it no longer owned"
    finally:
        os.close(number)


def test_a_folder_is_refused_and_its_descriptor_closed(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(NotRegular, match="a folder"):
        open_regular(tmp_path)
    assert len(os.listdir("/proc/self/fd")) == before
