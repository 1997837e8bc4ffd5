"""Line-level three-way merge of one text file: the one door to `git merge-file` (fork merges, undo).

`git merge-file -p --diff3` runs on three temporary files in a private scratch folder
(removed afterwards) with a hermetic environment: no system or global git config, C
locale. Its exit code is the number of conflicts (0 = clean, capped at 127); anything
above is an error. The output keeps diff3-style conflict markers for the deep model.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from daemon.kernel.errors import DaemonError

# One pattern per kind of conflict-marker line: `<<<<<<< x`, `||||||| x`, `=======`, `>>>>>>> x`.
MARKER_LINES = tuple(
    re.compile(pattern, re.MULTILINE)
    for pattern in (r"^<{7}(?: |$)", r"^\|{7}(?: |$)", r"^={7}$", r"^>{7}(?: |$)")
)


class MergeToolError(DaemonError):
    """`git merge-file` is missing or failed."""


def merge_text(ours: bytes, base: bytes, theirs: bytes) -> tuple[bytes, int]:
    """(merged text, number of conflicts); conflicts are left as diff3 markers in the text."""
    git = shutil.which("git")
    if git is None:
        raise MergeToolError("git is not installed or not on PATH: three-way merges need `git merge-file`")
    with tempfile.TemporaryDirectory(prefix="metaeng-merge-") as scratch:
        paths = []
        for label, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = Path(scratch) / label
            path.write_bytes(data)
            paths.append(str(path))
        env = {
            "PATH": os.defpath,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "HOME": scratch,
            "LC_ALL": "C",
        }
        command = [git, "merge-file", "-p", "--diff3", "-L", "ours", "-L", "base", "-L", "theirs", *paths]
        proc = subprocess.run(command, capture_output=True, env=env, check=False, timeout=60)
    if not 0 <= proc.returncode <= 127:
        detail = proc.stderr.decode("utf-8", "replace").strip()
        raise MergeToolError(f"git merge-file failed (exit {proc.returncode}): {detail}")
    return proc.stdout, proc.returncode


def has_markers(text: str, *allowed_sources: str) -> bool:
    """True if `text` holds conflict markers: more lines of any marker kind than the source with
    the most of them (a skill that shows conflict markers as an example keeps its example)."""
    return any(
        len(kind.findall(text)) > max((len(kind.findall(s)) for s in allowed_sources), default=0)
        for kind in MARKER_LINES
    )
