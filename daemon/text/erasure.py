"""What a purge does to bytes: the pure rule applied to every blob, message and state file.

A fact record (a JSON line whose `entity`, `key` and `value` match) is dropped whole: a
purged fact leaves no record, not even a `[purged]` one, in any fact-store layout that
keeps one record per line (the refused-facts log too, so `memory retry` cannot bring it
back). Anywhere else the value is replaced by `[purged]` where it stands as a whole word
in any script (`erasure_words`), so purging "Ada" leaves "Adam" alone and "Ада" "Адам";
its composed and decomposed spellings (NFC "José", NFD "Jose" + U+0301) are both erased:

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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from daemon.text.erasure_forms import spellings
from daemon.text.erasure_json import erase_strings, is_container, unparsed_lines
from daemon.text.erasure_words import Edges, is_whole

PURGED = "[purged]"
STRUCTURED_SUFFIXES = (".json", ".jsonl")
NESTING = 4  # JSON inside a JSON string inside …: deeper than any file of ours goes
DIFF_MARKS = ("+", "-", " ")  # a unified diff's line prefixes (a proposal shows its change)


def is_structured(path: str) -> bool:
    """Whether `path` is erased by the JSON rule (by its suffix)."""
    return path.lower().endswith(STRUCTURED_SUFFIXES)


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


@dataclass(frozen=True)
class Erasure:
    """Purge `facts`: (entity, key, value) triples, values non-empty; `label` names it in logs."""

    facts: frozenset[tuple[str, str, str]]
    label: str
    _pattern: re.Pattern[bytes] = field(init=False, repr=False, compare=False)
    _needles: tuple[tuple[bytes, Edges], ...] = field(init=False, repr=False, compare=False)
    _ranks: tuple[int, ...] = field(init=False, repr=False, compare=False)  # by the scan's group

    @classmethod
    def of(cls, entity: str, key: str, values: Iterable[str]) -> Erasure:
        return cls(frozenset((entity, key, v) for v in values), f"{entity}.{key}")

    @property
    def values(self) -> frozenset[str]:
        return frozenset(value for _entity, _key, value in self.facts)

    def __post_init__(self) -> None:
        ranked = sorted(
            {(s.source, s): Edges.of(v) for v in sorted(self.values) for s in spellings(v)}.items(),
            key=lambda item: (-item[0][1].length, item[0][0]),
        )
        # Where some spelling begins: one branch per spelling of its first character, each
        # starting with literal bytes (so the scan skips ahead by them) and holding one group,
        # which says the rank of the spelling that matched (the first of the longest there);
        # whether it stands whole is `_spans`'s.
        branches: list[bytes] = []
        ranks: list[int] = []
        for rank, ((_source, spelling), _edges) in enumerate(ranked):
            for first in spelling.firsts:
                branches.append(first + b"(" + spelling.rest + b")")
                ranks.append(rank)
        needles = tuple((source, edges) for (source, _spelling), edges in ranked)
        object.__setattr__(self, "_pattern", re.compile(b"|".join(branches) or b"(?!)"))
        object.__setattr__(self, "_needles", needles)
        object.__setattr__(self, "_ranks", tuple(ranks))

    def _spans(self, data: bytes) -> Iterator[tuple[int, int]]:
        """The mentions in `data`, left to right, none overlapping: at each place a spelling
        begins, the longest one there that stands as a whole word."""
        pos = 0
        while (found := self._pattern.search(data, pos)) is not None:
            begin = pos = found.start()
            # Never inside a `[purged]` already written: a value that is "purged" itself would
            # otherwise grow `[[purged]]` on every pass, and a rewrite would never settle.
            marker = data[begin - 1 : begin] == b"[" and data.startswith(PURGED[1:].encode(), begin)
            # The spellings before the one found do not begin here; shorter ones may stand whole.
            rank = self._ranks[(found.lastindex or 1) - 1]
            for needle, edges in () if marker else self._needles[rank:]:
                match = re.compile(needle).match(data, begin)  # compiled on a first hit, then cached
                if match is not None and match.end() > begin and is_whole(data, begin, match.end(), edges):
                    yield begin, match.end()
                    pos = match.end()
                    break
            else:
                pos = begin + 1

    def _replace(self, data: bytes, by: Callable[[bytes], bytes]) -> bytes:
        out: list[bytes] = []
        last = 0
        for begin, end in self._spans(data):
            out += [data[last:begin], by(data[begin:end])]
            last = end
        return b"".join(out) + data[last:] if out else data

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
        return next(self._spans(data), None) is not None

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
        return self._replace(data, lambda _mention: PURGED.encode())

    def _text(self, text: str) -> str:
        return self._replace(_utf8(text), lambda _mention: PURGED.encode()).decode("utf-8", "surrogatepass")

    def _erase_string(self, text: str, drop_records: bool, depth: int) -> str:
        """A decoded JSON string: JSON in it by the JSON rule (line by line), prose by the text rule."""
        if not self.found_in(_utf8(text)):
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
        return [n for n in unparsed_lines(text) if self.found_in(_utf8(lines[n - 1]))]

    def mask(self, data: bytes) -> bytes:
        """For binary files: every mention overwritten in place by as many `*` bytes (lengths kept)."""
        return self._replace(data, lambda mention: b"*" * len(mention))


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
