"""Is each step of a learned skill supported by the turns it cites? A pure check.

A skill the scout creates or updates must rest on what the agent really did: each new
step's content words (normalised as `daemon.text.words` does: case, inflection, number
words, months; Chinese, Japanese or Thai split into words by ICU's dictionaries) must at
least half appear in the text of the turns the candidate cites.
A step the turns do not support — a procedure the model made up, or took from nowhere it
cites — refuses the candidate, with the steps named.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from daemon.text.language import Language, detect
from daemon.text.words import is_content, tokens

MIN_SHARE = 0.5


def content_words(text: str, lang: Language | None = None) -> set[str]:
    """The words of `text` that carry content (`daemon.text.words.is_content`), read as `lang`."""
    return {w for w in tokens(text, lang) if is_content(w, lang)}


def unsupported_steps(steps: Sequence[str], turn_texts: Iterable[str]) -> list[str]:
    """The steps whose content words do not at least half appear in the cited turns' text."""
    texts = list(turn_texts)
    lang = detect([*steps, *texts])  # one language for both sides, so their stems compare
    said: set[str] = set()
    for text in texts:
        said |= content_words(text, lang)
    missing = []
    for step in steps:
        words = content_words(step, lang)
        if not words or len(words & said) < MIN_SHARE * len(words):
            missing.append(step)
    return missing
