"""What a text says: its meaning-carrying tokens, and whether a merge kept them (pure, no I/O).

The one notion shared by every check that lets a model merge text: the workspace loss
check (declared merges), the library's step-union check (canonical steps) and the check
of a model's three-way conflict resolution. Rewording, reordering, case, punctuation,
whitespace and plurals of ordinary words change no token; these do:

| category | what | compared as |
| --- | --- | --- |
| number | digits, number words (also two … nineteen, the tens, hundred, thousand, million in the European languages below: три, трёх, drei, pięciu, сорок; not the ones that are also "a": ein, un, una; a foreign one with a capital is a name: Otto), compounds added up (forty-five, сорок пять, cuarenta y cinco, soixante-dix, quatre-vingts, fünfundvierzig), ordinals, percentages, a unit after a number | `three` = `3`, `20 percent` = `20%`, `first` = `1st`, `47 minutes` = `47 minute`, `twice` = `2x`, `quatre-vingt-dix` = `90` |
| negation | not, no, never, none, nothing, without, cannot, n't, avoid, hate, forbid, stop, quit, cease, refuse, decline …; не, нет, никогда, ні, nicht, kein, ne/n', pas, jamais, no, nunca, non, mai, não, nie, nigdy, niet, geen, δεν, ποτέ …; नहीं, 不, 没, لا, ليس, לא, אל, אין, 안, 못; inside a word or unspaced text: 않습니다, 없다, 飲まない, しません, ไม่ … | `not`, counted per occurrence; a word repeating the negation of its clause (ни, pas, jamais, nunca, ani: negative concord) only where the clause has no other, and then as `not (concord)`, so it never stands in for a dropped `not`; none with a capital inside a sentence (NI, PAs, Mai: a name, or May) |
| polarity | must/always, should, may, usually, sometimes, rarely, only, except/unless, prefer/like, allow, more/less (over/under a number; больше, mehr, menos …), before/after (перед/после, avant/après, antes/después …), increase/decrease, enable, public/private | one value per group; a clause with none of must … rarely says `always` |
| name | capitalised words of a script with case (not a sentence-initial common word: Jonas, Jürgen, Ольга), words mixing letters and digits | kept if the word appears anywhere on the other side, in any case |
| email, url, path, code, host, channel | addresses, links, file paths, `code spans`, host names, `#channels`, `@handles` | verbatim (addresses, hosts, channels casefolded) |
| flag | command-line options outside code spans: `--force`, `--dry-run`, `--level=3`, `-rf` (at the start or after a space; a list marker `- ` or a dash in a word is not one) | verbatim |
| date, environment | ISO dates, weekdays, months (also in the European languages below, inflected: понедельника, środę, segunda-feira, d'août), today/tomorrow/yesterday, daily, every week; staging, production/prod, dev, test … | one value each (`every week` = `weekly`, `понедельникам` = `Monday`) |
| strike-through | each struck-through span (withdrawn, done): `~~…~~`, `~…~`, `<del>`, `<s>`, `<strike>`; and text that is not struck | a span by its words (`send invoice reminder`, function words left out, plurals folded); `not struck` once |

The words of Russian, Ukrainian, German, French, Spanish, Italian, Portuguese, Polish, Dutch
and Greek are listed in `daemon.text.meaning_words_european` (with the ones left out, and why).
A swapped antonym is caught because the new word is itself a token ("always" → "never"
adds a negation, "prefers" → "hates" adds one). "Always"/"must" are what an unqualified
instruction already says, so dropping them alone changes nothing; "usually" cannot be
dropped. A merge may not add a secret-looking token (`daemon.kernel.secret_shapes`) either,
nor content words no source has (plain words, not function words, compared by `lemma`) beyond
one more than the source words it leaves out: rewording swaps words, inventing adds them.
Words of a script without case (Hindi, Arabic, Hebrew, Korean, Chinese, Japanese, Thai)
are never names: nothing marks a name, or any word that matters, there. So a merge must keep
every such word of its sources (in any order; a Korean particle or a leading Arabic/Hebrew
"and" aside), like a name — rewording such a text is refused, the safe side — and may add
them under the rule on invented words ("X likes tea" + "X likes coffee" → "X likes tea and
coffee"). Chinese, Japanese and Thai have no spaces, so each ideograph, kana or Thai letter
counts as a word (a clause is not one word), and "and"/"also" of a few languages (और, 和,
と, และ, und …) are free to add or leave out.
A token bag cannot see which value belongs to which subject or which side of "over" a word
is on: two outages' dates swapped between them, or "bullet points over prose" turned
round, read the same.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from daemon.kernel.secret_shapes import secret_tokens
from daemon.text.meaning_words import (
    COMMON,
    FOREIGN_NUMBERS,
    LIKE_SUBJECTS,
    NEGATION_PREFIXES,
    ORDINALS,
    PERIODS,
    SHORT_DATES,
    SMALL,
    SPACELESS_CONNECTIVES,
    SPACELESS_NEGATION,
    STOPWORDS,
    TENS,
    UNITS,
    lexicon,
    number_words,
    ordinal,
    uncased,
)
from daemon.text.meaning_words_european import ELISIONS, WEEKDAY_PAIRS
from daemon.text.words import token as normalised


@dataclass(frozen=True, order=True)
class Token:
    category: str
    value: str

    def __str__(self) -> str:
        return f"{self.category} “{self.value}”"


NOT = Token("negation", "not")
CONCORD = Token("negation", "concord")  # a negation unless its clause has another (`_concord`)
# A negation said by concord words alone ("Nunca bebe café"): another token than `not`, so a
# merge that drops a plain "not" and keeps a concord word (or the reverse) changes a token.
CONCORD_NOT = Token("negation", "not (concord)")
UNSTRUCK = Token("strike-through", "not struck")
ALWAYS = Token("polarity", "always")
SCALE = frozenset({"always", "should", "may", "usually", "sometimes", "rarely"})
LEXICON = {form: tuple(Token(*pair) for pair in pairs) for form, pairs in lexicon().items()}

CODE = re.compile(r"(`+)(?:.+?)\1")
LINK = re.compile(r"!?\[([^\]\n]*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
URL = re.compile(r"\b(?:https?://|www\.)[^\s<>()`\"']+")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def character_class(categories: tuple[str, ...], end: int = 0x10000) -> str:
    """A character-class body of the characters from U+0080 up to `end` (the basic plane by
    default) whose Unicode category starts with one of `categories`."""
    chars = [c for c in map(chr, range(0x80, end)) if unicodedata.category(c).startswith(categories)]
    ranges: list[list[str]] = []
    for c in chars:
        if ranges and ord(c) == ord(ranges[-1][1]) + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(a if a == b else f"{a}-{b}" for a, b in ranges)


# Combining marks (M): part of a word, though not `\w` (Devanagari vowel signs, Arabic vowels,
# a diacritic NFKC cannot compose). Letters without case (Lo, Lm: Han, kana, Hangul, Devanagari,
# Arabic, Hebrew, Thai …, plus the rarer ideographs beyond the basic plane).
MARKS = character_class(("M",))
UNCASED = character_class(("Lo", "Lm")) + "\U00020000-\U0003134f"

FILE_EXT = r"md|py|json|jsonl|ya?ml|csv|tsv|txt|sh|toml|ini|cfg|conf|log|js|ts|html|css|sql|env|lock|xml|pdf|png|jpe?g|xlsx?|docx?"
PATH = re.compile(
    r"(?<![\w@#])(?:~/|\.{1,2}/|/)?[\w.-]+(?:/[\w.-]+)+/?"
    rf"|(?<![\w@#/.-])[\w-]+(?:\.[\w-]+)*\.(?:{FILE_EXT})\b"
)
# `--name[=value]` or a cluster of letters after one dash, standing alone: not "- item", "re-run", "-5".
FLAG = re.compile(r"(?<![^\s(\[])(?:--[A-Za-z0-9][\w-]*(?:=[\w./:@-]*[\w/])?|-[A-Za-z]+)(?=[\s.,;:!?)\]]|$)")
CHANNEL = re.compile(r"(?<![\w/])[#@][^\W_][\w-]*(?:\.[\w-]+)*")
IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b")
HOST = re.compile(r"(?<![\w@.-])(?:[A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}(?::\d+)?(?![\w-])")
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")
VERSION = re.compile(r"\bv\d+(?:\.\d+)+\b")
# A number stands alone, not inside a word (v2, abc123, 2fa); a letter without case next to
# it does not make it part of a word (延迟超过20%时报警: Chinese has no spaces).
NUMBER = re.compile(
    rf"(?<![.,:/])(?<![^\W{UNCASED}])(?P<cur>[$€£])?(?P<n>\d+(?:[.,:-]\d+)*)(?P<ord>st|nd|rd|th)?"
    r"(?:\s?(?P<pct>%|percent\b|per cent\b)"
    rf"|[\s-]?(?P<unit>{'|'.join(sorted(UNITS, key=len, reverse=True))})\b)?(?![^\W{UNCASED}]|%)",
    re.IGNORECASE,
)


# Chinese, Japanese, Thai and Lao are written without spaces, so a run of their letters is a
# whole clause: each ideograph, kana or Thai/Lao letter (with its marks) is a word instead.
IDEOGRAPHS = "\u0e00-\u0eff\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
IDEOGRAPH = re.compile(rf"[{IDEOGRAPHS}]")
# What unspaced text says in several letters, found before it is split into letters.
SPACELESS_NOT = re.compile(SPACELESS_NEGATION)
SPACELESS_AND = re.compile("|".join(SPACELESS_CONNECTIVES))
KOREAN_NOT = re.compile(rf"(?:{'|'.join(NEGATION_PREFIXES)})")
# Words of any script: a letter, then letters, digits and combining marks; or digits then a
# letter of a script with case (`2fa`, `3rd`; 20분 is a number and a word); or one ideograph.
# Letters are `[^\W\d_]`, so Jürgen, Ольга, राहुल and 사용자는 are words too.
LETTERS = rf"(?![{IDEOGRAPHS}])[^\W\d_](?:(?![{IDEOGRAPHS}])[^\W_]|[{MARKS}])*"
WORD = re.compile(rf"[{IDEOGRAPHS}][{MARKS}]*|{LETTERS}(?:'{LETTERS})*|\d+(?![{UNCASED}]){LETTERS}")
SPAN_WORD = re.compile(rf"{WORD.pattern}|\d+")
# Struck through: `~~…~~`, a single `~…~` (GitHub strikes it too; not "~5 minutes" or
# "~/path": non-space inside both ends, no word character outside), `<del>`, `<s>`, `<strike>`.
STRIKE = re.compile(
    r"~~(?=\S)(?P<a>.+?)(?<=\S)~~"
    r"|(?<![~\w])~(?=[^\s~])(?P<b>.+?)(?<=[^\s~])~(?![~\w])"
    r"|<(?P<tag>del|s|strike)>(?P<c>.+?)</(?P=tag)>",
    re.IGNORECASE,
)
CONTENT = re.compile(r"[^\W_]|§")
CLAUSE = re.compile(r"[.!?;:](?=\s|$)|\n")
LIST_MARKER = re.compile(r"(?m)^\s*(?:[-*+>]|#{1,6}|\d{1,9}[.)])\s+")
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"'})
MASK = " § "
# How many more content words than it leaves out a merged text may add (`_invented`).
INVENTED_ALLOWANCE = 1


@dataclass(frozen=True)
class Meaning:
    """The tokens of one text (each present once, except negations, counted), its words, its
    content words (casefolded words that are no token, name or function word), its secrets,
    and which of its content words are of a script without case."""

    tokens: frozenset[Token]
    negations: int
    words: frozenset[str]
    secrets: frozenset[str]
    content: frozenset[str]
    # The content words of scripts without case, in runs of adjacent ones (李娜, or one word)
    uncased: tuple[tuple[str, ...], ...] = ()
    # Negations said by concord words alone (`CONCORD_NOT`), counted like `negations`
    concord_negations: int = 0

    def count(self, token: Token) -> int:
        if token == NOT:
            return self.negations
        return self.concord_negations if token == CONCORD_NOT else int(token in self.tokens)


def _counted(n: str, unit: str) -> Token:
    """A number with its unit: `47 minute`, `9 pm`, `3x` (times)."""
    unit = UNITS[unit.casefold()]
    return Token("number", f"{n}{unit}" if unit == "x" else f"{n} {unit}")


def _number(match: re.Match[str]) -> Token:
    n = match["n"].replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+", match["n"]) else match["n"]
    if n.isdigit():
        n = str(int(n))
    if match["ord"]:
        return Token("number", ordinal(int(n)) if n.isdigit() else n)
    value = (match["cur"] or "") + n + ("%" if match["pct"] else "")
    return _counted(value, match["unit"]) if match["unit"] else Token("number", value)


def _masked(text: str, found: list[Token]) -> str:
    """`text` with every verbatim span (code, link, URL, address, path, date, number …) replaced."""

    def take(category: str, value: str, keep: str = MASK) -> str:
        found.append(Token(category, value))
        return keep

    text = CODE.sub(lambda m: take("code", m[0]), text)
    text = LINK.sub(lambda m: take("url", m[2], f" {m[1]} "), text)
    text = URL.sub(lambda m: take("url", m[0].rstrip(".,;:!?")), text)
    text = EMAIL.sub(lambda m: take("email", m[0].casefold()), text)
    text = FLAG.sub(lambda m: take("flag", m[0]), text)
    text = DATE.sub(lambda m: take("date", m[0]), text)
    text = IP.sub(lambda m: take("host", m[0]), text)
    text = PATH.sub(lambda m: take("path", m[0].rstrip(".")), text)
    text = CHANNEL.sub(lambda m: take("channel", m[0].casefold()), text)
    text = HOST.sub(lambda m: take("host", m[0].casefold()), text)
    text = VERSION.sub(lambda m: take("name", m[0].casefold()), text)
    return NUMBER.sub(lambda m: take(_number(m).category, _number(m).value), text)


def _number_next(clause: str, word: re.Match[str]) -> bool:
    """Whether a number follows `word`: "over 20%", "under two hours", "within an hour"."""
    rest = clause[word.end() :].lstrip()
    following = [*rest.split(maxsplit=2)[:2], "", ""]
    first, second = following[0].casefold(), following[1].casefold()
    return (
        rest.startswith("§") or first in SMALL or first in TENS or (first in ("a", "an") and second in UNITS)
    )


def _capitalised(word: str) -> bool:
    """Whether `word` is written as a name: a capital in it (Jonas, Jürgen, Ольга, iOS). A
    script without case (李娜, राशिद, راشد) cannot tell a name from another word, so its words
    are plain content words: held to the invention rule, not the name rule, which would
    refuse every merge adding "and" (और, 和, و) or rewording a CJK clause."""
    return any(c.isupper() for c in word)


def _named_number(word: str) -> bool:
    """Whether a number word of another language is a name here: capitalised, wherever it
    stands (Otto, Dix, the English "Sept"), since a name opens sentences too ("Otto approves
    refunds" and "… approved by Otto" say the same). An English number word (Six) stays a
    number; a foreign one opening a sentence (Drei Ingenieure …) is read as a name, so a
    merge writing it as a digit is refused: the safe side."""
    folded = word.casefold()
    return folded in FOREIGN_NUMBERS and word[0].isupper() and folded not in SMALL and folded not in TENS


def _concord(found: list[Token], start: int) -> None:
    """The `concord` words of a clause (ни, pas, nunca …: `meaning_words_european`) made
    `CONCORD_NOT` negations, one each, if the clause has no other negation, else dropped:
    there they repeat the negation of its ne, не, no or nie."""
    concord = found[start:].count(CONCORD)
    found[start:] = [t for t in found[start:] if t != CONCORD]
    if NOT not in found[start:]:
        found += [CONCORD_NOT] * concord


def _concord_as_name(word: str, initial: bool) -> bool:
    """Whether a concord word is written as a name or an acronym here: with a capital inside a
    sentence (NI, PAs, Mai, Nada), where it negates nothing. A long word in capitals is
    shouted (NUNCA): still a negation."""
    return not initial and word[0].isupper() and not (word.isupper() and len(word) > 3)


def _clause(clause: str, found: list[Token], content: list[str], runs: list[list[str]]) -> None:
    """Tokens of one clause's words (verbatim spans already masked), added to `found`, and its
    content words, added to `content` (those of a script without case also to `runs`, a
    word of Chinese or Japanese joined to the one before it); adds `always` if unqualified."""
    matches = list(WORD.finditer(clause))
    joined = -1  # where the last uncased content word ended
    raw = [m[0] for m in matches]
    low = [w.casefold() for w in raw]
    start = len(found)
    i = 0
    while i < len(raw):
        word, folded = raw[i], low[i]
        base = folded.removesuffix("'s")
        after = low[i + 1] if i + 1 < len(low) else ""
        before = clause[: matches[i].start()].rstrip()
        initial = not before.strip(" \t*_\"'([>#+-")
        # French and Italian elide an article or a preposition: d'août is août, n'aime a negation.
        head, apostrophe, tail = base.partition("'")
        if apostrophe and tail and head in ELISIONS:
            base = tail
            if head == "n" and tail != "importe":  # n'importe quoi: "anything"
                found.append(NOT)
        value, used = number_words(low, i)
        if used and not (folded == "one" and i and low[i - 1] == "no") and not _named_number(word):
            following = low[i + used] if i + used < len(low) else ""
            if following == "percent" or following in UNITS:
                found.append(
                    Token("number", f"{value}%")
                    if following == "percent"
                    else _counted(str(value), following)
                )
                used += 1
            else:
                found.append(Token("number", str(value)))
            i += used
            continue
        if folded.endswith("n't") or (folded == "no" and after == "one"):
            found += [NOT, *LEXICON.get(folded[:-3], ())]
        elif folded == "at" and after in ("least", "most"):
            found.append(Token("polarity", "more" if after == "least" else "less"))
            i += 1
        elif folded in ("over", "under", "within") and _number_next(clause, matches[i]):
            found.append(Token("polarity", "more" if folded == "over" else "less"))
        elif folded == "up" and after == "to" and _number_next(clause, matches[i + 1]):
            found.append(Token("polarity", "less"))
            i += 1
        elif (
            folded in ("every", "each", "per", "a", "an")
            and after.rstrip("s") in PERIODS
            and (
                folded not in ("a", "an")
                or before.endswith("§")
                or (i and low[i - 1] in ("once", "twice", "thrice"))
            )
        ):
            found.append(Token("date", PERIODS[after.rstrip("s")]))
            i += 1
        elif folded in ("a", "an") and after in ("minute", "hour", "day", "week", "month", "year"):
            found.append(Token("number", f"1 {after}"))
            i += 1
        elif (base, after) in WEEKDAY_PAIRS:  # segunda-feira
            found.append(Token("date", WEEKDAY_PAIRS[base, after]))
            i += 1
        elif base in ORDINALS:
            found.append(Token("number", ordinal(ORDINALS[base])))
        elif base in LEXICON and not (CONCORD in LEXICON[base] and _concord_as_name(word, initial)):
            found.extend(LEXICON[base])
        elif base in LEXICON and (others := [t for t in LEXICON[base] if t != CONCORD]):
            found.extend(others)  # Mai (a name, or German May) inside a sentence: May, no negation
        elif word in SHORT_DATES:
            found.append(Token("date", SHORT_DATES[word]))
        elif folded in ("may", "march"):
            near_number = before.endswith("§") or clause[matches[i].end() :].lstrip().startswith("§")
            if word[0].isupper() and (not initial or near_number or folded == "march"):
                found.append(Token("date", folded))
            elif folded == "may":
                found.append(Token("polarity", "may"))
        elif (
            folded == "like"
            and i
            and (low[i - 1] in LIKE_SUBJECTS or low[i - 1].endswith("n't") or raw[i - 1][0].isupper())
        ):
            found.append(Token("polarity", "prefer"))
        elif any(c.isdigit() for c in word) or (
            len(base) > 1 and _capitalised(word) and not (initial and base in COMMON)
        ):
            found.append(Token("name", base))
        elif KOREAN_NOT.match(base):
            found.append(NOT)  # 않습니다, 못해요, 없다: the negation is part of the word
        elif base not in STOPWORDS and (len(base) > 1 or uncased(base)):
            content.append(base)
            if uncased(base):
                if joined == matches[i].start() and IDEOGRAPH.match(base):
                    runs[-1].append(base)
                else:
                    runs.append([base])
                joined = matches[i].end()
        i += 1
    _concord(found, start)
    qualified = any(t.category == "polarity" and t.value in SCALE for t in found[start:])
    if (raw or "§" in clause) and not qualified:
        found.append(ALWAYS)


def _struck(span: str) -> Token:
    """The token of one struck-through span: its words without function words, normalised as
    `daemon.text.words` does (case, plurals, number words), so `~~Send the invoice
    reminders~~` is `send invoice reminder`."""
    words = [w.casefold().removesuffix("'s") for w in SPAN_WORD.findall(span)]
    kept = [normalised(w) for w in words if w not in STOPWORDS] or list(map(normalised, words))
    return Token("strike-through", " ".join(kept) or span.strip().casefold())


def _inside(strike: re.Match[str]) -> str:
    return strike["a"] or strike["b"] or strike["c"]


def struck_as_tildes(text: str) -> str:
    """`text` with every struck-through span written `~~…~~`, however it was marked."""
    return STRIKE.sub(lambda m: f"~~{_inside(m)}~~", text)


def _strike(text: str) -> list[Token]:
    """A token of each struck-through span (by its words), and `not struck` if some text is
    not struck (code spans are text, list markers are not): a struck note or part is withdrawn
    or done, so striking, restoring or moving the strike is a change — which parts are struck,
    not only whether any is — while `**bold**` and `_emphasis_` are not."""
    plain = CODE.sub(MASK, LIST_MARKER.sub("", text))
    struck = [_struck(_inside(m)) for m in STRIKE.finditer(plain) if CONTENT.search(_inside(m))]
    rest = [UNSTRUCK] if CONTENT.search(STRIKE.sub(" ", plain)) else []
    return struck + rest


def read(text: str) -> Meaning:
    """The meaning-carrying tokens, the casefolded words and the secret-looking tokens of `text`."""
    text = unicodedata.normalize("NFKC", text).translate(QUOTES)
    found = _strike(text)
    secrets = secret_tokens(text)
    # Unspaced text writes some negations and connectives in several letters (飲まない, ไม่,
    # และ): taken out before it is split into letters.
    found += [NOT] * len(SPACELESS_NOT.findall(text))
    text = SPACELESS_AND.sub(" ", SPACELESS_NOT.sub(" ", text))
    unmarked = STRIKE.sub(lambda m: f" {_inside(m)} ", text.replace("**", "")).replace("~~", "")
    masked = _masked(LIST_MARKER.sub("", unmarked), found)
    content: list[str] = []
    runs: list[list[str]] = []
    for clause in CLAUSE.split(masked):
        _clause(clause, found, content, runs)
    # Content words too: a word a number is glued to (사용자20) is the word without it.
    words = frozenset(w.casefold().removesuffix("'s") for w in WORD.findall(text)) | frozenset(content)
    return Meaning(
        frozenset(found),
        found.count(NOT),
        words,
        secrets,
        frozenset(content),
        tuple(map(tuple, runs)),
        found.count(CONCORD_NOT),
    )
