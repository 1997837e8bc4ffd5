"""A word of the agent's turn said back in disbelief, then set right: "Tom ko 60 days credit??
naya buyer hai, 30 advance", "רגע, us-east-1?? הכל אצלנו ב-eu-central-1", "y el resumen
arriba?? tres bullets" (pure, no I/O; docs/explanation/impact.md).

The marks are the same in every script, so no language's list is needed: a sentence that
ends in two of "?" and "!" ("??", "?!", "？？") and holds a word the agent's turn holds
(`Answered.taken_up`) doubts what the agent did; the sentence after it, beside it and not
a question itself, says what should have been. "did it work??" holds no word of the agent's,
and "you deleted the logs?? why?" asks on: neither is a correction.
"""

from __future__ import annotations

import re

from daemon.impact.echo import Answered
from daemon.impact.sentences import Sentence
from daemon.text.language import Language

DOUBT = "doubt"
# two or more of ? and ! closing the sentence (half- or full-width), then its closing marks
DOUBTING = re.compile(r"[?？][?？!！]+[\"'”’»)\]」』\s]*\Z|[!！][?？][\"'”’»)\]」』\s]*\Z")
ASKING = re.compile(r"[?？¿؟][\"'”’»)\]」』\s]*\Z")
CODE = re.compile(r"\w[_/-]\w")
MARKS = re.compile(r"[?？][?？!！]|[!！][?？]")


def may_doubt(message: str) -> bool:
    """Whether a message holds two of "?" and "!" together anywhere (read further, then)."""
    return bool(MARKS.search(message))


def doubts(sentence: Sentence, lang: Language, answered: Answered) -> bool:
    """Whether `sentence` says a word of the agent's turn back in disbelief."""
    return bool(DOUBTING.search(sentence.text)) and bool(answered.taken_up(sentence.text, lang))


def sets_right(sentence: Sentence) -> bool:
    """Whether the sentence after a doubting one may say what should have been: not a
    question, and holding a value — a number, a name in code ("eu-central-1", "tf-locks") or
    a name past its first word ("como en el del Buen Fin") — not "nice, thanks!"."""
    if ASKING.search(sentence.text):
        return False
    said = sentence.text.split()
    return any(c.isdigit() for c in sentence.text) or any(
        CODE.search(w) or (i > 0 and w[:1].isupper()) for i, w in enumerate(said)
    )
