"""A way of doing announced before its steps ("we do it like this: …", `impact.thus`,
daemon/impact/shapes.py `announced`) is a standing instruction in every language with cues;
a question, a story, a third person's doing and one thing shown are not (sentences written for
these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements

AGENT = "Done, I updated the file."


def found(message: str, answered: str = AGENT) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=answered)


@pytest.mark.parametrize(
    ("code", "message", "cue"),
    [
        ("en", "releases here go like this: bump the version, tag it, then push the tag.", "like this"),
        ("de", "Bei uns läuft das so: erst die Tests, dann der Build, danach das Deployment.", "so"),
        ("fr", "Chez nous on fait comme ça : on lance les tests, on relit le diff, puis on fusionne.", "comme ça"),
        ("es", "Acá lo hacemos así: corrés las migraciones, revisás el plan, y recién ahí aplicás.", "así"),
        ("it", "Da noi si fa così: prima i test, poi la revisione, alla fine il rilascio.", "così"),
        ("pt", "Antes de atualizar fazemos assim: backup do banco, atualiza no staging, testa o formulário.", "assim"),
        ("nl", "Bij ons gaat dat zo: eerst de tests draaien, dan de diff nakijken, dan pas mergen.", "zo"),
        ("pl", "U nas to idzie tak: najpierw testy, potem przegląd kodu, na końcu wdrożenie.", "tak"),
        ("cs", "U nás to jde takhle — nejdřív testy, pak kontrola kódu, nakonec nasazení.", "takhle"),
        ("ru", "У нас это делается так: сначала тесты, потом ревью, и только потом выкладка.", "так"),
        ("uk", "У нас це робиться так: спершу тести, потім рев'ю, і тільки тоді викладка.", "так"),
        ("sv", "Hos oss gör vi så här: först testerna, sedan granskning, sist driftsättning.", "så här"),
        ("nb", "Hos oss gjør vi det slik: først testene, så gjennomgang, til slutt utrulling.", "slik"),
        ("da", "Hos os gør vi det sådan her: først testene, så gennemgang, til sidst udrulning.", "sådan her"),
        ("el", "Εδώ κάνουμε έτσι: πρώτα τα τεστ, μετά έλεγχος κώδικα, και στο τέλος ανάπτυξη.", "έτσι"),
        ("tr", "Bizde sürüm işi şöyle yürüyor: önce testler, sonra kod incelemesi, en son yayın.", "şöyle"),
        ("he", "אצלנו מיגרציות הולכות ככה: קודם בדיקות, אחר כך סקירת קוד, ורק אז פריסה.", "ככה"),
        ("ar", "عندنا الشغل هكذا: أولا الاختبارات، بعدها مراجعة الكود، وفي الآخر النشر.", "هكذا"),
        ("hi", "हम रिलीज़ ऐसे करते हैं: पहले टेस्ट, फिर कोड रिव्यू, आखिर में डिप्लॉय।", "ऐसे"),
        ("ja", "うちのリリースはこういう流れです：まずテスト、次にレビュー、最後にデプロイ。", "こういう"),
        ("ko", "우리 팀은 배포를 이렇게 해요: 먼저 테스트, 그다음 코드 리뷰, 마지막에 배포.", "이렇게"),
        ("zh", "我们这边发版是这样：先跑测试，然后代码评审，最后再部署。", "这样"),
        ("th", "ที่นี่เราทำแบบนี้: ทดสอบก่อน, จากนั้นรีวิวโค้ด, สุดท้ายค่อยปล่อย", "แบบ นี้"),
    ],
)
def test_a_way_of_doing_announced_before_its_steps_is_a_standing_instruction(code: str, message: str, cue: str) -> None:
    said = found(message)
    assert [s.language.split("+")[0] for s in said] == [code]
    assert f"standing:{cue}" in said[0].cues
    assert said[0].kind == "standing_instruction"


@pytest.mark.parametrize(
    "message",
    [
        "shall we do it like this: bump the version, tag it, then push the tag?",  # asks
        "yesterday it went like this: the build broke, the tag vanished, nobody noticed.",  # a story
        "he does it like this: opens the file, edits by hand, pushes to main.",  # someone else's doing
        "the page looks like this: blank.",  # one thing shown, no steps
        "do it like this one, with tests, and with the docs.",  # a comma after it, no colon
        "Tak: testy przechodzą, build działa, deploy też.",  # opening its clause, "tak" says yes
        "I get an error like this: TypeError, at foo, at bar.",  # the person's own
        "The stack trace looks like this: main.py, line 3, in run.",  # how a thing looks
        "Gestern lief das so: der Build brach ab, der Tag fehlte, keiner merkte es.",  # a story ("lief")
        "So ein Chaos im Repo heute: drei Branches, zwei Tags, kein Build.",  # "so" opens, no colon after it
        "the old dashboard is like this, cluttered, slow, ugly.",  # a comma, not a colon: no announcement
    ],
)
def test_a_question_a_story_or_one_thing_shown_announces_no_way(message: str) -> None:
    assert not any(c.startswith("standing:") for s in found(message) for c in s.cues)


def test_a_way_announced_in_quotation_marks_is_someone_elses() -> None:
    message = 'the vendor\'s wiki says "we do it like this: export, convert, upload" but ignore it for now.'
    assert not any(c.startswith("standing:") for s in found(message) for c in s.cues)
