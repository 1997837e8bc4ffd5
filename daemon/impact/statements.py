"""The sentences of a person's message that correct the agent, state a preference or set a
standing instruction (pure, no I/O; docs/explanation/impact.md).

A sentence is a statement when it holds a cue of its language (`daemon.impact.cues`) and
none of what makes it something else:

| left out | because the sentence … | for example |
| --- | --- | --- |
| question | asks, unless it asks for a rule as a request does (`left_out.requests`: "could you always …?") | "Should we always run the tests first?" |
| agreement | agrees or declines after an opening "no" | "No, that's fine", "no, l'assicurazione non serve" |
| declined | holds only an opening "no" and the agent's reply changes nothing of its work nor takes it up in words (`untaken`) | "nah, they just churn" / "OK, no snapshot tests." |
| one-off | asks for this once | "Use the staging DB this time" |
| dismissal | says it does not matter (`impact.dismissal`) | "80 €, nicht 60, aber egal" |
| own slip | says the mistake is the person's (`impact.own_slip`) | "sorry I said Thursday earlier I meant Friday" |
| hypothetical | is a condition or a supposition (`claim.hypothetical`); one after a mark after every cue, beside no rule, tells when the other value would hold | "If I told you to use yarn …" |
| past, others' habits | holds only `always`/`never`-like cues about a state that is over (`claim.past_state`), said of a third person (`third_person`), or beside a verb in the past (`past_forms`): `daemon.impact.story` | "I used to always squash", "han betaler altid sent", "the old box always fell over" |
| joke | says it jokes (`impact.kidding`), or laughs (`claim.humour`, `impact.humour`, a laughing face) beside a rule or no value set right (`left_out`) | "… before coffee, ha", "retries 9000 lol jk" |
| laughed at | the agent's reply opens laughing and takes nothing up (`reply.Reply.laughs_back`): the whole message | "never email investors after two glasses of wine" answered "Ha — noted as a life lesson" |
| reported | gives someone else's words (`claim.reported`) | "My colleague says we always squash" |
| apart | stands in code, a quote, pasted output: a tool's message after its head ("ValueError:", "WARNING:"), or its English message in a session in another language (`pasted.pasted_output`) | "  always use === unless …", "WARN retry policy never applied" among Polish |

Each sentence is read in the language `detect` finds for it and in the message's (a language
whose data file has no `impact:` section finds nothing). Beside its own words' cues, it is read
against the agent's turns around it: a value of the turn before set right (`setright`), a
complaint about it (`complaint`), a sentence with no cue the reply amends, or one about the
turn before the reply acts on by redoing the work or carries out staying on it (`amends`);
one whose word the reply writes in place of its own or takes out, or reworks its work after
(`swapped`); all in `daemon.impact`. A sentence that opens with "and" beside a statement is
another point of it (`neighbours.points`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from daemon.impact.amends import (
    LONGEST_ACTED,
    acted_on,
    amended,
    carried_out,
    not_acted_on,
    not_amended,
    tells,
)
from daemon.impact.clauses import words_of
from daemon.impact.content import content
from daemon.impact.cue_words import may_hold_cues
from daemon.impact.cues import Cue
from daemon.impact.echo import Answered
from daemon.impact.kinds import SHOWN_BY_REPLY, Kind, kind_of
from daemon.impact.left_out import RECALLING
from daemon.impact.neighbours import (
    POINT,
    Reading,
    asked_again,
    beside,
    continued,
    continues,
    joined,
    lone,
    points,
)
from daemon.impact.reply import Reply, ends_asking_in_prose
from daemon.impact.sentence_reading import read_sentence
from daemon.impact.sentences import Sentence, apart, sentences
from daemon.impact.setright import MANY, may_set_right, spells
from daemon.impact.shown import shown_by_reply
from daemon.impact.swapped import Rewrites, asks_or_tells, reworked
from daemon.impact.untaken import may_be_untaken, untaken
from daemon.text.keyboard import find
from daemon.text.language import Language, detect

# Content words a statement needs to be read alone (one that only recalls, beside the clause it
# says it was said in); with fewer it takes in the sentence before.
THIN = 2
# Sentences of one message the reply's readings may find over all of them (each finds them on at
# most `shown.MANY_AMENDED` lines): more is a pasted text beside a correction ("No, the port is 9090." over a log).
MANY_SHOWN = 5

# The reply of a message the agent did not answer (yet): it takes nothing up.
NO_REPLY = Answered("")


@dataclass(frozen=True)
class Statement:
    """One sentence that corrects, prefers or instructs: where it was said and how it reads."""

    kind: Kind
    quote: str  # the sentence, verbatim
    session: str
    turn: int  # the message's position in its session, from 1 (user and assistant alike)
    language: str
    time: str | None  # ISO 8601, as the transcript gives it
    cues: tuple[str, ...]  # "standing:always", "reminder:i told you" …
    ref: str = ""  # the turn's reference, `<file>@<offset>`: what a fact cites

    @property
    def recalls(self) -> bool:
        """Whether the person says it was said before ("I told you", "again")."""
        return any(c.split(":", 1)[0] in RECALLING for c in self.cues)


def detect_statements(
    message: str,
    session: str,
    turn: int,
    time: str | None,
    ref: str = "",
    language: Language | None = None,
    answered: str = "",
    usual: Language | None = None,
    reply: str = "",
) -> list[Statement]:
    """The statements of one user message (see the module docstring), in order.

    `language` is the message's (found by `detect` when None); each sentence is also read
    in the language `detect` finds for it alone, since people switch language. `answered` is
    the agent's turn the message answers ("" when none); `usual` the language of the person's
    session, for a message too short to tell its own ("znowu elaborat. krótko"); `reply` the
    agent's turn after it, which may show it took a sentence as a correction
    (`daemon.impact.amends`, `daemon.impact.swapped`)."""
    text = unicodedata.normalize("NFC", message)
    after = Reply(reply) if reply.strip() else None
    # the reply a sentence's "again" must be taken up in, read when one asks (`Reply.changed`): one
    # that changed the agent's work; none, one that consoles ("Sorry to hear that — checking the
    # logs.") or one that only looks into it ("Let me check the staging CI logs.") takes up nothing
    replied: Callable[[], Answered] = (lambda: after.changed) if after is not None else (lambda: NO_REPLY)
    amending = after if after is not None and answered.strip() and after.may_amend() else None
    # … and a reply that redoes the work of the turn before acts on a sentence about it, if none
    # amends (`acted_on`); not an answer to the agent's question, which it acts on as asked
    # whether the turn before asks at its end (read once per turn: `reply.ends_asking_in_prose`)
    asks_back = partial(ends_asking_in_prose, answered)
    acting = after if after is not None and answered.strip() and after.redoes(answered) and not asks_back() else None
    # … and a reply that writes a word of the message in place of one of its turn before takes
    # the sentence saying it as a correction, whatever it opens with (`daemon.impact.swapped`)
    rewrites = Rewrites(answered, reply) if after is not None and answered.strip() else None
    swapping = rewrites if rewrites is not None and rewrites.may_change(text) else None
    if amending is None and acting is None and swapping is None and not _may_hold(text, answered):
        return []  # most replies amend nothing: the agent just goes on
    if after is not None and after.laughs_back():
        return []  # the agent laughed back, taking nothing up: the person joked ("Ha, noted in spirit.")
    whole = language if language is not None else detect([text]) or usual
    agent_turn = Answered(answered)
    spans = apart(text)
    read: list[tuple[Sentence, Reading]] = []
    for sentence in sentences(text):
        if spans.holds(sentence):
            read.append((sentence, Reading(None, [], True)))
            continue
        if not _may_hold(sentence.text, agent_turn.text):
            read.append((sentence, Reading(None, [], False)))
            continue
        # the sentence before it on its line: a tool's message it may go on
        on_line = read[-1][0].text if read and "\n" not in text[read[-1][0].end : sentence.start] else ""
        read.append((sentence, read_sentence(sentence.text, spans.around(sentence), (whole, usual), (agent_turn, replied), on_line)))
    pasted = False
    if amending is not None:
        read, pasted = shown_by_reply(text, read, partial(amended, answered=agent_turn, reply=amending), not_amended, spans, (usual, whole))
    if acting is not None and not pasted and len(read) <= LONGEST_ACTED and not any(r.excluded for _, r in read):
        read, pasted = shown_by_reply(text, read, partial(acted_on, answered=agent_turn), not_acted_on, spans, (usual, whole))
    if swapping is not None and not pasted:
        read, pasted = shown_by_reply(text, read, swapping.changed, tells, spans, (usual, whole))
    # … and a sentence of the message the reply reworks the agent's work after says what was
    # wrong ("ta enorme isso kkk. curtinho, tipo 3 linhas": `reworked`); with no statement
    # beside it, when the reply keeps most of a line it rewrites ("baslik yine destan olmus"),
    # not after the agent asked (the sentence answers: "The garage entrance is on Elm Street.")
    alone = not any(r.cues and not r.excluded for _, r in read)
    if rewrites is not None and not pasted and not (alone and asks_back()) and rewrites.reworks(alone):
        read, _ = shown_by_reply(text, read, reworked, asks_or_tells, spans, (usual, whole))
    # … and so does a reply with no edit that writes the turn before again (a draft in chat),
    # read last: a value it swaps in or a line it reworks names the sentence better
    if (
        after is not None and rewrites is not None and acting is None and _unread(read) and not pasted
        and not asks_back() and after.drafts() and rewrites.writes_again()
    ):  # fmt: skip
        read, pasted = shown_by_reply(text, read, partial(acted_on, answered=agent_turn), not_acted_on, spans, (usual, whole))
    # … and a reply with a word swapped in or taken out that neither amends nor edits again but
    # stays on that turn's work carries out what a sentence about it said new (`carried_out`:
    # "los totales van sin IVA, contabilidad los quiere netos.", answered by the report with
    # "totales netos"); not an answer to its question. Read last: the readings above name what
    # the reply did better
    if (
        swapping is not None and after is not None and acting is None and _unread(read) and not pasted
        and not asks_back() and swapping.stays_on()
    ):  # fmt: skip
        read, pasted = shown_by_reply(text, read, partial(carried_out, answered=agent_turn, reply=after), not_acted_on, spans, (usual, whole))
    # … and an opening "no" alone, after which the agent changes nothing of its work nor takes it
    # up in words, declines ("nah, they just churn" / "OK, no snapshot tests then."): `untaken`
    if after is not None and may_be_untaken(read) and not (after.changes() or after.redoes(answered)):
        read = untaken(read, after, agent_turn, text)
    # … and a sentence that opens with "and" beside a statement is another point of it
    # ("og breve til kunder: kort.": `daemon.impact.neighbours.points`); in a message answering no
    # turn of the agent's only beside a rule, after a detail of the task it adds to the task
    # ("… keine Anzahlung. Und dazu eine kurze Mail an beide.")
    read = points(text, read, spans, (usual, whole), ruled=not answered.strip())
    # more than MANY_SHOWN sentences the reply shows were taken so, over all those readings: pasted
    if sum(any(c.kind in SHOWN_BY_REPLY for c in r.cues) for _, r in read) > MANY_SHOWN:
        read = [(s, Reading(r.language, [], False) if any(c.kind in SHOWN_BY_REPLY for c in r.cues) else r) for s, r in read]
    found: list[Statement] = []
    previous: tuple[Sentence, Reading] | None = None
    # a thin statement that took in nothing before it: where its quote starts, its sentence, its language
    bare: tuple[int, Sentence, Language] | None = None
    for k, (sentence, reading) in enumerate(read):
        lang = reading.language
        # "No." alone: the correction opener of the statement that follows it, if one does
        opener = bare if bare is not None and lone(read[k - 1][1], bare[1], bare[2]) else None
        taken_in = bare is not None and continues(text, bare[1], sentence, reading, bare[2])
        if taken_in and bare is not None:
            # "Region again. eu-west-1.", "e outra vez 30! são 35 a e-bike": what is said
            # again follows the recall
            said = found.pop()
            found.append(replace(said, quote=text[bare[0] : sentence.end]))
        bare = None
        if taken_in or lang is None or reading.excluded or not reading.cues:
            previous = (sentence, reading)
            continue
        first = sentence
        recall_only = all(c.kind in RECALLING for c in reading.cues)
        mine = content(sentence.text, lang).stems
        # too little of its own to be read alone: fewer than THIN content words ("Always.",
        # "Every new function."), beside its saying when it only recalls ("I said that last
        # week." recalls the sentence before; "og commiten er på norsk igjen" says what again)
        # … and one the agent's reply amends ("pytest.") or spelling a name ("Thaís, com h") stands alone
        own = content(sentence.text, lang, apart=True).stems if recall_only else mine
        thin = len(own) < THIN and not any(c.kind in SHOWN_BY_REPLY or spells(lang, c) for c in reading.cues)
        if opener is not None and beside(text, opener[1], sentence):
            # "No. Amounts are integer cents, never floats."
            found.pop()
            first = opener[1]
            reading = Reading(lang, joined(read[k - 1][1].cues, reading.cues), False)
        elif thin and previous is not None and beside(text, previous[0], sentence):
            # "Heroku is gone. I told you.", "Type hints. Every new function.": what is
            # recalled or ruled on is said in the sentence before
            before, read_before = previous
            # a statement already quotes the sentence before ("No. Amounts are cents."): it is not taken twice
            taken = bool(found) and found[-1].quote.endswith(before.text)
            # (else, "… And no emoji.", a rule of its own beside another; so is a form of address
            # set right by a contrast, a `second_person` word right beside its "not": "… Und du,
            # nöd Sie."; not an emphasis, "Use staging, never prod. Not now, not ever.")
            if taken and read_before.cues and (recall_only or not mine) and not _addressed(sentence.text, lang, reading.cues):
                merged = found.pop()
                first = Sentence(merged.quote, before.end - len(merged.quote), before.end)
                reading = Reading(lang, joined(read_before.cues, reading.cues), False)
            # … a question that recalls too, when the recall says nothing else (`asked_again`)
            asked = recall_only and not mine and asked_again(text, read, k, spans, lang)
            if not taken and (asked or not read_before.excluded) and not (recall_only and mine and continued(text, read, k, lang)):
                # … unless a recall that says something is continued by the sentence after
                # it: "a morada antiga já não serve. e outra vez 30! são 35 a e-bike"
                first = before
        # another point (`POINT`) is of the kind of the statement it adds to
        point = all(c.kind == POINT for c in reading.cues)
        kind = found[-1].kind if point and found else kind_of(reading.cues)
        found.append(_statement(text[first.start : sentence.end], lang, (kind, reading.cues), (session, turn, time, ref)))
        if first is sentence and (thin or lone(reading, sentence, lang)):
            bare = (first.start, sentence, lang)
        previous = (sentence, reading)
    # a value set right in more than MANY sentences of one message is a pasted table or log
    valued = {id(s) for s in found if all(c.startswith("set_right:") for c in s.cues)}
    return [s for s in found if id(s) not in valued] if len(valued) > MANY else found


def _addressed(text: str, lang: Language, found: list[Cue]) -> bool:
    """Whether a contrast of the sentence has a `second_person` word right beside its "not"
    ("Und du, nöd Sie"); its words are read only when it has a contrast."""
    contrasts = [c.at for c in found if c.kind == "contrast"]
    if not contrasts:
        return False
    you = {i for i, _ in find(words_of(text).low, lang.impact.get("second_person", frozenset()))}
    return any(at - 1 in you or at + 1 in you for at in contrasts)


def _unread(read: list[tuple[Sentence, Reading]]) -> bool:
    """Whether a message's readings leave a sentence with no cue to read for the reply, none of
    them left out, and are few enough to be the person's (LONGEST_ACTED)."""
    return any(not r.cues for _, r in read) and not any(r.excluded for _, r in read) and len(read) <= LONGEST_ACTED


def _may_hold(text: str, answered: str) -> bool:
    """Whether a message or sentence may hold a statement: a cue word (`may_hold_cues`), or,
    answering the agent's turn, a value it may set right (`may_set_right`)."""
    return may_hold_cues(text, words_of(text)) or (bool(answered.strip()) and may_set_right(text))


def _statement(
    quote: str, lang: Language, read: tuple[Kind, list[Cue]], where: tuple[str, int, str | None, str]
) -> Statement:
    session, turn, time, ref = where
    kind, found = read
    return Statement(
        kind=kind,
        quote=quote,
        session=session,
        turn=turn,
        language=lang.code,
        time=time,
        cues=tuple(dict.fromkeys(f"{c.kind}:{c.phrase}" for c in found)),
        ref=ref,
    )
