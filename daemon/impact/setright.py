"""A value of the agent's turn set right by the person's sentence, with no correction word
(pure, no I/O; docs/explanation/impact.md#set-right-without-a-word).

People often correct by stating the right value alone: "діагностика батареї 350" to an agent
that wrote "Діагностика батареї — всього 250 грн", "Rosario es AR-03." to one that filtered
on 'AR-01', "fallback for the uk workspace is gbp. not usd" to one that falls back to USD.
Only the agent's turn just before (`daemon.impact.echo.Answered`) tells these from news, so
the readings compare the two (values by their parts and worth: `daemon.impact.values`):

- **other value**: a number said within SLOT words after a word after which the agent said
  other numbers, and not that one ("батареї 350" / "батареї — всього 250");
- **variant**: a name in code the agent wrote otherwise — its parts in another order
  ("stripe/webhook" / "webhooks/stripe") or one part of several changed, a number or a word
  spelled nearly alike ("AR-03" / "AR-01"; not "orders.ts" / "users.ts", a sibling),
  or, closing its clause, one part of letters added to a name of the agent's
  ("… is ledgerly-web." / `ledgerly`, "HF-22914/B." / "HF-22914"; not "the login-page is
  broken" / `login`); a time of day only when it stands alone ("20:00." / "19:30");
- **not the agent's**: a contrast word ("not", "pas", "nie") before a word of the agent's turn
  at the end of its clause: after a word of the person's own ("resa_dev pas reservations"),
  or opening the sentence before a name the agent wrote ("gbp. Not usd" / "USD"); or one said
  after what it negates (`contrast_after`) closing its clause right after a word of the
  agent's turn ("aras degil, yurtici ile calisiyoruz" / "Aras Kargo");
- **spelled out**: a name spelled letter by letter ("S-I-O-B-H-A-N"), which nobody does but
  to set a spelling right; or by the letter it holds (`spelled_with`: "Kieran with a K",
  "Thaís com h").

A new value is not a correction unless nothing else explains it: the first two readings
leave out a sentence that asks for work (`asks_or_adds`: it opens with a request verb, says
please, "also", "too" or "I", or "and" before a request verb), the same value in another
notation ("05" / "5", "1,000" / "1000", "６０" / "60"), and the next one ("page 2" / "page 1",
"1.2.4" / "1.2.3"). A long sentence (over SHORT words: a pasted log line) is not read, and
a message with more than MANY sentences so read is a pasted table or log:
`detect_statements` drops their cues.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Sequence
from functools import cached_property
from weakref import WeakKeyDictionary

from daemon.impact.clauses import Words, body_start, marked, words_of
from daemon.impact.clauses import breaks as clause_breaks
from daemon.impact.cues import Cue
from daemon.impact.echo import Answered
from daemon.impact.values import (
    ANY_ORDER,
    CHUNK,
    PART,
    SHORTEST,
    TIME,
    chunks,
    coded,
    edged,
    near,
    numeric,
    parts,
    same,
    same_or_next,
    shapes,
    times,
)
from daemon.text.keyboard import find, said_at
from daemon.text.language import Language
from daemon.text.verbatim import CHANNEL

# Words between the word both name and the number, on either side ("батареї — всього 250").
SLOT = 3
# Words a sentence read for a value may have: a longer one is a pasted line or a story.
SHORT = 15
# Sentences of one message that may set a value right: more are a pasted table or log.
MANY = 2
# Characters a message read for a value may have (a longer one is pasted; its lines repeat).
LONGEST_MESSAGE = 4000
# Parts a name in code may have to be compared (a longer one is a hash or a list).
MOST_PARTS = 8
# Letters a name spelled out has ("S-I-O-B-H-A-N"; not "A-B" testing), at least and at most.
SPELLED = (4, 40)
# Words a clause may say after its contrast word and still only name what is not meant.
NAMED = 3
# Words a sentence that gives a time alone has at most ("20:00.": its hours and minutes).
TIME_ALONE = 2
QUOTED = re.compile(rf"[`'\"“‘]([^`'\"”’\s]{{{SHORTEST},}})[`'\"”’]")
LETTERS_SPELLED = re.compile(rf"(?<![\w-])(?:[^\W\d_]-){{{SPELLED[0] - 1},{SPELLED[1] - 1}}}[^\W\d_](?![\w-])")
# A name's first letter after one of these starts a sentence, and says nothing of the name.
SENTENCE_ENDS = ".!?:"


class _Turn:
    """The agent's turn as the readings compare it: its words, numbers and names in code."""

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
    def names(self) -> frozenset[str]:
        """The words the turn writes as names: with a capital not opening a sentence, in
        capitals, in code or quotes, or as a channel or handle ("USD", `reservations`,
        "#incidents")."""
        found = {q.casefold() for m in QUOTED.finditer(self.text) for q in PART.findall(m.group(1))}
        # a channel or a handle ("#incidents", "@ops") is a name, however written
        found |= {p.casefold() for m in CHANNEL.finditer(self.text) for p in PART.findall(m.group())}
        for w, (a, b) in zip(self.words.low, self.words.spans, strict=True):
            said = self.text[a:b]
            if said[1:] != said[1:].lower() or (said[:1].isupper() and not _opens_sentence(self.text, a)):
                found.add(w)
        return frozenset(found)

    @cached_property
    def numbers_after(self) -> dict[str, frozenset[str]]:
        """Each word of the turn, with the numbers said within SLOT words after it."""
        low = self.words.low
        after: dict[str, set[str]] = defaultdict(set)
        for k, word in enumerate(low):
            after[word].update(w for w in low[k + 1 : k + 1 + SLOT] if numeric(w))
        return {word: frozenset(numbers) for word, numbers in after.items() if numbers}

    @cached_property
    def chunks(self) -> list[str]:
        return [c for c in chunks(self.text) if len(PART.findall(c)) <= MOST_PARTS]

    @cached_property
    def written(self) -> frozenset[tuple[str, ...]]:
        """Each chunk that may be a name in code (`_variants` reads no other) by its parts, in
        the order written."""
        return frozenset(parts(c) for c in self.chunks if coded(c) or "-" in c or "/" in c)

    @cached_property
    def shapes(self) -> dict[tuple[str, ...], frozenset[str]]:
        """Each name in code the turn writes by its `_shapes`, with the parts they leave open."""
        found: dict[tuple[str, ...], set[str]] = defaultdict(set)
        for chunk in self.chunks:
            if coded(chunk):
                for shape, part in shapes(parts(chunk)):
                    found[shape].add(part)
        return {shape: frozenset(parts) for shape, parts in found.items()}

    @cached_property
    def named(self) -> frozenset[tuple[str, ...]]:
        """The parts of each name the agent wrote in code or quotes ("`ledgerly`") or as a
        name in code ("HF-22914")."""
        quoted = {parts(m.group(1)) for m in QUOTED.finditer(self.text)}
        return frozenset(quoted | {parts(c) for c in self.chunks if coded(c)})

    @cached_property
    def times(self) -> frozenset[tuple[str, ...]]:
        """The times of day the turn gives ("19:30")."""
        return frozenset(parts(c) for c in self.chunks if TIME.fullmatch(c))


# one per agent turn, however many sentences and languages read it
_turns: WeakKeyDictionary[Answered, _Turn] = WeakKeyDictionary()


def _turn(answered: Answered) -> _Turn:
    turn = _turns.get(answered)
    if turn is None:
        turn = _turns[answered] = _Turn(answered)
    return turn


def may_set_right(text: str) -> bool:
    """Whether the message or sentence `text` holds what a reading looks for besides a cue
    word — a digit, a name in code or spelled out (a contrast word is a cue word) — and is
    short enough to be the person's words rather than pasted text."""
    return len(text) <= LONGEST_MESSAGE and any(c.isdigit() or c in "_/-." for c in text)


def set_right(
    lang: Language, text: str, words: Words, answered: Answered, readings: Sequence[Language] = ()
) -> list[Cue]:
    """The first cue (kind `set_right`) of the sentence `text` that sets a value of the agent's
    turn right (see the module docstring). A value counts only when neither `lang` nor any of
    the other languages the sentence is read in (`readings`) finds it asks or adds: a value
    reads alike in every language, the words that ask do not ("jetzt bitte Rechnung 2024-018"
    read as English)."""
    if not answered.text.strip() or len(words.low) > SHORT:
        return []
    turn = _turn(answered)
    ends = [b for _, b in words.spans]
    found = [
        Cue("set_right", f"spelled {m.group()}", _at(ends, m.start()))
        for m in LETTERS_SPELLED.finditer(text)
        if not _ascending(m.group()[::2].casefold())
    ]
    found += _spelled_with(lang, text, words)
    values = _other_values(lang, text, words, turn) + _variants(text, ends, turn)
    guards = [lang, *(r for r in readings if r.code != lang.code)]
    found += [c for c in values if not any(asks_or_adds(g, text, words, c.at) for g in guards)]
    found += _not_the_agents(lang, text, words, turn)
    return sorted(found, key=lambda c: c.at)[:1]


def _spelled_with(lang: Language, text: str, words: Words) -> list[Cue]:
    """A name's spelling set right by a letter it holds (`spelled_with`, then a single letter
    that is no word of the language, is in the word before, and closes its clause or stands
    before "and"): "Kieran with a K, he's funny about it", "Thaís com h e acento", "y es
    Joaquín, con n"; not "café con y sin azúcar", "a vitamin with a C in the name", "we go
    with a B", "marque com x"."""
    low = words.low
    letters = [
        (i, phrase, end)
        for i, phrase in find(low, lang.impact.get("spelled_with", frozenset()))
        if i > 0
        and (end := i + len(phrase)) < len(low)
        and len(low[end]) == 1
        and low[end].isalpha()
        and low[end] not in lang.function_words
        and low[end] in low[i - 1]
    ]
    if not letters:  # most sentences: no clause read
        return []
    ends = {*clause_breaks(text, words), len(low)}
    connectives = lang.lists.get("connectives", frozenset())
    return [
        Cue("set_right", f"{' '.join(phrase)} {low[end]}", i)
        for i, phrase, end in letters
        if end + 1 in ends or low[end + 1] in connectives
    ]


def spells(lang: Language, cue: Cue) -> bool:
    """Whether `cue` spells a name by a letter it holds (`_spelled_with`): the sentence says the
    name it sets right ("e Thaís, com h"), so it stands alone however few its words."""
    said = tuple(cue.phrase.split())
    spelled = lang.impact.get("spelled_with", frozenset())
    return cue.kind == "set_right" and len(said) > 1 and len(said[-1]) == 1 and said[:-1] in spelled


def asking(lang: Language) -> frozenset[tuple[str, ...]]:
    """The phrases of `lang` that ask for work: its politeness words and requests ("please",
    `impact.politeness`; "can you", `claim.request`)."""
    return lang.impact.get("politeness", frozenset()) | lang.claim.get("request", frozenset())


def asks_or_adds(lang: Language, text: str, words: Words, at: int) -> bool:
    """Whether the clause holding the value at `at` asks for work or adds to it, so that a new
    value in it is news ("now merge feature/signup", "add 192.168.1.11 as a second node",
    "jetzt bitte Rechnung 2024-018", "I have 3.12 locally"): it opens, after its lead-ins, with
    a request verb (`openers` that are no function word), has the person as subject ("I", not
    "we": `claim.subject_pronouns`, a name in code's letters left out) or adds
    ("also", "too": a connective that does not open it), or the sentence says please or asks
    (`claim.request`)."""
    # the words of names in code are no words of the language ("eu" of "EU-04" is no "I")
    names = [(m.start(), m.end()) for m in CHUNK.finditer(text) if coded(m.group())]
    low = tuple(
        "" if any(a <= start < b for a, b in names) else w for w, (start, _) in zip(words.low, words.spans, strict=True)
    )
    breaks = clause_breaks(text, words)
    clause = bisect_right(breaks, at)
    begin, end = ([0, *breaks][clause], [*breaks, len(low)][clause])
    said = low[begin:end]
    verbs = lang.lists.get("openers", frozenset()) - lang.function_words
    opens = body_start(lang, low, begin)
    if opens < end and low[opens] in verbs:
        return True
    if not lang.person_alone.isdisjoint(said):
        return True
    if find(low, asking(lang)):
        return True
    # … an "also" anywhere in it; an "and" that only joins ("Monplaisir et Croix-Rousse ouvrent à
    # 6h30") when a request's verb or a next step follows it ("… and deploy it", "a pak to pusť")
    joining = lang.lists.get("conjunctions", frozenset())
    connectives = {tuple(c.split()) for c in lang.lists.get("connectives", frozenset()) - joining}
    if any(i > 0 for i, _ in find(said, connectives)):
        return True
    thens = lang.impact.get("then", frozenset())
    return any(
        i < len(said) - 1 and (said[i + 1] in verbs or any(said_at(said, i + 1, p) for p in thens))
        for i, w in enumerate(said)
        if w in joining
    )


def _other_values(lang: Language, text: str, words: Words, turn: _Turn) -> list[Cue]:
    low = words.low
    timed = times(text)
    found = []
    for i, number in enumerate(low):
        if not numeric(number) or words.spans[i][0] in timed:
            continue
        named = next((low[j] for j in range(i - 1, max(-1, i - SLOT - 1), -1) if _named_word(lang, low[j])), None)
        theirs = turn.numbers_after.get(named, frozenset()) if named is not None else frozenset()
        # "gyokuro ma 50 g" to "Gyokuro Yame 100 g, Jasmínový 50 g": not after that word
        if theirs and not any(same(number, t) for t in theirs):
            found.append(Cue("set_right", f"{named} {number}", i))
    return found


def _variants(text: str, ends: list[int], turn: _Turn) -> list[Cue]:
    found = []
    for match in CHUNK.finditer(text):
        chunk = edged(match.group())
        # only names in code, times and joined names are read: most words end here, cheaply
        if len(chunk) < SHORTEST or not (coded(chunk) or "-" in chunk or "/" in chunk):
            continue
        mine = parts(chunk)
        if not 0 < len(mine) <= MOST_PARTS or mine in turn.written:
            continue
        if TIME.fullmatch(chunk):
            # a time alone ("20:00." to "aanvang 19:30 uur") sets the agent's right; among
            # other words it is as often a booking
            if len(ends) <= TIME_ALONE and turn.times and mine not in turn.times:
                found.append(Cue("set_right", chunk, _at(ends, match.start())))
            continue
        closes = not text[match.end() :].strip() or text[match.end() :].lstrip()[0] in ".,;:!—–-)"
        if (coded(chunk) and _variant(mine, turn)) or (closes and _extends(chunk, mine, turn.named)):
            found.append(Cue("set_right", chunk, _at(ends, match.start())))
    return found


def _not_the_agents(lang: Language, text: str, words: Words, turn: _Turn) -> list[Cue]:
    low = words.low
    skip = lang.function_words
    breaks = clause_breaks(text, words)
    found = []
    for i, phrase in find(low, lang.impact.get("contrast", frozenset())):
        end = i + len(phrase)
        # … to its clause's end, or a mark (the Arabic comma: "Falafel Sandwich مش Wrap، …")
        clause_end = min([b for b in breaks if b > end] or [len(low)])
        clause_end = next((k for k in range(end + 1, clause_end) if marked(text, words, k)), clause_end)
        what = [w for w in low[end:clause_end] if w not in skip]
        # what is not meant closes its clause within NAMED words: a word of the agent's turn
        if not what or clause_end - end > NAMED or len(what[0]) < SHORTEST or what[0] not in turn.said:
            continue
        if i == 0:
            # "Not usd." after "gbp.": a name the agent wrote ("USD"), not "Not urgent."
            if what[0] in turn.names:
                found.append(Cue("set_right", " ".join((*phrase, what[0])), i))
        elif i not in breaks and low[i - 1] not in turn.said and low[i - 1] not in skip:
            # "resa_dev pas reservations": the person's own word is what is meant instead
            found.append(Cue("set_right", " ".join((*phrase, what[0])), i))
    # a "not" said right after a word of the agent's turn, closing its clause ("aras degil,
    # yurtici ile …" to an agent that wrote "Aras Kargo"; not "Aras pahalı değil")
    for i, phrase in find(low, lang.impact.get("contrast_after", frozenset())):
        end = i + len(phrase)
        if end < len(low) and end not in breaks:
            continue
        if i > 0 and len(low[i - 1]) >= SHORTEST and low[i - 1] not in skip and low[i - 1] in turn.said:
            found.append(Cue("set_right", " ".join((low[i - 1], *phrase)), i))
    return found


def _variant(mine: tuple[str, ...], turn: _Turn) -> bool:
    """Whether the agent wrote a name in code of the shape of `mine` otherwise: its parts in
    another order, or one part of several other (not the next: "ar-03" / "ar-02")."""
    for shape, part in shapes(mine):
        theirs = turn.shapes.get(shape, frozenset())
        if shape[0] == ANY_ORDER and theirs:
            return True  # the same parts, in another order (the same order is `written`)
        if any(near(part, t) and not same_or_next(part, t) for t in theirs):
            return True
    return False


def _extends(chunk: str, mine: tuple[str, ...], named: frozenset[tuple[str, ...]]) -> bool:
    """Whether the person's name, joined by a hyphen or a slash, is one of the agent's `named`
    with one part of letters more ("ledgerly-web" / `ledgerly`, "HF-22914/B" / "HF-22914")."""
    if len(mine) < 2 or not ("-" in chunk or "/" in chunk):
        return False
    return (mine[-1].isalpha() and mine[:-1] in named) or (mine[0].isalpha() and mine[1:] in named)


def _ascending(letters: str) -> bool:
    """Whether spelled letters run in the alphabet's order ("a-b-c-d" names grades, not a name)."""
    return all(a < b for a, b in itertools.pairwise(letters))


def _named_word(lang: Language, word: str) -> bool:
    return len(word) >= SHORTEST and word.isalpha() and word not in lang.function_words


def _at(ends: list[int], offset: int) -> int:
    """The position of the word at or after `offset` into the sentence (`ends`: where each
    word ends)."""
    return min(bisect_right(ends, offset), max(0, len(ends) - 1))


def _opens_sentence(text: str, at: int) -> bool:
    """Whether the word at `at` opens a sentence: only spaces before it since the text's
    start, a line break, or a sentence's end (read backwards, not by slicing the text)."""
    while at > 0 and text[at - 1].isspace():
        if text[at - 1] == "\n":
            return True
        at -= 1
    return at == 0 or text[at - 1] in SENTENCE_ENDS
