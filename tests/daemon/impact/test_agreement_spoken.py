"""A "no" that agrees as people say it: Japanese "you were right" in the past ("いや、あんたの言う
通りやった"); Greek "ντάξει" (εντάξει as spoken) is no agreement, after "όχι" or not: what
follows it corrects as often ("όχι ρε, ντάξει, απλά το ποσό είναι 150 όχι 105", review
helper-196); Japanese "いや、そうですね", Spanish "no, sí, bien visto", Russian "неа, не надо"
agree or decline; Irish "no ur grand", "no bother" agree, as Hindi "nahi, theek kaha aapne"
("no, you said it right"), Glaswegian "naw yer fine", "it's no your fault", Kansai "いや、ええよ"
and Thai "ไม่ดีกว่าครับ" (better not) do; a Pole's "no dobra." ("well, OK.") is Polish, not English "no".
Sentences written for these tests, in the shapes the sixty-fifth, sixty-ninth, seventy-second to seventy-fourth
corpora showed once read, and the inputs their reviews found."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements
from daemon.text.language import language

AGENT = "Done: the export goes to the orders tab, VAT 24 %."


def found(message: str, code: str) -> list[Statement]:
    return detect_statements(message, "s1", 3, None, answered=AGENT, usual=language(code))


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("ja", "いや、あんたの言う通りやった、注文タブやね。"),
        ("ja", "いや、言う通りだった。"),
        # the sixty-seventh and sixty-eighth corpora once read: "no, yes, right", "no, well spotted"
        ("ja", "いや、そうですね、18時以降の人だけでいいです。"),
        ("ja", "いや、ですよね、安心しました。"),
        ("es", "no, si, bien visto"),
        ("ru", "неа, не надо, он уже исправился"),
        # Irish English: "you're grand" typed as people type it, "no bother"
        ("en", "no ur grand, easy done."),
        ("en", "no bother, sure it was only the one line."),
        # the seventy-second: Hindi "you said it right" with the verb first, as typed in Latin
        ("hi", "nahi, theek kaha aapne, dono template rakhiye"),
        ("hi", "नहीं, सही कहा आपने, दोनों टेम्पलेट रखिए"),
        ("pl", "no dobra."),
        # Glasgow (the forty-ninth and fifty-eighth): "no" for "not", "yer" for "you're"
        ("en", "naw yer fine, we've only got 3k on the list, no worth it if this sells oot by friday"),
        ("pl", "No dobra, niech bedzie."),
        # the seventy-third and seventy-fourth once read: Singlish "no lah", Kansai "いや、ええよ"
        # (no, it's fine), Thai "ไม่ดีกว่าครับ" (better not)
        ("en", "no lah ur right, last can, they open 9 plus one"),
        ("ja", "いや、ええよええよ、14kgで合ってるし。"),
        ("th", "ไม่ดีกว่าค่ะ"),
        ("th", "ไม่ดีกว่าครับ"),
        # "no, that's right" as the sixty-third said it (not Czech "ne, je to tak": "je to tak, že
        # …" opens what is so; nor Spanish "no, claro que no": a "nunca" may follow; nor Flemish
        # "nee, da's juist", where "juist" may say "precisely")
        ("tr", "yok, iyi olmus bu"),
    ],
)
def test_a_no_that_agrees_as_people_say_it_is_no_statement(code: str, message: str) -> None:
    assert found(message, code) == []


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("el", "όχι, 13 είναι το ΦΠΑ, όχι 24"),
        # review helper-195: a bare "ντάξει" or "έτσι είναι σωστό" took in what follows
        ("el", "ντάξει, αλλά το ΦΠΑ είναι 13 %, όχι 24"),
        ("el", "όχι, έτσι είναι σωστό: 13 %, όχι 24"),
        ("el", "όχι ρε, ντάξει, απλά το ποσό είναι 150 όχι 105"),
        ("ja", "いや、10%や、8%ちゃう"),
        ("es", "no, el IVA es 21, no 24"),
        ("ru", "неа, не 24, а 20"),
        ("en", "no ur grand, but the VAT is 13.5 %, not 24"),
        ("hi", "nahi, theek kaha aapne, lekin GST 5 hai, 12 nahi"),
        ("pl", "no dobra, ale VAT jest 8, nie 23"),
        ("en", "naw yer fine, but the VAT is 20 %, not 5"),
        ("en", "naw yer fine, but fae now on always cc Kirsty"),
        ("en", "No, your fault was using 5 %: VAT is 20 %, not 5"),  # blames (review helper-214)
        ("pl", "no, use pnpm not npm"),
        ("pl", "no emojis."),  # English "no" in a Polish session (review helper-215)
        ("it", "no emoji."),
        ("ja", "いや、ええよ、でも次から宛名は事務所名でお願い"),
        # words that agree elsewhere, here beside a rule (review helper-219)
        ("nl", "nee, dat is juist niet de bedoeling, gebruik altijd het nieuwe sjabloon"),
        ("en", "no you're fine to merge, always squash though"),
        ("th", "ไม่ดีกว่าเดิมเลย ต่อไปใช้แบบเก่าตลอด"),
    ],
)
def test_the_same_words_beside_a_value_still_correct(code: str, message: str) -> None:
    assert found(message, code)


@pytest.mark.parametrize(
    "message",
    ["Naw, it's no your fault, the letterhead file's still the old one", "nae bother, the letterhead file's still the old one"],
)
def test_glaswegian_no_fault_and_no_bother_take_back_what_follows(message: str) -> None:
    turn = "Fixed the letter footer — sorry, I took it from the old letterhead text."
    assert detect_statements(message, "s1", 3, None, answered=turn, usual=language("en")) == []


def test_a_japanese_no_the_reply_takes_nothing_of_declines() -> None:
    """"いや" is a "no" as "いいえ" is: alone before what the agent then changes nothing of, it
    declines (`daemon.impact.untaken`); one the reply takes up still corrects."""
    answered = "すみません、出力は out/ ではなく output/ でした。ファイルは output/仕訳.csv にあります。"
    said = "いや、output でええです、合ってます"
    assert detect_statements(said, "s1", 3, None, answered=answered, usual=language("ja"), reply="了解です。") == []
    (statement,) = detect_statements(
        "いや、出力先は export です", "s1", 3, None, answered=answered, usual=language("ja"), reply="修正しました。出力先を export/ にしました。"
    )
    assert statement.kind == "correction"


def test_a_spanish_slip_the_person_owns_is_no_correction() -> None:
    """"me he liado yo" says the mistake was the person's own (`impact.own_slip`)."""
    answered = "Factura 2026-0041: cepillo 89,00 € + IVA 18,69 €."
    said = "perdona, el cepillo era 79, no 89, me he liado yo"
    assert detect_statements(said, "s1", 3, None, answered=answered, usual=language("es"), reply="Cepillo 79,00 €.") == []
    (statement,) = detect_statements("el cepillo es 79, no 89", "s1", 3, None, answered=answered, usual=language("es"), reply="Cepillo 79,00 €.")
    assert statement.kind == "correction"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        # review helper-201: what follows an agreement and a "but" sets right (as it did before
        # only for a rule for from now on)
        ("en", "you're right, but the port is 5433, not 5432"),
        ("es", "bien visto, pero el puerto es 5433, no 5432"),
        ("ja", "いや、そうですね、でもポートは5433です"),
    ],
)
def test_a_correction_after_an_agreement_and_a_but_stands(code: str, message: str) -> None:
    statements = detect_statements(message, "s1", 3, None, answered="He puesto el puerto 5432. ポートは5432です。 Port 5432.", usual=language(code))
    assert [s.kind for s in statements] == ["correction"], statements


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("en", "you're right, but not now"),
        ("en", "you're right, but no rush"),
        ("es", "tienes razón, pero no hoy"),
        ("en", "you're right, but let's do that tomorrow instead"),  # review helper-202: a plan
    ],
)
def test_an_agreement_and_a_but_that_only_delays_is_no_statement(code: str, message: str) -> None:
    assert detect_statements(message, "s1", 3, None, answered="Set the port to 5432. Deploy now?", usual=language(code)) == []
