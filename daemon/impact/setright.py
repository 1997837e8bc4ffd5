"""A value of the agent's turn set right by the person's sentence, with no correction word
(pure, no I/O; docs/explanation/impact.md#set-right-without-a-word).

People often correct by stating the right value alone: "діагностика батареї 350" to an agent
that wrote "Діагностика батареї — всього 250 грн", "Rosario es AR-03." to one that filtered
on 'AR-01', "fallback for the uk workspace is gbp. not usd" to one that falls back to USD.
Only the agent's turn just before (`daemon.impact.echo.Answered`) tells these from news, so
each reading compares the two:

- **other value**: a number said after a word the agent said a different number after,
  within SLOT words ("батареї 350" / "батареї — всього 250"), the person's number not in the
  agent's turn at all;
- **variant**: a name in code the agent wrote differently — the same parts otherwise ordered
  or punctuated ("142.310,00 kr." / "142,310.00", "stripe/webhook" / "webhooks/stripe"), one
  part of several changed ("AR-03" / "AR-01"), or one part added to a name of the agent's
  ("ledgerly-web" / "ledgerly");
- **not the agent's**: a contrast word ("not", "pas", "nie") before a word of the agent's turn
  in a clause that ends within NAMED words, the word before the contrast (what is meant
  instead) not the agent's: "resa_dev pas reservations", "gbp. Not usd";
- **spelled out**: a name spelled letter by letter ("S-I-O-B-H-A-N"), which nobody does
  but to set a spelling right.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cached_property
from weakref import WeakKeyDictionary

from daemon.impact.clauses import Words, words_of
from daemon.impact.clauses import breaks as clause_breaks
from daemon.impact.content import cue_tokens
from daemon.impact.cues import Cue
from daemon.impact.echo import Answered
from daemon.text.keyboard import find
from daemon.text.language import Language

# Words between the word both name and the agent's number ("батареї — всього 250").
SLOT = 3
# Words a clause may say after its contrast word and still only name what is not meant.
NAMED = 3
# Letters a name spelled out has at least ("S-I-O-B-H-A-N"; not "A-B" testing).
SPELLED = 4
# A word of the agent's the person sets right is this long at least ("usd"; not "it").
SHORTEST = 3
# A chunk of text between spaces, without the punctuation around it.
CHUNK = re.compile(r"(?:[^\s\"'`«»“”‘’()\[\]{}<>,;!?]|(?<=\d),(?=\d))+")
CHUNK_EDGE = ".:"
# The separators inside a name in code or a number.
SEPARATOR = re.compile(r"[-_/.,:]+")
QUOTED = re.compile(rf"[`'\"“‘]([^`'\"”’\s]{{{SHORTEST},}})[`'\"”’]")
# A time of day: a new one is as often a booking ("lunch thursday at 12:45") as a correction.
TIME = re.compile(r"\d{1,2}[:h]\d{2}(?:[-–]\d{1,2}[:h]\d{2})?")
# Words a sentence that gives a time alone has at most ("20:00.", "it's 20:00").
TIME_ALONE = 3
LETTERS_SPELLED = re.compile(rf"(?<![\w-])(?:[^\W\d_]-){{{SPELLED - 1},}}[^\W\d_](?![\w-])")


class _Turn:
    """The agent's turn as the readings compare it: its words, numbers and chunks."""

    def __init__(self, answered: Answered) -> None:
        # the text, not the turn: a value that held its key would keep every turn alive
        self.text = answered.text

    @cached_property
    def words(self) -> Words:
        return words_of(self.text)

    @cached_property
    def said(self) -> frozenset[str]:
        return frozenset(self.words.low)

    @cached_property
    def chunks(self) -> frozenset[str]:
        return frozenset(_chunks(self.text))

    @cached_property
    def folded(self) -> frozenset[str]:
        return frozenset(c.casefold() for c in self.chunks)

    @cached_property
    def numbers_after(self) -> dict[str, frozenset[str]]:
        """Each word of the turn, with the numbers said within SLOT words after it."""
        low = self.words.low
        after: dict[str, set[str]] = {}
        for k, word in enumerate(low):
            numbers = {w for w in low[k + 1 : k + 1 + SLOT] if _numeric(w)}
            if numbers:
                after.setdefault(word, set()).update(numbers)
        return {word: frozenset(numbers) for word, numbers in after.items()}

    @cached_property
    def coded(self) -> frozenset[tuple[str, ...]]:
        """Each name in code or number the turn writes, by its parts as `_shapes` gives them:
        in any order, and with each part of several left open."""
        return frozenset(shape for c in self.chunks if _coded(c) for shape in _shapes(_parts(c)))

    @cached_property
    def written(self) -> frozenset[tuple[tuple[str, ...], tuple[str, ...]]]:
        """Each chunk as its parts without leading zeros and its separators: "08:15" is "8:15"."""
        return frozenset(_written(c) for c in self.chunks)

    @cached_property
    def named(self) -> frozenset[tuple[str, ...]]:
        """The parts of each name the agent wrote as code or in quotes ("`ledgerly`"), and of
        each name in code it wrote ("HF-22914")."""
        quoted = {_parts(m.group(1)) for m in QUOTED.finditer(self.text)}
        return frozenset(quoted | {_parts(c) for c in self.chunks if _coded(c)})

    @cached_property
    def times(self) -> frozenset[str]:
        """The times of day the turn gives, as written ("19:30")."""
        return frozenset(c for c in self.chunks if TIME.fullmatch(c))


# one per agent turn, however many sentences and languages read it
_turns: WeakKeyDictionary[Answered, _Turn] = WeakKeyDictionary()


def _turn(answered: Answered) -> _Turn:
    turn = _turns.get(answered)
    if turn is None:
        turn = _turns[answered] = _Turn(answered)
    return turn


def may_set_right(text: str) -> bool:
    """Whether the sentence `text` holds what a reading looks for besides a cue word: a digit,
    or a name in code or spelled out (a contrast word is a cue word)."""
    return any(c.isdigit() or c in "_/-" for c in text)


def set_right(lang: Language, text: str, words: Words, answered: Answered) -> list[Cue]:
    """The cues (kind `set_right`) of the sentence `text` that set a value of the agent's turn
    right, in the order said (see the module docstring)."""
    if not answered.text.strip():
        return []
    turn = _turn(answered)
    ends = [b for _, b in words.spans]
    found = [
        Cue("set_right", f"spelled {m.group()}", _at(ends, m.start()))
        for m in LETTERS_SPELLED.finditer(text)
    ]
    found += _other_values(lang, text, words, turn)
    found += _variants(text, ends, turn)
    found += _not_the_agents(lang, text, words, turn)
    return sorted(found, key=lambda c: c.at)[:1]


def _other_values(lang: Language, text: str, words: Words, turn: _Turn) -> list[Cue]:
    low = words.low
    timed = _times(text)
    found = []
    for i, number in enumerate(low):
        if not _numeric(number) or words.spans[i][0] in timed:
            continue
        named = next((low[j] for j in range(i - 1, max(-1, i - SLOT), -1) if _named_word(lang, low[j])), None)
        if named is None:
            continue
        theirs = turn.numbers_after.get(named, frozenset())
        # "gyokuro ma 50 g" to "Gyokuro Yame 100 g, Jasmínový 50 g": not after that word
        if theirs and number not in theirs:
            found.append(Cue("set_right", f"{named} {number}", i))
    return found


def _variants(text: str, ends: list[int], turn: _Turn) -> list[Cue]:
    alone = len(ends) <= TIME_ALONE
    found = []
    for match in CHUNK.finditer(text):
        chunk = match.group().strip(CHUNK_EDGE)
        if len(chunk) < SHORTEST or chunk.casefold() in turn.folded or _written(chunk) in turn.written:
            continue
        mine = _parts(chunk)
        if TIME.fullmatch(chunk):
            # a time alone ("20:00." to "aanvang 19:30 uur") sets the agent's right; among
            # other words it is as often a booking
            if alone and turn.times and chunk not in turn.times:
                found.append(Cue("set_right", chunk, _at(ends, match.start())))
            continue
        if (_coded(chunk) and not turn.coded.isdisjoint(_shapes(mine))) or _extends(chunk, mine, turn.named):
            found.append(Cue("set_right", chunk, _at(ends, match.start())))
    return found


def _not_the_agents(lang: Language, text: str, words: Words, turn: _Turn) -> list[Cue]:
    low = words.low
    skip = lang.function_words | cue_tokens(lang.code)
    breaks = clause_breaks(text, words)
    found = []
    for i, phrase in find(low, lang.impact.get("contrast", frozenset())):
        end = i + len(phrase)
        clause_end = min([b for b in breaks if b > end] or [len(low)])
        if not 0 < clause_end - end <= NAMED:
            continue
        what = next((w for w in low[end:clause_end] if w not in skip), "")
        if len(what) < SHORTEST or what not in turn.said:
            continue
        # what is meant instead is the person's own, or said in the sentence before ("gbp. Not usd")
        if i == 0 or (low[i - 1] not in turn.said and low[i - 1] not in skip and i - 1 not in breaks):
            found.append(Cue("set_right", " ".join((*phrase, what)), i))
    return found


def _shapes(parts: tuple[str, ...]) -> list[tuple[str, ...]]:
    """What a name in code or a number is matched by: its parts in any order ("142.310,00" and
    "142,310.00", "stripe/webhook" and "webhooks/stripe"), and, of several parts, the parts
    with one left open ("ar-03" and "ar-01"). The agent's own writing is left out before."""
    shapes = [("*sorted", *sorted(map(_singular, parts)))]
    if len(parts) >= 2:
        shapes += [(*parts[:k], "*", *parts[k + 1 :]) for k in range(len(parts))]
    return shapes


def _extends(chunk: str, mine: tuple[str, ...], named: frozenset[tuple[str, ...]]) -> bool:
    """Whether the person's name, joined by a hyphen or a slash, is one of the agent's `named`
    with one part of letters more ("ledgerly-web" / `ledgerly`, "HF-22914/B" / "HF-22914")."""
    if len(mine) < 2 or not ("-" in chunk or "/" in chunk):
        return False
    return (mine[-1].isalpha() and mine[:-1] in named) or (mine[0].isalpha() and mine[1:] in named)


def _chunks(text: str) -> list[str]:
    return [c for c in (m.group().strip(CHUNK_EDGE) for m in CHUNK.finditer(text)) if c]


def _written(chunk: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    parts = tuple(p.lstrip("0") or "0" if p.isdigit() else p for p in _parts(chunk))
    return parts, tuple(SEPARATOR.findall(chunk))


def _parts(chunk: str) -> tuple[str, ...]:
    return tuple(p for p in SEPARATOR.split(chunk.casefold()) if p)


def _coded(chunk: str) -> bool:
    """Whether a chunk is a name in code or a number: it holds a digit, an underscore, a slash
    or a dot between two parts ("AR-03", "resa_dev", "route.ts", "142.310,00"); "follow-up"
    is none."""
    return any(c.isdigit() or c in "_/." for c in chunk)


def _singular(part: str) -> str:
    return part[:-1] if len(part) > SHORTEST and part.endswith("s") else part


def _numeric(word: str) -> bool:
    return bool(word) and word[0].isdigit() and all(c.isdigit() or c in ".,:" for c in word)


def _times(text: str) -> frozenset[int]:
    """Where the numbers of a time of day start ("12" and "45" of "12:45"), read once per sentence."""
    return frozenset(
        m.start() + n.start()
        for m in CHUNK.finditer(text)
        if TIME.fullmatch(m.group().strip(CHUNK_EDGE))
        for n in re.finditer(r"\d+", m.group())
    )


def _named_word(lang: Language, word: str) -> bool:
    return len(word) >= SHORTEST and word.isalpha() and word not in lang.function_words


def _at(ends: list[int], offset: int) -> int:
    """The position of the word at or after `offset` into the sentence (`ends`: where each
    word ends)."""
    return min(bisect_right(ends, offset), max(0, len(ends) - 1))
