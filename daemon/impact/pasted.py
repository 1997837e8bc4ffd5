"""What a tool printed, pasted into a person's message: a sentence whose cues are a tool's words,
not the person's rule (pure, no I/O; docs/explanation/impact.md#what-is-left-out). Read for each
sentence by `daemon.impact.sentence_reading`.
"""

from __future__ import annotations

import re

from daemon.impact.clauses import Words, words_of
from daemon.impact.cues import Cue, said
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
# A tool's message the person pastes after words of their own, in a tool's format whatever the
# language, from its head to the sentence's end (not opening it): an exception's class ("ValueError:", "APIError:
# [429]"), a level in capitals with its colon ("WARNING:"), a numbered code ("errcode 45009:"),
# a linter's rule after its name ("ruff: B006"), or a constant's name after the person's own
# colon ("返回这个：INVALID_USER_SCODE: the key must always …"; opening the sentence, "NODE_ENV:
# never production here" is a key the person sets).
TOOL_MESSAGE = re.compile(
    rf"(?<![\w-])(?:[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)|{LEVEL}|(?i:errcode|errno)\s*[-=]?\s*\d{{2,}})\s*(?:\[\d+\]\s*)?:"
    r"|(?<![\w-])[a-z][\w.-]*:\s+(?P<rule>[A-Z]{1,3}\d{3,4})\b"
    r"|[:：]\s*(?P<constant>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s*:"
)


def after_tool_message(text: str, words: Words, found: list[Cue]) -> bool:
    """Whether every cue of the sentence stands in a tool's message pasted in it (TOOL_MESSAGE,
    to the sentence's end): "il a sorti ça: ValueError: … SCOR references are never accepted",
    "it spit this out too: WARNING: shipments … must always set PERISHABLE=true", "ruff: B006
    never use mutable default arguments"; not "ValueError again, never pass dates as strings"
    (no colon), "never pass dates as strings, it throws ValueError: …" (the cue before it), nor
    a head opening the sentence, the person's label."""
    head = TOOL_MESSAGE.search(text)
    if head is None or not found:
        return False
    start = head.start("rule") if head.group("rule") else head.start("constant") if head.group("constant") else head.start()
    first = next((i for i, (begin, _) in enumerate(words.spans) if begin >= start), len(words.spans))
    # opening the sentence, it is the person's label (review, helper-102): "WARNING: never commit
    # the .env file", "TS2322: always fix, never ts-ignore"
    return first > 0 and all(c.at >= first for c in found)


def pasted_output(lang: Language | None, usual: Language | None, text: str, found: list[Cue], before: str = "") -> bool:
    """Whether the sentence is output the person pasted rather than their words. In any
    session: every cue in a tool's message pasted in it (`after_tool_message`), or a rule in
    the register of documentation (`_documented`) going on a tool's message in the sentence
    `before` it on its line ("…: APIError: [429] Quota exceeded. Clients should always retry
    with exponential backoff."). Read in English, in a session the person writes another
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
    words = words_of(text)
    if after_tool_message(text, words, found):
        return True
    if lang is None or "en" not in lang.code.split("+") or not (found and all(c.kind in TOOL_SAYS_TOO for c in found)):
        return False
    if TOOL_MESSAGE.search(before) and _documented(lang, text, words):
        return True
    if usual is None or "en" in usual.code.split("+"):
        return False
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
