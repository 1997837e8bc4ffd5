"""What a sentence the agent's reply amends must not be for that to show a correction: the next
task or a story (daemon/impact/setright.py `asks_or_adds`, daemon/impact/amends.py `tells`).
An "and" that only joins two of a kind ("Monplaisir et Croix-Rousse ouvrent plus tôt") adds no
request (`conjunctions` of each data file); an "and" before a request's verb or a next step
("… and send the post to Léa", "… and then post it") still asks for work, and so does an
"also" anywhere ("Croix Rousse opens earlier too"). A verb in the past in the last of several
clauses, after a value, gives a reason ("…, die 85 waren letztes Jahr"). Sentences written for
these tests, in the shapes the read corpora showed."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import known, language

TURNS = {
    "en": (
        "Here's the draft: all three shops open at the same hour for Valentine's.",
        "Fixed: Monplaisir and Croix-Rousse open earlier, Vieux Lyon keeps its hours.",
    ),
    "fr": (
        "Voici le post : nos trois boutiques ouvrent à la même heure pour la Saint-Valentin.",
        "Corrigé : Monplaisir et Croix-Rousse ouvrent plus tôt, Vieux Lyon garde son horaire.",
    ),
}


def found(code: str, message: str) -> list[Statement]:
    answered, reply = TURNS[code]
    return detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language(code), reply=reply)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "Monplaisir and Croix Rousse open earlier than Vieux Lyon"),
        ("fr", "monplaisir et croix rousse ouvrent plus tot que vieux lyon"),
    ],
)
def test_an_and_between_two_names_adds_nothing_and_the_amended_sentence_corrects(code: str, message: str) -> None:
    (statement,) = found(code, message)
    assert statement.kind == "correction" and statement.cues[0].startswith("amended:")


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "Monplaisir opens earlier and send the post to Léa"),  # a request's verb after it
        ("en", "Monplaisir opens earlier and then post it on Monday"),  # a next step
        ("en", "Monplaisir and Croix Rousse open earlier and publish the post on Monday"),
        ("en", "Croix Rousse opens earlier too"),  # an "also" adds wherever it stands
        ("fr", "monplaisir ouvre plus tot et envoie le post a Léa"),
    ],
)
def test_an_and_before_a_request_asks_for_work(code: str, message: str) -> None:
    assert found(code, message) == []


def test_an_and_that_also_says_too_keeps_adding() -> None:
    """Russian "и" is "and" and "too" ("пост должна получить и Лена"): Russian lists none."""
    answered = "Вот черновик поста для Марка: все три магазина открываются в одно время."
    reply = "Исправил: пост теперь уходит Марку и Лене."
    said = detect_statements("Пост должна получить и Лена", "s1.jsonl", 3, None, answered=answered, usual=language("ru"), reply=reply)
    assert said == []


def test_conjunctions_are_connectives_of_a_language_that_asks_with_a_verb_first() -> None:
    """An "and" before a request's verb still asks: a language whose requests open with no verb
    it lists (Japanese, Chinese, Turkish …) keeps every "and" adding."""
    for lang in known().values():
        joining = lang.lists.get("conjunctions", frozenset())
        assert joining <= lang.lists.get("connectives", frozenset()), lang.code
        assert not joining or lang.lists.get("openers", frozenset()) - lang.function_words, lang.code


def test_a_verb_in_the_past_after_a_value_gives_a_reason_not_a_story() -> None:
    """"die 85 waren letztes Jahr" says why 95 is right (`amends.tells`); a story told from the
    sentence's start, or after clauses that give no value ("rough day, …", "amai, …"), still
    tells."""
    answered = "Angebot erstellt: 12 Stunden zu je 85 €, gesamt 1.020 €."
    reply = "Korrigiert: 12 Stunden zu je 95 €, gesamt 1.140 €."

    def said(message: str) -> list[Statement]:
        return detect_statements(message, "s1.jsonl", 3, None, answered=answered, usual=language("de"), reply=reply)

    (statement,) = said("und der Stundensatz ist 95, die 85 waren letztes Jahr")
    assert statement.cues == ("amended:korrigiert",)
    assert said("der Stundensatz war letztes Jahr 85, jetzt wissen es alle") == []
    planned = "De planning is verstuurd naar alle chauffeurs."
    redone = "Sorry, aangepast: de planning staat nu ook in de gedeelde map, rap gedaan."
    for message in ("amai, da was rap.", "amai, wauw, da was rap."):
        assert detect_statements(message, "s1.jsonl", 3, None, answered=planned, usual=language("nl"), reply=redone) == []
    consoled = detect_statements(
        "rough day, the deploy went down twice",
        "s1.jsonl",
        3,
        None,
        answered="Summarised the sprint notes for Friday.",
        usual=language("en"),
        reply="Sorry about the deploy going down twice, that's rough.",
    )
    assert consoled == []
