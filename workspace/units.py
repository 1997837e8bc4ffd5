"""Markdown text as units: what a workspace rewrite must keep (pure, no I/O).

The text is read as blocks (`daemon.text.markdown_blocks`: fenced code, bullet items,
table rows, paragraphs, headings, rules). A *unit* is what must survive a rewrite: each
sentence of a bullet or paragraph, each table row, each code block. Headings and rules are
structure, not units — regrouping under clearer headings is what a consolidation is for.

Every unit has a *key* that decides when two units are "the same": prose is compared
normalised (`markdown_blocks.normalise`: Unicode NFC, display width, case but "I"/"İ",
bold and emphasis markers, whitespace, trailing punctuation; not NFKC, which makes "10⁶"
"106", not casefold, which makes "Maßen" "massen"; not `~~strike-through~~`, which withdraws
a note, however it is marked: `~x~`, `<del>x</del>`, `<s>x</s>` are `~~x~~`), but
code spans, markdown links and bare URLs inside it are kept verbatim in the key, so they
must survive byte for byte; a code block's key is its exact text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from daemon.text.language import Language, detect
from daemon.text.markdown_blocks import (
    BULLET,
    FENCE,
    HEADING,
    PLACEHOLDER,
    PROTECTED,
    RULE,
    TABLE_SEPARATOR,
    Block,
    BlockKind,
    fingerprint_key,
    normalise,
    parse_blocks,
    sentences,
)
from daemon.text.markdown_blocks import mask as _mask
from daemon.text.words import stopwords, tokens

__all__ = [
    "BULLET",
    "FENCE",
    "HEADING",
    "PROTECTED",
    "RULE",
    "TABLE_SEPARATOR",
    "Block",
    "BlockKind",
    "Unit",
    "UnitKind",
    "block_key",
    "content_words",
    "critical_tokens",
    "fingerprint_key",
    "normalise",
    "parse_blocks",
    "sentences",
    "similarity",
    "units_of",
]

UnitKind = Literal["code", "bullet", "sentence", "row"]

NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*%?")
HANDLE = re.compile(r"(?<![\w/])[#@]\w[\w-]*(?:\.\w[\w-]*)*")
PATH = re.compile(r"(?<![\w/#@])[\w.-]+(?:/[\w.-]+)+")
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


@dataclass(frozen=True)
class Unit:
    file: str
    line: int
    kind: UnitKind
    text: str
    key: str


def _row_key(text: str) -> str:
    cells = [normalise(cell) for cell in text.strip().strip("|").split("|")]
    return " | ".join(cells)


def block_key(block: Block) -> str:
    """The key de-duplication compares blocks by ("" for structure)."""
    if block.kind == "code":
        return "\x00code\x00" + block.raw
    if block.kind == "row":
        return "\x00row\x00" + _row_key(block.text)
    if block.kind in ("bullet", "paragraph"):
        return normalise(block.text)
    return ""


def units_of(file: str, text: str) -> Iterator[Unit]:
    """Every unit of `text`, with the file and line it is on."""
    for block in parse_blocks(text):
        if block.kind == "code":
            yield Unit(file, block.start, "code", block.raw, block_key(block))
        elif block.kind == "row":
            yield Unit(file, block.start, "row", block.text, block_key(block))
        elif block.kind in ("bullet", "paragraph"):
            kind: UnitKind = "bullet" if block.kind == "bullet" else "sentence"
            for sentence in sentences(block.text):
                key = normalise(sentence)
                if key:
                    yield Unit(file, block.start, kind, sentence, key)


def critical_tokens(text: str) -> set[str]:
    """Code spans, links, URLs, numbers, #channels and paths of `text`, verbatim.

    The loss check no longer uses this: what a merge must keep is `daemon.text.meaning`'s one
    notion, shared with the skills engine. Kept for callers of this module's API."""
    masked, segments = _mask(text)
    plain = PLACEHOLDER.sub(" ", masked)
    tokens = set(segments)
    for pattern in (NUMBER, HANDLE, PATH):
        tokens.update(m.group(0).rstrip(".-") for m in pattern.finditer(plain))
    return {t for t in tokens if t}


def content_words(text: str, lang: Language | None = None) -> set[str]:
    """The content words of `text` outside its code, links and URLs, as the text layer folds them
    (`daemon.text.words.tokens`: case, inflection, number words), the language's function
    words left out."""
    masked, _segments = _mask(normalise(text))
    stop = stopwords(lang)
    return {w for w in tokens(PLACEHOLDER.sub(" ", masked), lang) if w not in stop and len(w) > 1}


def similarity(merged: str, kept: str) -> float:
    """How much of `merged` the `kept` text carries: the larger of content-word containment
    (share of merged's content words found in kept) and the character-level ratio."""
    lang = detect([merged, kept])  # one language for both, so their stems compare
    words = content_words(merged, lang)
    containment = len(words & content_words(kept, lang)) / len(words) if words else 0.0
    ratio = SequenceMatcher(None, normalise(merged), normalise(kept), autojunk=False).ratio()
    return max(containment, ratio)
