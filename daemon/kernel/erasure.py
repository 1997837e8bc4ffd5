"""What a purge does to bytes: the pure rule applied to every blob, message and state file.

A fact record (a JSON line whose `entity`, `key` and `value` match) is dropped whole: a
purged fact leaves no record, not even a `[purged]` one, in any fact-store layout that
keeps one record per line (the refused-facts log too, so `memory retry` cannot bring it
back). Anywhere else the value is replaced by `[purged]` where it stands as a whole word,
so purging "Ada" leaves "Adam" alone:

- in a text file, anywhere — as plain text and in each JSON-escaped form;
- in a JSON or JSONL file (`structured`), only inside string values (`erasure_json`):
  purging `1`, `true` or `version` never touches a number, a literal, a key or the
  structure, so every file parses as before. A string holding JSON lines itself (a
  proposal carries a fact-store shard, and its diff) is erased by the same rule, its fact
  records dropped too; a string of prose gets the text rule.

The same rule runs on the home (the forget run), on history (the rewrite) and on state
files, so the rewritten HEAD tree equals the one the forget run committed, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from daemon.kernel.erasure_json import erase_strings, is_container, unparsed_lines

PURGED = "[purged]"
WORD = rb"0-9A-Za-z_"
STRUCTURED_SUFFIXES = (".json", ".jsonl")
NESTING = 4  # JSON inside a JSON string inside …: deeper than any file of ours goes
DIFF_MARKS = ("+", "-", " ")  # a unified diff's line prefixes (a proposal shows its change)


def is_structured(path: str) -> bool:
    """Whether `path` is erased by the JSON rule (by its suffix)."""
    return path.lower().endswith(STRUCTURED_SUFFIXES)


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


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
        # Never inside a `[purged]` already written: a value that is "purged" itself would
        # otherwise grow `[[purged]]` on every pass, and a rewrite would never settle.
        pattern = re.compile(
            rb"(?<![" + WORD + rb"])(?!(?<=\[)purged\])(?:" + alternatives + rb")(?![" + WORD + rb"])"
        )
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

    def erase(self, data: bytes, drop_records: bool = True, *, structured: bool = False) -> bytes:
        """`data` with matching fact records dropped (if `drop_records`) and every other mention
        replaced: anywhere in text, only inside string values if `structured` (JSON, JSONL;
        a file that is not UTF-8 cannot be JSON and gets the text rule)."""
        if not self.found_in(data):
            return data
        if drop_records:
            data = b"\n".join(line for line in data.split(b"\n") if not self._is_record(line))
        if structured:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                return _utf8(erase_strings(text, lambda s: self._erase_string(s, drop_records, 1)))
        return self._pattern.sub(PURGED.encode(), data)

    def _text(self, text: str) -> str:
        return self._pattern.sub(PURGED.encode(), _utf8(text)).decode("utf-8", "surrogatepass")

    def _erase_string(self, text: str, drop_records: bool, depth: int) -> str:
        """A decoded JSON string: JSON in it by the JSON rule (line by line), prose by the text rule."""
        if self._pattern.search(_utf8(text)) is None:
            return text
        if depth >= NESTING:
            return self._text(text)
        if "\n" in text.strip() and is_container(text):  # one indented document
            return erase_strings(text, lambda s: self._erase_string(s, drop_records, depth + 1))
        return "".join(self._erase_line(line, drop_records, depth) for line in text.splitlines(keepends=True))

    def _erase_line(self, line: str, drop_records: bool, depth: int) -> str:
        body = line.rstrip("\r\n")
        for mark in ("", *DIFF_MARKS):
            rest = body[len(mark) :]
            if body.startswith(mark) and is_container(rest):
                if drop_records and self._is_record(_utf8(rest.strip())):
                    return ""
                nested = erase_strings(rest, lambda s: self._erase_string(s, drop_records, depth + 1))
                return mark + nested + line[len(body) :]
        return self._text(line)

    def leftovers(self, data: bytes) -> list[int]:
        """For a JSON file after `erase`: the lines that are not JSON and still mention a value
        outside their quoted strings — left as they are (there a value cannot be told from a
        number, a literal or a key) for the caller to report."""
        text = data.decode("utf-8", "replace")
        lines = text.split("\n")
        return [n for n in unparsed_lines(text) if self._pattern.search(_utf8(lines[n - 1]))]

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
