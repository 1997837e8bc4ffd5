"""What a text says: its meaning-carrying tokens, and whether a merge kept them (pure, no I/O).

The one notion shared by every check that lets a model merge text: the workspace loss
check (declared merges), the library's step-union check (canonical steps) and the check
of a model's three-way conflict resolution. A text is read in its language
(`daemon.text.language.detect`), word by word through the text layer (ICU segmentation,
CLDR number words and calendar names, Snowball stems), and each word means what that
language's data file says (`daemon/text/languages/<code>.yaml`). Rewording, reordering,
case, punctuation, whitespace and inflection change no token; these do:

| category | what | compared as |
| --- | --- | --- |
| number | digits, number words of the language in every case form CLDR has (three, трёх, pięciu, fünfundvierzig, quatre-vingt-dix, 五), round hundreds going on (one hundred and five), ordinals, percentages, a unit after a number | `three` = `3`, `20 percent` = `20%`, `first` = `1st`, `47 minutes` = `47 minute`, `twice` = `2x` |
| negation | the language's negations (`negation`, `never`, `forbid` …), a negation inside a word (`negation_affixes`: n't, Turkish -mıyor, Korean 않-, Japanese -ない), concord words (ни, pas, jamais, nunca: `negation_concord`) | `not`, counted per occurrence; a concord word only where its clause has no other negation, and then as `not (concord)`, so it never stands in for a dropped `not`; none with a capital inside a sentence (NI, Mai: a name, or May) |
| polarity | obligation and permission (must/always, should, may: müssen, doit, debe, musi, måste … ; können, peut, puede …; Korean -아야/-아도 by `affixes`), usually, sometimes, rarely, only, except/unless, prefer, allow, enable, more/less (over/under only next to a number), before/after, increase/decrease, public/private | one value per group; a clause with none of must … rarely says `always` |
| condition | if, when, unless in every language with a file (wenn, si, se, jeśli, если, om, als …): "Rotate the keys when a laptop is lost." → "Rotate the keys." drops it | `if` (unless is `if` and `except`) |
| name | capitalised words of a script with case (Jonas, Jürgen, Ольга), words mixing letters and digits; a sentence's first word is a name only if it is none of the language's openers and function words — and a capitalised first word the merge adds is judged as a content word | kept if a form of it (`stems.same_word`: Krakowie, Krakowa) appears anywhere on the other side |
| email, url, path, code, host, channel | addresses, links, file paths, `code spans`, host names, `#channels`, `@handles` | verbatim (addresses, hosts, channels casefolded) |
| flag | command-line options outside code spans: `--force`, `--dry-run`, `--level=3`, `-rf` (at the start or after a space; a list marker `- ` or a dash in a word is not one) | verbatim |
| date, environment | ISO dates, weekdays and months from CLDR in any inflection Snowball folds (понедельникам, środę, segunda-feira), today/tomorrow/yesterday, daily, every week; staging, production/prod, dev, test … | one value each |
| strike-through | each struck-through span (withdrawn, done): `~~…~~`, `~…~`, `<del>`, `<s>`, `<strike>`; and text that is not struck | a span by its words' stems, function words left out; `not struck` once |

A swapped antonym is caught because the new word is itself a token ("always" → "never"
adds a negation, "prefers" → "hates" adds one). "Always"/"must" are what an unqualified
instruction already says, so dropping them alone changes nothing; "usually" cannot be
dropped. A merge may not add a secret-looking token (`daemon.kernel.secret_shapes`) either,
nor content words no source has (plain words, not function words, compared by `lemma`) beyond
one more than the source words it leaves out: rewording swaps words, inventing adds them;
and it may leave out at most one content word more than the new ones it brings ("the
monthly sales report" → "the report" forgets what the note said).
Words of a script without case (Hindi, Arabic, Hebrew, Korean, Chinese, Japanese, Thai)
are never names: nothing marks a name, or any word that matters, there. So a merge must keep
every such word of its sources (in any order; a particle or a leading "and" the language
lists aside; a word of a script without spaces wherever the merged text holds it), like a
name — rewording such a text is refused, the safe side. A text in no language with a data
file gets the strict rule: every word is kept like that, and none may be added.
A token bag cannot see which value belongs to which subject or which side of "over" a word
is on: two outages' dates swapped between them, or "bullet points over prose" turned
round, read the same.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from daemon.kernel.secret_shapes import secret_tokens
from daemon.text import strike
from daemon.text.language import Language, detect
from daemon.text.lexicon import CONCORD as CONCORD_PAIR
from daemon.text.lexicon import NOT as NOT_PAIR
from daemon.text.lexicon import calendar_at, calendar_phrase_at, concept_tokens, lemma, number_at, phrase_at
from daemon.text.unicode_words import segment, uncased
from daemon.text.verbatim import UNITS, Token, counted, ordinal
from daemon.text.verbatim import masked as masked_spans

NOT = Token(*NOT_PAIR)
CONCORD = Token(*CONCORD_PAIR)  # a negation unless its clause has another (`_concord`)
# A negation said by concord words alone ("Nunca bebe café"): another token than `not`, so a
# merge that drops a plain "not" and keeps a concord word (or the reverse) changes a token.
CONCORD_NOT = Token("negation", "not (concord)")
ALWAYS = Token("polarity", "always")
SCALE = frozenset({"always", "should", "may", "usually", "sometimes", "rarely"})

CLAUSE = re.compile(r"[.!?;:](?=\s|$)|\n")
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"'})
# How many more content words than it leaves out a merged text may add (`_invented`).
INVENTED_ALLOWANCE = 1


@dataclass(frozen=True)
class Meaning:
    """The tokens of one text (each present once, except negations, counted), its words, its
    content words (casefolded words that are no token, name or function word), its secrets,
    and the content words that must all be kept (`kept`)."""

    tokens: frozenset[Token]
    negations: int
    words: frozenset[str]
    secrets: frozenset[str]
    content: frozenset[str]
    # Content words a merge must keep, in runs of adjacent ones (李娜, or one word): those of
    # a script without case, and every content word of a text in no known language.
    kept: tuple[tuple[str, ...], ...] = ()
    # Negations said by concord words alone (`CONCORD_NOT`), counted like `negations`
    concord_negations: int = 0
    language: Language | None = None
    text: str = ""  # the text read (NFKC), where a word of a script without spaces is looked for
    # Names only ever seen opening a sentence: their capital may be the sentence's, not a name's
    initial_names: frozenset[str] = frozenset()

    def count(self, token: Token) -> int:
        if token == NOT:
            return self.negations
        return self.concord_negations if token == CONCORD_NOT else int(token in self.tokens)

    def lemma(self, word: str) -> str:
        return lemma(word, self.language)


NEAR_NUMBER = frozenset({"more_with_number", "less_with_number"})


def _number_next(words: list[str], i: int) -> bool:
    """Whether a number follows word `i`: "over 20%", "under two hours" (`§` is a masked number)."""
    return i + 1 < len(words) and words[i + 1] == "§"


def _capitalised(word: str) -> bool:
    """Whether `word` is written as a name: a capital in it (Jonas, Jürgen, Ольга, iOS). A
    script without case (李娜, राशिद, راشد) cannot tell a name from another word, so its words
    are content words the merge must keep (`Meaning.kept`)."""
    return any(c.isupper() for c in word)


def _concord(found: list[Token], start: int) -> None:
    """The `concord` words of a clause (ни, pas, nunca …) made `CONCORD_NOT` negations, one
    each, if the clause has no other negation, else dropped: there they repeat the negation
    of its ne, не, no or nie."""
    concord = found[start:].count(CONCORD)
    found[start:] = [t for t in found[start:] if t != CONCORD]
    if NOT not in found[start:]:
        found += [CONCORD_NOT] * concord


def _as_name(word: str, initial: bool) -> bool:
    """Whether a listed word is written as a name or an acronym here: with a capital inside a
    sentence (NI, PAs, Mai), where it negates nothing. A long word in capitals is shouted
    (NUNCA): still the word."""
    return not initial and word[0].isupper() and not (word.isupper() and len(word) > 3)


def _segments(clause: str) -> list[tuple[str, int, int]]:
    """(word, start, end) of a clause; a masked span (`§`) stands as a word of its own."""
    found: list[tuple[str, int, int]] = []
    at = 0
    for piece in clause.split("§"):
        found += [(w.text, at + w.start, at + w.end) for w in segment(piece)]
        at += len(piece) + 1
        found.append(("§", at - 1, at))
    return sorted(found[:-1], key=lambda w: w[1])


def _word_tokens(lang: Language, word: str, folded: str, initial: bool) -> list[Token] | None:
    """The tokens one word stands for in `lang` (concepts, an elided negation, a negation
    inside the word, a weekday or month), or None if it stands for none."""
    head, apostrophe, tail = folded.partition("'")
    if apostrophe and tail and head in lang.words("elisions"):
        # French and Italian elide an article, a pronoun or "ne": d'août is août, n'aime a negation
        elided = [Token(*p) for p in concept_tokens(lang.concepts.get(head, ()))]
        rest = _word_tokens(lang, tail, tail, initial)
        return [*elided, *(rest or [])] if elided or rest else None
    concepts = lang.concepts.get(folded, ())
    if not concepts and uncased(folded):
        # a Korean particle, an Arabic or Hebrew "and" glued on: 오늘은 is 오늘, ולא is לא
        concepts = lang.concepts.get(lemma(folded, lang), ())
    month = calendar_at(lang, word, folded)
    if concepts and month and word[0].isupper() and not initial:
        concepts = ()  # "in May" (a month) beside "may" (a verb): the capital decides
    if concepts:
        tokens = [Token(*p) for p in concept_tokens(concepts)]
        if CONCORD in tokens and _as_name(word, initial):
            tokens = [t for t in tokens if t != CONCORD]
        return tokens or None
    if month:
        return [Token("date", month)]
    for pattern in lang.patterns.get("negation_affixes", ()):
        if pattern.search(folded):
            stripped = pattern.sub("", folded)
            return [NOT, *(Token(*p) for p in concept_tokens(lang.concepts.get(stripped, ())))]
    by_affix = lang.concepts_by_affix(folded)
    return [Token(*p) for p in concept_tokens(by_affix)] if by_affix else None


def _clause(
    clause: str,
    lang: Language | None,
    found: list[Token],
    content: list[str],
    runs: list[list[str]],
    initial_names: set[str],
    inner_names: set[str],
) -> None:
    """Tokens of one clause's words (verbatim spans already masked as `§`), added to `found`,
    and its content words, added to `content` (those a merge must keep also to `runs`, an
    ideograph word joined to the one before it); adds `always` if unqualified."""
    segments = _segments(clause)
    raw = [w for w, _s, _e in segments]
    low = [w.casefold().removesuffix("'s") for w in raw]
    start = len(found)
    joined = -1  # where the last must-keep content word ended
    i = 0
    while i < len(raw):
        word, folded = raw[i], low[i]
        if word == "§":
            i += 1
            continue
        initial = not clause[: segments[i][1]].strip(" \t*_\"'([>#+-")
        if lang is not None:
            concepts, used = phrase_at(lang, low, i)
            if not used and folded in lang.concepts and set(lang.concepts[folded]) & NEAR_NUMBER:
                concepts, used = lang.concepts[folded], 1
            if used:
                # "over"/"under"/"up to" compare only next to a number: "over 20%", not "hand over"
                near = _number_next(low, i + used - 1) or bool(number_at(lang, low, i + used)[2])
                kept = [c for c in concepts if c not in NEAR_NUMBER or near]
                if kept or not set(concepts) <= NEAR_NUMBER:
                    found.extend(Token(*p) for p in concept_tokens(kept))
                    i += used
                    continue
            weekday, used = calendar_phrase_at(lang, low, i)
            if used:
                found.append(Token("date", str(weekday)))
                i += used
                continue
            value, is_ordinal, used = number_at(lang, low, i)
            if used:
                following = low[i + used] if i + used < len(low) else ""
                percent, per_used = phrase_at(lang, low, i + used)
                if not is_ordinal and ("percent" in lang.concepts.get(following, ()) or "percent" in percent):
                    found.append(Token("number", f"{value}%"))
                    used += per_used or 1
                elif not is_ordinal and following in UNITS:
                    found.append(counted(str(value), following))
                    used += 1
                else:
                    found.append(Token("number", ordinal(value) if is_ordinal else str(value)))
                i += used
                continue
            tokens = _word_tokens(lang, word, folded, initial)
            if tokens is not None:
                found.extend(tokens)
                i += 1
                continue
            function = lang.function_words
            opener = initial and (folded in lang.words("openers") or folded in function)
        else:
            function, opener = frozenset(), False
        if any(c.isdigit() for c in word) or (len(folded) > 1 and _capitalised(word) and not opener):
            found.append(Token("name", folded))
            (initial_names if initial and not any(c.isdigit() for c in word) else inner_names).add(folded)
        elif folded not in function and (len(folded) > 1 or uncased(folded)):
            content.append(folded)
            if lang is None or uncased(folded):
                if joined == segments[i][1] and segments[i][1] > 0 and uncased(folded):
                    runs[-1].append(folded)
                else:
                    runs.append([folded])
                joined = segments[i][2]
        i += 1
    _concord(found, start)
    qualified = any(t.category == "polarity" and t.value in SCALE for t in found[start:])
    if (raw or "§" in clause) and not qualified:
        found.append(ALWAYS)


DETECT: Literal["detect"] = "detect"  # read a text in the language `daemon.text.language.detect` finds


def read(text: str, language: Language | Literal["detect"] | None = DETECT) -> Meaning:
    """The meaning-carrying tokens, the casefolded words and the secret-looking tokens of
    `text`, read as `lang` (by default the language it is written in); in no known language
    (`None`), every content word must be kept."""
    text = unicodedata.normalize("NFKC", text).translate(QUOTES)
    lang = detect([text]) if isinstance(language, str) else language
    found = strike.tokens(text, lang)
    secrets = secret_tokens(text)
    if lang is not None:
        # Unspaced text writes some negations across word breaks (飲まない, ไม่): found first.
        for pattern in lang.patterns.get("negation_patterns", ()):
            found += [NOT] * len(pattern.findall(text))
            text = pattern.sub(" ", text)
    unmarked = strike.STRIKE.sub(lambda m: f" {strike.inside(m)} ", text.replace("**", "")).replace("~~", "")
    masked = masked_spans(strike.LIST_MARKER.sub("", unmarked), found)
    content: list[str] = []
    runs: list[list[str]] = []
    initial_names: set[str] = set()
    inner_names: set[str] = set()
    for clause in CLAUSE.split(masked):
        _clause(clause, lang, found, content, runs, initial_names, inner_names)
    # Content words too: a word a number is glued to (사용자20) is the word without it.
    words = frozenset(w.text.casefold().removesuffix("'s") for w in segment(text)) | frozenset(content)
    return Meaning(
        frozenset(found),
        found.count(NOT),
        words,
        secrets,
        frozenset(content),
        tuple(map(tuple, runs)),
        found.count(CONCORD_NOT),
        lang,
        text,
        frozenset(initial_names - inner_names),
    )
