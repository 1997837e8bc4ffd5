"""What produced a ledger: package version and the hashes of the engine and lab sources."""

from __future__ import annotations

import hashlib
import json
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

_LAB = Path(__file__).resolve().parent
_REPO = _LAB.parent.parent
# The memory engine's rule files and the settings model they read (kept in the kernel).
SOURCES = ("memory_engine/memory.py", "memory_engine/records.py", "daemon/kernel/memory_settings.py")


def source_files() -> dict[str, str]:
    """sha256 of the memory engine's rule files, its settings model and every lab module."""
    paths = [_REPO / name for name in SOURCES] + sorted(_LAB.glob("*.py"))
    return {
        path.relative_to(_REPO).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in paths
    }


def provenance() -> dict[str, Any]:
    files = source_files()
    try:
        version = metadata.version("metaeng-daemon")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return {
        "package": "metaeng-daemon",
        "version": version,
        "python": platform.python_version(),
        "source_sha256": hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest(),
        "source_files": files,
    }
