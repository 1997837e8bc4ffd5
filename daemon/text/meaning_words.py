"""The word lists of `daemon.text.meaning`: which words carry meaning, what they mean, and numbers in words.

Each line of `LEXICON_TEXT` is `category=value …: form form …`; every form stands for those
tokens (a word may stand for two: "never" is a negation *and* says "always"; "hates" is a
negation of "prefer"). Weekdays and months are added by `lexicon`; "may" and "march" are
left to `daemon.text.meaning`, which tells the month from the verb by its capital. The
words of other European languages are in `daemon.text.meaning_words_european`.
"""

from __future__ import annotations

from collections.abc import Sequence

from daemon.text import meaning_words_european as european


def _split(text: str) -> list[str]:
    return text.split()


LEXICON_TEXT = """
negation=not: not no none nothing nobody nowhere neither nor without cannot avoid avoids avoided avoiding dont doesnt didnt isnt arent wasnt werent cant wont
negation=not: stop stops stopped stopping quit quits quitting cease ceases ceased ceasing halt halts halted halting discontinue discontinues discontinued discontinuing formerly
negation=not: refuse refuses refused refusing decline declines declined declining
negation=not: नहीं न मत 不 没 沒 别 別 勿 未 无 無 非 لا لم لن ليس ليست לא אל אין אינו אינה 안 못
negation=not polarity=always: never
negation=not polarity=allow: forbid forbids forbidden prohibit prohibits prohibited disallow disallowed deny denies denied banned
negation=not polarity=prefer: dislike dislikes disliked hate hates hated detest detests loathe loathes
negation=not polarity=enable: disable disables disabled
polarity=always: always must shall required mandatory
polarity=should: should ought recommended ideally preferably
polarity=may: might optional optionally
polarity=usually: usually often mostly generally normally typically frequently
polarity=sometimes: sometimes occasionally
polarity=rarely: rarely seldom hardly barely
polarity=only: only solely exclusively
polarity=except: except unless excluding exclude excludes excluded
polarity=prefer: prefer prefers preferred preferring preference likes liked love loves loved enjoy enjoys enjoyed want wants wanted favour favours favor favors favourite favorite
polarity=allow: allow allows allowed permit permits permitted
polarity=enable: enable enables enabled
polarity=more: more above greater higher exceed exceeds exceeded exceeding
polarity=less: less fewer below lower
polarity=before: before prior
polarity=after: after afterwards
polarity=increase: increase increases increased increasing grow grows grew grown growing growth rise rises rose risen rising
polarity=decrease: decrease decreases decreased decreasing reduce reduces reduced reducing shrink shrinks shrank shrunk fall falls fell fallen falling
polarity=public: public
polarity=private: private
polarity=internal: internal
polarity=external: external
environment=staging: staging
environment=production: production prod
environment=development: development dev
environment=test: test tests testing
environment=qa: qa uat
environment=sandbox: sandbox
environment=preprod: preprod
environment=canary: canary
environment=local: local localhost
date=today: today
date=tomorrow: tomorrow
date=yesterday: yesterday
date=tonight: tonight
date=weekend: weekend weekends
date=weekday: weekday weekdays
date=morning: morning mornings
date=afternoon: afternoon afternoons
date=evening: evening evenings
date=noon: noon midday
date=midnight: midnight
date=daily: daily
date=weekly: weekly
date=fortnightly: biweekly fortnightly
date=monthly: monthly
date=quarterly: quarterly
date=yearly: yearly annually
date=hourly: hourly
date=nightly: nightly
number=2x: twice
number=3x: thrice
number=0.5: half
"""
DAYS = _split("monday tuesday wednesday thursday friday saturday sunday")
MONTHS = _split("january february march april may june july august september october november december")
SHORT_DATES = {
    **{d[:3].title(): d for d in DAYS},
    **{"Tues": "tuesday", "Thur": "thursday", "Thurs": "thursday"},
    **{m[:3].title(): m for m in MONTHS if m != "may"},
    "Sept": "september",
}
SMALL = _split(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
)
TENS = {w: 10 * i for i, w in enumerate(_split("twenty thirty forty fifty sixty seventy eighty ninety"), 2)}
SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "dozen": 12}
# Multiplying what comes before them ("two hundred"), not added up ("two thousand five").
MULTIPLIERS = {"hundred", "dozen"}
ORDINALS = {
    w: i
    for i, w in enumerate(
        _split("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"), 1
    )
}
PERIODS = {
    "day": "daily",
    "week": "weekly",
    "month": "monthly",
    "year": "yearly",
    "hour": "hourly",
    "night": "nightly",
}
UNITS = {
    **dict.fromkeys(["ms", "millisecond", "milliseconds"], "ms"),
    **dict.fromkeys(["s", "sec", "secs", "second", "seconds"], "second"),
    **dict.fromkeys(["min", "mins", "minute", "minutes"], "minute"),
    **dict.fromkeys(["h", "hr", "hrs", "hour", "hours"], "hour"),
    **dict.fromkeys(["d", "day", "days"], "day"),
    **dict.fromkeys(["week", "weeks"], "week"),
    **dict.fromkeys(["month", "months"], "month"),
    **dict.fromkeys(["y", "yr", "yrs", "year", "years"], "year"),
    **{u: u for u in ("kb", "mb", "gb", "tb", "k", "x", "am", "pm")},
    "times": "x",
}
# Sentence-initial capitalised words that are not names: function words and the verbs
# and nouns instructions commonly open with. Everywhere else a capital marks a name.
COMMON = european.COMMON.union(
    _split(
        """a an the and or but if then than that this these those to of in on at by for from with as is
    are was were be been being it its do does did any all each every some so such into onto over under
    about when while where which who whom whose what how why there here our your their his her my we you
    they he she i me us them can could would will also just very most much many few several other
    another same new please again still yet even both either once first next last finally instead
    use run post reply answer respond keep write send check flag ask say make put add remove delete
    read open close copy move update create set get go call email mention include report note remember
    follow start stop try share tell give list mark save store print show link attach review confirm
    verify deploy push pull merge commit build install fetch find search look see summarise summarize
    explain describe escalate page notify ping cc format log track watch wait let help treat handle skip
    ignore end begin finish prepare draft sign file book schedule plan pick choose select collect gather
    sort group clean tidy fix rotate restart export import upload download archive tag label assign
    resolve translate greet thank quote cite compare count measure calculate compute estimate convert
    rename edit change replace append insert fill complete submit approve reject accept decline request
    need ensure stay leave take bring lead address triage investigate monitor alert inform contact
    message document record capture be say keep customer customers user users team teams vendor vendors
    ticket tickets report reports data emails files notes steps answers replies messages meeting
    meetings task tasks issue issues incident incidents error errors logs config settings priority
    priorities results output questions requests everyone everything someone something anyone anything
    each whenever wherever"""
    )
)
# The connectives of scripts without case ("and", "also", "as well"): free to add, free to
# leave out. Every other word of those scripts is content a merge must keep (`meaning_compare.compare`).
# Chinese and Japanese count each character, so theirs are single characters (with the
# Japanese particles は, が, を, の, like "the" and "of"); Thai and Lao ones are cut out of
# the unspaced text before it is split (`SPACELESS_CONNECTIVES`).
UNCASED_CONNECTIVES = frozenset(
    _split(
        """और भी तथा एवं व  和 与 與 及 也 并 並 且 还 還 跟  と も や は が を の  그리고 및 또한 또
    و أيضا أيضاً كذلك  ו גם"""
    )
)
SPACELESS_CONNECTIVES = ("และ", "กับ", "ก็", "ด้วย", "ແລະ", "ກັບ")
# Function words and connectives: a merge may add these freely, they carry no content of their
# own ("and … as well", "both", "also"; "and" and "also" of a few other languages too). Every
# other plain word is a content word.
STOPWORDS = (UNCASED_CONNECTIVES | european.CONNECTIVES).union(
    _split(
        """a an the and or but if then than that this these those to of in on at by for from with as is
    are was were be been being am it its it's do does did done any all each every some so such into
    onto over under about when while where which who whom whose what how why there here our ours your
    yours their theirs his her hers my mine we you they he she i me us them him itself themselves
    can could would will shall also just very most much many few own same other another both either
    too well plus additionally likewise including include includes instead still yet even ever
    again further furthermore moreover however therefore thus hence anyway etc via per has have had
    having get gets got one ones thing things way
    und auch sowie et aussi también anche также тоже"""
    )
)
# Negations written inside a word (Korean 않습니다, 못해요, 없다, 아닙니다) or inside unspaced
# text (Japanese 飲まない, しません, せずに; Thai ไม่, Lao ບໍ່), found before the text is split
# into words. Japanese ない/ず in 少ない, 危ない, 必ず, まず, ずつ, ずっと are not negations.
NEGATION_PREFIXES = ("않", "못", "없", "아니", "아닌", "아닙")
SPACELESS_NEGATION = r"(?<![少危幼汚])ない|なかっ|なくて?|ません|(?<![必ま])ず(?![つっ])|ไม่|ບໍ່"
# Korean particles after a noun (차를, 차와 "tea"), and the Arabic and Hebrew "and" written
# as the first letter of the next word (والقهوة, וקפה): a word is the same without them.
# Not 만 ("only"), which changes what the word says.
KOREAN_PARTICLES = tuple(
    sorted(
        _split(
            "에서는 에서 에게 한테 으로 이랑 까지 부터 처럼 보다 은 는 이 가 을 를 와 과 의 에 로 도 랑 께"
        ),
        key=len,
        reverse=True,
    )
)
AND_PREFIXES = ("و", "ו")
# Words after which "like" is the verb (prefer), not the preposition.
LIKE_SUBJECTS = frozenset(_split("i we you they who people users customers would do does did to not never"))


def _spellings(form: str) -> list[str]:
    """`form` casefolded as `daemon.text.meaning` reads words (Straße is strasse, final ς
    is σ), with a Ukrainian apostrophe also written as the letter ʼ (пʼять)."""
    folded = form.casefold()
    return [folded, folded.replace("'", "\u02bc")] if "'" in folded else [folded]


def _lines(text: str) -> dict[str, tuple[tuple[str, str], ...]]:
    table: dict[str, tuple[tuple[str, str], ...]] = {}
    for line in text.strip().splitlines():
        values, _, forms = line.partition(":")
        found = tuple((v.split("=")[0], v.split("=")[1]) for v in values.split())
        table.update(dict.fromkeys((s for f in forms.split() for s in _spellings(f)), found))
    return table


def lexicon() -> dict[str, tuple[tuple[str, str], ...]]:
    """Every listed form → the (category, value) tokens it stands for."""
    table = _lines(european.EUROPEAN_LEXICON_TEXT)
    for value, forms in (*european.WEEKDAYS.items(), *european.MONTHS.items()):
        table.update(dict.fromkeys((s for f in forms.split() for s in _spellings(f)), (("date", value),)))
    table.update(_lines(LEXICON_TEXT))  # an English form wins ("no" is English "no", not Spanish)
    for day in DAYS:
        table[day] = table[day + "s"] = (("date", day),)
    for month in MONTHS:
        if month not in ("may", "march"):
            table[month] = (("date", month),)
    return table


def lemma(word: str) -> str:
    """`word` casefolded with a plural or verb ending taken off, so that "answers", "answered"
    and "answering" are one word: `answer`; "takes", "taking" and "take" are `tak`. A word of
    a script without case loses a Korean particle or a leading Arabic/Hebrew "and" instead."""
    if uncased(word):
        return _uncased_stem(word)
    stem = word.casefold().removesuffix("'s")
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if stem.endswith(suffix) and len(stem) - len(suffix) >= 3 and not stem.endswith("ss"):
            stem = stem[: -len(suffix)] + replacement
            break
    stem = stem.removesuffix("e")
    if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiouy":
        stem = stem[:-1]
    return stem


def uncased(word: str) -> bool:
    """Whether `word` is of a script without case (李, 사용자는, راشد): letters, none cased."""
    return any(c.isalpha() for c in word) and not any(c.isupper() or c.islower() or c.isdigit() for c in word)


def _uncased_stem(word: str) -> str:
    for particle in KOREAN_PARTICLES:
        if word.endswith(particle) and len(word) > len(particle) and "\uac00" <= word[0] <= "\ud7a3":
            return word[: -len(particle)]
    if word.startswith(AND_PREFIXES) and len(word) > 2:
        return word[1:]
    return word


def _values(forms: dict[int, str]) -> dict[str, int]:
    return {s: value for value, text in forms.items() for f in text.split() for s in _spellings(f)}


# Number words of the European languages (`meaning_words_european`): added up, or multiplying.
FOREIGN_NUMBERS = _values({**european.NUMBERS, **european.COMPOUND_NUMBERS})
FOREIGN_SCALES = _values({100: european.HUNDREDS, 1000: european.THOUSANDS, 10**6: european.MILLIONS})
# "And" inside a number: "one hundred and five", cuarenta y cinco, quarenta e cinco, vingt et
# un, сто и пять; German puts the units first (fünf und zwanzig).
NUMBER_JOINS = frozenset({"and", "y", "e", "et", "и", "und"})
# "One" words that are also "a" (`meaning_words_european`), and French onze (also Dutch
# "our"): a number only after a join, where no article stands (vingt et un, soixante et onze).
JOINED_ONLY = {"un": 1, "une": 1, "uno": 1, "una": 1, "um": 1, "uma": 1, "one": 1, "onze": 11}


def _value(word: str) -> int | None:
    """The value a number word adds: `five` 5, `forty` 40, `сорок` 40; None for any other."""
    if word in SMALL:
        return SMALL.index(word)
    return TENS.get(word) or FOREIGN_NUMBERS.get(word)


def _joins(word: str, left: int, right: int | None) -> bool:
    """Whether `word` joins two parts of one number: "and" between a round `left` (forty,
    a hundred) and a `right` below its last non-zero place, or German "und" between units and
    tens, or French "et" before a teen (soixante et onze). "Two and three" is two numbers."""
    if word not in NUMBER_JOINS or not left or right is None:
        return False
    if word == "und":
        return left < 10 and right % 10 == 0 and right >= 20
    place = 1
    while left % (place * 10) == 0:
        place *= 10
    return right < place or (word == "et" and right < 20)


def number_words(words: Sequence[str], i: int) -> tuple[int, int]:
    """(value, words used) of the number written in words at `i`; (0, 0) if there is none.
    Parts are added up (forty-five, сорок пять, soixante-dix) or multiplied (two hundred,
    quatre-vingts)."""
    total = current = used = 0
    j = i
    while j < len(words):
        word = words[j]
        value = _value(word)
        if value is not None:
            if word in ("vingt", "vingts") and j and words[j - 1] == "quatre":
                value = 80 - 4  # quatre-vingt(s): four twenties, the four already added
            current += value
        elif word in MULTIPLIERS or FOREIGN_SCALES.get(word) == 100:
            current = max(current, 1) * (SCALES.get(word) or FOREIGN_SCALES[word])
        elif word in SCALES or word in FOREIGN_SCALES:
            total, current = total + max(current, 1) * (SCALES.get(word) or FOREIGN_SCALES[word]), 0
        elif used and j + 1 < len(words):
            right = _value(words[j + 1])
            joined_only = right is None and words[j + 1] in JOINED_ONLY
            right = JOINED_ONLY[words[j + 1]] if joined_only else right
            if not _joins(word, total + current, right):
                break
            if joined_only:  # vingt et un: the "un" is taken here
                current += JOINED_ONLY[words[j + 1]]
                j += 1
                used = j + 1 - i
            j += 1
            continue
        else:
            break
        used = j + 1 - i
        j += 1
    return total + current, used


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
