"""Erase purged values from the files the daemon keeps outside the store.

The run log, journal, spend and request records, review and lab ledgers, scratch and any
other file under the agent's state folder (and the deployment's shared spend folder):
each file that mentions a value is rewritten atomically with the mention replaced (its
record stays, its text says `[purged]`) — in a JSON or JSONL file only inside string
values, so the cursors, ledgers and logs all parse as before; a file that is not text has
each mention overwritten by as many `*` bytes. Records are never dropped here (a ledger's
line count stays), only their text. The SQLite files of the state folder are derived
data (the run index, the facts query index): one that mentions a value is removed with
its journal files, and rebuilt from the store or the home by the next command. The store itself, locks and the erasure records are
not touched here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

import structlog

from daemon.kernel import atomic
from daemon.kernel.paths import AgentState
from daemon.text.erasure import Erasure, is_structured

log = structlog.get_logger("metaeng.purge")

SKIPPED_SUFFIXES = (".lock",)
DERIVED = tuple(".sqlite3" + s for s in ("", "-journal", "-wal", "-shm"))


def _files(root: Path, skip: Iterable[Path]) -> Iterator[Path]:
    skipped = {p.resolve() for p in skip}
    if not root.exists():
        return
    if not root.is_dir():  # a single file given as a root
        if (
            not root.is_symlink()
            and root.is_file()
            and root.resolve() not in skipped
            and not root.name.endswith(SKIPPED_SUFFIXES)
        ):
            yield root
        return
    for base, dirs, files in os.walk(root):
        here = Path(base)
        dirs[:] = [d for d in dirs if (here / d).resolve() not in skipped]
        for name in files:
            path = here / name
            if path.resolve() in skipped or name.endswith(SKIPPED_SUFFIXES):
                continue
            try:
                if stat.S_ISREG(os.lstat(path).st_mode):
                    yield path
            except FileNotFoundError:
                continue


def erase_file(path: Path, erasure: Erasure) -> bool:
    """Rewrite `path` without the values if it mentions one; whether it changed. Raises OSError."""
    data = path.read_bytes()
    if not erasure.found_in(data):
        return False
    structured = is_structured(path.name)
    try:
        data.decode("utf-8")
        new = erasure.erase(data, drop_records=False, structured=structured)
    except UnicodeDecodeError:
        new = erasure.mask(data)
    if structured and (lines := erasure.leftovers(new)):
        log.warning("purge.unparsed_lines", file=str(path), lines=lines)
    if new == data:
        return False
    atomic.write_bytes(path, new, mode=stat.S_IMODE(os.lstat(path).st_mode))
    return True


def erase_state(
    state: AgentState, shared: Iterable[Path], erasure: Erasure, keep: Iterable[Path] = ()
) -> list[Path]:
    """Erase the values from every file of the agent's state folder and the `shared` folders.

    `keep`: files that must not change (the erasure records). Returns the files rewritten.
    """
    skip = [
        state.git_dir,
        state.git_dir.with_name(state.git_dir.name + ".rewrite-new"),
        state.git_dir.with_name(state.git_dir.name + ".rewrite-old"),
        *keep,
    ]
    drop_index(state)
    # The delivery index's full-text segments keep a deleted fact's terms, split and
    # prefix-compressed where a byte search cannot see them: dropped whole, always.
    _drop_sqlite(state.delivery_index)
    changed: list[Path] = []
    for root in (state.root, *shared):
        for path in _files(root, skip):
            if path.name.endswith(DERIVED) and root == state.root:
                if path.exists() and erasure.found_in(path.read_bytes()):
                    _drop_sqlite(path)
                    changed.append(path)
            elif erase_file(path, erasure):
                changed.append(path)
    return changed


def _drop_sqlite(path: Path) -> None:
    base = str(path)
    for suffix in ("-journal", "-wal", "-shm"):
        base = base.removesuffix(suffix)
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(base + suffix).unlink(missing_ok=True)


def drop_index(state: AgentState) -> None:
    """Remove the run index (and its journal files): it is rebuilt from the store on the next read."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        state.run_index.with_name(state.run_index.name + suffix).unlink(missing_ok=True)
