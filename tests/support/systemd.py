"""`systemd-analyze verify` of a unit file, for the system manager or a user manager.

Never a skip: without systemd-analyze the test fails saying what to install. A user-mode
verify starts a throwaway user manager inside the process, which needs $XDG_RUNTIME_DIR
(a private folder); a container or CI job has none, and without it systemd-analyze only
says "Failed to initialize manager". It gets a fresh one under `scratch`, and a HOME there
too, so neither the person's own user units nor the real home are read or written.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def verify(unit: Path, scratch: Path, user: bool = False) -> subprocess.CompletedProcess[str]:
    """`systemd-analyze [--user] verify` of `unit` (unknown directives, missing ExecStart binaries)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail(
            "systemd-analyze is not installed (Debian: apt-get install systemd): the unit cannot be verified"
        )
    env = dict(os.environ)
    command = [analyze]
    if user:
        runtime = scratch / "xdg-runtime"
        runtime.mkdir(mode=0o700, exist_ok=True)
        (scratch / "analyze-home").mkdir(exist_ok=True)
        env.update(XDG_RUNTIME_DIR=str(runtime), HOME=str(scratch / "analyze-home"))
        for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS"):
            env.pop(key, None)
        command.append("--user")
    return subprocess.run(
        [*command, "verify", "--man=no", "--recursive-errors=no", str(unit)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def assert_verified(unit: Path, scratch: Path, user: bool = False) -> None:
    """`verify` passed without a word: systemd-analyze exits 0 even after a warning."""
    result = verify(unit, scratch, user)
    assert result.returncode == 0 and result.stderr == "", result.stderr
