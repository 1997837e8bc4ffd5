"""Where an "again" of the person recalls what the agent did (pure, no I/O;
docs/explanation/impact.md#the-cues-of-a-language).

"again" says it was said before only where it is about the agent's work: at the sentence's
start ("Again: run the whole suite"), in an exclamation ("Emojis again!"), when "you" is the
sentence's first or second word and it asks for nothing ("you added a column …, again",
"Přidal jsi … zase"; not "Can you send it again", "Nice to see you again"), or closing a first
clause of at most NAMED words that names what came back, the sentence going on after it
("Inline styles again — StyleSheet at the bottom", "siobhan's name again, you've got Shivaun
in the cc"; not "Works again.", "Down again. 503 since 9:00.": news; not "try again, …",
"a ultradent mandou de novo, …": a request verb or a verb in the past there asks or tells).
"""

from __future__ import annotations

from daemon.impact.clauses import Words
from daemon.text.keyboard import find
from daemon.text.language import Language

# Words a first clause may say before its "again" and still only name what came back.
NAMED = 3


def recalls(
    lang: Language, text: str, words: Words, start: int, ends: set[int]
) -> list[tuple[int, tuple[str, ...]]]:
    """Each "again" phrase of the sentence that recalls (see the module docstring); `start` is
    where its body starts (after lead-ins), `ends` where its clauses end."""
    low = words.low
    agains = find(low, lang.impact.get("again", frozenset()))
    if not agains:
        return []
    exclaimed = "!" in text or "！" in text
    # read once, not for each "again": a sentence of thousands of them is read in linear time
    addressed = not exclaimed and _addressed(lang, low, start)
    return [
        (i, phrase)
        for i, phrase in agains
        if i == start or exclaimed or addressed or _names_what_came_back(lang, low, start, i, i + len(phrase), ends)
    ]


def _addressed(lang: Language, low: tuple[str, ...], start: int) -> bool:
    """Whether "you" is the sentence's first or second word and it asks for nothing."""
    you = find(low, lang.impact.get("second_person", frozenset()))
    return any(at <= start + 1 for at, _ in you) and not find(low, lang.claim.get("request", frozenset()))


def _names_what_came_back(lang: Language, low: tuple[str, ...], start: int, at: int, end: int, ends: set[int]) -> bool:
    if not (start < at <= start + NAMED and end in ends and end < len(low)):
        return False
    verbs = lang.lists.get("openers", frozenset()) - lang.function_words
    return not any(w in verbs or lang.matches("past_forms", w) for w in low[start:at])
