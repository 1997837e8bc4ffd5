"""Is each step of a learned skill supported by the turns it cites? A pure check.

A skill the scout creates or updates must rest on what the agent really did: each new
step's content words (normalised as `daemon.text.words` does: case, plurals, number
words, months; in Chinese, Japanese or Thai, which have no spaces, character pairs) must at
least half appear in the text of the turns the candidate cites.
A step the turns do not support — a procedure the model made up, or took from nowhere it
cites — refuses the candidate, with the steps named.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from daemon.text.words import is_content, tokens

MIN_SHARE = 0.5


def content_words(text: str) -> set[str]:
    """The words of `text` that carry content (`daemon.text.words.is_content`)."""
    return {w for w in tokens(text) if is_content(w)}


def unsupported_steps(steps: Sequence[str], turn_texts: Iterable[str]) -> list[str]:
    """The steps whose content words do not at least half appear in the cited turns' text."""
    said: set[str] = set()
    for text in turn_texts:
        said |= content_words(text)
    missing = []
    for step in steps:
        words = content_words(step)
        if not words or len(words & said) < MIN_SHARE * len(words):
            missing.append(step)
    return missing
