"""Detection of what people type to an agent in English, Spanish and Portuguese: declining in
more words, setting their own words right, only asking, past habits and a name's spelling set
right by a letter (sentences written for these
tests, in the shapes the twelfth blind corpus showed, and the inputs its review found)."""

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
        ("pt", "não, vc tá certo, é 7 dias uteis mesmo pra manaus."),
        ("en", "pls no rush on this"),  # after a lead-in as typed
        # the person sets their own words right, not the agent's
        ("en", "sorry I said Thursday earlier I meant Friday for the Patel job, Thursday's the tip run"),
        ("es", "perdón, quise decir el endpoint de shipments, no el de payments."),
        ("pt", "foi mal, eu quis dizer sexta, nao quinta"),
        # only asking
        ("en", "just asking, we never deploy on a Friday, right"),
        ("es", "pregunto nomás, no hay planes"),
        # a past habit: the imperfect beside "always"
        ("es", "antes siempre deployábamos los viernes, hasta el incidente de diciembre."),
        ("pt", "a gente sempre fazia tudo na mao antes do Bling, era um inferno."),
        # a letter that says nothing of a name's spelling
        ("en", "a vitamin with a C in the name"),
        ("es", "café con y sin azúcar"),
        ("en", "Plan A failed, so we go with a B."),
        ("en", "Mark each row with an x and we're done"),
        ("pt", "Marque com x e pronto"),
        ("es", "me quedo con b"),
    ],
)
def test_what_sets_nothing_right_for_the_agent_is_no_statement(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        # "I meant" alone sets the agent's reading right (review helper-58)
        ("de", "no, ich meinte den anderen Branch, nicht main", "contrast:nicht"),
        ("it", "No, intendevo venerdì, non giovedì.", "contrast:non"),
        ("en", "It's not my fault, the port is 5433 not 5432.", "contrast:not"),
        ("en", "did you run the tests? no. run them first, always.", "standing:always"),
        # a rule about someone of the person's
        ("en", "my accountant should always be cc'd on invoices", "standing:always"),
        # the present beside "always", not the imperfect
        ("pt", "Neste time sempre enviamos o changelog junto.", "standing:sempre"),
        # "no hay que" is a rule
        ("es", "El token va en el .env, no hay que commitearlo.", "contrast:no"),
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
        # a rule said with an apology still stands
        ("en", "my bad, always use pnpm here", "standing:always"),
        ("en", "sorry I said npm earlier, we always use pnpm", "standing:always"),
        ("en", "No, I meant Friday, not Thursday.", "contrast:not"),  # "I meant" alone corrects the agent's reading
    ],
)
def test_what_sets_a_rule_or_a_value_right_is_found(code: str, message: str, cue: str) -> None:
    statements = found(message, code)
    assert statements, message
    assert any(cue in s.cues for s in statements), [s.cues for s in statements]


@pytest.mark.parametrize(
    ("message", "quote", "cue"),
    [
        ("menor isso ai, é zap nao email. e Thaís, com h", "e Thaís, com h", "set_right:com h"),
        ("saimos da Boa Vista faz 2 anos\nCavalcanti com i", "Cavalcanti com i", "set_right:com i"),
    ],
)
def test_a_name_spelled_by_a_letter_stands_alone_however_few_its_words(message: str, quote: str, cue: str) -> None:
    """It says the name it sets right: the sentence before is not taken in with it."""
    statements = found(message, "pt", answered="Pronto, mandei a mensagem pra Thais Cavalcante.")
    assert [s.quote for s in statements if cue in s.cues] == [quote]
