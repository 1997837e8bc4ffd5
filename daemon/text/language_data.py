"""The languages' data files (`daemon/text/languages/<code>.yaml`), read into `Language`s: what
no Unicode library knows of a language's words — negations and concord words, obligation and
permission, conditions, polarity pairs, first-person forms, particles, stopwords, hedges, the
lists of the claim check and of impact (docs/how-to/add-a-language.md). `daemon.text.language`
tells which of them a text is written in.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
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
from daemon.text.unicode_words import words

SCRIPTS = ("latin", "cyrillic", "greek", "han", "kana", "hangul", "arabic", "hebrew", "devanagari", "thai")
# The concepts a data file's `words:` may list; the code decides what each one means (the
# meaning tokens of `daemon.text.meaning`), the file says how the language writes it.
WEEKDAYS = cldr.WEEKDAYS
MONTHS = cldr.MONTHS
CONCEPTS = frozenset(
    ["negation", "negation_concord", "never", "never_concord", "forbid", "dislike", "disable", "must", "should", "may", "usually", "sometimes", "rarely", "only", "except", "if", "unless", "prefer", "allow", "enable", "more", "less", "before", "after", "increase", "decrease", "more_with_number", "less_with_number", "percent", "public", "private", "internal", "external", "staging", "production", "development", "test", "qa", "sandbox", "preprod", "canary", "local", "today", "tomorrow", "yesterday", "tonight", "weekend", "weekday", "morning", "afternoon", "evening", "noon", "midnight", "daily", "weekly", "fortnightly", "monthly", "quarterly", "yearly", "hourly", "nightly", "twice", "thrice", "half"]
) | frozenset(WEEKDAYS) | frozenset(MONTHS)
LISTS = (
    "first_person", "first_person_plural", "first_person_verbs", "stopwords", "connectives", "conjunctions", "hedges",
    "openers", "not_numbers", "not_calendar", "not_language_names", "elisions", "abbreviations", "particles", "meaning_particles_excluded", "and_prefixes", "letters",
    "short_endings", "space_continues", "space_ends_after", "space_ends_before",
)  # fmt: skip
PATTERNS = ("negation_affixes", "negation_patterns", "first_person_endings", "past_forms", "imperative_forms", "present_forms", "reminder_endings", "reminder_endings_closing", "prohibited_forms")
# What a statement is, beyond its words (`memory_engine.claim`): lists under `claim:`.
CLAIM_LISTS = (
    "subject_pronouns", "others", "hypothetical", "roleplay", "roleplay_end", "past_state", "reported", "humour",
    "request", "since", "project_deixis", "standing", "impossible",
)
# What the person says to correct the agent or to set a rule (daemon/impact/cues.py): lists
# under `impact:`. A language without the section has no impact detection.
IMPACT_LISTS = (
    "correction_openers", "prohibition_openers", "stop_openers", "contrast", "contrast_after", "contrast_before_name", "instead", "reminder",
    "again", "standing", "preference", "address", "house", "closing", "closing_clause", "limit", "changed", "one_off", "agreement", "lead_ins", "humour",
    "question_endings", "second_person", "vocative", "past_time", "dismissal", "own_slip", "spelled_with", "politeness", "first", "then", "every", "prohibiting", "prohibiting_after", "third_person", "precedent", "excess", "amended", "redone",
    "amended_closing", "sympathy", "kidding", "approval", "several", "brief", "thus", "but", "answer_no", "looks", "likened",
    "request_question", "request_question_closing", "quoting", "wish", "documented", "own_doing",
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
    def person_alone(self) -> frozenset[str]:
        """The one-word subject pronouns of the person alone ("I", "ich", "я"; not "we", which
        states a house's way as often): the words that make a clause the person's own saying or
        plan (read per word, kept once)."""
        plural = self.words("first_person_plural")
        return frozenset(p[0] for p in self.claim.get("subject_pronouns", frozenset()) if len(p) == 1 and p[0] not in plural)

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
def in_every_language(key: str) -> frozenset[str]:
    """The words of the top-level list `key` of every language with a file, as one set:
    `abbreviations` ("e.g", "z.b": a full stop after one does not end a sentence),
    `space_continues` (Japanese "は", "から": an ideographic space after one goes on with the
    sentence), `space_ends_after` (Thai "ค่ะ", Chinese "啦": a half-width space after one ends it),
    `space_ends_before` (Chinese "然後", Thai "แล้ว": one before it does)."""
    return frozenset().union(*(lang.words(key) for lang in known().values()))


def abbreviations() -> frozenset[str]:
    """The abbreviations of every language with a file (casefolded, without their last dot:
    "e.g", "etc", "z.b"): a full stop after one does not end a sentence."""
    return in_every_language("abbreviations")
