"""The installed version of a distribution, as `importlib.metadata.version` finds it, without
importing `importlib.metadata` (its email parser and zip support are most of `--version`'s
start-up).

The fast path walks `sys.path` the way `importlib.metadata`'s path finder does — in order,
the first `NAME-*.dist-info` or `NAME-*.egg-info` folder whose name normalises to the
distribution's — and reads the `Version:` header of its METADATA (or PKG-INFO). Anything it
does not mirror exactly (another finder that lists distributions, a zip on the path, a
missing or unusual metadata file, no match at all) goes to `importlib.metadata` itself.
"""

from __future__ import annotations

import os
import re
import sys

_SEPARATORS = re.compile(r"[-_.]+")


def _normalized(name: str) -> str:
    return _SEPARATORS.sub("_", name).lower()


def _only_path_finder() -> bool:
    """Whether the standard path finder is the only one that lists distributions."""
    from importlib.machinery import PathFinder

    listing = [finder for finder in sys.meta_path if hasattr(finder, "find_distributions")]
    return listing == [PathFinder]


def _metadata_folder(wanted: str) -> str | None:
    """The first metadata folder of `wanted` on sys.path; raises LookupError where the path
    holds something only `importlib.metadata` reads (a file, such as a zip)."""
    for entry in sys.path:
        root = entry or "."
        try:
            children = os.listdir(root)
        except OSError:
            if os.path.isfile(root):
                raise LookupError(root) from None
            continue
        for child in children:
            low = child.lower()
            named = _normalized(low.rpartition(".")[0].partition("-")[0])
            if low.endswith((".dist-info", ".egg-info")) and named == wanted:
                return os.path.join(root, child)
    return None


def _version_header(folder: str) -> str | None:
    """The `Version:` header of the folder's METADATA, else PKG-INFO; None where either is
    missing, empty or not a plain header block."""
    for name in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                text = file.read()
        except OSError:
            continue
        if not text:
            continue
        for line in text.split("\n\n", 1)[0].splitlines():
            if line[:1] in (" ", "\t"):
                return None  # a folded header: leave it to the email parser
            key, colon, value = line.partition(":")
            if colon and key == "Version":
                return value.strip() or None
        return None
    return None


def installed_version(name: str) -> str | None:
    """The version `importlib.metadata.version(name)` gives, None where it raises
    PackageNotFoundError."""
    try:
        folder = _metadata_folder(_normalized(name)) if _only_path_finder() else None
    except LookupError:
        folder = None
    found = _version_header(folder) if folder is not None else None
    if found is not None:
        return found
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None
