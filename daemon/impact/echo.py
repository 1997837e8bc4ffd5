"""What a sentence of the person takes up from the agent's turn just before it (pure, no I/O;
docs/explanation/impact.md#the-cues-of-a-language).

A change of state ("we dropped jest", "die mit 33 ist die alte") corrects the agent only
when it is about something the agent just said or did: the person retires what the agent
used. Told alone ("we moved the meeting") it is news, not a correction. A word is taken up
when the agent's turn holds it: the same content stem, or — for names, numbers and paths,
which tools write inside longer tokens — a word of `LONG_WORD` letters or more, or one
holding a digit, found inside the turn's text ("heroku" in "tidepool-staging.herokuapp.com",
"33" in "0711 48 33 10"), and a name in code by its parts ("envios" of "envios_v2"). The words of the change itself ("changed", "switched") are not
looked for: an agent that "changed the README" says nothing of "the meeting has changed".
"""

from __future__ import annotations

from collections.abc import Iterable

from daemon.impact.clauses import folded
from daemon.impact.content import content, cue_tokens
from daemon.text.keyboard import in_latin
from daemon.text.language import Language
from daemon.text.unicode_words import words
from daemon.text.words import token

LONG_WORD = 4
# Of a long agent turn, the tail the person answers (a pasted log of a megabyte is not read).
READ_CHARS = 20_000


class Answered:
    """The agent's turn a message answers, read once per language however many of the
    message's sentences ask about it."""

    def __init__(self, text: str) -> None:
        self.text = text[-READ_CHARS:]
        self.folded = folded(self.text)
        self._stems: dict[str, frozenset[str]] = {}

    def stems(self, lang: Language) -> frozenset[str]:
        if lang.code not in self._stems:
            self._stems[lang.code] = content(self.text, lang).stems
        return self._stems[lang.code]

    def taken_up(self, sentence: str, lang: Language, cue: Iterable[str] = ()) -> tuple[str, ...]:
        """The words of `sentence` this turn holds (see the module docstring), leaving out the
        words of the `cue` phrase that was found."""
        if not self.text.strip():
            return ()
        said = {folded(w) for w in cue}
        said |= {in_latin(token(w, lang), lang.code) for w in said}
        shared = set(content(sentence, lang).stems & self.stems(lang)) - said
        skip = lang.function_words | cue_tokens(lang.code) | said
        for word in {folded(w) for w in words(sentence)} - skip:
            if (len(word) >= LONG_WORD or any(c.isdigit() for c in word)) and word in self.folded:
                shared.add(word)
            # a name in code is also looked for by its long parts: "envios" of "envios_v2"
            # (not "2" of "test_2", found in any number of the turn)
            parts = set(word.split("_")) - skip if "_" in word else set()
            shared |= {p for p in parts if len(p) >= LONG_WORD and p.isalpha() and p in self.folded}
        return tuple(sorted(shared))
