"""The one door for console output. Library code never prints; commands write here.

Every line and JSON document passes through `daemon.kernel.redact` on its way out, so a
registered secret is printed as `***` whatever path carried it here.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from daemon.kernel import redact


class Output:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    @property
    def stream(self) -> TextIO:
        return self._stream or sys.stdout

    def line(self, text: str = "") -> None:
        self.stream.write(redact.redact(text) + "\n")

    def lines(self, texts: list[str]) -> None:
        for text in texts:
            self.line(text)

    def json(self, value: Any) -> None:
        text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str)
        self.stream.write(redact.redact(text) + "\n")

    def table(self, headers: list[str], rows: list[list[str]]) -> None:
        # Masked before measuring: padded to a secret's length, a `***` would tell its length.
        rows = [[redact.redact(cell) for cell in row] for row in rows]
        widths = [len(h) for h in headers]
        for row in rows:
            widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
        self.line("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip())
        for row in rows:
            self.line("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
