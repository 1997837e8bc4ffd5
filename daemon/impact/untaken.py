"""A bare "no" the agent's reply shows it did not take as a correction (pure, no I/O;
docs/explanation/impact.md#what-is-left-out): an opening "no" alone, after which the agent
changes nothing of its work nor takes the message up in words, declines ("nah, they just
churn" answered "OK, no snapshot tests then."). Not one whose next clause says the agent
was wrong ("いや、違う", "hayir, yanlış", "nä, det stämmer inte"): that corrects, whatever the
reply says.
"""

from __future__ import annotations

from daemon.impact.clauses import body_start, says_not, words_of
from daemon.impact.cues import after_negation
from daemon.impact.echo import Answered
from daemon.impact.neighbours import Read, Reading
from daemon.impact.reply import Reply
from daemon.impact.sentences import Sentence
from daemon.text.keyboard import said_at
from daemon.text.language import Language


def may_be_untaken(read: Read) -> bool:
    """Whether a sentence's only cues are a bare "no": only then is the reply read for whether
    it changed the work."""
    return any(_bare_no(r) for _, r in read)


def untaken(read: Read, after: Reply, before: Answered, text: str) -> Read:
    """The readings of a message whose reply `after` changes nothing of the agent's work, its
    turn `before` the message (`text`), without the cues of a bare "no" the reply does not take
    up in words (see the module docstring)."""
    bare = {k for k, (s, r) in enumerate(read) if _bare_no(r) and not _wrong_after(r.language, s)}
    if _accepted(after, before, text, [read[k][1] for k in bare]):
        return read
    return [(s, Reading(r.language, [], r.excluded) if k in bare else r) for k, (s, r) in enumerate(read)]


def _wrong_after(lang: Language | None, sentence: Sentence) -> bool:
    """Whether the clause after the sentence's opening "no" (`cues.after_negation`: past "no
    no" and a word of address) opens with a correction opener that says more than "not" ("いや、
    違う", "nä, det stämmer inte, mötet är 15")."""
    if lang is None:
        return False
    words = words_of(sentence.text)
    clause = after_negation(lang, sentence.text, words, body_start(lang, words.low))
    if clause is None:
        return False
    at = body_start(lang, words.low, clause)
    openers = lang.impact.get("correction_openers", frozenset())
    return any(said_at(words.low, at, p) and not all(says_not(lang, w) for w in p) for p in openers)


def _bare_no(reading: Reading) -> bool:
    """Whether a sentence's only cues are an opening "no" (`correction`) each word of which says
    "not" ("no", "nee nee", "ні"; not "that's wrong", "not quite", "falsch", which no offer is
    declined with)."""
    lang = reading.language
    return (
        lang is not None
        and bool(reading.cues)
        and all(c.kind == "correction" and all(says_not(lang, w) for w in c.phrase.split()) for c in reading.cues)
    )


def _accepted(after: Reply, before: Answered, text: str, readings: list[Reading]) -> bool:
    """Whether the agent's reply takes the message up in words, in a language a bare "no" of it
    was read in: a word of it the turn before did not hold ("no, we use pnpm in this repo" /
    "Understood, pnpm it is."; "No. The deadline is Friday." / "Got it, Friday."), or a
    `standing` phrase in its head ("I'll use pnpm from now on")."""
    for lang in {r.language.code: r.language for r in readings if r.language is not None}.values():
        if set(after.turn.taken_up(text, lang)) - set(before.taken_up(text, lang)):
            return True
        if after.says_standing(lang):
            return True
    return False
