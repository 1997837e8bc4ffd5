"""A rule in English in the register of documentation and terms, written as pages are ("X should
always …", "… will always incur …", opening with a capital) among another language's words is pasted from a page, a policy or a platform,
not the person's (`impact.documented`, daemon/impact/left_out.py, `pasted_output`); in an
English session, and a rule in English without that register beside the person's own language,
stay statements (sentences written for these tests, in the shapes the read corpora showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

ANSWERED = {
    "pl": "Gotowe, plugin zaktualizowany na stronie.",
    "pt": "Pronto, o template foi enviado.",
    "en": "Done, the plugin is updated.",
    "de": "Ich habe den Key ins Repo gelegt.",
}


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=ANSWERED[code], usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("pl", "Administrators should always enable 2FA."),
        ("pl", "Plugin updates must always be tested on staging."),
        ("pt", "Messages outside the 24h window must always use an approved template."),
        ("pt", "Orders under 150 EUR will always incur a 12 EUR shipping fee."),
        ("pt", "The sender address shall never differ from the site domain."),
    ],
)
def test_a_documented_rule_in_english_among_another_language_is_pasted(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # the person's own English beside their language: no register of documentation
        ("pl", "commits always in English, reszta po polsku"),
        ("pt", "tickets always in English pls"),
        # review helper-201: said to the agent, or of the person's own team
        ("pl", "you should never push directly to main"),
        ("pl", "ja mówiłem, you should never push to main"),
        ("pt", "we should always run the tests before commit"),
        # review helper-202: typed as people type, not as pages are written
        ("de", "secrets should never be committed, bitte"),
        ("pl", "commit messages should always be in english"),
        ("de", "migrations should never touch prod data directly"),
        # an English session: the person may well say it so
        ("en", "Plugin updates should always be tested on staging first."),
    ],
)
def test_a_rule_in_english_of_the_persons_own_stays(code: str, message: str) -> None:
    (statement,) = found(message, code)
    assert any(c.startswith("standing:") for c in statement.cues), statement.cues
