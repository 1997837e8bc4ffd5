"""Where an "again" of the person recalls what the agent did (pure, no I/O;
docs/explanation/impact.md#the-cues-of-a-language).

"again" says it was said before only where it is about the agent's work: at the sentence's
start ("Again: run the whole suite"), in an exclamation ("Emojis again!"), or when "you" is the
sentence's first or second word and it asks for nothing ("you added a column …, again",
"Přidal jsi … zase"; not "Can you send it again", "Nice to see you again"). Closing a short
first clause ("Inline styles again — StyleSheet at the bottom") it names what came back as
often as news ("Works again, thanks", "Down again — 503 since 9:00"), so there it counts only
in a short sentence, or a short clause of a longer one (SHORT words at most: "refund又存成小数了，
跟订单一样用分", Chinese being cut into many short words), about a word of the agent's turn it answers
(`daemon.impact.echo`), when the agent's reply changes its work and takes a word of the
sentence up (`daemon.impact.reply.Reply.changes`: "Switched the region to eu-west-1", a diff,
an edit tool called): "region again.", "Laxmi again 🙏", "Dockerfile 베이스 이미지 또 17이네..".
A reply that only looks into it ("Let me check the staging CI logs."), consoles ("Sorry to
hear that") or cheers ("Glad the worker works!") shows news, and so does no reply; told in a
past of `past_forms` it is left out (a regular English past is none: "migration failed again"
is read when the reply changes the migration).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from daemon.impact.clauses import Words, breaks
from daemon.impact.echo import Answered
from daemon.text.keyboard import find
from daemon.text.language import Language

# Words of a sentence whose "again" is read against the agent's turn: a short complaint.
SHORT = 9


def recalls(lang: Language, text: str, words: Words, start: int) -> list[tuple[int, tuple[str, ...]]]:
    """Each "again" phrase of the sentence that recalls (see the module docstring); `start` is
    where its body starts (after lead-ins)."""
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
        if i == start or exclaimed or addressed
    ]


def _addressed(lang: Language, low: tuple[str, ...], start: int) -> bool:
    """Whether "you" is the sentence's first or second word and it asks for nothing."""
    you = find(low, lang.impact.get("second_person", frozenset()))
    return any(at <= start + 1 for at, _ in you) and not find(low, lang.claim.get("request", frozenset()))


def recalls_agents_word(
    lang: Language, words: Words, text: str, answered: Answered, replied: Callable[[], Answered]
) -> list[tuple[int, tuple[str, ...]]]:
    """The first "again" phrase of a short sentence (or clause) about a word of the agent's turn `answered`,
    told in no past, that the agent's reply, changing its work, takes up a word of (`replied`
    gives it, read only when a sentence gets this far; see the module docstring); none when the
    message answers no turn."""
    low = words.low
    if not answered.text.strip():
        return []
    agains = find(low, lang.impact.get("again", frozenset()))
    if not agains or any(lang.matches("past_forms", w) for w in low):
        return []
    about = text
    if len(low) > SHORT:
        # a short clause of a longer sentence: it alone is about the agent's word, and a
        # sentence that approves beside it tells news ("works again, thanks, now add …")
        cut = (0, *breaks(text, words), len(low))
        k = bisect_right(cut, agains[0][0]) - 1
        if cut[k + 1] - cut[k] > SHORT or find(low, lang.impact.get("approval", frozenset())):
            return []
        about = text[words.spans[cut[k]][0] : words.spans[cut[k + 1] - 1][1]]
    said = [w for _, p in agains for w in p]
    if not answered.taken_up(about, lang, said):
        return []
    if not replied().taken_up(about, lang, said):
        return []
    return agains[:1]
