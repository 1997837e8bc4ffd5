"""A language typed in Latin letters, as people do on a keyboard without its script: Greek
as "Greeklish" ("to eipame", "ohi", "8elw" for "το είπαμε", "όχι", "θέλω") (pure, no I/O;
docs/how-to/add-a-language.md).

Nobody types it one way: "όχι" is "oxi", "ohi" or "ochi", "θέλω" is "thelw", "thelo" or
"8elw". So neither side is compared as written: both the language's own words and the words
typed in Latin letters are brought to one spelling (`Spelling.key`) — the script's letters
written in Latin ones (`letters`), then the Latin spellings people use made one (`spellings`,
regular expressions applied in order), doubled letters made single. Both tables are the
language's, in its data file under `typed_in_latin:`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from daemon.kernel.errors import LanguageDataError

DOUBLED = re.compile(r"(.)\1+")
# Words a spelling keeps keyed (a dict read and written whole by each thread: no lock needed).
KEPT = 200_000


@dataclass(frozen=True)
class Spelling:
    """How a language's words are typed in Latin letters (see the module docstring)."""

    letters: tuple[tuple[str, str], ...]  # a letter or two of the script → Latin, longest first
    spellings: tuple[tuple[re.Pattern[str], str], ...]  # a Latin spelling → the one spelling
    # common words as typed in Latin letters, each a vote for the reading ("hai", "tha")
    typed: frozenset[str] = frozenset()
    # the fewest letters of a key read in a sentence unless the word is listed as typed: a
    # spelling that drops vowels makes short keys of many words ("oxi", "emoji" are Hindi's
    # "ks", "mj"; "side" is सदा)
    shortest_key: int = 2
    # the digits its people type as letters ("3" and "7" of Arabizi, "8" of Greeklish): a word
    # holding one and a letter is a word, not a value
    digits: frozenset[str] = frozenset()
    # words already keyed: every sentence of a history is read so, most words again and again
    known: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def key(self, word: str) -> str:
        """The one spelling of `word`, in the script or typed in Latin letters; a number ("8",
        "3") is left as it is, though "8" and "3" in a word are letters ("8elw", "3ana")."""
        if not any(c.isalpha() for c in word):
            return word
        found = self.known.get(word)
        if found is None:
            found = self._spelled(word)
            if len(self.known) < KEPT:
                self.known[word] = found
        return found

    def typed_key(self, word: str) -> str:
        """`key` of a word of a sentence typed in Latin letters, if the data file lists it as
        typed or its key is `shortest_key` letters or more; else the word as it is: keyed
        without vowels, "side" and "meet" would be सदा ("always") and मत ("don't")."""
        found = self.key(word)
        return found if word in self.typed or len(found) >= self.shortest_key else word

    def _spelled(self, word: str) -> str:
        plain = "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))
        for letter, latin in self.letters:
            plain = plain.replace(letter, latin)
        for pattern, spelled in self.spellings:
            plain = pattern.sub(spelled, plain)
        return DOUBLED.sub(r"\1", plain)


def spelling_of(data: Any, label: str) -> Spelling:
    """The `typed_in_latin:` mapping of a data file (`letters:` a mapping, `spellings:` a list
    of [pattern, replacement] pairs, `words:` common words as typed, `shortest_key:` the
    fewest letters of a key read in a sentence); raises LanguageDataError naming the file
    and key."""
    where = f"{label}: typed_in_latin"
    if not isinstance(data, dict) or set(data) - {"letters", "spellings", "words", "shortest_key"}:
        raise LanguageDataError(f"{where} must be a mapping with `letters`, `spellings`, `words` and `shortest_key`")
    shortest = str(data.get("shortest_key", 2))  # the files are read with every value a string
    if not shortest.isascii() or not shortest.isdigit() or int(shortest) < 1:
        raise LanguageDataError(f"{where}.shortest_key must be a whole number of letters, 1 or more, not {shortest!r}")
    typed = data.get("words") or []
    if not isinstance(typed, list) or not all(isinstance(w, str) and w == w.casefold() for w in typed):
        raise LanguageDataError(f"{where}.words must be a list of words in small letters")
    letters = data.get("letters") or {}
    if not isinstance(letters, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in letters.items()):
        raise LanguageDataError(f"{where}.letters must map letters of the script to Latin letters")
    spellings = []
    for pair in data.get("spellings") or []:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            raise LanguageDataError(f"{where}.spellings: {pair!r} is not a [pattern, replacement] pair")
        try:
            spellings.append((re.compile(pair[0]), pair[1]))
        except re.error as exc:
            raise LanguageDataError(f"{where}.spellings: {pair[0]!r} is not a regular expression ({exc})") from exc
    ordered = sorted(((str(k), str(v)) for k, v in letters.items()), key=lambda kv: -len(kv[0]))
    # the digits a letter is written as or a spelling reads
    digits = frozenset(c for text in (*(v for _, v in ordered), *(p.pattern for p, _ in spellings)) for c in text if c.isdigit())
    return Spelling(tuple(ordered), tuple(spellings), frozenset(typed), int(shortest), digits)
