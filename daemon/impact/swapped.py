"""A sentence whose words the agent's reply writes in place of its own, or takes out of its
work (pure, no I/O; docs/explanation/impact.md#a-value-the-reply-swaps-in).

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

The lines of a tool call and of what a command printed (under "● Bash(…)", "• Ran …",
"[tool: shell …]") are not read: a command's output changes with the world, not with what
the person said. An edit's diff (under "● Update(…)", "• Edited …") is the agent's work.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import cached_property

from daemon.impact.clauses import Words, words_of
from daemon.impact.cues import Cue
from daemon.text.language import Language

# How alike two lines' words must be for one to be the other written again (difflib's ratio:
# twice the words in common over the words of both).
LIKE = 0.3
# Words the stretch put in, and the stretch it took the place of, may have: a longer one is
# the line rewritten, not a value swapped.
SPAN = 10
# Letters a new word needs, unless it holds a digit ("5." is a house number; "a" is no value).
NEW_WORD = 2
# Characters of the reply read (its head: where an agent writes what it changed) and of the turn
# before (its tail: what the person answers; a turn may be megabytes of output).
READ_CHARS = 4000
READ_CHARS_BEFORE = 20_000
# Lines of the turn before one line of the reply is compared with, the most alike first: a
# pasted log of thousands of lines is not read line by line.
COMPARED = 200
# A tool call's line, as the adapters write it ("[tool: Bash: …]") or a runtime renders it
# ("● Bash(…)", "• Ran …", "• Edited …", "$ make test"), and those of an edit, whose indented
# lines after it are its diff.
TOOL_CALL = re.compile(r"^[ \t]*(?:\[tool: |[●⏺][ \t]*\w+\(|•[ \t]*(?:Ran|Edited|Explored|Added|Wrote|Read|Called|Deleted)\b|\$ )")
EDIT_CALL = re.compile(r"^[ \t]*(?:\[tool: (?:Edit|MultiEdit|Write)\b|[●⏺][ \t]*(?:Update|Edit|MultiEdit|Write)\(|•[ \t]*(?:Edited|Added|Wrote)\b)")
# What opens a line and is no word of it: a runtime's marks, a quote's, a list's, a heading's.
MARKS = re.compile(r"^[\s⎿└●⏺•>|*#]*")
# A diff's line: its number (Claude Code writes "12 -  old"), its sign, then the line.
DIFF = re.compile(r"^(?:\d+[ \t]+)?([+-])(?:[ \t]|$)")
# … and in a ```diff fence, where the sign opens the line ("-    runs-on: ubuntu-latest").
FENCED_DIFF = re.compile(r"^([+-])(?![+-])")


def _lines(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The lines of an agent's turn as (diff sign or "", words), without its tool calls' lines
    and what a command printed under one (indented lines after it). A "+" or "-" opening a line
    is a diff's sign only in an edit's diff (the indented lines after it) or a ```diff fence; in
    prose it is a list's mark."""
    found: list[tuple[str, tuple[str, ...]]] = []
    under: str | None = None  # "edit" or "output": the tool call the indented lines belong to
    fenced = False  # inside a ```diff fence
    for raw in text.splitlines():
        if raw.lstrip().startswith("```"):
            fenced = raw.lstrip()[3:].strip().casefold() == "diff" and not fenced
            under = None
            continue
        if TOOL_CALL.match(raw):
            under = "edit" if EDIT_CALL.match(raw) else "output"
            continue
        if under is not None and raw[:1] in (" ", "\t") and raw.strip():
            if under == "output":
                continue
        else:
            under = None
        line = MARKS.sub("", raw)
        sign = ""
        diff = DIFF.match(line) if under == "edit" else FENCED_DIFF.match(raw) if fenced else None
        if diff is not None:
            sign, line = diff.group(1), line[diff.end() :]
        said = words_of(line).low
        if said:
            found.append((sign, said))
    return found


class Rewrites:
    """The agent's turn before a message and its reply after it, read as lines once however
    many of the message's sentences ask (see the module docstring)."""

    def __init__(self, before: str, reply: str) -> None:
        self.before = before[-READ_CHARS_BEFORE:]
        self.reply = reply[:READ_CHARS]
        self.before_folded = self.before.casefold()
        self.reply_folded = self.reply.casefold()

    @classmethod
    def of(cls, before: str, reply: str, message: str) -> Rewrites | None:
        """The turns around `message`, read for it; None if the reply can have swapped in or
        taken out none of its words: there is no turn before or reply, or no word of the
        message is in one and not the other (the cheap test first)."""
        if not before.strip() or not reply.strip():
            return None
        rewrites = cls(before, reply)
        said = [w for w in words_of(message).low if len(w) >= NEW_WORD or any(c.isdigit() for c in w)]
        return rewrites if any((w in rewrites.reply_folded) != (w in rewrites.before_folded) for w in said) else None

    @cached_property
    def _old(self) -> list[tuple[str, ...]]:
        """The lines a reply's line may write again: the turn before's, and the "-" lines of the
        reply's own diff."""
        return [w for _, w in _lines(self.before)] + [w for sign, w in _lines(self.reply) if sign == "-"]

    @cached_property
    def _new(self) -> list[tuple[str, ...]]:
        return [w for sign, w in _lines(self.reply) if sign != "-"]

    @cached_property
    def _written(self) -> frozenset[str]:
        """The words of the reply's lines (not of its diff's "-" lines)."""
        return frozenset(w for line in self._new for w in line)

    @cached_property
    def _was(self) -> frozenset[str]:
        """The words of the lines the reply may write again."""
        return frozenset(w for line in self._old for w in line)

    @cached_property
    def _old_by_word(self) -> dict[str, list[int]]:
        return _index(self._old)

    @cached_property
    def _new_by_word(self) -> dict[str, list[int]]:
        return _index(self._new)

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
        put = {w for w in valued if w in self.reply_folded and w not in self.before_folded}
        for line in self._new:
            if put.intersection(line):
                for old in _alike(line, self._old, self._old_by_word):
                    word = _changed(old, line, put, "replace", new_side=True)
                    if word is not None:
                        return [Cue("swapped", word, words.low.index(word))]
        taken = {w for w in valued if w in self._was and w not in self._written}
        for old in self._old if taken else ():
            if taken.intersection(old):
                for line in _alike(old, self._new, self._new_by_word):
                    word = _changed(old, line, taken, "delete", new_side=False)
                    if word is not None:
                        return [Cue("dropped", word, words.low.index(word))]
        return []


def _index(lines: list[tuple[str, ...]]) -> dict[str, list[int]]:
    """Which lines hold each word."""
    index: dict[str, list[int]] = {}
    for k, line in enumerate(lines):
        for w in set(line):
            index.setdefault(w, []).append(k)
    return index


def _alike(line: tuple[str, ...], lines: list[tuple[str, ...]], index: dict[str, list[int]]) -> list[tuple[str, ...]]:
    """The lines sharing a word with `line`, those sharing most first, COMPARED at most."""
    shared: dict[int, int] = {}
    for w in set(line):
        for k in index.get(w, ()):
            shared[k] = shared.get(k, 0) + 1
    return [lines[k] for k in sorted(shared, key=lambda k: -shared[k])[:COMPARED]]


def _changed(old: tuple[str, ...], new: tuple[str, ...], mine: set[str], also: str, new_side: bool) -> str | None:
    """The word of `mine` in a stretch `new` changed of `old` — on the new side (put in, in
    place of a stretch: a "replace") or the old side (taken out: a "replace" or an `also`
    "delete") — if `new` is `old` written again (LIKE) and the stretches are short (SPAN)."""
    match = SequenceMatcher(None, old, new, autojunk=False)
    if match.real_quick_ratio() < LIKE or match.quick_ratio() < LIKE or match.ratio() < LIKE:
        return None
    for tag, i1, i2, j1, j2 in match.get_opcodes():
        if tag in ("replace", also) and i2 - i1 <= SPAN and j2 - j1 <= SPAN:
            said = [w for w in (new[j1:j2] if new_side else old[i1:i2]) if w in mine]
            if said:
                return max(said, key=len)
    return None
