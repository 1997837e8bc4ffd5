"""Cues read from the shape of a clause, not from a phrase alone (pure, no I/O;
docs/explanation/impact.md): a politeness word closing a clause that names a way of doing, an
order of work, a rule over every thing of a kind, a negated imperative anywhere in a clause.

| cue | where it counts | for example |
| --- | --- | --- |
| asked (`politeness`) | closing its clause, whose body opens with no function word nor `openers`, in a message answering the agent | "named exports pls", "British spelling, please" |
| sequence (`first`, `then`) | a `first` word with a `then` word in a later clause, or closing a clause that names a way; not the person's plan, a story, an ordinal | "tests first, then commit", "tsc first" |
| standing (`every`) | opening its clause, which names the kind and no more or asks (politeness, "must", an imperative); not the person's habit, a story | "every commit", "jede Rechnung … bitte …", "каждый возврат отмечай" |
| prohibition (`imperative_forms`) | a negation of the meaning table before an imperative, anywhere | "промокоды от себя не раздавай" |
| defined (no list) | " = " between a name of at most DEFINED words and words, no number nor name in code on either side | "clientes = sem emojis", "new column = new schema version + changelog line" |
"""

from __future__ import annotations

import re
from bisect import bisect_right

from daemon.impact.clauses import CLAUSE_BREAK, Words, body_start, negating
from daemon.impact.clauses import breaks as clause_breaks
from daemon.text.keyboard import find
from daemon.text.language import Language

# A sign of equality between spaces: "new column = new schema version".
EQUALS = re.compile(r"(?<=\s)=(?=\s)")
# Words a name defined with " = " may have ("new column = …"): more is a sum or code.
DEFINED = 3
# Words a clause may say after its `every` phrase and still only name the kind ("every commit").
KIND_ONLY = 2
# Words before an "again" closing its clause that may name what is done wrong again ("region again").
COMPLAINT = 3


def forbidden(lang: Language, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each negation before a verb in the imperative (`imperative_forms`), anywhere in a clause:
    the verb stands last as often as first ("возвраты больше 5000 без меня не проводи")."""
    low = words.low
    return [
        (i - 1, low[i - 1 : i + 1])
        for i in range(1, len(low))
        if lang.matches("imperative_forms", low[i]) and negating(lang, low[i - 1])
    ]


def asked(lang: Language, text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each politeness word, in order, that asks for a way of doing, not a deed: "lowercase keywords
    please", "named export pls, same as everything else", "dd/mm porfa". It closes its clause,
    whose body opens with a word or number that is no function word and none of the language's `openers` (the verbs a request
    opens with: "send it please" asks once, "the logs please" asks for a thing, "Great, please
    continue" goes on). A language that puts its verb last ("Dosyayı sil lütfen") has no such list."""
    breaks = clause_breaks(text, words)
    return [
        (at, phrase)
        for at, phrase in sorted(find(words.low, lang.impact.get("politeness", frozenset())))
        if _names_a_way(lang, words.low, breaks, at, len(phrase))
    ]


def complaint(lang: Language, low: tuple[str, ...], breaks: list[int], at: int, size: int) -> bool:
    """Whether an "again" at `at` closes a clause of at most COMPLAINT words that names a thing
    (`_names_a_way`): "region again.", "orthographe britannique, encore une fois"; not "send it
    again", "nice to see you again" (too long a clause to be a thing named)."""
    begin = max([0, *(b for b in breaks if b <= at)])
    return at - begin <= COMPLAINT and _names_a_way(lang, low, breaks, at, size)


def _names_a_way(lang: Language, low: tuple[str, ...], breaks: list[int], at: int, size: int) -> bool:
    """Whether the phrase at `at` closes its clause, and that clause (the one before, when the
    phrase stands alone after a comma) names a way of doing: its body opens with a word or
    number that is no function word and none of the language's `openers` ("lowercase keywords
    please", "tsc first"; not "send it please", "check first")."""
    end = at + size
    if end < len(low) and end not in breaks:
        return False
    opens = [0, *(b for b in breaks if b <= at)]
    begin = body_start(lang, low, opens[-1])
    if begin >= at and len(opens) > 1:  # ", please" alone: the clause before says what
        begin = body_start(lang, low, opens[-2])
    if begin >= at:
        return False
    first = low[begin]
    openers = lang.lists.get("openers", frozenset())
    # "siobhan's name again": a word with an apostrophe is a word
    return first not in openers and first not in lang.function_words and first.replace("'", "").isalnum()


def sequence(lang: Language, text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each `first` word that sets an order of work: a `then` word follows it in a later clause
    ("tests first, then commit", "d'abord les faits, ensuite l'orthographe", "сначала посмотри
    остаток, а потом обещай дату"), or it closes a clause that names a way (`_names_a_way`:
    "tsc first", "kommandot först!!"). Not when its clause has the person as subject ("first
    I'll check the logs, then …" is a plan), nor with a verb in the past ("ran tflint locally
    first" tells), nor an ordinal ("the first line")."""
    low = words.low
    breaks = clause_breaks(text, words)
    me = _subjects(lang)
    thens = find(low, lang.impact.get("then", frozenset()))
    hits = []
    for at, phrase in sorted(find(low, lang.impact.get("first", frozenset()))):
        clause = bisect_right(breaks, at)
        if at > 0 and low[at - 1] in lang.function_words:
            continue
        bounds = [0, *breaks, len(low)]
        said = low[bounds[clause] : bounds[clause + 1]]
        if any(w in me or lang.matches("past_forms", w) for w in said):  # a plan, or a story
            continue
        ordered = any(b > at and bisect_right(breaks, b) > clause for b, _ in thens)
        if ordered or _names_a_way(lang, low, breaks, at, len(phrase)):
            hits.append((at, phrase))
    return hits


def _subjects(lang: Language) -> frozenset[str]:
    """The person as a subject: "I", "we" (`claim.subject_pronouns`)."""
    return frozenset(p[0] for p in lang.claim.get("subject_pronouns", frozenset()) if len(p) == 1)


def every(lang: Language, text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each `every` word (one of a kind, any at all) that opens a clause, or follows the function
    word opening it, with more of the clause after it: a rule over all the work of a kind
    ("jede Rechnung die rausgeht bitte auch in Kopie", "и каждый возврат отмечай в амо",
    "every commit"). Not when the clause has the person as subject
    ("every morning I check the mail") or a verb in the past ("each build failed"), nor when it
    says more than the kind and asks nothing ("jede Datei sieht gut aus")."""
    low = words.low
    breaks = clause_breaks(text, words)
    bounds = [0, *breaks, len(low)]
    me = _subjects(lang)
    hits = []
    for at, phrase in sorted(find(low, lang.impact.get("every", frozenset()))):
        clause = bisect_right(breaks, at)
        begin = body_start(lang, low, bounds[clause])
        opens = at == begin or (at == begin + 1 and low[begin] in lang.function_words)
        said = low[bounds[clause] : bounds[clause + 1]]
        after = bounds[clause + 1] - at - len(phrase)
        if not opens or after <= 0 or any(w in me or lang.matches("past_forms", w) for w in said):
            continue
        # a rule names the kind and no more ("every commit", "em todas as confirmações: 50 €"),
        # or asks: a politeness word, "must", an imperative ("jede Datei sieht gut aus" reports)
        asking = find(said, lang.impact.get("politeness", frozenset())) or any(
            "must" in lang.concepts.get(w, ()) or lang.matches("imperative_forms", w) for w in said
        )
        if after <= KIND_ONLY or asking:
            hits.append((at, phrase))
    return hits


def defined(text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """The word after each " = " that defines a name in words, not a sum nor code: "clientes =
    sem emojis", "fatto = analyze pulito + test verdi", "cornetto = cruasán"; not "30 % = 345
    EUR", "engine_version = 14", "timeout = 30", "x = y + 2". Its clause before the sign is the name: at
    most DEFINED words, none a number or a name in code; the word after it is no number and no
    name in code either."""
    hits: list[tuple[int, tuple[str, ...]]] = []
    for sign in (m.start() for m in EQUALS.finditer(text)):
        before = [i for i, (a, b) in enumerate(words.spans) if b <= sign]
        after = [i for i, (a, b) in enumerate(words.spans) if a > sign]
        if not before or not after:
            continue
        name = [i for i in before if not CLAUSE_BREAK.search(text[words.spans[i][1] : sign])]
        said = [words.low[i] for i in name]
        # no number, no name in code, no letter standing for a number ("x = y + 2")
        plain = all(len(w) > 1 and not any(c.isdigit() or c == "_" for c in w) for w in (*said, words.low[after[0]]))
        # the sign right after a word (no sum sign, no unit) and a word right after it
        close = text[words.spans[before[-1]][1] : sign].strip() == "" and text[sign + 1 : words.spans[after[0]][0]].strip() == ""
        if 0 < len(name) <= DEFINED and plain and close:
            hits.append((after[0], (words.low[after[0]],)))
    return hits
