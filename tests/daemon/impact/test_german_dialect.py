"""German as it is typed in the north and the south: "nich" (Hamburg) and "ned" (Bavaria,
Austria) are "nicht" before what they name, after the right value ("4,00 €, ned 4.00 EUR");
before other words they praise, ask or tell ("ned schlecht", "nich wahr"), and "Ned" is a name.
A "no" that agrees in dialect ("nein, host recht", "nee, stimmt scho") agrees; without the "no"
the same words may open a correction ("stimmt schon, aber …"). Sentences written for these
tests, in the shapes the sixty-fifth corpus showed once read, and the inputs its review
found."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

INVOICE = "Rechnung: Summe EUR 2,318.45, Preise 4.00 EUR, MwSt 19 %."


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=INVOICE, usual=language("de"))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Preise so wie auf da Karte: 4,00 €, ned 4.00 EUR", "ned"),
        ("die Summe 2.318,45 €, nich EUR 2,318.45", "nich"),
        ("Proviant is 7 %, nich 19.", "nich"),
    ],
)
def test_a_dialect_not_after_the_right_value_sets_it_right(message: str, word: str) -> None:
    (statement,) = found(message)
    assert statement.kind == "correction"
    assert f"contrast:{word}" in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "nein, host recht, des passt",
        "nee, stimmt scho, des is a oida Bug",
        "nee, hesch recht, isch guet so",
        "des is ned so schlimm",  # a "not" that negates no value
        "ich weiss es nich",
        # review helper-195: praise, a tag question, a name, a country's code
        "Danke, ned schlecht!",
        "Das ist doch 19 %, nich wahr",
        "Schick's an Anna, Ned kriegt sie später",
        "Versand nach NED und BEL, je 2 Pakete",
    ],
)
def test_a_dialect_agreement_or_a_plain_not_is_no_statement(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "stimmt schon, aber die MwSt ist 7 %, nicht 19",
        "host eh recht, schick's ab jetzt immer an Sepp",
    ],
)
def test_the_same_words_without_a_no_still_open_a_correction(message: str) -> None:
    assert found(message)
