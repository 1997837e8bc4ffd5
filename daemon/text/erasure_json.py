"""Where an erasure may write in JSON text: inside string values, nowhere else.

A purged value can be any token — `1`, `true`, `version` — that JSON text also holds as a
number, a literal or a key. Those are never touched, nor is the structure: only string
values are decoded, erased by the caller and re-encoded if they changed; every other byte
stays as it was. Strings cannot span lines, so a line that is not valid JSON is handled
alike (only its quoted strings, a last unterminated one running to the end of the line),
and `unparsed_lines` names those lines for a report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

# A string token: a quote, then escapes or anything but a quote, a backslash or a line end,
# up to the closing quote or (a truncated line) the end of the line.
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*(?:"|$)', re.MULTILINE)
_KEY = re.compile(r"[ \t\r\n]*:")
# The key a string value belongs to: `"name" :` right before it (keys of ours are short).
_OWNER = re.compile(r'"((?:[^"\\\n]|\\.){1,64})"[ \t\r\n]*:[ \t\r\n]*\Z')
_OWNER_WINDOW = 80
# Fields of the daemon's own files that hold identifiers, never what a person said: a fact's
# owner and address, ids, dates, paths, states. A purged value that happens to equal one
# ("default", "user", "open", "memory") must not rename every record's tenant or proposal's
# decision; the person's words live in `value`, `quote`, texts and reports, which are erased.
IDENTIFIER_FIELDS = frozenset(
    {
        "tenant", "user", "entity", "key", "source", "memory_type", "kind", "id", "supersedes_memory_id",
        "source_event_id", "valid_from", "valid_to", "observed_at", "schema_version", "version",
        "decision", "status", "action", "outcome", "by", "at", "created_at", "run_id", "created_by_run",
        "agent", "consumer", "pass_name", "path", "target", "file", "base_sha256", "fingerprint",
        "started_at", "finished_at", "head", "tail",
    }
)  # fmt: skip


def is_container(text: str) -> bool:
    """Whether `text` is one JSON object or array (what a record or a document is)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return False
    try:
        json.loads(stripped)
    except (ValueError, RecursionError):
        return False
    return True


def erase_strings(text: str, erase: Callable[[str], str]) -> str:
    """`text` with each string value `s` replaced by `erase(s)`, re-encoded; keys, the values of
    IDENTIFIER_FIELDS and the rest kept."""
    out: list[str] = []
    last = 0
    for match in _STRING.finditer(text):
        token = match.group(0)
        closed = len(token) > 1 and token.endswith('"')
        if closed and _KEY.match(text, match.end()):
            continue
        owner = _OWNER.search(text, max(0, match.start() - _OWNER_WINDOW), match.start())
        if owner is not None and owner.group(1) in IDENTIFIER_FIELDS:
            continue
        try:
            decoded = json.loads(token if closed else token + '"')
        except ValueError:
            # Not decodable (a raw tab, an unknown escape): erased as it is written; the
            # replacement holds no quote or backslash, so the token stays what it was.
            inner = token[1:-1] if closed else token[1:]
            erased_raw = erase(inner)
            if erased_raw != inner:
                out += [text[last : match.start()], '"', erased_raw, '"' if closed else ""]
                last = match.end()
            continue
        erased = erase(decoded)
        if erased == decoded:
            continue
        encoded = json.dumps(erased, ensure_ascii=token.isascii())
        out += [text[last : match.start()], encoded if closed else encoded[:-1]]
        last = match.end()
    return "".join(out) + text[last:] if out else text


def unparsed_lines(text: str) -> list[int]:
    """Line numbers (1-based) of the non-blank lines that are not JSON, if the whole text is not."""
    try:
        json.loads(text)
        return []
    except (ValueError, RecursionError):
        pass
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            try:
                json.loads(line)
            except (ValueError, RecursionError):
                found.append(number)
    return found
