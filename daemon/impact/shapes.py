"""Cues read from the shape of a clause, not from a phrase alone (pure, no I/O;
docs/explanation/impact.md): a politeness word closing a clause that names a way of doing, an
order of work, a rule over every thing of a kind, a negated imperative anywhere in a clause, a
name defined with " = ".

| cue | where it counts | for example |
| --- | --- | --- |
| asked (`politeness`) | closing its clause, whose body opens with no function word nor `openers`, in a message answering the agent | "named exports pls", "British spelling, please" |
| sequence (`first`, `then`) | a `first` word opening or closing its clause with a `then` word in a later clause, or closing a clause that names a way; not the person's plan, a third person's doing, a story, an ordinal | "tests first, then commit", "tsc first" |
| standing (`every`) | opening its clause, which names the kind and KIND_ONLY word more or asks (politeness, "must", an imperative); not when the clause tells (`_tells`) | "every commit", "jede Rechnung … bitte …", "каждый возврат отмечай" |
| prohibition (`prohibiting`, `imperative_forms`) | the negation of `prohibiting` before an imperative, anywhere | "промокоды от себя не раздавай" |
| prohibition (`prohibiting_after`, `prohibited_forms`) | a negation of `prohibiting_after` right after a verb so formed (the pattern reads both) | "원본탭은 건들면 안되고", "확정하지 마라" |
| standing (`thus`) | closing its clause but for at most AFTER_THUS words, the clause ending in a colon or a dash with STEPS clauses or more after it; not opening its clause, nor in a clause of `looks`, of the person alone or in the past | "u nas to jde takhle — make lint, make test, …", "antes de atualizar fazemos assim: backup, …" |
| defined (no list) | " = " between a name of at most DEFINED words and a definition of two words or more, no number, name in code or single letter in the name nor opening the definition | "clientes = sem emojis", "new column = new schema version + changelog line" |
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import cache

from daemon.impact.clauses import Words, body_start
from daemon.impact.clauses import breaks as clause_breaks
from daemon.text.keyboard import find
from daemon.text.language import Language
from daemon.text.lexicon import number_at

# A sign of equality between spaces: "new column = new schema version".
EQUALS = re.compile(r"(?<=\s)=(?=\s)")
# What a word may hold beside letters and digits: an apostrophe, and a file's dots and dashes.
WORDLIKE = re.compile(r"(?<=\w)['.-](?=\w)")
# Words a name defined with " = " may have ("new column = …"): more is a sum or code.
DEFINED = 3
# Words a language that puts its verb last says between "like this" and the colon ("bizde fiyat
# işi şöyle yürüyor:", "우리 팀은 이렇게 해요:", "うちはこういう流れです："); an English "we do it
# like this:" says none.
AFTER_THUS = 2
# Clauses after the colon: the steps of a way of doing, not one thing shown ("it looks like
# this: a blank page").
STEPS = 2
# What ends a clause that announces what follows: a colon or a dash.
ANNOUNCING = re.compile(r"\s*(?:[:：—–]|-\s)")
# Words a clause may say after its `every` phrase and still only name the kind ("every commit";
# "every test passes" says more).
KIND_ONLY = 1


def forbidden(lang: Language, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each negation of `prohibiting` ("не", "nie") before a verb in the imperative
    (`imperative_forms`) that is no function word, anywhere in a clause: the verb stands last
    as often as first ("возвраты больше 5000 без меня не проводи"). In a language that says
    "don't" after the verb, each negation of `prohibiting_after` right after a verb,
    `prohibited_forms` reading the two ("건들면 안돼", "확정하지 마라"; not "참치 마요",
    mayonnaise, nor "로그인 유지 안돼요")."""
    low = words.low
    prohibiting = lang.impact.get("prohibiting", frozenset())
    before = [
        (i - 1, low[i - 1 : i + 1])
        for i in range(1, len(low))
        if (low[i - 1],) in prohibiting
        and low[i] not in lang.function_words
        and lang.matches("imperative_forms", low[i])
    ]
    # … or closing it, right after the verb: Korean "-지 마" (don't), "-면 안 돼" (must not). The
    # pattern reads the verb with the negation, each form with its own ("유지 안돼요" reports
    # that staying logged in fails). Whoever a clause names ("제가 확인하기 전에는 머지하면 안
    # 돼요") does not tell a story here, nor does a "we" ("저희는 고객한테 반말하면 안 됩니다"):
    # review helper-214
    return before + [
        (i - 1, (low[i - 1], *phrase))
        for i, phrase in find(low, lang.impact.get("prohibiting_after", frozenset()))
        if i > 0 and lang.matches("prohibited_forms", " ".join((low[i - 1], *phrase)))
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


def _names_a_way(lang: Language, low: tuple[str, ...], breaks: tuple[int, ...], at: int, size: int) -> bool:
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
    # a word with an apostrophe is a word ("siobhan's spelling please"), and so is a file's name
    # ("overrides.ts の方でお願いします")
    return first not in openers and first not in lang.function_words and WORDLIKE.sub("", first).isalnum()


def sequence(lang: Language, text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each `first` word that sets an order of work: a `then` word follows it in a later clause
    ("tests first, then commit", "d'abord les faits, ensuite l'orthographe", "сначала посмотри
    остаток, а потом обещай дату"), or it closes a clause that names a way (`_names_a_way`:
    "tsc first", "kommandot först!!"). Not when a clause of the order tells (`_tells`: "first
    I'll check the logs, then …" is a plan, "First it compiles, then it crashes" a bug report,
    "ran tflint locally first" a story), nor an ordinal ("the first line")."""
    low = words.low
    breaks = clause_breaks(text, words)
    bounds = [0, *breaks, len(low)]
    # an order of two clauses is read only where the language can tell a story in the past
    # (`past_forms`): "Önce build geçti, sonra testler patladı" reports; without them, only a
    # `first` closing a clause that names a way ("staging ก่อนครับ")
    found_thens = find(low, lang.impact.get("then", frozenset())) if lang.patterns.get("past_forms") else []
    thens = sorted(b for b, _ in found_thens)
    # a `then` of several words ("and only then", "e solo dopo") orders what follows it after a
    # `first` wherever that stands in its clause, and in the same clause too
    last_marked = max((b for b, p in found_thens if len(p) > 1), default=-1)

    # whether a clause tells, read once per clause: a clause of thousands of `first` words is
    # read once, not once per word
    @cache
    def tells(c: int) -> bool:
        return _tells(lang, low[bounds[c] : bounds[c + 1]])

    hits = []
    for at, phrase in sorted(find(low, lang.impact.get("first", frozenset()))):
        clause = bisect_right(breaks, at)
        if at > 0 and low[at - 1] in lang.function_words:
            continue
        # the clause of the first `then` in a later clause (found by bisection: a message of many
        # orders is read in n log n)
        k = bisect_left(thens, bounds[clause + 1])
        later = [bisect_right(breaks, thens[k])] if k < len(thens) else []
        ordered = last_marked >= at + len(phrase)
        later = later or ([clause] if ordered else [])
        if any(tells(c) for c in (clause, *later)):
            continue
        # the order opens or closes its clause: "Det virker først nu, så tak" (only now) sets none
        placed = ordered or at == body_start(lang, low, bounds[clause]) or at + len(phrase) == bounds[clause + 1]
        if (later and placed) or _names_a_way(lang, low, breaks, at, len(phrase)):
            hits.append((at, phrase))
    return hits


def as_before(lang: Language, text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each `precedent` phrase ("like last time", "comme d'hab", "jak minule") that closes a
    clause naming what is to be as before by a value (a number, a name in code) or asking for
    it (a politeness word): "et le commit en anglais stp, comme d'hab", "windows-1250 a
    stredniky, jak minule". Not in a clause that tells (`_tells`: "it broke like last time",
    "we met as usual"), nor alone ("Like last time?"), nor praise or a report ("Great work as
    usual", "Works like before")."""
    low = words.low
    breaks = clause_breaks(text, words)
    bounds = [0, *breaks, len(low)]
    hits = []
    for at, phrase in sorted(find(low, lang.impact.get("precedent", frozenset()))):
        clause = bisect_right(breaks, at)
        end = at + len(phrase)
        # the clause it closes, or the one before when it stands alone after a comma ("…, comme d'hab")
        named = low[bounds[clause] : at] or (low[bounds[clause - 1] : bounds[clause]] if clause else ())
        if end != bounds[clause + 1] or _tells(lang, named) or _tells(lang, low[bounds[clause] : end]):
            continue
        # … and names it by a value or asks for it: "windows-1250 a stredniky, jak minule",
        # "tres bullets arriba, como la otra vez", "… stp, comme d'hab"; not "Great work as
        # usual", "Funktioniert wie vorher", "Nickel, comme d'hab" (praise and reports)
        valued = any(in_code(w) or number_at(lang, named, k)[2] for k, w in enumerate(named))
        if valued or find(low, lang.impact.get("politeness", frozenset())):
            hits.append((at, phrase))
    return hits


def _tells(lang: Language, said: tuple[str, ...]) -> bool:
    """Whether a clause tells rather than asks: its subject is the person ("I", "we":
    `claim.subject_pronouns`) or a third person (`third_person`), or it has a verb in the past
    (`past_forms`)."""
    subjects = lang.claim.get("subject_pronouns", frozenset()) | lang.impact.get("third_person", frozenset())
    return any((w,) in subjects or lang.matches("past_forms", w) for w in said)


def every(lang: Language, text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each `every` word (one of a kind) that opens a clause, or follows the function word
    opening it, with more of the clause after it: a rule over all the work of a kind. The
    clause names the kind and no more ("… every commit", "em cada confirmação: 50 €") or asks (a
    politeness word, "must", an imperative: "jede Rechnung die rausgeht bitte auch in Kopie",
    "и каждый возврат отмечай в амо"). Not when it tells (`_tells`: "every morning I check the
    mail", "each build was red"), nor when it says more and asks nothing ("Every test passes",
    "jede Datei sieht gut aus")."""
    low = words.low
    breaks = clause_breaks(text, words)
    bounds = [0, *breaks, len(low)]
    hits = []
    for at, phrase in sorted(find(low, lang.impact.get("every", frozenset()))):
        clause = bisect_right(breaks, at)
        begin = body_start(lang, low, bounds[clause])
        opens = at == begin or (at == begin + 1 and low[begin] in lang.function_words)
        said = low[bounds[clause] : bounds[clause + 1]]
        after = bounds[clause + 1] - at - len(phrase)
        if not opens or after <= 0 or _tells(lang, said):
            continue
        asking = find(said, lang.impact.get("politeness", frozenset())) or any(
            "must" in lang.concepts.get(w, ()) or lang.matches("imperative_forms", w) for w in said
        )
        if after <= KIND_ONLY or asking:
            hits.append((at, phrase))
    return hits


def announced(lang: Language, text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """Each `thus` phrase ("like this", "assim", "takhle", "έτσι") that announces how a thing is
    done: it closes its clause (but for AFTER_THUS words), the clause ends in a colon or a dash,
    and STEPS clauses or more follow ("u nas to jde takhle — `make lint`, `make test`, …",
    "Για τις επιστροφές εδώ κάνουμε έτσι: πρώτα λίστα …, μετά …"). Not opening its clause ("Tak:
    testy przechodzą, …" says yes), nor in a clause that shows how a thing looks (`looks`: "the
    page looks like this: …"), is the person's own ("I get an error like this: …", "Ich sehe das
    so: …") or tells a story (a verb in the past: "it went like this: …"); a question, or a third
    person's doing ("he does it like this: …"), is left out as every "always" so said is
    (`daemon.impact.left_out.excluded`)."""
    low = words.low
    breaks = clause_breaks(text, words)
    bounds = [0, *breaks, len(low)]
    # the Arabic comma parts the steps too, though it is no clause break (`clauses.CLAUSE_BREAK`)
    commas = [i for i, c in enumerate(text) if c == "،"]
    hits = []
    # the longest phrase at a place: "sådan her", not "sådan"
    for at, phrase in sorted(find(low, lang.impact.get("thus", frozenset())), key=lambda hit: (hit[0], -len(hit[1]))):
        clause = bisect_right(breaks, at)
        end = bounds[clause + 1]
        if end == len(low) or end - at - len(phrase) > AFTER_THUS or at <= body_start(lang, low, bounds[clause]):
            continue
        if len(bounds) - 2 - clause + len(commas) - bisect_right(commas, words.spans[end][0]) < STEPS:
            continue
        if not ANNOUNCING.match(text[words.spans[end - 1][1] : words.spans[end][0]]):
            continue
        if not _a_way(lang, low[bounds[clause] : end]):
            continue
        hits.append((at, phrase))
    return hits


def _a_way(lang: Language, said: tuple[str, ...]) -> bool:
    """Whether a clause announcing what follows names a way of doing: no word of `looks`, of
    the person alone (`first_person`: "we" announce a way) or in the past (`past_forms`)."""
    if find(said, lang.impact.get("looks", frozenset())):
        return False
    mine = lang.lists.get("first_person", frozenset())
    return not any(w in mine or lang.matches("past_forms", w) for w in said)


def defined(text: str, words: Words) -> list[tuple[int, tuple[str, ...]]]:
    """The word after each " = " that defines a name in words, not a sum, a status nor code:
    "clientes = sem emojis", "new column = new schema version + changelog line"; not "30 % =
    345 EUR", "engine_version = 14", "timeout = 30", "x = y + 2", "Status = done". The name is
    the clause before the sign, at most DEFINED words; the definition, the clause after it, at
    least two; no word of either is a number, a name in code or a single letter."""
    hits: list[tuple[int, tuple[str, ...]]] = []
    starts = [a for a, _ in words.spans]
    ends = [b for _, b in words.spans]
    breaks = clause_breaks(text, words)
    bounds = [0, *breaks, len(words.low)]
    for sign in (m.start() for m in EQUALS.finditer(text)):
        last = bisect_right(ends, sign) - 1  # the word before the sign
        first = bisect_right(starts, sign)  # the word after it
        if last < 0 or first >= len(words.low) or first != last + 1:
            continue
        clause = bisect_right(breaks, last)
        if bisect_right(breaks, first) != clause:  # "A, = B": a break stands at the sign
            continue
        name, definition = words.low[bounds[clause] : first], words.low[first : bounds[clause + 1]]
        plain = all(len(w) > 1 and not in_code(w) for w in (*name, definition[0]))
        # the definition up to the next sign ("build = green, tests = green" defines nothing)
        if 0 < len(name) <= DEFINED and len(definition) >= 2 and plain:
            hits.append((first, (words.low[first],)))
    return hits


def in_code(word: str) -> bool:
    """Whether a word is a number or a name in code: it holds a digit or an underscore."""
    return "_" in word or any(c.isdigit() for c in word)
