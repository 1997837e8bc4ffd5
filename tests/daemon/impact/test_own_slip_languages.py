"""The person setting their own earlier words right, as people say it in Portuguese, French,
Italian, Spanish, German, English, Dutch, Polish, Chinese, Arabic and Hindi
(`impact.own_slip`; sentences written for these tests): no statement; the same value set right
without it corrects the agent."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.text.language import language

AGENT = "Done: the invoice for Ana lists 450 and ships on the 20th."


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("pt", "ah errei ali em cima, a Ana foi 480 e não 450"),
        ("pt", "ah espera, enganei-me eu, a palete sai dia 23 e não 20"),
        ("pt", "eu q errei na planilha: é 480 e não 450, digitei trocado"),
        ("fr", "mets 480 finalement, j'me suis trompée tantôt, c'est 480 pas 450"),
        ("it", "scusa, ho scritto male: è 480, non 450"),
        ("es", "perdón, me equivoqué yo: son 480, no 450"),
        ("de", "sorry, hab mich verschrieben: 480, nicht 450"),
        ("en", "sorry, typo, it's 480 not 450"),
        ("nl", "ik heb me verschreven, het is 480, niet 450"),
        ("pl", "pomyliłam się, ma być 480, nie 450"),
        ("zh", "哦不对，我刚说错了，是480不是450"),
        ("ar", "استنى، غلطت أنا: آنا 480 مش 450"),
        ("hi", "arre maine galat bola, 450 nahi 480 tha"),
        ("fr", "ah pis c'est 480 pas 450, j'avais mal lu son message."),
    ],
)
def test_the_persons_own_slip_is_no_statement(code: str, message: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code)) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("pt", "a Ana foi 480 e não 450"),
        ("fr", "c'est 480 pas 450"),
        ("en", "it's 480 not 450"),
    ],
)
def test_the_same_value_set_right_without_it_corrects(code: str, message: str) -> None:
    (statement,) = detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "Scratch that, use pnpm, not npm."),  # "scratch that" takes back the agent's work too
        ("de", "Alles richtig, aber bitte nicht npm, sondern pnpm."),
        ("ru", "Всё так же падает, используй pnpm, а не npm."),
    ],
)
def test_a_correction_opening_with_words_an_agreement_shares_stays_one(code: str, message: str) -> None:
    # review helper-148: phrases that open a correction are in no own-slip or agreement list
    statements = detect_statements(message, "s1", 3, None, answered="Done, installed it with npm.", usual=language(code))
    assert statements and statements[0].kind == "correction"


def test_an_arabic_all_fine_before_but_still_corrects() -> None:
    # "all fine, but the amount is 500, not 400": a bare "all fine" opens a correction as often
    agent = "تم تحديث الفاتورة، المبلغ 400 جنيه."
    statements = detect_statements("كله تمام بس المبلغ 500 مش 400", "s1", 3, None, answered=agent, usual=language("ar"))
    assert statements and statements[0].kind == "correction"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # words that say a slip only in one sense are not listed (review helper-175): "me comí
        # una hora" is "I spent an hour", "bunu diyecektim" "I was about to say it"
        ("es", "me comí una hora esperando, es 480 no 450"),
        ("tr", "ben de tam bunu diyecektim: 450 değil 480"),
    ],
)
def test_a_slip_word_negated_or_meant_otherwise_still_corrects(code: str, message: str) -> None:
    (statement,) = detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))
    assert statement.kind == "correction"
