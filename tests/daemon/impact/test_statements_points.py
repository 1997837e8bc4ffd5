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
        ("uk", "ми на Зеленій 12, не 21. і товар відправляємо Новою поштою.", "і товар відправляємо Новою поштою."),
        # the person's "I" past the first words is no plan of theirs
        ("sv", "kör aldrig kubectl apply mot prod. och starta inte om poddar, jag vill veta varför", "och starta inte om poddar, jag vill veta varför"),
    ],
)
def test_a_sentence_opening_with_and_beside_a_statement_is_another_point(code: str, message: str, point: str) -> None:
    statements = found(message, code)
    assert len(statements) == 2
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
        # the next task, a plan or news of the person's, thanks (the review's inputs)
        ("en", "always run the tests before you push. and please fix the typo on line 3."),
        ("en", "always run the tests before you push. and can you check the CI for PR 17"),
        ("en", "always run the tests before you push. and then merge PR 88."),
        ("en", "always run the tests before you push. and I'll review it on Monday."),
        ("en", "always run the tests before you push. Also, I'm off on Friday 3rd."),
        ("en", "always run the tests before you push. And thanks for the quick fix on PR 42!"),
        ("fr", "toujours lancer les tests avant de pousser. et merci pour la PR 42 !"),
    ],
)
def test_a_sentence_opening_with_and_is_no_point_otherwise(code: str, message: str) -> None:
    assert not any(c.startswith("also:") for s in found(message, code) for c in s.cues)


def test_many_points_in_one_message_are_a_pasted_list() -> None:
    # more than five "and …" sentences after a statement: a list pasted, not points added
    points = " ".join(f"and invoice {n} goes to the Leeds office." for n in range(6))
    message = "the port is 5433, not 5432. " + points
    assert not any(c.startswith("also:") for s in found(message) for c in s.cues)
    # five are points
    message = "the port is 5433, not 5432. " + " ".join(f"and invoice {n} goes to the Leeds office." for n in range(5))
    assert sum(c.startswith("also:") for s in found(message) for c in s.cues) == 5
