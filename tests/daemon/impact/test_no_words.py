"""The words people answer "no" with ("hayir" typed without its dotless ı, "nä", "neen",
"nope") are a "no" as "hayır", "nej", "nee" are: alone before a reply that changes nothing of
the agent's work, they decline (`daemon.impact.untaken`); before a reply that takes the message
up, or followed by one that says the agent was wrong ("hayir, yanlış", "いや、違う"), they still
correct (`negation` data, daemon/impact/untaken.py; sentences written for these tests, in the
shapes the read corpora showed, and the inputs their review found)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "The message is ready: 14:00, to every parent."

DECLINED = [
    ("tr", "hayir, once mudur beye sorayim", "Tamam."),
    ("sv", "nä, jag frågar Lisa först", "Okej."),
    ("nl", "neen, ik vraag het eerst aan Jan", "Oké."),
    ("nl", "nope, ik vraag het eerst aan Jan", "Oké."),
    ("da", "nope, jeg spørger Lise først", "Okay."),
    ("nb", "nope, jeg spør Kari først", "Greit."),
]


def found(message: str, code: str, reply: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code), reply=reply)


@pytest.mark.parametrize(("code", "message", "reply"), DECLINED)
def test_a_no_the_reply_takes_nothing_of_declines(code: str, message: str, reply: str) -> None:
    assert found(message, code, reply) == []


@pytest.mark.parametrize(
    ("code", "message", "reply"),
    [
        ("tr", "hayir, saat 15:00", "Düzelttim: mesaj 15:00'te gidecek."),
        ("sv", "nä, klockan 15:00", "Ändrat: meddelandet går 15:00."),
        ("nl", "neen, om 15:00", "Aangepast: het bericht gaat om 15:00."),
    ],
)
def test_a_no_the_reply_takes_up_still_corrects(code: str, message: str, reply: str) -> None:
    (statement,) = found(message, code, reply)
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    ("code", "message", "reply"),
    [
        # review helper-196: a "no" and a "wrong", answered by a bare acknowledgement
        ("tr", "hayir, yanlış", "Tamam."),
        ("tr", "hayir, dogru degil", "Tamam."),
        ("sv", "nä, det stämmer inte", "Okej."),
        ("sv", "nä, det är fel, mötet är 15", "Okej."),
        ("ja", "いや、違う", "わかりました。"),
        ("ja", "いえ、違います", "わかりました。"),
        ("en", "no, that's wrong", "OK."),
    ],
)
def test_a_no_and_a_wrong_correct_whatever_the_reply(code: str, message: str, reply: str) -> None:
    (statement,) = found(message, code, reply)
    assert statement.kind == "correction"
