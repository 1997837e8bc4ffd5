"""Rules over an order of work, over every thing of a kind, a negated imperative anywhere in a
clause, and what a contrast names (daemon/impact/cues.py), and the negation a language types
without its accents (daemon/text/keyboard.py)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements

AGENT = "Done, I updated the file."


def found(message: str, answered: str = AGENT) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=answered)


def cues(message: str, answered: str = AGENT) -> list[str]:
    return [c for s in found(message, answered) for c in s.cues]


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("tsc first. then tell me its done", "sequence:first"),
        ("I told you, tests first, then commit.", "sequence:first"),
        ("kommandot först!! jag scrollar förbi en hel uppsats", "sequence:först"),
        ("ge mig kommandot först, förklaringen efteråt", "sequence:först"),  # "mig" is no subject
        ("сначала посмотри остаток в 1С, а потом обещай дату", "sequence:сначала"),
        ("d'abord les faits, ensuite l'orthographe", "sequence:d'abord"),
        ("eerst een foto vragen, daarna pas vervangen", "sequence:eerst"),
    ],
)
def test_an_order_of_work_is_a_preference(message: str, cue: str) -> None:
    assert cue in cues(message)


@pytest.mark.parametrize(
    "message",
    [
        "First I'll check the logs, then we decide.",  # the person's own plan
        "Let me check first.",  # a deed, not a way
        "ran tflint locally first:",  # a story
        "The first line is fine, then it breaks.",  # an ordinal
        "Should we run the tests first, then deploy?",
    ],
)
def test_a_plan_a_deed_a_story_or_an_ordinal_sets_no_order(message: str) -> None:
    assert not any(c.startswith("sequence:") for c in cues(message))


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("commit messages need the ticket prefix. every commit", "standing:every"),
        ("jede Rechnung die rausgeht bitte auch in Kopie an meine Lexoffice-Adresse", "standing:jede"),
        ("и каждый возврат отмечай в амо: сделку в статус «Возврат»", "standing:каждый"),
        ("em cada confirmação: 50 € por bicicleta", "standing:cada"),
        ("each migration must have a down step", "standing:each"),
    ],
)
def test_every_thing_of_a_kind_named_or_asked_for_is_a_standing_rule(message: str, cue: str) -> None:
    statements = found(message)
    assert any(cue in s.cues for s in statements)
    assert {s.kind for s in statements} == {"standing_instruction"}


@pytest.mark.parametrize(
    "message",
    [
        "Danke, jede Datei sieht gut aus.",  # a report
        "Every test passes now, thanks.",
        "Every morning I check the mail first thing.",  # the person's habit
        "Each build was red last week.",  # a story
        "Thanks, that fixed every test.",  # not opening its clause
    ],
)
def test_every_thing_reported_on_is_no_rule(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("промокоды от себя не раздавай. даже если клиент злой", "prohibition:не раздавай"),
        ("возвраты больше 5000 без меня не проводи", "prohibition:не проводи"),
        ("nie wysyłaj tego do klienta bez mojej zgody", "prohibition:nie wysyłaj"),
        ("клієнтам без мене не надсилай знижки", "prohibition:не надсилай"),
    ],
)
def test_a_negated_imperative_anywhere_in_its_clause_forbids(message: str, cue: str) -> None:
    assert cue in cues(message)


@pytest.mark.parametrize(
    "message",
    [
        "это не деньги, а бонусы клиента",  # a noun after "не"
        "не волнуйся",  # reflexive: reassures
        "они не пришли вчера",  # a past plural
    ],
)
def test_a_negation_before_no_imperative_forbids_nothing(message: str) -> None:
    assert not any(c.startswith("prohibition:") for c in cues(message))


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Fallback for the UK workspace is GBP. Not USD.", "Fallback for the UK workspace is GBP. Not USD."),
        ("die heißen Brandl & Huber, mit l. Nicht Brandt", "die heißen Brandl & Huber, mit l. Nicht Brandt"),
        ("kredyt mamy w mbanku nie w pko, pko to tylko konto tomka", None),
        ("oc konczy sie 14 maja nie 4, przeczytaj sms jeszcze raz", None),
        ("la base locale c'est resa_dev pas reservations", None),
    ],
)
def test_a_contrast_that_names_what_is_not_meant_corrects(message: str, quote: str | None) -> None:
    (statement,) = found(message)
    assert statement.kind == "correction" and any(c.startswith("contrast:") for c in statement.cues)
    assert statement.quote == (quote or message)


@pytest.mark.parametrize("message", ["Not now.", "nicht schlecht", "не знаю", "Not yet, thanks."])
def test_a_contrast_opening_a_sentence_that_names_nothing_corrects_nothing(message: str) -> None:
    assert found(message) == []


def test_a_negation_typed_without_accents_is_read_as_the_meaning_table_gives_it() -> None:
    # Portuguese "nao" is in the meaning table as "não" is: the same word, typed plain
    (statement,) = found("o lancamento é dia 18/06, nao 15")
    assert "contrast:nao" in statement.cues


@pytest.mark.parametrize(
    "message",
    ["nao, ta certo, é VOLTA10 mesmo.", "nao, melhor nao, eles nao gostam de desculpa antes da hora", "No, better not."],
)
def test_a_no_that_agrees_or_declines_in_plain_words_corrects_nothing(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("region again. eu-west-1. we have nothing in virginia", "again:again"),
        ("orthographe britannique, encore une fois : organisation, centre", "again:encore une fois"),
        ("faltou a caução outra vez.", "again:outra vez"),
        ("mensch, schon wieder der komplette build.", "again:schon wieder"),
    ],
)
def test_again_opening_a_clause_or_closing_a_thing_named_recalls(message: str, cue: str) -> None:
    assert cue in cues(message)


@pytest.mark.parametrize("message", ["Send it again.", "Nice to see you again.", "The train was late again."])
def test_again_after_a_deed_or_in_a_longer_clause_recalls_nothing(message: str) -> None:
    assert found(message) == []


def test_a_change_of_state_about_a_name_in_code_is_taken_up_by_its_parts() -> None:
    answered = "Armo un notebook con Prophet por almacén. Leo `envios` de 2024 a hoy."
    (statement,) = found("use envios_v2, the old table is dead since june", answered)
    assert "changed:is dead" in statement.cues
    assert found("use envios_v2, the old table is dead since june", "Armo un notebook.") == []


def test_a_message_opening_with_a_time_of_day_is_the_persons_words_not_a_tools_output() -> None:
    (statement,) = found("8:30 is school run. earlier than 10 comes to me, we went through this")
    assert "reminder:we went through this" in statement.cues
    # a tool's position, with the columns or the severity of its output after it, is not
    assert found("3:1 error Always use const") == []
    assert found("Linter:\n12:4  error  Always use const  prefer-const") == []


@pytest.mark.parametrize("message", ["nah, leave it", "nope, keep it", "Nee, passt schon"])
def test_another_no_before_an_agreeing_phrase_agrees(message: str) -> None:
    assert found(message) == []


def test_a_no_of_another_word_before_a_rule_still_corrects() -> None:
    (statement,) = found("nah, use pnpm")
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    "message",
    [
        "Sarah spørger om vi kan lave hendes momsangivelse fremover, kan du svare hende",
        "пані Олена пише, що її чоловік ніколи не заряджає батарею до 100%",
        "The customer writes that they always pay late in January.",
    ],
)
def test_what_someone_else_writes_or_asks_is_their_words(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    ["clientes = sem emojis", "new column = new schema version + changelog line.", "cornetto = cruasán!! no es un helado, es un bollo"],
)
def test_a_name_defined_with_an_equals_sign_is_a_preference(message: str) -> None:
    statements = found(message)
    assert statements[0].kind == "preference" and "defined:=" in statements[0].cues


@pytest.mark.parametrize(
    "message",
    ["30% = 345 EUR", "timeout = 30", "engine_version = foo", "x = y + 2", "Ryczałt 12% od przychodu 18,500.00 zł = 2,220.00 zł"],
)
def test_a_sum_or_code_with_an_equals_sign_defines_nothing(message: str) -> None:
    assert found(message) == []
