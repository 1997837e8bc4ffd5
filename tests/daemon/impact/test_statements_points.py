"""A sentence with no cue that opens with "and" beside a statement is another point of it
(`daemon.impact.neighbours.points`; sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done, I updated the config and drafted the mail."


def found(message: str, code: str = "en") -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=AGENT, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message", "point"),
    [
        ("en", "the port is 5433, not 5432. and commit messages in English.", "and commit messages in English."),
        ("da", "fakturaer går til Jens, ikke Mette. og mails til kunder skrives på dansk.", "og mails til kunder skrives på dansk."),
        ("pt", "o prazo é 30 dias, não 60. e o frete grátis vale só pra capital.", "e o frete grátis vale só pra capital."),
        ("uk", "ми на Зеленій 12, не 21. і фото товару завжди з білим фоном.", None),  # a cue of its own
    ],
)
def test_a_sentence_opening_with_and_beside_a_statement_is_another_point(code: str, message: str, point: str | None) -> None:
    statements = found(message, code)
    assert len(statements) == 2
    if point is not None:
        assert statements[1].quote == point
        assert statements[1].cues == (f"also:{point.split()[0]}",)


def test_another_point_is_of_the_kind_of_the_statement_it_adds_to() -> None:
    first, second = found("always run the tests before you push. and commit messages in English.")
    assert first.kind == second.kind == "standing_instruction"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "the port is 5433, not 5432. and what about staging?"),  # a question
        ("en", "the port is 5433, not 5432.\n\nand commit messages in English."),  # another paragraph
        ("en", "and commit messages in English."),  # no statement beside it
        ("en", "the port is 5433, not 5432. and the coffee here is terrible lol"),  # a joke
        # "de" is Turkish "and", not Portuguese: a Portuguese message's "de manhã" is no point
        ("pt", "o prazo é 30 dias, não 60. de manhã ninguém lê os emails do fornecedor."),
        # … nor "a", Czech "and" (a sentence this short reads as several languages at once),
        # a Portuguese article
        ("pt", "o prazo é 30 dias, não 60. a 3 e a 4 tao ruins"),
    ],
)
def test_a_sentence_opening_with_and_is_no_point_otherwise(code: str, message: str) -> None:
    assert not any(c.startswith("also:") for s in found(message, code) for c in s.cues)
