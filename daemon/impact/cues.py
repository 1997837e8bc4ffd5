"""Which cues of a language one sentence holds (pure, no I/O; docs/explanation/impact.md).

The cues are the `impact:` lists of the language's data file (daemon/text/languages/*.yaml),
read through `Language.impact`, with `claim.standing` (standing instructions) and
`claim.hypothetical`, `claim.humour` and `claim.reported` (what is not a rule). A cue said
inside quotation marks, code or pasted output (`apart`) is someone else's and never counts.

| class | where it counts | for example |
| --- | --- | --- |
| correction_opener | at the start (after `lead_ins`), punctuation after it or after a word of address (`vocative`) | "No — use pnpm", "nah mate, 8080" |
| prohibition | at the start of the sentence or of a clause, a word after it | "No emojis in commits", "Keine Anglizismen" |
| stop | at the start of the sentence or of a clause, a word after it | "Stop adding emojis", "…, don't create merge commits", "no need to explain" |
| contrast | after a clause break, or between two values | "Aisle seat, not window", "Nadia, pas Benoît", "1.29 not 1.24" |
| contrast_after (a "not" said after what it negates) | ending a clause after a clause break, after a few words that name something; ending the first, after a name, another clause following; or between two values | "…, eski Fabric script değil", "Kaya Tarım Ltd değil, …", "1.24 değil 1.29" |
| contrast_before_name (a "not" that contrasts only before a name) | opening the sentence or a clause, followed to the clause's end by at most NAMED words that name something or are function words | "我们用pnpm，不是npm", "不是17，是21" |
| instead, reminder, standing, preference | anywhere | "use pnpm instead", "I told you", "always" |
| address (a preference) | anywhere, in a sentence with no verb in the past (`past_forms`) | "on tutoie les lecteurs", "vi er på du med kunderne" |
| house (a standing instruction) | anywhere, in a sentence with no verb in the past | "у нас так принято", "das isch bi üs eso" |
| closing (a preference) | closing the sentence (`closes`: in its letters, in a script without spaces) | Japanese "絵文字使わないで。" ("ないで" in "確認しないで送った" says "without"), Kansai "入れんといて" |
| closing_clause (a preference) | closing a clause or the sentence (in its letters, in a script without spaces), not opening the sentence nor before another of its words (a list of them is one of nouns) | Turkish "'Sayın' falan yazma, 'Merhaba' yeter", Kansai "書かんといて、17:00 でええねん" (not one a quoting word follows, `quoting`: "書かんといて、って言うてた") |
| again | at the start, in an exclamation, or when a `second_person` form is the first or second word (not in a `claim.request`): `daemon.impact.again` | "Again: run …", "Emojis again!", "you added a column … again" |
| emphasis | a negation of the meaning table written in capitals | "die Glasur ist NICHT spülmaschinenfest" |
| limit | anywhere, within BESIDE words of a number | "maximal 300 Wörter" |
| changed | anywhere, about a word of the agent's turn before (`daemon.impact.echo`) | "we dropped jest", "die mit 33 ist die alte" |
| contrast opening a sentence | followed to its end by at most NAMED words, one a capitalised name, a number or a name in code | "GBP. Not USD.", "Nicht Brandt." |

The cues read from the shape of a clause (a politeness word, an order of work, every thing of a
kind, a negated imperative, a name defined with " = ") are in `daemon.impact.shapes`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from daemon.impact.again import recalls
from daemon.impact.clauses import SHOUTED, Words, after_address, body_start, negating, punctuated
from daemon.impact.clauses import breaks as clause_breaks
from daemon.impact.naming import names, number, term, value
from daemon.impact.shapes import announced, as_before, asked, defined, every, forbidden, sequence
from daemon.text.keyboard import find, said_at
from daemon.text.language import Language

# Scripts written without spaces between words: there a space is a pause, like a comma.
UNSPACED = ("thai", "han", "kana")
# Words between a limit and its number: "maximal 300 Wörter", "300 words at most", "vijf zinnen max".
BESIDE = 3
# Words a sentence opening with a contrast may say after it: "Not usd.", "Nicht Brandt."
NAMED = 3
ANYWHERE = ("instead", "reminder", "standing", "preference", "changed")
@dataclass(frozen=True)
class Cue:
    kind: str  # one of the classes above
    phrase: str
    at: int  # the word position it starts at


def agreement(lang: Language, text: str, words: Words) -> str | None:
    """The agreeing or declining phrase of the sentence, or None: one it opens with ("No,
    that's fine"), or one that follows an opening "no" as its next clause or closes the
    sentence ("no no, hai ragione tu", "no, l'assicurazione non serve"). A longer stop it
    begins is no agreement: "no need to explain each step" asks for less, "no need" declines;
    nor is one ending in a stop its clause goes on after ("нет, не надо писать длинно")."""
    low = words.low
    start = body_start(lang, low)
    stops = find(low, lang.impact.get("stop_openers", frozenset()))
    declined = after_negation(lang, text, words, start)
    phrases = lang.impact.get("agreement", frozenset())
    breaks = set(clause_breaks(text, words))
    for at, phrase in find(low, phrases):
        end = at + len(phrase)
        # a longer stop it begins, or a stop it ends in with its clause going on ("не надо писать")
        if any(at <= s < end < s + len(p) or (s + len(p) == end < len(low) and end not in breaks) for s, p in stops):
            continue
        if at in (0, start) or (declined is not None and (at == declined or end == len(low))):
            return " ".join(phrase)
    # "nah, leave it" as "no, leave it": another negation or correction opener, alone before
    # a clause break, opens what a phrase opens with "no", and the phrase closes its clause
    # ("Never leave it running" and "Wrong, leave it as a draft from now on" set rules)
    openers = lang.impact.get("correction_openers", frozenset())
    # … a word of address between them ("nah mate, leave it") as none
    after_no = after_address(lang, text, words, start + 1)
    if after_no not in breaks or not (negating(lang, low[start]) or (low[start],) in openers):
        return None
    for phrase in phrases:
        end = after_no + len(phrase) - 1
        closes = end == len(low) or end in breaks
        other = len(phrase) > 1 and phrase[0] != low[start] and negating(lang, phrase[0])
        if other and closes and said_at(low, after_no, phrase[1:]):
            return " ".join(phrase)
    return None


def closes(
    lang: Language, text: str, words: Words, phrases: frozenset[tuple[str, ...]], ends: Iterable[int] = ()
) -> list[tuple[int, tuple[str, ...]]]:
    """(position, phrase) of one of `phrases` that ends the sentence, or one of the clauses that
    end at `ends` (word positions). A script written without spaces cuts a verb's ending where
    its dictionary finds words ("入れんといて" is 入れ / ん / とい / て, "書かんといて" 書 / かん /
    とい / て): there the phrase is read in the letters the sentence or clause ends with, from the
    word it starts in."""
    low = words.low
    closing = {len(low), *ends}
    hits = [(i, p) for i, p in find(low, phrases) if i + len(p) in closing]
    if lang.script not in UNSPACED or not low:
        return hits
    ended = {i + len(p) for i, p in hits}
    # the word each phrase starts in by bisection over the words' ends: a message of many
    # clauses is read in n log n
    word_ends = [b for _, b in words.spans]
    for end in sorted(e for e in closing - ended if 0 < e <= len(low)):
        stop = word_ends[end - 1]
        for letters, phrase in _longest_first(phrases):
            if text.endswith(letters, 0, stop):
                hits.append((bisect_right(word_ends, stop - len(letters)), phrase))
                break
    return sorted(hits)


@cache
def _longest_first(phrases: frozenset[tuple[str, ...]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`phrases` with their letters, the longest first, in one order whatever the process
    ("んといてな" before "んといて"): sorted once per list, not for every sentence."""
    return tuple(sorted((("".join(p), p) for p in phrases), key=lambda lp: (-len(lp[0]), lp[1])))


def after_negation(lang: Language, text: str, words: Words, start: int) -> int | None:
    """Where the clause after a sentence's opening negation starts ("no no, hai ragione":
    the position of "hai"), or None when the sentence does not open with one."""

    def negation(i: int) -> bool:
        return i < len(words.low) and negating(lang, words.low[i])

    breaks = set(clause_breaks(text, words))

    def broken(i: int) -> bool:
        return i in breaks

    if not negation(start):
        return None
    i = start + 1
    while negation(i) and not broken(i):  # "no no, …", but not the "no" of "no, no hace falta"
        i += 1
    i = after_address(lang, text, words, i)  # "nee joh, je hebt gelijk"
    if i >= len(words.low) or not broken(i):
        return None
    return i


def cues(lang: Language, text: str, words: Words, apart: list[tuple[int, int]]) -> list[Cue]:
    """Every cue of `lang` in the sentence `text` (its `words`), outside the `apart` spans
    (offsets into `text`)."""

    def free(i: int, size: int) -> bool:
        a, b = words.spans[i][0], words.spans[i + size - 1][1]
        return not any(x <= a and b <= y for x, y in apart)

    impact = lang.impact
    low = words.low
    found: list[Cue] = []
    start = body_start(lang, low)
    clauses = _clause_starts(lang, text, words, start)
    opening = set(clauses)  # whether a word opens a clause, looked up, not scanned for
    for kind in ("correction_openers", "prohibition_openers", "stop_openers"):
        # a correction opens the sentence; a prohibition or a stop may open any clause of it
        # ("here we squash-merge, don't create merge commits")
        opens = (start,) if kind == "correction_openers" else clauses
        for phrase, at in ((p, at) for p in impact.get(kind, frozenset()) for at in opens):
            size = len(phrase)
            if not said_at(low, at, phrase) or not free(at, size):
                continue
            # a word of address after it that closes its clause goes with it ("no mate, …",
            # "όχι ρε, …"), and leaves it no prohibition ("no mate" forbids no mate)
            end = after_address(lang, text, words, at + size)
            rest = text[words.spans[end - 1][1] :]
            # a script that writes no space between words (Thai) marks a pause with one
            paused = lang.script in UNSPACED and rest[:1].isspace()
            marked = punctuated(rest)
            if kind == "correction_openers" and not (marked or paused):
                continue
            if kind == "prohibition_openers" and (marked or end > at + size):
                continue
            if kind == "stop_openers" and end == len(low):  # "Stopp." alone stops nothing said
                continue
            found.append(Cue(kind.removesuffix("_openers"), " ".join(phrase), at))
    # a negation before a verb that forbids, anywhere in a clause: "промокоды от себя не раздавай"
    found += [Cue("prohibition", " ".join(p), i) for i, p in forbidden(lang, words) if free(i, len(p))]
    for i, phrase in find(low, impact.get("contrast", frozenset())):
        # after a clause break (not an agreeing "…, no problem"), between two values ("1.29 not
        # 1.24"), or opening a sentence of a few words that names what is not meant ("GBP. Not USD.")
        end = i + len(phrase)
        placed = (i > start and (i in opening or _between(lang, low, i, end))) or (i == start and _named(lang, text, words, end))
        # "…, не працює задня фара" reports what does not work: a verb in the present (`present_forms`)
        reports = end < len(low) and lang.matches("present_forms", low[end])
        if placed and not reports and free(i, len(phrase)):
            found.append(Cue("contrast", " ".join(phrase), i))
    # Turkish says "not" after what it negates: "…, eski Fabric script değil" is "…, not the
    # old Fabric script"; what it negates names something, else the clause reports ("…, fatura
    # henüz hazır değil", "Sunucu çalışıyor, veritabanı değil"). Said of the agent's word, it
    # sets it right (`daemon.impact.setright`).
    ends = set(clauses[1:]) | {len(low)}
    ordered_ends = sorted(ends)  # the next one after a word by bisection, not by a scan of all
    for i, phrase in find(low, impact.get("contrast_after", frozenset())):
        end = i + len(phrase)
        opened = clauses[bisect_right(clauses, i) - 1] if clauses[0] <= i else start
        named = 0 < i - opened <= NAMED and any(names(lang, text, words, k) for k in range(opened, i))
        shut = after_address(lang, text, words, end)  # "npm nahi bhai, pnpm": where its clause ends
        closing = opened > start and named and shut in ends
        # … or a first clause, when what it negates is a name and another clause follows with
        # what is meant: "kesen firma Kaya Tarım Ltd değil, … Mehmet Kaya"; a word opening the
        # sentence is capitalised as any ("Acil değil, yarın yaparız"), a value is one still, and
        # so is a word in Latin letters in a language of another script ("mvn 아니에요, gradle이에요")
        named_before = (i - 1 > start and names(lang, text, words, i - 1)) or (
            i - 1 >= start and (value(lang, low, i - 1) or term(lang, low[i - 1]))
        )
        closing = closing or (opened <= start < i and shut in ends and shut < len(low) and named_before)
        if (closing or _between(lang, low, i, end)) and free(i, len(phrase)):
            found.append(Cue("contrast", " ".join(phrase), i))
    # Chinese "不是" says "X, not Y" only before what it names, to its clause's end ("我们用pnpm，
    # 不是npm", "不是17，是21"); before other words it negates them ("谢谢，不是很急")
    for i, phrase in find(low, impact.get("contrast_before_name", frozenset())):
        end = i + len(phrase)
        if i in opening and _names_only(lang, text, words, end, ordered_ends) and free(i, len(phrase)):
            found.append(Cue("contrast", " ".join(phrase), i))
    for kind in ANYWHERE:
        phrases = standing(lang) if kind == "standing" else impact.get(kind, frozenset())
        found += [Cue(kind, " ".join(p), i) for i, p in find(low, phrases) if free(i, len(p))]
    # "I'm telling you" said by a word's ending (Korean "…돈다니까요"; "…돈다니까" closing a clause)
    found += [
        Cue("reminder", w, i)
        for i, w in enumerate(low)
        if (lang.matches("reminder_endings", w) or (i + 1 in ends and lang.matches("reminder_endings_closing", w)))
        and free(i, 1)
    ]
    # a "don't" that says "without" inside a sentence: "絵文字使わないで。", not "確認しないで送った"
    found += [Cue("preference", " ".join(p), i) for i, p in closes(lang, text, words, impact.get("closing", frozenset())) if free(i, len(low) - i)]
    # … and one a verb-final language closes a clause with too: Turkish "'Sayın' falan yazma, …"
    # (not "yazma izni yok", "no write permission", where it opens a noun phrase; nor one of a
    # list of them, nouns: "Kullanıcı ekleme, silme ve güncelleme ekranları")
    # (nor one said as a quotation, a quoting word opening what follows: "部長が書かんといて、って
    # 言うてた"; nor twice, a Kansai "don't" closing the sentence being `closing` too)
    closers = closes(lang, text, words, impact.get("closing_clause", frozenset()), ends)
    listed = {i for i, _ in find(low, impact.get("closing_clause", frozenset()))}
    quoting = impact.get("quoting", frozenset())
    closed = {c.at for c in found if c.kind == "preference"}

    def quoted(i: int) -> bool:
        k = bisect_right(ordered_ends, i)
        after = ordered_ends[k] if k < len(ordered_ends) else len(low)
        return any(said_at(low, after, p) for p in quoting)

    found += [
        Cue("preference", " ".join(p), i)
        for i, p in closers
        if i > start and i + len(p) not in listed and i not in closed and not quoted(i) and free(i, len(p))
    ]
    # "again" where it recalls what the agent did (`daemon.impact.again`)
    found += [Cue("again", " ".join(p), i) for i, p in recalls(lang, text, words, start) if free(i, len(p))]
    found += [Cue("emphasis", w, i) for i, w in _shouted_negations(lang, text, words) if free(i, 1)]
    found += [Cue("asked", " ".join(p), i) for i, p in asked(lang, text, words) if free(i, len(p))][:1]
    found += [Cue("sequence", " ".join(p), i) for i, p in sequence(lang, text, words) if free(i, len(p))][:1]
    found += [Cue("precedent", " ".join(p), i) for i, p in as_before(lang, text, words) if free(i, len(p))][:1]
    found += [Cue("standing", " ".join(p), i) for i, p in every(lang, text, words) if free(i, len(p))][:1]
    found += [Cue("standing", " ".join(p), i) for i, p in announced(lang, text, words) if free(i, len(p))][:1]
    found += [Cue("defined", "=", i) for i, _ in defined(text, words) if free(i, 1)][:1]
    # a form of address set as the way to write is a preference ("on tutoie les lecteurs", "vi er
    # på du"), how things are done where the person works a rule ("у нас принято …", "das isch bi
    # üs eso"), but for a phrase that holds a standing cue already read ("Da noi si fa così: prima
    # …" announces its way); in a sentence with a verb in the past (`past_forms`, outside quotes
    # and code) either tells how it was ("der alte Chef hat alle geduzt, war komisch")
    read = {(c.kind, c.at) for c in found}  # looked up per phrase's word, not per cue
    ruled = [
        Cue(kind, " ".join(p), i)
        for name, kind in (("address", "preference"), ("house", "standing"))
        for i, p in find(low, impact.get(name, frozenset()))
        if free(i, len(p)) and not any((kind, j) in read for j in range(i, i + len(p)))
    ]
    if ruled and not any(lang.matches("past_forms", w) for i, w in enumerate(low) if free(i, 1)):
        found += ruled
    found += [
        Cue("limit", " ".join(p), i)
        for i, p in find(low, impact.get("limit", frozenset()))
        if free(i, len(p))
        and any(number(lang, low, j) for j in range(max(0, i - BESIDE), min(len(low), i + len(p) + BESIDE)))
    ]
    # in the order said; a phrase inside a longer one of the same class ("told you" in "i told you") left out
    found.sort(key=lambda c: (c.at, -len(c.phrase), c.kind))
    return _outermost(found)


def _outermost(found: list[Cue]) -> list[Cue]:
    """The cues of `found` (in the order said) that lie inside no longer phrase of their class.
    One that holds a cue starts at most the longest phrase's words before it: each cue is
    compared with those only, so a sentence of thousands of cues is read in linear time."""
    sizes = [len(c.phrase.split()) for c in found]
    reach = max(sizes, default=0)
    starts = [c.at for c in found]
    return [
        c
        for k, c in enumerate(found)
        if not any(
            found[j].kind == c.kind
            and j != k
            and c.at + sizes[k] <= found[j].at + sizes[j]
            and len(found[j].phrase) > len(c.phrase)
            for j in range(bisect_left(starts, c.at - reach), bisect_right(starts, c.at))
        )
    ]


def _clause_starts(lang: Language, text: str, words: Words, start: int) -> tuple[int, ...]:
    """The sentence's body start and the first word after each clause break, past an agreeing
    phrase ("…, no problem" opens nothing)."""
    agreeing = {at for at, _ in find(words.low, lang.impact.get("agreement", frozenset()))}
    return (start, *(i for i in clause_breaks(text, words) if i > start and i not in agreeing))


def _shouted_negations(lang: Language, text: str, words: Words) -> list[tuple[int, str]]:
    """A negation written in capitals in a sentence that is not all capitals ("die Glasur ist
    NICHT spülmaschinenfest"): the person insists, against what was said. Read from the
    language's meaning table (`NEGATING`), in scripts with case; a word of SHOUTED letters or
    more ("NO" is a value: "set the flag to NO"), not beside another word in capitals (code:
    "WHERE deleted_at IS NOT NULL")."""
    if text.upper() == text:
        return []
    def capitals(i: int) -> bool:
        word = text[words.spans[i][0] : words.spans[i][1]]
        return len(word) >= SHOUTED and word.isupper()

    shouted = []
    for i in range(len(words.spans)):
        beside = (i > 0 and capitals(i - 1)) or (i + 1 < len(words.spans) and capitals(i + 1))
        if capitals(i) and not beside and negating(lang, words.low[i]):
            shouted.append((i, words.low[i]))
    return shouted


def _between(lang: Language, low: tuple[str, ...], i: int, end: int) -> bool:
    """Whether the contrast word(s) at `i`…`end` stand between two values: numbers or names
    in code ("1.29 not 1.24", "14 maja nie 4"; not "python3 not found"), or between two phrases
    that open with the same function word ("w mbanku nie w pko", "in Berlin not in Munich")."""
    if i == 0 or end >= len(low):
        return False
    function_words = lang.function_words
    if i > 1 and low[i - 2] == low[end] and low[end] in function_words:
        return True
    if value(lang, low, i - 1):
        return value(lang, low, end)
    return i > 1 and number(lang, low, i - 2) and low[i - 1] not in function_words and value(lang, low, end)


def _named(lang: Language, text: str, words: Words, end: int) -> bool:
    """Whether a sentence opening with a contrast word goes on, to its first clause break, with
    a few words (at most NAMED) that name what is not meant — a name written with a capital
    (two letters or more: not "I"), a number or a name in code — and ends there: "Not USD.",
    "Nicht Brandt.", "non Marco."; not "Not yet.", "Not now, Claude.", "Не знаю, Максим.",
    "Not sure I follow." (German capitalises its nouns: "Nicht mein Problem." is read as a
    name)."""
    breaks = [b for b in clause_breaks(text, words) if b > end]
    rest = range(end, breaks[0] if breaks else len(words.low))
    if breaks or not 0 < len(rest) <= NAMED:
        return False
    return any(names(lang, text, words, i) for i in rest)


def _names_only(lang: Language, text: str, words: Words, end: int, ends: Sequence[int]) -> bool:
    """Whether the words from `end` to the end of their clause (`ends`: the clauses' ends, in
    order, the sentence's last) are a few (at most NAMED) that each name something or are
    function words, one at least naming: "…，不是npm", "不是17，…"."""
    rest = range(end, ends[bisect_right(ends, end)] if end < len(words.low) else end)
    if not 0 < len(rest) <= NAMED:
        return False
    # a word in Latin letters in a language of another script is a term ("pnpm" in "…，不是npm")
    named = {k for k in rest if names(lang, text, words, k) or term(lang, words.low[k])}
    return bool(named) and all(k in named or words.low[k] in lang.function_words for k in rest)


def standing(lang: Language) -> frozenset[tuple[str, ...]]:
    """The phrases of `lang` that say a rule holds from now on, of both its lists ("always",
    `impact.standing`; "from now on", "voortaan", `claim.standing`)."""
    return lang.impact.get("standing", frozenset()) | lang.claim.get("standing", frozenset())


def said(
    lang: Language,
    words: Words,
    phrases: Iterable[tuple[str, ...]],
    apart_of: list[tuple[int, int]] | None = None,
) -> list[tuple[int, tuple[str, ...]]]:
    """Where `phrases` are said in the sentence, outside `apart_of` if given."""
    hits = find(words.low, phrases)
    if not apart_of:
        return hits
    return [
        (i, p)
        for i, p in hits
        if not any(x <= words.spans[i][0] and words.spans[i + len(p) - 1][1] <= y for x, y in apart_of)
    ]
