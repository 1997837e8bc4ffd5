"""A user message cut into sentences, and the parts of it that are not the person's own words
(pure, no I/O).

Sentences end at `.`, `!`, `?`, `…`, their full-width forms and every script's own (the
danda "।", the Arabic "؟": Unicode's Sentence_Terminal) followed by a space or the end; at
every line break; at an ideographic space between Chinese or Japanese letters outside
brackets and quotation marks, unless a particle before it joins on (`space_continues`); and at
a half-width one between two letters of a script written without spaces after a word that
closes a sentence (`space_ends_after`: Thai "ค่ะ", Chinese "啦"), or, after such a letter or a
digit, before one that opens the next point (`space_ends_before`: Chinese "然後", Thai "แล้ว"),
unless what comes before it reaches past it (an order, a rule's scope, a "don't", a condition:
"先跑測試 然後部署"). A full stop after an abbreviation any language lists ("e.g.", "z.B.") ends
nothing, nor one inside a word ("mark@fernhill.co", "3.12"), nor one after the number of an
item in a list ("1. 上線日是 3/18").

What is not the person's own words (`apart`): what `memory_engine.claim.apart_spans` finds
(tag blocks, code fences, block quotes, a pasted e-mail or letter, text in quotation marks);
text between single quotes ('never deploy on a Friday'); and tool output pasted as is:

- an indented line (two spaces or a tab: linter and compiler output, a pasted listing);
- a line that starts with a position, `path:12:` or `3:1`;
- after a line that ends with `:` or `?` ("the ruff output:", "what does this mean?"), the
  lines up to a blank line, when the first of them looks like output: one of the above, or
  a label opening it (`WARNUNG:`, `Warning:`, `Antidote — Style :`);
- a log line from where its log starts to the end of its first sentence (`LOG_LINE`): a
  date and a time with seconds, a level in brackets or with a count, an Android tag, a tool's
  message as tools print it ("TypeError: …", "gspread.exceptions.APIError: …",
  "java.lang.IllegalStateException: …", "Traceback", "error[E0599]: …"), a shell's prompt
  before a command, opening the line or after a short label ("logcat: E/Auth: …"); not a
  level or "Warning:" alone, which the person writes too ("WARNING: never commit the .env
  file");
- lines of `git log --oneline`, two or more: a commit's short hash and its subject;
- code: a comment on a line of its own (`//`, `# `, `/*`, `<!--`; not SQL's `--`, which people
  also open a line with: "-- never push to main --"), code inline (`` `WARN: cache never
  warmed` ``), a command's flag (`--always-full`), a line setting one value of a
  name written as code (`imagePullPolicy: Always`; "force_push: never" and "answers: always
  in English" are the person's).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import accumulate

from daemon.impact.clauses import unspaced
from daemon.impact.cue_words import contrasts_unspaced, meaning, negations, unspaced_phrases
from daemon.text.language import abbreviations, in_every_language
from daemon.text.unicode_words import segment, sentence_terminals, spaceless_class
from memory_engine.claim import apart_spans

# A sentence ends after one of these, then a space, a closing quote or bracket, or the end;
# Chinese and Japanese write no space after their full stops ("…見せてね。今回は…"); one inside
# a quotation ends the words quoted, not the sentence ("「もう送った。」と言った").
# Every script's own is one (Unicode's Sentence_Terminal: the danda "।" of Hindi, the Arabic "؟").
END = re.compile(
    rf"[…{sentence_terminals()}]+[\"'”’»)\]]*(?=\s|\Z)|[。！？｡]+(?![。！？｡\"'”’»)\]」』）】〕])|\n+"
)
SINGLE_QUOTED = re.compile(r"(?<![\w'’])['‘][^'‘’\n]{2,}?['’](?![\w'’])")
INDENTED = re.compile(r"(?m)^(?: {2,}|\t)\S.*$")
# A line opening with a position in a file ("src/a.ts:3:1 - error", "  12:4  error  …"): a
# bare "line:column" only with the columns or the severity of a tool's output after it (tools
# print those in English), not a time ("8:30 is school run").
# (The name is matched whole, possessively, after a look-ahead for its letter, and the spaces
# before it stay on its line: a line of a long token, or many blank lines, is read once.)
POSITION = re.compile(
    r"(?m)^[ \t]*(?:(?=[\w./\\-]*[^\W\d])[\w./\\-]++:\d+(?::\d+)?:?(?:\s|$)|\d+:\d+(?:\s{2,}|\t|$|\s+(?:error|warning|warn|info|note|hint)\b)).*$"
)
# A label opening a line of output: one word (or two joined by a dash) and a colon.
LABEL = re.compile(r"^\s*[\w-]{2,}(?:\s+[—–-]\s+\w+)?\s*:\s*\S")
INTRO_END = re.compile(r"[:?？]\s*\Z")
# A log line, from where its log starts to the end of its first sentence (the person may go on
# on that line): a date and a time with seconds, a level in brackets or with a count, an
# Android logcat tag, a tool's message as tools print it in English, a shell's prompt before a
# command; opening the line or after a short label ("logcat: E/Auth: …"). A level or a word
# such as "Warning:" alone is as often the person's own label ("WARNING: never commit the
# .env file"), a time alone the person's ("10:30 works for me"), "$ 500" a price.
LOG = (
    r"(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}:\d{2}|\[\d{1,2}:\d{2}:\d{2}\]"
    r"|\[(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRIT|CRITICAL|PANIC|SEVERE)\]"
    r"|(?:TRAC|DEBU|INFO|WARN|ERRO|FATA|PANI)\[\d+\]"
    r"|[VDIWEF]/[\w.$-]{3,}(?:\(\s*\d+\))?:"
    # … "TypeError: …", "APIError: …", "java.lang.IllegalStateException: …", "Traceback (most
    # recent call last)", "npm ERR!", Rust's "error[E0599]: …" ("WARN [deploy] never on a Friday" and
    # "error TS2322: always fix the type" may be the person's own labels)
    r"|(?:[a-z_]\w*\.)*[A-Z]\w+(?:Error|Exception|Warning):|Traceback\b|npm ERR!"
    r"|(?:error|warning)\[E\d{4}\]:"
    # … a level and a name in code with its colon, a word between them at most ("WARNING
    # gspread.auth: …", "WARN sender_id rejected: …"; not a word: "ERROR handling: always log
    # the request id" is the person's label, and so is "DEBUG settings.py must always be False"),
    # Django's check ID ("(models.W042)"). Not a linter's code alone: the person cites one before
    # a rule ("E501: Don't disable it, fix the lines.", reviews helper-213, helper-215)
    r"|(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)[ \t]+[a-z]\w*[._][\w.]*(?:[ \t]+[a-z]\w*)?:"
    r"|\((?:[a-z_]+\.)+[A-Z]\d{3}\)"
    r"|\$[ \t]+[a-z])"
)
LOG_LINE = re.compile(r"(?m)(?:^[ \t]*|^[ \t]*[^\W\d][\w ./-]{0,24}:[ \t]+)(" + LOG + r"[^\n]*?(?:[.!?](?=\s)|$))")
# A comment of code on a line of its own ("// keep in sync with schema.sql", "# never edit by hand").
COMMENT_LINE = re.compile(r"(?m)^[ \t]*(?://|#(?=[ \t])|/\*|<!--).*$")
# Lines of `git log --oneline`, two or more: a commit's short hash (seven hex digits or more, a
# digit and a letter among them) and its subject ("a1b2c3d fix: always close the db pool"); a
# message may open naming one commit ("abc1234 broke the build. Never force-push to main.").
COMMIT = r"[ \t]*(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}[ \t]+\S[^\n]*"
COMMIT_LINE = re.compile(r"(?m)^" + COMMIT + r"(?:\n" + COMMIT + r")+$")
# Code inline (`WARN: cache never warmed`) and a command's flag (--always-full): no word of it
# is a cue of the person's, though a sentence of it alone sets a value ("`--target dev_ana`").
INLINE_CODE = re.compile(r"`[^`\n]+`|(?<![\w-])--[^\W\d][\w.=-]*")
# A line setting one value of a name written as code, camelCase or dotted ("imagePullPolicy:
# Always", "pull.rebase=never"); "force_push: never" and "timeouts: always 30s" are the
# person's (`_settings`: the name is checked apart, so a long line is read in linear time).
NAME_VALUE = re.compile(r"(?m)^[ \t]*([\w.]+)[ \t]*[:=][ \t]*\S+[ \t]*$")
CODE_NAME = re.compile(r"[a-z][a-z0-9]*(?:[A-Z]|\.[a-z])")
# The number of an item in a numbered list, alone before its full stop ("1.", "12."), ends nothing.
LIST_MARKER = re.compile(r"\d{1,3}\.")
# Chinese and Japanese typed casually end a sentence with the ideographic (full-width) space as
# often as with "。" ("スタッフの名前はLINEに出さんといて　フルネームなんかもってのほかや"), but not
# after a particle or a joining word (`space_continues`: "今後は　必ず…"). Thai writes no space
# between words but a half-width one between sentences and clauses, and Chinese typed casually
# uses one as a pause: such a space ends a sentence only after a word that closes one
# (`space_ends_after`: "มัดจำคนละ 500 บาทค่ะ ไม่ใช่ 30% …", "大杯才有喔 中杯不參加"), the last word
# read in the CLOSING_WINDOW letters before it; before a number, a name or a place it is as
# often inside one ("松仁路 58 號", "梅田支店 普通"), and before a contrast it goes on with the one
# before ("500 บาทค่ะ ไม่ใช่ 30%"). (Only a space between two such letters is looked at: a
# message in English or Russian is not walked space by space.)
SPACE = re.compile(rf"(?<=[{spaceless_class()}])(?:\u3000+| +)(?=[{spaceless_class()}])")
CLOSING_WINDOW = 16
# Characters after the word that opens a point read for what follows it.
WORD_WINDOW = 12
# What opens and closes a quotation or an aside, in which such a space ends nothing.
OPENING = "「『（(【〔“‘"
CLOSING = "」』）)】〕”’"


@dataclass(frozen=True)
class Apart:
    """What of a message is not the person's own words (see the module docstring): `parts`, a
    sentence within which is not read at all; `words`, those and code inline (`INLINE_CODE`),
    where no word is a cue of the person's."""

    parts: list[tuple[int, int]]
    words: list[tuple[int, int]]

    def holds(self, sentence: Sentence) -> bool:
        """Whether the sentence lies within one of the parts: of those starting at or before it,
        the furthest end (read by bisection: a message of thousands of parts and sentences is
        not read part by sentence)."""
        _, starts, ends = self._parts
        k = bisect_right(starts, sentence.start)
        return k > 0 and ends[k - 1] >= sentence.end

    def around(self, sentence: Sentence) -> list[tuple[int, int]]:
        """The spans of `words` that overlap the sentence, from its start: those starting inside
        it, and those before it that reach into it (read back from it while one still may)."""
        spans, starts, ends = self._words
        found = []
        j = bisect_left(starts, sentence.end) - 1
        while j >= 0 and ends[j] > sentence.start:
            a, b = spans[j]
            if b > sentence.start:
                found.append((a - sentence.start, b - sentence.start))
            j -= 1
        return found[::-1]

    @cached_property
    def _parts(self) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        return _reach(self.parts)

    @cached_property
    def _words(self) -> tuple[list[tuple[int, int]], list[int], list[int]]:
        return _reach(self.words)


def _reach(spans: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """`spans` in order, their starts, and the furthest end of those up to each."""
    ordered = sorted(spans)
    return ordered, [a for a, _ in ordered], list(accumulate((b for _, b in ordered), max))


@dataclass(frozen=True)
class Sentence:
    text: str  # as written, without the spaces around it
    start: int  # offsets into the NFC message
    end: int


def sentences(message: str) -> list[Sentence]:
    """The sentences of `message` (NFC), in order, with their offsets."""
    text = unicodedata.normalize("NFC", message)
    found: list[Sentence] = []
    start = 0
    for match in END.finditer(text):
        if match.group(0)[0] == "." and _abbreviation(text[start : match.start()], text[match.start() + 1 :]):
            continue
        if LIST_MARKER.fullmatch(text[start : match.end()].strip()) and text[match.end() : match.end() + 1].isspace() and text[match.end()] != "\n":
            continue  # "1. 上線日是 3/18": the number of an item in a list opens its sentence
        _add(found, text, start, match.end())
        start = match.end()
    _add(found, text, start, len(text))
    return [piece for sentence in found for piece in _spaced_apart(sentence)]


def _spaced_apart(sentence: Sentence) -> list[Sentence]:
    """The sentence cut at each space between two letters of a script written without spaces that
    ends one (`SPACE`), and at each half-width space before a word that opens the next point
    (`_point_space`), outside brackets and quotation marks ("「…ひだまり　佐藤」")."""
    text = sentence.text
    pieces: list[Sentence] = []
    start = depth = read = 0
    spaces = {m.start(): m for m in SPACE.finditer(text)}
    points = {m.start(): m for m in _point_space().finditer(text)} if not text.isascii() else {}
    # where a word that carries over to what follows stands (`_carried`), found once
    scopes = [m.start() for m in _carried().finditer(text)] if points else []
    for at in sorted(spaces.keys() | points.keys()):
        match = spaces.get(at) or points[at]
        between = text[read:at]
        depth += sum(c in OPENING for c in between) - sum(c in CLOSING for c in between)
        read = at
        if at not in spaces:
            ends = _opens_point(text, start, match.end(), scopes)  # "… 22:00 然後「服務質量」…": after a digit too
        elif match.group(0)[0] == "\u3000":
            ends = not text.endswith(_joining(), max(0, at - _longest(_joining())), at)
        else:
            ends = _closes(text[max(0, at - CLOSING_WINDOW) : at]) or _opens_point(text, start, match.end(), scopes)
            ends = ends and not text.startswith(contrasts_unspaced(), match.end())
        # … a space before a point's opener, after a letter of such a script or a digit: not in
        # English, Korean or a word of Latin letters that names it ("translate 'then' as 然後")
        after_own = unspaced(text[at - 1]) or text[at - 1].isdigit()
        if depth <= 0 and ends and after_own and (at not in spaces or unspaced(text[match.end()])):
            pieces.append(Sentence(text[start:at], sentence.start + start, sentence.start + at))
            start = match.end()
    if not pieces:
        return [sentence]
    return [*pieces, Sentence(text[start:], sentence.start + start, sentence.end)]


@cache
def _joining() -> tuple[str, ...]:
    """The words of every language after which an ideographic space goes on (`space_continues`)."""
    return tuple(sorted(in_every_language("space_continues")))


def _closes(before: str) -> bool:
    """Whether the last word of `before` (as the text layer cuts a script without spaces into
    words: "ทีมเราชนะ" ends in ชนะ, not นะ; "除了" is one word) is one after which a half-width
    space ends a sentence (`space_ends_after`)."""
    if not before.endswith(_closing_letters()):
        return False
    last = segment(before)
    return bool(last) and last[-1].text in in_every_language("space_ends_after")


def _opens_point(text: str, start: int, after: int, scopes: list[int]) -> bool:
    """Whether the word after a half-width space (at `after`) opens the next point
    (`space_ends_before`: "然後", "แล้ว"), followed by more of it that is neither a
    closing particle (Thai "แล้วนะคะ" says "already") nor the next step of an order
    (`impact.then`: "然後再部署", "แล้วค่อย deploy"), in a sentence that from `start` holds no
    word `scopes` lists (`_carried`: "以後每次部署 然後都要通知我", "先跑測試 然後部署": what it says
    holds for what follows)."""
    opener = next((w for w in _point_openers() if text.startswith(w, after)), None)
    if opener is None or bisect_left(scopes, after) > bisect_left(scopes, start):
        return False
    rest = text[after + len(opener) : after + len(opener) + WORD_WINDOW].lstrip()
    return bool(rest) and not rest.startswith(_closing_letters()) and not rest.startswith(_thens())


@cache
def _point_openers() -> tuple[str, ...]:
    return tuple(sorted(in_every_language("space_ends_before")))


@cache
def _point_space() -> re.Pattern[str]:
    """A half-width space after any letter, digit or mark, before a word that opens a point."""
    return re.compile(rf"(?<=\S) +(?=(?:{'|'.join(map(re.escape, _point_openers()))}))")


@cache
def _carried() -> re.Pattern[str]:
    """The words of every language written without spaces whose reach goes on past a space: an
    order's first step (`impact.first`: "先", "ก่อน"), a rule's scope (`impact.standing`: "以後",
    "每次", "ต่อไปนี้"), a "don't" (`impact.prohibition_openers`, `impact.stop_openers`: "不要直接推
    main 然後開 PR", "ห้าม push main แล้วเปิด PR" is one rule) and a condition (the meaning table's
    `if`: "如果客人問價格 然後一律回答 500 元" holds only then; review helper-177)."""
    conditions = (w for w in meaning("if") if w and unspaced(w[0]))
    words = sorted({*unspaced_phrases("first", "standing", "prohibition_openers", "stop_openers"), *conditions}, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, words)) or r"(?!)")


@cache
def _thens() -> tuple[str, ...]:
    """The words of an order's next step of every language written without spaces ("再", "ค่อย")."""
    return unspaced_phrases("then")


@cache
def _longest(words: tuple[str, ...]) -> int:
    return max(map(len, words), default=0)


@cache
def _closing_letters() -> tuple[str, ...]:
    return tuple(sorted(in_every_language("space_ends_after")))


def _mark(char: str) -> bool:
    """Whether `char` is a quotation mark or a bracket, of any script: Unicode's opening,
    closing, initial and final punctuation (« » „ “ 「 」 ( ) [ ]) and the ASCII quotes."""
    return unicodedata.category(char) in ("Ps", "Pe", "Pi", "Pf") or char in "\"'"


def _abbreviation(before: str, after: str) -> bool:
    """Whether the full stop after `before` (`after` follows it) ends an abbreviation, not the
    sentence. One that is also a negation ("no.": No. 5) is one only before a number: "god no.
    dont touch it" is two."""
    last = before.rsplit(None, 1)[-1].casefold() if before.strip() else ""
    # … opened by a quote or a bracket: '"Mr. Sharma" nahi', "(Dr. Who)"; not one a mark
    # closes right after, which is named, not used: 'remove the "etc." Always list …'
    opened = last[next((k for k, c in enumerate(last) if not _mark(c)), len(last)) :]
    if opened != last and not (after and _mark(after[0])):
        last = opened
    if not last or last not in abbreviations():
        return False
    return last not in negations() or after.lstrip()[:1].isdigit()


def _add(found: list[Sentence], text: str, start: int, end: int) -> None:
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip())
    body = piece.strip()
    if body:
        found.append(Sentence(body, start + lead, start + lead + len(body)))


def apart(message: str) -> Apart:
    """What of `message` (NFC) is not the person's own words, as offsets into it."""
    text = unicodedata.normalize("NFC", message)
    parts = [(a, b) for a, b, _reason in apart_spans(text)]
    parts += [(m.start(), m.end()) for m in SINGLE_QUOTED.finditer(text)]
    parts += [(m.start(), m.end()) for pattern in (INDENTED, POSITION, COMMENT_LINE, COMMIT_LINE) for m in pattern.finditer(text)]
    parts += [(m.start(), m.end()) for m in NAME_VALUE.finditer(text) if CODE_NAME.match(m.group(1))]
    parts += [(m.start(1), m.end(1)) for m in LOG_LINE.finditer(text)]
    parts += _pasted_blocks(text)
    return Apart(parts, parts + [(m.start(), m.end()) for m in INLINE_CODE.finditer(text)])


def _pasted_blocks(text: str) -> list[tuple[int, int]]:
    """The blocks of output introduced by a line ending in ":" or "?" (see the module docstring)."""
    found: list[tuple[int, int]] = []
    lines = text.split("\n")
    offset = 0
    starts = []
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    i = 1
    while i < len(lines):
        first = lines[i]
        if INTRO_END.search(lines[i - 1]) and first.strip() and _output_like(first):
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            found.append((starts[i], starts[j - 1] + len(lines[j - 1])))
            i = j
        i += 1
    return found


def _output_like(line: str) -> bool:
    return bool(INDENTED.match(line) or POSITION.match(line) or LABEL.match(line))
