"""How the sentences of one message lean on each other (pure, no I/O;
docs/explanation/impact.md#one-message-several-sentences): a lone "No." opens the statement
after it, a recall takes in what it recalls ("Region again. eu-west-1."), two sentences read
as one keep each cue once, and a sentence that opens with "and" beside a statement is another
point of it (`points`: "och starta inte om poddar bara för att", after a name set right); a
recall that says nothing else takes in the question before it that recalls too
(`asked_again`: "опять промокоды? я же просил.").
"""

from __future__ import annotations

from dataclasses import dataclass

from daemon.impact.amends import approves
from daemon.impact.clauses import words_of
from daemon.impact.content import content
from daemon.impact.cues import Cue, said
from daemon.impact.left_out import RECALLING, asks, excluded
from daemon.impact.sentences import Apart, Sentence
from daemon.impact.setright import asking
from daemon.text.keyboard import find
from daemon.text.language import Language

# Characters of the sentence after a recall it may take in: what is said again, not a letter.
CONTINUATION = 200
# The cue of another point, its phrase the word that joins it ("og", "and", "e").
POINT = "also"
# Points one message may add to its statements: more are a pasted list ("and …" line after line).
MANY = 5


@dataclass(frozen=True)
class Reading:
    language: Language | None  # None: no language with a data file fits, or the sentence is apart
    cues: list[Cue]
    excluded: bool


Read = list[tuple[Sentence, Reading]]


def beside(text: str, before: Sentence, after: Sentence) -> bool:
    """Whether two sentences stand in one paragraph (no blank line between them)."""
    return "\n\n" not in text[before.end : after.start]


def joined(before: list[Cue], after: list[Cue]) -> list[Cue]:
    """The cues of two sentences read as one statement, each kind and phrase once: a message of
    thousands of "Again." is one statement, and its cues do not grow with it."""
    seen = {(c.kind, c.phrase) for c in before}
    return [*before, *(c for c in after if (c.kind, c.phrase) not in seen)]


def lone(reading: Reading, sentence: Sentence, lang: Language) -> bool:
    """Whether a statement's sentence is a correction opener and nothing else ("No.", "Nope!";
    "no no." read as a prohibition too), or a complaint and nothing else ("trop long.", "Way
    too much!"): what is wanted follows."""
    if all(c.kind == "excess" for c in reading.cues):
        low = words_of(sentence.text).low
        taken = {i for c in reading.cues for i in range(c.at, c.at + len(c.phrase.split()))}
        return all(i in taken or w in lang.function_words for i, w in enumerate(low))
    return all(c.kind in ("correction", "prohibition") for c in reading.cues) and not content(sentence.text, lang).stems


def continued(text: str, read: Read, k: int, lang: Language) -> bool:
    """Whether the sentence after the `k`th continues it (`continues`)."""
    return k + 1 < len(read) and continues(text, read[k][0], *read[k + 1], lang)


def asked_again(text: str, read: Read, k: int, spans: Apart, lang: Language) -> bool:
    """Whether the recall that is the `k`th sentence, saying nothing else, takes in the sentence
    before it, left out as a question: one that recalls too ("опять промокоды? я же просил.",
    "Emojis in the titles again?? I told you."), the person's (not set apart: a quoted line),
    when no sentence after says what is recalled ("Are you doing this again? I told you. The
    staging host is stage-2.")."""
    before, reading = read[k - 1]
    recalls = bool(reading.cues) and all(c.kind in RECALLING for c in reading.cues)
    return recalls and not spans.holds(before) and asks(lang, before.text, words_of(before.text)) and not continued(text, read, k, lang)


def continues(text: str, sentence: Sentence, after: Sentence, reading: Reading, lang: Language) -> bool:
    """Whether `after` says what a recall `sentence` (in `lang`) recalls: the person's, with no
    cue of its own, not dismissing it ("Emojis again! Whatever."), not asking ("… i gdzie
    terminy na gorze?" complains of something else), beside it, and short (CONTINUATION)."""
    # (a sentence read only as saying more beside a statement says what this one recalls)
    if any(c.kind != "reworked" for c in reading.cues) or reading.excluded or len(after.text) > CONTINUATION:
        return False
    words = words_of(after.text)
    dismissal = lang.impact.get("dismissal", frozenset())
    return not said(lang, words, dismissal) and not asks(lang, after.text, words) and beside(text, sentence, after)


# The cues of a statement that sets a rule, beside which "and …" is another rule in a message
# answering no turn of the agent's (`points`, `ruled`)
RULES = frozenset({"standing", "preference", "stop"})


def points(text: str, read: Read, spans: Apart, languages: tuple[Language | None, ...], ruled: bool = False) -> Read:
    """The readings with each sentence of no cue that is another point of the last statement
    before it in its paragraph (MANY at most): it opens with a connective (`connectives`: "and", "og", "e", "і") of its
    own language that the message's, the session's or that statement's language also has ("de"
    is Turkish "and" but not Portuguese, "a" Czech "and" but a Portuguese article); it asks for
    nothing (`politeness`, `claim.request`), goes on to no next step, tells no plan of the
    person's (`_goes_on`) and praises nothing (`amends.approves`), and it is no question nor
    anything else `left_out` leaves out. "cpr-numre går kun via e-Boks. og breve
    til kunder: kort." are two points; so are "Bosch ми не беремо. і ми на Городоцькій 142".
    `ruled`: only after a statement that sets a rule (`RULES`: "svar alltid på norsk. og hold
    svarene korte."), as in a message answering no turn of the agent's, where "and" after a
    detail of the task adds to the task ("… keine Anzahlung. Und dazu eine kurze Mail an beide")."""
    found = list(read)
    points_found = 0
    last: Reading | None = None  # the last statement of the paragraph so far
    for k, (sentence, reading) in enumerate(read):
        if k and not beside(text, read[k - 1][0], sentence):
            last = None  # a blank line: a new paragraph
        statement, last = last, (reading if reading.cues and not reading.excluded else last)
        lang = reading.language
        if statement is None or lang is None or reading.cues or reading.excluded or spans.holds(sentence):
            continue
        if ruled and not any(c.kind in RULES for c in statement.cues):
            continue
        words = words_of(sentence.text)
        if not words.low or words.low[0] not in lang.words("connectives"):
            continue
        known = [x for x in (*languages, statement.language) if x is not None]
        if not any(words.low[0] in x.words("connectives") for x in known):
            continue
        # … and it asks for nothing ("and please fix the typo", "and can you check the CI"),
        # goes on to no next step ("and then merge PR 88"), tells no plan or news of the
        # person's ("and I'll review it on Monday", "also, I'm off on Friday") and thanks or
        # praises nothing ("and thanks for the quick fix")
        if find(words.low, asking(lang)) or approves(lang, sentence.text, words) or _goes_on(lang, words.low[1:2]):
            continue
        cue = [Cue(POINT, words.low[0], 0)]
        if excluded(lang, sentence.text, words, cue, spans.around(sentence)):
            continue
        found[k] = (sentence, Reading(lang, cue, False))
        points_found += 1
    # more than MANY points in one message is a pasted list, not points the person added
    return list(read) if points_found > MANY else found


def _goes_on(lang: Language, second: tuple[str, ...]) -> bool:
    """Whether the word after a point's connective is a next step (`then`: "and then …") or the
    person as subject ("I", "I'll", "jag": `claim.subject_pronouns`, not "we")."""
    return bool(second) and (second[0] in lang.person_alone or bool(find(second, lang.impact.get("then", frozenset()))))
