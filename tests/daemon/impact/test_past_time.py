"""A bare "always" or "never" inside its clause, in a sentence that names a time gone by ("last
year", "loni", "i fjor", "去年"), tells how things went or how others are, not a rule for the
agent; opening its clause, or with "from now on" beside it, it still sets one (`past_time`,
daemon/impact/story.py; sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done, I sent the reminders."


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, None, answered=AGENT, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "the ceilidh lot always sell late, they had 90 walk-ins last year"),
        ("cs", "Horak nam loni poslal chmel o tyden pozdeji a nikdy se ani neomluvil"),
        ("nb", "Jostein glemmer alltid rampen, han glemte den tre ganger i fjor"),
        ("de", "der Gerhard hat letzte Woche angerufen, weil die Bestellung nie angekommen is"),
        ("ja", "去年もあの業者はいつも遅れてた"),
        ("el", "χθες ο Νίκος πάλι άργησε, αργεί πάντα"),
        ("pt", "o post de ontem flopou, o algoritmo nunca ajuda a gente em semana de feriado"),
    ],
)
def test_always_or_never_beside_a_time_gone_by_is_no_statement(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("en", "yesterday you pushed straight to main, from now on open a PR first", "standing:from now on"),
        # "last time" is not listed: it recalls as often ("like last time")
        ("en", "always cc Jo on invoices, last time she missed one", "standing:always"),
        ("de", "ab jetzt immer erst die Tests, gestern ist der Build gebrochen", "standing:ab jetzt"),
        # opening its clause, the "always" tells the agent what to do, whatever time it names
        ("en", "Always compare revenue to last year.", "standing:always"),
        ("en", "always set the cutoff to yesterday", "standing:always"),
        ("en", "never deploy on Fridays, last year we lost a whole weekend to a bad release.", "standing:never"),
        ("de", "Ich hab's dir gestern schon gesagt: immer pnpm.", "standing:immer"),
        ("es", "Siempre compara con el año pasado.", "standing:siempre"),
        # speaking to the agent, what was done yesterday is the reason for the rule
        ("en", "You must always run the tests, yesterday you didn't.", "standing:always"),
        ("de", "Push nie direkt auf main, gestern hast du das wieder gemacht.", "standing:nie"),
        ("fr", "Ne pousse jamais sur main, hier tu l'as encore fait.", "standing:jamais"),
        ("ko", "커밋 메시지는 항상 영어로 써 주세요, 어제는 한국어로 썼어요", "standing:항상"),
    ],
)
def test_a_rule_for_from_now_on_beside_a_time_gone_by_stands(code: str, message: str, cue: str) -> None:
    (statement,) = found(message, code)
    assert statement.kind == "standing_instruction" and cue in statement.cues
