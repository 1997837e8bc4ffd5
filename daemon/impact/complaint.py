"""A complaint about the agent's turn that asks, without saying so, for less of what it did
(pure, no I/O; docs/explanation/impact.md#a-complaint-about-the-agents-turn).

"way too long", "too long again, just the diff + 2 lines pls", "me escribiste una novela",
"ta muito textao isso", "trop de # encore, 3.", "review znowu elaborat", "「させていただきます」
多すぎて読みにくい": the person wants shorter, fewer, plainer from now on. A phrase of
`impact.excess` says so only about the agent's turn it answers, so it counts when the words of
its clause before it are the language's function words, "you" (`second_person`), lead-ins,
"again" words and words the agent's turn holds (of two letters or more, but in a script
written without spaces, where one is a word), with at most OTHER more ("keigo still too
stiff"; "these PR descriptions are way too long" after a PR description), and the clause tells
nothing in the past (`past_forms`: "the meeting was way too long", "the last one was too
formal" is a story). "the queue at the post office is way too long" names two things the agent
did not write.
"""

from __future__ import annotations

from bisect import bisect_right

from daemon.impact.clauses import Words, body_start
from daemon.impact.clauses import breaks as clause_breaks
from daemon.impact.cues import UNSPACED, Cue
from daemon.impact.echo import Answered
from daemon.text.keyboard import find
from daemon.text.language import Language

# Words of the clause before the phrase that are neither the language's own nor the agent's.
OTHER = 1


def excess(lang: Language, text: str, words: Words, answered: Answered) -> list[Cue]:
    """The first complaint (kind `excess`) of the sentence about the agent's turn `answered`
    (see the module docstring); none when the message answers no turn."""
    found = find(words.low, lang.impact.get("excess", frozenset()))
    if not found or not answered.text.strip():
        return []
    low = words.low
    breaks = clause_breaks(text, words)
    own = (
        lang.function_words
        | _words(lang, "second_person")
        | _words(lang, "lead_ins")
        | _words(lang, "again")
    )
    for at, phrase in sorted(found):
        opens = body_start(lang, low, ([0, *breaks])[bisect_right(breaks, at)])
        before = low[opens:at]
        if any(lang.matches("past_forms", w) for w in low[opens : at + len(phrase)]):
            continue
        other = [w for w in before if w not in own and not ((len(w) > 1 or lang.script in UNSPACED) and w in answered.folded)]
        if len(other) <= OTHER:
            return [Cue("excess", " ".join(phrase), at)]
    return []


def _words(lang: Language, key: str) -> frozenset[str]:
    """The words of the `impact` list `key`'s phrases, each alone."""
    return frozenset(w for phrase in lang.impact.get(key, frozenset()) for w in phrase)
