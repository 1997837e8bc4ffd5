"""Someone else's words as Kansai people report them ("所長が「…」って言うてはった", "言うとった")
are someone else's, as "って言ってた" was (`claim.reported`; a sentence written for this test,
in the shape the fifty-first corpus showed once read)."""

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
