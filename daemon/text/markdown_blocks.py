"""Markdown text as blocks, its sentences and the key prose is compared by (pure, no I/O).

A *block* is a span of lines: a fenced code block, a bullet item (with its indented
continuation lines; a numbered item is one too), a table row, a paragraph, a heading, a rule.
What must survive a rewrite is built on these: the workspace's units (`workspace.units`)
and the skills' kept units (`daemon.text.kept_units`).

Prose is compared normalised (`normalise`: Unicode NFC, display width, case but "I"/"İ",
bold and emphasis markers, whitespace, trailing punctuation; not NFKC, which makes "10⁶"
"106", not casefold, which makes "Maßen" "massen"; not `~~strike-through~~`, which withdraws
a note, however it is marked: `~x~`, `<del>x</del>`, `<s>x</s>` are `~~x~~`), but code spans,
markdown links and bare URLs inside it are kept verbatim in the key, so they must survive
byte for byte.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from daemon.text.language import abbreviations
from daemon.text.strike import struck_as_tildes

BlockKind = Literal["code", "bullet", "row", "paragraph", "heading", "rule"]

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
BULLET = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$")
TABLE_SEPARATOR = re.compile(r"^\|?[\s:|-]+\|?$")
# Verbatim segments: code spans, markdown links/images, bare URLs.
PROTECTED = re.compile(
    r"(`+)(?:.+?)\1|!?\[[^\]\n]*\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|https?://[^\s<>()`]+[^\s<>()`.,;:!?'\"]"
)
PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
SENTENCE_END = re.compile(r"[.!?]+[\"')\]»”’]*\s+")
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"'})


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    start: int  # first line, 1-based
    end: int  # last line, 1-based, inclusive
    raw: str  # the lines exactly as written
    text: str  # bullet/paragraph text without markers, lines joined by one space


def _starts_other_block(line: str) -> bool:
    stripped = line.strip()
    return bool(
        not stripped
        or FENCE.match(line)
        or HEADING.match(line)
        or RULE.match(line)
        or BULLET.match(line)
        or stripped.startswith("|")
    )


def _closes(line: str, marker: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(marker[0] * len(marker)) and not stripped.strip(marker[0])


def parse_blocks(text: str) -> list[Block]:
    """The blocks of a markdown text, in order; blank lines separate, never belong."""
    lines = text.split("\n")
    blocks: list[Block] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            j = i + 1
            while j < n and not _closes(lines[j], fence.group(1)):
                j += 1
            end = min(j, n - 1)
            raw = "\n".join(lines[i : end + 1])
            blocks.append(Block("code", i + 1, end + 1, raw, raw))
            i = end + 1
            continue
        if HEADING.match(line) or RULE.match(line):
            blocks.append(Block("heading" if HEADING.match(line) else "rule", i + 1, i + 1, line, stripped))
            i += 1
            continue
        if stripped.startswith("|"):
            kind: BlockKind = "rule" if TABLE_SEPARATOR.match(stripped) else "row"
            blocks.append(Block(kind, i + 1, i + 1, line, stripped))
            i += 1
            continue
        bullet = BULLET.match(line)
        if bullet:
            indent = len(bullet.group(1))
            parts = [bullet.group(3).strip()]
            j = i + 1
            while j < n and not _starts_other_block(lines[j]) and _indent(lines[j]) > indent:
                parts.append(lines[j].strip())
                j += 1
            blocks.append(Block("bullet", i + 1, j, "\n".join(lines[i:j]), " ".join(parts)))
            i = j
            continue
        parts = []
        j = i
        while j < n and (j == i or not _starts_other_block(lines[j])):
            parts.append(re.sub(r"^(>\s?)+", "", lines[j].strip()))
            j += 1
        blocks.append(Block("paragraph", i + 1, j, "\n".join(lines[i:j]), " ".join(parts)))
        i = j
    return blocks


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def mask(text: str) -> tuple[str, list[str]]:
    segments: list[str] = []

    def keep(match: re.Match[str]) -> str:
        segments.append(match.group(0))
        return f"\ue000{len(segments) - 1}\ue001"

    return PROTECTED.sub(keep, text), segments


def unmask(text: str, segments: list[str]) -> str:
    return PLACEHOLDER.sub(lambda m: segments[int(m.group(1))], text)


def sentences(text: str) -> list[str]:
    """Split prose into sentences; code spans, links and URLs are never split."""
    masked, segments = mask(text)
    found: list[str] = []
    start = 0
    for match in SENTENCE_END.finditer(masked):
        before = masked[start : match.start()].rsplit(" ", 1)[-1].casefold().strip("([\"'")
        if before in abbreviations() or (len(before) == 1 and before.isalpha()) or before.isdigit():
            continue
        found.append(masked[start : match.end()].strip())
        start = match.end()
    found.append(masked[start:].strip())
    return [unmask(s, segments) for s in found if s]


def _width_folds() -> dict[int, str]:
    # Fullwidth ＡＰＩ３ and halfwidth ｶﾞ are only display widths of API3 and ガ (Unicode's
    # <wide>/<narrow> compatibility forms); all of them live in U+3000 and U+FF00-U+FFEF.
    folds: dict[int, str] = {}
    for code in (0x3000, *range(0xFF00, 0xFFF0)):
        tag, _, target = unicodedata.decomposition(chr(code)).partition(" ")
        if tag in ("<wide>", "<narrow>"):
            folds[code] = "".join(chr(int(part, 16)) for part in target.split())
    return folds


WIDTH = _width_folds()
# "I" is "ı" in Turkish and Azeri (ILIK "lukewarm", ilik "marrow"): it and "İ" keep their case.
CASED = re.compile(r"[^Iİ]+")


def _lower(text: str) -> str:
    return CASED.sub(lambda m: m.group(0).lower(), text)


def normalise(text: str) -> str:
    """The comparison key of a piece of prose; verbatim segments stay byte for byte.

    Folds only what never changes what a note says: canonical composition (NFC: "ü" is "u" plus
    a combining diaeresis), display width, whitespace, case by `str.lower` ("ß" stays "ß";
    `casefold` makes "Maßen" "massen", another word) but not "I"/"İ", and emphasis. Not NFKC:
    it makes "10⁶" "106" and "2³" "23"."""
    return _prose_key(text, lambda value: unicodedata.normalize("NFC", value.translate(WIDTH)), _lower)


def fingerprint_key(text: str) -> str:
    """The key contradictions are fingerprinted by: `normalise` as it was, with NFKC and casefold.

    Frozen, not for comparing notes: the review queue recognises proposals a person rejected by
    these fingerprints, so a new key would bring every rejected one back."""
    return _prose_key(text, lambda value: unicodedata.normalize("NFKC", value), str.casefold)


def _prose_key(text: str, fold: Callable[[str], str], lower: Callable[[str], str]) -> str:
    masked, segments = mask(text)
    value = fold(masked).translate(QUOTES)
    # Bold and emphasis only stress a note; `~~strike-through~~` withdraws it, so it stays.
    value = re.sub(r"\*\*|__", "", struck_as_tildes(value))
    value = re.sub(r"(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", value)
    value = re.sub(r"\s+", " ", lower(value)).strip().rstrip(" .;:!,")
    value = re.sub(r"[ .;:!,]+~~$", "~~", value)
    return unmask(value, segments)
