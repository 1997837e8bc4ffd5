"""What a statement is about: its content words, as stems and as accent-folded trigrams
(pure, no I/O; shared by detection, which lets a statement with too few of them take in the
sentence before it, and recurrence, which compares them).

Content words are the words `daemon.text.words` calls content (not a function word of the
language, a number or three letters or more) that are not cue words of the language's
`impact:` lists or `claim.standing`: a one-word cue anywhere ("always" says how, not what),
every word of a recall ("one more time": people recall in more words than a list holds), and
the clause a person says it was said before in, when another clause says something
("Heroku is gone, I said that weeks ago": "weeks ago" is when it was said, not what). A word
in quotation marks is named, not used, and counts even when it is a function word
("« Tu », pas « vous »"); a name in code counts whole too ("dd/mm", "envios_v2"). A
weekday, a month, an environment and a language's name count as their meaning in every
language ("vendredi" is `@friday`, "英語" and "inglés" are `@english`, in place of the word).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from daemon.impact.clauses import CLAUSE_BREAK, Words, words_of
from daemon.text.keyboard import find, in_latin, unaccented
from daemon.text.language import MONTHS, WEEKDAYS, Language, language
from daemon.text.lexicon import calendar_at, language_at
from daemon.text.unicode_words import sentence_terminals, spaceless_class, uncased
from daemon.text.words import is_content, token, tokens

TRIGRAM_WORD = 4  # letters a word needs for its trigrams to count (shorter words are noise)
# Concepts of the meaning table that name a thing, the same in every language (the others —
# not, must, before — say how, and are cues or function words here).
# The table's "may" is the modal ("pode", "kann"): May the month is CLDR's, read by `calendar_at`.
SHARED_MEANINGS = frozenset(
    {"staging", "production", "development", "test", "qa", "sandbox", "preprod", "canary", "local"}
    | set(WEEKDAYS)
    | (set(MONTHS) - {"may"})
)
# A month as `words.token` makes it ("month5"): compared by its meaning instead.
MONTH = re.compile(r"month\d+\Z")
# A few words in quotation marks: a word named, not used ("« tu »", "'Sie'", "“per se”").
MENTION = re.compile(r"(?<!\w)[«“\"‘'„「]\s*([^«»“”\"‘’'„「」\n]{1,30}?)\s*[»”\"’'“」](?!\w)")


@cache
def _code_name() -> re.Pattern[str]:
    """A name in code, whole: parts joined by "/" or "_" ("dd/mm", "envios_v2"), which the words
    split into parts too short or too common to tell two statements apart. Its parts hold no
    letter of a script written without spaces: "5/13は水曜" names the day 5/13, then says more."""
    spaced = f"[^\\W{spaceless_class()}]"  # a word character of a spaced script, digits and "_"
    part = f"[^\\W_{spaceless_class()}]+"
    return re.compile(rf"(?<!{spaced})(?<!/){part}(?:[/_]{part})+(?!{spaced}|/)")


# A word with an elided article or preposition before it ("l'adresse", "dell'anno", "d'août").
ELIDED = re.compile(r"(?<!\w)(?<!\w['’])([^\W\d_]+)['’](?=[^\W\d_])")
# Where a sentence ends inside a statement's quote ("… mille volte. pasillo"): a clause ends too.
SENTENCE_END = re.compile(rf"[…{sentence_terminals()}]+\s|\n")


@dataclass(frozen=True)
class Content:
    stems: frozenset[str]
    trigrams: frozenset[str]


@cache
def cue_tokens(code: str) -> frozenset[str]:
    """The cue words of a language as `words.token` makes them, and as written."""
    lang = language(code)
    if lang is None:
        return frozenset()
    # a cue of one word, and every word of a recall ("i told you", "zum x-ten mal": a person
    # recalls in more words than any list holds); the words of other phrases may carry
    # content ("time" of "this time", "next time", "using" of "we stopped using"); `brief` is no
    # cue ("short" of "keep the emails short" says what), nor `vocative`, a word of address that
    # names someone as often ("Ramazan abi", "Rakesh bhai")
    listed = [p for name, phrases in lang.impact.items() if name not in ("brief", "vocative") for p in phrases]
    phrases = listed + list(lang.claim.get("standing", ()))
    recalls = [p for name in ("reminder", "again") for p in lang.impact.get(name, ())]
    plain = {p[0] for p in phrases if len(p) == 1} | {w for p in recalls for w in p}
    # … and a cue word with its article elided as `content` reads it: "d'abord" is "abord"
    plain |= {w.split()[0] for w in (unelided(p, lang).strip() for p in plain) if w}
    return frozenset(plain | {token(w, lang) for w in plain})


@cache
def _recalls(code: str) -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]], frozenset[str]]:
    """(reminders, agains, first words of both) of a language: its phrases that say it was
    said before — the saying ("i told you") and the again ("one more time")."""
    lang = language(code)
    if lang is None:
        return frozenset(), frozenset(), frozenset()
    reminders = lang.impact.get("reminder", frozenset())
    agains = lang.impact.get("again", frozenset())
    return reminders, agains, frozenset(p[0] for p in reminders | agains if p)


def _unsaid(text: str, lang: Language, cue: frozenset[str], said: Words, apart: bool = False) -> str:
    """`text` (its words `said`) with the recalls it says blanked out (see the module
    docstring): the words of each, and the clause of a saying that opens its clause ("…, I
    told you last week") when the rest holds a content word, or always if `apart` (what the
    sentence says beside saying it was said: nothing in "I said that last week."). What
    stands before a saying in its clause is what was said: "vijf zinnen max zei ik" keeps
    "vijf zinnen max". "Again" is not a clause of its own: "Emojis again, and in the title"
    keeps "Emojis"."""
    reminders, agains, first = _recalls(lang.code)
    if first.isdisjoint(said.low):
        return text
    sayings = find(said.low, reminders)
    blanks = [
        (said.spans[i][0], said.spans[i + len(p) - 1][1]) for i, p in [*sayings, *find(said.low, agains)]
    ]
    breaks = [
        0,
        *(m.end() for m in CLAUSE_BREAK.finditer(text)),
        *(m.end() for m in SENTENCE_END.finditer(text)),
        len(text),
    ]
    breaks.sort()

    def holds_content(part: str) -> bool:
        return any(is_content(t, lang) and t not in cue for t in tokens(part, lang))

    # the clause of each saying, found by bisection over the breaks: a message of thousands of
    # clauses and sayings is read in n log n, not clause by saying
    # (the first saying of a clause decides: a later one has more words before it)
    clauses: list[tuple[int, int]] = []
    read: tuple[int, int] | None = None
    for at in sorted({said.spans[i][0] for i, _ in sayings}):
        k = bisect_right(breaks, at)
        clause = (breaks[k - 1], breaks[k])
        if clause != read and not holds_content(text[clause[0] : at]):
            clauses.append(clause)
        read = clause
    rest = _blank(text, clauses)
    if clauses and (apart or holds_content(rest)):
        return _blank(rest, blanks)
    return _blank(text, blanks)


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


def meanings(said: Sequence[str], lang: Language) -> frozenset[str]:
    """What the words `said` mean in every language, as `@<meaning>`: a weekday or a month
    (CLDR's names, in any inflection: "vendredi", "freitags" are `@friday`) and the
    environments of the meaning table ("préprod" is `@preprod`). "Le déploiement, c'est le
    vendredi" and "we deploy on Fridays" share `@friday`. A word in lower case the table reads
    as how ("you may", Italian "mai": never) names no month."""
    found: set[str] = set()
    for word in said:
        folded = word.casefold()
        concepts = lang.concepts.get(folded, ())
        found.update(f"@{c}" for c in concepts if c in SHARED_MEANINGS)
        if word.islower() and any(c not in SHARED_MEANINGS for c in concepts):
            continue
        named = calendar_at(lang, word, folded)
        if named is not None:
            found.add(f"@{named}")
    return frozenset(found)


def _languages_named(said: Sequence[str], stems: frozenset[str], lang: Language) -> frozenset[str]:
    """`stems` with each language named in `said` as its meaning alone: "英語" and "English" are
    one word, no heavier than it ("Commits auf Englisch" and "commits in English pls"). A name
    in a script without spaces may be cut in two ("スペイン" "語"): read joined too. A capital
    opening the sentence is no capital of a name ("Polish the changelog")."""
    code = lang.code
    for i, word in enumerate(said):
        parts = [word]
        spoken = language_at(lang, word if i else word.casefold())
        if spoken is None and i + 1 < len(said) and uncased(word) and uncased(said[i + 1]):
            parts = [word, said[i + 1]]
            spoken = language_at(lang, word + said[i + 1])
        if spoken is not None:
            stems = (stems - {in_latin(t, code) for part in parts for t in tokens(part, lang)}) | {f"@{spoken}"}
    return stems


def unelided(text: str, lang: Language) -> str:
    """`text` with the elided articles and prepositions of `lang` (`elisions`) blanked out, the
    same length: "l'adresse" is "adresse" ("  adresse"), as "adresse" alone is. Not in every
    word of the text layer: "D'Angelo" stays a surname where a name is erased or looked for."""
    elisions = lang.words("elisions")
    if not elisions or ("'" not in text and "’" not in text):
        return text
    return ELIDED.sub(lambda m: " " * (m.end() - m.start()) if m.group(1).casefold() in elisions else m.group(), text)


def fold(word: str, code: str = "") -> str:
    """`word` casefolded, in Latin letters (`keyboard.in_latin`, as the language `code` writes
    them) typed without accents (ó is o, ł is l: `keyboard.unaccented`)."""
    return unaccented(in_latin(word.casefold(), code))


def content(text: str, lang: Language | None, apart: bool = False) -> Content:
    """The content words of `text` read as `lang` (see the module docstring); `apart`: without
    the clause it says it was said in (`_unsaid`)."""
    cue = cue_tokens(lang.code) if lang is not None else frozenset()
    code = lang.code if lang is not None else ""
    # a word in quotation marks is named, not used: "« Tu », pas « vous »" is about those words
    mentioned = frozenset(t for m in MENTION.finditer(text) for t in tokens(m.group(1), lang))
    found = words_of(text)
    if lang is not None:
        unsaid = _unsaid(text, lang, cue, found, apart)  # read as said: "je te l'ai dit" is a recall
        # … then a word with an elided article as the word alone ("l'adresse" is "adresse")
        unsaid = unelided(unsaid, lang)
        found = found if unsaid is text else words_of(unsaid)
        text = unsaid
    # a month is compared by its meaning (`meanings`: "@may"), which knows "you may" names none
    stems = frozenset(
        in_latin(t, code) for t in tokens(text, lang) if is_content(t, lang) and t not in cue and not MONTH.match(t)
    )
    stems |= {in_latin(t, code) for t in mentioned}
    stems |= {m.group().casefold() for m in _code_name().finditer(text)}
    said = [text[a:b] for a, b in found.spans]
    if lang is not None:
        # a cue word says how, whatever else it may name: "mai" (never) of "il centrale mai"
        # read as French and Italian is no month
        stems |= meanings([w for w in said if w.casefold() not in cue], lang)
        stems = _languages_named(said, stems, lang)
    function = lang.function_words if lang is not None else frozenset()
    plain = found.low  # `said` casefolded as the lists are (`clauses.folded`)
    kept = [
        fold(w, code)
        for w in plain
        if w not in cue and w not in function and (len(w) >= TRIGRAM_WORD or w.isdigit())
    ]
    grams = frozenset(g for w in kept for g in _trigrams(w))
    return Content(stems, grams)


@lru_cache(maxsize=8192)
def stems_of(text: str, code: str) -> frozenset[str]:
    """The content stems of `text` read in the language `code`; kept for the texts asked about
    most (a statement is compared with every fact, skill and proposal citing its turn)."""
    return content(text, language(code)).stems


def about(said: str, quote: str, code: str) -> bool:
    """Whether `quote` — what a fact or a proposal cites from a turn — is about the sentence
    `said` of that turn (in the language `code`): one holds the other, or they share a content
    word. A citation of another sentence of the same message is not."""
    mine, theirs = said.casefold(), quote.casefold()
    return bool(theirs) and (theirs in mine or mine in theirs or bool(stems_of(said, code) & stems_of(quote, code)))


def _trigrams(word: str) -> list[str]:
    padded = f"^{word}$"
    return [padded[i : i + 3] for i in range(len(padded) - 2)]
