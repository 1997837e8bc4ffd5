"""Where sentences typed together end: at a space after a word whose ending closes a sentence
in its language (pure, no I/O).

People type Korean casually with no full stop between sentences, a space after the ending that
closes one: "대표자 김서연이에요, 서현 아니고 공지 말투 좀 빼주세요 ㅠ 직장인 손님들이에요" is two. A
language lists such endings as patterns over a word (`closing_endings`: Korean "-요", "-죠",
"-니다", not a noun's 요: 필요, 중요). A space after one ends the sentence before a letter or a
digit, outside brackets and quotation marks ("「…」", straight quotes that open and close
alike), and only after a letter of that language's script; a comma after the ending goes on
with the clause ("확인해주세요, 그리고 …"). Read only where a language that lists such endings
writes its letters, each word once.
"""

from __future__ import annotations

import re
from functools import cache

from daemon.text.language import known, script_of

# What opens and closes a quotation or an aside, in which a space ends nothing.
OPENING = "「『（(【〔“‘"
CLOSING = "」』）)】〕”’"
# A word and the spaces after it, a letter or a digit next.
WORD_BEFORE_SPACE = re.compile(r"(\S+)( +)(?=\w)")


def ends(text: str) -> list[tuple[int, int]]:
    """(end of the sentence, start of the next) at each space after a closing word of `text`."""
    endings = _closing_endings()
    scripts = {s for s, _ in endings}
    if not endings or not any(script_of(c) in scripts for c in text):
        return []
    found: list[tuple[int, int]] = []
    depth = read = straight = 0
    for match in WORD_BEFORE_SPACE.finditer(text):
        word = match.group(1)
        # what lies between, read once: a message of thousands of words is read in linear time
        between = text[read : match.end(1)]
        depth += sum(c in OPENING for c in between) - sum(c in CLOSING for c in between)
        straight += between.count('"')
        read = match.end(1)
        if depth <= 0 and straight % 2 == 0 and any(script_of(word[-1]) == s and p.search(word.casefold()) for s, p in endings):
            found.append((match.end(1), match.end()))
    return found


@cache
def _closing_endings() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Every language's `closing_endings`, each with the script it writes."""
    return tuple((lang.script, p) for lang in known().values() for p in lang.patterns.get("closing_endings", ()))
