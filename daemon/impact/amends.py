"""A sentence the agent's reply shows it took as a correction (pure, no I/O;
docs/explanation/impact.md#a-correction-the-agent-amends).

People correct by stating the right thing alone, with no word a list could hold: "db's on 5433
locally.", "pytest.", "Hendrikx, met kx.", "ceny mame na cele koruny, takze 190". The agent's
next turn often tells: it opens amending — its first or second word starts a phrase of
`impact.amended` ("Fixed", "Sorry", "You're right", "Corrigé", "失礼しました"), or one closes its
first sentence, where a language that ends with its verb says it ("리뷰어를 다은님으로
바꿨습니다."), in the reply's own language or in any other (an agent may answer in English) — in a first sentence that
neither asks nor says "not" ("Sorry, I can't reach 5433", "Not fixed yet", "Sorry — should I
…?" amend nothing), and it writes what the person said ("Switched to pytest", "DATABASE_URL …
:5433"). A sentence of the message with no cue of its own is then a correction when the reply
takes up a word of it (`echo.Answered.taken_up`: a content stem, a long word, a number; the
amending phrase's own words left out) — after a phrase that only says the work was redone, one
the agent's turn before did not hold: what was new to the agent and is now in its work. (An
agent that says it was wrong, "Beklager.", "直しました。", may amend without repeating what was
new: "Bosch ми не беремо" set right in a reply that leaves Bosch out.) It is not something
else the reply may take up
(`not_amended`): it introduces what follows, approves, tells a story, or asks for work or adds
to it as the readings that set a value right see it (`setright.asks_or_adds`: "add the VAT
line" / "Sorry, added the VAT line"; "I", "also", "and" there tell news as often).

A message with such sentences on more than MANY lines (or many on one: `shown.ON_ONE_LINE`) is a
pasted text the agent rewrote: none counts.

An agent that redoes its work without saying it was wrong (it edits again a file its turn
before edited: `Reply.redoes`) acts on the sentences of a message with no cue of their own,
none of its sentences left out: one about its turn before that says something new is then a
correction (`acted_on`, docs/explanation/impact.md#a-correction-the-agent-acts-on). So is one
whose new word a reply that stays on that turn's work takes up (`carried_out`).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import pairwise

from daemon.impact.clauses import Words, breaks, negating, says_not
from daemon.impact.content import MENTION, content
from daemon.impact.cues import Cue
from daemon.impact.echo import Answered
from daemon.impact.left_out import asks
from daemon.impact.naming import value
from daemon.impact.reply import Reply, ends_asking
from daemon.impact.setright import asks_or_adds
from daemon.text.keyboard import find
from daemon.text.language import Language
from memory_engine.claim import phrases_of

# Words a sentence may have to be read: a longer one is a story or pasted.
LONGEST = 40
# Lines of one message the reply may take up sentences on; more are a pasted text it rewrote (a
# person sets three things right in one message: "会社名ちゃうで。『金田食品株式会社』。カタカナちゃうし…").
MANY = 3
# Words of a sentence that only announces the points after it, an `impact.several` phrase with
# only function words after it ("two things.", "ok, várias coisas."; not "ещё одно поле
# лишнее", one more field is extra); a longer one says something of its own.
ANNOUNCING = 5
# Sentences a message may have for one to be read as acted on: a longer one is a document or
# a log the person pasted, and the agent's edit answers all of it.
LONGEST_ACTED = 20


def amended(lang: Language, text: str, words: Words, answered: Answered, reply: Reply) -> list[Cue]:
    """The cue (kind `amended`) of a sentence with no cue of its own that the reply, opening
    amending, takes up — where the agent's turn before did not, if the reply only says it
    redid the work (see the module docstring)."""
    phrase = reply.amending
    if phrase is None or not answered.text.strip() or not 0 < len(words.low) <= LONGEST:
        return []
    if reply.redone and ends_asking(answered.text):
        return []  # "5433" to "What port is it on?", answered "Changed DATABASE_URL to 5433"
    taken = set(reply.turn.taken_up(text, lang, phrase))
    new = taken
    if reply.redone:  # "Changed …" alone also answers a request: what it changed was new to it
        new -= set(answered.taken_up(text, lang))
    if not any(w not in lang.function_words and not negating(lang, w) for w in new):
        return []
    return [Cue("amended", " ".join(phrase), 0)]


def not_amended(lang: Language, text: str, words: Words) -> bool:
    """Whether the sentence, read in `lang`, is something else the reply may take up: it
    introduces what follows, approves, tells a story (`tells`) or asks for work."""
    return tells(lang, text, words) or asks_or_adds(lang, text, words, 0)


def not_acted_on(lang: Language, text: str, words: Words) -> bool:
    """`not_amended`, or each clause of the sentence approves the work ("The importer looks
    great, thanks a lot.", beside a rule or alone; not "Looks good, but the date is wrong")."""
    if not_amended(lang, text, words):
        return True
    if not approves(lang, text, words):
        return False
    ends = [0, *breaks(text, words), len(words.low)]
    return all(find(words.low[a:b], lang.impact.get("approval", frozenset())) for a, b in pairwise(ends) if b > a)


def tells(lang: Language, text: str, words: Words) -> bool:
    """Whether the sentence, read in `lang`, introduces what follows, agrees (an agreement phrase
    with no "but" after it, anywhere: the reply's readings of it are then not read) or tells a
    story."""
    if text.rstrip().endswith((":", "：")):
        return True  # "lint mi krzyczy lokalnie:"
    several = find(words.low, lang.impact.get("several", frozenset())) if len(words.low) <= ANNOUNCING else []
    if any(all(w in lang.function_words for w in words.low[at + len(p) :]) for at, p in several):
        return True  # "deux choses.", "ok, two more things", "สองเรื่องครับ": the points come after it
    # "grace's is fine."; not "datoen er fin, men klokkeslettet er 14:00": a "but" after it turns
    # to what is wrong (the reply's readings of it are read)
    turns = [i for i, _ in find(words.low, lang.impact.get("but", frozenset()))]
    if any(not any(i >= at + len(p) for i in turns) for at, p in find(words.low, lang.impact.get("agreement", frozenset()))):
        return True
    # "der Postbote kam heute wieder nicht"; a verb in the past in the last of several clauses, after
    # clauses that give a value (a number, a name in code), gives the reason for that value, not a
    # story: "und der Stundensatz ist 95, die 85 waren letztes Jahr", "Záloha je 1 500 za sud, od
    # ledna jsme ji zvedali" (not "rough day, the deploy went down twice")
    cut = breaks(text, words)
    first = next((k for k in range(len(words.low)) if value(lang, words.low, k)), None)  # the first value, read once
    end = cut[-1] if cut and first is not None and first < cut[-1] else len(words.low)
    # … and so does one in any clause after a first that gives a value, in a sentence that names
    # no time gone by: "sort code is 30-96-26, sians one had it wrong as well, shes paid already
    # luckily"; not "3 weeks ago, we tried yarn and it was a nightmare", "pedido 8812, el cliente
    # llamó ayer y estaba furioso", whose value is the story's (review helper-201)
    if cut and first is not None and not find(words.low, lang.impact.get("past_time", frozenset())):
        end = min(end, next((b for b in (*cut, len(words.low)) if first < b), end))
    told = words.low[:end]
    return any(lang.matches("past_forms", w) for w in told)


def approves(lang: Language, text: str, words: Words) -> bool:
    """Whether the sentence approves the agent's work (`impact.approval`: "route looks fine",
    "brilliant, cheers."): an approving phrase in a clause that says no "not" ("not that much
    better", "это не очень годится"), not named in quotation marks ('troca "Obrigado" por
    "Abraço"')."""
    phrases = lang.impact.get("approval", frozenset())
    if not phrases:
        return False
    named = [m.span() for m in MENTION.finditer(text)]
    ends = [0, *breaks(text, words), len(words.low)]
    for i, _ in find(words.low, phrases):
        if any(a <= words.spans[i][0] < b for a, b in named):
            continue
        k = bisect_right(ends, i) - 1
        if not any(says_not(lang, w) for w in words.low[ends[k] : ends[k + 1]]):
            return True
    return False


def acted_on(lang: Language, text: str, words: Words, answered: Answered) -> list[Cue]:
    """The cue (kind `acted_on`) of a sentence with no cue of its own, in a message none of
    whose sentences is left out, whose reply redoes the work of the agent's turn before
    (`Reply.redoes`): it is about that turn — takes up a word of it (`echo.Answered.taken_up`),
    not a function word, a "not" nor a meaning the text layer names — says a content word the
    turn did not hold, and does not ask: "The importer fills due_date from the order date."
    after a migration that made due_date nullable, answered by an edit of that migration. It
    is read only if it is nothing else the reply may take up (`not_amended`: "now add
    pagination" asks for more work) (docs/explanation/impact.md#a-correction-the-agent-acts-on)."""
    if asks(lang, text, words):
        return []
    held = answered.taken_up(text, lang)
    # … and says something the turn did not hold: "the rota db is on localhost." to an agent that
    # ran psql on localhost sets nothing right, whatever the reply then changed
    if not content(text, lang).stems - set(held):
        return []
    taken = [w for w in held if _says(lang, w)]
    # the longest word names it best: "due_date" rather than its "date"
    return [Cue("acted_on", max(taken, key=len), 0)] if taken else []


def carried_out(lang: Language, text: str, words: Words, answered: Answered, reply: Reply) -> list[Cue]:
    """The cue (kind `acted_on`) of a sentence about the agent's turn before (`acted_on`) a word
    of which, new to that turn, the reply takes up (`echo.Answered.taken_up`; no function word),
    read when the reply neither amends nor edits again but stays on that turn's work
    (`swapped.Rewrites.stays_on`): "los totales van sin IVA, contabilidad los quiere netos." after
    a report with VAT included, answered by the report sent again with "totales netos"; "here
    changes go through a pull request …" after an apply from a shell, answered by the pull
    request opened (docs/explanation/impact.md#a-correction-the-agent-acts-on)."""
    # "… for Kofi, please", "… I think": a request or a guess, which the reply carries out too
    if find(words.low, lang.impact.get("politeness", frozenset()) | lang.claim.get("request", frozenset()) | phrases_of(lang, "hedges")):
        return []
    cue = acted_on(lang, text, words, answered)
    if not cue:
        return []
    new = set(reply.turn.taken_up(text, lang)) - set(answered.taken_up(text, lang))
    return cue if any(_says(lang, w) for w in new) else []


def _says(lang: Language, word: str) -> bool:
    """Whether a word taken up says something: no function word, no "not", and no concept the
    text layer names ("@test" is no word the person wrote)."""
    return word not in lang.function_words and not negating(lang, word) and not word.startswith("@")
