"""The daemon run as an unprivileged user, from a copy of this checkout that user can read.

Permissions mean nothing to root, so a test about files the daemon cannot read runs it as
`nobody` (through `setpriv`) when the suite runs as root, else as the test user itself.
`nobody` cannot read a checkout cloned under a folder only root may enter (a `mktemp -d`
folder, root's home): run from there, the daemon failed with "No module named daemon", or
imported whatever other checkout an editable install points at. So it runs from a
`ReadableCheckout`: this checkout's packages copied into a folder every user can enter,
first on the daemon's `sys.path`. A probe run as that user checks that the interpreter and
the dependencies load and that the copy is what is imported. When the dependencies sit in
a virtual environment inside the closed folder too (the README's `.venv`), its packages are
mirrored beside the copy (hard links, no second copy of the bytes) and the interpreter the
venv links to is run. If the probe still fails, the test fails naming the folder the user
cannot enter. Never a skip.
"""

from __future__ import annotations

import compileall
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("daemon", "memory_engine", "skills_engine", "workspace")
NOBODY = 65534
# What the daemon needs to start: our packages from the copy, and the dependencies.
PROBE = "import daemon, daemon.doors.cli, pydantic, yaml, structlog, openai, psycopg; print(daemon.__file__)"


def prefix() -> list[str]:
    """The command that drops to `nobody` under root; nothing when the suite is unprivileged."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.fail("tests run as root and setpriv is missing: cannot drop to an unprivileged user")
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


def closed_folder(path: Path) -> Path | None:
    """The first folder on the way to `path` (itself included) that others may not enter, or None."""
    for folder in [*reversed(path.parents), path]:
        try:
            mode = folder.stat().st_mode
        except OSError:
            return folder
        if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
            return folder
    return None


def shared_temp() -> Path:
    """A temp folder every user can enter: the system's, else /tmp or /var/tmp."""
    candidates = [Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp")]
    for base in candidates:
        if base.is_dir() and closed_folder(base) is None:
            return base
    pytest.fail(
        "no temp folder an unprivileged user can enter: "
        + ", ".join(f"{base} (closed at {closed_folder(base)})" for base in candidates)
    )


def _readable(path: Path) -> None:
    for item in (path, *path.rglob("*")):
        item.chmod(0o755 if item.is_dir() else 0o644)


def _mirror(source: Path, target: Path) -> None:
    """`source`'s tree at `target`, every folder enterable: a world-readable file hard-linked
    (its mode is the original's and stays untouched), any other copied readable."""
    for folder, _dirs, files in os.walk(source):
        here = target / Path(folder).relative_to(source)
        here.mkdir(parents=True, exist_ok=True)
        here.chmod(0o755)
        for name in files:
            original, twin = Path(folder) / name, here / name
            if original.is_symlink() or not original.is_file():
                continue
            if original.stat().st_mode & stat.S_IROTH:
                try:
                    os.link(original, twin)
                    continue
                except OSError:
                    pass  # another file system: copy
            shutil.copy2(original, twin)
            twin.chmod(0o755 if os.access(original, os.X_OK) else 0o644)


@dataclass(frozen=True)
class ReadableCheckout:
    """A world-readable copy of this checkout's packages, and how to run the daemon from it."""

    root: Path
    path: tuple[Path, ...]
    python: str = sys.executable

    @classmethod
    def create(cls, repo: Path = REPO) -> ReadableCheckout:
        """The copy, probed as the unprivileged user; fails the test naming what that user cannot reach."""
        root = Path(tempfile.mkdtemp(prefix="metaeng-readable-", dir=shared_temp()))
        for package in PACKAGES:
            shutil.copytree(repo / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
        # Compiled here, once: the unprivileged user may not write the copy's __pycache__.
        compileall.compile_dir(root, quiet=1)
        _readable(root)
        checkout = cls(root, (root,))
        failure = checkout.probe()
        if failure is None:
            return checkout
        libraries = {Path(sysconfig.get_paths()[kind]) for kind in ("purelib", "platlib")}
        if sys.prefix != sys.base_prefix and any(closed_folder(lib) for lib in libraries):
            # The venv's packages are where the user cannot go: mirror them beside the copy.
            mirrored = []
            for index, library in enumerate(sorted(libraries)):
                _mirror(library, root / f"site-packages-{index}")
                mirrored.append(root / f"site-packages-{index}")
            # The venv's interpreter is a link into the closed folder; the one it links to may not be.
            base = os.path.realpath(sys.executable)
            checkout = cls(root, (root, *mirrored), sys.executable if closed_folder(Path(base)) else base)
            failure = checkout.probe()
            if failure is None:
                return checkout
        checkout.remove()
        needed = [Path(sys.executable), Path(os.path.realpath(sys.executable)), *libraries]
        closed = sorted({str(folder) for path in needed if (folder := closed_folder(path)) is not None})
        where = f"; that user cannot enter {', '.join(closed)}" if closed else ""
        pytest.fail(
            f"the daemon runs as {'nobody' if prefix() else 'the test user'} in this test, from a copy of this "
            f"checkout, and cannot start ({failure}){where}: the interpreter {sys.executable} and its "
            "packages must be readable by that user"
        )

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def run(
        self, args: list[str], env: Mapping[str, str], timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        """`python ARGS` as the unprivileged user, importing our packages from the copy."""
        return subprocess.run(
            [*prefix(), self.python, *args],
            cwd=self.root,
            env={"PATH": os.environ["PATH"], "PYTHONPATH": os.pathsep.join(map(str, self.path)), **env},
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def probe(self) -> str | None:
        """None if the unprivileged user can start the daemon from the copy, else why not."""
        done = self.run(["-c", PROBE], {})
        loaded = done.stdout.strip()
        if done.returncode == 0 and loaded == str(self.root / "daemon" / "__init__.py"):
            return None
        if done.returncode == 0:
            return f"it imported {loaded}, not the copy"
        lines = done.stderr.strip().splitlines()
        return lines[-1] if lines else f"exit {done.returncode}"
