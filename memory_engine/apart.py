"""What of a person's message is not their own words (pure, no I/O): tag blocks, code fences,
block quotes, a pasted e-mail or letter, quotation marks. The claim check refuses a fact quoted
from there (`memory_engine.claim`), and impact reads no cue there (`daemon.impact.sentences`).

A tag never closed runs to the message's end (a pasted document cut short), but one named
inside a line of prose is a mention of the tag, apart alone: "Vi skriver Composition API med
<script setup> her", "UMOWA_<nr rezerwacji>.pdf". A recalled memory's tag runs to the end
wherever it opens.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
# A tag block: <name ...> … </name> (recalled memory, system reminders, pasted documents).
TAG_BLOCK = re.compile(r"<([A-Za-z][\w:-]*)(?:\s[^>]*)?>.*?(?:</\1\s*>|\Z)", re.S)
RECALL_TAGS = re.compile(r"memor|recall|remember|context", re.I)
QUOTE_LINE = re.compile(r"(?m)^[ \t]*>.*$")
# The headers that open a pasted e-mail or a forwarded message; all after them is the document.
MAIL_HEADER = re.compile(
    r"(?im)^[ \t]*(?:from|to|subject|cc|date|de|an|von|betreff|objet|asunto|oggetto|assunto|от|тема)\s*:.*$"
    r"|^-{2,}\s*(?:original message|forwarded message|weitergeleitete nachricht|message transféré)\s*-*\s*$"
)
# A separator line or a letter's salutation: what follows is a pasted document.
PASTED_START = re.compile(r"(?m)^[ \t]*(?:[-=_*]{3,}[ \t]*$|(?:dear|hi|hello|liebe[rs]?|sehr geehrte[rs]?|cher|chère|bonjour|estimad[oa]s?|querid[oa]s?|gentile|caro|cara|beste|szanown[aiy]|уважаем\w*|дорог\w*)\b[^\n]{0,60},[ \t]*$)", re.I)
# Quotation marks around someone's words: "…", “…”, „…“, «…», 「…」, 『…』.
QUOTED = re.compile(r'"[^"\n]+"|“[^”\n]+”|„[^“”\n]+[“”]|«[^»\n]+»|「[^」]+」|『[^』]+』')


@dataclass(frozen=True)
class TagBlock:
    start: int
    end: int
    name: str

    @property
    def recalled(self) -> bool:
        return RECALL_TAGS.search(self.name) is not None


def spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def tag_blocks(text: str) -> list[TagBlock]:
    """Each tag block of `text` (see the module docstring for a tag never closed)."""
    found = []
    at = 0
    while (m := TAG_BLOCK.search(text, at)) is not None:
        block = TagBlock(m.start(), m.end(), m.group(1))
        closed = re.search(rf"</{re.escape(block.name)}\s*>\Z", m.group(0)) is not None
        inline = text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip() != ""
        if not (closed or block.recalled) and inline:
            block = TagBlock(m.start(), m.start() + m.group(0).index(">") + 1, block.name)
        found.append(block)
        at = max(block.end, m.start() + 1)
    return found


def apart_spans(message: str) -> list[tuple[int, int, str]]:
    """(start, end, reason) of every part of `message` (NFC) that is not the person's own
    words: tag blocks, code fences, block quotes, a pasted e-mail or letter (to the end),
    quotation marks. Reason: "recalled" or "quoted"."""
    text = unicodedata.normalize("NFC", message)
    found = [(b.start, b.end, "recalled" if b.recalled else "quoted") for b in tag_blocks(text)]
    found += [(a, b, "quoted") for pattern in (FENCE, QUOTE_LINE, QUOTED) for a, b in spans(pattern, text)]
    found += [(m.start(), len(text), "quoted") for m in (MAIL_HEADER.search(text), PASTED_START.search(text)) if m]
    return found
