"""What a word of a sentence names (pure, no I/O): a value, a name, a day or a month, a term;
what a "not" is said of before or after it (`daemon.impact.cues`), and what a laugh beside a
contrast leaves set right (`daemon.impact.left_out`)."""

from __future__ import annotations

from daemon.impact.clauses import Words, punctuated, words_of
from daemon.impact.shapes import in_code
from daemon.text.keyboard import find
from daemon.text.language import MONTHS, WEEKDAYS, Language, script_of
from daemon.text.lexicon import number_at

# The meaning table's days of the week and months: each names a day or a month as a name does;
# not "may", which is also the table's concept of permission ("てもいい", Hindi "सकता").
CALENDAR = (frozenset(WEEKDAYS) | frozenset(MONTHS)) - {"may"}
# Letters of a status written in capitals after "not" ("Jenkins not OK", "Postgres not UP"),
# where a name in two capitals beside another in capitals is one ("DE not NL").
STATUS_LETTERS = 2


def names(lang: Language, text: str, words: Words, i: int) -> bool:
    """Whether the `i`th word names something: a value, a name written with a capital (two
    letters or more: not "I"), or a day of the week or a month, which scripts without capitals
    write as any word ("水曜ちゃうで", not Wednesday)."""
    return (
        value(lang, words.low, i)
        or (text[words.spans[i][0]].isupper() and len(words.low[i]) > 1)
        or not CALENDAR.isdisjoint(lang.concepts.get(words.low[i], ()))
    )


def names_set_right(lang: Language, text: str, words: Words, answered: str) -> list[tuple[int, tuple[str, ...]]]:
    """The contrast words of `lang` (`impact.contrast`) between two names (`between_names`) the
    second of which, the one not meant, the agent's turn `answered` wrote: "we ship with Bosta
    not Mylerz" after "Booked the Mylerz pickup". A name no turn of the agent's wrote is read
    as said ("the page shows File not Found.", "build fails with Module not Found.")."""
    # most sentences have no two capitals after their first word, or answer no turn: read no further
    if not answered.strip() or sum(text[at].isupper() for at, _ in words.spans[1:]) < 2:
        return []
    pairs = [(i, p) for i, p in find(words.low, lang.impact.get("contrast", frozenset())) if between_names(lang, text, words, i, i + len(p))]
    if not pairs:
        return []
    agents = frozenset(words_of(answered).low)
    return [(i, p) for i, p in pairs if words.low[i + len(p)] in agents]


def between_names(lang: Language, text: str, words: Words, i: int, end: int) -> bool:
    """Whether the contrast word(s) at `i`…`end`, in lower case, stand between two names written
    with a capital (`names`), the first not the sentence's first word, the second closing its
    clause: "we ship with Bosta not Mylerz", "Falafel Sandwich مش Wrap، …". Not a title whose
    name goes on ("Checkout Button not Working on Safari"; "Page Not Found", its "not" in
    capitals), nor a status in two capitals ("Jenkins not OK, looking into it"), nor in a
    language that writes every noun so (`capitalised_nouns`: "Ich habe Montag nicht Zeit")."""
    if lang.capitalised_nouns or i <= 1 or end >= len(words.low) or text[words.spans[i][0]].isupper():
        return False
    if end + 1 < len(words.low):
        rest = text[words.spans[end][1] : words.spans[end + 1][0]]
        if not rest.strip() or not punctuated(rest):
            return False  # a mark closes the name (the Arabic comma too: "Wrap، …"), or the end
    after = text[words.spans[end][0] : words.spans[end][1]]
    if len(after) == STATUS_LETTERS and after.isupper() and not text[words.spans[i - 1][0] : words.spans[i - 1][1]].isupper():
        return False
    return names(lang, text, words, i - 1) and names(lang, text, words, end)


def term(lang: Language, word: str) -> bool:
    """Whether `word` is in Latin letters in a language written in another script, not read as
    typed in Latin letters (where every word is): a term ("npm", "mvn")."""
    return lang.script != "latin" and not lang.keyed and any(script_of(c) == "latin" for c in word)


def value(lang: Language, low: tuple[str, ...], i: int) -> bool:
    """Whether the `i`th word is a value: a number, or a name in code."""
    return number(lang, low, i) or (in_code(low[i]) and not _spelled_with_digits(lang, low[i]))


def number(lang: Language, low: tuple[str, ...], i: int) -> bool:
    """Whether the `i`th word is a number, in digits or in words."""
    digits = any(c.isdigit() for c in low[i]) and not _spelled_with_digits(lang, low[i])
    return digits or number_at(lang, low, i)[2] > 0


def _spelled_with_digits(lang: Language, word: str) -> bool:
    """Whether a word's digits are letters: typed in Latin letters, a language may write with
    them the letters Latin has none of (`Spelling.digits`: "sob7", "3aref" in Arabizi, "8elw"
    in Greeklish; not "python3" in Hinglish)."""
    digits = lang.spelling.digits if lang.keyed and lang.spelling is not None else frozenset()
    return any(c in digits for c in word) and any(c.isalpha() for c in word)
