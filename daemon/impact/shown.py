"""The sentences with no cue of their own that the agent's reply shows it took as a correction
(pure, no I/O): each reading of `daemon.impact.statements` that looks at the reply — it amends
the sentence, acts on it, carries it out, swaps its word in or reworks its work after
(`daemon.impact.amends`, `daemon.impact.swapped`) — is applied to a message's sentences here, in the language each is
to be read in, leaving out what the reading's guard finds is something else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from daemon.impact.amends import LONGEST as LONGEST_AMENDED
from daemon.impact.amends import MANY as MANY_AMENDED
from daemon.impact.clauses import Words, words_of
from daemon.impact.cues import Cue
from daemon.impact.left_out import excluded
from daemon.impact.neighbours import Reading
from daemon.impact.sentences import Apart, Sentence
from daemon.text.language import Language

# What the reply takes up is counted by line: a person sets up to MANY_AMENDED things right, a
# line each, and a point may take more than one sentence ("und Proviant is 7 %, nich 19. 19 nur
# aufs Bier"); more lines, or more than ON_ONE_LINE sentences on one, are a pasted text.
ON_ONE_LINE = 3
# Words a sentence needs for the language found for it alone to be trusted over the session's.
SURE = 6


def shown_by_reply(
    text: str,
    read: list[tuple[Sentence, Reading]],
    reading: Callable[[Language, str, Words], list[Cue]],
    something_else: Callable[[Language, str, Words], bool],
    spans: Apart,
    languages: tuple[Language | None, Language | None],
) -> tuple[list[tuple[Sentence, Reading]], bool]:
    """The readings with each sentence of no cue that the reply shows the agent took as a
    correction (`reading`: it amends it, acts on it, carries it out or swaps its word in;
    `daemon.impact.amends`, `daemon.impact.swapped`), unless they stand on more than
    MANY_AMENDED lines of `text` (the message, NFC), or more than ON_ONE_LINE on one: a pasted
    text. A sentence `something_else` finds (it tells, asks for work) is not read.
    `languages` are the session's usual one and the message's. With whether the message was
    found pasted."""
    found: dict[int, Reading] = {}
    lines: Counter[int] = Counter()
    usual, whole = languages
    for k, (sentence, read_before) in enumerate(read):
        if read_before.cues or read_before.excluded or spans.holds(sentence):
            continue
        words = words_of(sentence.text)
        # a short sentence with no cue word may look like another language ("grace's is fine."
        # like Italian, "db's on 5433 locally." like French): read in the session's; a longer one
        # in its own (a person switches); with neither known, in its own and the message's; never
        # in one typed in Latin letters ("Greeklish": its lists are keyed, the reply's words not)
        own = read_before.language if len(words.low) >= SURE or usual is None else None
        order = (own,) if own is not None and usual is not None else (usual,) if usual is not None else (own, whole)
        langs = [lang for lang in order if lang is not None and not lang.keyed]
        langs = [lang for n, lang in enumerate(langs) if all(lang.code != o.code for o in langs[:n])]
        if not langs:
            continue
        # the guards first, the shortest first: finding what the reply takes up stems it
        if not 0 < len(words.low) <= LONGEST_AMENDED or any(something_else(lang, sentence.text, words) for lang in langs):
            continue
        cue = next((c for lang in langs if (c := reading(lang, sentence.text, words))), [])
        if cue and not any(excluded(lang, sentence.text, words, cue, spans.around(sentence)) for lang in langs):
            found[k] = Reading(langs[0], cue, False)
            lines.update((text.count("\n", 0, sentence.start),))
            if len(lines) > MANY_AMENDED or max(lines.values()) > ON_ONE_LINE:
                return read, True
    return [(s, found.get(k, r)) for k, (s, r) in enumerate(read)], False
