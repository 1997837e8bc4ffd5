"""Does a quote speak in the first person? The words a user speaks of themself with (pure).

A fact about the user rests on the user's own words about themself, in whatever language
they wrote: a first-person pronoun or possessive ("I", "my", "ich", "мой", "j'", "मैं",
"Εγώ", "나는"), and in Chinese and Japanese, which are written without spaces, one of their
first-person characters anywhere in the quote ("我住在柏林", "私はベルリンに住んでいます").

Left out: a form that is also a common other word in one of these languages, which would
make a third-person sentence look like the user's own — Italian "ma" (but), Portuguese "nos"
and "nas" (in the; Polish "nas", us, goes with it), German and Dutch "ja" (yes), Spanish
"mes" (month), Greek "με" (with), Korean "저" (that), Dutch "onze" (our) as French "onze"
(eleven), English "im" (I'm typed without its apostrophe) as German "im" (in the), and "id"
and "ill" (I'd, I'll), which are English words themselves. "US" and "EU" written in capitals
are places, not "us" and "eu"; "Mia" and "Nam" capitalised are names, not Italian "mia" (my)
or Polish "nam" (us), even at the start of a sentence; "mi" after a number is miles, not
Spanish "mi" (my). Chinese 私 is "private", not "I": 私 counts only in Japanese (a quote
with kana), and neither there nor in Chinese as part of 私人, 私立, 私有, 私营, 私家, 私下
or 私服 (private …); Korean 제 before a number is the ordinal prefix (제 2공장, plant no. 2),
not "my".
A sentence whose only first person is its verb ending ("Μένω στην Αθήνα", "Vivo en Madrid")
is not recognised: that needs each language's morphology.
"""

from __future__ import annotations

import re
import unicodedata

from daemon.text.words import words

_BY_LANGUAGE = {
    "en": "i ive me my mine myself we our ours ourselves us",
    "de": "ich mich mir mein meine meinen meinem meiner meines wir uns unser unsere unseren unserem unserer unseres",
    "fr": "je j moi me mon nous notre",
    "es": "yo mí mi mis conmigo mío mía míos mías nosotros nosotras nuestro nuestra nuestros nuestras",
    "it": "io mi mio mia miei mie noi nostro nostra nostri nostre",
    "pt": "eu mim comigo meu minha meus minhas nós conosco connosco nosso nossa nossos nossas",
    "pl": "mnie mną mój moja moje moi mojego mojej mojemu moim moimi moich moją my nam nami nasz nasza nasze nasi naszego naszej naszemu naszym naszymi naszych naszą",
    "nl": "ik mij mijn wij ons",
    "ru": "я меня мне мной мною мой моя моё мое мои моего моей моему моим моими моих мою мы нас нам нами наш наша наше наши нашего нашей нашему нашим нашими наших нашу",
    "uk": "мене мені мій моє мої мого моєї моєму моїм моїми моїх ми наші нашого нашої нашому",
    "el": "εγώ εμένα μου εμείς εμάς μας",
    "hi": "मैं मैंने मुझे मुझको मुझसे मेरा मेरी मेरे हम हमने हमें हमको हमसे हमारा हमारी हमारे",
    # Korean attaches its particles to the pronoun: the pronoun with the common ones.
    "ko": "나 나는 나도 나를 나의 나한테 나에게 나랑 나만 내 내가 내게 저는 저도 저를 저의 저한테 저에게 "
    "저랑 저만 제 제가 제게 우리 우리는 우리가 우리도 우리를 우리의 우리한테 우리에게 우리랑 저희 저희는 "
    "저희가 저희도 저희를 저희의",
}  # fmt: skip
WORDS = frozenset(unicodedata.normalize("NFC", w).casefold() for forms in _BY_LANGUAGE.values() for w in forms.split())
# Chinese 我 (also 我的, 我们, 我々) and 咱; Japanese 私, 僕, 俺, わたし, あたし.
UNSPACED = ("我", "咱", "僕", "俺", "わたし", "あたし")
PRIVATE = re.compile("私(?![人立有营營家下服])")
KANA = re.compile("[\u3040-\u30ff]")
ACRONYMS = frozenset({"US", "EU"})
NAMES = frozenset({"Mia", "Nam"})
ORDINAL = re.compile(r"(?<![^\W\d_])제\s*\d")


def first_person(quote: str) -> bool:
    """Whether `quote` has a first-person word of any of the languages above."""
    text = unicodedata.normalize("NFC", quote)
    if any(mark in text for mark in UNSPACED):
        return True
    if KANA.search(text) and PRIVATE.search(text):
        return True
    found = words(ORDINAL.sub(" ", text))
    for index, word in enumerate(found):
        after_number = index > 0 and found[index - 1].isdigit()
        if word in ACRONYMS or word in NAMES or (after_number and word.casefold() == "mi"):
            continue
        if word.casefold() in WORDS:
            return True
    return False
