"""Whether the "always" or "never" of a sentence tells what was, or what others do, rather than
a rule for the agent's work (pure, no I/O; docs/explanation/impact.md#what-is-left-out):
"I used to always squash", "han betaler altid sent", "the old CI box always fell over"; and,
when the agent's reply takes nothing up, what someone named does (`said_of_name`: "Farmacias
del Norte siempre devuelve todo a fin de mes").
"""

from __future__ import annotations

from daemon.impact.clauses import Words, body_start, breaks, clause_at, negating
from daemon.impact.cues import Cue, said
from daemon.text.keyboard import find
from daemon.text.language import Language
from daemon.text.lexicon import calendar_at

# Words between "my" and the person it is ("min gamle chef"): who always does so is theirs.
OWNER = 2


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


def said_of_name(lang: Language, text: str, words: Words, found: list[Cue]) -> bool:
    """Whether "always"/"never" (all of `found`) follow a name in their sentence, said by no one
    of the first or second person and asking nothing: "Farmacias del Norte siempre devuelve
    todo", "Bev from accounts always wants the receipts as PDFs", "a Dra Renata sempre chega
    7h30". A name is a word written with a capital and no other, not opening its clause, its
    lead-ins aside ("CNPJ", "PRs", "FYI: Slack …", "ok so Slack …" are none), no weekday or
    month ("on Fridays never deploy"), in a language whose nouns do not all open with one
    (`nouns_capitalized`: German). A sentence asks when a clause opens with a verb of
    `openers` or one follows the cue ("cc Hannah always on invoices", "in Python always use
    type hints", "réponds-lui en allemand, … jamais 'du'"); it sets a rule out when a colon
    follows the cue ("pro import do Shoptetu vzdycky: strednik …"). The caller reads it so only
    when the agent's reply changes nothing and says no standing phrase
    (`daemon.impact.untaken`): a rule about a name answered "Noted." is lost so."""
    if lang.nouns_capitalized or lang.keyed or not found:
        return False
    low = words.low
    starts = (0, *breaks(text, words))
    opening = {body_start(lang, low, k) for k in starts} | set(starts)  # after its lead-ins too
    at = min(c.at for c in found)
    if not any(_named(lang, text, words, k) for k in range(1, at) if k not in opening):
        return False
    persons = lang.words("first_person") | lang.words("first_person_plural")
    if any(w in persons for w in low) or find(low, lang.impact.get("second_person", frozenset())):
        return False
    verbs = lang.words("openers") - lang.function_words
    after = max(c.at + len(c.phrase.split()) for c in found)
    if (after < len(low) and low[after] in verbs) or text[words.spans[after - 1][1] :].lstrip().startswith((":", "：")):
        return False
    return not any(k < len(low) and low[k] in verbs for k in (body_start(lang, low, s) for s in starts))


def _named(lang: Language, text: str, words: Words, k: int) -> bool:
    """Whether the `k`th word is a name (see `said_of_name`): a capital, then no other ("CNPJ",
    "PRs" are no names)."""
    a, b = words.spans[k]
    word = text[a:b]
    return word[:1].isupper() and not any(c.isupper() for c in word[1:]) and calendar_at(lang, word, words.low[k]) is None
