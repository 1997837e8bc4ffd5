"""What closes a sentence after what is to be sets a limit on it ("address + what + maps link,
that's it", "dirección hora pedido depto, listo", `impact.enough`, daemon/impact/shapes.py);
alone, after approval or thanks, after numbers alone or in a sentence that tells it closes
nothing (sentences written for these tests, in the shapes the read corpora showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Dear team, please find below the schedule for Friday's delivery shift, with all details."


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))


def limited(statements: list[Statement]) -> bool:
    return any(c.startswith("limit:") for s in statements for c in s.cues)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "guys are on bikes, address + what + maps link, that's it"),
        ("es", "dirección hora pedido depto, listo"),
        ("es", "una linea por grupo y ya"),
        ("sv", "adress tid antal tel, punkt"),
        ("de", "Zahl rein, Uhrzeit rein, fertig"),
        ("it", "dimmi che cambia e basta"),
        ("fr", "genre 4 lignes, heure pis adresse, c'est tout"),
        ("nl", "twee, drie zinnen: wat en waarom, klaar"),
        ("ar", "php artisan migrate وبس"),
    ],
)
def test_a_closing_enough_after_what_is_to_be_is_a_limit(code: str, message: str) -> None:
    statements = found(message, code)
    assert limited(statements), statements
    assert statements[0].kind == "preference"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "that's it!"),
        ("en", "perfect, thanks, that's all"),
        ("en", "we fixed the van yesterday, that's it"),
        ("en", "that's it for today"),
        ("uk", "5 490 і все."),
        ("fr", "un point, c'est tout"),
        ("es", "listo"),
    ],
)
def test_an_enough_alone_after_approval_numbers_or_a_story_is_no_limit(code: str, message: str) -> None:
    assert not limited(found(message, code))
