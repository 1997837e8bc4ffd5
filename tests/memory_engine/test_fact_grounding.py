"""Fact grounding in any language: a user's fact rests on their own first-person words, and a
value is found in its quote in scripts with and without spaces, composed or decomposed."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent


def distill_said(root: Path, fake_model: FakeModelServer, said: str, *facts: dict[str, Any]) -> dict[str, Any]:
    """One `once` over four turns whose first user message is `said`; the distillation entry."""
    config = setup_agent(root, fake_model)
    pairs = [(said, "OK."), ("Thanks!", "Welcome."), ("Bye.", "Bye."), ("Hi.", "Hello.")]
    (root / "ada" / "transcripts" / "s1.jsonl").unlink()  # the helper's four English turns
    write_transcript(root / "ada", "s1.jsonl", conversation(pairs))
    fake_model.reply({"facts": list(facts)}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    entry: dict[str, Any] = next(p for p in result.json()["passes"] if p["name"] == "distillation")
    return entry


@pytest.mark.parametrize(
    ("said", "quote", "value"),
    [
        ("Ich wohne in Berlin.", "Ich wohne in Berlin", "Berlin"),
        ("Я переехал в Берлин.", "Я переехал в Берлин", "Берлин"),
        ("Моє місто — Київ.", "Моє місто — Київ", "Київ"),
        ("J'habite à Lyon.", "J'habite à Lyon", "Lyon"),
        ("Mi ciudad es Madrid.", "Mi ciudad es Madrid", "Madrid"),
        ("Eu moro em Lisboa.", "Eu moro em Lisboa", "Lisboa"),
        ("Mieszkam w mojej Warszawa.", "mojej Warszawa", "Warszawa"),
        ("Ik woon in Utrecht.", "Ik woon in Utrecht", "Utrecht"),
        ("Εγώ μένω στην Αθήνα.", "Εγώ μένω στην Αθήνα", "Αθήνα"),
        ("मैं दिल्ली में रहता हूँ।", "मैं दिल्ली में रहता हूँ", "दिल्ली"),
        ("我住在柏林。", "我住在柏林", "柏林"),
        ("私はベルリンに住んでいます。", "私はベルリンに住んでいます", "ベルリン"),
        ("저는 서울 사람이에요.", "저는 서울 사람이에요", "서울"),
        ("la mia città è Roma.", "la mia città è Roma", "Roma"),
        ("私は私立大学で働いています。", "私は私立大学で働いています", "私立大学"),
        ("제 고향은 부산이에요.", "제 고향은 부산이에요", "부산이에요"),
        # A one-character value among character pairs; a Korean value with its particle.
        ("我姓王。", "我姓王", "王"),
        ("私の名字は林です。", "私の名字は林です", "林"),
        ("저는 서울에 살아요.", "저는 서울에 살아요", "서울"),
        ("제 고향은 부산이에요.", "제 고향은 부산이에요", "부산"),
        # An inflected value: the quote's case form of the value the model names.
        ("Mieszkam w Krakowie od roku.", "Mieszkam w Krakowie", "Kraków"),
        ("Я живу в Москве.", "Я живу в Москве", "Москва"),
        ("Bydlím v Ostravě.", "Bydlím v Ostravě", "Ostrava"),
        ("Ich arbeite für die Stadtwerke.", "Ich arbeite für die Stadtwerke", "Stadtwerk"),
        # A language that drops its pronouns: the verb says "I".
        ("Trabajo en Inditex desde 2021.", "Trabajo en Inditex desde 2021", "Inditex"),
        ("Lavoro a Torino da due anni.", "Lavoro a Torino", "Torino"),
        ("Moro no Porto.", "Moro no Porto", "Porto"),
        ("Pracuję w Allegro.", "Pracuję w Allegro", "Allegro"),
        ("Μένω στην Αθήνα.", "Μένω στην Αθήνα", "Αθήνα"),
    ],
)
def test_a_users_fact_in_their_own_first_person_words_is_stored_in_any_language(
    root: Path, fake_model: FakeModelServer, said: str, quote: str, value: str
) -> None:
    entry = distill_said(root, fake_model, said, berlin_fact(quote=quote, value=value))

    assert entry["stored"] == 1, entry["rejected_facts"]


@pytest.mark.parametrize(
    ("said", "quote", "value", "why"),
    [
        ("Sie wohnt in Berlin.", "Sie wohnt in Berlin", "Berlin", "needs the user's own first-person words"),
        ("她住在柏林。", "她住在柏林", "柏林", "needs the user's own first-person words"),
        ("She lives in Boston, US.", "She lives in Boston, US", "Boston", "needs the user's own first-person words"),
        # A first person of one language that is a name or another word in another language.
        ("Mia moved to Lisbon last week.", "Mia moved to Lisbon", "Lisbon", "needs the user's own first-person words"),
        ("A Ana mora nas montanhas perto do Porto.", "A Ana mora nas montanhas perto do Porto", "Porto", "needs the user's own first-person words"),
        ("Marie habite à Lyon depuis onze ans.", "Marie habite à Lyon depuis onze ans", "Lyon", "needs the user's own first-person words"),
        ("Anna arbeitet im Büro in Hamburg.", "Anna arbeitet im Büro in Hamburg", "Hamburg", "needs the user's own first-person words"),
        ("Jonas lives 5 mi outside Oslo.", "Jonas lives 5 mi outside Oslo", "Oslo", "needs the user's own first-person words"),
        ("她在北京一家私人诊所工作。", "她在北京一家私人诊所工作", "北京", "needs the user's own first-person words"),
        ("彼女は大阪の私立大学で働いています。", "彼女は大阪の私立大学で働いています", "大阪", "needs the user's own first-person words"),
        ("김 대리는 제 2공장에서 일합니다.", "김 대리는 제 2공장에서 일합니다", "2공장에서", "needs the user's own first-person words"),
        ("我住在柏林。", "我住在柏林", "巴黎", "the quote does not say 巴黎"),
        ("我姓王。", "我姓王", "李", "the quote does not say 李"),
        ("저는 서울에 살아요.", "저는 서울에 살아요", "부산", "the quote does not say 부산"),
        ("저는 서울에 살아요.", "저는 서울에 살아요", "서", "the quote does not say 서"),
        ("私はベルリンに住んでいます。", "私はベルリンに住んでいます", "ベルン", "the quote does not say ベルン"),
        # A third person in a language that drops its pronouns; a value one letter from the quote's.
        ("Trabaja en Inditex desde 2021.", "Trabaja en Inditex desde 2021", "Inditex", "needs the user's own first-person words"),
        ("Mieszka w Krakowie.", "Mieszka w Krakowie", "Kraków", "needs the user's own first-person words"),
        ("I work with Hannah.", "I work with Hannah", "Hanna", "the quote does not say hanna"),
        # A language without a data file: no first person can be read in it.
        ("Asun Tampereella.", "Asun Tampereella", "Tampereella", "needs the user's own first-person words"),
    ],
)
def test_a_fact_in_another_persons_words_or_not_in_its_quote_is_refused_in_any_language(
    root: Path, fake_model: FakeModelServer, said: str, quote: str, value: str, why: str
) -> None:
    entry = distill_said(root, fake_model, said, berlin_fact(quote=quote, value=value))

    assert "stored" not in entry and entry["rejected"] == 1
    assert why in entry["rejected_facts"][0], entry["rejected_facts"]


@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_a_quote_is_found_whether_the_transcript_or_the_model_composes_its_accents(
    root: Path, fake_model: FakeModelServer, form: str
) -> None:
    # Text pasted from macOS file names is decomposed; models write composed text (and back).
    said = unicodedata.normalize(form, "My city is Zürich.")
    other = "NFD" if form == "NFC" else "NFC"
    quote = unicodedata.normalize(other, "My city is Zürich")
    entry = distill_said(root, fake_model, said, berlin_fact(quote=quote, value=unicodedata.normalize(other, "Zürich")))

    assert entry["stored"] == 1, entry["rejected_facts"]


@pytest.mark.parametrize(
    ("said", "quote", "value"),
    [
        # a city by its name in the quote's language (CLDR's cities of the time-zone database)
        ("Ich wohne in Lissabon.", "Ich wohne in Lissabon", "Lisbon"),
        ("Mieszkam w Warszawie.", "Mieszkam w Warszawie", "Europe/Warsaw"),
        # a one-letter ending the data file lists (German weak nouns)
        ("Ich gebe alles dem Nachbarn.", "Ich gebe alles dem Nachbarn", "Nachbar"),
        # a standing instruction speaks for the user without a pronoun
        ("Pakete ab jetzt an den Nachbarn.", "Pakete ab jetzt an den Nachbarn", "Nachbar"),
    ],
)
def test_a_value_said_in_the_quotes_own_words_is_grounded(
    root: Path, fake_model: FakeModelServer, said: str, quote: str, value: str
) -> None:
    entry = distill_said(root, fake_model, said, berlin_fact(quote=quote, value=value))
    assert entry.get("stored") == 1, entry


@pytest.mark.parametrize(
    ("said", "quote", "value"),
    [
        ("Ich heiße Hannah.", "Ich heiße Hannah", "Hanna"),  # one letter more is another name
        ("Oslo always has rain.", "Oslo always has rain", "Oslo"),  # "always" is no instruction
    ],
)
def test_near_misses_stay_ungrounded(root: Path, fake_model: FakeModelServer, said: str, quote: str, value: str) -> None:
    entry = distill_said(root, fake_model, said, berlin_fact(quote=quote, value=value))
    assert "stored" not in entry and ": ungrounded — " in entry["rejected_facts"][0], entry
