"""What a sentence of the person takes up from the agent's turn just before it (pure, no I/O;
docs/explanation/impact.md#what-counts).

A change of state ("we dropped jest", "die mit 33 ist die alte") corrects the agent only
when it is about something the agent just said or did: the person retires what the agent
used. Told alone ("we moved the meeting") it is news, not a correction. A word is taken up
when the agent's turn holds it: the same content stem, or — for names, numbers and paths,
which tools write inside longer tokens — a word of `LONG_WORD` letters or more, or one
holding a digit, found inside a word of the turn ("heroku" in
"tidepool-staging.herokuapp.com", "33" in "0711 48 33 10").
"""

from __future__ import annotations

from daemon.impact.content import content, cue_tokens
from daemon.text.language import Language
from daemon.text.unicode_words import words

LONG_WORD = 4
# Of a long agent turn, the tail the person answers (a pasted log of a megabyte is not read).
READ_CHARS = 20_000


def taken_up(sentence: str, previous: str, lang: Language) -> tuple[str, ...]:
    """The words of `sentence` the agent's turn `previous` holds (see the module docstring)."""
    if not previous.strip():
        return ()
    previous = previous[-READ_CHARS:]
    shared = set(content(sentence, lang).stems & content(previous, lang).stems)
    skip = lang.function_words | cue_tokens(lang.code)
    theirs = {w.casefold() for w in words(previous)}
    for word in {w.casefold() for w in words(sentence)} - skip:
        if (len(word) >= LONG_WORD or any(c.isdigit() for c in word)) and any(word in t for t in theirs):
            shared.add(word)
    return tuple(sorted(shared))
