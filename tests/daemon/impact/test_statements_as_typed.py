"""Detection of what people type to an agent in English, Spanish and Portuguese: declining in
more words, setting their own words right, answering their own question, past habits, other
people's habits and a name's spelling set right by a letter (sentences written for these
tests, in the shapes the twelfth blind corpus showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language


def found(message: str, code: str = "en", answered: str = "Done, I updated the file.") -> list[Statement]:
    usual = language(code)
    return detect_statements(message, "s1.jsonl", 3, "2026-11-02T10:00:00+00:00", answered=answered, usual=usual)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # declining or agreeing after "no", in more words
        ("en", "no ta, I'll drop it through her door Thursday, she's not one for email"),
        ("en", "no you're spot on it was the Tuesday."),
        ("en", "no you're alright, the skip's sorted, I rang them myself"),
        ("en", "nope, that's plenty. thanks"),
        ("es", "no, tenés razón, el select_for_update está bien ahí"),
        ("es", "no, claro que no, sigue siendo a mano."),
        ("pt", "nao nao, vc ta certo, é 7 dias uteis mesmo pra manaus."),
        # the person sets their own words right, not the agent's
        ("en", "sorry I said Thursday earlier I meant Friday for the Patel job, Thursday's the tip run"),
        ("es", "perdón, quise decir el endpoint de shipments, no el de payments."),
        ("pt", "foi mal, eu quis dizer sexta, nao quinta"),
        # answering their own question, one asking nothing of the agent
        ("en", "is it worth snapshot testing the card? nah, they just churn."),
        # only asking
        ("en", "just asking, we never deploy on a Friday, right"),
        ("es", "pregunto nomás, no hay planes"),
        # a past habit: the imperfect beside "always"
        ("es", "antes siempre deployábamos los viernes, hasta el incidente de diciembre."),
        ("pt", "a gente sempre fazia tudo na mao antes do Bling, era um inferno."),
        # someone of the person's, by their role
        ("en", "my accountant always wants the PDFs by the 5th"),
        ("pt", "minha contadora sempre pede o XML das notas ate dia 5"),
        # a letter in a name that says nothing of its spelling
        ("en", "a vitamin with a C in the name"),
        ("es", "café con y sin azúcar"),
    ],
)
def test_what_sets_nothing_right_for_the_agent_is_no_statement(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        # a question of a few words challenges what the agent did
        ("en", "why npm? no, pnpm.", "correction:no"),
        ("en", "did you run the tests? no. run them first, always.", "standing:always"),
        # the present beside "always" is a rule
        ("es", "siempre deployamos los viernes", "standing:siempre"),
        ("pt", "a gente sempre faz deploy na sexta", "standing:sempre"),
        ("en", "always send the PDFs to my accountant by the 5th", "standing:always"),
        # a name's spelling set right by a letter it holds
        ("en", "Kieran with a K, he's funny about it.", "set_right:with a k"),
        ("en", "and it's organise with an s, you keep going American on me", "set_right:with an s"),
        ("pt", "Thaís com h e acento, ela odeia Taís", "set_right:com h"),
        ("es", "y es Joaquín, con n", "set_right:con n"),
        # as a senior engineer types
        ("en", "lowercase, type prefix, you know the drill", "reminder:you know the drill"),
        ("en", "and nit: named export", "preference:nit"),
        ("en", "No, I meant Friday, not Thursday.", "contrast:not"),  # "I meant" alone corrects the agent's reading
    ],
)
def test_what_sets_a_rule_or_a_value_right_is_found(code: str, message: str, cue: str) -> None:
    statements = found(message, code)
    assert statements, message
    assert any(cue in s.cues for s in statements), [s.cues for s in statements]
