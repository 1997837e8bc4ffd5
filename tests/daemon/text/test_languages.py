"""The language data files: every file loads, a broken one is refused naming file and key, detection picks the language."""

from __future__ import annotations

import pytest

from daemon.kernel.errors import LanguageDataError
from daemon.text.keyboard import in_latin
from daemon.text.language import detect, known, parse
from daemon.text.mixed_scripts import in_each_script
from daemon.text.unicode_words import segment


def test_every_language_file_loads_with_its_stemmer_and_number_words() -> None:
    languages = known()
    assert "en" in languages
    for code, lang in languages.items():
        assert lang.numbers().cardinals, f"{code}: ICU has no number words for this code"
        assert lang.concepts or lang.lists["stopwords"], f"{code}: an empty data file"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"script": "latin", "colour": []}, "unknown key(s) colour"),
        ({"script": "klingon"}, "script must be one of"),
        ({"script": "latin", "stemmer": "elvish"}, "stemmer 'elvish' is not a Snowball algorithm"),
        ({"script": "latin", "words": {"sarcasm": ["yeah right"]}}, "words.sarcasm is not a concept"),
        ({"script": "latin", "words": {"negation": ["Nicht"]}}, "must be written casefolded"),
        ({"script": "latin", "negation_affixes": ["(unclosed"]}, "is not a regular expression"),
        ({"script": "latin", "typed_without_accents": "often"}, "typed_without_accents must be true or false"),
        ({"script": "greek", "typed_in_latin": ["oxi"]}, "typed_in_latin must be a mapping"),
        ({"script": "greek", "typed_in_latin": {"spellings": [["th"]]}}, "is not a [pattern, replacement] pair"),
        ({"script": "greek", "typed_in_latin": {"spellings": [["(th", "q"]]}}, "is not a regular expression"),
    ],
)
def test_a_broken_language_file_is_refused_naming_the_file_and_key(data: dict[str, object], problem: str) -> None:
    with pytest.raises(LanguageDataError, match=r"xx\.yaml") as caught:
        parse("xx", data, "daemon/text/languages/xx.yaml")
    assert problem in str(caught.value)


def test_english_text_is_read_as_english_and_a_text_without_listed_words_as_no_language() -> None:
    found = detect(["Rotate the keys when a laptop is lost."])
    assert found is not None and found.code == "en"
    assert detect(["Qwzx vbnm."]) is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # Latin tool names and code among another script do not make a text English
        ("幫我在 docs/releases/v2.4.md 寫 release note 草稿，Jira 裡 fixVersion = 2.4 的都抓進來", "zh"),
        ("getOrders 的 rate limit 是多少来着？", "zh"),
        ("group id ผมส่งให้ใน DM แล้ว token อยู่ใน Secret Manager ชื่อ line-oa-token", "th"),
        ("오 좋은데 이거 kotest네? kotest 안 써요 저희, junit5 + mockk 의존성도 없을걸요", "ko"),
        ("backend \"local\" שוב?? torly-tfstate עם tf-locks, כמו בכל המודולים", "he"),
        ("git rebase -i HEAD~3 して squash してから force push お願いします", "ja"),
        # … while a name in another script inside an English sentence does not make it Chinese
        ("Please book the hotel in 北京 for the whole team next week.", "en"),
        ("Always cc 王小明 on the release notes and the weekly report to finance.", "en"),
        ("Always cc 王小明 and 李华.", "en"),
        # … nor a name that writes a fifth of the letters: no word of its script's languages
        ("My nickname is Ада.", "en"),
        ("My friend is Владимир.", "en"),
    ],
)
def test_a_text_is_in_its_own_script_however_many_latin_letters_are_beside_it(text: str, code: str) -> None:
    found = detect([text])
    assert found is not None and found.code.split("+")[0] == code


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # a fullwidth comma separates clauses, not the digits of one number
        ("不是 3/16，16 號 QA", ["不是", "3", "16", "16", "號", "QA"]),
        ("１２；３４", ["１２", "３４"]),
        ("10，000 元，1，234，567 円", ["10，000", "元", "1，234，567", "円"]),  # … but for a thousands mark
        ("端口 8080，443，5432", ["端", "口", "8080", "443", "5432"]),  # no thousands grouping
        ("3；100 80،443", ["3", "100", "80", "443"]),  # a semicolon or an Arabic comma groups nothing
        ("3,5 und 1.000", ["3,5", "und", "1.000"]),  # a Latin comma or stop stays inside a number
    ],
)
def test_a_number_is_not_read_across_a_comma_its_script_never_writes_inside_one(text: str, parts: list[str]) -> None:
    found = segment(text)
    assert [w.text for w in found] == parts
    assert all(text[w.start : w.end] == w.text for w in found)


FINNISH = {
    "name": "Finnish",
    "script": "latin",
    "stemmer": "finnish",
    "pro_drop": "true",
    "words": {"negation": ["ei", "en", "et", "emme", "ette", "eivät", "älä", "älkää"], "must": ["täytyy", "pitää"], "may": ["saa", "voi"], "if": ["jos", "kun"]},
    "first_person": ["minä", "minun", "minua", "minulle"],
    "stopwords": ["ja", "on", "se", "että", "tai"],
    "openers": ["lähetä", "raportti", "raportin"],
}


def test_adding_a_language_is_a_data_file_its_words_then_carry_meaning() -> None:
    """docs/how-to/add-a-language.md: the file is data; once parsed, its words are meaning tokens."""
    from daemon.text.meaning_compare import compare

    finnish = parse("fi", FINNISH, "daemon/text/languages/fi.yaml")
    assert finnish.numbers().cardinals["viisi"] == 5  # number words come from CLDR, not the file
    assert not compare(["Älä lähetä raporttia perjantaina."], "Lähetä raportti perjantaina.", finnish).ok
    assert not compare(["Raportti täytyy lähettää maanantaina."], "Raportti voi lähettää maanantaina.", finnish).ok
    assert not compare(["Lähetä raportti maanantaina."], "Lähetä raportti perjantaina.", finnish).ok
    assert compare(["Lähetä raportti maanantaina."], "Maanantaina lähetä raportti.", finnish).ok
    # Without the file, Finnish is read with the strict rule: every word kept, none added.
    assert not compare(["Lähetä raportti maanantaina."], "Lähetä raportti heti maanantaina.", None).ok


def test_a_language_typed_without_accents_reads_its_single_word_cues_so_unless_short_or_a_word_of_its_own() -> None:
    data = {
        "script": "latin",
        "typed_without_accents": "true",
        "stopwords": ["si"],
        "impact": {"reminder": ["mówiłam"], "limit": ["máximo"], "again": ["sí", "så"]},
    }
    lang = parse("xx", data, "daemon/text/languages/xx.yaml")
    assert ("mowilam",) in lang.impact["reminder"] and ("maximo",) in lang.impact["limit"]
    # "si" is a word of the language ("if"), "sa" shorter than a word typed so is read as
    assert lang.impact["again"] == frozenset({("sí",), ("så",)})
    # … and its `claim:` lists too: "mowi" is someone else's words
    claimed = parse("xx", {**data, "claim": {"reported": ["mówi"]}}, "daemon/text/languages/xx.yaml")
    assert ("mowi",) in claimed.claim["reported"]
    strict = parse("xx", {**data, "typed_without_accents": "false"}, "daemon/text/languages/xx.yaml")
    assert strict.impact["reminder"] == frozenset({("mówiłam",)})


def test_a_word_of_the_cyrillic_or_greek_alphabet_is_read_as_written_in_latin_letters() -> None:
    assert [in_latin(w) for w in ["Казань", "щука", "Κρήτη"]] == ["Kazan", "shchuka", "Kriti"]
    # Ukrainian by its own romanization: "Гліб" is "Hlib", not the Russian "Glib"
    assert [in_latin(w, "uk") for w in ["Гліб", "київ"]] == ["Hlib", "kyyiv"]


def test_a_word_in_hangul_is_read_in_latin_letters_unless_it_would_be_a_short_english_word() -> None:
    assert [in_latin(w) for w in ["서연", "지민", "박서연"]] == ["seoyeon", "jimin", "bagseoyeon"]
    # an ambiguous syllable break keeps ICU's hyphen: "election" and "idiom" stay apart
    assert in_latin("선거") != in_latin("성어")
    # a syllable or two that would romanize into an English word ("team" is "tim") stays as written
    assert [in_latin(w) for w in ["팀", "박"]] == ["팀", "박"]
    # kana loses its long vowels ("ビール" and "ビル"), Han reads two ways: both as written
    assert [in_latin(w) for w in ["ビール", "ビル", "王小明", "田中", "pnpm"]] == ["ビール", "ビル", "王小明", "田中", "pnpm"]


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        # the words of each script are read for their language, the script of most letters first
        ("不要在commit里加emoji。", ["en", "zh"]),
        ("npm 말고 pnpm 써.", ["ko"]),
        ("Please book the hotel in 北京 for the whole team next week.", ["en", "zh"]),
        ("Rotate the keys when a laptop is lost.", []),
    ],
)
def test_a_text_in_two_scripts_is_read_in_the_language_of_each(text: str, codes: list[str]) -> None:
    assert [lang.code.split("+")[0] for lang in in_each_script(text)] == codes


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # Thai typed against Latin letters and digits, as people type tech words among it: ICU's
        # dictionary leaves such a run one word; each script's run is a word, or its dictionary's
        ("ห้ามmigrate:freshบนstagingครับ", ["ห้าม", "migrate:fresh", "บน", "staging", "ครับ"]),
        ("แล้ว68.25ไม่ได้ครับ", ["แล้ว", "68.25", "ไม่", "ได้", "ครับ"]),
        ("ที่stagingครับ", ["ที่", "staging", "ครับ"]),  # the tone mark stays with its letter
        ("ฉันอยู่ที่กรุงเทพ", ["ฉัน", "อยู่", "ที่", "กรุงเทพ"]),  # Thai alone, as before
        ("pnpmじゃなくてnpm", ["pnpm", "じゃ", "なく", "て", "npm"]),
    ],
)
def test_a_script_without_spaces_typed_against_latin_letters_is_cut_where_the_script_changes(
    text: str, words: list[str]
) -> None:
    found = segment(text)
    assert [w.text for w in found] == words
    assert all(text[w.start : w.end] == w.text for w in found)  # offsets into the text
