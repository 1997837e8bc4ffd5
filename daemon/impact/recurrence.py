"""Statements of one agent grouped into items: the same thing said again (pure, no I/O;
docs/explanation/impact.md#recurrence).

Statements are taken in time order. Each is compared with every item formed so far whose
last statement is in an earlier session, or in the same turn (two sentences of one
message); it joins the item it is closest to when close enough, else it opens an item.
Closeness is measured on content words — the statement's words without the function words
of its language (`words.stopwords`) and without the cue words themselves ("always", "I told
you" say how, not what) — in two ways, the better one counting:

- stems: the weight of the stems the two share over the weight of the smaller side, a stem
  weighing more the fewer of the agent's statements use it (a rare word says more);
- trigrams: the same over accent-folded character trigrams of the content words, for a
  person who switches language ("30 días, no 14" and "30 dni na zwrot, nie 14").

A statement that asks the agent for less ("too long", "max", "krótko") also holds BRIEF. A
statement that says it was said before ("I told you", "again") needs less.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from daemon.impact.clauses import words_of
from daemon.impact.content import Content, content
from daemon.impact.situation import Situation, Situations
from daemon.impact.statements import Statement
from daemon.text.keyboard import find
from daemon.text.language import language

# Share of the smaller side's weight two statements must have in common to say the same
# thing: two in five, so that a short recurrence ("And no emoji.") joins a longer first
# statement holding its one content word, and a restatement in new words ("Deploy is make
# release …" / "it's make release again") keeps its item, while two statements sharing one
# common word of five do not (weights favour rare words: see `_weights`).
SAME_STEMS = 0.4
# Trigrams are shared by chance more often than stems (endings, short names): a higher bar.
SAME_TRIGRAMS = 0.6
# "I told you" / "again": the person says it is a recurrence, so the question is only which
# earlier item it repeats (the closest one wins): under a third of the weight is enough.
RECALLED = 0.3
# Two statements must share at least this much weight (one rare word is about 1): one
# common word is not a topic.
MIN_SHARED = 0.9
# Numbers, addresses and file names read the same in every language; one is shared by chance
# (an hour, a day), two that are all one side holds are the same fact said again.
UNIVERSAL_SHARED = 2
# An item's statements a new one is compared with: its first and its last COMPARED (an item
# said again hundreds of times is compared at a bounded cost; close to its recent wording, a
# statement must still come near its first: FIRST_SHARE).
COMPARED = 8
# Share of the bar a statement must reach with an item's first statement to join it through a
# later one: three quarters (a half, three quarters, nine tenths and all of it tried: a half let
# more chains in, nine tenths did as three quarters, all of it lost right pairs).
FIRST_SHARE = 0.75
# Wording this close, under the bar, says the same thing when the agent's turns around the two
# statements share SAME_SITUATION of their weight (`daemon.impact.situation`): the same mistake
# set right again in other words.
NEAR = 0.25
SAME_SITUATION = 0.4
# A trigram in more items than this ("^th", "ion") says nothing about which item: not a candidate.
COMMON_GRAM = 50
# What a statement that asks the agent for less means in every language (`_asks_less`): "way
# too much. cold intros are three sentences" and "too long again mate. three lines" ask for the
# same in words no stem or trigram of the other holds.
BRIEF = "@brief"


@dataclass
class Item:
    """Statements that say the same thing, in time order: the first, then its recurrences."""

    statements: list[Statement] = field(default_factory=list)

    @property
    def first(self) -> Statement:
        return self.statements[0]

    @property
    def recurrences(self) -> list[Statement]:
        """The statements of later sessions than the first's."""
        return [s for s in self.statements[1:] if s.session != self.first.session]


def _content(statement: Statement) -> Content:
    """The statement's content (`daemon.impact.content`), and BRIEF if it asks for less."""
    lang = language(statement.language)
    found = content(statement.quote, lang)
    if lang is None:
        return found
    phrases = _asks_less(lang.code)
    # the cheap test first: most statements hold no phrase's first word at all
    low = statement.quote.casefold()
    if any(p[0] in low for p in phrases) and find(words_of(statement.quote).low, phrases):
        return Content(found.stems | {BRIEF}, found.trigrams)
    return found


@cache
def _asks_less(code: str) -> frozenset[tuple[str, ...]]:
    """The phrases of a language that ask the agent for less: its `excess` ("too long", "a bit
    much"), `limit` ("at most", "max") and `brief` ("shorter", "krótko", "短く") lists."""
    lang = language(code)
    if lang is None:
        return frozenset()
    return frozenset().union(*(lang.impact.get(name, frozenset()) for name in ("excess", "limit", "brief")))


def _weights(contents: Sequence[Content]) -> tuple[dict[str, float], dict[str, float]]:
    """Inverse document frequency of every stem and trigram over the agent's statements."""
    n = len(contents) + 1
    stems = Counter(s for c in contents for s in c.stems)
    grams = Counter(g for c in contents for g in c.trigrams)
    return (
        {s: math.log(n / k) + 0.1 for s, k in stems.items()},
        {g: math.log(n / k) + 0.1 for g, k in grams.items()},
    )


@dataclass(frozen=True)
class _Weighed:
    """A statement's content with the total weight of its stems and of its trigrams, and its
    words that read the same in every language (numbers, addresses, file names, commands)."""

    content: Content
    stems: float
    trigrams: float
    universal: frozenset[str]


def _weighed(found: Content, weights: tuple[dict[str, float], dict[str, float]]) -> _Weighed:
    # (BRIEF says how much, not of what: it and a number shared are no same fact)
    universal = frozenset(x for x in found.stems if x != BRIEF and any(c.isdigit() or c in "@./_:" for c in x))
    return _Weighed(
        found,
        sum(weights[0].get(x, 0.0) for x in found.stems),
        sum(weights[1].get(x, 0.0) for x in found.trigrams),
        universal,
    )


def similarity(a: _Weighed, b: _Weighed, weights: tuple[dict[str, float], dict[str, float]]) -> float:
    """How much two statements say the same thing, 0 to 1 (see the module docstring): the
    weight they share over the smaller side's, by stems (when they share MIN_SHARED) or by
    trigrams held to their own bar."""
    stem_score = 0.0
    shared = sum(weights[0].get(x, 0.0) for x in a.content.stems & b.content.stems)
    smaller = min(a.stems, b.stems)
    if shared >= MIN_SHARED and smaller:
        stem_score = shared / smaller
    gram_score = 0.0
    smaller = min(a.trigrams, b.trigrams)
    if smaller:
        gram_score = sum(weights[1].get(x, 0.0) for x in a.content.trigrams & b.content.trigrams) / smaller
    # the same numbers or addresses, whatever the language: "45 Tage, nicht 30", "45 jours, pas 30"
    common = a.universal & b.universal
    universal_score = 1.0 if len(common) >= UNIVERSAL_SHARED and common in (a.universal, b.universal) else 0.0
    # trigrams are held to their own, higher bar: scaled so that SAME_TRIGRAMS reads as SAME_STEMS
    return max(stem_score, gram_score * SAME_STEMS / SAME_TRIGRAMS, universal_score)


def _situated(
    statement: Statement,
    compared: Sequence[Statement],
    scores: Sequence[float],
    contents: Mapping[int, _Weighed],
    around: Situations,
    bar: float,
) -> bool:
    """Whether one of the statements `compared` with `statement` (at wording `scores`) is NEAR
    in wording and said in a situation alike (`daemon.impact.situation`) about what the two
    say."""
    for other, score in zip(compared, scores, strict=True):
        if NEAR <= score < bar:
            # the words one says and the other does not: what the turns around them must bridge
            about = contents[id(statement)].content.stems ^ contents[id(other)].content.stems
            if around.alike(id(statement), id(other), about) >= SAME_SITUATION:
                return True
    return False


def group(
    statements: Sequence[Statement],
    subjects: Mapping[Statement, frozenset[str]] | None = None,
    situations: Mapping[Statement, Situation] | None = None,
) -> list[Item]:
    """The statements of one agent as items, in the order their first statements were said.

    An item is a candidate for a statement when they share a stem or a trigram rarer than
    COMMON_GRAM (an inverted index: a history of thousands of sessions is not compared
    pairwise); a statement is compared with an item's first statement and its last COMPARED.
    `subjects` gives what the daemon learned from a statement ("fact:project.package_manager=pnpm",
    "skill:cut-release"): a statement that shares one with an item is the same thing said
    again, in whatever words or language."""
    learned = subjects or {}
    ordered = sorted(statements, key=lambda s: (s.time or "", s.session, s.turn))
    found = {id(s): _content(s) for s in ordered}
    weights = _weights(list(found.values()))
    contents = {key: _weighed(value, weights) for key, value in found.items()}
    rare = math.log(len(found) + 1) + 0.1  # a stem no statement uses: the agent's own words
    around = Situations(
        {id(s): (situations[s], s.language) for s in ordered if s in situations} if situations else {},
        lambda x: weights[0].get(x, rare),
    )
    items: list[Item] = []
    by_stem: dict[str, set[int]] = defaultdict(set)
    by_gram: dict[str, set[int]] = defaultdict(set)
    by_subject: dict[str, set[int]] = defaultdict(set)
    subject_of: list[frozenset[str]] = []
    for statement in ordered:
        mine = contents[id(statement)]
        bar = RECALLED if statement.recalls else SAME_STEMS
        about = learned.get(statement, frozenset())
        candidates: set[int] = set().union(*(by_stem[x] for x in mine.content.stems if x in by_stem))
        candidates |= set().union(*(by_subject[x] for x in about if x in by_subject))
        for gram in mine.content.trigrams:
            posting = by_gram.get(gram)
            if posting is not None and len(posting) <= COMMON_GRAM:
                candidates |= posting
        best: tuple[float, int] | None = None
        for index in sorted(candidates):
            item = items[index]
            last = item.statements[-1]
            same_turn = (last.session, last.turn) == (statement.session, statement.turn)
            if last.session == statement.session and not same_turn:
                continue
            compared = [item.statements[0], *item.statements[1:][-COMPARED:]]
            if about & subject_of[index] and not same_turn:
                score = 1.0  # the same fact or skill learned from both, said in two sessions
            else:
                scores = [similarity(mine, contents[id(s)], weights) for s in compared]
                # close to a later statement, it must not be far from the first (the first said
                # in its language, when one was: "45 Tage, nicht 30" → "45 jours, pas 30" →
                # "quarante-cinq jours, je l'ai déjà dit"): an item is one thing said again, not
                # a chain of links that each share a word with the next ("we use pnpm" → "run
                # pnpm tsc before done" → "tsc first")
                first = next((k for k, s in enumerate(compared) if s.language == statement.language), 0)
                chained = not same_turn and max(scores[0], scores[first]) < FIRST_SHARE * bar
                score = 0.0 if chained else max(scores)
                # … or near, at the same mistake of the agent's, whichever of its statements: in
                # another session only (the sentences of one message share their situation)
                if score < bar and not same_turn and around and _situated(statement, compared, scores, contents, around, bar):
                    score = bar
            if score >= bar and (best is None or score > best[0]):
                best = (score, index)
        if best is None:
            items.append(Item([statement]))
            subject_of.append(frozenset())
            index = len(items) - 1
        else:
            index = best[1]
            items[index].statements.append(statement)
        subject_of[index] |= about
        for x in about:
            by_subject[x].add(index)
        for x in mine.content.stems:
            by_stem[x].add(index)
        for gram in mine.content.trigrams:
            by_gram[gram].add(index)
    return items
