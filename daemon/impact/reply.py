"""The agent's turn after a person's message, read once for what it shows of the message (pure,
no I/O): whether it opens amending ("Fixed", "Sorry", "失礼しました"), changes its work (an
amending opening or an edit), redoes the work of its turn before (it edits again a file that
turn edited, or, with no edit, writes that turn again), consoles, or laughs back and takes
nothing up. `daemon.impact.amends`, `daemon.impact.statements` and `daemon.impact.again` read
it (docs/explanation/impact.md#a-correction-the-agent-amends).
"""

from __future__ import annotations

import re
from functools import cache, cached_property, lru_cache

from daemon.impact.clauses import says_not, words_of
from daemon.impact.cues import standing
from daemon.impact.echo import Answered
from daemon.impact.left_out import LAUGHING, asks, humour
from daemon.impact.sentences import sentences
from daemon.impact.tool_lines import EDITED, EDITED_FILE, NOT_PROSE
from daemon.text.keyboard import find, said_at, unaccented
from daemon.text.language import Language, detect, known, script_of
from daemon.text.unicode_words import sentence_terminal_marks

# Where an amending phrase may start in the reply: its first word, or its second after an
# interjection ("Oops, fixed", "Ah, sorry").
OPENS_WITHIN = 2
# Characters of the reply read for its opening (a reply may be a megabyte of tool output).
OPENING_CHARS = 400
# … and for the words it takes up.
READ_CHARS = 4000
# The marks a sentence ends with, in every script (Unicode's Sentence_Terminal), and "…".
SENTENCE_ENDS = (*sentence_terminal_marks(), "…")
# The marks a question ends with.
QUESTION_MARKS = ("?", "？", "؟")
# … and Greek's, a semicolon after NFC, ending a sentence: closing marks may follow it, then a space or the end.
GREEK_QUESTION = re.compile(r"[;\u037e](?=[)\]»”’*_`\"']*(?:\s|\Z))")
# Characters of the reply's end read for the tool calls the adapters write after its words.
TOOLS_CHARS = 4000
# … and of the agent's turn before, for the files it edited (a turn may be megabytes of output).
READ_CHARS_BEFORE = 20_000
# How the adapters mark a tool call's line they cut (`daemon.transcripts.guards.tool_summary`).
CUT = "…"
# Letters of a file's name a cut path must show to name that file, not a sibling (digits and
# marks aside: "202412031…" may be any migration of that day).
SHOWN = 8


class Reply:
    """The agent's turn after the message, read once however many sentences ask about it."""

    def __init__(self, text: str) -> None:
        # the reply as a turn the person's words may be taken up in (`echo.Answered`): its
        # head, where an agent writes what it set right (its tail is tool output)
        self.turn = Answered(text[:READ_CHARS])
        head = text.strip()[:OPENING_CHARS]
        self.head = head
        # where an edit shows: the head, and the end the adapters write tool calls at
        self.edits = head + "\n" + text[-TOOLS_CHARS:]
        self.text = text
        first = next(iter(sentences(head)), None)
        self.first = first.text if first is not None else ""
        # whether the first sentence ends inside the head read: the reply is no longer than the
        # head, or the sentence closes with its mark (a cut at a space leaves no mark)
        self.ended = first is not None and (
            len(text.strip()) <= OPENING_CHARS or first.text.rstrip().endswith(SENTENCE_ENDS)
        )
        self.opening = words_of(self.first).low
        # whether the amending phrase only says the work was redone ("Changed", "Ajustado")
        self.redone = False

    @cached_property
    def language(self) -> Language | None:
        return detect([self.first]) if self.opening else None

    @cached_property
    def _readings(self) -> list[Language]:
        return [r for r in (self.language, *known().values()) if r is not None]

    @cached_property
    def _consoled(self) -> list[tuple[int, int]]:
        """Where the reply's opening says sympathy, in any language that lists it."""
        return [(at, at + len(p)) for lang in self._readings for at, p in find(self.opening, lang.impact.get("sympathy", frozenset()))]

    def changes(self) -> bool:
        """Whether the reply shows the agent changed its work: it opens amending ("Switched the
        region …", "Fixed:", "已改"), a later sentence of its head opens so ("I looked at the
        config. Opraveno: …"), neither asking nor saying "not", or an edit tool was called or a
        diff shown (`EDITED`). "Let me check what changed in staging.", "Not fixed yet —
        looking at it." and "Great, tests pass!" change nothing."""
        if self.amending is not None or EDITED.search(self.edits) is not None:
            return True
        for sentence in sentences(self.head)[1:]:
            said = words_of(sentence.text)
            for lang in self._readings:
                hits = [h for h in find(said.low, amending_phrases(lang)[0]) if h[0] < OPENS_WITHIN]
                if hits and not asks(lang, sentence.text, said) and not any(says_not(lang, w) for w in said.low):
                    return True
        return False

    @cached_property
    def changed(self) -> Answered:
        """The reply as a turn the person's "again" may be taken up in: itself when it changes the
        agent's work and does not console, else an empty turn (read once, when a sentence asks)."""
        return self.turn if self.changes() and not self.consoles() else Answered("")

    def redoes(self, before: str) -> bool:
        """Whether the reply redoes the work of the agent's turn `before`: it opens amending or
        redoing ("Changed to …", "Sorry — …"), or edits a file that turn edited or wrote (with
        no edit at all, it may write that turn again: `drafts`). A next task edits other
        files ("Next, write tests for the importer." / "Edit: tests/test_importer.py"); a reply
        that only says what it will do redoes nothing."""
        if self.may_amend():
            return True
        mine = _edited_files(self.edits)
        if not mine:
            return False
        theirs = _edited_files(before[-READ_CHARS_BEFORE:])
        return any(_same_file(a, b) for a in mine for b in theirs)

    def drafts(self) -> bool:
        """Whether the reply may be a draft written again (`swapped.Rewrites.writes_again`): no
        edit tool called nor diff shown, and no question at its end."""
        return EDITED.search(self.edits) is None and not ends_asking(self.text)

    def laughs_back(self) -> bool:
        """Whether the reply opens laughing (a laughing face, or a laugh of its own language:
        "Ha, noted in spirit.", "😄 Figures are in figures/.") and takes nothing up: it changes
        nothing (`changes`, or an edit anywhere in it), says no amending phrase in its first
        sentence ("Haha, fair — switched to pnpm", "😂 Oh no, my bad") and no `standing` phrase
        in its head ("Haha, noted! pnpm it is from now on.")."""
        if LAUGHING.match(self.head) is None:
            # the cheap test first: a laugh of any language opens it ("ha", "lol", "ㅋㅋ"), not a
            # word that says a joke ("Joking aside, that's a real rule")
            if not self.opening or not any(said_at(self.opening, 0, p) for p in _laughs().get(self.opening[0], ())):
                return False
            lang = detect([self.head])  # the whole head: "Ha," alone is no language
            if lang is None or not any(said_at(self.opening, 0, p) for p in _laughs_of(lang)):
                return False
        if self.changes() or EDITED.search(self.text) is not None:
            return False
        return not any(find(self.opening, amending_phrases(lang)[0]) or self.says_standing(lang) for lang in self._readings)

    def says_standing(self, lang: Language) -> bool:
        """Whether the reply's head holds a `standing` phrase of `lang` ("I'll use pnpm from now
        on"): the agent took what was said as a rule."""
        return bool(find(self._head_words, standing(lang)))

    @cached_property
    def _head_words(self) -> tuple[str, ...]:
        return words_of(self.head).low

    def consoles(self) -> bool:
        """Whether the reply opens with sympathy and amends nothing ("Sorry to hear that —
        checking the api server logs now."): the agent took the message as news."""
        return any(at < OPENS_WITHIN for at, _ in self._consoled) and self.amending is None

    @cached_property
    def amending(self) -> tuple[str, ...] | None:
        """The amending phrase the reply opens with (see the module docstring): read in its own
        language first, then in each language with the list; None if it opens otherwise."""
        readings = self._readings
        # "Sorry to hear that", "Ah, sorry for the wait" amend nothing, in whichever language
        # lists them; "Sorry for the delay — fixed DATABASE_URL" still does, by its "fixed"
        consoled = self._consoled
        consoling = {at for at, _ in consoled}
        # … an amending phrase may open the reply after it, as after an interjection
        opens = set(range(OPENS_WITHIN)) | {end + k for _, end in consoled for k in range(OPENS_WITHIN)}
        for lang in readings:
            phrases, closing = amending_phrases(lang)
            hits = [h for h in find(self.opening, phrases) if h[0] in opens]
            # … or closing its first sentence, where a language that ends with its verb says it
            # (`amended_closing`: "리뷰어를 다은님으로 바꿨습니다."), if that sentence ends in the head read
            if closing and self.ended:
                hits += [h for h in find(self.opening, closing) if h[0] + len(h[1]) == len(self.opening)]
            hits = [h for h in hits if h[0] not in consoling]
            if hits:
                # the first said, the longest there: the same whatever the set's order
                _, phrase = min(hits, key=lambda h: (h[0], -len(h[1])))
                if asks(lang, self.first, words_of(self.first)) or any(says_not(lang, w) for w in self.opening):
                    return None  # "Sorry, I can't reach 5433", "Not fixed yet", "Sorry — should I …?"
                self.redone = phrase in lang.impact.get("redone", frozenset())
                return phrase
        return None

    def may_amend(self) -> bool:
        """Whether the reply opens amending in some language: most replies do not, and no
        sentence is read for it."""
        said = {*self.opening[:OPENS_WITHIN], *self.opening[-1:]}
        return bool(self.opening) and not _first_words().isdisjoint(said) and self.amending is not None


def ends_asking(text: str) -> bool:
    """Whether the agent's turn asks near its end (a question mark in its last OPENING_CHARS:
    "Which port? Once you tell me I'll update .env.local.", "**Which port?**", a question
    before a list of choices or the tools it then called, or `_greek_asks`)."""
    tail = text[-OPENING_CHARS:]
    return any(mark in tail for mark in QUESTION_MARKS) or _greek_asks(tail)


def _greek_asks(tail: str) -> bool:
    """Whether Greek's question mark, a ";" after NFC, ends a sentence written mostly in Greek
    letters ("Να προσθέσω και το PDF;"; not "Set R1 = 10 kΩ; R2 = 4.7 kΩ", not code's "x = 1;")."""
    if ";" not in tail and "\u037e" not in tail:
        return False
    for mark in GREEK_QUESTION.finditer(tail):
        start = max(tail.rfind(end, 0, mark.start()) for end in (*SENTENCE_ENDS, ";", "\n")) + 1
        scripts = [script_of(c) for c in tail[start : mark.start()] if c.isalpha()]
        if scripts and 2 * scripts.count("greek") > len(scripts):
            return True
    return False


def ends_asking_in_prose(text: str) -> bool:
    """`ends_asking` of the turn's prose: without its tool lines, code and addresses. Read once
    per turn, however many sentences of the message answering it ask (`_tail_asks`)."""
    return _tail_asks(text[-READ_CHARS:])


@lru_cache(maxsize=64)
def _tail_asks(tail: str) -> bool:
    return ends_asking(NOT_PROSE.sub(" ", tail).rstrip())


def _edited_files(text: str) -> frozenset[str]:
    """The files an edit in `text` changed (`EDITED_FILE`), as paths with "/" and without
    quotes; not a folder ("src/"), nor a name with no "." or "/". A name the adapter cut
    ("/Users/ana/work/shop/src/…", `daemon.transcripts.guards.tool_summary`) is kept with its mark: it names
    the file its path starts (`_same_file`)."""
    found = set()
    for m in EDITED_FILE.finditer(text):
        name = next((g for g in m.groups() if g), "").strip().strip("'\"`").replace("\\", "/")
        if name.count("]") > name.count("["):
            name = name[:-1]  # the adapter's closing bracket: "[tool: shell: apply_patch … a.py]"
        name = " ".join(name.split())  # as the adapters write a tool call's line
        if name and not name.endswith("/") and ("." in name or "/" in name) and name != CUT:
            found.add(name)
    return frozenset(found)


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: equal, or an absolute one ends, at a "/", with a
    relative one ("/srv/app/src/a.py" and "src/a.py"; not "docs/README.md" and "README.md",
    two files of one project). A path the adapter cut (it ends with "…") is `_cut_from` the
    other."""
    if a.endswith(CUT) or b.endswith(CUT):
        return _cut_from(a, b)
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    absolute = long.startswith("/") or (len(long) > 2 and long[1] == ":" and long[2] == "/")
    return absolute and not short.startswith("/") and long.endswith("/" + short)


def _cut_from(a: str, b: str) -> bool:
    """Whether a path the adapter cut names the other path's file: the other starts with it
    and goes on in the file's name, which it shows SHOWN letters of ("/srv/app/billing/InvoiceTa…"
    and "/srv/app/billing/InvoiceTable.tsx"; the turn's "Write: …" and the reply's "Edit: …" are
    cut at other lengths). A cut that shows fewer ("…/versions/0…") may be any file of its
    folder; a cut name is longer than what it was cut from ("InvoiceTable.ts" is not
    "InvoiceTable.ts_backup…")."""
    cut_a, cut_b = a.endswith(CUT), b.endswith(CUT)
    if cut_a and cut_b:
        short, long = sorted((a.removesuffix(CUT), b.removesuffix(CUT)), key=len)
    else:  # only the cut one is cut from the other
        short, long = (a.removesuffix(CUT), b) if cut_a else (b.removesuffix(CUT), a)
    shown = short.rpartition("/")[2]  # of the file's own name
    return sum(c.isalpha() for c in shown) >= SHOWN and long.startswith(short) and "/" not in long[len(short) :]


def _laughs_of(lang: Language) -> frozenset[tuple[str, ...]]:
    """The laughs of a language: its `humour` phrases that are no `kidding` ("haha", not "joking")."""
    return frozenset(p for p in humour(lang) - lang.impact.get("kidding", frozenset()) if p)


@cache
def _laughs() -> dict[str, frozenset[tuple[str, ...]]]:
    """The laughs of every language, by their first word."""
    by_first: dict[str, set[tuple[str, ...]]] = {}
    for lang in known().values():
        for p in _laughs_of(lang):
            by_first.setdefault(p[0], set()).add(p)
    return {w: frozenset(ps) for w, ps in by_first.items()}


@cache
def _first_words() -> frozenset[str]:
    """The words an amending phrase of any language opens with, and those that close one that
    may close the reply's first sentence."""
    return frozenset(
        w
        for lang in known().values()
        for key, at in (("amended", 0), ("redone", 0), ("amended_closing", -1))
        for p in lang.impact.get(key, ())
        if p
        for w in (p[at],)
    )


_AMENDING: dict[str, tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]] = {}


def amending_phrases(lang: Language) -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]:
    """The `amended` and `redone` phrases of `lang` as written, and those of them that may close
    the reply's first sentence (`amended_closing`), read once per language. As written: without
    the copies a language typed without accents adds (`typed_without_accents`), since an agent
    writes its accents, and "Remplace l'URL…" or "Modifique el archivo…" tell the person what
    to do, not what the agent redid."""
    if lang.code not in _AMENDING:
        listed = lang.impact.get("amended", frozenset()) | lang.impact.get("redone", frozenset())
        plain = {tuple(unaccented(w) for w in p) for p in listed if any(unaccented(w) != w for w in p)}
        written = frozenset(p for p in listed if p not in plain)
        _AMENDING[lang.code] = (written, lang.impact.get("amended_closing", frozenset()) & written)
    return _AMENDING[lang.code]
