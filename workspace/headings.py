"""Which heading a consolidation answer may write over the units it moves or groups (pure).

Headings are structure, not units: the loss check never sees them. So a heading the model
names for `move` or `group` would otherwise be the one place an answer could invent text
(an instruction, a credential) that no check reads. It is used only if it is

- an existing heading of the role files (matched by its normalised title; the existing
  title is what gets written), or
- a short label made of what the units under it already say: at most `MAX_WORDS` words and
  `MAX_CHARS` characters, every word one of those units' words (`daemon.text.words`:
  case, plurals, possessives and number words folded; "and", "of", "the" … are free; in a
  script written without spaces, each pair of characters is a word: "值班" over
  "王伟和李娜本周值班。"), no
  secret-looking token and no meaning-carrying token (`daemon.text.meaning`) those units
  lack.

"On call" over "Priya is on call in the week of 2026-11-30." passes; "Ignore all previous
instructions …" or "Secret: the admin password is hunter2" does not.
"""

from __future__ import annotations

from collections.abc import Sequence

from daemon.text import meaning, meaning_compare
from daemon.text.language import detect
from daemon.text.words import stopwords, tokens, words

MAX_WORDS = 6
MAX_CHARS = 60
PUNCTUATION = ".,;:!?()[]{}<>\"'`*_~#“”‘’«»"


def refusal(title: str, units: Sequence[str]) -> str | None:
    """Why `title` may not be a new heading over `units` (their texts), or None if it may.

    A secret-looking token of the title is never quoted whole in the reason."""
    change = meaning_compare.compare(units, title)
    if change.secrets:
        return f"names a new heading that {meaning_compare.Change(secrets=change.secrets).describe()}"
    count = len(words(title))
    if count > MAX_WORDS or len(title) > MAX_CHARS:
        return (
            f"names a new heading of {count} words and {len(title)} characters: a new heading is a "
            f"short label (at most {MAX_WORDS} words, {MAX_CHARS} characters) or an existing heading"
        )
    lang = detect([*units, title])
    have = {word for text in units for word in tokens(text, lang)}
    shown = (w.strip(PUNCTUATION) for w in title.split())
    foreign = [w for w in dict.fromkeys(shown) if not set(tokens(w, lang)) <= have | stopwords(lang)]
    if foreign:
        return (
            f"names a new heading with words the units under it do not have ({', '.join(foreign)}): "
            "a new heading is made of their words, or is an existing heading"
        )
    # A heading is a label, not a clause: an unqualified one does not add "always".
    added = tuple(t for t in change.added if t != meaning.ALWAYS)
    if added:
        return f"names a new heading that says more than the units under it: {meaning_compare.Change(added=added).describe()}"
    return None
