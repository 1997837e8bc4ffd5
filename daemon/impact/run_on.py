"""Where sentences typed together end: at a space after a word whose ending closes a sentence
in its language (pure, no I/O).

People type Korean casually with no full stop between sentences, a space after the ending that
closes one: "대표자 김서연이에요, 서현 아니고 공지 말투 좀 빼주세요 ㅠ 직장인 손님들이에요" is two. A
language lists such endings as patterns over a word (`closing_endings`: Korean "-세요", "-어요",
"-에요", "-죠", "-니다"; not a topic's "-는요", "-때요", a connective "-고요", "-는데요", nor
"아니에요", whose correction goes on: "8080 아니에요 9090이에요"). The faces typed after it
(`closing_marks`: "ㅠ", "ㅋㅋ"; symbols and emoji) belong to the sentence it closes. A space
after them ends the sentence before a word of letters or digits, but not before a word saying
it was a joke (`claim.humour`, `impact.humour`, `impact.kidding`: "… 21이에요 농담이야" is one),
outside brackets and quotation marks ("「…」", straight quotes that open and close alike); a
word opening with a mark is named, not said ("~습니다 말고 ~해요로"). Read only where a language
that lists such endings writes its letters, each word once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from daemon.impact.left_out import humour
from daemon.text.language import Language, known, script_of

# What opens and closes a quotation or an aside, in which a space ends nothing.
OPENING = "「『（(【〔“‘"
CLOSING = "」』）)】〕”’"
# A word: a run of what is not a space (matched from a space or the start: a long run is read once).
WORD = re.compile(r"(?<!\S)\S+")


@dataclass(frozen=True)
class Closing:
    """A language that closes sentences with a word's ending: its script, and its lists."""

    script: str
    lang: Language

    def closes(self, word: str) -> bool:
        return word[0].isalnum() and script_of(word[-1]) == self.script and self.lang.matches("closing_endings", word.casefold())

    def mark(self, word: str) -> bool:
        """A face typed after the ending: no letter nor digit, or one of `closing_marks`."""
        return not any(c.isalnum() for c in word) or self.lang.matches("closing_marks", word)

    def joke(self, word: str) -> bool:
        return (word.casefold(),) in humour(self.lang) | self.lang.impact.get("kidding", frozenset())


def ends(text: str) -> list[tuple[int, int]]:
    """(end of the sentence, start of the next) at each space after a closing word of `text`."""
    languages = [c for c in _closing() if any(script_of(ch) == c.script for ch in text)]
    if not languages:
        return []
    words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
    found: list[tuple[int, int]] = []
    depth = read = straight = 0
    for k, (_, end, word) in enumerate(words):
        # what lies between, read once: a message of thousands of words is read in linear time
        between = text[read:end]
        depth += sum(c in OPENING for c in between) - sum(c in CLOSING for c in between)
        straight += between.count('"')
        read = end
        if depth > 0 or straight % 2:
            continue
        for closing in languages:
            if not closing.closes(word):
                continue
            after = k + 1
            while after < len(words) and closing.mark(words[after][2]):
                after += 1
            if after < len(words) and words[after][2][0].isalnum() and not closing.joke(words[after][2]):
                found.append((words[after - 1][1], words[after][0]))
            break
    return found


@cache
def _closing() -> tuple[Closing, ...]:
    """Every language that lists `closing_endings`."""
    return tuple(Closing(lang.script, lang) for lang in known().values() if lang.patterns.get("closing_endings"))
