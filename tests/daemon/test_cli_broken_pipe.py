"""A reader that stops early (`metaeng-daemon ... | head`) is not a crash."""

from __future__ import annotations

import os
import subprocess
import sys


def test_output_into_a_closed_pipe_exits_141_without_a_traceback() -> None:
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
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line is written
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr and "Exception ignored" not in stderr
