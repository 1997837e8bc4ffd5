"""An order of work ("first X, then Y"; "X first") in the languages whose data file had none:
Turkish, Japanese, Chinese, Korean, Arabic, Hebrew, Greek, Hindi, Thai (`impact.first`,
`impact.then`; sentences written for these tests). A plan of the person's own or a story told
in the past sets no order."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done: I ran the import on production, 412 rows written."


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("tr", "önce --dry-run ile çalıştır, ondan sonra gerçek dosya"),
        ("tr", "önce yedek al, sonra migrate et"),
        ("ja", "まずステージングで確認して、それから本番に出して"),
        ("zh", "首先在测试环境跑一遍，然后再上线"),
        ("ko", "먼저 스테이징에 올리고, 그 다음에 운영에 배포해요"),
        ("ar", "الأول جرب على السيرفر التجريبي، بعدين على الحقيقي"),
        ("he", "קודם כל dry-run, ואז הרצה אמיתית"),
        ("el", "πρώτα το dry-run, μετά το κανονικό"),
        ("hi", "पहले dry-run चलाओ, फिर असली फ़ाइल"),
        ("th", "staging ก่อนครับ"),
        # a `then` of several words orders the steps wherever the `first` stands, in its clause too
        ("ko", "손님한테 나가는 건 --dry-run 으로 먼저 돌려서 목록 보여주고 그 다음에 보내요"),
        ("it", "sul sito prima si mette su staging, lo guardo dal telefono, e solo dopo si va in produzione"),
    ],
)
def test_an_order_of_work_is_a_statement(code: str, message: str) -> None:
    statements = found(message, code)
    assert statements and any(c.startswith("sequence:") for c in statements[0].cues), statements


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("tr", "dün önce ben baktım, sonra Ali çalıştırdı"),  # a story, told in the past
        ("el", "πρώτα εγώ θα το κοιτάξω, μετά βλέπουμε"),  # the person's own plan
        ("he", "האפסים נעלמים בהתחלה של המספר"),  # "at the beginning" of a number: no order
        ("en", "first I'll check the logs and after that we decide"),  # the person's plan
        ("en", "it first crashed and after that it hung"),  # a bug report
    ],
)
def test_a_plan_or_a_story_sets_no_order(code: str, message: str) -> None:
    assert not any(c.startswith("sequence:") for s in found(message, code) for c in s.cues)
