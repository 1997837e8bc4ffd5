"""Whether the "always" or "never" of a sentence tells what was, or what others do, rather than
a rule for the agent's work (pure, no I/O; docs/explanation/impact.md#what-is-left-out):
"I used to always squash", "han betaler altid sent", "the old CI box always fell over",
"rant: Rick always replies-all".
"""

from __future__ import annotations

from daemon.impact.clauses import Words, breaks, clause_at, negating
from daemon.impact.cues import Cue, said
from daemon.text.keyboard import find
from daemon.text.language import Language
from daemon.text.lexicon import calendar_at, language_at

# Words between "my" and the person it is ("min gamle chef"): who always does so is theirs.
OWNER = 2
# Words from a name to its "always" at most ("ok, Kirill from analytics always writes FINAL"):
# further on, the name is no longer the one who does it.
NAMED = 4


def told_as_story(lang: Language, text: str, words: Words, found: list[Cue], spans: list[tuple[int, int]]) -> bool:
    """Whether "always"/"never" (all of `found`) tell what was or what others do, not what is
    to be: said about a state that is over, in its clause or a later one ("antigamente nunca
    abríamos …", "Back then, we always squashed"; in "19 %, always, I'm not exempt anymore" the
    rule is now), after a third person in its clause (`third_person`: "han betaler altid
    sent"; or someone of the person's, `claim.others` after "my": "min gamle chef … aldrig"), or
    beside a verb in the past (`_told`)."""
    over = [clause_at(text, words, i) for i, _ in said(lang, words, lang.claim.get("past_state", frozenset()), spans)]
    if over and all(clause_at(text, words, c.at) >= min(over) for c in found):
        return True
    # said of a third person before it in its clause: "han betaler altid sent", "she never takes
    # meetings on fridays" tell what they do
    they = [(clause_at(text, words, i), i) for i, _ in said(lang, words, lang.impact.get("third_person", frozenset()), spans)]
    # … or of someone of the person's ("min gamle chef afstemte aldrig banken", "my boss never")
    mine = lang.lists.get("first_person", frozenset())
    they += [
        (clause_at(text, words, i), i)
        for i, _ in said(lang, words, lang.claim.get("others", frozenset()), spans)
        if any(w in mine for w in words.low[max(0, i - OWNER) : i])
    ]
    they += [(clause_at(text, words, c.at), i) for c in found if (i := _named(lang, text, words, c)) is not None]
    if they and all(any(k == clause_at(text, words, c.at) and i < c.at for k, i in they) for c in found):
        return True
    return any(_told(lang, words, c) for c in found)


def _told(lang: Language, words: Words, cue: Cue) -> bool:
    """Whether an "always"/"never" stands beside a verb in the past (`past_forms`: "it was
    always in pounds", "the CI box always fell over", "era sempre pieno"). A past form after it
    counts when a content word stands before it, not a word of the language's own ("tests
    are always required" is no story), or when a negation stands between them ("никогда не
    отвечал": no participle follows a negation so)."""
    low = words.low
    before, after = cue.at - 1, cue.at + len(cue.phrase.split())
    if before >= 0 and lang.matches("past_forms", low[before]):
        return True
    # "никогда не отвечал", "nigdy nie odpisał": past beyond a negation, no participle's
    negated = after < len(low) - 1 and negating(lang, low[after])
    after += negated
    if after >= len(low) or not lang.matches("past_forms", low[after]):
        return False
    return negated or (before >= 0 and low[before] not in lang.function_words)


def _named(lang: Language, text: str, words: Words, cue: Cue) -> int | None:
    """Where a name opens the clause of an "always"/"never", NAMED words before it at most
    ("rant: Rick always replies-all", "ok, Kevin never reads the tickets"): the one who does
    so. A name is a word inside the sentence written with a capital and small letters, in a
    language whose nouns have none (`capitalised_nouns`: German's all do), that is no function
    word, weekday, month or language ("ok, Fridays never deploy", "and the ticket, English
    always"); none when the person or the agent is said between it and the cue ("also, Jira
    tickets you always close"). A name after a word of its clause is not read: "in Python always
    use type hints" and "a Dra Renata sempre chega" open alike."""
    if lang.capitalised_nouns:
        return None
    low = words.low
    k = clause_at(text, words, cue.at)
    # the clause's first word; the sentence's has its capital by rule and marks no name
    at = breaks(text, words)[k - 1] if k else 0
    if at == 0 or cue.at - at > NAMED:
        return None
    a, b = words.spans[at]
    word = text[a:b]
    if not _capitalised(word) or low[at] in lang.function_words:
        return None
    if calendar_at(lang, word, low[at]) or language_at(lang, word):
        return None
    between = low[at : cue.at]
    people = lang.words("first_person") | lang.words("first_person_plural")
    if any(w in people for w in between) or find(between, lang.impact.get("second_person", frozenset())):
        return None
    return at


def _capitalised(word: str) -> bool:
    """A capital, then small letters only ("Rick", "Renata"; not "PRs", "CI", "iOS")."""
    return len(word) > 1 and word[0].isupper() and word[1:].islower()
