"""Does a quote speak in the first person? The words a user speaks of themself with (pure).

A fact about the user rests on the user's own words about themself, in whatever language
they wrote: a first-person pronoun or possessive ("I", "my", "ich", "мой", "je", "मैं", "我",
"私", "나는"), or, in a language that drops its pronouns (Spanish, Italian, Polish …), a verb
in the first person ("Trabajo en Inditex", "Mieszkam w Krakowie"). The forms live in each
language's data file (`first_person`, `first_person_plural`, `first_person_verbs`,
`first_person_endings`: docs/how-to/add-a-language.md); in Japanese and Korean, which leave
the speaker unsaid and mark no person on the verb, a statement naming no one else; the quote's language is
`daemon.text.language.detect`'s. A quote in no known language has no first person that can
be read, so it grounds no fact about the user.

Left out, whatever the language: "US" and "EU" in capitals are places, not "us" and "eu";
"Mia" and "Nam" capitalised are names, not Italian "mia" (my) or Polish "nam" (us); "mi"
after a number is miles, not Spanish "mi" (my); Korean 제 before a number is the ordinal
prefix (제 2공장, plant no. 2), not "my".
"""

from __future__ import annotations

import re
import unicodedata

from daemon.text.language import Language, detect
from daemon.text.unicode_words import segment

ACRONYMS = frozenset({"US", "EU"})
NAMES = frozenset({"Mia", "Nam"})
ORDINAL = re.compile(r"(?<![^\W\d_])제\s*\d")


def first_person(quote: str, lang: Language | None = None) -> bool:
    """Whether `quote` (read as `lang`, or the language it is detected in) speaks in the first person."""
    text = ORDINAL.sub(" ", unicodedata.normalize("NFC", quote))
    lang = lang if lang is not None else detect([text])
    if lang is None:
        return False
    pronouns = lang.words("first_person") | lang.words("first_person_plural")
    verbs = lang.words("first_person_verbs")
    found = [w.text for w in segment(text)]
    for index, word in enumerate(found):
        after_number = index > 0 and found[index - 1].isdigit()
        if word in ACRONYMS or word in NAMES or (after_number and word.casefold() == "mi"):
            continue
        folded = word.casefold().replace("’", "'")
        # an elided pronoun is its own word: j'habite, m'appelle
        if folded in pronouns or folded in verbs or any(part in pronouns for part in folded.split("'")[:-1]):
            return True
        # a verb ending of the first person, on a word written in lower case (not a name) or
        # opening the quote ("Pracowałem w banku.")
        lower = word == folded or (index == 0 and word[1:] == folded[1:])
        if lang.pro_drop and lower and lang.matches("first_person_endings", folded):
            return True
    return _unsaid_subject(text, lang)


def _unsaid_subject(text: str, lang: Language) -> bool:
    """Japanese, Korean and Thai leave the speaker unsaid and mark no person on the verb (their
    data files say `pro_drop: unmarked`): a statement that names no one else
    (the data file's `claim.others`: 母, 友達, 彼女 …) is the speaker's own
    ("大阪に住んでるので")."""
    if not lang.person_unmarked:
        return False
    others = ("".join(phrase) for phrase in lang.claim.get("others", frozenset()))
    return not any(other and other in text for other in others)
