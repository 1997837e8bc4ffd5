"""A complaint about the agent's turn that asks, without saying so, for less of what it did
(pure, no I/O; docs/explanation/impact.md#a-complaint-about-the-agents-turn).

"way too long", "too long again, just the diff + 2 lines pls", "ta muito textao isso", "trop de
# encore, 3.", "これ長すぎ": the person
wants shorter, fewer, plainer from now on. A phrase of `impact.excess` says so only about the
agent's turn it answers, so it counts when the other words of its clause are the language's
function words, "you" (`second_person`), lead-ins, "again" words and whole words of the agent's
turn, with at most OTHER more ("keigo still too stiff"; "these PR descriptions are way too
long" after a PR description; not "too many meetings this week": what is too many is no word
of the agent's), when nothing in its clause says "not" in any form ("not too long", "it isn't
too long", "fazla uzun değil" praise), no apology comes before it in its clause (`amended`:
"sorry for the wall of text" is about the person's own text; "sorry, but way too long" is a
complaint) and the clause tells nothing in the past (`past_forms`: "the meeting was way too
long" is a story). A long text named for what it is not is listed as slang or in a
marked form ("tocho", "простыня", "whole essay", "una novela"), never as a bare noun ("novela",
"lecture": a book, a talk the agent may be working on).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from daemon.impact.clauses import Words, body_start, says_not, words_of
from daemon.impact.clauses import breaks as clause_breaks
from daemon.impact.cues import Cue
from daemon.impact.echo import Answered
from daemon.text.keyboard import find
from daemon.text.language import Language

# Words of the phrase's clause that are neither the language's own nor the agent's.
OTHER = 1
# Words before a likening phrase neither the language's own nor the agent's: what names the
# text likened ("omar's rejection reads like …", Omar named in the agent's turn).
NAMING = 1
# Phrases of one sentence read at most.
READ = 3


def excess(lang: Language, text: str, words: Words, answered: Answered) -> list[Cue]:
    """The first complaint (kind `excess`) of the sentence about the agent's turn `answered`
    (see the module docstring); none when the message answers no turn."""
    placed = _in_clauses(lang, "excess", text, words, answered)
    if not placed:
        return []
    low = words.low
    theirs = _said(answered.text)
    own = _own(lang) | _words(lang, "again")
    aside = _aside(lang)
    # the person's own apology for length, in the same clause: "sorry for the wall of text"
    sorry = [i for i, _ in find(low, lang.impact.get("amended", frozenset()))]
    for at, phrase, begins, closes in placed:
        opens = body_start(lang, low, begins)
        said = low[opens:at] + low[at + len(phrase) : closes]
        if any(lang.matches("past_forms", w) for w in low[opens : at + len(phrase)]):
            continue  # a story: "the meeting was way too long"
        if any(says_not(lang, w) for w in low[opens:closes]) or any(begins <= i < at for i in sorry):
            continue  # "not too long", "fazla uzun değil": praise; "sorry for …": the person's own text
        other = [w for w in said if w not in own and w not in theirs]
        if len(other) <= OTHER:
            return [Cue("excess", " ".join(phrase), at)]
        # … and beside a word of address or a laugh, when all the other words come after the
        # phrase, a word of the language's own right after it: "way too long for a text man",
        # "too long for the kitchen lol"; not "the queue is way too long lol", "too much traffic
        # mate" (review helper-223)
        end = at + len(phrase)
        after = [w for w in low[end:closes] if w not in own and w not in theirs and w not in aside]
        if (
            end < closes
            and low[end] in own
            and len(after) <= OTHER
            and not any(w not in own and w not in theirs and w not in aside for w in low[opens:at])
            and any(w in aside for w in said)
        ):
            return [Cue("excess", " ".join(phrase), at)]
    return []


def likened(lang: Language, text: str, words: Words, answered: Answered) -> list[Cue]:
    """A complaint (kind `excess`) that likens the agent's turn to a text of another kind
    (`impact.likened`: "this reads like a bank letter", "liest sich wie ein Amtsschreiben"):
    the phrase opens its clause after at most NAMING words neither the language's own nor the
    agent's turn's ("mate this reads like …", "omar's rejection reads like …"); what it is
    likened to is free ("… like a bank wrote it"). Not with "not" in the clause ("it doesn't
    read like a template"), nor told in the past before it ("we had a clerk whose letters
    read like poems"), nor in a sentence that approves ("reads like a real shop, perfect")."""
    placed = _in_clauses(lang, "likened", text, words, answered)
    if not placed:
        return []
    low = words.low
    theirs = _said(answered.text)
    own = _own(lang)
    approval = find(low, lang.impact.get("approval", frozenset()))
    for at, phrase, begins, closes in placed:
        before = low[body_start(lang, low, begins) : at]
        if approval or any(says_not(lang, w) for w in low[begins:closes]) or any(lang.matches("past_forms", w) for w in before):
            continue
        # a name's possessive is the name ("omar's" of the agent's "Omar")
        if len([w for w in before if w not in own and w not in theirs and w.removesuffix("'s") not in theirs]) <= NAMING:
            return [Cue("excess", " ".join(phrase), at)]
    return []


def _in_clauses(lang: Language, key: str, text: str, words: Words, answered: Answered) -> list[tuple[int, tuple[str, ...], int, int]]:
    """The first READ phrases of the language's `key` list in the sentence, in order, each with
    where its clause begins and closes (a sentence of thousands of them is read in linear time);
    none when the message answers no turn of the agent's."""
    found = find(words.low, lang.impact.get(key, frozenset()))
    if not found or not answered.text.strip():
        return []
    breaks = clause_breaks(text, words)
    bounds = [0, *breaks, len(words.low)]
    placed = []
    for at, phrase in sorted(found)[:READ]:
        clause = bisect_right(breaks, at)
        placed.append((at, phrase, bounds[clause], bounds[clause + 1]))
    return placed


def _own(lang: Language) -> frozenset[str]:
    """The words of a clause a complaint may hold beside the agent's: the language's function
    words, "you" and its lead-ins."""
    return lang.function_words | _words(lang, "second_person") | _words(lang, "lead_ins")


def _aside(lang: Language) -> frozenset[str]:
    """Words said beside a complaint that say nothing of what is too much: a word of address
    ("mate", "bro": `vocative`) and a laugh of one word ("lol": `claim.humour`, `impact.humour`;
    not a word of a longer joke, "what could possibly go wrong")."""
    laughs = lang.claim.get("humour", frozenset()) | lang.impact.get("humour", frozenset())
    return _words(lang, "vocative") | frozenset(phrase[0] for phrase in laughs if len(phrase) == 1)


@lru_cache(maxsize=64)
def _said(text: str) -> frozenset[str]:
    """The words of the agent's turn, casefolded: a word of the clause is the agent's when it is
    one of them, not when it is inside one ("office" is not in "officer")."""
    return frozenset(words_of(text).low)


def _words(lang: Language, key: str) -> frozenset[str]:
    """The words of the `impact` list `key`'s phrases, each alone."""
    return frozenset(w for phrase in lang.impact.get(key, frozenset()) for w in phrase)
