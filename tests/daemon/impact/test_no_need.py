"""A "no" and a "no need" that close their clause decline what the agent offered ("не, не
надо, она сама по логам увидит", "ні, не треба, хай буде три як є"); the same words with more of
their clause after them ask for less ("нет, не надо писать длинно, три строки": a stop), as
they did, and a rule for the agent after the decline stands ("нет, не надо, впредь без
списков"; not a bare "always" or "never", which tells what someone does as often)
(`impact.agreement`, daemon/impact/cues.py, daemon/impact/left_out.py; sentences written for
these tests, in the shapes the read corpora showed, and the inputs their review found)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

OFFER = {"ru": "Готово. Хотите, составлю для Лены список?", "uk": "Готово. Хочете, збережу шаблон?", "pt": "Feito. Queres que configure backups semanais?"}


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=OFFER[code], usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ru", "не, не надо, она сама по логам увидит"),
        ("ru", "нет, не надо, я им сам позвоню"),
        ("uk", "ні, не треба, хай буде три як є"),
        ("uk", "та ні, не треба, до того ще далеко."),
        ("pt", "não, não é preciso, o alojamento já faz backup diário"),
        # review helper-196: someone's habit, a state, "not now", "next time" after the decline
        ("ru", "нет, не надо, Паша никогда это не читает"),
        ("ru", "нет, не надо, у нас на проде всегда 3 реплики"),
        ("ru", "нет, не надо, не сейчас"),
        ("ru", "нет, не надо, в следующий раз"),
        ("uk", "ні, не треба, бухгалтерка завжди сама робить акти"),
        ("pt", "não, não é preciso, o Paulo nunca lê isso"),
    ],
)
def test_a_no_and_a_no_need_closing_their_clause_decline(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ru", "нет, не надо писать длинно, три строки"),
        ("ru", "не надо писать длинно, три строки"),
        ("uk", "ні, не треба писати довго, три рядки"),
    ],
)
def test_a_no_need_its_clause_goes_on_after_asks_for_less(code: str, message: str) -> None:
    (statement,) = found(message, code)
    assert any(c.startswith("stop:") for c in statement.cues), statement.cues


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # review helper-195
        ("ru", "нет, не надо, и больше никогда не предлагай списки"),
        ("ru", "нет, не надо, впредь без списков"),
        ("uk", "ні, не треба, і більше ніколи не пропонуй шаблони"),
        ("pt", "não, não é preciso, a partir de agora sem backups no relatório"),
    ],
)
def test_a_rule_after_the_decline_stands(code: str, message: str) -> None:
    (statement,) = found(message, code)
    assert statement.kind == "standing_instruction"
