"""Sentences the agent's reply shows it did not take as a rule, when it changes nothing of its
work (pure, no I/O; docs/explanation/impact.md#what-is-left-out): an opening "no" alone it
does not take up in words declines ("nah, they just churn" answered "OK, no snapshot tests
then."), and "always" or "never" said of a name, answered with no standing phrase, tells
what someone does ("Farmacias del Norte siempre devuelve todo a fin de mes": `story.said_of_name`).
"""

from __future__ import annotations

from daemon.impact.clauses import says_not, words_of
from daemon.impact.cues import standing
from daemon.impact.echo import Answered
from daemon.impact.neighbours import Read, Reading
from daemon.impact.reply import Reply
from daemon.impact.sentences import Sentence
from daemon.impact.story import said_of_name
from daemon.text.keyboard import find


def may_be_untaken(read: Read) -> bool:
    """Whether a sentence's only cues are a bare "no" or "always"/"never": only then is the
    reply read for whether it changed the work."""
    return any(_bare_no(r) or _standing_only(r) for _, r in read)


def untaken(read: Read, after: Reply, before: Answered, text: str) -> Read:
    """The readings of a message whose reply `after` changes nothing of the agent's work, its
    turn `before` the message (`text`), without the cues of the sentences it did not take as a
    rule (see the module docstring)."""
    noes = [r for _, r in read if _bare_no(r)]
    declined = bool(noes) and not _accepted(after, before, text, noes)
    return [
        (s, Reading(r.language, [], r.excluded) if (declined and _bare_no(r)) or _of_name(s, r, after) else r)
        for s, r in read
    ]


def _standing_only(reading: Reading) -> bool:
    return bool(reading.cues) and all(c.kind == "standing" for c in reading.cues)


def _of_name(sentence: Sentence, reading: Reading, after: Reply) -> bool:
    """Whether a sentence's only cues are "always"/"never" said of a name (`story.said_of_name`)
    and the reply's head holds no `standing` phrase ("Noted, VAT for Acme from now on.")."""
    lang = reading.language
    if lang is None or not _standing_only(reading):
        return False
    said = words_of(sentence.text)
    return said_of_name(lang, sentence.text, said, reading.cues) and not find(words_of(after.head).low, standing(lang))


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
    head = words_of(after.head).low
    for lang in {r.language.code: r.language for r in readings if r.language is not None}.values():
        if set(after.turn.taken_up(text, lang)) - set(before.taken_up(text, lang)):
            return True
        if find(head, standing(lang)):
            return True
    return False
