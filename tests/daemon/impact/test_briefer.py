"""A word for shorter that is the whole of its clause, answering the agent's turn ("kortare.",
"shorter pls", `impact.brief`; sentences written for these tests), asks for less of what the
agent wrote: a preference. Not beside another word ("not" too), after a turn that asks, nor in
a sentence that approves."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

DRAFT = (
    "Hi Ahmed! Hope the weekend was good. On Monday please pick up the porcelain from Karin at "
    "Hovåsvägen 40 in Askim at 9:30. It is 6 boxes. Call her on 070-412 88 31 when you arrive. Thanks!"
)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("sv", "kortare. adress tid antal tel, punkt"),
        ("en", "shorter pls"),
        ("de", "und bitte kürzer, ohne die Grußformel"),
        ("ru", "давай списком, коротко."),
        ("pt", "curtinho, tipo 3 linhas"),
    ],
)
def test_a_word_for_shorter_alone_in_its_clause_is_a_preference(code: str, message: str) -> None:
    statements = detect_statements(message, "s1", 3, None, answered=DRAFT, usual=language(code))
    assert statements and statements[0].kind == "preference" and any(c.startswith("excess:") for c in statements[0].cues)


@pytest.mark.parametrize(
    ("answered", "message"),
    [
        (DRAFT, "short answer: we ship on Monday"),  # another word in its clause
        ("Should the note to Karin be a short one or a long one?", "short."),  # a choice asked for
        (DRAFT, "the message is good, short, thank you."),  # approves
        (DRAFT, "not shorter pls"),  # another word: "not"
        ("", "shorter pls"),  # no turn of the agent's to be shorter than
    ],
)
def test_a_word_for_shorter_elsewhere_asks_for_nothing(answered: str, message: str) -> None:
    statements = detect_statements(message, "s1", 3, None, answered=answered, usual=language("en"))
    assert not any(c.startswith("excess:") for s in statements for c in s.cues)
