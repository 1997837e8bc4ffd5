"""Rules over an order of work, over every thing of a kind, a negated imperative anywhere in a
clause, and what a contrast names (daemon/impact/cues.py), and the negation a language types
without its accents (daemon/text/keyboard.py)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

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
    [
        "nao, ta certo, é VOLTA10 mesmo.",
        "nao, melhor nao, eles nao gostam de desculpa antes da hora",
        "No, better not.",
        "nao, obg, eu falo com ela por audio",  # "obg", "valeu": thanks as Brazilians type it
        "não valeu, eu mando",
        "nee ge hebt gelijk, zet da zo",  # Flemish: "ge", "gij" for "je"
        "nee, gij hebt gelijk",
    ],
)
def test_a_no_that_agrees_or_declines_in_plain_words_corrects_nothing(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "mensch, schon wieder der komplette build.",  # an interjection leads in
        "Again: run the linter before you push.",
    ],
)
def test_again_at_the_start_recalls(message: str) -> None:
    assert any(c.startswith("again:") for c in cues(message))


@pytest.mark.parametrize(
    "message",
    [
        "Send it again.",
        "Nice to see you again.",
        "The train was late again.",
        "Works again.",  # good news
        "Tests pass again.",
        "Funciona otra vez.",
        "Danke, wieder was gelernt.",
        "Here's the log again.",
        # a reading of "again" in any short sentence answering the agent, followed by a value or
        # a please, was tried and taken out: it read these as corrections
        "Works again. Deploying v1.4.2 now.",
        "Läuft wieder. Bitte Ticket schließen.",
        "Down again. 503 since 9:00.",
        "Forgot the password again. 3 attempts left.",
        "Zapomniałem hasła znowu. Zostały 3 próby.",
        "Het weer is slecht. 12 graden.",
    ],
)
def test_again_in_news_or_a_deed_recalls_nothing(message: str) -> None:
    assert found(message) == []


def test_a_change_of_state_about_a_name_in_code_is_taken_up_by_its_parts() -> None:
    answered = "Armo un notebook con Prophet por almacén. Leo `envios` de 2024 a hoy."
    (statement,) = found("use envios_v2, the old table is dead since june", answered)
    assert "changed:is dead" in statement.cues
    assert found("use envios_v2, the old table is dead since june", "Armo un notebook.") == []
    # a short part, a digit, is no word taken up: "2" of "test_2" is in "Updated 2 files."
    assert found("The test_2 fixture is the old one I think.", "Updated 2 files.") == []


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
        "o dr tiago sempre diz que pergunta de preço só atrai reclamação",  # the saying in the rule's clause
        "never deploy on Fridays, says Maria",  # … or in a short clause after it
        "we always deploy on Tuesdays, my manager says.",
        "nunca faça deploy na sexta, diz a Maria",
    ],
)
def test_what_someone_else_writes_or_asks_is_their_words(message: str) -> None:
    assert found(message) == []


def test_a_saying_in_a_clause_after_the_rule_frames_nothing_of_it() -> None:
    """"gets told" after the rule's last clause tells what is to be done, not whose words it is."""
    message = "for PTO from now on do it like this: max 2 off any one day, and whoever's denied gets told within 48h."
    (statement,) = found(message)
    assert statement.kind == "standing_instruction"


@pytest.mark.parametrize(
    "message",
    ["clientes = sem emojis", "new column = new schema version + changelog line.", "ogni commit = un messaggio in inglese"],
)
def test_a_name_defined_with_an_equals_sign_is_a_preference(message: str) -> None:
    statements = found(message)
    assert statements[0].kind == "preference" and "defined:=" in statements[0].cues


@pytest.mark.parametrize(
    "message",
    [
        "30% = 345 EUR",
        "timeout = 30",
        "engine_version = foo",
        "x = y + 2",
        "Ryczałt 12% od przychodu 18,500.00 zł = 2,220.00 zł",
        "Status = done.",
        "build = green, tests = green, thanks.",
    ],
)
def test_a_sum_or_code_with_an_equals_sign_defines_nothing(message: str) -> None:
    assert found(message) == []


def test_a_name_defined_in_a_long_message_is_read_in_one_pass() -> None:
    message = " ".join(["the new column = new schema version and"] * 400)
    assert found(message)  # 2,800 words: linear, not a pass per sign


@pytest.mark.parametrize(
    "message",
    [
        "Never leave it running overnight.",  # "never" is no "no" of "no, leave it"
        "Never keep it in the repo, use the vault.",
        "Wrong, leave it as a draft from now on.",  # the phrase does not close its clause
        "Not good, never push to main directly.",
        "It writes logs to /tmp, never write logs there.",  # a program writes: no one's words
        "Always run the tests, it never hurts.",
    ],
)
def test_a_rule_beside_words_that_look_like_agreement_or_someone_elses_stays_a_rule(message: str) -> None:
    assert any(s.kind == "standing_instruction" for s in found(message))


@pytest.mark.parametrize(
    "message",
    [
        "Я не проти, роби як знаєш.",
        "Спасибо, нет необходимости.",
        "Нет связи с базой данных.",
        "Это не наши тесты упали.",
        "Це не тести, а збірка.",
        "Zazwyczaj to działa, ale nie dzisiaj.",
    ],
)
def test_a_negation_before_a_noun_adverb_or_infinitive_forbids_nothing(message: str) -> None:
    assert not any(c.startswith("prohibition:") for c in cues(message))


@pytest.mark.parametrize(
    "message",
    [
        "First it compiles, then it crashes.",  # a bug report: a third person does it
        "Zuerst kommt der Fehler, dann hängt es.",
        "D'abord ça marche, ensuite ça plante.",
        "Det virker først nu, så tak.",  # "først nu" is "only now"
    ],
)
def test_an_order_that_tells_what_happens_sets_no_order(message: str) -> None:
    assert not any(c.startswith("sequence:") for c in cues(message))


def test_a_way_first_opening_a_session_is_its_task() -> None:
    assert found("Safety first!", answered="") == []
    assert "sequence:first" in cues("tsc first. then tell me its done")


@pytest.mark.parametrize(
    "message",
    ["Every test passes.", "Each step works.", "Merci, chaque test passe.", "Anything is fine.", "Любой вариант подойдёт.", "Vilken bra lösning."],
)
def test_every_or_any_with_news_or_agreement_is_no_rule(message: str) -> None:
    assert not any(s.kind == "standing_instruction" for s in found(message))


@pytest.mark.parametrize(
    "message",
    ["Not bad, Claude!", "Not now, Claude.", "Не знаю, Максим.", "Not sure I follow.", "Hmm, python3 not found.", "Test 3 not passing."],
)
def test_a_not_before_a_vocative_a_pronoun_or_news_corrects_nothing(message: str) -> None:
    assert not any(c.startswith("contrast:") for c in cues(message))


@pytest.mark.parametrize(
    "message",
    [
        "Henrik ringede i fredags, han betaler altid sent i januar",
        "siobhan's doing this thing now where she never takes meetings on fridays",
        "elle ne répond jamais aux mails en novembre",
        "it always fails on CI",
    ],
)
def test_always_or_never_said_of_a_third_person_tells_what_they_do(message: str) -> None:
    assert found(message) == []


def test_a_long_message_of_third_persons_and_always_is_read_in_one_pass() -> None:
    # 5,000 words of one sentence: each word's clause is found once, not once per pair of a
    # third person and an "always" (that took minutes)
    assert found("he always fails on CI, " * 1000) == []


@pytest.mark.parametrize(
    ("message", "code"),
    [
        # a name before "always" is as often what the rule is about as who does something: a
        # reading of "Rick always replies-all" as a story took these too, and was left out
        ("Prices for Acme always include VAT.", "en"),
        ("on Fridays never deploy", "en"),
        ("in Python always use type hints", "en"),
        ("cc Hannah always on invoices", "en"),
        ("en Python siempre usa type hints", "es"),
        ("no Slack sempre em inglês", "pt"),
        ("Rechnungen immer als PDF an die Buchhaltung", "de"),
        # … and a capital opening a later clause, read as a name twice and taken back twice: a
        # label or a list item before it, a product, the agent called by name
        ("Note: Tests always go in tests/", "en"),
        ("1) Tests always run before the commit", "en"),
        ("ok, Stripe never for EU customers", "en"),
        ("Also, Claude never push to main", "en"),
        ("ok, Slack messages always in English", "en"),
        ("Regel: Commits altijd in het Engels", "nl"),
        # … and an aside ("btw") beside "always"/"never", which marks a remark as often as a rule:
        # a reading of it as a remark, with nothing asked and a word before the cue, lost these
        # (review, helper-138) and was taken back
        ("commit messages always in English btw", "en"),
        ("prices always in EUR btw", "en"),
        ("tests should always pass btw", "en"),
        ("looks good btw never push to main", "en"),
        ("Rechnungen immer als PDF übrigens", "de"),
        ("commits trouwens altijd in het Engels", "nl"),
        ("les prix toujours en euros d'ailleurs", "fr"),
        ("a main nunca hagas push directo, por cierto", "es"),
        ("в main кстати никогда не пушим напрямую", "ru"),
    ],
)
def test_always_or_never_after_a_name_or_beside_an_aside_stays_a_rule(message: str, code: str) -> None:
    found = detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=AGENT, usual=language(code))
    assert any(s.kind == "standing_instruction" for s in found)


@pytest.mark.parametrize(
    ("message", "code", "reply"),
    [
        # … answered with a bare acknowledgment too: a reading of "always" after a name the reply
        # takes as news as what someone does lost these (review, helper-106), and was left out
        ("A Globex nunca le mandes facturas en PDF.", "es", "Entendido."),
        ("Las facturas de Globex siempre en euros.", "es", "Entendido."),
        ("Per Globex non mettere mai l'IVA.", "it", "Capito."),
        ("Faturaları Acme'ye her zaman EUR ile gönder.", "tr", "Tamam."),
        ("Для Сбербанка всегда ставь НДС.", "ru", "Понял."),
        ("Prices for Acme always include VAT.", "en", "Noted."),
    ],
)
def test_a_rule_about_a_name_answered_only_noted_stays_a_rule(message: str, code: str, reply: str) -> None:
    found = detect_statements(
        message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=AGENT, usual=language(code), reply=reply
    )
    assert any(s.kind == "standing_instruction" for s in found)


def test_a_decline_opening_a_sentence_with_more_after_it_is_a_preference() -> None:
    assert found("Lieber nicht so viele Kommentare im Code.")
    assert found("nao, melhor nao, eles nao gostam de desculpa antes da hora") == []


@pytest.mark.parametrize(
    "message",
    [
        "Рустам никогда не отвечал в субботу",  # never, a negation, a verb in the past
        "nigdy nie odpisał na maila",
        "він ніколи не відповідав на листи",
        "он всегда был на складе до обеда",
    ],
)
def test_always_or_never_beside_a_slavic_past_tells_a_story(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "никогда не пиши клиентам в выходные",  # an imperative, not a past
        "zawsze odpisuj w ciągu dnia",
        "завжди, коли клієнт пише, відповідай українською",  # "коли" (when) ends in -ли
    ],
)
def test_always_or_never_beside_a_slavic_imperative_or_adverb_stays_a_rule(message: str) -> None:
    assert any(s.kind == "standing_instruction" for s in found(message))


@pytest.mark.parametrize(
    "message",
    [
        "і ще гарантійка від Остапа, не працює задня фара",  # reports what does not work
        "дві заявки: пані Софія — гарантія, не світить дисплей",
        "Рустам, не отвечает уже неделю",
    ],
)
def test_a_not_before_a_verb_in_the_present_reports_and_corrects_nothing(message: str) -> None:
    assert not any(c.startswith("contrast:") for c in cues(message))


@pytest.mark.parametrize("message", ["используй pnpm, не npm", "пиши на «вы», не на «ты»"])
def test_a_not_before_what_is_not_meant_still_corrects(message: str) -> None:
    assert "contrast:не" in cues(message)


@pytest.mark.parametrize(
    "message",
    ["min gamle chef afstemte aldrig banken før den 20.", "my boss never replies before noon", "mio padre non prende mai aerei"],
)
def test_always_or_never_said_of_someone_of_the_persons_tells_their_habit(message: str) -> None:
    assert found(message) == []


def test_a_rule_that_names_someone_of_the_persons_after_always_stays_a_rule() -> None:
    assert any(s.kind == "standing_instruction" for s in found("Always cc my boss on invoices."))


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("et le commit en anglais stp, comme d'hab.", "fr"),
        ("windows-1250 a stredniky, jak minule", "cs"),
        ("tres bullets arriba, como la otra vez", "es"),
        ("3 bullets on top, like last time", "en"),
        ("the summary on top please, like last time", "en"),
    ],
)
def test_a_way_named_as_before_recalls_a_preference(message: str, code: str) -> None:
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, language=language(code), answered=AGENT)
    assert statement.recalls and statement.kind == "preference"
    assert any(c.startswith("precedent:") for c in statement.cues)


@pytest.mark.parametrize(
    "message",
    [
        "it broke like last time",  # a third person's doing
        "we met as usual",  # the person's own doing
        "Like last time?",  # a question, naming nothing
        "Like last time.",  # naming nothing
        "Same as before, thanks!",  # thanks after it: not closing the clause that names a way
        "Great work as usual",  # praise names no way
        "Still broken, like before.",  # a report
        "Nickel, comme d'hab",
    ],
)
def test_a_story_or_a_bare_as_before_recalls_nothing(message: str) -> None:
    assert not any(c.startswith("precedent:") for c in cues(message))


def test_as_before_opening_a_session_is_its_task() -> None:
    assert found("aanmelden bij de secretaris om 9 uur, zoals vorige keer", answered="") == []


def test_the_same_mistake_like_last_time_still_corrects() -> None:
    (statement,) = detect_statements("Zelfde fout zoals vorige keer.", "s1.jsonl", 3, None, language=language("nl"), answered=AGENT)
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    ("message", "code", "cue"),
    [
        ("hx-boost på hele body liker jeg ikke", "nb", "preference:liker jeg ikke"),
        ("die langen Mails mag ich nicht", "de", "preference:mag ich nicht"),
        ("tohle ne, psal jsem ti to u senchy", "cs", "reminder:psal jsem ti"),
    ],
)
def test_a_dislike_said_with_its_verb_first_and_a_written_reminder(message: str, code: str, cue: str) -> None:
    statements = detect_statements(message, "s1.jsonl", 3, None, language=language(code), answered=AGENT)
    assert cue in [c for s in statements for c in s.cues]


def test_no_thanks_in_czech_typed_without_accents_declines() -> None:
    assert detect_statements("ne, dik, anglicky rozumim.", "s1.jsonl", 3, None, language=language("cs"), answered=AGENT) == []
