"""What a purge does to bytes: the pure rule applied to every blob, message and state file.

A fact record (a JSON line whose `entity`, `key` and `value` match) is dropped whole: a
purged fact leaves no record, not even a `[purged]` one, in any fact-store layout that
keeps one record per line (the refused-facts log too, so `memory retry` cannot bring it
back). Anywhere else the value is replaced by `[purged]` — as plain text and in each
JSON-escaped form (a proposal quotes a fact-store line inside a JSON string) — only
where it stands as a whole word, so purging "Ada" leaves "Adam" alone. The same rule
runs on the home (the forget run), on history (the rewrite) and on state files, so the
rewritten HEAD tree equals the one the forget run committed, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

PURGED = "[purged]"
WORD = rb"0-9A-Za-z_"


def _forms(value: str) -> set[bytes]:
    """The value as text and as it appears inside one or two levels of JSON strings."""
    forms = {value}
    for ascii_only in (False, True):
        once = json.dumps(value, ensure_ascii=ascii_only)[1:-1]
        twice = json.dumps(once, ensure_ascii=ascii_only)[1:-1]
        forms.update((once, twice))
    return {f.encode("utf-8") for f in forms if f}


@dataclass(frozen=True)
class Erasure:
    """Purge `facts`: (entity, key, value) triples, values non-empty; `label` names it in logs."""

    facts: frozenset[tuple[str, str, str]]
    label: str
    _pattern: re.Pattern[bytes] = field(init=False, repr=False, compare=False)

    @classmethod
    def of(cls, entity: str, key: str, values: Iterable[str]) -> Erasure:
        return cls(frozenset((entity, key, v) for v in values), f"{entity}.{key}")

    @property
    def values(self) -> frozenset[str]:
        return frozenset(value for _entity, _key, value in self.facts)

    def __post_init__(self) -> None:
        needles = sorted({f for v in self.values for f in _forms(v)}, key=len, reverse=True)
        alternatives = b"|".join(re.escape(n) for n in needles) or b"(?!)"
        pattern = re.compile(rb"(?<![" + WORD + rb"])(?:" + alternatives + rb")(?![" + WORD + rb"])")
        object.__setattr__(self, "_pattern", pattern)

    def _is_record(self, line: bytes) -> bool:
        if b"{" not in line[:4]:
            return False
        try:
            raw = json.loads(line)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return False
        if not isinstance(raw, dict):
            return False
        fact = (raw.get("entity"), raw.get("key"), raw.get("value"))
        return all(isinstance(part, str) for part in fact) and fact in self.facts

    def found_in(self, data: bytes) -> bool:
        return self._pattern.search(data) is not None

    def erase(self, data: bytes, drop_records: bool = True) -> bytes:
        """`data` with matching fact records dropped (if `drop_records`) and every other mention replaced."""
        if not self.found_in(data):
            return data
        if drop_records:
            data = b"\n".join(line for line in data.split(b"\n") if not self._is_record(line))
        return self._pattern.sub(PURGED.encode(), data)

    def mask(self, data: bytes) -> bytes:
        """For binary files: every mention overwritten in place by as many `*` bytes (lengths kept)."""
        return self._pattern.sub(lambda m: b"*" * len(m.group(0)), data)


def value_hash(salt: bytes, value: str) -> str:
    """The salted hash an erasure record keeps instead of the value."""
    return hashlib.sha256(salt + value.encode("utf-8")).hexdigest()


def values_of(entity: str, key: str, lines: Iterable[bytes]) -> set[str]:
    """Values of the (entity, key) records among JSON `lines` (anything else is skipped)."""
    found: set[str] = set()
    for line in lines:
        stripped = line.strip()
        if not stripped.startswith(b"{") or entity.encode() not in stripped:
            continue
        try:
            raw = json.loads(stripped)
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        if isinstance(raw, dict) and raw.get("entity") == entity and raw.get("key") == key:
            value = raw.get("value")
            if isinstance(value, str) and value:
                found.add(value)
    return found
