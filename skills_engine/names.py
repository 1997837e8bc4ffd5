"""Skill names from a model: sanitised, confined, and checked against near-identical names.

A name the model gives is refused outright if it looks like a path (separators, `..`,
absolute, NUL) — it is not "repaired" into something else. Otherwise it is folded to the
Agent Skills form (lowercase, hyphens) and must then be valid and at most 64 characters.

Two names are near-identical when their normalised forms (letters and digits only, a
trailing plural `s` dropped per word) are equal or their similarity ratio reaches
`NEAR_IDENTICAL_RATIO`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from difflib import SequenceMatcher
from functools import lru_cache

from skills_engine.skillfile import MAX_NAME, valid_name

NEAR_IDENTICAL_RATIO = 0.88
MAX_RAW_NAME = 200


class NameRefused(ValueError):
    """A model-given name that cannot be a skill folder in the learned library."""


def sanitise(raw: str) -> str:
    """The folder name for a model-given skill name; raise NameRefused saying why."""
    if not isinstance(raw, str) or not raw.strip():
        raise NameRefused("empty name")
    if len(raw) > MAX_RAW_NAME:
        raise NameRefused(f"name longer than {MAX_RAW_NAME} characters")
    if "\x00" in raw:
        raise NameRefused("NUL byte in name")
    if "/" in raw or "\\" in raw:
        raise NameRefused(f"name {raw!r} contains a path separator")
    if ".." in raw:
        raise NameRefused(f"name {raw!r} contains '..'")
    if raw.strip().startswith(("~", ".")):
        raise NameRefused(f"name {raw!r} starts with '~' or '.'")
    folded = re.sub(r"[\s_]+", "-", raw.strip().lower())
    folded = re.sub(r"-{2,}", "-", folded).strip("-")
    if len(folded) > MAX_NAME:
        raise NameRefused(f"name {raw!r} is longer than {MAX_NAME} characters")
    if not valid_name(folded):
        raise NameRefused(f"name {raw!r} must be lowercase letters, digits and hyphens")
    return folded


@lru_cache(maxsize=4096)  # a whole library's names are compared again for every new name
def normalise(name: str) -> str:
    words = re.split(r"[^a-z0-9]+", name.lower())
    return "".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


def near_identical(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that is near-identical to `name` (the exact name included), else None."""
    key = normalise(name)
    letters = Counter(key)
    for other in sorted(set(others)):
        other_key = normalise(other)
        if other_key == key:
            return other
        if _similar(key, letters, other_key):
            return other
    return None


def _similar(key: str, letters: Counter[str], other_key: str) -> bool:
    # `ratio()` never exceeds the length bound nor the letters the two share in any order
    # (difflib's `real_quick_ratio`, `quick_ratio`, same formula): most pairs of a library are
    # ruled out by those, without building a SequenceMatcher.
    total = len(key) + len(other_key)
    if 2.0 * min(len(key), len(other_key)) / total < NEAR_IDENTICAL_RATIO:
        return False
    if 2.0 * sum((letters & Counter(other_key)).values()) / total < NEAR_IDENTICAL_RATIO:
        return False
    return SequenceMatcher(None, key, other_key).ratio() >= NEAR_IDENTICAL_RATIO
