"""A user message cut into sentences, and the parts of it that are not the person's own words
(pure, no I/O).

Sentences end at `.`, `!`, `?`, `…` (and their full-width forms) followed by a space or the
end, and at every line break; a full stop after an abbreviation any language lists ("e.g.",
"z.B.") ends nothing, nor one inside a word ("mark@fernhill.co", "3.12"), nor one after the
number of an item in a list ("1. 上線日是 3/18").

What is not the person's own words (`apart`): what `memory_engine.claim.apart_spans` finds
(tag blocks, code fences, block quotes, a pasted e-mail or letter, text in quotation marks);
text between single quotes ('never deploy on a Friday'); and tool output pasted as is:

- an indented line (two spaces or a tab: linter and compiler output, a pasted listing);
- a line that starts with a position, `path:12:` or `3:1`;
- after a line that ends with `:` or `?` ("the ruff output:", "what does this mean?"), the
  lines up to a blank line, when the first of them looks like output: one of the above, or
  a label opening it (`WARNUNG:`, `Warning:`, `Antidote — Style :`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from daemon.impact.cues import negations
from daemon.text.language import abbreviations
from memory_engine.claim import apart_spans

# A sentence ends after one of these, then a space, a closing quote or bracket, or the end;
# Chinese and Japanese write no space after their full stops ("…見せてね。今回は…"); one inside
# a quotation ends the words quoted, not the sentence ("「もう送った。」と言った").
END = re.compile(r"[.!?…。！？]+[\"'”’»)\]]*(?=\s|\Z)|[。！？｡]+(?![。！？｡\"'”’»)\]」』）】〕])|\n+")
SINGLE_QUOTED = re.compile(r"(?<![\w'’])['‘][^'‘’\n]{2,}?['’](?![\w'’])")
INDENTED = re.compile(r"(?m)^(?: {2,}|\t)\S.*$")
# A line opening with a position in a file ("src/a.ts:3:1 - error", "  12:4  error  …"): a
# bare "line:column" only with the columns or the severity of a tool's output after it (tools
# print those in English), not a time ("8:30 is school run").
POSITION = re.compile(r"(?m)^\s*(?:[\w./\\-]*[^\W\d][\w./\\-]*:\d+(?::\d+)?:?(?:\s|$)|\d+:\d+(?:\s{2,}|\t|$|\s+(?:error|warning|warn|info|note|hint)\b)).*$")
# A label opening a line of output: one word (or two joined by a dash) and a colon.
LABEL = re.compile(r"^\s*[\w-]{2,}(?:\s+[—–-]\s+\w+)?\s*:\s*\S")
INTRO_END = re.compile(r"[:?？]\s*\Z")
# The number of an item in a numbered list, alone before its full stop ("1.", "12."), ends nothing.
LIST_MARKER = re.compile(r"\d{1,3}\.")


@dataclass(frozen=True)
class Sentence:
    text: str  # as written, without the spaces around it
    start: int  # offsets into the NFC message
    end: int


def sentences(message: str) -> list[Sentence]:
    """The sentences of `message` (NFC), in order, with their offsets."""
    text = unicodedata.normalize("NFC", message)
    found: list[Sentence] = []
    start = 0
    for match in END.finditer(text):
        if match.group(0)[0] == "." and _abbreviation(text[start : match.start()], text[match.end() :]):
            continue
        if LIST_MARKER.fullmatch(text[start : match.end()].strip()) and text[match.end() : match.end() + 1].isspace() and text[match.end()] != "\n":
            continue  # "1. 上線日是 3/18": the number of an item in a list opens its sentence
        _add(found, text, start, match.end())
        start = match.end()
    _add(found, text, start, len(text))
    return found


def _abbreviation(before: str, after: str) -> bool:
    """Whether the full stop after `before` ends an abbreviation, not the sentence. One that is
    also a negation ("no.": No. 5) is one only before a number: "god no. dont touch it" is two."""
    last = before.rsplit(None, 1)[-1].casefold() if before.strip() else ""
    if not last or last not in abbreviations():
        return False
    return last not in negations() or after.lstrip()[:1].isdigit()


def _add(found: list[Sentence], text: str, start: int, end: int) -> None:
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    body = piece.strip()
    if body:
        found.append(Sentence(body, start + lead, start + lead + len(body)))


def apart(message: str) -> list[tuple[int, int]]:
    """(start, end) offsets into `message` (NFC) of every part that is not the person's own words."""
    text = unicodedata.normalize("NFC", message)
    spans = [(a, b) for a, b, _reason in apart_spans(text)]
    spans += [(m.start(), m.end()) for m in SINGLE_QUOTED.finditer(text)]
    spans += [(m.start(), m.end()) for pattern in (INDENTED, POSITION) for m in pattern.finditer(text)]
    spans += _pasted_blocks(text)
    return spans


def _pasted_blocks(text: str) -> list[tuple[int, int]]:
    """The blocks of output introduced by a line ending in ":" or "?" (see the module docstring)."""
    found: list[tuple[int, int]] = []
    lines = text.split("\n")
    offset = 0
    starts = []
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    i = 1
    while i < len(lines):
        first = lines[i]
        if INTRO_END.search(lines[i - 1]) and first.strip() and _output_like(first):
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            found.append((starts[i], starts[j - 1] + len(lines[j - 1])))
            i = j
        i += 1
    return found


def _output_like(line: str) -> bool:
    return bool(INDENTED.match(line) or POSITION.match(line) or LABEL.match(line))


def inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether [start, end) lies within one of `spans`."""
    return any(a <= start and end <= b for a, b in spans)


def within(spans: list[tuple[int, int]], sentence: Sentence) -> list[tuple[int, int]]:
    """The message's spans set apart (`apart`) that overlap the sentence, from its start."""
    return [(a - sentence.start, b - sentence.start) for a, b in spans if a < sentence.end and b > sentence.start]
