"""The readings beyond a cue phrase (daemon/impact/cues.py, echo.py, statements.py): a change
of state about what the agent just said, "you … again" anywhere, a negation in capitals, a
stop or a prohibition opening a later clause, a dismissal, a recall with a clause of its own,
and recurrence by what was learned from two statements."""

from __future__ import annotations

import pytest

from daemon.impact.recurrence import group
from daemon.impact.sentences import sentences
from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

# The agent's turn a message answers by default: it names nothing the person sets right (the
# first message of a session states a task: `answered=""`).
AGENT = "Done, I updated the file."


def found(message: str, answered: str = AGENT) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=answered)


CHANGES = [
    ("en", "The tests run with vitest, we dropped jest in the autumn.", "Running npx jest src/dates.test.ts."),
    ("en", "Staging is staging.tidepool.dev now, we left Heroku in December.", "Opening https://app.herokuapp.com"),
    ("de", "Die mit 33 ist die alte, die neue endet auf 29.", "Tel. 0711 48 33 10"),
    ("fr", "On a quitté OVH l'an dernier, tout est chez Scaleway.", "Je me connecte à la console OVH."),
    ("es", "Esa dirección es vieja, ahora vivo en la calle Mayor.", "Envío a tu dirección de Sevilla."),
    ("pl", "Przeszliśmy na GitLaba, GitHub jest już nieaktualny.", "Otwieram repozytorium na GitHub."),
    ("it", "Quello è il numero vecchio, abbiamo cambiato operatore.", "Chiamo il numero 02 1234."),
]


@pytest.mark.parametrize(("code", "message", "answered"), CHANGES)
def test_a_change_of_state_about_the_agents_last_turn_is_a_correction(code: str, message: str, answered: str) -> None:
    (statement,) = found(message, answered)
    assert statement.kind == "correction" and statement.language == code
    assert any(c.startswith("changed:") for c in statement.cues)


@pytest.mark.parametrize(("code", "message", "answered"), CHANGES)
def test_the_same_change_told_about_nothing_the_agent_said_is_news(code: str, message: str, answered: str) -> None:
    for answered in ("Good morning!", ""):
        assert all(not c.startswith("changed:") for s in found(message, answered) for c in s.cues)


def test_a_word_the_agent_wrote_inside_a_longer_token_is_taken_up() -> None:
    """Tools write names inside paths and hosts: "heroku" in "…herokuapp.com", "33" in a number."""
    (statement,) = found("We moved off Heroku.", "curl https://tidepool-staging.herokuapp.com/health")
    assert statement.cues == ("changed:we moved off",)


@pytest.mark.parametrize(
    "message",
    [
        "you added a column and didn't bump SCHEMA_VERSION, again.",
        "du hast wieder Ersatz versprochen ohne Foto.",
        "Přidal jsi do commitu zase emoji.",
    ],
)
def test_again_counts_anywhere_when_the_person_says_the_agent_did_it(message: str) -> None:
    (statement,) = found(message)
    assert any(c.startswith("again:") for c in statement.cues) and statement.recalls


@pytest.mark.parametrize(
    "message",
    [
        "the staging DB was down again this morning, so you may not reach it.",
        "Thanks again, you saved me.",
        "Das Wetter ist wieder schlecht.",
        "Can you send it again please.",  # a request
        "Nice to see you again.",
        "You're right, I looked again and it was my mistake.",  # agreeing
        "Te mando el archivo otra vez porque falló la subida.",  # "te": to you, not you
        "Try again.",
        "The train was late again.",
    ],
)
def test_again_about_the_world_or_a_thanks_is_not_a_recall(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("die Seladon-Glasur ist NICHT spülmaschinenfest, nur die weißen", "nicht"),
        ("The invoice does NOT include VAT.", "not"),
        ("Ce n'est PAS le bon fichier.", "pas"),
    ],
)
def test_a_negation_written_in_capitals_insists_against_what_was_said(message: str, word: str) -> None:
    (statement,) = found(message)
    assert statement.kind == "correction" and f"emphasis:{word}" in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "THE BUILD IS NOT GREEN.",  # all capitals: a shout, not an insistence
        "Add a filter: WHERE deleted_at IS NOT NULL.",  # code
        "Set the flag to NO in the config.",  # a value
        "Esto NO es urgente, gracias.",
    ],
)
def test_capitals_that_are_a_shout_code_or_a_value_do_not_insist(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("here we squash-merge, don't create merge commits on the branch.", "stop:don't"),
        ("Wir duzen die Kunden, keine Förmlichkeiten.", "prohibition:keine"),
    ],
)
def test_a_stop_or_a_prohibition_may_open_a_later_clause(message: str, cue: str) -> None:
    (statement,) = found(message)
    assert cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "Sure, don't worry about it.",
        "It works, no problem at all.",
        "Looks good, no changes needed.",
        "die Stände kosten dieses Jahr 80 €, nicht 60, aber egal",
        "CI takes 12 min here, it's fine, not your fault",
        "Costó 80 €, no 60, pero da igual.",
    ],
)
def test_a_dismissal_or_an_agreeing_clause_is_not_a_correction(message: str) -> None:
    assert found(message) == []


def test_a_recall_with_a_clause_of_its_own_stands_alone() -> None:
    message = "Der Prefix ist /api/v2, nicht /v2/api. Und schon wieder ein hartkodierter String im Button."
    assert [s.quote for s in found(message)] == [
        "Der Prefix ist /api/v2, nicht /v2/api.",
        "Und schon wieder ein hartkodierter String im Button.",
    ]


def test_a_bare_recall_still_takes_in_the_sentence_before() -> None:
    (statement,) = found("The staging host is stage-2. I said that last week.")
    assert statement.quote == "The staging host is stage-2. I said that last week." and statement.recalls


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("опять промокоды? я же просил.", "опять промокоды? я же просил."),
        ("опять промокоды?) я же просил.", "опять промокоды?) я же просил."),
        # … not a question beside a recall that says what again itself
        ("Did you run it? Commit messages in English, I told you.", "Commit messages in English, I told you."),
        # … nor a question that does not recall: quoted, someone else's, a supposition
        ("> Should I use npm again or yarn?\nI told you.", "I told you."),
        ("My boss asks why we always deploy on Fridays? I told you.", "I told you."),
        ("If I told you to always use yarn, would you? I told you.", "I told you."),
    ],
)
def test_a_bare_recall_takes_in_the_question_before_it_that_recalls_too(message: str, quote: str) -> None:
    statements = found(message)
    assert [s.quote for s in statements] == [quote] and statements[0].recalls


def test_a_recall_with_what_it_recalls_after_it_leaves_the_question_before() -> None:
    (statement,) = found("Are you doing this again? I told you. The staging host is stage-2.")
    assert statement.quote == "I told you. The staging host is stage-2."


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        # two content words beside the clause it says it was said in: what is said again
        ("Please split the font and rename stuff out. Small PRs, I keep saying it.", "Small PRs, I keep saying it."),
        ("Use the ticket prefix in the title. Commit messages in English, I told you.", "Commit messages in English, I told you."),
    ],
)
def test_a_recall_that_says_what_again_beside_its_saying_stands_alone(message: str, quote: str) -> None:
    (statement,) = found(message)
    assert statement.quote == quote and statement.recalls


def test_two_statements_the_same_fact_was_learned_from_are_one_item_in_any_words() -> None:
    first = detect_statements("No — use pnpm, not npm.", "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=AGENT)
    again = detect_statements("Den anderen Paketmanager, nicht den Standard!", "s2.jsonl", 3, "2026-03-09T09:00:00+00:00", answered=AGENT)
    other = detect_statements("Keine Emojis in Commits.", "s3.jsonl", 3, "2026-03-10T09:00:00+00:00", answered=AGENT)
    statements = [*first, *again, *other]
    assert len(group(statements)) == 3  # their words share nothing
    learned = frozenset({"fact:project.package_manager=pnpm"})
    items = group(statements, {first[0]: learned, again[0]: learned})
    assert [[s.session for s in i.statements] for i in items] == [["s1.jsonl", "s2.jsonl"], ["s3.jsonl"]]
    # a new value of the key is a change, not the same thing said again
    changed = {first[0]: learned, again[0]: frozenset({"fact:project.package_manager=yarn"})}
    assert len(group(statements, changed)) == 3


@pytest.mark.parametrize(
    "message",
    [
        "Thanks, that fixed every test.",  # "every", "each" rule nothing by themselves
        "Danke, jede Datei sieht gut aus.",
        "When you're done, let me know.",  # a condition is a one-off as often as a rule
        "When I tried it, it failed.",
        "If the tests pass, great.",
        "Cuando termines, avísame.",
        "Well, if it works.",
    ],
)
def test_each_thing_or_a_condition_alone_is_not_a_rule(message: str) -> None:
    assert found(message) == []


def test_a_recall_with_nothing_before_it_takes_in_what_follows() -> None:
    (statement,) = found("Again! eu-west-1. we have nothing in virginia")
    assert statement.quote == "Again! eu-west-1." and statement.recalls


def test_a_recall_that_says_something_is_continued_by_the_sentence_after_it() -> None:
    message = "a morada antiga já não serve. e outra vez 30! são 35 a e-bike"
    assert [s.quote for s in found(message)] == ["e outra vez 30! são 35 a e-bike"]
    # a recall after a rule still joins that rule
    (statement,) = found("encore trois points d'exclamation. je t'ai dit, sobre. un point, c'est tout")
    assert statement.quote == "encore trois points d'exclamation. je t'ai dit, sobre."
    # a question after a bare recall asks about something else
    (statement,) = found("tabelka!! mowilam ze porownania w tabelce. i gdzie terminy na gorze?")
    assert statement.quote == "tabelka!! mowilam ze porownania w tabelce."


def test_someone_elses_words_typed_without_accents_are_not_the_persons_rule() -> None:
    assert found("tomek mowi ze zawsze trzeba miec trzy pensje odlozone") == []
    assert found("según mi jefa siempre hay que firmar en azul") == []
    assert found("segun mi jefa siempre hay que firmar en azul") == []
    (statement,) = found("zawsze trzeba miec trzy pensje odlozone")
    assert statement.kind == "standing_instruction"


def test_not_between_two_values_is_a_contrast_without_a_comma() -> None:
    (statement,) = found("the prod cluster is on 1.29 not 1.24")
    assert statement.kind == "correction" and statement.cues == ("contrast:not",)
    assert found("the cluster is not on 1.29") == []


@pytest.mark.parametrize(
    ("code", "message", "answered"),
    [
        # the fortieth, fiftieth and fifty-fifth once read: a name the agent wrote set right by the
        # one meant (`setright`'s "not the agent's"), the Arabic comma closing it
        ("en", "we ship with Bosta not Mylerz", "Booked the Mylerz pickup for 4 pm."),
        ("ar", "وصايغ مش صائغ، هيك بتكتبها هي", "رسالة التهنئة لمدام صائغ جاهزة."),
        ("ar", "إحنا شغالين مع Bosta مش Mylerz، الـ key ده BOSTA_API_KEY", "ضفت MYLERZ_API_KEY و Mylerz في الإعدادات."),
        ("ar", "والاسم Falafel Sandwich مش Wrap، إحنا بنعملها بخبز كماج", "المنيو: Falafel Wrap بـ 1.250"),
    ],
)
def test_not_before_a_name_the_agent_wrote_sets_it_right(code: str, message: str, answered: str) -> None:
    (statement,) = detect_statements(message, "s1", 3, None, answered=answered, usual=language(code))
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    ("code", "message", "answered"),
    [
        # the name not meant is no word of the agent's turn: said, or pasted (review helper-219);
        # the word before the "not" is the agent's own: nothing set right by the person
        ("en", "we ship with Bosta not Mylerz", AGENT),
        ("en", "build fails with Module not Found.", "Installed the deps and ran the build."),
        ("en", "we get the Page Not Found screen", "Deployed the Page to staging, Found nothing odd."),  # a title: "Not"
        ("en", "next ticket is Checkout Button not Working on Safari, can you take it", "Checkout Button is Working now."),
        ("en", "fyi Jenkins not OK after the upgrade, looking into it", "Jenkins build OK."),
        ("he", "אחרי העדכון Jenkins לא OK, אני בודק", "Jenkins build OK."),
        ("de", "Ich habe Montag nicht Zeit", "Termin: Montag, Zeit 10:00."),
    ],
)
def test_not_before_a_word_that_sets_nothing_right_is_no_contrast(code: str, message: str, answered: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered=answered, usual=language(code)) == []


@pytest.mark.parametrize(
    "message",
    [
        "I used to always squash my commits.",
        "antigamente nunca abríamos ao sábado de manhã",
        "kiedyś zawsze robiłem to w Excelu",
        # the state that is over said in a clause of its own, before the cue
        "Back then, we always squashed.",
        "Antigamente, nunca abríamos ao sábado.",
        "In the past, we never deployed on Fridays.",
    ],
)
def test_always_or_never_about_a_state_that_is_over_is_a_story(message: str) -> None:
    assert found(message) == []


def test_a_state_that_is_over_in_another_clause_leaves_the_rule_standing() -> None:
    (statement,) = found("19 %, always, I'm not exempt anymore")
    assert statement.cues == ("standing:always",)


def test_a_correction_opener_alone_opens_the_statement_after_it() -> None:
    (statement,) = found("No. Amounts are integer cents, never floats. Parse at the edge.")
    assert statement.quote == "No. Amounts are integer cents, never floats."
    assert statement.cues == ("correction:no", "standing:never")
    (statement,) = found("No. The region is eu-west-1.")
    assert statement.quote == "No. The region is eu-west-1."
    # "no." before a word is no abbreviation of "number": two sentences, the stop read in its own
    (statement,) = found("god no. dont ever touch the live stripe keys.")
    assert statement.quote == "dont ever touch the live stripe keys." and statement.cues == ("stop:dont",)
    assert [s.text for s in sentences("Put it in No. 5 of the list.")] == ["Put it in No. 5 of the list."]
    # a statement that took in the sentence after its opener is not quoted twice
    assert [s.quote for s in found("No. Amounts are cents. Never floats.")] == ["No. Amounts are cents.", "Never floats."]


def test_the_number_of_a_list_item_opens_its_sentence() -> None:
    """"1." of a numbered list is no sentence: it would be read alone, and counted among the
    sentences a reply amends (three are a pasted text)."""
    message = "幾個問題：\n1. 上線日是 3/18\n2. release note 的順序\n12. meeting notes 用條列"
    assert [s.text for s in sentences(message)] == ["幾個問題：", "1. 上線日是 3/18", "2. release note 的順序", "12. meeting notes 用條列"]
    # a number that closes a sentence still closes it, and a line break after the number ends it
    assert [s.text for s in sentences("the port is 5433. use it")] == ["the port is 5433.", "use it"]
    assert [s.text for s in sentences("Steps:\n1.\nrun tests")] == ["Steps:", "1.", "run tests"]
    assert [s.text for s in sentences("1.\u3000上線日は 3/18")] == ["1.\u3000上線日は 3/18"]  # a full-width space


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("nee, ich bin kein Kleinunternehmer, ich weise MwSt aus", "correction:nee"),
        ("Berlin ist Zug, 4 Stunden, ich hab's doch gesagt", "reminder:ich hab's doch gesagt"),
        ("я же просил. сначала ко мне", "reminder:я же просил"),
    ],
)
def test_colloquial_cues_are_read(message: str, cue: str) -> None:
    assert [cue] == [c for s in found(message) for c in s.cues if c == cue]


@pytest.mark.parametrize(
    "message",
    [
        "no that's right, 2am utc is fine for both sides",
        "нет, всё правильно, так и отправляй",
        "в следующий раз продаём только то, что никто не возвращает, ха",
    ],
)
def test_colloquial_agreement_and_laughter_are_not_rules(message: str) -> None:
    assert found(message) == []


def test_a_message_too_short_to_tell_its_language_is_read_in_its_sessions() -> None:
    from daemon.text.language import language

    assert found("znowu elaborat. krótko") == []
    polish = language("pl")
    (statement,) = detect_statements("znowu elaborat. krótko", "s1.jsonl", 3, None, usual=polish)
    assert statement.language == "pl" and statement.recalls


def test_the_words_of_the_change_itself_are_not_what_the_agent_said() -> None:
    """The agent "changed the README": "the meeting has changed" takes up nothing of it."""
    assert found("The meeting has changed to 3pm.", "I changed the README.") == []
    (statement,) = found("The README has changed, it is docs/index.md now.", "I changed the README.")
    assert "changed:has changed" in statement.cues


def test_a_short_sentence_that_looks_like_another_language_is_read_in_the_sessions_too() -> None:
    """"We dropped jest." looks Polish ("jest" is "is"): the session's English reads it."""
    from daemon.text.language import language

    message, answered = "We dropped jest.", "I've added a jest config and run npx jest."
    english = language("en")
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=english)
    assert statement.language == "en" and statement.cues == ("changed:we dropped",)


def test_a_thai_prohibition_needs_no_punctuation_after_it() -> None:
    (statement,) = found("ห้าม ใช้อีโมจิในข้อความคอมมิต")
    assert statement.cues == ("prohibition:ห้าม",)


def test_a_stop_after_a_lead_in_and_a_comma_is_one_cue() -> None:
    (statement,) = found("Please, stop adding emojis.")
    assert statement.cues == ("stop:stop",)


def test_a_recall_takes_in_neither_a_dismissal_nor_a_long_sentence() -> None:
    assert [s.quote for s in found("Emojis again! Whatever.")] == ["Emojis again!"]
    assert [s.quote for s in found("Again! " + "x" * 300)] == ["Again!"]


def test_thousands_of_recalls_in_a_row_are_one_statement_with_one_cue() -> None:
    # each "Again." takes in the one before it (their cues were joined whole at each step,
    # which made the reading grow with the square of the message: benchmarks/RESULTS.md)
    message = " ".join(["Again."] * 2000)
    (statement,) = found(message)
    assert statement.quote == message
    assert statement.cues == ("again:again",)


def test_an_apostrophe_inside_words_quotes_nothing() -> None:
    from daemon.impact.content import content
    from daemon.text.language import language

    assert content("It's the users' choice, don't ask.", language("en")).stems == {"choic", "user"}
    assert {"tu", "vous"} <= content("« Tu », pas « vous ».", language("fr")).stems


def test_two_sentences_of_one_turn_stay_apart_though_a_fact_of_the_turn_fits_both() -> None:
    turn = detect_statements("No emojis in commit messages. And always use pnpm, not npm.", "s1.jsonl", 3, None)
    learned = frozenset({"fact:project.package_manager=pnpm"})
    assert len(group(turn, {s: learned for s in turn})) == 2


def test_a_rule_said_again_in_another_language_joins_by_its_weekday_and_environment() -> None:
    """"vendredi" and "Fridays", "préprod" and "preprod" mean the same in every language."""
    first = detect_statements("Never deploy to preprod on Fridays.", "s1.jsonl", 3, "2026-03-02T09:00:00+00:00")
    again = detect_statements(
        "Je te l'ai dit : jamais de mise en préprod le vendredi !", "s2.jsonl", 3, "2026-03-09T09:00:00+00:00"
    )
    other = detect_statements("Never use tabs in YAML.", "s3.jsonl", 3, "2026-03-10T09:00:00+00:00")
    items = group([*first, *again, *other])
    assert [[s.session for s in i.statements] for i in items] == [["s1.jsonl", "s2.jsonl"], ["s3.jsonl"]]


def test_a_phrase_of_several_words_is_read_as_typed_without_its_apostrophes() -> None:
    # "no youre right" agrees as "no, you're right" does; "ive said" recalls as "i've said"
    assert found("no youre right, thats my macro") == []
    (said,) = found("Revenue is net of refunds, ive said that before.")
    assert "reminder:i've said" in said.cues


@pytest.mark.parametrize("message", ["Never log the user id in plain text.", "We always ship the ill-formed rows to quarantine."])
def test_a_single_word_is_not_read_without_its_apostrophe(message: str) -> None:
    # "id" is not "i'd" (a supposition), "ill" is not "i'll": the rule stands
    (said,) = found(message)
    assert said.kind == "standing_instruction"


@pytest.mark.parametrize(
    "message",
    [
        "no, il preventivo non serve.",
        "no, no hace falta, lo reviso yo mañana",
        "nee, geen bijlage, hoeft niet",
        "no no, hai ragione tu, la fattura la manda Giulia",
        "no, no thanks, I'll book it myself",
    ],
)
def test_a_no_that_declines_an_offer_in_its_next_clause_or_at_its_end_is_not_a_correction(message: str) -> None:
    assert found(message, answered="Shall I add it too?") == []


@pytest.mark.parametrize(
    "message",
    ["no, the invoice goes to Giulia, not Marco", "No, the region is eu-west-1.", "no, non è Marco, è Giulia"],
)
def test_a_no_followed_by_what_is_right_still_corrects(message: str) -> None:
    (said,) = found(message, answered="Sending it to Marco in us-east-1?")
    assert said.kind == "correction"


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("you dont need to explain each query, just send the file", "stop:you don't need to"),
        ("y no hace falta que me traduzcas los títulos, déjalos en inglés", "stop:no hace falta que"),
        ("pas besoin de me résumer le ticket, donne-moi le lien", "stop:pas besoin de"),
        ("inutile de me recopier tout le code, le diff suffit", "stop:inutile de"),
    ],
)
def test_asking_the_agent_to_do_less_is_a_preference_though_it_begins_like_a_decline(message: str, cue: str) -> None:
    (said,) = found(message)
    assert cue in said.cues
    assert said.kind in ("preference", "standing_instruction")


@pytest.mark.parametrize("message", ["no need, thanks", "no hace falta, gracias", "non, pas besoin."])
def test_a_decline_with_nothing_after_it_asks_for_nothing(message: str) -> None:
    assert found(message, answered="Want me to draft the reply?") == []


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("lowercase table names, we talked about this", "reminder:we talked about this"),
        ("Kürzer bitte, hatte ich gesagt.", "reminder:hatte ich gesagt"),
        ("het antwoord max vier zinnen, zei ik", "reminder:zei ik"),
        ("le date in formato europeo, come d'accordo", "reminder:come d'accordo"),
    ],
)
def test_saying_it_was_said_or_agreed_before_is_a_recall_in_its_own_words(message: str, cue: str) -> None:
    # "zei ik" is the person's own words, not someone else's reported ones
    (said,) = found(message)
    assert cue in said.cues


@pytest.mark.parametrize(
    "message",
    ["bei jedem neuen Endpunkt einen Test dazu", "ogni nuovo cliente va nel CRM", "chaque nouvelle page passe par la revue"],
)
def test_every_new_thing_is_a_standing_rule_in_each_language(message: str) -> None:
    (said,) = found(message)
    assert said.kind == "standing_instruction"


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("czynsz to 1200 od maja, mowilam juz", "reminder:mówiłam już"),
        ("no maximo 3 hashtags por post", "limit:no máximo"),
        ("pô, de novo o preço antigo, ja falei", "reminder:já falei"),
        ("na fakturach zawsze NIP, mowilam", "reminder:mowilam"),  # a single word: listed as typed
    ],
)
def test_cues_typed_without_accents_are_read_as_their_phrase(message: str, cue: str) -> None:
    (said,) = found(message)
    assert cue in said.cues


def test_a_single_german_word_is_read_as_written_hatte_is_no_supposition() -> None:
    # German marks the supposition by its umlaut: "hätte" supposes, "hatte" recalls
    (said,) = found("Kürzer bitte, hatte ich gesagt.")
    assert "reminder:hatte ich gesagt" in said.cues


@pytest.mark.parametrize(
    "message",
    ["non, c'est voulu, la mairie prévient par téléphone", "no, not yet, after the release", "nej, inte än, vi tar det på torsdag"],
)
def test_a_no_that_says_not_yet_or_that_it_is_intended_corrects_nothing(message: str) -> None:
    assert found(message, answered="Should I change it?") == []


def test_a_stop_with_nothing_after_it_is_no_rule_a_stop_that_names_something_is() -> None:
    assert found("Stop.") == []
    (said,) = found("Stop adding emojis to the commit messages.")
    assert "stop:stop" in said.cues


def test_a_limit_counts_beside_its_number_not_anywhere_in_the_sentence() -> None:
    assert found("the pool ran at max all night and fell over twice after 3 hours") == []
    (said,) = found("Replies at most 5 sentences.")
    assert "limit:at most" in said.cues


@pytest.mark.parametrize(
    ("message", "answered", "cue"),
    [
        ("lowercase keywords please, and leading commas.", "SELECT Id, Name FROM couriers", "asked:please"),
        ("named export pls, same as everything else", "export default function Button()", "asked:pls"),
        ("Rechnungsnummern im Format 2026-017, bitte", "Rechnung RE17 erstellt.", "asked:bitte"),
        ("British spelling, please.", "I've drafted the color section.", "asked:please"),
        ("dd/mm porfa, como en el otro", "Eje X con fechas 06/23/2026.", "asked:porfa"),
        ("2 spaces please", "Indented with 4 spaces.", "asked:please"),
        # the clause the word closes is read, not the sentence's first
        ("send it please, and lowercase keywords please", "SELECT Id FROM t", "asked:please"),
    ],
)
def test_please_after_a_way_of_doing_answering_the_agent_is_a_preference(message: str, answered: str, cue: str) -> None:
    (statement,) = found(message, answered)
    assert statement.kind == "preference" and statement.cues == (cue,)


@pytest.mark.parametrize(
    ("message", "answered"),
    [
        ("send it please", "Here is the draft."),  # a verb opens it: a deed asked once
        ("the logs please", "The job failed at 03:12."),  # a thing asked for
        ("please check the logs", "The job failed at 03:12."),
        ("Hotfix please.", ""),  # opening a session: its task
        ("Great, please continue", "Step 1 of 3 done."),  # goes on: "please" before a verb
        ("Thanks, please proceed with the migration", "The plan is ready."),
        ("Looks good, bitte weitermachen", "Schritt 1 erledigt."),
        ("sure please", "Shall I add the tests?"),
    ],
)
def test_please_after_a_deed_a_thing_or_opening_a_session_is_no_rule(message: str, answered: str) -> None:
    assert found(message, answered) == []


@pytest.mark.parametrize(
    "message",
    [
        "nyhetsbrevet för februari: lego-verkstad 21 feb (anmälan, max 25 barn)",
        "kassereren vil ha CSV-eksport av alle bookinger for 2025, i filer på maks 500 rader",
        "Draft the launch post, 300 words at most.",
    ],
)
def test_a_limit_in_the_message_that_opens_a_session_is_part_of_its_task(message: str) -> None:
    assert found(message, answered="") == []
    # answering the agent, the same limit says how work is to be done
    assert [s.kind for s in found(message)] == ["preference"]


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("We deploy the billing service with `make release` now, not the old fab script.", "contrast:not"),
        ("Never push to main, not even for a hotfix.", "standing:never"),
        ("I told you, the invoices go to finance.", "reminder:i told you"),
        ("Always keep replies under 100 words, at most.", "standing:always"),
    ],
)
def test_a_rule_in_the_message_that_opens_a_session_still_counts(message: str, cue: str) -> None:
    (statement,) = found(message, answered="")
    assert cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "the old CI runner always broke on big builds",
        "it was always in pounds back then",
        "mi abuelo siempre escribía con tinta azul",
        "c'était toujours la même chose avec ce client",
        "il treno era sempre pieno di turisti",
        "die Bahn war immer pünktlich",
        "de trein was altijd vol",
        "o sistema antigo sempre travou no fim do mês",
    ],
)
def test_always_or_never_beside_a_verb_in_the_past_is_a_story(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "tests are always required before a merge",
        "Secrets never committed to the repo.",
        "Dates always formatted as ISO 8601.",
        "On devrait toujours lancer les tests avant de merger.",
        "Il faudrait toujours relire le diff.",
        "Estou sempre a usar pnpm, nunca npm.",
        "Patienten werden gesiezt, immer.",
        "we always deploy on Fridays",
        "Always run the tests first.",
    ],
)
def test_a_participle_that_is_no_past_leaves_the_rule_standing(message: str) -> None:
    (statement,) = found(message)
    assert statement.kind == "standing_instruction"


@pytest.mark.parametrize(
    "message",
    [
        "nee, Zahlungsziel lass so, 14 Tage passt schon",
        "nee, lass erstmal, ich überleg mir das noch",
        "no, the tag is fine",
        "нет, пусть уж будет, не позориться же",
    ],
)
def test_a_colloquial_no_that_declines_is_not_a_correction(message: str) -> None:
    assert found(message) == []


def test_a_change_of_state_in_cyrillic_needs_a_word_of_the_agents_beside_its_own() -> None:
    """The cue's own verb ("заменили") is no word taken up from the agent's turn, romanized or not."""
    assert found("Мы заменили jest на vitest.", "Я заменил конфиг линтера.") == []
