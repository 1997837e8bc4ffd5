"""A notice a tool or a site printed, pasted in English among the person's own words in
another language (pure, no I/O; docs/explanation/impact.md#what-is-left-out).

"e isso aqui que apareceu no painel?" above "Wordfence: Your site is not protected by
two-factor authentication. Administrators should always enable 2FA." asks about a notice: its
"always" is the site's. `left_out.pasted_output` leaves out a tool's message by its format (a
level, a call, brackets); a notice in prose has none, so it is told by how it stands in the
message instead (`printed_notices`).
"""

from __future__ import annotations

from dataclasses import replace

from daemon.impact.clauses import words_of
from daemon.impact.left_out import TOOL_SAYS_TOO
from daemon.impact.neighbours import Read, Reading
from daemon.impact.sentences import Sentence
from daemon.text.language import Language, detect

# Words of the printed sentence a notice's rule goes on: a tool's or a site's message is long
# ("GitGuardian has detected the following Telegram Bot Token exposed within your GitHub
# account.", "Webnode: Changes are not visible until you publish."); a person's own note before
# a rule is short ("Note: this repo is public.", "Important: this is for the client.").
PRINTED = 8


def printed_notices(read: Read, text: str, usual: Language | None) -> Read:
    """`read` with every sentence of the message `text` that is part of a printed notice left
    out (see the module docstring). Such a sentence is read in English, in a session the person
    writes another language in (`usual`); its cues are only words a tool says too
    (`TOOL_SAYS_TOO`); it is written as printed text is, a capital letter first and a full stop
    last, naming no one (no "I", no "we"); the message holds a sentence in the person's
    language; and it goes on a printed sentence before it (English with no cue, PRINTED words or
    more) or stands on lines of its own, apart from the person's words. Not "ok pour le texte.
    Always write the dates as 22/01/2026." nor "Note: this repo is public. Never commit
    secrets.", typed by the person."""
    own = {code for code in usual.code.split("+") if code != "en"} if usual is not None else set()
    if not own or len(read) < 2 or not any(_as_printed(s, r) for s, r in read):
        return read
    theirs = [_in(sentence, own) for sentence, _ in read]
    if not any(theirs):
        return read
    printed: set[int] = set()
    for i, (sentence, reading) in enumerate(read):
        if not _as_printed(sentence, reading):
            continue
        if i > 0 and _goes_on(read[i - 1]):
            printed |= {i - 1, i}  # … and the printed sentence it goes on: no reply's reading takes it
        elif not any(theirs[j] for j in _on_its_line(read, text, i)):
            printed.add(i)
    return [(s, replace(r, excluded=True)) if i in printed else (s, r) for i, (s, r) in enumerate(read)]


def _on_its_line(read: Read, text: str, at: int) -> list[int]:
    """The positions in `read` of the sentences on the line of the one at `at`."""
    start = text.rfind("\n", 0, read[at][0].start) + 1
    end = text.find("\n", read[at][0].end)
    end = len(text) if end < 0 else end
    return [j for j, (s, _) in enumerate(read) if s.start >= start and s.end <= end]


def _as_printed(sentence: Sentence, reading: Reading) -> bool:
    """Whether the sentence, read in English, says only what a tool says too, as printed."""
    lang, body = reading.language, sentence.text.strip()
    if lang is None or lang.code != "en" or reading.excluded or not reading.cues or not body.endswith("."):
        return False
    if not all(c.kind in TOOL_SAYS_TOO for c in reading.cues):
        return False
    first = next((ch for ch in body if ch.isalpha()), "")
    person = lang.words("first_person") | lang.words("first_person_plural")
    return first.isupper() and not set(words_of(body).low) & person


def _goes_on(before: tuple[Sentence, Reading]) -> bool:
    """Whether the sentence before is printed English with no cue, PRINTED words or more."""
    sentence, reading = before
    if reading.cues or len(words_of(sentence.text).low) < PRINTED:
        return False
    found = detect([sentence.text])
    return found is not None and found.code == "en"


def _in(sentence: Sentence, own: set[str]) -> bool:
    """Whether the sentence is in one of the person's languages (`own`)."""
    found = detect([sentence.text]) if sentence.text.strip() else None
    return found is not None and bool(own & set(found.code.split("+")))
