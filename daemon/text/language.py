"""The languages the text layer knows: one data file each (`daemon/text/languages/<code>.yaml`).

A data file holds what no Unicode library knows of a language's words — negations and
concord words, obligation and permission, conditions, polarity pairs, first-person forms,
particles, stopwords, hedges (docs/how-to/add-a-language.md). Segmentation, stems, number
words and calendar names come from ICU, Snowball and CLDR (`unicode_words`, `stems`,
`cldr`). `detect` tells which language a text is written in, from its script and its
words; a text of no known language gets the strict rules of the checks that read it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Any

import yaml

from daemon.kernel.errors import LanguageDataError
from daemon.text import cldr
from daemon.text.keyboard import typed_plain
from daemon.text.latin_letters import Spelling, spelling_of
from daemon.text.stems import algorithms
from daemon.text.unicode_words import script, segment, words

SCRIPTS = ("latin", "cyrillic", "greek", "han", "kana", "hangul", "arabic", "hebrew", "devanagari", "thai")
# The concepts a data file's `words:` may list; the code decides what each one means (the
# meaning tokens of `daemon.text.meaning`), the file says how the language writes it.
WEEKDAYS = cldr.WEEKDAYS
MONTHS = cldr.MONTHS
CONCEPTS = frozenset(
    ["negation", "negation_concord", "never", "never_concord", "forbid", "dislike", "disable", "must", "should", "may", "usually", "sometimes", "rarely", "only", "except", "if", "unless", "prefer", "allow", "enable", "more", "less", "before", "after", "increase", "decrease", "more_with_number", "less_with_number", "percent", "public", "private", "internal", "external", "staging", "production", "development", "test", "qa", "sandbox", "preprod", "canary", "local", "today", "tomorrow", "yesterday", "tonight", "weekend", "weekday", "morning", "afternoon", "evening", "noon", "midnight", "daily", "weekly", "fortnightly", "monthly", "quarterly", "yearly", "hourly", "nightly", "twice", "thrice", "half"]
) | frozenset(WEEKDAYS) | frozenset(MONTHS)
LISTS = (
    "first_person", "first_person_plural", "first_person_verbs", "stopwords", "connectives", "hedges",
    "openers", "not_numbers", "not_calendar", "elisions", "abbreviations", "particles", "meaning_particles_excluded", "and_prefixes", "letters",
    "short_endings",
)  # fmt: skip
PATTERNS = ("negation_affixes", "negation_patterns", "first_person_endings", "past_forms", "imperative_forms", "present_forms")
# What a statement is, beyond its words (`memory_engine.claim`): lists under `claim:`.
CLAIM_LISTS = (
    "subject_pronouns", "others", "hypothetical", "roleplay", "roleplay_end", "past_state", "reported", "humour",
    "request", "since", "project_deixis", "standing", "impossible",
)
# What the person says to correct the agent or to set a rule (daemon/impact/cues.py): lists
# under `impact:`. A language without the section has no impact detection.
IMPACT_LISTS = (
    "correction_openers", "prohibition_openers", "stop_openers", "contrast", "contrast_after", "instead", "reminder",
    "again", "standing", "preference", "closing", "limit", "changed", "one_off", "agreement", "lead_ins", "humour",
    "question_endings", "second_person", "dismissal", "politeness", "first", "then", "every", "prohibiting", "third_person", "precedent",
)  # fmt: skip
KEYS = frozenset(
    {"name", "script", "stemmer", "pro_drop", "typed_without_accents", "typed_in_latin", "words", "affixes", "numbers", "claim", "impact", *LISTS, *PATTERNS}
)


@dataclass(frozen=True)
class Language:
    code: str  # the file's code, or codes joined by "+" for languages read together (`merged`)
    name: str
    script: str
    stemmer: str | None
    pro_drop: bool
    # one word → its concepts; a phrase (several words) → its concepts, keyed by its words
    concepts: Mapping[str, tuple[str, ...]]
    phrases: Mapping[tuple[str, ...], tuple[str, ...]]
    lists: Mapping[str, frozenset[str]]
    patterns: Mapping[str, tuple[re.Pattern[str], ...]]
    longest_phrase: int = 1
    vocabulary: frozenset[str] = field(default=frozenset())  # the words `detect` counts
    # concept → regular expressions searched in a word: a concept said by an ending (Korean
    # -아야 하다 "must", -아도 되다 "may")
    affixes: Mapping[str, tuple[re.Pattern[str], ...]] = field(default_factory=dict)
    # number words CLDR lacks (Czech "dvou", "tří"): casefolded form → value
    extra_numbers: Mapping[str, int] = field(default_factory=dict)
    # `claim:` lists, each a set of phrases (a phrase is its words)
    claim: Mapping[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)
    locale: str = ""  # the ICU locale of its numbers and calendar names (its code)
    # `impact:` lists, each a set of phrases; empty when the file has no `impact:` section
    impact: Mapping[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)
    # `pro_drop: unmarked`: the subject is left unsaid and the verb marks no person (Japanese,
    # Korean, Thai): a statement naming no one else is the speaker's own (memory_engine/first_person.py)
    person_unmarked: bool = False
    # how it is typed in Latin letters (`typed_in_latin:`, daemon/text/latin_letters.py), and
    # whether this is that reading (`in_latin_letters`), its words keyed so
    spelling: Spelling | None = None
    keyed: bool = False

    def key(self, word: str) -> str:
        """A word as this language's lists hold it: its one Latin spelling in a reading in
        Latin letters (`in_latin_letters`), else as it is."""
        return self.spelling.key(word) if self.keyed and self.spelling is not None else word

    def words(self, key: str) -> frozenset[str]:
        return self.lists.get(key, frozenset())

    @cached_property
    def function_words(self) -> frozenset[str]:
        """Stopwords and connectives: words that carry no content of their own (read per word, kept once)."""
        return self.words("stopwords") | self.words("connectives")

    def matches(self, key: str, word: str) -> bool:
        """Whether one of the `key` patterns (negation_affixes, first_person_endings …) is in `word`."""
        return any(p.search(word) for p in self.patterns.get(key, ()))

    def numbers(self) -> cldr.Numbers:
        return cldr.numbers(self.locale or self.code)

    def calendar(self) -> dict[str, str]:
        return cldr.calendar_names(self.locale or self.code)

    def concepts_by_affix(self, word: str) -> tuple[str, ...]:
        """The concepts whose `affixes` pattern is in `word`."""
        return tuple(c for c, patterns in self.affixes.items() if any(p.search(word) for p in patterns))


def _folded(item: object, where: str) -> str:
    if not isinstance(item, str) or not item.strip():
        raise LanguageDataError(f"{where}: every entry must be a non-empty string, not {item!r}")
    text = unicodedata.normalize("NFC", item)
    if text != text.casefold():
        raise LanguageDataError(f"{where}: {item!r} must be written casefolded ({text.casefold()!r})")
    return text


def _pattern(source: object, where: str) -> re.Pattern[str]:
    try:
        return re.compile(str(source))
    except re.error as exc:
        raise LanguageDataError(f"{where}: {source!r} is not a regular expression ({exc})") from exc


def _key(phrase: str) -> tuple[str, ...]:
    return tuple(w.casefold() for w in words(phrase))


def parse(code: str, data: Any, label: str) -> Language:
    """A language from its data file's content; raises LanguageDataError naming the file and key."""
    if not isinstance(data, dict):
        raise LanguageDataError(f"{label}: a language file is a mapping of keys")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise LanguageDataError(f"{label}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(KEYS))})")
    script = data.get("script")
    if script not in SCRIPTS:
        raise LanguageDataError(f"{label}: script must be one of {', '.join(SCRIPTS)}, not {script!r}")
    stemmer = data.get("stemmer")
    stemmer = None if stemmer in (None, "", "null", "~") else stemmer
    if stemmer is not None and stemmer not in algorithms():
        raise LanguageDataError(f"{label}: stemmer {stemmer!r} is not a Snowball algorithm ({', '.join(sorted(algorithms()))})")
    concepts: dict[str, list[str]] = {}
    phrases: dict[tuple[str, ...], list[str]] = {}
    for concept, forms in (data.get("words") or {}).items():
        if concept not in CONCEPTS:
            raise LanguageDataError(f"{label}: words.{concept} is not a concept the checks know ({', '.join(sorted(CONCEPTS))})")
        if not isinstance(forms, list):
            raise LanguageDataError(f"{label}: words.{concept} must be a list")
        for form in forms:
            key = _key(_folded(form, f"{label}: words.{concept}"))
            if len(key) == 1:
                concepts.setdefault(key[0], []).append(concept)
            elif key:
                phrases.setdefault(key, []).append(concept)
    lists: dict[str, frozenset[str]] = {}
    for name in LISTS:
        items = data.get(name) or []
        if not isinstance(items, list):
            raise LanguageDataError(f"{label}: {name} must be a list")
        lists[name] = frozenset(_folded(i, f"{label}: {name}") for i in items)
    patterns = {name: tuple(_pattern(s, f"{label}: {name}") for s in data.get(name) or []) for name in PATTERNS}
    affixes: dict[str, tuple[re.Pattern[str], ...]] = {}
    for concept, sources in (data.get("affixes") or {}).items():
        if concept not in CONCEPTS:
            raise LanguageDataError(f"{label}: affixes.{concept} is not a concept the checks know")
        affixes[concept] = tuple(_pattern(s, f"{label}: affixes.{concept}") for s in sources)
    extra_numbers: dict[str, int] = {}
    for value, forms in (data.get("numbers") or {}).items():
        if not str(value).isdigit() or not isinstance(forms, list):
            raise LanguageDataError(f"{label}: numbers.{value}: a number maps to a list of its words")
        for form in forms:
            extra_numbers[_folded(form, f"{label}: numbers.{value}")] = int(value)
    claim_data = data.get("claim") or {}
    if not isinstance(claim_data, dict):
        raise LanguageDataError(f"{label}: claim must be a mapping of lists")
    unknown_claim = sorted(set(claim_data) - set(CLAIM_LISTS))
    if unknown_claim:
        raise LanguageDataError(f"{label}: claim.{unknown_claim[0]} is not a list the claim check reads ({', '.join(CLAIM_LISTS)})")
    claim = {
        name: frozenset(_key(_folded(item, f"{label}: claim.{name}")) for item in claim_data.get(name) or [])
        for name in CLAIM_LISTS
    }
    vocabulary = frozenset(concepts) | frozenset(w for k in phrases for w in k) | frozenset(extra_numbers)
    for name in ("stopwords", "connectives", "first_person", "first_person_plural", "first_person_verbs", "openers"):
        vocabulary |= lists[name]
    impact = _impact(data.get("impact"), label)
    typed = str(data.get("typed_without_accents", "false")).lower()
    if typed not in ("true", "false"):
        raise LanguageDataError(f"{label}: typed_without_accents must be true or false, not {typed!r}")
    if typed == "true":
        impact = typed_plain(impact, vocabulary, concepts)
        claim = typed_plain(claim, vocabulary, concepts)
    return Language(
        code,
        str(data.get("name") or code),
        script,
        stemmer,
        str(data.get("pro_drop", "false")).lower() in ("true", "unmarked"),
        {k: tuple(dict.fromkeys(v)) for k, v in concepts.items()},
        {k: tuple(dict.fromkeys(v)) for k, v in phrases.items()},
        lists,
        patterns,
        max((len(k) for k in phrases), default=1),
        vocabulary,
        affixes,
        extra_numbers,
        claim,
        code,
        person_unmarked=str(data.get("pro_drop", "false")).lower() == "unmarked",
        impact=impact,
        spelling=spelling_of(data["typed_in_latin"], label) if "typed_in_latin" in data else None,
    )


def _impact(section: Any, label: str) -> dict[str, frozenset[tuple[str, ...]]]:
    """The `impact:` lists of a data file as phrases ({} without the section)."""
    if section is None:
        return {}
    if not isinstance(section, dict):
        raise LanguageDataError(f"{label}: impact must be a mapping of lists")
    unknown = sorted(set(section) - set(IMPACT_LISTS))
    if unknown:
        raise LanguageDataError(f"{label}: impact.{unknown[0]} is not a list impact reads ({', '.join(IMPACT_LISTS)})")
    found: dict[str, frozenset[tuple[str, ...]]] = {}
    for name in IMPACT_LISTS:
        items = section.get(name) or []
        if not isinstance(items, list):
            raise LanguageDataError(f"{label}: impact.{name} must be a list")
        found[name] = frozenset(_key(_folded(item, f"{label}: impact.{name}")) for item in items)
    return found


@cache
def known() -> dict[str, Language]:
    """Every language with a data file, by code (loaded once)."""
    folder = resources.files("daemon.text") / "languages"
    found: dict[str, Language] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            code = entry.name.removesuffix(".yaml")
            label = f"daemon/text/languages/{entry.name}"
            try:  # every scalar a string: "no", "on" and "si" are words here, never booleans
                data = yaml.load(entry.read_text(encoding="utf-8"), Loader=yaml.CBaseLoader)
            except yaml.YAMLError as exc:
                raise LanguageDataError(f"{label}: not valid YAML ({exc})") from exc
            found[code] = parse(code, data, label)
    return found


@cache
def abbreviations() -> frozenset[str]:
    """The abbreviations of every language with a file (casefolded, without their last dot:
    "e.g", "etc", "z.b"): a full stop after one does not end a sentence."""
    return frozenset().union(*(lang.words("abbreviations") for lang in known().values()))


def language(code: str) -> Language | None:
    """The language of `code`, or of codes joined by "+" (`merged`), or its reading in Latin
    letters ("el-latn"); None if one has no file."""
    from daemon.text.latin_reading import (  # it reads the languages loaded here
        LATIN_READING,
        in_latin_letters,
    )

    if code.endswith(LATIN_READING):
        return in_latin_letters(code.removesuffix(LATIN_READING))
    codes = tuple(code.split("+"))
    if any(c not in known() for c in codes):
        return None
    return merged(codes)


# ICU's script codes (ISO 15924) → the scripts a data file may name.
ISO_SCRIPTS = {
    "Latn": "latin", "Cyrl": "cyrillic", "Grek": "greek", "Hani": "han", "Hira": "kana", "Kana": "kana",
    "Hang": "hangul", "Arab": "arabic", "Hebr": "hebrew", "Deva": "devanagari", "Thai": "thai",
}  # fmt: skip


def script_of(char: str) -> str | None:
    """The script of one letter, among `SCRIPTS` (from ICU's Unicode data), or None."""
    if not (char.isalpha() or unicodedata.category(char) == "Lm"):
        return None
    return ISO_SCRIPTS.get(script(char))


CLOSE = 0.75


@cache
def _names(code: str) -> frozenset[str]:
    """The one-word number names CLDR has for `code`: words `detect` counts."""
    table = cldr.numbers(code)
    return frozenset(name for name in (*table.cardinals, *table.ordinals) if " " not in name)


@cache
def _calendar(code: str) -> frozenset[str]:
    """The one-word weekday and month names CLDR has for `code`: words `detect` counts."""
    return frozenset(name for name in cldr.calendar_names(code) if " " not in name)


def detect(texts: Iterable[str]) -> Language | None:
    """The language `texts` (read together) are written in, or None if no data file fits.

    The text's main script decides first: Hangul is Korean, ideographs with kana Japanese,
    without Chinese; otherwise the main script chooses the candidates and its words vote: each word that is one of a
    language's listed words (stopwords, connectives, openers, first-person forms and verbs,
    concept words) or one of its CLDR weekday, month or number names counts one, each of its
    distinctive letters (`letters:`) one; a word several languages list is shared among them.
    No vote, no language. Languages that come close (within `CLOSE` of the best: Swedish
    and Danish share most short words) are read together: `merged` of them, which reads a
    word as every one of them does — the safe side for a check that refuses changes.
    """
    text = unicodedata.normalize("NFC", " ".join(texts))
    scripts = Counter(s for c in text if (s := script_of(c)) is not None)
    if not scripts:
        return None
    languages = known()
    # Japanese writes kana among its ideographs: the two count as one script here.
    scripts["han"] += scripts.pop("kana", 0) if scripts["kana"] else 0
    main = scripts.most_common(1)[0][0]
    if main == "han":
        code = "ja" if any(script_of(c) == "kana" for c in text) else "zh"
        return languages.get(code)
    if main == "hangul":
        return languages.get("ko")
    candidates = [lang for lang in languages.values() if lang.script == main]
    if len(candidates) == 1 and main != "latin":
        return candidates[0]
    # a word with an apostrophe votes with its parts too: I'm, l'homme, c'è
    folded = [part for w in words(text) for part in _with_parts(w.casefold().replace("’", "'"))]
    letters = Counter(c for c in text.casefold() if c.isalpha())
    # A word counts 1 / (how many candidates list it): "werden" speaks for German and Dutch
    # half each, "nicht" for German alone.
    # A number name votes only as written in lower case: a capitalised "Otto" is a name, not eight.
    lower = {w.text.casefold() for w in segment(text) if not w.text[:1].isupper()}
    holders = {
        w: [
            lang.code
            for lang in candidates
            if w in lang.vocabulary or w in _calendar(lang.code) or (w in lower and w in _names(lang.code))
        ]
        for w in set(folded)
    }
    scores: dict[str, float] = {}
    for lang in candidates:
        score = sum(1 / len(holders[w]) for w in folded if lang.code in holders[w])
        score += sum(letters[c] for c in lang.words("letters"))
        if score:
            scores[lang.code] = score
    if main == "latin":
        from daemon.text.latin_reading import typed_in_latin  # it reads the languages loaded here

        typed = typed_in_latin(folded, holders, max(scores.values(), default=0.0))
        if typed is not None:
            return typed
    if not scores:
        return None
    top = max(scores.values())
    return merged(tuple(sorted(code for code, score in scores.items() if score >= CLOSE * top)))


def in_each_script(text: str) -> list[Language]:
    """The language of the words of `text` written in each script it holds, the script of
    most letters first: "不对，用pnpm，不要用npm。" is Chinese by its ideographs and read so,
    though its Latin letters are more; "Always cc 王小明 and 李华." is English by its words."""
    if text.isascii():  # one script: most messages, read at once
        return []
    by_script: dict[str, list[str]] = {}
    for word in words(text):
        found = Counter(s for c in word if (s := script_of(c)) is not None)
        if found:
            by_script.setdefault(found.most_common(1)[0][0], []).append(word)
    if len(by_script) < 2:
        return []
    ordered = sorted(by_script.values(), key=lambda ws: -sum(len(w) for w in ws))
    return [lang for ws in ordered if (lang := detect([" ".join(ws)])) is not None]


def _with_parts(word: str) -> list[str]:
    return [word, *(p for p in word.split("'") if p)] if "'" in word else [word]


@cache
def merged(codes: tuple[str, ...]) -> Language:
    """One language, or several read as one (their words together; the first one's stemmer,
    calendar and numbers): for a text their votes cannot tell apart."""
    languages = known()
    if len(codes) == 1:
        return languages[codes[0]]
    parts = [languages[c] for c in codes]
    concepts: dict[str, tuple[str, ...]] = {}
    phrases: dict[tuple[str, ...], tuple[str, ...]] = {}
    for part in parts:
        for word, found in part.concepts.items():
            concepts[word] = tuple(dict.fromkeys((*concepts.get(word, ()), *found)))
        for key, found in part.phrases.items():
            phrases[key] = tuple(dict.fromkeys((*phrases.get(key, ()), *found)))
    lists = {name: frozenset().union(*(p.lists.get(name, frozenset()) for p in parts)) for name in LISTS}
    patterns = {name: tuple(x for p in parts for x in p.patterns.get(name, ())) for name in PATTERNS}
    first = parts[0]
    affixes = {c: tuple(x for p in parts for x in p.affixes.get(c, ())) for c in {c for p in parts for c in p.affixes}}
    return Language(
        "+".join(codes),
        " / ".join(p.name for p in parts),
        first.script,
        first.stemmer,
        any(p.pro_drop for p in parts),
        concepts,
        phrases,
        lists,
        patterns,
        max(p.longest_phrase for p in parts),
        frozenset().union(*(p.vocabulary for p in parts)),
        affixes,
        {k: v for p in parts for k, v in p.extra_numbers.items()},
        {name: frozenset().union(*(p.claim.get(name, frozenset()) for p in parts)) for name in CLAIM_LISTS},
        first.locale,
        person_unmarked=all(p.person_unmarked for p in parts),
        impact={
            name: frozenset().union(*(p.impact.get(name, frozenset()) for p in parts))
            for name in IMPACT_LISTS
            if any(p.impact for p in parts)
        },
    )
