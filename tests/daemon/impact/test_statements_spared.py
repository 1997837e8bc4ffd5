"""A one-off or a dismissal spares the rule said after a "but" no more (`impact.but`,
daemon/impact/left_out.py): "it's fine this time, but from now on ask me first" sets the rule,
in every language with cues; without the "but", or with the dismissal after the rule, the
sentence is still left out (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import Statement, detect_statements

AGENT = "Done, I deleted the old files."


def found(message: str) -> list[Statement]:
    return detect_statements(message, "s1.jsonl", 3, "2026-03-02T09:00:00+00:00", answered=AGENT)


@pytest.mark.parametrize(
    ("code", "message"),
    [
 ("en", "It's fine this time, but from now on ask me first before you delete anything."),
 ("de", "Diesmal ist es okay, aber ab jetzt fragst du mich vorher, bevor du etwas löschst."),
 ("fr", "Cette fois ça va, mais à partir de maintenant tu me demandes avant de supprimer quoi que ce soit."),
 ("es", "Esta vez pasa, pero de ahora en adelante preguntame antes de borrar cualquier cosa."),
 ("it", "Per questa volta va bene, ma d'ora in poi chiedimi prima di cancellare qualsiasi cosa."),
 ("pt", "Dessa vez tudo bem, mas daqui pra frente me pergunta antes de apagar qualquer coisa."),
 ("nl", "Deze keer is het oké, maar voortaan vraag je het mij eerst voor je iets verwijdert."),
 ("pl", "Tym razem trudno, ale od teraz pytaj mnie najpierw, zanim coś usuniesz."),
 ("cs", "Tentokrát dobrý, ale odteď se mě nejdřív zeptej, než něco smažeš."),
 ("ru", "На этот раз ладно, но впредь сначала спрашивай меня, прежде чем что-то удалять."),
 ("uk", "Цього разу нічого, але надалі спершу питай мене, перш ніж щось видаляти."),
 ("sv", "Den här gången är det okej, men från och med nu frågar du mig först innan du raderar något."),
 ("nb", "Denne gangen går det, men fra nå av spør du meg først før du sletter noe."),
 ("da", "Denne gang er det fint, men fremover spørger du mig først, før du sletter noget."),
 ("el", "Αυτή τη φορά εντάξει, αλλά από εδώ και πέρα ρώτα με πρώτα πριν σβήσεις οτιδήποτε."),
 ("tr", "Bu seferlik sorun yok ama bundan sonra bir şey silmeden önce bana sor."),
 ("he", "הפעם זה בסדר, אבל מעכשיו תשאל אותי קודם לפני שאתה מוחק משהו."),
 ("ar", "هذه المرة لا بأس، لكن من الآن فصاعدا اسألني قبل أن تحذف أي شيء."),
 ("hi", "इस बार ठीक है, लेकिन आगे से कुछ भी डिलीट करने से पहले मुझसे पूछना।"),
 ("ja", "今回はいいけど、次からは何か消す前に先に聞いてください。"),
 ("ko", "이번엔 괜찮은데, 근데 앞으로는 뭐 지우기 전에 먼저 물어봐 주세요."),
 ("zh", "这次算了，但是以后删东西之前要先问我。"),
 ("th", "ครั้งนี้ไม่เป็นไร แต่ต่อไปถ้าจะลบอะไร ถามผมก่อนนะครับ"),
],
)
def test_a_rule_after_but_stands_beside_a_one_off(code: str, message: str) -> None:
    (said,) = found(message)
    assert code in said.language.split("+")
    assert said.kind == "standing_instruction"


@pytest.mark.parametrize(
    "message",
    [
        "Never mind, but from now on ask me first before you delete anything.",  # "never" is the dismissal's
        "No worries, but from now on ask me first before you delete anything.",  # an agreement, as a dismissal
    ],
)
def test_a_rule_after_but_stands_beside_a_dismissal_or_an_agreement(message: str) -> None:
    (said,) = found(message)
    assert said.kind == "standing_instruction"


@pytest.mark.parametrize(
    "message",
    [
        "It's fine this time, from now on ask me first before you delete anything.",  # no "but"
        "just this once, always send it without the review.",  # the one-off holds the rule itself
        "From now on ask me first, but whatever, go ahead.",  # the dismissal comes after the rule
        "Ask me first from now on, but this time go ahead.",  # a one-off after the rule still spares it
        "For today, always reply in English, but thanks for asking.",  # the "but" comes after the rule
        "For now it's fine, but the build always fails on Mondays.",  # a bare "always" tells how things are
        "Just asking, but do we always deploy on Fridays",
        "Ok but this time, ask me before you delete anything.",  # the "but" comes before the one-off
    ],
)
def test_a_one_off_or_a_dismissal_with_no_but_before_the_rule_spares_it(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "this week only, no emojis in the newsletter",
        "今週だけ、絵文字は入れないで。",
        "solo esta semana, nada de emojis en el newsletter",
        "nur diese Woche keine Emojis im Newsletter",
        "이번 주만 이모지 넣지 마세요",
        "sadece bu hafta emoji koyma",
    ],
)
def test_a_request_for_this_week_or_month_only_is_a_one_off(message: str) -> None:
    assert found(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "Always check the schedule for this week before booking anything.",
        "Prüf immer zuerst den Plan für diese Woche.",
    ],
)
def test_this_week_naming_what_a_rule_is_about_is_no_one_off(message: str) -> None:
    (said,) = found(message)
    assert said.kind == "standing_instruction"
