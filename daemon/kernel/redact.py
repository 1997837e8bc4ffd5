"""The one redaction door: a registered secret never leaves the process in what we write.

The edge that reads a secret (the model API key, the values of `redact_env` variables)
registers it here; every door that writes — log lines, console output, atomic file
writes — passes its text through `redact`. The registry is process-wide and only grows
(`reset` exists for tests).

A secret is matched as written and in the spellings it takes inside a JSON log line or
a Python repr (escaped quotes, backslashes, non-ASCII), so escaping never smuggles it
out. Values shorter than `MIN_LENGTH` characters are ignored: a one-character "key"
would otherwise mask every occurrence of that character in every line — such a value
is no secret worth the name, and masking it would make the logs useless.

With nothing registered, each call returns its input at once.
"""

from __future__ import annotations

import json
import threading

MASK = "***"
MIN_LENGTH = 8

_lock = threading.Lock()
_secrets: frozenset[str] = frozenset()
# Longest first, so a secret that contains another one is masked whole.
_forms: tuple[str, ...] = ()
_byte_forms: tuple[bytes, ...] = ()


NESTING = 3  # a path's repr, inside an exception's repr, inside a JSON log line


def _spellings(value: str) -> set[str]:
    """`value` as written and as JSON and repr escape it, nested up to NESTING deep, plus its
    HTML spellings (console pages). A value without quotes, backslashes or non-ASCII has one."""
    escapes = (
        lambda v: json.dumps(v)[1:-1],
        lambda v: json.dumps(v, ensure_ascii=False)[1:-1],
        lambda v: repr(v)[1:-1],
    )
    forms = {value}
    for _ in range(NESTING):
        forms |= {escape(form) for form in forms for escape in escapes}
    return forms | _html_spellings(value)


def _html_spellings(value: str) -> set[str]:
    # Python's html.escape writes quotes as &quot; &#x27;, Jinja (markupsafe) as &#34; &#39;.
    text = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return {
        text.replace('"', "&quot;").replace("'", "&#x27;"),
        text.replace('"', "&#34;").replace("'", "&#39;"),
    }


def _encode(text: str) -> bytes:
    # A value read from os.environ may carry undecodable bytes as lone surrogates.
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def register(value: str | None) -> None:
    """From now on, mask `value` everywhere. None, empty and values shorter than MIN_LENGTH are ignored."""
    global _secrets, _forms, _byte_forms
    if not value or len(value) < MIN_LENGTH or value in _secrets:
        return
    with _lock:
        secrets = _secrets | {value}
        forms = sorted({form for secret in secrets for form in _spellings(secret)}, key=len, reverse=True)
        byte_forms = {_encode(form) for form in forms}
        byte_forms |= {repr(_encode(secret))[2:-1].encode() for secret in secrets}
        # Swap whole tuples: readers in other threads see the old set or the new one.
        _byte_forms = tuple(sorted(byte_forms, key=len, reverse=True))
        _forms = tuple(forms)
        _secrets = secrets


def redact(text: str) -> str:
    """`text` with every registered secret (in any of its spellings) replaced by `***`."""
    for form in _forms:
        text = text.replace(form, MASK)
    return text


def redact_bytes(data: bytes) -> bytes:
    """Like `redact`, for UTF-8 (or any ASCII-compatible) bytes."""
    for form in _byte_forms:
        data = data.replace(form, MASK.encode())
    return data


def contains_secret(text: str) -> bool:
    """True if `text` holds a registered secret in any of its spellings."""
    return any(form in text for form in _forms)


def reset() -> None:
    """Forget every registered secret (tests only: a process never un-learns a secret)."""
    global _secrets, _forms, _byte_forms
    with _lock:
        _secrets, _forms, _byte_forms = frozenset(), (), ()
