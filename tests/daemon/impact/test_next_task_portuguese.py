"""The next task, asked with the verbs people type in Portuguese ("põe", "tira", "bota",
"roda"): the agent's edit after it carries the task out and corrects nothing, as with "add",
"remove" (`openers`, daemon/impact/setright.py `asks_or_adds`; sentences written for these
tests, in the shapes the read corpora showed)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

EDITED = (
    "● Update(site/templates/case.php)\n"
    "  ⎿  Updated site/templates/case.php with 1 addition and 1 removal"
)
EDITED_AGAIN = "● Update(site/templates/case.php)\n  ⎿  Updated site/templates/case.php with 12 additions and 4 removals"


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=EDITED, usual=language("pt"), reply=EDITED_AGAIN)


@pytest.mark.parametrize(
    "message",
    [
        "põe as fotos do case em grelha de 3 e a legenda por baixo de cada uma",
        "tira os menores de 18 dessa lista do case",
        "bota o link do botão no case: bouca.pt/visitas",
        "roda agora o case só com o meu número",
    ],
)
def test_the_next_task_the_agent_carries_out_corrects_nothing(message: str) -> None:
    assert found(message) == []


def test_a_correction_said_with_one_still_corrects() -> None:
    (statement,) = found("tira o 2026 do título do case, não é 2026, é 2025")
    assert statement.kind == "correction"
