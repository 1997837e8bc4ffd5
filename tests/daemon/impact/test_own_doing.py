"""A "no" that declines what the agent offered by taking the work on (`own_doing`,
daemon/impact/left_out.py): "no no, no need to cc finance, I will forward myself", "нет, сводку я
пока сама буду собирать". A rule beside it, a "no" that sets a value right, and the same words
with no opening "no" still count. Sentences written for these tests, in the shapes the
forty-third to seventy-fourth corpora showed once read."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Invoice drafted. Want me to email it to finance too, and send Tammy a reminder?"


def found(message: str, code: str, answered: str = AGENT) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=answered, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "no no, no need to cc finance, I will forward it myself"),
        ("en", "no, i'll send it to her, she knows me"),
        ("en", "no, i'll call her, she prefers it"),
        ("es", "no, el pdf no, lo saco yo del programa."),
        ("es", "no no, dejalo, al Tano lo llamo yo mañana"),
        ("ru", "нет, пятничную сводку я пока сама буду собирать."),
        ("ja", "いや、スープの件は送らんでよかよ、自分で聞くけん"),
        ("ja", "いえ、今日は本番送らなくて大丈夫です、夕方私が送ります"),
        ("he", "לא, באתר אני אשים לבד."),
        ("de", "nein, die Mahnung nicht schicken, mach ich selbst"),
        ("nl", "nee, geen reminder sturen, doe ik zelf"),
    ],
)
def test_a_no_that_takes_the_work_on_declines(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # a rule beside it still stands
        ("en", "no, I'll call her myself, and always cc Kirsty"),
        ("en", "no, I'll forward it myself, I told you finance wants it from me"),
        ("es", "no, lo mando yo, pero siempre con copia a Marta"),
        # a stop asks the agent to leave off what it does (review helper-219)
        ("en", "no, stop emailing clients, I'll do it"),
        # no opening "no": the person's own part in a rule for the agent
        ("en", "never touch the prod db, I'll do it myself"),
        # a value set right beside it
        ("en", "no, the VAT is 23 %, I'll fix the template myself"),
        ("en", "no, i'm in Porto myself, not Lisbon"),
    ],
)
def test_a_rule_or_a_value_beside_it_still_counts(code: str, message: str) -> None:
    assert found(message, code, "Invoice drafted with VAT 13.5 %. Want me to email it to finance too?")


def test_a_spanish_value_set_right_beside_the_work_taken_on_still_counts() -> None:
    (statement,) = found("no, el IVA es 23, lo corrijo yo mismo en la plantilla", "es", "Factura con IVA 13,5 %. ¿La mando a finanzas?")
    assert statement.cues == ("set_right:iva 23",)


@pytest.mark.parametrize("done", ["Forwarded the invoice to finance.", "Forwarded the invoice to finance. Anything else?"])
def test_the_same_no_said_of_what_the_agent_did_corrects_it(done: str) -> None:
    message = "no no, I'll forward it myself"
    assert found(message, "en", "Invoice drafted. Want me to forward it to finance too?") == []
    (said,) = found(message, "en", done)
    assert said.cues == ("prohibition:no",)


@pytest.mark.parametrize(
    ("code", "message", "answered"),
    [
        # opening a session: nothing was offered (review helper-218)
        ("en", "No force pushes to main, I'll handle the merges myself.", ""),
        ("es", "No subas nada a producción, eso lo hago yo.", ""),
        # a "no" that forbids, with no mark after it
        ("en", "No force pushes, I'll handle it.", "Rebased onto main and force-pushed the branch. Want me to open the PR?"),
        ("es", "No mandes nada a los clientes, lo mando yo.", "Listo, le envié la factura a Marta. ¿Algo más?"),
        # "myself" alone may tell what the person did ("I checked it myself")
        ("en", "no, I just checked myself, it's still stale", "Fixed the caching issue, the page should be up to date now."),
        ("ru", "нет, я сам проверил, страница всё так же старая", "Исправил кэш, страница теперь обновляется."),
    ],
)
def test_a_no_that_takes_nothing_on_still_counts(code: str, message: str, answered: str) -> None:
    assert found(message, code, answered)
