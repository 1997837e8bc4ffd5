"""A sentence whose words the agent's reply writes in place of its own, or takes out of its
work, or that it reworks its work after (pure, no I/O;
docs/explanation/impact.md#a-value-the-reply-swaps-in).

People set a value right by stating the right one alone, with no cue and often beside
another statement: "dev_arseniy.", "Cavalcanti, com i no final", "and terraform_version
1.9.8, that's what's in .terraform-version.". Whatever the agent's reply opens with, its work
tells: it writes a line of its turn before again with the person's word where its own was
("--target dev" → "--target dev_arseniy", "Dra. Renata Cavalcante." → "Dra. Renata
Cavalcanti.", a diff's "- terraform_version: 1.5.7" / "+ terraform_version: 1.9.8"). A
sentence with no cue of its own is a correction (kind `swapped`) when:

- a word of it is new to the agent: the reply holds it and the turn before does not (not a
  function word of the sentence's language; a number counts; NEW_WORD letters or more);
- a line of the reply holding it is a line of the turn before, or the "-" line of the reply's
  own diff, written again: alike in LIKE of their words (`difflib`'s ratio), the word in a
  stretch of at most SPAN words that took the place of a stretch of the old line — not one
  added beside it ("add the VAT line" adds a line; "also CC Mori" adds to one);
- it is nothing else the reply may take up: it introduces what follows, approves or tells a
  story (`amends.tells`), or is left out as a question, a one-off, a joke, a supposition, the
  person's own slip or someone else's words (`left_out.excluded`, read by the caller).

If no word is swapped in, a sentence naming a word of the agent's that the reply takes out is
one too (kind `dropped`): "xctest is only for the ui tests", "tira esse Prezado, parece carta
de banco.". The word is in a line the reply may write again and in none the reply writes;
such a line, written again alike, lost it in a stretch of at most SPAN words (taken out, or
put another stretch in its place).

A sentence with no cue is one too (kind `reworked`) when the reply writes a line of the turn
before again, changed (`Rewrites.reworks`; with no statement beside the sentence, keeping most
of the line, ALONE): the agent reworked its work, and a sentence of REWORKED_WORDS content
words that neither asks for work nor tells (`asks_or_tells`) says what was wrong
(docs/explanation/impact.md#in-a-message-the-agent-reworks-its-work-after).

The turns are read as their work's lines (`daemon.impact.work_lines`): not a tool's call nor
what a command printed, an edit's diff with its signs.
"""

from __future__ import annotations

import unicodedata
from difflib import SequenceMatcher
from functools import cache, cached_property

from daemon.impact.amends import approves, tells
from daemon.impact.clauses import Words, breaks, folded, words_of
from daemon.impact.content import content
from daemon.impact.cues import Cue
from daemon.impact.setright import asks_or_adds
from daemon.impact.work_lines import work_lines
from daemon.text.language import Language, known
from daemon.text.unicode_words import uncased

# How alike two lines' words must be for one to be the other written again (difflib's ratio:
# twice the words in common over the words of both).
LIKE = 0.3
# Words the stretch put in, and the stretch it took the place of, may have: a longer one is
# the line rewritten, not a value swapped.
SPAN = 10
# Letters a new word needs, unless it holds a digit ("5." is a house number; "a" is no value).
NEW_WORD = 2
# A word this long is new to the agent when its turn before does not hold it even inside a
# longer word ("heroku" in "herokuapp.com"); a shorter one when it is no word of that turn ("5"
# is new beside "9:05").
LONG_WORD = 4
# Share of the telling words of a reply with no edit that its turn before holds, for the reply to
# write that turn again (`Rewrites.writes_again`): three in five (a reply that goes on to new
# work shares its subject's words, not most of its words); the telling words it must have; and
# the words a line has at most to say nothing of whether it was sent again ("Final version:").
REWRITTEN = 0.6
REWRITE_WORDS = 4
SHORT_LINE = 3
# The share of them a reply keeps that stays on the turn before's work (`Rewrites.stays_on`):
# one in five, chosen on the read corpora and the held-out ones' figures (0.1 to 0.5 tried).
SAME_WORK = 0.2
# Of a line the reply writes again without a word, the share of its words the new line must
# have: a line cut down to a fragment of it ("due_date date NULL" of a sentence of prose that
# names the file) is another line.
WRITTEN_AGAIN = 0.5
# Characters of the reply read (its head: where an agent writes what it changed) and of the turn
# before (its tail: what the person answers; a turn may be megabytes of output).
READ_CHARS = 4000
READ_CHARS_BEFORE = 20_000
# Lines of the turn before one line of the reply is compared with, the most alike first: a
# pasted log of thousands of lines is not read line by line.
COMPARED = 200
# Content words a sentence needs to say what was wrong (`reworked`).
REWORKED_WORDS = 2
# Old lines a line of the reply is compared with to tell whether the reply reworks the turn
# before at all (`Rewrites.reworks`): those sharing most words with it.
REWORK_LOOKS = 5
# How alike the line written again must be to the old one for a rework to tell of a sentence
# with no statement beside it: most of the line kept, a stretch changed ("we kindly remind you
# …" written "we remind you …"); not a line of prose that names the same things ("Booked the
# Berlin hotel." answered "Sorry to hear that. Should I cancel the Berlin hotel?").
ALONE = 0.6
class Rewrites:
    """The agent's turn before a message and its reply after it, read as lines once however
    many of the message's sentences ask (see the module docstring)."""

    def __init__(self, before: str, reply: str) -> None:
        self.before = unicodedata.normalize("NFC", before[-READ_CHARS_BEFORE:])
        self.reply = unicodedata.normalize("NFC", reply[:READ_CHARS])
        self.before_folded = folded(self.before)
        self.reply_folded = folded(self.reply)
        # an old line → the line of the reply that writes it again (`_again`), found once however
        # many sentences ask
        self._written_again: dict[int, int | None] = {}

    def may_change(self, message: str) -> bool:
        """Whether the reply may have swapped in or taken out a word of `message`: one is in the
        reply and not the turn before, or the other way round (the cheap test first; there is
        no turn before or no reply, none is)."""
        if not self.before.strip() or not self.reply.strip():
            return False
        said = {w for w in words_of(message).low if len(w) >= NEW_WORD or any(c.isdigit() for c in w)}
        # a long word by substrings; a short one only when it is in one of the two turns at all
        # and no function word of any language ("is", "de"): its test reads the turns' words,
        # milliseconds on a long turn, which most messages need not pay
        if any(self._new_to_agent(w) or self._gone(w) for w in said if len(w) >= LONG_WORD):
            return True
        short = [w for w in said if len(w) < LONG_WORD and w not in _function_words()]
        return any(
            (w in self.reply_folded and self._new_to_agent(w)) or (w in self.before_folded and self._gone(w))
            for w in short
        )

    @cached_property
    def _old(self) -> list[tuple[str, ...]]:
        """The lines a reply's line may write again: the turn before's, and the "-" lines of the
        reply's own diff, without their placeholders."""
        return [w for _, w in work_lines(self.before, blanked=True)] + [w for sign, w in work_lines(self.reply, blanked=True) if sign == "-"]

    @cached_property
    def _new(self) -> list[tuple[str, ...]]:
        return [w for sign, w in work_lines(self.reply) if sign != "-"]

    @cached_property
    def _written(self) -> frozenset[str]:
        """The words of the reply's lines (not of its diff's "-" lines)."""
        return frozenset(w for line in self._new for w in line)

    @cached_property
    def _was(self) -> frozenset[str]:
        """The words of the lines the reply may write again."""
        return frozenset(w for line in self._old for w in line)

    @cached_property
    def _said_before(self) -> frozenset[str]:
        """The words of the turn before, for a short word: new to the agent if none of them."""
        return frozenset(words_of(self.before).low)

    @cached_property
    def _old_by_word(self) -> dict[str, list[int]]:
        return _index(self._old)

    @cached_property
    def _new_by_word(self) -> dict[str, list[int]]:
        return _index(self._new)

    @cached_property
    def _said_after(self) -> frozenset[str]:
        return frozenset(words_of(self.reply).low)

    def _new_to_agent(self, word: str) -> bool:
        """Whether the reply holds `word` and the turn before does not (`_holds`)."""
        return self._holds(word, after=True) and not self._holds(word, after=False)

    def _gone(self, word: str) -> bool:
        """Whether the turn before holds `word` and the reply does not: the cheap test of a word
        taken out."""
        return self._holds(word, after=False) and not self._holds(word, after=True)

    def _holds(self, word: str, after: bool) -> bool:
        """Whether the reply (`after`) or the turn before holds `word`: a long one (LONG_WORD)
        anywhere, even inside a longer word; a short one as one of its words."""
        if len(word) >= LONG_WORD:
            return word in (self.reply_folded if after else self.before_folded)
        return word in (self._said_after if after else self._said_before)

    def changed(self, lang: Language, text: str, words: Words) -> list[Cue]:
        """The cue of a sentence a word of which the reply writes in place of the agent's own
        (kind `swapped`), or, if none, that names a word the reply takes out of a line it writes
        again (kind `dropped`), with that word as its phrase; [] if neither (see the module
        docstring)."""
        valued = [
            w
            for w in words.low
            if (len(w) >= NEW_WORD or any(c.isdigit() for c in w)) and w not in lang.function_words
        ]
        put = {w for w in valued if self._new_to_agent(w)}
        for line in self._new:
            if put.intersection(line):
                for k in _alike(line, self._old_by_word):
                    word = self._changed(k, put, new_side=True)
                    if word is not None:
                        return [Cue("swapped", word, words.low.index(word))]
        taken = {w for w in valued if w in self._was and w not in self._written}
        for k, old in enumerate(self._old if taken else ()):
            if taken.intersection(old):
                word = self._changed(k, taken, new_side=False)
                if word is not None:
                    return [Cue("dropped", word, words.low.index(word))]
        return []

    def writes_again(self) -> bool:
        """Whether the reply writes the turn before again, changed (read for a reply that
        `Reply.drafts`): three in five (REWRITTEN) or more of the telling words of its lines
        (`_telling`; not a tool's call nor what it printed) stand in that turn's text,
        REWRITE_WORDS of them at least, and its lines of more than SHORT_LINE words are not all
        that turn's lines as they were ("Final version:" and the same draft changed nothing). A
        draft, a list or a plan written again in chat is its work redone, as an edit of the
        same file is in a tool session."""
        mine = self._telling_written
        if len(mine) < REWRITE_WORDS or self._kept < REWRITTEN * len(mine):
            return False
        kept = frozenset(self._old)
        return not all(line in kept for line in self._new if len(line) > SHORT_LINE)

    def stays_on(self) -> bool:
        """Whether the reply stays on the work of the turn before: a fifth (SAME_WORK) or more
        of the telling words of its lines stand in that turn's text. A next task's reply is
        about other things ("Sent to Lotte: …" after a booking)."""
        return bool(self._telling_written) and self._kept >= SAME_WORK * len(self._telling_written)

    @cached_property
    def _telling_written(self) -> frozenset[str]:
        """The telling words of the reply's lines (`_telling`), no function word of any language."""
        return frozenset(w for w in self._written if _telling(w)) - _function_words()

    @cached_property
    def _kept(self) -> int:
        """How many of them stand in the turn before's text: a number as a word of it ("2" is
        not kept by "312"), another word anywhere in it."""
        return sum(
            (w in self._said_before) if any(c.isdigit() for c in w) else (w in self.before_folded) for w in self._telling_written
        )

    def reworks(self, alone: bool = False) -> bool:
        """Whether the reply writes a line of the turn before again, changed: the agent reworked
        its work (the most alike old lines of each new one, REWORK_LOOKS of them, are looked at);
        for a sentence `alone` in its message, a line kept alike in ALONE."""
        kept = frozenset(self._old)
        for j, line in enumerate(self._new):
            if line in kept:
                continue
            for k in _alike(line, self._old_by_word)[:REWORK_LOOKS]:
                if self._again(k) == j and (not alone or _ratio(self._old[k], line) >= ALONE):
                    return True
        return False

    def _again(self, k: int) -> int | None:
        """The line of the reply that writes the `k`th old line again: of those alike in LIKE,
        the one sharing most words with it; None if none is. A line added beside the old one is
        not it: "Total: 100 EUR" is written again as "Total: 119 EUR", and "Net: 100 EUR" as
        itself, not as the "VAT: 19 EUR" added between them."""
        if k not in self._written_again:
            old = self._old[k]
            self._written_again[k] = next((j for j in _alike(old, self._new_by_word) if _like(old, self._new[j])), None)
        return self._written_again[k]

    def _changed(self, k: int, mine: set[str], new_side: bool) -> str | None:
        """The word of `mine` in a stretch the reply changed of the `k`th old line, in the line
        that writes it again (`_again`) — on the new side (put in, in place of a stretch) or the
        old side (taken out, or another stretch put in its place), the stretches short (SPAN).
        A line cut down to a fragment of the old one (WRITTEN_AGAIN) takes nothing out."""
        j = self._again(k)
        if j is None:
            return None
        old, new = self._old[k], self._new[j]
        if not new_side and len(new) < WRITTEN_AGAIN * len(old):
            return None
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if (tag == "replace" or (tag == "delete" and not new_side)) and i2 - i1 <= SPAN and j2 - j1 <= SPAN:
                said = [w for w in (new[j1:j2] if new_side else old[i1:i2]) if w in mine]
                if said:
                    return max(said, key=len)
        return None


def _ratio(old: tuple[str, ...], new: tuple[str, ...]) -> float:
    """How alike two lines' words are, in order (0 to 1)."""
    return SequenceMatcher(None, old, new, autojunk=False).ratio()


def _like(old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    """Whether two lines' words are alike in LIKE (the cheap bounds first), and share a word that
    is no function word of any language: "The build is green." is not "The site is live." written
    again."""
    if all(w in _function_words() for w in set(old) & set(new)):
        return False
    match = SequenceMatcher(None, old, new, autojunk=False)
    return match.real_quick_ratio() >= LIKE and match.quick_ratio() >= LIKE and match.ratio() >= LIKE


def _telling(word: str) -> bool:
    """Whether a word of a reply tells which turn it writes: LONG_WORD letters or more, a digit,
    or two letters of a script without spaces ("請求書", not "the")."""
    return len(word) >= LONG_WORD or any(c.isdigit() for c in word) or (len(word) >= 2 and uncased(word))


@cache
def _function_words() -> frozenset[str]:
    return frozenset(w for lang in known().values() for w in lang.function_words)


def _index(lines: list[tuple[str, ...]]) -> dict[str, list[int]]:
    """Which lines hold each word."""
    index: dict[str, list[int]] = {}
    for k, line in enumerate(lines):
        for w in set(line):
            index.setdefault(w, []).append(k)
    return index


def _alike(line: tuple[str, ...], index: dict[str, list[int]]) -> list[int]:
    """The lines (of `index`) sharing a word with `line`, those sharing most first (the earlier
    first among those sharing as many: a set's order changes from one process to the next),
    COMPARED at most."""
    shared: dict[int, int] = {}
    for w in set(line):
        for k in index.get(w, ()):
            shared[k] = shared.get(k, 0) + 1
    return sorted(shared, key=lambda k: (-shared[k], k))[:COMPARED]


def reworked(lang: Language, text: str, words: Words) -> list[Cue]:
    """The cue (kind `reworked`) of a sentence with no cue of its own, in a message after which
    the agent reworks its work (`Rewrites.reworks`): with REWORKED_WORDS content words or more
    it says what was wrong (its longest word names it)."""
    said = [w for w in words.low if w not in lang.function_words]
    return [Cue("reworked", max(said, key=len), 0)] if said and len(content(text, lang).stems) >= REWORKED_WORDS else []


def asks_or_tells(lang: Language, text: str, words: Words) -> bool:
    """Whether the sentence tells (`amends.tells`), approves the work (`amends.approves`: "route
    looks fine": the rework is of what the statement beside it said) or asks for work in any of
    its clauses (`setright.asks_or_adds`: "After that, update the patient list."): the next task
    beside a correction is no part of it. (Only here: a sentence the reply wrote a word of, or
    amended, is a correction whatever thanks it holds: "thanks, but the port is 5433".)"""
    return (
        tells(lang, text, words)
        or approves(lang, text, words)
        or any(asks_or_adds(lang, text, words, at) for at in (0, *breaks(text, words)))
    )
