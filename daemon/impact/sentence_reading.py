"""One sentence of a person's message read in each language it may be in: its cues, and whether
what it says is left out (pure, no I/O; `daemon.impact.statements` reads a message's sentences
with it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from daemon.impact.again import recalls_agents_word
from daemon.impact.clauses import Words, negating, words_of
from daemon.impact.clauses import breaks as clause_breaks
from daemon.impact.complaint import excess, likened
from daemon.impact.cues import Cue, cues
from daemon.impact.echo import Answered
from daemon.impact.left_out import excluded, takes_it_on
from daemon.impact.naming import value
from daemon.impact.neighbours import Reading
from daemon.impact.pasted import pasted_output
from daemon.impact.reply import ends_asking, ends_asking_in_prose
from daemon.impact.sentences import sentences
from daemon.impact.setright import set_right
from daemon.impact.shapes import in_code
from daemon.text.keyboard import find
from daemon.text.language import Language, detect, script_of, within
from daemon.text.latin_reading import in_latin_letters
from daemon.text.mixed_scripts import in_each_script
from memory_engine.claim import reported_by_other

# Cues that say how this one task is to be done: not read in a message answering no turn of the
# agent's (the first of a session, or one right after the person's own), which states a task.
# "We deploy with make release now, not fab" there still sets a rule; a limit alone does not, nor
# an "instead" ("can ye make it output a pdf instead of the terminal thing": nothing of the
# agent's was there to set right).
OPENING_TASK = frozenset({"asked", "sequence", "precedent", "limit", "instead"})
# Listed typed words (`typed_in_latin.words`) a sentence in Latin letters says to be read so.
TYPED_WORDS = 2


def _in_latin_letters(text: str) -> bool:
    """Whether most letters of `text` are Latin ones."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and 2 * sum(script_of(c) == "latin" for c in letters) > len(letters)


def read_sentence(
    text: str,
    spans: list[tuple[int, int]],
    languages: tuple[Language | None, Language | None],
    turns: tuple[Answered, Callable[[], Answered]],
    before: str = "",
) -> Reading:
    """The sentence read in its own language, in that of the words of each script it holds,
    in the message's and in the session's usual one (`languages`: a short English sentence
    may look Polish — "We dropped jest."), a reading in Latin letters last: the cues of the
    first that has some, excluded if any reading excludes it; None if no language fits.
    `before` is the sentence before it on its line (a tool's message it may go on)."""
    readings: list[Language] = []
    # its words' language first (the person's, when they fit several alike: `within`); a sentence in
    # two scripts is also read in the language of each ("不要在commit里加emoji。")
    for lang in (within(detect([text]), *languages), *in_each_script(text), *languages):
        if lang is not None and all(lang.code != seen.code for seen in readings):
            readings.append(lang)
    # … and a sentence in Latin letters in the reading so typed of the person's language of another
    # script, saying TYPED_WORDS of the words it lists as typed ("w el 3omola 35 msh 30" among
    # Arabic; not "The demo went badly yesterday.", "badly" keyed as بدل, "instead")
    typed = [lang for lang in languages if lang is not None and lang.spelling is not None and lang.spelling.typed and not lang.keyed]
    if typed and _in_latin_letters(text):
        low = words_of(text).low
        for lang in typed:
            reading = in_latin_letters(lang.code)
            listed = sum(w in lang.spelling.typed for w in low) if lang.spelling is not None else 0
            if reading is not None and listed >= TYPED_WORDS and all(reading.code != seen.code for seen in readings):
                readings.append(reading)
    # a reading in Latin letters ("el-latn") comes last: a word it keys as its own ("auto",
    # "pote") is as often a word of the language the person usually writes in
    readings.sort(key=lambda lang: lang.keyed)
    best: Reading | None = None
    excluded = False
    for lang in readings:
        hits, out = _read(lang, text, spans, turns, tuple(readings))
        excluded = excluded or out
        if hits and best is None:
            best = Reading(lang, hits, False)
    if best is None:
        return Reading(readings[0] if readings else None, [], excluded)
    # … and what another reading says someone else said: a verb of saying of its language before
    # a colon, the cues after it ("caricato su glovo, dice: Row 12: price must always use a dot")
    others = [lang for lang in readings if lang is not best.language]
    if others and not excluded:
        said = words_of(text)
        excluded = any(_quoted_after(lang, text, said, best.cues) for lang in others)
    # a tool's English message pasted into a conversation in another language ("ERROR: never
    # retried (job=42)"), or one in any language ("ValueError: … never accepted"): `pasted.pasted_output`
    return Reading(best.language, best.cues, excluded or pasted_output(best.language, languages[1], text, best.cues, before))


def _read(
    lang: Language, text: str, spans: list[tuple[int, int]], turns: tuple[Answered, Callable[[], Answered]], readings: tuple[Language, ...] = ()
) -> tuple[list[Cue], bool]:
    """(cues, excluded) of the sentence in `lang`; a change of state counts only about a word
    of the agent's turn before (`turns`: it and the reply after, `daemon.impact.echo`), a value
    set right only when no language the sentence is read in (`readings`) finds it asks for work."""
    answered, replied = turns
    if not lang.impact:
        return [], False
    said = words_of(text)
    # a language typed in Latin letters ("Greeklish") is read with its words keyed as its lists
    # are (`Spelling.typed_key`), but for words in capitals: names ("USD" is not सदा, "sd")
    spelling = lang.spelling if lang.keyed else None
    words = replace(said, low=tuple(w if w in said.capitals else spelling.typed_key(w) for w in said.low)) if spelling else said
    found = cues(lang, text, words, spans)
    changes = [c for c in found if c.kind == "changed"]
    if changes and not answered.taken_up(text, lang, (w for c in changes for w in c.phrase.split())):
        found = [c for c in found if c.kind != "changed"]
    # a value of the agent's turn set right: "Rosario es AR-03." (`daemon.impact.setright`)
    found += [c for c in set_right(lang, text, said, answered, readings) if all(f.at != c.at for f in found)]
    # a complaint about the agent's turn: "way too long" (`daemon.impact.complaint`)
    found += excess(lang, text, words, answered) or likened(lang, text, words, answered)
    # "again" in a short sentence about a word of the agent's turn: "region again.", "backend
    # "local" שוב??" (`daemon.impact.again`); not someone else's ("Maria says UTC again")
    recalled = recalls_agents_word(lang, words, text, answered, replied)
    if recalled and reported_by_other(lang, text) is not None:
        recalled = []
    if not any(c.kind == "again" for c in found):
        found += [Cue("again", " ".join(p), i) for i, p in recalled]
    found = _answering(lang, words, found, answered)
    # a "no" that takes the work on declines what the agent asked about or offered ("no no, no
    # need to cc finance, I will forward myself"); said of what its turn did, taking up a word of
    # the message ("I committed it straight away": "no, I'll commit it myself"), it corrects
    if found and answered.text.strip() and takes_it_on(lang, text, words, found, spans) and not _did(lang, text, answered):
        found = []
    if not answered.text.strip():
        # "Hotfix please." or "Safety first!" opening a session is its task; "polars pls." or
        # "tsc first" answering the agent's turn says how it is to be done; so does a limit
        # given with the task ("lego-verkstad 21 feb, anmälan, max 25 barn")
        # (an "instead" that names the project it holds for is a rule there: "Use pnpm instead of
        # npm in this repo", `claim.project_deixis`)
        scoped = any(c.kind == "instead" for c in found) and bool(find(words.low, lang.claim.get("project_deixis", frozenset())))
        found = [c for c in found if c.kind not in OPENING_TASK or (c.kind == "instead" and scoped)]
        # … and so does a contrast said as "instead of" before a value ("shifts beginnen om 7:00
        # ipv 7:30", "Dienstbeginn 15:00 statt 16:00"): what is set for this time; not one said as
        # "not" ("We deploy with make release now, not fab"), nor one of a way of working
        # ("Antworte bitte auf Deutsch, statt auf Englisch", review helper-205)
        last_value = max((k for k in range(len(words.low)) if value(lang, words.low, k)), default=-1)
        found = [
            c for c in found
            if c.kind != "contrast" or scoped or any(negating(lang, w) for w in c.phrase.split()) or last_value < c.at
        ]
        # … and the "always" of "as always" in a sentence that gives values recalls how the task
        # is done ("R$ 890 como sempre, boleto + pix", "принтер зебра як завжди на 192.168.1.40");
        # not "as always, run the tests before you commit" (review helper-205), nor answering the
        # agent, where it reminds of a rule ("Amounts in EUR, as always.")
        as_usual = {i + k for i, p in find(words.low, lang.impact.get("precedent", frozenset())) for k in range(len(p))} if last_value >= 0 else set()
        found = [c for c in found if not (c.kind == "standing" and c.at in as_usual)]
        # … and so does a wish for the work (`wish`: "quiero que las citas se pasen a la tabla",
        # "อยากให้ alert เด้งเข้า LINE"; not a "don't", "件名の【】もやめてもらえますか？"), still read
        # to tell a rule beside it from a supposition ("I'd like you to always answer in German")
        wishes = lang.impact.get("wish", frozenset())
        kept = [c for c in found if not (c.kind == "preference" and tuple(c.phrase.split()) in wishes)]
        return kept, bool(kept) and excluded(lang, text, words, found, spans, again=bool(recalled))
    return found, bool(found) and excluded(lang, text, words, found, spans, again=bool(recalled))


def _answering(lang: Language, words: Words, found: list[Cue], answered: Answered) -> list[Cue]:
    """The cues of a sentence but a "no" opening the answer to the agent's question, which
    answers it ("Mám to rovnou commitnout?" "ne, to si commitnu sam"): what follows it is read
    for cues of its own. Only a "no" (`answer_no`), not "wrong" nor "incorrect"; and it still
    corrects told of what was done (a verb in the past: "Done — emailed the whole team.
    Anything else?" "No, that was only for Maria.") or with a value the person does not take on
    themselves (a number, a name in code, no "I": "…in us-east-1?" "No, eu-west-1."; not "No,
    I'll commit it myself in 10 minutes.")."""
    answers = lang.impact.get("answer_no", frozenset())
    noes = [c for c in found if c.kind == "correction" and tuple(c.phrase.split()) in answers]
    if not noes or not ends_asking_in_prose(answered.text):
        return found
    mine = lang.lists.get("first_person", frozenset())
    valued = any(in_code(w) for w in words.low) and mine.isdisjoint(words.low)
    if valued or any(lang.matches("past_forms", w) for w in words.low):
        return found
    return [c for c in found if c not in noes]


def _did(lang: Language, text: str, answered: Answered) -> bool:
    """Whether the agent's turn, but for a question closing it, takes up a word of the sentence:
    it did what the sentence is about ("Forwarded the invoice to finance. Anything else?"), where
    "Invoice drafted. Want me to forward it to finance too?" only offers it."""
    said = [s.text for s in sentences(answered.text)]
    if said and ends_asking(said[-1]):
        said.pop()
    return bool(said) and bool(Answered(" ".join(said)).taken_up(text, lang))


def _quoted_after(lang: Language, text: str, words: Words, found: list[Cue]) -> bool:
    """Whether a verb of saying of `lang` (`claim.reported`) stands right before a colon, every cue
    after it: "dice: Row 12: price must always use a dot", "il capo dice: …" give someone else's
    words. Not the person's own: the person ("I", a subject pronoun not of the plural) before it
    in its clause with no one else nor an "and" between ("ich sagte:", "я же сказал:", "zoals ik
    al zei:"), or a reminder said so ("já disse:"; not "o cliente já disse:", "мне начальник
    сказал:"). Read in one pass over the words."""
    first = min(c.at for c in found)
    theirs = lang.impact.get("third_person", frozenset()) | lang.claim.get("others", frozenset())
    joining = lang.lists.get("conjunctions", frozenset())
    low = words.low
    # who speaks at each word, since its clause opened: the person, someone else, or no one said
    speaker: list[str | None] = []
    state: str | None = None
    cut = set(clause_breaks(text, words))
    reminding = {i for i, _ in find(low, lang.impact.get("reminder", frozenset()))}
    others = {i for i, _ in find(low, theirs)}
    for i, w in enumerate(low[:first]):
        if i in cut:
            state = None
        if i in others or w in joining:
            state = "theirs"
        elif w in lang.person_alone or (i in reminding and state != "theirs"):
            state = "mine"
        speaker.append(state)
    for at, phrase in find(low, lang.claim.get("reported", frozenset())):
        end = at + len(phrase)
        if end > first or not text[words.spans[end - 1][1] :].lstrip().startswith((":", "：")):
            continue
        if speaker[at] != "mine":
            return True
    return False
