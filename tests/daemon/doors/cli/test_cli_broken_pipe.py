"""A reader that stops early (`metaeng-daemon ... | head`) is not a crash."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the CLI in a subprocess whose reader stops early


def test_output_into_a_closed_pipe_exits_141_without_a_traceback(tmp_path: Path) -> None:
    code = "from daemon.doors.cli import main; raise SystemExit(main())"
    args = [
        sys.executable,
        "-c",
        code,
        "--config",
        "/x.yaml",
        "lab",
        "grid",
        "--scenarios",
        "builtin:published",
        "--all",
    ]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    errors = tmp_path / "stderr"
    with errors.open("wb") as sink:  # a file: reading a pipe would wait as long as the child lives
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=sink, env=env)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before the first line is written
    code = proc.wait(timeout=120)
    stderr = errors.read_text()
    assert code == 141, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr and "Exception ignored" not in stderr
