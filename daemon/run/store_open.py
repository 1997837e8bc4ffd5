"""Opening an agent's store (`daemon.run.store`): created bare in the state folder on first
use, with the hermetic git settings and the managed paths' exclude rules brought up to date
each time it is opened; every git process gets an environment without inherited `GIT_*`."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from daemon.kernel import atomic
from daemon.kernel.errors import StoreError
from daemon.kernel.managed import ManagedPaths
from daemon.run.store import StoreSession
from daemon.run.store_git import HERMETIC_CONFIG, hermetic_env


def git_environment(
    base: Mapping[str, str], git_dir: Path, home: Path, now: datetime | None
) -> dict[str, str]:
    """`base` without any inherited `GIT_*` variable, plus the store's hermetic settings."""
    kept = {k: v for k, v in base.items() if not k.startswith("GIT_")}
    return {**kept, **hermetic_env(git_dir, home, now)}


@contextmanager
def open_store(
    git_dir: Path,
    home: Path,
    managed: ManagedPaths,
    scratch: Path,
    now: datetime | None = None,
    clock: Callable[[], datetime] | None = None,
    writable: bool = True,
) -> Iterator[StoreSession]:
    """Open (creating if needed) the store of `home` kept in `git_dir`. Not `writable` (a
    reader: `runs`, `show`, a console page), it creates nothing and writes neither the
    config nor the exclude rules: a reader opening the store while an agent's first run
    creates it must not write the same config beside the run (git's config lock would fail
    one of them, and the run would not start). Raises StoreError if a reader finds no store."""
    fresh = not (git_dir / "HEAD").exists()
    env = git_environment(os.environ, git_dir, home, now)
    if fresh and not writable:
        raise StoreError(f"no store yet at {git_dir}: no run has been recorded")
    if not writable:
        yield StoreSession(env, git_dir, home, scratch, managed, clock)
        return
    if fresh:
        git_dir.parent.mkdir(parents=True, exist_ok=True)
        init_env = {k: v for k, v in env.items() if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")}
        done = subprocess.run(
            ["git", "init", "-q", "--bare", str(git_dir)], env=init_env, capture_output=True, check=False
        )
        if done.returncode != 0:
            raise StoreError(
                f"git init failed for store {git_dir}: {done.stderr.decode('utf-8', 'replace').strip()}"
            )
        os.chmod(git_dir, 0o700)
    session = StoreSession(env, git_dir, home, scratch, managed, clock)
    config_path = git_dir / "config"
    current = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
    stamp = f"hermeticVersion = {HERMETIC_CONFIG['metaeng.hermeticVersion']}"
    if fresh or stamp not in current or f"worktree = {home}" not in current:
        for key, value in {**HERMETIC_CONFIG, "core.worktree": str(home)}.items():
            session._run("config", key, value)
    exclude = git_dir / "info" / "exclude"
    rules = managed.exclude_rules()
    if not exclude.exists() or exclude.read_text(encoding="utf-8") != rules:
        atomic.write_text(exclude, rules)
    yield session
