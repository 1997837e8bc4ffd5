"""Which fact-store files an agent home holds, each with the stamp that tells a change.

The query index (`memory_engine.fact_index`) compares these stamps with the ones it
recorded to know which shards to read again; only the layout of the shard folder
(`X/Y/Z.jsonl`, 16 × 16 × 16) is known here, never a record.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from daemon.kernel.view import confined
from memory_engine.fact_shards import shard_root

Stamp = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode
_HEX = "0123456789abcdef"


def _stamp(st: os.stat_result) -> Stamp:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _regular(path: Path) -> os.stat_result | None:
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return st if stat.S_ISREG(st.st_mode) else None


def disk_files(home: Path, store: str) -> dict[str, Stamp]:
    """The single-file store (if any) and every shard file, relative path → stamp; no symlinks."""
    found: dict[str, Stamp] = {}
    legacy = _regular(confined(home, store))
    if legacy is not None:
        found[store] = _stamp(legacy)
    root_rel = shard_root(store)
    root = confined(home, root_rel)
    if not root.is_dir() or root.is_symlink():
        return found
    for first in _HEX:
        level1 = root / first
        if not level1.is_dir() or level1.is_symlink():
            continue
        for second in _HEX:
            level2 = level1 / second
            if level2.is_symlink():
                continue
            try:
                entries = list(os.scandir(level2))
            except (FileNotFoundError, NotADirectoryError):
                continue
            for entry in entries:
                name = entry.name
                if len(name) == 7 and name[0] in _HEX and name.endswith(".jsonl") and entry.is_file(follow_symlinks=False):
                    found[f"{root_rel}/{first}/{second}/{name}"] = _stamp(entry.stat(follow_symlinks=False))
    return found
