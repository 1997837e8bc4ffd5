"""A text written in two scripts ("不要在commit里加emoji。", "Always cc 王小明 and 李华."): the
language of the words of each (pure, no I/O; docs/explanation/impact.md#the-cues-of-a-language).

`detect` gives one language, that of the script of most letters; a Chinese sentence naming two
tools in Latin letters has more Latin letters than ideographs, and is Chinese by its words.
"""

from __future__ import annotations

from collections import Counter

from daemon.text.language import Language, detect, script_of
from daemon.text.unicode_words import words


def in_each_script(text: str) -> list[Language]:
    """The language of the words of `text` written in each script it holds, the script of
    most letters first: "不对，用pnpm，不要用npm。" is Chinese by its ideographs and read so,
    though its Latin letters are more; "Always cc 王小明 and 李华." is English by its words."""
    # one script (most sentences): no word is segmented
    if text.isascii() or len({s for c in text if (s := script_of(c)) is not None}) < 2:
        return []
    by_script: dict[str, list[str]] = {}
    for word in words(text):
        found = Counter(s for c in word if (s := script_of(c)) is not None)
        if found:
            by_script.setdefault(found.most_common(1)[0][0], []).append(word)
    if len(by_script) < 2:
        return []
    ordered = sorted(by_script.values(), key=lambda ws: -sum(len(w) for w in ws))
    return [lang for ws in ordered if (lang := detect([" ".join(ws)])) is not None]
