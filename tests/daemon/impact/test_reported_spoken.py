"""Someone else's words as people report them are someone else's (`claim.reported`): Kansai's
"所長が「…」って言うてはった", "言うとった", as "って言ってた" was; Chinese "会计说", "老闆說", a role and
说 with no space between (sentences written for these tests, in the shapes the fifty-first and
the seventieth corpus showed once read)."""

from __future__ import annotations

from daemon.impact.statements import detect_statements
from daemon.text.language import language

ANSWERED = "3月分の領収書がまだ届いていないので、4/20（月）までに送っていただけますか。"


def test_a_rule_a_kansai_speaker_reports_is_no_statement() -> None:
    said = "所長が「領収書の催促には期限を必ず書くこと」って言うてはったんで、4/20はこのまま残しといてください"
    assert detect_statements(said, "s1", 3, None, answered=ANSWERED, usual=language("ja"), reply="はい、4/20（月）はそのまま入っています。") == []


def test_the_persons_own_rule_beside_it_stands() -> None:
    (statement,) = detect_statements("催促のメールには期限を必ず書いてな", "s1", 3, None, answered=ANSWERED, usual=language("ja"))
    assert any(c.startswith("standing:") for c in statement.cues)


# Chinese writes "the accountant says" as a role and 说 with no space; "我说" stays the person's own
ZH_ANSWERED = "三月的发票已经开好了，纸本的三联式放在柜台。"


def test_a_rule_a_role_says_in_chinese_is_no_statement() -> None:
    for said in ("会计说以后都改开电子发票 纸本的她不收了", "老闆說以後每家店都要拍照回傳群組"):
        assert detect_statements(said, "s1", 3, None, answered=ZH_ANSWERED, usual=language("zh")) == []


def test_the_persons_own_rule_in_chinese_stands() -> None:
    (statement,) = detect_statements("以后都改开电子发票 纸本的不要了", "s1", 3, None, answered=ZH_ANSWERED, usual=language("zh"))
    assert any(c.startswith("standing:") for c in statement.cues)
