"""Whether the "always" or "never" of a sentence tells what was, or what others do, rather than
a rule for the agent's work (pure, no I/O; docs/explanation/impact.md#what-is-left-out):
"I used to always squash", "han betaler altid sent", "the old CI box always fell over".
"""

from __future__ import annotations

from bisect import bisect_right

from daemon.impact.clauses import NEGATING, Words, body_start, breaks, negating
from daemon.impact.cues import Cue, said
from daemon.impact.setright import asking
from daemon.text.language import Language

# Words between "my" and the person it is ("min gamle chef"): who always does so is theirs.
OWNER = 2
# What a bare "always" or "never" means in the meaning table (one word read as "must" or
# "not"): it tells how things are as often as it sets a rule; "from now on", "next time" do not.
AHEAD_NOT = NEGATING | {"must"}


def bare(lang: Language, cue: Cue) -> bool:
    """Whether `cue` is a bare "always" or "never" (see AHEAD_NOT)."""
    return cue.kind == "standing" and len(cue.phrase.split()) == 1 and bool(AHEAD_NOT & set(lang.concepts.get(cue.phrase, ())))


def told_as_story(lang: Language, text: str, words: Words, found: list[Cue], spans: list[tuple[int, int]]) -> bool:
    """Whether "always"/"never" (all of `found`) tell what was or what others do, not what is
    to be: said about a state that is over, in its clause or a later one ("antigamente nunca
    abríamos …", "Back then, we always squashed"; in "19 %, always, I'm not exempt anymore" the
    rule is now), inside its clause in a sentence naming a time gone by, after a third person in
    its clause (`third_person`: "han betaler altid sent"; or someone of the person's,
    `claim.others` after "my": "min gamle chef … aldrig"), or beside a verb in the past
    (`_told`)."""
    # each word's clause by bisection over the sentence's breaks, read once: a pasted log of
    # thousands of "he … always" is read in n log n, not once per pair
    cut = breaks(text, words)
    over = min((bisect_right(cut, i) for i, _ in said(lang, words, lang.claim.get("past_state", frozenset()), spans)), default=None)
    if over is not None and all(bisect_right(cut, c.at) >= over for c in found):
        return True
    # … or a bare "always"/"never" inside its clause, in a sentence that names a time gone by
    # (`past_time`: "The panto folk never pay before March, they didnae last year either",
    # "Horak nam loni poslal chmel … a nikdy se ani neomluvil"). Opening its clause it tells the
    # agent what to do, whatever time it names ("Always compare revenue to last year.", "never
    # deploy on Fridays, last year we lost a weekend"); so does a sentence that speaks to the
    # agent or asks (`_addressing`: "You must always run the tests, yesterday you didn't.",
    # "Ne pousse jamais sur main, hier tu l'as encore fait."), and "from now on" beside it. Else,
    # after the verb, it is lost with the stories ("Compare toujours avec l'année dernière.")
    if (
        all(bare(lang, c) and not _opens_clause(lang, words, cut, c) for c in found)
        and said(lang, words, lang.impact.get("past_time", frozenset()), spans)
        and not said(lang, words, _addressing(lang), spans)
    ):
        return True
    # said of a third person before it in its clause: "han betaler altid sent", "she never takes
    # meetings on fridays" tell what they do
    they = [i for i, _ in said(lang, words, lang.impact.get("third_person", frozenset()), spans)]
    # … or of someone of the person's ("min gamle chef afstemte aldrig banken", "my boss never")
    mine = lang.lists.get("first_person", frozenset())
    they += [
        i
        for i, _ in said(lang, words, lang.claim.get("others", frozenset()), spans)
        if any(w in mine for w in words.low[max(0, i - OWNER) : i])
    ]
    # the first of them in each clause
    first: dict[int, int] = {}
    for i in they:
        k = bisect_right(cut, i)
        first[k] = min(i, first.get(k, i))
    if first and all(first.get(bisect_right(cut, c.at), c.at) < c.at for c in found):
        return True
    return any(_told(lang, words, c) for c in found)


def _addressing(lang: Language) -> frozenset[tuple[str, ...]]:
    """The words of `lang` that speak to the agent ("you", "du") or ask (`setright.asking`:
    "please", "주세요", "can you")."""
    return lang.impact.get("second_person", frozenset()) | asking(lang)


def _opens_clause(lang: Language, words: Words, cut: tuple[int, ...], cue: Cue) -> bool:
    """Whether `cue` is the first word of its clause but for lead-ins ("And always …", "…, nunca
    despliegues …")."""
    k = bisect_right(cut, cue.at)
    first = body_start(lang, words.low, cut[k - 1] if k else 0)
    return first == cue.at


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
