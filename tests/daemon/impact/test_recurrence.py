"""Recurrence: statements that say the same thing in later sessions join one item, across
languages too; statements about other things, and two sentences of one session, do not."""

from __future__ import annotations

import pytest

from daemon.impact.content import content
from daemon.impact.recurrence import group
from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language


def said(session: int, message: str, day: str) -> list[Statement]:
    # each message answers a turn of the agent's (one opening a session states a task)
    return detect_statements(message, f"s{session}.jsonl", 3, f"{day}T09:00:00+00:00", answered="Done, I updated the file.")


def quotes(items: list) -> list[list[str]]:  # type: ignore[type-arg]
    return [[s.quote for s in item.statements] for item in items]


def test_the_same_rule_said_again_in_a_later_session_joins_its_item() -> None:
    statements = [
        *said(1, "The invoices go to accounting@lumen.example, not to Ruth.", "2026-03-02"),
        *said(1, "Always attach the timesheet as a PDF.", "2026-03-02"),
        *said(2, "Invoices go to accounting@lumen.example, I told you.", "2026-03-10"),
        *said(3, "Stop sending the timesheet as a spreadsheet, a PDF please.", "2026-03-17"),
    ]
    items = group(statements)
    assert quotes(items) == [
        [
            "The invoices go to accounting@lumen.example, not to Ruth.",
            "Invoices go to accounting@lumen.example, I told you.",
        ],
        [
            "Always attach the timesheet as a PDF.",
            "Stop sending the timesheet as a spreadsheet, a PDF please.",
        ],
    ]
    assert [len(i.recurrences) for i in items] == [1, 1]


def test_a_rule_said_again_in_another_language_joins_its_item() -> None:
    statements = [
        *said(1, "Die Rückgabefrist beträgt 45 Tage, nicht 30.", "2026-04-01"),
        *said(2, "Non, 45 jours pour le retour, pas 30 !", "2026-04-08"),
        *said(3, "Always answer customers in their own language.", "2026-04-15"),
    ]
    items = group(statements)
    assert [len(i.statements) for i in items] == [2, 1]
    assert items[0].recurrences[0].language == "fr"


def test_statements_about_other_things_stay_apart() -> None:
    statements = [
        *said(1, "Never push to the release branch on a Friday.", "2026-05-04"),
        *said(2, "Always write the changelog entry in English.", "2026-05-11"),
        *said(3, "Keine Meetings vor zehn Uhr.", "2026-05-18"),
    ]
    assert [len(i.statements) for i in group(statements)] == [1, 1, 1]


def test_a_statement_close_only_to_a_later_one_of_an_item_opens_its_own() -> None:
    # the second joins the first through "invoices" and "Ruth"; the third shares "PDF" and
    # "Word files" with the second and nothing with the first: a chain, not one thing said again
    statements = [
        *said(1, "Invoices go to Ruth at accounting, not to me.", "2026-03-02"),
        *said(2, "Invoices as PDF to Ruth, not Word files.", "2026-03-09"),
        *said(3, "PDF, not Word files, for every report.", "2026-03-16"),
    ]
    assert quotes(group(statements)) == [
        ["Invoices go to Ruth at accounting, not to me.", "Invoices as PDF to Ruth, not Word files."],
        ["PDF, not Word files, for every report."],
    ]


def test_a_chain_through_the_first_statement_said_in_its_language_still_joins() -> None:
    # the third shares no word with the German first, but is close to the French second: the
    # first said in its language stands for the item's first
    statements = [
        *said(1, "Die Rückgabefrist beträgt 45 Tage, nicht 30.", "2026-04-01"),
        *said(2, "Non, 45 jours pour le retour, pas 30 !", "2026-04-08"),
        *said(3, "Le délai de retour est de quarante-cinq jours, je l'ai déjà dit.", "2026-04-15"),
    ]
    assert [len(item.statements) for item in group(statements)] == [3]


def test_a_told_you_cue_lowers_the_bar() -> None:
    first = said(1, "Use the shared calendar for the team offsites, not personal invites.", "2026-06-01")
    close = said(2, "Team offsites go in the shared calendar, I keep saying it.", "2026-06-08")
    assert [len(i.statements) for i in group([*first, *close])] == [2]


def test_a_second_sentence_of_the_same_session_is_no_recurrence() -> None:
    statements = detect_statements(
        "Always use the staging bucket. Seriously, always the staging bucket.",
        "s1.jsonl",
        1,
        "2026-07-01T09:00:00+00:00",
    ) + detect_statements("Always the staging bucket!", "s1.jsonl", 5, "2026-07-01T09:10:00+00:00")
    items = group(statements)
    assert all(item.recurrences == [] for item in items)


def test_when_a_person_says_they_said_it_before_is_not_what_they_said() -> None:
    # "I said that three weeks ago at the standup" is a clause of its own: its words do not
    # weigh against the match, so the recurrence joins on "Heroku"
    statements = [
        *said(1, "Deploys go to staging.tidepool.dev, not to Heroku.", "2026-03-02"),
        *said(1, "Always tag the release before the deploy.", "2026-03-02"),
        *said(1, "Never squash the migration commits.", "2026-03-02"),
        *said(1, "No emojis in the changelog.", "2026-03-02"),
        *said(2, "Stop pushing to Heroku, I said that three weeks ago at the standup.", "2026-03-30"),
    ]
    items = group(statements)
    assert [len(i.statements) for i in items] == [2, 1, 1, 1]
    assert items[0].recurrences[0].quote.startswith("Stop pushing to Heroku")


def test_content_leaves_out_the_clause_of_a_saying_but_not_an_again_nor_what_follows_it() -> None:
    en, it = language("en"), language("it")
    assert content("Heroku is gone, I said that weeks ago.", en).stems == {"heroku", "gone"}
    # alone, the saying keeps its words: there is nothing else
    assert "week" in content("I said that weeks ago.", en).stems
    # "again" qualifies what is said: "Emojis again, and in the title" is about emojis
    assert {"emoji", "titl"} <= content("Emojis again, and in the title too!", en).stems
    # a sentence end closes the clause: "pasillo" after the saying is what is said
    assert "pasill" in content("corridoio, te l'ho già detto mille volte. pasillo", it).stems
    # a word in quotation marks counts, even in the saying's clause
    assert "komm" in content("schon wieder 'komm', wie gesagt, wir siezen die Kunden", language("de")).stems


def test_what_stands_before_a_saying_in_its_clause_is_what_was_said() -> None:
    # "drie punten per samenvatting zei ik": the saying closes the clause of what it says
    statements = [
        *said(1, "Samenvattingen altijd in drie punten per samenvatting, geen lappen tekst.", "2026-03-02"),
        *said(1, "Altijd eerst de tests draaien voor een release.", "2026-03-02"),
        *said(2, "en korter, drie punten per samenvatting zei ik", "2026-03-16"),
    ]
    items = group(statements)
    assert [len(i.statements) for i in items] == [2, 1]
    assert items[0].recurrences[0].quote.endswith("zei ik")


def test_a_cue_word_that_also_names_a_month_is_no_month() -> None:
    # "mai" is "never" in Italian and May in French: a short Italian sentence read as both
    # names no month, so two rules that each say "mai" share none
    both = language("fr+it")
    assert "@may" not in content("il centrale mai.", both).stems
    assert "@may" not in content("prima delle 8 non parto. mai.", both).stems
    assert "@may" in content("on livre en mai", language("fr")).stems
    # nor is a modal the meaning table calls "may": "pode", "you may"; "in May" is the month
    assert "@may" not in content("o texto pode ficar em inglês", language("pt")).stems
    assert not {"@may", "month5"} & content("you may skip the changelog", language("en")).stems
    assert "@may" in content("we freeze the release in May", language("en")).stems


def test_a_name_written_in_latin_letters_joins_the_item_that_wrote_it_in_cyrillic() -> None:
    statements = [
        *said(1, "склад у нас в Казани, не в Самаре.", "2026-06-01"),
        *said(2, "сколько можно. Kazan", "2026-06-08"),
        *said(3, "и всегда отвечай клиентам на «вы».", "2026-06-15"),
    ]
    assert [len(i.statements) for i in group(statements)] == [2, 1]


def test_a_korean_name_written_in_latin_letters_joins_the_item_that_wrote_it_in_hangul() -> None:
    statements = [
        *said(1, "앞으로 담당자는 항상 서연 님으로 적어 주세요.", "2026-06-01"),
        *said(2, "보고서는 항상 금요일 오전에 보내 주세요.", "2026-06-08"),
        *said(3, "Always attach the invoice as a PDF.", "2026-06-10"),
        *said(4, "It's Seoyeon, not Seohyun. I told you last time.", "2026-06-15"),
    ]
    assert quotes(group(statements)) == [
        ["앞으로 담당자는 항상 서연 님으로 적어 주세요.", "It's Seoyeon, not Seohyun. I told you last time."],
        ["보고서는 항상 금요일 오전에 보내 주세요."],
        ["Always attach the invoice as a PDF."],
    ]


def test_a_name_in_code_said_again_joins_its_item_whole() -> None:
    # "dd/mm" is two words of two letters to the text layer: only whole does it tell the rule
    assert "dd/mm" in content("dates on the axis as dd/mm please", language("en")).stems

    def answering(session: int, message: str, day: str) -> list[Statement]:
        chart = "Here is the chart, with dates as 05/04."
        return detect_statements(message, f"s{session}.jsonl", 3, f"{day}T09:00:00+00:00", answered=chart)

    statements = [
        *answering(1, "No, the dates on the axis as dd/mm, nobody here reads the month first.", "2026-05-04"),
        *answering(1, "Always round the totals to whole euros.", "2026-05-04"),
        *answering(1, "Never send the draft to the client yourself.", "2026-05-04"),
        *answering(1, "No, the region is Bavaria, not Berlin.", "2026-05-04"),
        *answering(1, "Stop adding a summary at the end.", "2026-05-04"),
        *answering(2, "dd/mm pls, like the other one.", "2026-05-12"),
    ]
    items = group(statements)
    assert [len(i.statements) for i in items] == [2, 1, 1, 1, 1]
    assert items[0].recurrences[0].quote == "dd/mm pls, like the other one."


def test_a_name_in_code_ends_where_a_script_without_spaces_begins() -> None:
    # "5/13は水曜" is the day 5/13, then "is a Wednesday": the name is 5/13, not the whole run
    stems = content("5/13は水曜！定休日やって。", language("ja")).stems
    assert "5/13" in stems and not any("水曜" in s and "/" in s for s in stems)
    assert "envios_v2" in content("la tabla buena es envios_v2", language("es")).stems


def test_asking_for_less_in_another_language_joins_its_item() -> None:
    # "short" and "kürzer" ask for less (`@brief`): with "standup" that is enough to be one item
    statements = [
        *said(1, "Standup notes: short, always.", "2026-03-02"),
        *said(1, "Always cc Raj on investor emails.", "2026-03-02"),
        *said(2, "Standup: immer kürzer!", "2026-03-16"),
    ]
    assert quotes(group(statements)) == [
        ["Standup notes: short, always.", "Standup: immer kürzer!"],
        ["Always cc Raj on investor emails."],
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # … but asking for less of other things, with the same number, is no same thing
        ("Deploy at most 2 services at a time, never more.", "Answers: 2 paragraphs max, always."),
        ("Standup notes: 3 bullets max, no prose.", "Never retry the payment webhook more than 3 times, max."),
        ("Summaries: 500 words max, always.", "Never approve refunds over 500 euros, max."),
    ],
)
def test_asking_for_less_of_other_things_stays_apart(first: str, second: str) -> None:
    statements = [*said(1, first, "2026-03-02"), *said(2, second, "2026-03-16")]
    assert [len(i.statements) for i in group(statements)] == [1, 1]


def test_a_rule_that_names_a_language_joins_its_item_said_in_another_language() -> None:
    # CLDR's names of languages, in any inflection or script, are one meaning (`@english`)
    statements = [
        *said(1, "チケットは英語で、日本語じゃなくて。", "2026-03-02"),
        *said(1, "Always cc Raj on investor emails.", "2026-03-02"),
        *said(2, "Jira tickets in English, please, not Japanese.", "2026-03-16"),
        *said(3, "Release notes: po angielsku, nie po polsku.", "2026-03-23"),
        *said(4, "The release notes in English, always.", "2026-03-30"),
    ]
    assert quotes(group(statements)) == [
        ["チケットは英語で、日本語じゃなくて。", "Jira tickets in English, please, not Japanese."],
        ["Always cc Raj on investor emails."],
        ["Release notes: po angielsku, nie po polsku.", "The release notes in English, always."],
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Always reply to me in English.", "Customer emails go out in Spanish, never English."),
        # a word that is also a language's name (review, helper-109)
        ("Always polish the changelog before a release.", "Changelog zawsze po polsku."),
        ("Gebruik altijd de connection pool voor Postgres.", "Postgres docs always in Polish."),
    ],
)
def test_a_language_named_of_other_things_stays_apart(first: str, second: str) -> None:
    statements = [*said(1, first, "2026-03-02"), *said(2, second, "2026-03-16")]
    assert [len(i.statements) for i in group(statements)] == [1, 1]


@pytest.mark.parametrize(
    ("code", "text", "named"),
    [
        ("es", "en inglés", "@english"),
        ("pt", "em ingles pf", "@english"),  # typed without its accent
        ("de", "auf Englisch", "@english"),
        ("ru", "по-английски", "@english"),
        ("uk", "англійською", "@english"),  # no stemmer: a case form keeps all but its ending
        ("ko", "영어로", "@english"),  # a particle off
        ("zh", "請寫英文", "@english"),  # traditional Chinese's name too
        ("tr", "İngilizce yaz", "@english"),
        ("tr", "ingilizce yaz", "@english"),
        ("th", "ภาษาไทย", "@thai"),
        ("fr", "en français", "@french"),
        ("en", "in the language of the ga team", None),  # names of fewer than four letters are other words
        ("ja", "スペイン語で", "@spanish"),  # a name the tables cut into words ("スペイン 語")
        ("uk", "німецькою", "@german"),
        # … only the languages the text layer reads: another's name is as often a word (review, helper-109)
        ("es", "crea una rama nueva", None),  # Cree
        ("it", "il corso di domani", None),  # Corsican
        ("pt", "fecha a persiana", None),  # Persian
        ("ru", "кому это отправить", None),  # Komi
        # … a word the language also uses otherwise names one only with a capital
        ("en", "always polish the changelog", None),
        ("en", "Polish the changelog before every release", None),  # the sentence's capital (review, helper-110)
        ("en", "that point is not germane here", None),
        ("en", "the changelog in Polish", "@polish"),
        ("nl", "gebruik de connection pool", None),
        ("tr", "bu lehçe farklı", None),
        ("es", "checa los logs", None),
        # … and a Latin name's prefix is no name ("policy", read in Latin letters of Hindi)
        ("hi", "policy yahi hai", None),
    ],
)
def test_a_language_is_named_by_its_meaning_alone(code: str, text: str, named: str | None) -> None:
    stems = content(text, language(code)).stems
    assert {s for s in stems if s.startswith("@")} == ({named} if named else set())
    # … in place of the word: it weighs no more than the word did
    assert not stems & {"english", "englisch", "ingles", "angliysk"}
