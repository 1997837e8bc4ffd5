"""A question that asks the agent to do, as a request does, is read as said when it sets a rule:
"could you always run the tests first?" (`impact.request_question` opening it,
`impact.request_question_closing` closing it in a language that ends with its verb;
daemon/impact/left_out.py, `requests`). A question about a rule, a request for one deed and a
request the agent's reply alone answers stay questions (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements


def found(message: str, answered: str = "", reply: str = "") -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=answered, reply=reply)


@pytest.mark.parametrize(
    ("message", "kind", "cue"),
    [
        ("could you always run the tests first?", "standing_instruction", "standing:always"),
        ("can you never push to main without asking?", "standing_instruction", "standing:never"),
        ("kannst du bitte immer zuerst die Tests laufen lassen?", "standing_instruction", "standing:immer"),
        ("¿puedes usar siempre pnpm en este repo?", "standing_instruction", "standing:siempre"),
        ("możesz zawsze pisać kwoty w złotych?", "standing_instruction", "standing:zawsze"),
        ("tu peux toujours mettre les montants en euros ?", "standing_instruction", "standing:toujours"),
        ("你可以每次都先跑测试吗？", "standing_instruction", "standing:每次"),  # "你" is a lead-in, and opens the phrase
        ("件名の【】もやめてもらえますか？", "preference", "preference:やめ て"),  # closing: Japanese ends with its verb
    ],
)
def test_a_rule_asked_for_as_a_request_is_a_statement(message: str, kind: str, cue: str) -> None:
    (statement,) = found(message)
    assert statement.kind == kind and cue in statement.cues


@pytest.mark.parametrize(
    "message",
    [
        "should we always run the tests first?",  # asks what the rule is
        "do you always run the tests first?",
        "is it always like this?",
        "can you run the tests?",  # one deed, no rule
        "可以每次都先跑测试吗？",  # "can (we) …?" without "you" asks whether it is allowed
        "件名の【】はいつもこうですか？",  # "is the subject always like this?"
        # the rule is in what is asked about: past a clause break, or further than NEAR words
        "Kannst du erklären, warum der Build immer bricht?",
        "Can you tell me whether we always rebase here?",
        "تقدر تقولي ليه دايما بيفشل؟",
        "なぜいつも失敗するのか説明してくれる？",
        # "could it be", "will you be": not listed
        "¿Puede ser que siempre falle el test?",
        "Will you always be this slow?",
    ],
)
def test_a_question_about_a_rule_or_for_one_deed_stays_a_question(message: str) -> None:
    assert found(message) == []


def test_a_request_only_the_reply_answers_sets_no_rule() -> None:
    # the reply amends ("Desculpe, falha minha."), but "can you cancel it?" asks one deed
    message = "passou de 2 mil, eu tenho que ver antes. consegue cancelar?"
    answered = "Coloquei tudo no mesmo carrinho. Pedido fechado: DS-302281, total R$ 2.655,00."
    reply = "Desculpe, falha minha. O pedido DS-302281 ainda estava em separação e consegui cancelar."
    assert found(message, answered, reply) == []
