""""Always"/"never" said of a name, which the agent's reply takes as news: it changes nothing of
its work and says no standing phrase (daemon/impact/untaken.py, story.said_of_name); the rules
about a name that stay rules (sentences written for these tests, in the shapes the read corpora
showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

BEFORE = "Here is the March summary: 214 orders, 12 returns, 3 open tickets."
EDITED = "● Update(billing/invoice.py)\n  ⎿  Updated billing/invoice.py with 1 addition and 1 removal"


def found(message: str, code: str, reply: str) -> list[Statement]:
    return detect_statements(
        message, "s1.jsonl", 3, "2026-12-01T10:00:00+00:00", answered=BEFORE, usual=language(code), reply=reply
    )


@pytest.mark.parametrize(
    ("code", "message", "reply"),
    [
        ("es", "Farmacias del Norte siempre devuelve todo a fin de mes, es su forma de cerrar inventario", "Tiene sentido: el 62 % de sus devoluciones cae en los últimos días del mes."),
        ("en", "honestly Bev from accounts always wants the receipts as PDFs.", "Understood. Here is the agenda for Thursday."),
        ("pt", "a Dra Renata sempre chega 7h30 pra abrir, entao 8h é tranquilo", "Olá, Carla! Sua sessão está marcada para amanhã às 8h."),
        ("nl", "bij Les Boulistes mogen ze trouwens nooit op zondag spelen vanwege de buren.", "Goed om te weten, dan klopt de zaterdag."),
    ],
)
def test_always_or_never_of_a_name_the_reply_takes_as_news_is_no_rule(code: str, message: str, reply: str) -> None:
    assert found(message, code, reply) == []
    # … the same sentence with no reply yet is still read as a rule
    assert found(message, code, "")


@pytest.mark.parametrize(
    ("code", "message", "reply"),
    [
        # the agent changes its work, or says a standing phrase
        ("en", "Invoices for Globex never include VAT.", EDITED),
        ("en", "Prices for Acme always include VAT.", "Noted — VAT included for Acme from now on."),
        # it asks: a clause opens with a verb, or one follows the cue
        ("en", "cc Hannah always on invoices", "Noted."),
        ("en", "in Python always use type hints", "Noted."),
        ("fr", "et Madame Roth, réponds-lui en allemand, jamais 'du'", "Noté."),
        # a rule set out after a colon
        ("cs", "pro import do Shoptetu vzdycky: strednik jako oddelovac, kodovani windows-1250", "Hotovo."),
        # no name: a weekday, an acronym, a word opening its clause, a German noun
        ("en", "Releases on Fridays are never a good idea.", "Okay."),
        ("en", "All PRs are always squashed.", "Okay."),
        ("en", "FYI: Slack messages are always in English.", "Okay."),
        ("en", "ok so Slack messages are always in English.", "Okay."),
        ("de", "Die Rechnungen gehen immer an die Buchhaltung.", "Okay."),
        # the person or the agent is named
        ("en", "Our Berlin office never gets the newsletter.", "Okay."),
        ("en", "the Acme account never gets your signature.", "Okay."),
    ],
)
def test_a_rule_about_a_name_stays_a_rule(code: str, message: str, reply: str) -> None:
    assert any(s.kind == "standing_instruction" for s in found(message, code, reply))
