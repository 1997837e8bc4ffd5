"""Where each fact lives: the fact store as small shard files (docs/reference/state-files.md).

The store configured as `memory.store` (default `.metaeng/facts.jsonl`) is a folder next
to that name, `<store>.d/`, holding up to 4,096 shard files `X/Y/Z.jsonl`: X, Y and Z are
the first three hex digits of sha256(tenant, user, entity, key). Every version of one
(owner, entity, key) lands in the same shard, so a write — which closes the active
version and appends the new one — rewrites one small file, and a run's git commit holds
one new blob per changed shard plus the trees on its path. Three levels of 16 keep each
tree at 16 entries (a few hundred bytes), where one flat folder of 4,096 files would
cost a ~150 KB tree object per run.

A store written before shards existed is the single file `memory.store` itself; readers
take its records with the shards', and the first run that writes facts moves them into
shards and deletes the file, in that run's one commit (see `fact_edit`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

from daemon.kernel.errors import CorruptState
from daemon.kernel.view import AgentView
from memory_engine import factstore
from memory_engine.records import FactRecord

SHARD_FOLDER_SUFFIX = ".d"
_NAME = re.compile(r"[0-9a-f]/[0-9a-f]/[0-9a-f]\.jsonl")

Scope = tuple[str, str, str, str]


def shard_root(store: str) -> str:
    """The shard folder of the store configured as `store`: `<store>.d`."""
    return store + SHARD_FOLDER_SUFFIX


def shard_name(scope: Scope) -> str:
    """`X/Y/Z.jsonl`: the shard holding every version of `scope` (tenant, user, entity, key)."""
    digest = hashlib.sha256("\x1f".join(scope).encode("utf-8")).hexdigest()
    return f"{digest[0]}/{digest[1]}/{digest[2]}.jsonl"


def shard_path(store: str, scope: Scope) -> str:
    return f"{shard_root(store)}/{shard_name(scope)}"


def is_shard(store: str, path: str) -> bool:
    """True if `path` (relative to the home) is a shard file of `store`."""
    prefix = shard_root(store) + "/"
    return path.startswith(prefix) and _NAME.fullmatch(path[len(prefix) :]) is not None


def shard_files(view: AgentView, store: str) -> list[str]:
    """The shard files of `store` present in `view` (other files in the folder are not facts)."""
    return [p for p in view.walk(shard_root(store)) if is_shard(store, p)]


def by_shard(records: Iterable[FactRecord], store: str) -> dict[str, list[FactRecord]]:
    """`records` grouped by the shard path each belongs in."""
    groups: dict[str, list[FactRecord]] = {}
    for record in records:
        groups.setdefault(shard_path(store, record.scope), []).append(record)
    return groups


def parse_shard(content: bytes, path: str, label: Path) -> list[FactRecord]:
    """The records of shard `path` (relative) read from `label`; CorruptState names the line at fault.

    A record in the wrong shard (moved there by hand) is refused too: a write looks for
    the versions of a fact in its own shard only, and would miss it.
    """
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorruptState(label, f"not UTF-8 at byte {exc.start}") from None
    numbered = factstore.parse_numbered(text, str(label))
    for number, record in numbered:
        if not path.endswith("/" + shard_name(record.scope)):
            raise CorruptState(
                label,
                f"line {number}: record {record.id} ({record.entity}.{record.key}) belongs in shard "
                f"{shard_name(record.scope)}; move the line there",
            )
    return [record for _number, record in numbered]


def record_pathspecs(store: str) -> tuple[str, ...]:
    """Where the fact records of the store configured as `store` live in the home, as git
    pathspecs: the single file of old stores and the shard folder (purge searches their history)."""
    return (store, shard_root(store))
