"""How things are done where the person works, said as people say it ("thats how we do it
here", "c'est comme ça qu'on fait ici", "bizde işler böyle"), is a standing instruction; the
same words agreeing to one plan, telling of an event, a trouble or what the person has are
not: phrases that say those as often are not listed (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements

AGENT = "Done, I updated the file."


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", "s1.jsonl@120", answered=AGENT)


@pytest.mark.parametrize(
    ("message", "cue"),
    [
        ("copy the sheet to backups with the date before the script runs, thats how we do it here", "standing:how we do it here"),
        ("pis les noix en majuscules dans Allergenes, c'est comme ca qu'on fait ici", "standing:c'est comme ça qu'on fait ici"),
        ("Rechnungen gehen erst nach dem Okay vom Chef raus, so läuft das bei uns", "standing:so läuft das bei uns"),
        ("primero el dry-run y después lo corrés de verdad, acá trabajamos así", "standing:acá trabajamos así"),
        ("eerst een Tikkie, dan pas de rit, zo gaat dat bij ons", "standing:zo gaat dat bij ons"),
        ("ラベルは先に印刷してから箱詰め、うちのやり方やけん", "standing:うち の やり方"),
        ("退款先給我看 我們的規矩", "standing:我們 的 規矩"),
        ("בקבוצה שולחים קודם לי, ככה זה אצלנו", "standing:ככה זה אצלנו"),
        ("faturayı ayın 5'inde kesiyoruz, bizde işler böyle", "standing:bizde işler böyle"),
    ],
)
def test_how_things_are_done_where_the_person_works_is_a_standing_instruction(message: str, cue: str) -> None:
    statements = found(message)
    assert [s.kind for s in statements] == ["standing_instruction"]
    assert cue in statements[0].cues


@pytest.mark.parametrize(
    "message",
    [
        # agreeing to one plan the agent offered
        "ok, so machen wir das.",
        "oké, zo doen we dat.",
        "vale, así lo hacemos.",
        "ok, sådan gør vi.",
        "ok, facciamo così.",
        "ok så kör vi.",
        # an event or a trouble where the person works
        "Chez nous on fait un barbecue samedi.",
        "U nas się robi remont w biurze.",
        "У нас все так же падает на staging.",
        # asked, or told of how it was
        "is that how we do it here?",
        # agreeing to the plan the agent offered, in words a house rule is said in too
        "perfect, that's how we do it",
        "tamam abi, biz böyle yapıyoruz",
        "ok, мы так работаем",
        "fedt, sådan kører vi",
        "vale, así trabajamos",
        # what the person has, explains or reports
        "bizde böyle bir ürün yok",
        "il parser qui funziona così: legge riga per riga",
        "Aqui a gente faz bolo de pote e brigadeiro, me ajuda com a legenda",
        "u nas jest tak dużo zamówień, że nie wyrabiamy",
        "u nás to tak nefunguje, pořád to hází chybu 500",
        "zo gaat het hier elke maandag mis met de backup",
        "我们都是这样想的",
        "thats how we did it here before the merger, Margaret changed it.",
    ],
)
def test_the_same_words_agreeing_to_a_plan_or_telling_of_an_event_are_no_statement(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "add a house rule to the listing: quiet hours after 10",
        "añadí una regla de la casa al anuncio: silencio después de las 10",
        "zet een huisregel in de advertentie: stilte na 10 uur",
    ],
)
def test_a_house_rule_named_as_the_content_of_a_task_is_no_statement(message: str) -> None:
    assert found(message) == []


def test_dutch_je_said_to_customers_is_a_form_of_address_and_we_ll_tell_you_is_not() -> None:
    (statement,) = found("het klinkt als de Belastingdienst. we zeggen je tegen klanten")
    assert statement.kind == "preference" and "preference:zeggen je tegen" in statement.cues
    assert found("We zeggen je wel wanneer de build klaar is.") == []
