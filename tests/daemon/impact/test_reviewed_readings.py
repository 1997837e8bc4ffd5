"""Inputs a review found read wrongly by rules tried and taken out (an agreement opening a
correction, a Korean quotative closing one's own rule, "??" of excitement): each is read as
it is meant (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements

PORT = "I set the port to 3000 for staging and production."


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("לא, זה נכון רק ל-staging, בפרוד זה 8080", "correction"),
        ("ठीक है, लेकिन आगे से हमेशा pnpm इस्तेमाल करना।", "standing_instruction"),
        ("theek hai, lekin hamesha pnpm use karo", "standing_instruction"),
        ("앞으로는 '절대 force push 금지'라고 README에 써 주세요.", "standing_instruction"),
        ("main에 force push 하셨는데, 앞으로 절대 force push 하지 마세요.", "standing_instruction"),
    ],
)
def test_a_correction_or_rule_after_an_agreeing_word_or_a_quotative_is_kept(message: str, kind: str) -> None:
    found = detect_statements(message, "s1.jsonl", 3, None, answered=PORT)
    assert [s.kind for s in found][:1] == [kind]


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("I deployed the release v2.4.1 to production.", "v2.4.1 already?? Thanks, I appreciate it."),
        ("Margin is 31%, churn 2.3%.", "margin 31%?! we're rich 😂 Drinks on me tonight at 8."),
        ("I deployed v2.4.1 to production; the error rate is 0.1%.", "Is production stable?? Yes it is, checked Datadog at 10:30."),
    ],
)
def test_excitement_and_a_question_answered_by_the_person_correct_nothing(agent: str, message: str) -> None:
    assert detect_statements(message, "s1.jsonl", 3, None, answered=agent) == []
