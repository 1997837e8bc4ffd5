"""Hindi typed in Latin letters ("Hinglish"): keyed to consonants on both sides, read with the
Hindi lists, and neither Greeklish nor English taken for it (sentences written for these tests)."""

from __future__ import annotations

import pytest

from daemon.impact.statements import detect_statements
from daemon.kernel.errors import LanguageDataError
from daemon.text.language import detect, known
from daemon.text.latin_letters import spelling_of

AGENT = "Done, I updated the file."


@pytest.mark.parametrize(
    ("hindi", "typed"),
    [
        ("नहीं", "nahi"),
        ("नहीं", "nahin"),
        ("कहा", "kaha"),
        ("लिखो", "likho"),
        ("फिर", "phir"),
        ("फिर", "fir"),
        ("हमेशा", "hamesha"),
        ("हमेशा", "hmesha"),
        ("ग़लत", "galat"),
        ("में", "mein"),
        ("छुट्टी", "chutti"),
        ("ज़रूरी", "zaroori"),
        ("दोबारा", "dobara"),
    ],
)
def test_a_hindi_word_and_its_ways_of_being_typed_have_one_spelling(hindi: str, typed: str) -> None:
    spelling = known()["hi"].spelling
    assert spelling is not None
    assert spelling.key(hindi) == spelling.key(typed)


@pytest.mark.parametrize(
    ("message", "kind", "cue"),
    [
        ("bola tha na 9404 hona chahiye.", "correction", "reminder:bl t n"),
        ("date phir numbers mein mat likho", "preference", "preference:mt"),
        ("hamesha LUT number likhna", "standing_instruction", "standing:hms"),
        ("phir se wahi galti", "correction", "reminder:pr s vh glt"),
        # "hai" keyed is "h", as a laugh ("हाहाहा") is: a laugh keyed would exclude every sentence
        ("maine bola tha na, 9404 hai", "correction", "reminder:bl t n"),
    ],
)
def test_hinglish_corrections_and_rules_are_found_by_the_hindi_lists(message: str, kind: str, cue: str) -> None:
    (statement,) = detect_statements(message, "s1.jsonl", 3, None, answered=AGENT)
    assert statement.language == "hi-latn" and statement.kind == kind and cue in statement.cues


def test_a_hindi_not_after_a_number_closing_a_later_clause_sets_it_right() -> None:
    (statement,) = detect_statements("रज़ाई का HSN 9404 है, 6302 नहीं।", "s1.jsonl", 3, None, answered=AGENT)
    assert statement.kind == "correction" and statement.cues == ("contrast:नहीं",)
    assert detect_statements("Sunday ko message nahi jaata, unki chhutti hoti hai.", "s1.jsonl", 3, None, answered=AGENT) == []


@pytest.mark.parametrize(
    "message",
    [
        "mujhe nahi pata, Rakesh ji se poochho",  # "ji se" and "आज से" ("from today") are both "j s"
        "rates wahi jo pichhli baar the (runner 9, quilt 34, cushion cover 6 USD)",  # USD is not सदा ("sd")
    ],
)
def test_a_phrase_of_single_letters_and_a_word_in_capitals_are_not_keyed_into_cues(message: str) -> None:
    assert detect_statements(message, "s1.jsonl", 3, None, answered=AGENT) == []


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("nahi yaar, mat likho aise, phir se galat hai", "hi-latn"),
        ("kal se emoji mat lagao", "hi-latn"),
        ("oxi, to eipame, xwris emoji", "el-latn"),
        ("den to thelw etsi, pali ta idia", "el-latn"),
    ],
)
def test_greeklish_and_hinglish_are_told_apart(text: str, reading: str) -> None:
    found = detect([text])
    assert found is not None and found.code == reading


@pytest.mark.parametrize(
    "text",
    [
        "To eipame, oxi emoji",  # "oxi" and "emoji" are "ks" and "mj" without vowels: too short to vote
        "Main branch is broken, fix the CI toh",
        "Do the deploy to prod, ok?",
        "I want the karma tests to pass",
    ],
)
def test_a_text_with_short_keys_alike_is_not_read_as_hinglish(text: str) -> None:
    found = detect([text])
    assert found is None or "hi-latn" not in found.code


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"letters": {}, "shortest_key": "0"}, "shortest_key must be a whole number of letters, 1 or more, not '0'"),
        ({"letters": {}, "shortest_key": "three"}, "shortest_key must be a whole number"),
        ({"letters": {}, "words": ["Hai"]}, "words must be a list of words in small letters"),
        ({"letters": {}, "votes": []}, "must be a mapping with `letters`"),
    ],
)
def test_a_wrong_typed_in_latin_table_is_refused_naming_the_file_and_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(LanguageDataError, match=r"xx\.yaml: typed_in_latin") as refused:
        spelling_of(table, "xx.yaml")
    assert message in str(refused.value)


@pytest.mark.parametrize(
    "text",
    [
        # keyed without vowels these are Hindi words ("btr", "prnt", "hms", सदा, मत): only the
        # Hinglish words the data file lists vote, and a short key is read only when listed
        "Side panel: better padding, bigger font",
        "Used the parent agent, better results",
        "Homes page looks better, used flexbox",
        "Meet the parent agent on main",
        "Mute the agent, side effects worse",
        "Used MAIN BETTER PARENT",
        "Saya sudah ganti versi motor",  # Indonesian, which has no data file to outvote Hindi
        "Perintah mati setelah ganti versi",
        "mujhe ye side panel better lagta hai",  # Hinglish, but "side" is not सदा ("always")
    ],
)
def test_words_keyed_like_hindi_cues_neither_make_hinglish_nor_a_statement(text: str) -> None:
    found = detect([text])
    assert found is None or "hi-latn" not in found.code or text.startswith("mujhe")
    assert detect_statements(text, "s1.jsonl", 3, None, answered=AGENT) == []


DRAFT = "Draft mail:\nHi Tom,\nPayment terms: 60 days credit from the invoice date.\nRegards, Meera"
REDRAFT = "Draft mail:\nHi Tom,\nPayment terms: 30% advance, 70% against the BL copy.\nRegards, Meera"


def test_in_a_hinglish_session_a_sentence_sure_of_its_own_language_is_read_for_the_reply() -> None:
    # the reply writes "advance" in place of "credit": an English sentence of the session is
    # read in English for it; a short one, whose language is the session's, typed in Latin
    # letters, is not (the Hindi lists are keyed, the reply's words are not)
    usual = detect(["yaar kal se sab mail English mein bhejna, Hindi mat likho na bhai"])
    assert usual is not None and usual.keyed
    sentence = "Tom is a new buyer here, payment terms are 30% advance and 70% against the BL copy."
    (statement,) = detect_statements(sentence, "s1.jsonl", 3, None, answered=DRAFT, usual=usual, reply=REDRAFT)
    assert statement.cues == ("swapped:advance",)
    assert detect_statements("30 advance 70 BL pe", "s1.jsonl", 3, None, answered=DRAFT, usual=usual, reply=REDRAFT) == []
