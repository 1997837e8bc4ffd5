"""A tool's English message pasted into a conversation the person holds in another language,
or a tool's message after its head in any (an exception's class, a level, a numbered code, a
linter's rule), is not the person's rule (`pasted.pasted_output`); the person's own rule there is."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done, I updated the file."


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", answered=AGENT, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("pl", "WARN retry policy never applied for job 42"),
        ("de", "Deprecated: use fetchAll() instead"),
        ("tr", "BUILD FAILED: cache always stale"),
        ("ja", "error: config value must always be set (key=timeout)"),
        ("pt", "eslint: `prefer-const`, never reassigned"),
        ("es", "retries always disabled when dry_run == true"),
    ],
)
def test_a_tools_english_message_in_another_languages_session_is_no_statement(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # the same words in an English session may be the person's
        ("en", "always run the linter, a failed build costs us an hour"),
        # the person's own English rule in another language's session holds no tool's mark
        ("pl", "commits always in English, Minh reads them"),
        ("ja", "tickets always in English pls, Minh can't read Japanese"),
        # … nor one that names a level or an outcome in prose, or writes a value (review, helper-109)
        ("pl", "never swallow errors silently, always log them"),
        ("de", "never commit with failed tests"),
        ("pt", "always add error handling around the Stripe calls"),
        ("tr", "always set NODE_ENV=production on the build server"),
        ("ja", "always deploy staging -> prod, never straight to prod"),
        ("fr", "never log at debug level in production"),
        ("pl", "always reply in English; Minh reads the threads"),
        ("de", "always raise exceptions, never return None"),
        ("pl", "always check the file(s) before merging"),  # (review, helper-110)
        ("pl", "more info: always ask Minh before deploying"),
        ("pl", "never ship DEBUG builds to the store"),
        # … and a rule in the person's language holding code is theirs
        ("pl", "nigdy nie używaj print(), tylko logger"),
        ("de", "nie wieder console.log() im Commit, bitte"),
    ],
)
def test_a_rule_said_in_earnest_stays_a_statement(code: str, message: str) -> None:
    (statement,) = found(message, code)
    assert statement.cues


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # the tool's message goes on past its first sentence, on its line
        ("fr", "ouais. WARNING: label exceeds print area (y=285 > 280). Always check ^LL matches the physical label length. ça veut dire quoi ?"),
        ("uk", "Exception: Service invoked too many times for one day: driveapp. Never call DriveApp inside a loop.\nшо з цим робити?"),
        # … a level with its code, or a notice named by its source, opens it too
        ("el", "Το σύστημα μου έβγαλε αυτό:\nError 4012: the VAT category must always match the line's classification."),
        ("th", "ระบบขึ้นอันนี้มาค่ะ\n[ChannelHub] Notice: changes pushed after midnight are always applied the next day."),
        ("de", "was heißt das?\nwarning TS6385: this option is deprecated. Always prefer the new flag."),
    ],
)
def test_a_tools_message_going_on_along_its_line_is_no_statement(code: str, message: str) -> None:
    assert [s.quote for s in found(message, code) if "always" in s.quote.casefold() or "never" in s.quote.casefold()] == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # the person's own rule on the next line, or on a line with no tool's mark before it
        ("pl", "WARN retry policy never applied for job 42\nalways log the job id, please"),
        ("fr", "ok pour le texte. Always write the dates as 22/01/2026."),
        # … nor after the person's own words holding a mark of code or a level (review, helper-152)
        ("pl", "fajnie `foo` działa. Always prefer named exports."),
        ("pl", "wywołaj foo() raz. Never call it in a loop."),
        ("fr", "le build a planté (error: exit 1). Always run lint before pushing."),
        ("fr", "j'ai mis {} partout. Always use 2 spaces."),
        ("de", "Warning: ist doch egal. Always use pnpm."),
        # a label in the person's language, or a level with no colon, opens no tool's message
        ("pl", "Notatka: to ważne. Always run the tests first."),
        ("de", "Error 404 kommt ständig. Always check the URL first."),
        # … nor a label in English: the person's own note (review, helper-155)
        ("ru", "Note: this repo is public. Never commit secrets."),
        ("pl", "Important: this is for the client. Always use a formal tone."),
    ],
)
def test_a_rule_on_a_line_of_its_own_after_a_tools_message_stays(code: str, message: str) -> None:
    assert any(word in s.quote.casefold() for s in found(message, code) for word in ("always", "never"))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # a verb of saying of the person's language before a colon gives what follows as
        # someone else's words, in whatever language they are (`sentence_reading._quoted_after`)
        ("it", "caricato su glovo, dice: Row 12: price must always use a dot as decimal separator"),
        ("da", "eslint siger: no-console — Unexpected console statement."),
        ("de", "der Steuerberater sagt: invoices must always show the VAT number"),
        ("es", "mi jefe dice: always in EUR"),  # "my" is no "I"
        ("ru", "мне начальник сказал: always use UTC"),  # someone else after "I" (helper-169)
        ("ru", "я спросил у тимлида и он сказал: never push to main"),  # … or after an "and"
        ("pt", "o cliente já disse: always send the invoices as PDF files"),  # a reminder of theirs
    ],
)
def test_what_someone_else_says_after_a_colon_is_no_statement(code: str, message: str) -> None:
    assert not found(message, code)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("de", "ich sagte: always in EUR"),  # the person's own words
        ("ru", "я же сказал: never push to main"),  # … "I" before the verb in its clause
        ("nl", "zoals ik al zei: never push to main"),
        ("pt", "já disse: always use UTC in the exports"),  # … or said as a reminder
        ("it", "always use a dot here, glovo dice: row 12 failed"),  # the rule comes before it
        ("it", "caricato su glovo. Always use a dot as decimal separator"),  # no verb of saying before it
    ],
)
def test_the_persons_own_rule_after_a_colon_stays(code: str, message: str) -> None:
    assert found(message, code)



@pytest.mark.parametrize(
    ("code", "message"),
    [
        # every cue, read in English, in the first clause of a tool's message after its head and
        # the person's colon, whatever the session's language
        ("en", "it printed this: WARNING: uploads must always include a checksum or they are dropped, what does that mean"),
        ("en", "the export throws this: TypeError: amount must never be a string"),
        ("zh", "接口返回这个：RATE_LIMITED: clients should never exceed 10 requests per second"),
        ("pl", "dostałem to: errno 13: files must always be opened read-only here"),
    ],
)
def test_a_tools_message_after_its_head_is_no_statement_in_any_session(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "ValueError again, never pass the dates as strings"),  # no head: no colon
        ("en", "never pass dates as strings, it throws ValueError: bad format"),  # the cue before it
        ("en", "NODE_ENV: never production on this box"),  # a key the person sets, opening the sentence
        ("en", "WARNING: never commit the .env file"),  # … or a label (review, helper-102)
        # the person's own clause after the tool's message (review, helper-222): after a clause
        # break, a lead-in, "and", a person or a request
        ("en", "it throws TypeError: cannot add str and int, so always cast to Decimal first"),
        ("en", "it throws TypeError: bad operand so always cast first"),
        ("en", "we hit errno 28: no space left, so always clean /tmp before builds"),
        ("en", "it throws TypeError: bad operand so we always cast first"),
        ("en", "Sentry keeps reporting TimeoutError: please never call the API inside the loop again"),
        ("en", "still getting ModuleNotFoundError: No module named 'requests' — always activate the venv first"),
        # … a cue right after the head: a topic, a label after the person's words
        ("en", "About the KeyError: always use .get() for optional fields"),
        # … or after a topic named without a colon (review, helper-224)
        ("en", "to fix the AttributeError: objects must always be initialized before use"),
        ("en", "re the TypeError: amounts must always be Decimals"),
        ("en", "Note: WARNING: never commit the .env file"),
        ("en", "on ERROR: never swallow it, always log the request id"),
        # … a level or a constant a person writes as a condition, a setting or a key
        ("en", "if the tests FAIL: never merge, always fix them first"),
        ("en", "FYI: DEBUG: always False in prod"),
        ("en", "for the config: DATABASE_URL: always staging"),
        ("en", "btw: W0102 always fix it, never disable it"),
        # … a cue in the person's language
        ("de", "es wirft TypeError: unsupported operand, also immer vorher in Decimal umwandeln"),
        ("fr", "pour la KeyError: utilise toujours .get()"),
        ("ja", "またこれ：TypeError: bad operand、今後は必ず先に Decimal に変換して"),
        # … and a rule written as pages write it after an error, in an English session
        ("en", "ValueError: bad date. Dates should always be ISO 8601."),
    ],
)
def test_the_persons_rule_beside_a_tools_message_stays(code: str, message: str) -> None:
    assert any(c.startswith("standing:") for s in found(message, code) for c in s.cues)
