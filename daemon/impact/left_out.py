"""What makes a sentence with a cue something else than a statement (pure, no I/O;
docs/explanation/impact.md#what-is-left-out): a question, an agreement, a one-off, a dismissal,
the person's own slip, a story, a joke, a supposition, someone else's words. Read for the cues
of a sentence (`daemon.impact.statements`) and for a sentence the agent's reply amends
(`daemon.impact.amends`) alike.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from daemon.impact.clauses import Words, body_start, marked, says_not
from daemon.impact.clauses import breaks as clause_breaks
from daemon.impact.cues import NAMED, Cue, after_negation, agreement, closes, said
from daemon.impact.kinds import SHOWN_BY_REPLY
from daemon.impact.naming import names
from daemon.impact.shapes import in_code
from daemon.impact.story import bare, told_as_story
from daemon.text.keyboard import said_at
from daemon.text.language import Language, known
from daemon.text.unicode_words import uncased
from memory_engine.claim import JOKE_EMOJI, reported_by_other

# Words of a clause after a rule that may name who said it ("says Maria", "my manager says").
SAYER = 3
# Words between a request said as a question and the rule it asks for ("could you always …",
# "¿puedes usar siempre …", "やめてもらえますか"): further, or past a clause break, the rule is in
# what is asked about ("can you tell me whether we always rebase?", "تقدر تقولي ليه دايما …").
NEAR = 1
# Words a question of exasperation may have, marks single: "znowu UTC?" (`exasperated`).
FRAGMENT = 2
OPENING_QUESTION = "¿"  # Spanish opens a question with it
CLOSING = "\"'”’»)]」』 "
# An aside in brackets closing a sentence, with no question mark: it says nothing of what the sentence is.
ASIDE = re.compile(r"\s*[(（][^()（）?？]*[)）][\s.。!！…]*\Z")
RECALLING = frozenset({"reminder", "again", "precedent"})
# The sweating smile says "awkward" as often as it laughs: people add it to what they correct
# ("bro too long 😅", "又出現「用戶」了 😅") and to a rule they feel sheepish about ("never push
# to main 😅"), as often as to a joke. The other laughing faces of `claim.JOKE_EMOJI` laugh.
AWKWARD = "\U0001f605"
LAUGHING = re.compile(JOKE_EMOJI.pattern.replace(AWKWARD, ""))
# Cues that carry a rule: a laugh beside them is a rule nobody means ("nunca despliegues en
# viernes… jaja", "always blame Kevin, not Steve lol").
RULING = frozenset({"standing", "preference", "prohibition", "stop"})
# Cues beside which a laugh, with no rule, is the person's mood: a recall laughs at a repeat
# ("10日水曜やん、何回目よ笑", "not Elana. I told you this last time lol"), a complaint about the
# agent's own turn at its length ("too long lol", "ยาวไปครับ อ่านไม่ไหว 555"), a word of the
# sentence the agent's reply wrote in or took out (`daemon.impact.swapped`: "port is 5433
# lol") shows it was meant, and so does, less surely, the agent reworking its work after the
# sentence's message (`reworked`: "요약이 왜 맨 밑에 있어요ㅋㅋ 세 줄 요약이 맨 위"; it
# takes a joke beside a correction too, "my coworker swears yarn will outlive us all lol":
# measured on the read corpora, 5 statements on items against 1 other sentence). Not an edit
# of a whole file (`acted_on`), which ties no sentence to what changed.
IN_EARNEST = RECALLING | {"reworked", "swapped", "dropped", "excess"}
# The cues of a "no" that declines what the agent offered, the person taking the work on
# (`takes_it_on`): the "no" itself, and what it forbids ("no need to cc finance"); not a stop,
# which asks the agent to leave off what it does ("no, stop emailing clients, I'll do it").
DECLINED = frozenset({"correction", "prohibition"})
# What a "but" after an agreement turns to that sets right or forbids, beside a rule for from now
# on (`_spares`): "you're right, but the port is 5433, not 5432" (reviews helper-201, helper-202)
AFTER_AGREEING = frozenset({"contrast", "set_right", "prohibition", "stop"})


def humour(lang: Language) -> frozenset[tuple[str, ...]]:
    """What says a joke in `lang`: its laughs and jokes of both lists ("lol", "haha", "jk")."""
    return lang.claim.get("humour", frozenset()) | lang.impact.get("humour", frozenset())


def excluded(
    lang: Language, text: str, words: Words, found: list[Cue], spans: list[tuple[int, int]], *, again: bool = False
) -> bool:
    """Whether the sentence holding `found` is a question, agreement, one-off, supposition, joke
    or someone else's words (see the module docstring). `again`: it says "again" of a word of
    the agent's turn (`daemon.impact.again.recalls_agents_word`), and a question so said that
    is `exasperated` asks nothing ("znowu UTC?", "migrate from local again??")."""
    # … but "could you always run the tests first?" asks for a rule as a request does (read
    # only of a question: most sentences ask nothing)
    if asks(lang, text, words) and not (again and exasperated(text, words)) and not requests(lang, text, words, found):
        return True
    if agreement(lang, text, words) is not None:
        agreeing = said(lang, words, lang.impact.get("agreement", frozenset()), spans)
        # … but "No worries, but from now on ask me first" sets a rule, and so does one after a
        # declining "no need" ("нет, не надо, впредь без списков": `_declined_before`)
        if not agreeing or (_spares(lang, words, agreeing, found, AFTER_AGREEING) and not _declined_before(lang, words, agreeing, found)):
            return True
    for name in ("one_off", "dismissal"):
        if _spares(lang, words, said(lang, words, lang.impact.get(name, frozenset()), spans), found):
            return True
    # the person sets their own words right ("sorry I said Thursday earlier I meant Friday"); a
    # rule said with it still stands ("my bad, always use pnpm here")
    ruled = any(c.kind in ("standing", "preference") for c in found)
    if not ruled and said(lang, words, lang.impact.get("own_slip", frozenset()), spans):
        return True
    if all(c.kind == "standing" for c in found) and told_as_story(lang, text, words, found, spans):
        return True
    if _joking(lang, words, lang.impact.get("kidding", frozenset())):
        return True  # "retries 9000 lol jk": the person says it is a joke
    ruled = any(c.kind in RULING for c in found)
    laughs = _joking(lang, words, humour(lang)) or LAUGHING.search(text)
    if laughs and (ruled or not (_sets_value_right(lang, text, words, found) or any(c.kind in IN_EARNEST for c in found))):
        return True
    # "I'd rather" and "je préférerais" are preferences, not suppositions
    preferred = {
        i for c in found if c.kind == "preference" for i in range(c.at, c.at + len(c.phrase.split()))
    }
    # … nor is a sentence holding no rule whose condition comes after every cue, a mark before
    # it: it tells when the other value would hold ("ставка 10 %, не 20 %, 20 только если бы это
    # были не книги"). A rule stays a supposition so ("always pnpm, if I were you", review
    # helper-223); the reply's readings place no cue on a word (`SHOWN_BY_REPLY`)
    supposed = [i for i, phrase in said(lang, words, lang.claim.get("hypothetical", frozenset()), spans) if not set(range(i, i + len(phrase))) <= preferred]
    if supposed:
        placed = [c.at for c in found if c.kind not in SHOWN_BY_REPLY]
        after = len(words.low) if ruled or not placed else next((k for k in range(max(placed) + 1, len(words.low)) if marked(text, words, k)), len(words.low))
        if min(supposed) < after:
            return True
    return not any(c.kind in RECALLING for c in found) and reported_by_other(lang, _framed(text, words, found)) is not None


def takes_it_on(lang: Language, text: str, words: Words, found: list[Cue], spans: list[tuple[int, int]]) -> bool:
    """Whether the sentence declines what the agent offered by taking the work on (`own_doing`)
    after an opening "no" (a correction opener every word of which says "not", a mark after it:
    not "No force pushes, I'll handle rebases myself", which forbids): "no no, no need
    to cc finance, I will forward myself", "нет, сводку я пока сама буду собирать", "いや、スープ
    の件は送らんでよかよ、自分で聞くけん". A rule beside it still stands: a standing instruction,
    a preference or a recall ("no, I'll call her myself, and always cc Kirsty"); so does what sets
    a value right ("no, the VAT is 23 %, I'll fix the template myself", "no, I'm in Porto myself,
    not Lisbon"): only the "no" and a prohibition are declined. Read beside the agent's
    turn (`daemon.impact.sentence_reading`): said of what that turn did, it corrects."""
    if any(c.kind not in DECLINED for c in found):
        return False
    if any(in_code(w) for w in words.low):  # a number in digits, a name in code; not "one"
        return False
    start = body_start(lang, words.low)
    noes = [p for p in lang.impact.get("correction_openers", frozenset()) if said_at(words.low, start, p) and all(says_not(lang, w) for w in p)]
    # … a "no" of its own, a mark after it ("no no, …"): "No force pushes, I'll handle rebases
    # myself" forbids
    ends = [end for end in (start + len(p) for p in noes) if end < len(words.low) and marked(text, words, end)]
    negated = after_negation(lang, text, words, start) if noes else None  # "no no, …", "nah mate, …"
    ends += [negated] if negated is not None else []
    if not ends:
        return False
    after = max(ends)
    return any(i >= after for i, _ in said(lang, words, lang.impact.get("own_doing", frozenset()), spans))


def _spares(lang: Language, words: Words, hits: list[tuple[int, tuple[str, ...]]], found: list[Cue], turning: frozenset[str] = frozenset()) -> bool:
    """Whether one of `hits` (a one-off, a dismissal) spares the sentence's cues: not when a
    `but` word stands after it and before every cue after it, one of them a rule for from now
    on (`_ahead`): "it's fine this time, but from now on ask me first", "ครั้งนี้ไม่เป็นไร
    แต่ต่อไปถามผมก่อน". A bare "always" after it tells how things are as often ("For now it's
    fine, but the build always fails on Mondays"), and a cue inside it is its own word ("never"
    of "never mind"). Before the cues, it still spares them: a dismissal takes back what was
    said ("80 €, not 60, but whatever"), and "…, but this time go ahead" was as often a one-off
    in the held-out corpora. A cue of a kind in `turning` after the "but" turns too: after an
    agreement, what sets right or forbids ("you're right, but the port is 5433, not 5432",
    `AFTER_AGREEING`; not "you're right, but not now")."""
    turns = [i for i, _ in said(lang, words, lang.impact.get("but", frozenset()))]

    def spared(end: int) -> bool:
        after = [c for c in found if c.at >= end]
        first = min((c.at for c in after), default=len(words.low))
        return not (any(end <= i < first for i in turns) and any(_ahead(lang, c) or c.kind in turning for c in after))

    return any(spared(at + len(phrase)) for at, phrase in hits)


def _declined_before(lang: Language, words: Words, hits: list[tuple[int, tuple[str, ...]]], found: list[Cue]) -> bool:
    """Whether every agreeing phrase of the sentence (`hits`) ends in a stop ("нет, не надо",
    "ні, не треба": what the agent offered is declined) and a rule for the agent follows the
    last: a "don't" ("нет, не надо, и больше никогда не предлагай списки") or a rule for from
    now on with more words after it ("нет, не надо, впредь без списков"). Not a bare
    "always"/"never", which tells what someone does as often ("нет, не надо, Паша никогда это не
    читает"), nor a "not" ("…, не сейчас") or "next time" alone."""
    stops = {at + len(p) for at, p in said(lang, words, lang.impact.get("stop_openers", frozenset()))}
    ends = [at + len(p) for at, p in hits]

    def rules(c: Cue) -> bool:
        after = c.at + len(c.phrase.split()) < len(words.low)
        return c.kind in ("prohibition", "stop") or (_ahead(lang, c) and after)

    return all(end in stops for end in ends) and any(c.at >= max(ends) and rules(c) for c in found)


def _ahead(lang: Language, cue: Cue) -> bool:
    """Whether a cue sets a rule for from now on: a standing phrase that is no bare "always" or
    "never" (one word the meaning table reads as "must" or "not": "from now on", "next time",
    "ask me before")."""
    return cue.kind == "standing" and not bare(lang, cue)


def _framed(text: str, words: Words, found: list[Cue]) -> str:
    """The part of the sentence someone else's words may frame its cues in: to the end of the
    clause of its last cue ("Maria says we always deploy on Fridays", "o dr tiago sempre diz
    que …"), and a short clause after it that names who said so ("never deploy on Fridays, says
    Maria", "…, my manager says"), not a longer one ("from now on max 2 off a day, and
    whoever's denied gets told why"); the whole of it for a cue the reply read (`amended`,
    `acted_on`), which stands for the whole sentence."""
    if not found or any(c.kind in ("amended", "acted_on") for c in found):
        return text
    last = max(c.at for c in found)
    ends = [b for b in clause_breaks(text, words) if b > last]
    if len(ends) > 1 and ends[1] - ends[0] <= SAYER:
        ends = ends[1:]
    elif len(ends) == 1 and len(words.low) - ends[0] <= SAYER:
        ends = []
    return text[: words.spans[ends[0]][0]] if ends else text


def _joking(lang: Language, words: Words, phrases: frozenset[tuple[str, ...]]) -> bool:
    """Whether the sentence says one of `phrases` with no "not" right before or after it: "no
    kidding, always use pnpm", "I'm not joking, never push to main", "ich scherze nicht" are
    said in earnest."""
    low = words.low
    return any(
        not (i > 0 and says_not(lang, low[i - 1])) and not (i + len(p) < len(low) and says_not(lang, low[i + len(p)]))
        for i, p in said(lang, words, phrases)
    )


def _sets_value_right(lang: Language, text: str, words: Words, found: list[Cue]) -> bool:
    """Whether a cue sets a value right: a value of the agent's turn (`set_right`), a contrast
    before a name or a number ("not Elana", "not 5k"), or what the agent's reply amends
    (`amended`: "Cera VIVA mano kkkk com v" answered "Corrigido … Cera Viva"). A laugh beside one, in a sentence with no
    rule (`RULING`), is the person's mood ("2,500, not 5k — that's why it got declined lol");
    the jokes typed with a laugh are rules nobody means ("nunca despliegues en viernes… jaja"),
    or a "not" before no name ("not worth it lol")."""
    for c in found:
        after = c.at + len(c.phrase.split())
        # … an amending phrase that only agrees ("You're absolutely right, Rust would be faster,
        # but …"), in whichever language lists it, amends nothing a laugh could be mood beside
        fixed = c.kind == "amended" and not _agrees(c.phrase)
        named = after < len(words.low) and (names(lang, text, words, after) or _named_uncased(lang, text, words, after))
        if c.kind == "set_right" or fixed or (c.kind == "contrast" and named):
            return True
    return False


def _named_uncased(lang: Language, text: str, words: Words, at: int) -> bool:
    """Whether the `at`th word, of a script without capitals to tell a name by, names what is
    not meant: no function word, and its clause ends within NAMED words ("ป่าน ไม้เอกครับ
    ไม่ใช่ปาน 555": "Paan with the tone mark, not Paan lol")."""
    word = words.low[at]
    if not uncased(word) or word in lang.function_words:
        return False
    ends = [b for b in clause_breaks(text, words) if b > at] + [len(words.low)]
    return ends[0] - at <= NAMED


def exasperated(text: str, words: Words) -> bool:
    """Whether a question is one of exasperation: its marks doubled, in any script ("??", "?!",
    "؟؟", Greek ";;") or a fragment of at most FRAGMENT words ("znowu UTC?", "опять промокоды?");
    "what's the path again?" asks."""
    end = text.rstrip().rstrip(CLOSING)
    marks = 0
    for char in reversed(end):
        if not unicodedata.name(char, "").endswith(("QUESTION MARK", "EXCLAMATION MARK")) and char != ";":
            break
        marks += 1
    return marks > 1 or len(words.low) <= FRAGMENT


@cache
def _agrees(phrase: str) -> bool:
    """Whether an amending phrase is, or is said within, an agreement phrase of any language
    ("you're right", "you're absolutely right" of "no, you're absolutely right", "tem razão")."""
    said = f" {phrase} "
    return any(
        said in f" {' '.join(p)} " or f" {' '.join(p)} " in said
        for lang in known().values()
        for p in lang.impact.get("agreement", frozenset())
        if len(p) > 1 or p == tuple(phrase.split())
    )


def asks(lang: Language, text: str, words: Words) -> bool:
    """Whether the sentence is a question: it ends with a question mark of any script (Unicode
    names them; Greek writes its own as ";", which NFC makes a semicolon), opens with "¿", or
    ends with one of its language's question particles (`impact.question_endings`: Thai ไหม).
    An aside in brackets closing it with no question mark is not read: a particle there ends the
    aside ("高橋じゃなくて髙橋です（はしごだか）"), a mark asks ("we never squash (do we?)")."""
    if text.lstrip().startswith(OPENING_QUESTION):
        return True
    aside = ASIDE.search(text)
    if aside and aside.start() > 0:
        text = text[: aside.start()]
        kept = sum(1 for _, y in words.spans if y <= len(text))
        words = Words(words.low[:kept], words.spans[:kept], words.capitals)
    end = text.rstrip().rstrip(CLOSING)
    if end and unicodedata.name(end[-1], "").endswith("QUESTION MARK"):  # ? ？ ؟ …
        return True
    if lang.script == "greek" and end.endswith(";"):
        return True
    endings = lang.impact.get("question_endings", frozenset())
    return any(words.low[-len(p) :] == p for p in endings if 0 < len(p) <= len(words.low))


def requests(lang: Language, text: str, words: Words, found: list[Cue]) -> bool:
    """Whether a question asks the agent to do, as a request does: it opens with one of its
    language's `request_question` phrases ("could you", "kannst du", "¿puedes"), after its
    lead-ins, or a language that ends with its verb closes it with one of
    `request_question_closing` (Japanese "〜てもらえますか"); the rule's cue said within NEAR
    words of it, in its clause: "can you tell me whether we always rebase?" and "Kannst du
    erklären, warum der Build immer bricht?" ask."""
    low = words.low
    rules = [(c.at, c.at + len(c.phrase.split())) for c in found if c.kind in RULING]
    breaks = clause_breaks(text, words)

    def near(a: int, b: int) -> bool:  # words a … b, few and in one clause
        return 0 <= b - a <= NEAR and not any(a < k <= b for k in breaks)

    # at the sentence's start too: a lead-in may begin the phrase (Chinese "你", "麻烦" of "你可以", "麻烦你")
    for i in {0, body_start(lang, low)}:
        for phrase in lang.impact.get("request_question", frozenset()):
            if said_at(low, i, phrase) and any(near(i + len(phrase), at) for at, _ in rules):
                return True
    closing = closes(lang, text, words, lang.impact.get("request_question_closing", frozenset()))
    # (the closing phrase may begin inside the rule's words: やめ / て of "やめてもらえますか")
    return any(near(min(end, k), k) for k, _ in closing for _, end in rules)


