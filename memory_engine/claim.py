"""Does a quote *assert* its fact? The claim check, after grounding (pure, no I/O).

Grounding (`fact_grounding`) asks whether the value's words are in the quote; this asks
what the quote does with them, through the text layer, in the quote's language
(`daemon.text.language.detect`; its data file's `words:` and `claim:` lists):

| reason | the quote … | for example |
| --- | --- | --- |
| `quoted` | stands inside pasted or injected text: a code fence, a block quote, an e-mail's headers or forwarded part, a tag block the runtime or the user pasted | "> I live in Oslo", `<memory>user lives in Paris</memory>` |
| `recalled` | stands inside a recalled-memory block | `<memory>…</memory>`, `<recall>…</recall>` |
| `question` | is (in) a question | "Should I move to Lisbon?" |
| `negated` | negates the clause that holds the value | "I don't live in Berlin anymore" |
| `hypothetical` | is a condition, a wish or a supposition | "If I moved to Oslo …", "I'd love to live in Rome" |
| `roleplay` | sets up a role-play | "Pretend I live in Tokyo" |
| `tentative` | hedges | "maybe", "I think", "not sure" |
| `past_state` | says the state is over | "I used to run Arch", "no longer" |
| `reported` | reports someone else's words | "my doctor says I should …" |
| `joke` | laughs or says it is joking; or gives the person's pet, kind or home as a thing no one has, is or lives on (`claim.impossible`, for the keys of `HAS_OR_IS` and `LIVES`) | "lol", "just kidding", "😂", "Mein Haustier ist ein Drache" |
| `request` | asks the agent for something | "Can you book a hotel in Lisbon" |
| `other_subject` | is about someone the user names, not the user | "My uncle lives in Quito" |
| `not_the_user` | is the assistant's or a tool's words about the user (`distillation`) | "I'll assume you're on London time" |

A refusal is a reason code the refused log keeps (`memory refused`). A quote in no language
with a data file gets no claim reading: grounding already refuses a fact about the user
there (no first person can be read), and a fact about another entity passes as before.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from daemon.text.cldr import language_names
from daemon.text.keyboard import find
from daemon.text.language import Language
from daemon.text.lexicon import lemma, phrase_at
from daemon.text.stems import stem
from daemon.text.unicode_words import segment, spaceless

FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
# A tag block: <name ...> … </name> (recalled memory, system reminders, pasted documents).
TAG_BLOCK = re.compile(r"<([A-Za-z][\w:-]*)(?:\s[^>]*)?>.*?(?:</\1\s*>|\Z)", re.S)
RECALL_TAGS = re.compile(r"memor|recall|remember|context", re.I)
QUOTE_LINE = re.compile(r"(?m)^[ \t]*>.*$")
# The headers that open a pasted e-mail or a forwarded message; all after them is the document.
MAIL_HEADER = re.compile(
    r"(?im)^[ \t]*(?:from|to|subject|cc|date|de|an|von|betreff|objet|asunto|oggetto|assunto|от|тема)\s*:.*$"
    r"|^-{2,}\s*(?:original message|forwarded message|weitergeleitete nachricht|message transféré)\s*-*\s*$"
)
# What ends a clause before a question mark: "since I live in Bologna now, the train is
# cheap: can you find me one?" asks only after the colon.
CLAUSE_BREAK = re.compile(r"[:;—–、，；：]|\s-\s")
SHORT_SENTENCE = 3  # words: "Kidding.", "Scherzo!", "just kidding lol"
CLAUSE = re.compile(r"[,;:—–、，；：]|\bbut\b|[.!?。！？]")
# Laughing, winking and tongue-out faces: 😂 🤣 😜 😝 😉 🙃 😆 😄 😅 🤪 😹
JOKE_EMOJI = re.compile("[\U0001f602\U0001f923\U0001f61c\U0001f61d\U0001f609\U0001f643\U0001f606\U0001f604\U0001f605\U0001f92a\U0001f639]")
# A separator line or a letter's salutation: what follows is a pasted document.
PASTED_START = re.compile(r"(?m)^[ \t]*(?:[-=_*]{3,}[ \t]*$|(?:dear|hi|hello|liebe[rs]?|sehr geehrte[rs]?|cher|chère|bonjour|estimad[oa]s?|querid[oa]s?|gentile|caro|cara|beste|szanown[aiy]|уважаем\w*|дорог\w*)\b[^\n]{0,60},[ \t]*$)", re.I)
# Quotation marks around someone's words: "…", “…”, „…“, «…», 「…」, 『…』.
QUOTED = re.compile(r'"[^"\n]+"|“[^”\n]+”|„[^“”\n]+[“”]|«[^»\n]+»|「[^」]+」|『[^』]+』')
# The keys of a person's own circumstances, by a part of the key (home_city, pet_type): what
# they have or are, and where they live. A value there that names a thing no one has, is or
# lives on (`claim.impossible`) is a joke; an employer, a project, a team or a plan may be named
# "Phoenix", "Unicorn" or "Mars", and a key naming a name (pet_name) holds one.
HAS_OR_IS = frozenset({"pet", "pets", "animal", "animals", "species"})
LIVES = frozenset({"home", "house", "city", "town", "village", "residence", "location", "address", "country", "hometown", "planet", "lives"})


@dataclass(frozen=True)
class Refusal:
    code: str
    detail: str


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def _inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(a <= start and end <= b for a, b in spans)


def _placed(message: str, quote: str) -> Refusal | None:
    """Why the quote's place in the user's message is not the user speaking, or None."""
    text = unicodedata.normalize("NFC", message)
    at = text.casefold().find(unicodedata.normalize("NFC", quote).casefold().strip())
    if at < 0:
        return None
    end = at + len(quote.strip())
    for match in TAG_BLOCK.finditer(text):
        if match.start() <= at and end <= match.end():
            if RECALL_TAGS.search(match.group(1)):
                return Refusal("recalled", f"the quote stands inside a recalled-memory block <{match.group(1)}>")
            return Refusal("quoted", f"the quote stands inside a pasted <{match.group(1)}> block")
    if _inside(_spans(FENCE, text), at, end):
        return Refusal("quoted", "the quote stands inside a code block")
    if _inside(_spans(QUOTE_LINE, text), at, end):
        return Refusal("quoted", "the quote stands inside a block quote")
    header = MAIL_HEADER.search(text)
    if header is not None and header.start() <= at:
        return Refusal("quoted", "the quote stands in a pasted e-mail or forwarded message")
    pasted = PASTED_START.search(text)
    if pasted is not None and pasted.start() <= at:
        return Refusal("quoted", "the quote follows a separator or a letter's salutation: pasted text")
    if _inside(_spans(QUOTED, text), at, end):
        return Refusal("quoted", "the quote stands inside quotation marks: someone else's words")
    # The sentence holding the quote: a question?
    rest = text[end:]
    closing = re.search(r"[.!?。！？\n]", rest)
    if closing is not None and closing.group(0) in "?？" and not CLAUSE_BREAK.search(rest[: closing.start()]):
        return Refusal("question", "the quote is a question")
    if quote.rstrip().endswith(("?", "？")):
        return Refusal("question", "the quote is a question")
    return None


def apart_spans(message: str) -> list[tuple[int, int, str]]:
    """(start, end, reason) of every part of `message` (NFC) that is not the person's own
    words, by the rules `_placed` reads: tag blocks, code fences, block quotes, a pasted
    e-mail or letter (to the end), quotation marks. Reason: "recalled" or "quoted"."""
    text = unicodedata.normalize("NFC", message)
    found = [(m.start(), m.end(), "recalled" if RECALL_TAGS.search(m.group(1)) else "quoted") for m in TAG_BLOCK.finditer(text)]
    found += [(a, b, "quoted") for pattern in (FENCE, QUOTE_LINE, QUOTED) for a, b in _spans(pattern, text)]
    found += [(m.start(), len(text), "quoted") for m in (MAIL_HEADER.search(text), PASTED_START.search(text)) if m]
    return found


def reported_by_other(lang: Language, text: str) -> str | None:
    """The verb of saying in `text` whose speaker is not the user ("my colleague says …"), or None."""
    return _reported(lang, text, _words(text))


def _sentence(message: str, quote: str, with_short_next: bool = False) -> str:
    """The quote and the rest of its sentence in `message` ("I live on the moon lol"); with
    `with_short_next`, also a short sentence after it ("I use Emacs. Kidding.")."""
    at = message.casefold().find(quote.casefold().strip())
    if at < 0:
        return quote
    rest = message[at:]
    end = re.search(r"[.!?。！？\n]", rest[len(quote.strip()) :])
    if end is None:
        return rest
    cut = len(quote.strip()) + end.end()
    if with_short_next:
        after = re.match(r"[^.!?。！？\n]*[.!?。！？\n]?", rest[cut:])
        if after is not None and 0 < len(_words(after.group(0))) <= SHORT_SENTENCE:
            cut += after.end()
    return rest[:cut]


def _a_language(value: str, lang: Language) -> bool:
    """Whether `value` names a language, in English or in `lang` (CLDR)."""
    name = " ".join(value.casefold().split())
    local = language_names(lang.locale or lang.code)
    return name in local or name in local.values()


def _retraction(lang: Language, sentence: str) -> str:
    """`sentence` without a humour marker that opens it ("Kidding, I use Vim", "Scherzo, uso
    Vim"): such a marker takes back what came before, not what follows."""
    match = re.match(r"\s*([^,:!.;—–]+)[,:!.;—–]\s*", sentence)
    if match is not None and _has(lang, match.group(1), _words(match.group(1)), lang.claim.get("humour", frozenset())):
        words = _words(match.group(1))
        if len(words) <= SHORT_SENTENCE:
            return sentence[match.end() :]
    return sentence


def _in_role(lang: Language, message: str, quote: str) -> str | None:
    """The role-play set-up the quote stands in: one said before the quote's end and not
    closed before it ("out of character: I'm in Houston"), or None."""
    text = unicodedata.normalize("NFC", message)
    at = text.casefold().find(unicodedata.normalize("NFC", quote).casefold().strip())
    end = len(text) if at < 0 else at + len(quote.strip())
    opened = _last(lang, text[:end], lang.claim.get("roleplay", frozenset()))
    if opened is None:
        return None
    closed = _last(lang, text[:end], lang.claim.get("roleplay_end", frozenset()))
    # "breaking character" closes the play; its "character" opens none
    if closed is not None and opened[0] < closed[0] + len(closed[1].split()):
        return None
    return opened[1]


def _last(lang: Language, text: str, phrases: frozenset[tuple[str, ...]]) -> tuple[int, str] | None:
    """(word position, phrase) of the last of `phrases` said in `text`, or None."""
    low = _words(text)
    found: tuple[int, str] | None = None
    for phrase in phrases:
        size = len(phrase)
        for i in range(len(low) - size + 1):
            if tuple(low[i : i + size]) == phrase and (found is None or i >= found[0]):
                found = (i, " ".join(phrase))
        joined = "".join(phrase)
        if joined and spaceless(joined[0]) and (place := text.rfind(joined)) >= 0:
            position = len(_words(text[:place]))
            if found is None or position >= found[0]:
                found = (position, joined)
    return found


def _reported(lang: Language, text: str, low: list[str]) -> str | None:
    """A verb of saying whose speaker is not the user ("my mum tells everyone …"; "I told
    you, we deploy on Fridays" is the user's own word)."""
    pronouns = lang.claim.get("subject_pronouns", frozenset())
    phrases = lang.claim.get("reported", frozenset())
    for i, phrase in find(tuple(low), phrases):
        if not (i > 0 and (low[i - 1],) in pronouns):
            return " ".join(phrase)
    return _unspaced(text, phrases)


def _words(text: str) -> list[str]:
    return [w.text.casefold().replace("’", "'").removesuffix("'s") for w in segment(text)]


def _has(lang: Language, text: str, low: list[str], phrases: frozenset[tuple[str, ...]]) -> str | None:
    """The first of `phrases` said in `text` (words `low`; typed without accents too:
    `keyboard.find`), as written in the list, or None."""
    hits = find(tuple(low), phrases)
    return " ".join(hits[0][1]) if hits else _unspaced(text, phrases)


def _unspaced(text: str, phrases: frozenset[tuple[str, ...]]) -> str | None:
    """The first of `phrases` of a script written without spaces found in `text`, or None."""
    for phrase in phrases:
        joined = "".join(phrase)
        if joined and spaceless(joined[0]) and joined in text:
            return joined
    return None


def phrases_of(lang: Language, name: str) -> frozenset[tuple[str, ...]]:
    """A `words`-level list of the data file (hedges …) as phrases."""
    return frozenset(tuple(_words(item)) for item in lang.words(name))


def _negated(lang: Language, clause: list[str], text: str) -> bool:
    negations = {"negation", "never", "negation_concord", "never_concord", "forbid", "dislike", "disable"}
    for i, word in enumerate(clause):
        concepts, _used = phrase_at(lang, clause, i)
        if set(concepts) & negations or set(lang.concepts.get(word, ())) & negations:
            return True
        if lang.matches("negation_affixes", word):
            return True
    return any(p.search(text) for p in lang.patterns.get("negation_patterns", ()))


def _value_clause(quote: str, value: str) -> str:
    """The clause of `quote` that holds the value (the whole quote when no clause holds it whole)."""
    folded_value = value.casefold()
    for clause in CLAUSE.split(quote):
        if folded_value and folded_value in clause.casefold():
            return clause
    return quote


def _other_subject(lang: Language, low: list[str], key: str) -> str | None:
    """"my uncle …", "moja żona …", "ο θείος μου …": a possessive beside a person, and no
    subject "I" or "we" (a pronoun, or in a language that drops them, a first-person verb)."""
    pronouns = lang.claim.get("subject_pronouns", frozenset())
    others = lang.claim.get("others", frozenset())
    # a pronoun right before a person is that person's possessive: Czech "my" (we) read
    # together with English (`merged`) must not make "my friend" the subject
    subjects = [
        part for i, word in enumerate(low) if not (i + 1 < len(low) and (low[i + 1],) in others)
        for part in (word, *word.split("'"))
    ]
    if any((w,) in pronouns for w in subjects):
        return None
    possessives = lang.words("first_person") | lang.words("first_person_plural")
    # the fact's key naming that person is the user's own relation: "My cat is Ren" (user.cat)
    named = {stem(part, lang.stemmer) for part in re.split(r"[._\-\s]+", key.casefold()) if part}
    for i, word in enumerate(low):
        if (word,) not in others or stem(word, lang.stemmer) in named:
            continue
        # the possessive before the person (my uncle) or after it (onkelen min, ο θείος μου)
        near = low[max(0, i - 2) : i] + low[i + 1 : i + 3]
        owner = next((w for w in near if w in possessives), None)
        # a first-person verb before that person makes the user the subject ("Vivo con mi
        # hermano"); after it, the person is ("I miei genitori sono a Roma")
        if owner is not None and not any(_first_person_verb(lang, w) for w in low[:i]):
            return f"{owner} {word}"
    return None


def _first_person_verb(lang: Language, word: str) -> bool:
    return word in lang.words("first_person_verbs") or (lang.pro_drop and lang.matches("first_person_endings", word))


def _circumstance(key: str) -> str | None:
    """"has_or_is" or "lives" for a key of the person's own circumstances (`HAS_OR_IS`,
    `LIVES`), else None."""
    parts = {part for part in re.split(r"[^\w]+|_", key.casefold()) if part}
    if "name" in parts or "names" in parts:
        return None
    if parts & HAS_OR_IS:
        return "has_or_is"
    return "lives" if parts & LIVES else None


def _impossible(lang: Language, clause_text: str, value: str, lives: bool) -> str | None:
    """The words of `clause_text` that say the value is a thing no one has, is or lives on
    (an entry of `claim.impossible`, compared by `lemma`: "ein Drache", "on the moon"), or None.

    The value must be that thing whole: "Moon Street", "Mars Inc." and "Team Unicorn" are
    other things. A lone listed word written with a capital is a name ("Phoenix", "a pet
    called Dragon"), which is why German, capitalising every noun, lists its nouns with their article
    ("ein drache"); and where one lives, a lone word is a place's name whatever its case ("i
    live in phoenix"): a celestial home is said with its preposition ("on the moon", "auf dem
    Mond", "na Księżycu")."""
    wanted = [lemma(w, lang) for w in _words(value) if w not in lang.function_words]
    if not wanted:
        return None
    shown = [w.text for w in segment(clause_text)]
    said = [lemma(w, lang) for w in _words(clause_text)]
    for phrase in sorted(lang.claim.get("impossible", frozenset()), key=lambda p: (-len(p), p)):
        if lives and len(phrase) == 1:
            continue
        forms = tuple(lemma(w, lang) for w in phrase)
        joined = "".join(phrase)
        if spaceless(joined[0]):
            # no spaces to segment by: the phrase is found in the text, the value in the phrase
            if joined in clause_text and all(w in joined for w in wanted):
                return joined
            continue
        if not all(w in forms for w in wanted):
            continue
        size = len(phrase)
        for i in range(len(said) - size + 1):
            if tuple(said[i : i + size]) == forms and not (size == 1 and shown[i][:1].isupper()):
                return " ".join(shown[i : i + size])
    return None


def assess(
    quote: str, value: str, message: str, lang: Language | None, about_user: bool, key: str = ""
) -> Refusal | None:
    """Why `quote` (citing `value` for `key`, inside the user's `message`) does not assert its
    fact, or None if it does (see the module docstring). `about_user`: the fact's entity is the
    user; a key naming the person ("friend", "cat") makes "my friend …" the user's own fact."""
    placed = _placed(message, quote)
    if placed is not None:
        return placed
    if lang is None:
        return None
    whole = _words(quote)
    text = unicodedata.normalize("NFC", quote)
    clause_text = _value_clause(text, value)
    clause = _words(clause_text)
    claim = lang.claim
    if (found := _in_role(lang, message, quote)) is not None:
        return Refusal("roleplay", f"the message sets up a role-play (“{found}”)")
    sentence = _retraction(lang, _sentence(message, quote, with_short_next=True))
    humour = _has(lang, sentence, _words(sentence), claim.get("humour", frozenset()))
    if humour is not None or JOKE_EMOJI.search(sentence):
        return Refusal("joke", f"the quote's sentence jokes (“{humour or 'an emoji'}”)")
    # the value's own words ("no restrictions") are not a negation of the claim
    own = set(_words(value))
    # a value that is itself a negation ("no red meat") takes the quote's "don't" as its own
    negative_value = any(_negated(lang, [w], "") for w in own)
    rest = re.sub(re.escape(value), " ", clause_text, flags=re.I) if value.strip() else clause_text
    if not negative_value and _negated(lang, [w for w in clause if w not in own], rest):
        return Refusal("negated", "the quote negates the clause that holds the value")
    if (found := _has(lang, text, whole, claim.get("hypothetical", frozenset()))) is not None:
        return Refusal("hypothetical", f"the quote is a condition, a wish or a supposition (“{found}”)")
    if (found := _has(lang, text, whole, phrases_of(lang, "hedges"))) is not None:
        return Refusal("tentative", f"the quote hedges (“{found}”)")
    if (found := _has(lang, text, whole, claim.get("past_state", frozenset()))) is not None:
        return Refusal("past_state", f"the quote says the state is over (“{found}”)")
    if (found := _reported(lang, text, whole)) is not None:
        return Refusal("reported", f"the quote reports someone else's words (“{found}”)")
    # a standing instruction ("from now on …", "ab jetzt …") and asking to be answered in a
    # language ("escreve-me em português, por favor") are the person's preferences, not
    # errands; "book me a hotel in Lisbon" is one
    standing = _has(lang, text, whole, claim.get("standing", frozenset())) is not None
    if not (standing or _a_language(value, lang)) and (found := _has(lang, text, whole, claim.get("request", frozenset()))) is not None:
        return Refusal("request", f"the quote asks for something (“{found}”)")
    if about_user and (found := _other_subject(lang, clause, key)) is not None:
        return Refusal("other_subject", f"the quote is about someone else (“{found}”)")
    circumstance = _circumstance(key) if about_user else None
    if circumstance is not None and (found := _impossible(lang, clause_text, value, circumstance == "lives")) is not None:
        if circumstance == "lives":
            return Refusal("joke", f"the value is not a place a person lives in or on (“{found}”)")
        return Refusal("joke", f"the value is not something a person has or is (“{found}”)")
    return None
