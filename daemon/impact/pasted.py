"""What a tool printed, pasted into a person's message: a sentence whose cues are a tool's words,
not the person's rule (pure, no I/O; docs/explanation/impact.md#what-is-left-out). Read for each
sentence by `daemon.impact.sentence_reading`.
"""

from __future__ import annotations

import re

from daemon.impact.clauses import Words, breaks, words_of
from daemon.impact.cues import Cue, said
from daemon.impact.setright import asking
from daemon.text.keyboard import find
from daemon.text.language import Language, detect

# Cues that are words a tool's message says as well: "Retries never exceeded", "use foo()
# instead", "prefer-const".
TOOL_SAYS_TOO = frozenset({"standing", "instead", "preference"})
# What a tool prints, in English whatever language the person writes, in a tool's format: a
# level in capitals opening the sentence or in brackets ("WARN …", "[ERROR]"), a level or an
# outcome opening its message ("error:", "Warning:", "failed:"), or a mark of code (a call
# "fetchAll()", "print(msg)", "{", "}", "==", "::", "`"). A format, not a language's words: the
# same words in prose ("never swallow errors", "never ship DEBUG builds", "the file(s)") are the person's.
LEVEL = r"(?:ERROR|ERR|WARN|WARNING|FATAL|DEBUG|TRACE|CRITICAL|DEPRECATED|FAILED|FAIL|EXCEPTION)\b"
BRACKETED = r"\[(?:ERROR|ERR|WARN|WARNING|FATAL|DEBUG|TRACE|INFO|CRITICAL)\]"
OUTCOME = r"(?i:error|warning|warn|fatal|deprecated|failed|exception|debug|notice)(?:\s+[\w.-]{0,24}\d[\w.-]{0,24})?\s*:"
TOOL_PRINTS = re.compile(rf"^\W*{LEVEL}|{BRACKETED}|\b{OUTCOME}|[A-Za-z_][\w.]*\((?:[^()\s]{{2,}})?\)|[{{}}`]|==|::")
# … and one opening a tool's message a sentence may go on ("WARNING: label exceeds print area
# (y=285 > 280). Always check …", "Exception: … Never call DriveApp inside a loop."), a level
# with its code too ("Error 215:", "warning TS6385:"; a code of a few letters: the pattern stays
# linear on a long token). Not a capitalised label: "Note: this repo is public. Never commit
# secrets." is the person's (review, helper-155).
TOOL_OPENS = re.compile(rf"\W*(?:{LEVEL}|{BRACKETED}|{OUTCOME})")
# A tool's message the person pastes after words of their own and a colon ("it printed this:",
# "返回这个："), in a tool's format whatever the language: an exception's class ("ValueError:",
# "APIError: [429]"), a level a person does not write as a condition or a setting ("WARNING:",
# not "DEBUG:", "FAIL:"), a numbered code ("errcode 45009:"), or a constant naming a failure
# ("INVALID_USER_SCODE:"; not "DATABASE_URL:"). Not opening the sentence ("WARNING: never commit
# the .env file" is a label), nor after a topic the person names without a colon ("About the
# KeyError: always use .get()", "to fix the AttributeError: objects must always be …", review
# helper-224). Each repeat is bounded: the pattern stays linear on a long run of spaces or dots.
FAILURE = frozenset(
    {"INVALID", "ERROR", "ERR", "DENIED", "LIMITED", "LIMIT", "EXCEEDED", "FORBIDDEN", "TIMEOUT", "FAILED", "FAILURE", "REJECTED", "UNAUTHORIZED", "NOT"}
)
TOOL_MESSAGE = re.compile(
    r"[:：][ \t]?(?:(?P<head>[A-Z][A-Za-z0-9]{0,60}(?:Error|Exception|Warning)|(?:ERROR|ERR|WARN|WARNING|FATAL|CRITICAL)\b"
    r"|(?i:errcode|errno)[ \t]?(?:[-=][ \t]?)?\d{1,6})[ \t]?(?:\[\d{1,4}\][ \t]?)?:"
    r"|(?P<constant>[A-Z][A-Z0-9]{0,30}(?:_[A-Z0-9]{1,30}){1,8})[ \t]?:)"
)


def after_tool_message(lang: Language | None, text: str, words: Words, found: list[Cue]) -> bool:
    """Whether every cue of the sentence, read in English, stands in a tool's message pasted in
    it (TOOL_MESSAGE), in the message's first clause, its own words before them: "it spit this
    out too: WARNING: shipments containing live seafood must always set PERISHABLE=true",
    "返回这个：INVALID_USER_SCODE: the key must always be bound …". The person's own is what
    follows a clause break, a lead-in, "and", a person ("I", "we", "you") or an asking word
    after the head ("… TypeError: bad operand, so always cast first", "… TimeoutError: please
    never call the API in the loop"; review helper-222), a cue right after it ("Note: WARNING:
    never commit the .env file", "About the KeyError: always use .get()"), or a cue in the
    person's language ("es wirft TypeError: unsupported operand, also immer …"); nor is it
    "ValueError again, never pass dates as strings" (no colon) or "never pass dates as strings,
    it throws ValueError: …" (the cue before it)."""
    if not found or lang is None or "en" not in lang.code.split("+"):
        return False
    head = TOOL_MESSAGE.search(text)
    if head is None or (head.group("constant") and FAILURE.isdisjoint(head.group("constant").split("_"))):
        return False
    ends = head.end()
    begins = head.start("constant") if head.group("constant") else head.start("head")
    # the head's first word, and the first word of its message
    first = next((i for i, (start, _) in enumerate(words.spans) if start >= begins), len(words.spans))
    opens = next((i for i, (start, _) in enumerate(words.spans) if start >= ends), len(words.spans))
    cue = min(c.at for c in found)
    if first == 0 or cue <= opens:
        return False
    own = (
        lang.impact.get("lead_ins", frozenset())
        | lang.impact.get("second_person", frozenset())
        | asking(lang)
        | {(w,) for w in lang.lists.get("conjunctions", frozenset()) | lang.person_alone | lang.lists.get("first_person_plural", frozenset())}
    )
    between = words.low[opens:cue]
    return not any(opens < i <= cue for i in breaks(text, words)) and not find(between, own)


def pasted_output(lang: Language | None, usual: Language | None, text: str, found: list[Cue], before: str = "") -> bool:
    """Whether the sentence is output the person pasted rather than their words. In any
    session: every cue in a tool's message pasted in it (`after_tool_message`). Read in
    English, in a session the person writes another
    language in: its cues are only words a tool says too (TOOL_SAYS_TOO) and it holds what a
    tool prints (TOOL_PRINTS), or goes on a tool's message, the sentence `before` it on its
    line opening with a level (TOOL_OPENS) in English: "WARN: retry policy never applied
    (job=42)" in a Polish session, "WARNING: label exceeds print area (y=285 > 280). Always
    check ^LL …" in a French one (not "Warning: ist doch egal. Always use pnpm.", "le build a
    planté (error: exit 1). Always run lint …"), or says a rule in the register of
    documentation and terms, as pages write it, of no one present (`_documented`:
    "Administrators should always enable 2FA.", "Messages outside the 24h window must always
    use an approved template."; not "you should never push to main", "we should always run the
    tests"). Someone who writes Polish does not switch to English to print a level or a call,
    nor to lay down what "should always" be; a rule in English beside their own ("commits
    always in English") holds none of these."""
    if lang is None or "en" not in lang.code.split("+") or not found:
        return False
    # the sentence's words are segmented only for a sentence that may hold a tool's message
    if TOOL_MESSAGE.search(text) and after_tool_message(lang, text, words_of(text), found):
        return True
    if not all(c.kind in TOOL_SAYS_TOO for c in found) or usual is None or "en" in usual.code.split("+"):
        return False
    words = words_of(text)
    if TOOL_PRINTS.search(text) or _documented(lang, text, words):
        return True
    said_before = detect([before]) if TOOL_OPENS.match(before) else None
    return said_before is not None and "en" in said_before.code.split("+")


def _documented(lang: Language, text: str, words: Words) -> bool:
    """Whether the sentence says a rule in the register of documentation, terms and policies
    (`impact.documented`: "should always", "will never"), written as pages are, opening with a
    capital, with no one of the conversation in it: "Plugin updates must always be tested on
    staging."; not "you should never push to main", "we should always run the tests first"
    (review helper-201), nor "secrets should never be committed, bitte", "commit messages should
    always be in english", which the person types (review helper-202)."""
    if not said(lang, words, lang.impact.get("documented", frozenset())) or not text.lstrip()[:1].isupper():
        return False
    persons = lang.lists.get("first_person", frozenset()) | lang.lists.get("first_person_plural", frozenset())
    return not any(w in persons for w in words.low) and not said(lang, words, lang.impact.get("second_person", frozenset()))
