"""Detection: each cue class finds its statement and each exclusion leaves its sentence out,
in English, German and French (sentences written for these tests, not the corpus's)."""

from __future__ import annotations

import pytest

from daemon.impact.reply import Reply
from daemon.impact.statements import Statement, detect_statements
from daemon.impact.swapped import Rewrites
from daemon.text.language import detect, language

# The agent's turn the person answers: a statement sets right what the agent did, or says how
# work is to be done; the first message of a session states a task (test_statements_readings).
AGENT = "Done, I updated the file."


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", "s1.jsonl@120", answered=AGENT)


def kinds(message: str) -> list[tuple[str, str]]:
    return [(s.kind, s.quote) for s in found(message)]


@pytest.mark.parametrize(
    ("message", "kind", "cue"),
    [
        # correction openers, a punctuation mark after them
        ("Nope — the invoices go to finance, the reports to Ruth.", "correction", "correction:nope"),
        ("Nein, die Besprechung ist am Donnerstag.", "correction", "correction:nein"),
        ("Faux : le rapport part à Lyon.", "correction", "correction:faux"),
        # "X, not Y"
        ("The backup runs at midnight, not at noon.", "correction", "contrast:not"),
        ("Der Server steht in Frankfurt, nicht in Berlin.", "correction", "contrast:nicht"),
        ("La réunion est jeudi, pas vendredi.", "correction", "contrast:pas"),
        # instead
        ("Put the logs in /var/log/app instead.", "correction", "instead:instead"),
        ("Nimm stattdessen den grossen Raum.", "correction", "instead:stattdessen"),
        ("Mets le tableau à la place.", "correction", "instead:à la place"),
        # said before
        ("The budget is 4000 euros, I told you.", "correction", "reminder:i told you"),
        ("Das Budget sind 4000 Euro, hab ich doch gesagt.", "correction", "reminder:hab ich doch gesagt"),
        ("Le budget, c'est 4000 euros, je te l'ai déjà dit.", "correction", "reminder:je te l'ai déjà dit"),
        # again, at the start or exclaimed
        ("Again: the tickets need a priority label.", "correction", "again:again"),
        ("Schon wieder ohne Betreffzeile!", "correction", "again:schon wieder"),
        ("Encore une fois : les factures en PDF.", "correction", "again:encore une fois"),
        # stop / don't
        ("Stop renaming the branches.", "preference", "stop:stop"),
        ("pls stop adding comments everywhere", "preference", "stop:stop"),  # after a lead-in as typed
        ("Hör auf, die Dateien umzubenennen.", "preference", "stop:hör auf"),
        ("Arrête de renommer les fichiers.", "preference", "stop:arrête"),
        # prohibition openers, a word after them
        ("No capital letters in the slugs.", "preference", "prohibition:no"),
        ("Keine Grossbuchstaben in den Dateinamen.", "preference", "prohibition:keine"),
        ("Pas de majuscules dans les noms de fichiers.", "preference", "prohibition:pas de"),
        # preference verbs
        ("I'd rather get one summary at the end of the day.", "preference", "preference:i'd rather"),
        ("Ich bevorzuge kurze Zusammenfassungen.", "preference", "preference:ich bevorzuge"),
        ("Je préfère un seul résumé le soir.", "preference", "preference:je préfère"),
        # a limit beside a number
        ("Summaries of 200 words at most.", "preference", "limit:at most"),
        ("Höchstens drei Punkte pro Folie.", "preference", "limit:höchstens"),
        ("Trois points au maximum par diapositive.", "preference", "limit:au maximum"),
        # always / never / from now on (claim.standing too)
        ("Always tag the release notes with the sprint number.", "standing_instruction", "standing:always"),
        ("Niemals Kundendaten in Tickets kopieren.", "standing_instruction", "standing:niemals"),
        ("Désormais, les comptes rendus vont à Claire.", "standing_instruction", "standing:désormais"),
        ("From now on, the weekly mail goes out on Monday.", "standing_instruction", "standing:from now on"),
        ("thats not how we do it here, we rebase onto main", "standing_instruction", "standing:not how we do it"),
        ("Ab jetzt geht die Wochenmail am Montag raus.", "standing_instruction", "standing:ab jetzt"),
        (
            "À partir de maintenant, on archive tout le vendredi.",
            "standing_instruction",
            "standing:à partir de maintenant",
        ),
    ],
)
def test_each_cue_class_finds_its_statement(message: str, kind: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.kind == kind
    assert cue in statement.cues
    assert statement.quote == message
    assert (statement.session, statement.turn, statement.ref) == ("s1.jsonl", 3, "s1.jsonl@120")


@pytest.mark.parametrize(
    "message",
    [
        # questions
        "Should we always archive the old tickets?",
        "Sollen wir die Tickets immer archivieren?",
        "Faut-il toujours archiver les anciens tickets ?",
        # agreement and polite refusals
        "No, that's fine, keep the draft as it is.",
        "No thanks, the current layout works.",
        "Nein, du hast recht, das passt so.",
        "Nein danke, die Liste reicht.",
        "Non, tu as raison, garde la version courte.",
        "Non merci, le plan actuel suffit.",
        # one-off requests
        "Use the backup server this time, the main one is down.",
        "Nimm diesmal den Ersatzserver, nicht den Hauptserver.",
        "Pour cette fois, prends le serveur de secours, pas le principal.",
        # hypotheticals
        "If I asked you to always use tabs, would that break the linter.",
        "Wenn ich dir sagen würde, immer Tabs zu nehmen, was dann.",
        "Si je te disais de toujours mettre des tabulations, ça casserait le linter.",
        # jokes
        "Never start a meeting before coffee, haha.",
        "Nie vor dem Kaffee anfangen, hihi.",
        "Jamais de réunion avant le café, mdr.",
        "Never trust a printer 😂",
        # someone else's words
        "My manager says we always deploy on Tuesdays.",
        "Mein Chef sagt, wir deployen immer dienstags.",
        "Mon chef dit qu'on déploie toujours le mardi.",
    ],
)
def test_each_exclusion_leaves_its_sentence_out(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "Here is the linter output:\n  12:4  error  Always use const  prefer-const",
        "```\n# never commit secrets\nrm -rf build\n```",
        "> Always reply within a day.\nWhat do you make of this?",
        "The style guide reads: “Never use passive voice.”",
        "Ha, 'never deploy on a Friday' was the old motto.",
        "Die Software meldet:\nWARNUNG: Termine immer bestätigen",
        "src/app.py:10: error: never call print",
        # a log line: a timestamp, a level in brackets or with a count, an Android tag, a tool's
        # message as tools print it, after a label or not
        "2026-03-02 10:14:03 WARN consumer never acked offset 4412",
        "[ERROR] retry never succeeded",
        "ERRO[0003] always failing pull",
        "logcat: E/Auth: token never expires",
        "FutureWarning: pass the axis by name instead",
        "il log dice: java.lang.IllegalStateException: Session never opened",
        # … a class name with capitals inside, dotted ("APIError", "HTTPError")
        "gspread.exceptions.APIError: Quota exceeded — read requests should always be batched",
        "urllib.error.HTTPError: HTTP Error 429: always retry later",
        "cargo: warning[E0599]: the method is never called",
        # … a level and a logger's name in code, Django's check ID
        "it printed this:\nWARNING gspread.auth: never share the service account key file",
        "WARN sender_id rejected: alphanumeric sender IDs must never exceed 11 characters",
        "shop.Order: (models.W042) Auto-created primary key used when not defining a type, by default AutoField.",
        # a line of `git log --oneline`
        "git log shows it:\na1b2c3d fix: always close the db pool\n9f8e7d6 chore: bump deps",
        # code: inline, a comment line, a flag, a setting named as code, a shell's prompt
        "it prints `WARN: cache never warmed` on every boot",
        "// always keep in sync with schema.sql",
        "# never edit this file by hand",
        "crontab: 0 3 * * * /usr/bin/backup --always-full",
        "imagePullPolicy: Always",
        "$ git push --force  # never do this on main",
    ],
)
def test_cues_in_code_quotes_and_pasted_output_are_not_the_persons(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "use `pnpm`, never npm",  # the code is what the rule is about, the rule the person's
        "# Rules\nnever push to main",
        "answers: always in English",  # a label of plain words
        "force_push: never",  # … or in code, written as people write a name
        # a level or a tool's word as the person's own label, a time, a price, a code as a label
        "WARNING: never commit the .env file",
        "Warning: never run migrations on prod without a backup",
        "DEBUG logs never in production",
        "I/O: never block the event loop",
        "10:30:00 works for me, never before 9",
        "$ 500 is the cap, never more",
        "TS2322: always fix, never ts-ignore",
        "ISO8601 Dates always in UTC, never local time",
        "DEBUG settings.py must always be False in prod",  # no colon after the name
        # a linter's code the person cites before a rule (review, helper-213)
        "E501: never disable it, fix the lines.",
        "F401: Never leave unused imports, remove them.",
        "WARN logs never in production, and no [debug] tags either",
        "WARN [deploy] never on a Friday",
        # a dotted name, a level in capitals opening a line after one that introduces a list
        # are the person's labels (review, helper-181: "e.g.:", "README.md:", "ERROR handling:")
        "One more thing:\ne.g.: always use UTC timestamps",
        "Two rules:\nREADME.md: always update it with the release",
        "Two rules:\nERROR handling: always log the request id",
        "two rules for the logs:\nDEBUG logs never in production\nWARN always with a ticket number",
        "OSError is what it says. Never retry without a backoff.",
        "error TS2322: always fix the type, never use ts-ignore.",
        "-- never push to main --",
        # a short hash needs a digit and a letter, and a second line: one commit named is the
        # person's subject (review, helper-113)
        "effaced labels always get reprinted\nacceded requests never get reopened",
        "abc1234 broke the build. Never force-push to main again.",
        # the person goes on after a tool's message, on its line
        "TypeError: x is undefined. Never use optional chaining on that object.",
    ],
)
def test_the_persons_words_beside_code_are_read(message: str) -> None:
    assert any(s.kind == "standing_instruction" for s in found(message))


def test_only_the_statement_sentences_of_a_message_are_quoted() -> None:
    message = "Thanks for the draft. The deadline is Friday, not Monday. Send it to Ruth when done."
    assert kinds(message) == [("correction", "The deadline is Friday, not Monday.")]


def test_a_sentence_saying_only_that_it_was_said_before_takes_in_the_one_before() -> None:
    (statement,) = found("The staging host is stage-2. I said that last week.")
    assert statement.quote == "The staging host is stage-2. I said that last week."
    assert statement.recalls


@pytest.mark.parametrize(
    ("message", "code", "second"),
    [
        ("Viel zu lang, die Leute lesen nur die erste Zeile. Und du, nicht Sie.", "de", "Und du, nicht Sie."),
        ("Trop long, trois lignes suffisent. Et tu, pas vous.", "fr", "Et tu, pas vous."),
    ],
)
def test_a_contrast_of_function_words_after_a_statement_is_a_point_of_its_own(message: str, code: str, second: str) -> None:
    # "du, nicht Sie" holds no content word, but it sets a form of address right: not a
    # recall of the statement before, which it would be taken into
    answered = "Sehr geehrte Frau Huber, Ihre Buchung ist bestätigt." if code == "de" else "Madame, votre commande est prête."
    said = detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language(code))
    assert [s.quote for s in said][1:] == [second]
    assert said[1].kind == "correction"
    # a recall alone is still taken into the statement before, and so is an emphasis (review,
    # helper-182: "Not now, not ever." says nothing alone)
    (recalled,) = found("Way too long, three lines max. I told you.")
    assert recalled.quote == "Way too long, three lines max. I told you."
    message = "Use the staging DB, never prod. Not now, not ever."
    (said,) = detect_statements(message, "s1.jsonl", 3, None, answered="I ran the migration on prod.")
    assert said.quote == message


def test_a_statement_in_another_language_than_the_message_is_read_in_its_own() -> None:
    message = "Merci pour le brouillon, c'est bien. Ab jetzt bitte alle Entwürfe auf Deutsch."
    (statement,) = found(message)
    assert statement.language == "de" and statement.kind == "standing_instruction"


def test_a_language_without_a_data_file_finds_nothing() -> None:
    said = "Ketik selalu pakai server uji, bukan server utama."  # Indonesian: no data file
    assert detect([said]) is None
    assert found(said) == []


@pytest.mark.timeout(10)
def test_a_long_name_in_code_is_read_at_once() -> None:
    # a name with many capitals once made the pattern for settings try every split of it
    # (the review measured 114 s for this sentence); a second is far more than it takes
    message = "process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY_" + "AB" * 40 + " is never set in prod, always read it from Vault"
    assert any(s.kind == "standing_instruction" for s in found(message))


@pytest.mark.timeout(10)
def test_a_reply_of_many_blank_lines_is_read_at_once() -> None:
    # the edit line was looked for with "^\s*" across lines: a reply of 40,000 blank lines took
    # a minute (review, helper-110); a second is far more than it takes now
    text = "😂 haha\n" + "  \n" * 40_000 + "done"
    assert Reply(text).laughs_back()
    assert not Rewrites("Drafted the invoice e-mail for Marta: 14 hours of design review.", text).writes_again()
