"""The one door for console output. Library code never prints; commands write here.

Every line and JSON document passes through `daemon.kernel.redact` on its way out, so a
registered secret is printed as `***` whatever path carried it here. Control characters
are printed as `\\x1b`-style escapes: a transcript, a fact or a skill name is untrusted
text, and a terminal would obey an escape sequence in it (retitle the window, write the
clipboard, clear or overwrite what the operator reads).
"""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any, TextIO

from pydantic import BaseModel

from daemon.kernel import redact

# C0 controls but tab and line feed, DEL, and the C1 controls (0x9b is a one-byte CSI).
_CONTROLS = [c for c in range(0x20) if c not in (0x09, 0x0A)] + list(range(0x7F, 0xA0))
_VISIBLE = {c: f"\\x{c:02x}" for c in _CONTROLS}
_JSON_SAFE = {c: f"\\u{c:04x}" for c in range(0x7F, 0xA0)}  # json.dumps escapes the C0 ones


def visible(text: str) -> str:
    """`text` with every control character a terminal would act on written as an escape."""
    return text.translate(_VISIBLE)


def _columns(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0  # accents, vowel signs, zero-width joiners: drawn on the character before
    if "\ufe00" <= char <= "\ufe0f":
        return 0  # variation selectors
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def width(text: str) -> int:
    """Terminal columns `text` takes: CJK and emoji take two, combining marks none."""
    return sum(_columns(char) for char in text)


def _pad(text: str, columns: int) -> str:
    return text + " " * (columns - width(text))


class Output:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    @property
    def stream(self) -> TextIO:
        return self._stream or sys.stdout

    def line(self, text: str = "") -> None:
        self.stream.write(visible(redact.redact(text)) + "\n")

    def lines(self, texts: list[str]) -> None:
        for text in texts:
            self.line(text)

    def json(self, value: Any) -> None:
        text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str)
        self.stream.write(redact.redact(text).translate(_JSON_SAFE) + "\n")

    def document(self, document: BaseModel) -> None:
        """A JSON document as its model dumps it: the model is the contract (docs/reference/json.md)."""
        self.json(document.model_dump(mode="json"))

    def table(self, headers: list[str], rows: list[list[str]]) -> None:
        # Masked before measuring: padded to a secret's length, a `***` would tell its length.
        # One line per row: a line break in a cell (a model-written title) would forge a row.
        rows = [[visible(redact.redact(cell)).replace("\n", "\\n") for cell in row] for row in rows]
        # Padded by terminal columns, not characters: a CJK or emoji value takes two.
        widths = [width(h) for h in headers]
        for row in rows:
            widths = [max(w, width(c)) for w, c in zip(widths, row, strict=True)]
        self.line("  ".join(_pad(h, w) for h, w in zip(headers, widths, strict=True)).rstrip())
        for row in rows:
            self.line("  ".join(_pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip())
