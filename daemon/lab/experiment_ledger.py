"""The experiment ledger folder: created exclusively, written once, sealed by a manifest.

Every output folder of the lab (grid, evaluate, campaign) is a new folder: an existing
path is refused before any work, so earlier evidence is never overwritten. Files are
written through the atomic-write door. `seal` writes `manifest.json` with the sha256 of
every other file; `check_manifest` is the hash half of `lab verify` (no symlinks, no
path escaping the folder, every listed file present with its hash, nothing unlisted).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from daemon.kernel import atomic
from daemon.kernel.errors import DaemonError
from daemon.kernel.json_contract import LedgerDocument
from daemon.kernel.view import check_relative

LEDGER_VERSION = 1
MANIFEST = "manifest.json"


class LedgerError(DaemonError):
    """An output folder cannot be created or a ledger is unreadable."""


def dumps(value: Any) -> bytes:
    """The one JSON encoding of ledger files (stable, so re-runs reproduce bytes)."""
    return (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Ledger:
    root: Path

    @classmethod
    def create(cls, path: Path) -> Ledger:
        """Create `path` as a new, empty folder; refuse anything already there."""
        if path.exists() or path.is_symlink():
            raise LedgerError(f"output folder {path} already exists; the lab never writes into old evidence")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.mkdir(exist_ok=False)
        except FileExistsError:
            raise LedgerError(f"output folder {path} already exists") from None
        except OSError as exc:
            raise LedgerError(f"cannot create output folder {path}: {exc.strerror or exc}") from None
        return cls(path)

    def path(self, rel: str) -> Path:
        return self.root / check_relative(rel)

    def write(self, rel: str, data: bytes, *, replace: bool = False) -> None:
        target = self.path(rel)
        if not replace and target.exists():
            raise LedgerError(f"{target} already exists; ledger files are written once")
        try:
            atomic.write_bytes(target, data)
        except OSError as exc:
            raise LedgerError(f"cannot write {target}: {exc.strerror or exc}") from None

    def write_json(self, rel: str, value: Any, *, replace: bool = False) -> None:
        self.write(rel, dumps(value), replace=replace)

    def seal(self, provenance: LedgerDocument, now: datetime) -> LedgerDocument:
        """Write the manifest: every file but the manifest itself, with its sha256."""
        files = [{"path": rel, "sha256": sha256(self.path(rel).read_bytes())} for rel in inventory(self.root)]
        manifest = {
            "version": LEDGER_VERSION,
            "sealed_at": now.isoformat(),
            "provenance": provenance,
            "files": files,
        }
        self.write_json(MANIFEST, manifest)
        return manifest


def inventory(root: Path) -> list[str]:
    """Every regular file under `root` except the manifest, as sorted relative paths."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in names:
            rel = (Path(folder) / name).relative_to(root).as_posix()
            if rel != MANIFEST:
                found.append(rel)
    return sorted(found)


def _symlinks(root: Path) -> Iterator[str]:
    for folder, dirs, names in os.walk(root):
        for name in [*dirs, *names]:
            full = Path(folder) / name
            if stat.S_ISLNK(os.lstat(full).st_mode):
                yield full.relative_to(root).as_posix()


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except OSError as exc:
        raise LedgerError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise LedgerError(f"{path} is not JSON: {exc}") from None


def check_version(doc: Any, path: Path, supported: int = LEDGER_VERSION) -> None:
    """Refuse a ledger file written by a newer lab (its `version` above `supported`)."""
    version = doc.get("version") if isinstance(doc, dict) else None
    if isinstance(version, int) and version > supported:
        raise LedgerError(f"{path} has version {version}; this lab reads up to version {supported}")


def load_manifest(root: Path) -> LedgerDocument:
    path = root / MANIFEST
    if not path.is_file():
        raise LedgerError(
            f"{root} has no {MANIFEST}: not a lab ledger, or the run was interrupted before sealing"
        )
    manifest = read_json(path)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), list):
        raise LedgerError(f"{path}: expected an object with a `files` list")
    version = manifest.get("version")
    if not isinstance(version, int) or version > LEDGER_VERSION:
        raise LedgerError(
            f"{path} has version {version!r}; this lab reads ledgers up to version {LEDGER_VERSION}"
        )
    return manifest


def check_manifest(root: Path) -> list[str]:
    """Problems with the folder's hashes and inventory; an empty list means intact."""
    if not root.is_dir() or root.is_symlink():
        raise LedgerError(f"{root} is not a folder")
    manifest = load_manifest(root)
    problems = [f"{rel}: is a symlink" for rel in _symlinks(root)]
    listed: list[str] = []
    for entry in manifest["files"]:
        rel = entry.get("path") if isinstance(entry, dict) else None
        digest = entry.get("sha256") if isinstance(entry, dict) else None
        if not isinstance(rel, str) or not isinstance(digest, str):
            problems.append(f"{MANIFEST}: malformed entry {entry!r}")
            continue
        try:
            check_relative(rel)
        except DaemonError:
            problems.append(f"{rel}: path escapes the ledger folder")
            continue
        listed.append(rel)
        path = root / rel
        if not path.is_file():
            problems.append(f"{rel}: listed in the manifest but missing")
        elif sha256(path.read_bytes()) != digest:
            problems.append(f"{rel}: sha256 differs from the manifest (file changed after sealing)")
    present = set(inventory(root))
    for rel in sorted(present - set(listed)):
        problems.append(f"{rel}: present but not listed in the manifest")
    return problems
