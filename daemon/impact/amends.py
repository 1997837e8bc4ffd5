"""A sentence the agent's reply shows it took as a correction (pure, no I/O;
docs/explanation/impact.md#a-correction-the-agent-amends).

People correct by stating the right thing alone, with no word a list could hold: "db's on 5433
locally.", "pytest.", "Hendrikx, met kx.", "ceny mame na cele koruny, takze 190". The agent's
next turn often tells: it opens amending ("Fixed", "Corrigé", "Sorry", "You're right", "收到，
已改为" — `impact.amended`, read in the reply's own language and in the sentence's) and writes
what the person said ("Switched to pytest", "DATABASE_URL … :5433"). A sentence of the message
with no cue of its own is then a correction when the reply takes up a word of it (`echo.Answered.
taken_up`: a content stem, a long word, a number) that the agent's turn before did not hold —
what was new to the agent and is now in its work — and it does not ask for work (a request
verb, please, "I" as its subject, "also": `setright.asks_or_adds`), which the agent would do
without being corrected ("add the VAT line" / "Added the VAT line").

A message with more than MANY such sentences is a pasted text the agent rewrote: none counts.
"""

from __future__ import annotations

from functools import cache, cached_property

from daemon.impact.clauses import Words, negating, words_of
from daemon.impact.cues import Cue
from daemon.impact.echo import Answered
from daemon.impact.setright import asks_or_adds
from daemon.text.keyboard import find
from daemon.text.language import Language, detect, known

# Words of the reply's opening read for an amending phrase ("Sorry, my mistake — fixed.").
OPENING = 8
# … of its first characters (a reply may be a megabyte of tool output).
OPENING_CHARS = 400
# Words a sentence may have to be read: a longer one is a story or pasted.
LONGEST = 40
# Sentences of one message the reply may take up; more are a pasted text it rewrote.
MANY = 2


class Reply:
    """The agent's turn after the message, read once however many sentences ask about it."""

    def __init__(self, text: str) -> None:
        self.taken = Answered(text)
        self._opens: dict[str, str | None] = {}
        self.head = text.strip()[:OPENING_CHARS]
        self.opening = words_of(self.head).low[:OPENING]

    @cached_property
    def language(self) -> Language | None:
        return detect([self.head]) if self.opening else None

    def may_amend(self) -> bool:
        """Whether the reply's opening holds the first word of an amending phrase of some
        language: most replies do not, and no sentence is read for it."""
        return not _first_words().isdisjoint(self.opening)

    def amends(self, lang: Language | None) -> str | None:
        """The amending phrase the reply opens with, in its own language or in `lang`."""
        code = lang.code if lang is not None else ""
        if code not in self._opens:
            found = None
            for reading in (self.language, lang):
                if reading is not None and found is None:
                    # the first said, the longest there: the same whatever the set's order
                    hits = sorted(find(self.opening, reading.impact.get("amended", frozenset())), key=lambda h: (h[0], -len(h[1])))
                    found = " ".join(hits[0][1]) if hits else None
            self._opens[code] = found
        return self._opens[code]


@cache
def _first_words() -> frozenset[str]:
    return frozenset(p[0] for lang in known().values() for p in lang.impact.get("amended", ()) if p)


def amended(lang: Language, text: str, words: Words, answered: Answered, reply: Reply) -> list[Cue]:
    """The cue (kind `amended`) of a sentence with no cue of its own that the reply, opening
    amending, takes up where the agent's turn before did not (see the module docstring)."""
    if not answered.text.strip() or not 0 < len(words.low) <= LONGEST:
        return []
    phrase = reply.amends(lang)
    if phrase is None:
        return []
    new = set(reply.taken.taken_up(text, lang)) - set(answered.taken_up(text, lang))
    if not any(w not in lang.function_words and not negating(lang, w) for w in new):
        return []
    return [Cue("amended", phrase, 0)]


def not_amended(lang: Language, text: str, words: Words) -> bool:
    """Whether the sentence, read in `lang`, is something else the reply may take up: it
    introduces what follows, approves, tells a story or asks for work."""
    if text.rstrip().endswith((":", "：")):
        return True  # "lint mi krzyczy lokalnie:"
    if find(words.low, lang.impact.get("agreement", frozenset())):
        return True  # "grace's is fine."
    if any(lang.matches("past_forms", w) for w in words.low):
        return True  # "der Postbote kam heute wieder nicht"
    return asks_or_adds(lang, text, words, 0)
