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
    # a home path is bytes to git: one that is no UTF-8 reads back as Python names it
    current = config_path.read_bytes().decode("utf-8", "surrogateescape") if config_path.exists() else ""
    settings = {**HERMETIC_CONFIG, "core.worktree": str(home)}
    lines = set(current.split("\n"))  # git's lines end at "\n" only (a home path may hold "\x85")
    stamp = f"\thermeticVersion = {config_value(HERMETIC_CONFIG['metaeng.hermeticVersion'])}"
    if fresh or stamp not in lines or f"\tworktree = {config_value(str(home))}" not in lines:
        # a new store's config is the few lines `git init` wrote: written whole, it costs one
        # file instead of a git process per setting (a store is made per agent and per test)
        merged = with_settings(current, settings) if fresh else None
        if merged is not None:
            atomic.write_text(config_path, merged)
        else:
            for key, value in settings.items():
                session._run("config", key, value)
    exclude = git_dir / "info" / "exclude"
    rules = managed.exclude_rules()
    if not exclude.exists() or exclude.read_text(encoding="utf-8") != rules:
        atomic.write_text(exclude, rules)
    yield session


def config_value(value: str) -> str:
    """`value` as git writes it in a config file, for a value of printable characters, tabs and
    newlines (`plain`): quoted when it has a space at either end, a ";" or a "#"; a backslash,
    a quote, a newline and a tab escaped."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    quoted = value != value.strip(" ") or any(c in value for c in ";#")
    return f'"{escaped}"' if quoted else escaped


def plain(value: str) -> bool:
    """Whether `config_value` surely writes `value` as git does: UTF-8 text whose characters
    are printable by Python's measure, a space, a tab or a newline (git quotes a carriage
    return; a no-break space or a joiner, which git keeps as it is, take the slower way too)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False  # a path that is no UTF-8 (`surrogateescape`)
    return all(c in "\t\n" or (c.isprintable() or c == " ") for c in value)


def with_settings(config: str, settings: Mapping[str, str]) -> str | None:
    """The config file `git init` wrote (`config`) with `settings` ("section.key": value) set,
    each section once, in git's own layout; None when it holds anything but plain sections of
    plain "key = value" lines, or a value `config_value` does not write as git does (`plain`),
    which only `git config` may then write."""
    if not all(plain(v) for v in settings.values()):
        return None
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for line in config.splitlines():
        text = line.strip()
        if not text:
            continue
        if text.startswith("[") and text.endswith("]") and text[1:-1].isalnum():
            current = sections.setdefault(text[1:-1].lower(), {})
            continue
        key, sign, value = text.partition(" = ")
        if current is None or not sign or not key.isalnum() or any(c in value for c in '"\\;#'):
            return None
        current[key.lower()] = value
    for name, value in settings.items():
        section, _, key = name.partition(".")
        held = sections.setdefault(section.lower(), {})
        # git's keys are case-blind: the one `git init` wrote gives way
        for old in [k for k in held if k == key.lower()]:
            del held[old]
        held[key] = config_value(value)
    return "".join(f"[{section}]\n" + "".join(f"\t{k} = {v}\n" for k, v in keys.items()) for section, keys in sections.items())
