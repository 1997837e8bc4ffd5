"""memory_engine/fact_search.py: words read through the text layer, ranked by rarity, over a real index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from daemon.kernel.errors import DaemonError
from memory_engine.fact_index import Look
from memory_engine.fact_index_open import open_index
from memory_engine.fact_search import read_query, search
from tests.support.facts import stored_fact, write_store

OWNER = ("default", "ada")
DAY = "2026-11-30"


def found(tmp_path: Path, text: str, *facts: dict[str, Any], day: str | None = DAY, limit: int = 20) -> list[str]:
    """The ids `text` finds among `facts` (each a stored record), best first."""
    write_store(tmp_path / "home", *facts)
    with open_index(tmp_path / "index.sqlite3", tmp_path / "home", ".metaeng/facts.jsonl") as index:
        return [hit.record.id for hit in search(index, OWNER, read_query(text), day, limit).hits]


def fact(fact_id: str, quote: str | None = None, **fields: Any) -> dict[str, Any]:
    return stored_fact(id=fact_id, quote=quote, **{"key": fact_id, **fields})


@pytest.mark.parametrize(
    ("query", "quote"),
    [
        ("where does Jonas live", "Jonas lives in Porto"),
        ("Jonas", "Jonas's bike is red"),  # a name alone: read in the language of the facts it may match
        ("which cities are there", "the city hall was closed"),  # Snowball's citi, one letter less looked for
        ("wo wohnt Jonas", "Jonas wohnte früher in Berlin"),
        ("Kraków", "Mieszkam w Krakowie od roku"),
        ("柏林", "我住在柏林"),  # a script without spaces: ICU's words
    ],
)
def test_a_query_finds_a_form_of_its_words_in_a_quote(tmp_path: Path, query: str, quote: str) -> None:
    assert found(tmp_path, query, fact("f-said", quote), fact("f-other", "nothing to do with it")) == ["f-said"]


def test_a_word_must_start_a_word_of_the_fact(tmp_path: Path) -> None:
    facts = [fact("f-team", "the team meets on Monday"), fact("f-tea", "green teas only"), fact("f-mid", "a steak")]
    assert found(tmp_path, "tea", *facts) == ["f-tea"]


def test_function_words_are_left_out_and_do_not_keep_a_fact_out(tmp_path: Path) -> None:
    assert read_query("where does the user live").words == ("user", "live")
    assert read_query("where is it").words == ("where", "is", "it")  # nothing else to look for
    assert found(tmp_path, "where is Porto", fact("f-porto", value="Porto")) == ["f-porto"]


def test_rarer_words_and_more_of_them_rank_first_and_ties_go_to_the_newer_fact(tmp_path: Path) -> None:
    facts = [
        fact("f-both", "Porto has the best coffee", valid_from="2026-01-01"),
        fact("f-coffee-old", "coffee at eight", valid_from="2026-02-01"),
        fact("f-coffee-new", "coffee at nine", valid_from="2026-03-01"),
        *(fact(f"f-porto-{i}", f"Porto trip {i}") for i in range(5)),
    ]
    ranked = found(tmp_path, "coffee in Porto", *facts)
    assert ranked[:3] == ["f-both", "f-coffee-new", "f-coffee-old"]  # coffee is rarer than Porto
    assert sorted(ranked[3:]) == [f"f-porto-{i}" for i in range(5)]


def test_only_facts_valid_on_the_day_unless_every_version_is_asked_for(tmp_path: Path) -> None:
    facts = [
        fact("f-old", "I live in Lisbon", key="city", valid_from="2026-01-01", valid_to="2026-10-01"),
        fact("f-new", "I moved from Lisbon to Porto", key="city", valid_from="2026-10-01"),
    ]
    assert found(tmp_path, "Lisbon", *facts) == ["f-new"]
    assert found(tmp_path / "all", "Lisbon", *facts, day=None) == ["f-new", "f-old"]


def test_a_limit_keeps_the_best_and_says_more_matched(tmp_path: Path) -> None:
    write_store(tmp_path / "home", *(fact(f"f-{i}", f"Porto {i}", valid_from=f"2026-0{i + 1}-01") for i in range(5)))
    with open_index(tmp_path / "index.sqlite3", tmp_path / "home", ".metaeng/facts.jsonl") as index:
        first = search(index, OWNER, read_query("Porto"), DAY, 2)
        every = search(index, OWNER, read_query("Porto"), DAY, 5)
    assert [h.record.id for h in first.hits] == ["f-4", "f-3"] and first.more is True
    assert len(every.hits) == 5 and every.more is False


def test_another_owners_facts_and_the_stored_fields_are_never_searched(tmp_path: Path) -> None:
    facts = [
        fact("f-bob", "Jonas lives in Oslo", user="bob"),
        fact("f-ada", "a plain sentence", entity="me", source_event_id="transcripts/Jonas notes.jsonl@1"),
    ]
    assert found(tmp_path, "Jonas", *facts) == []
    assert found(tmp_path / "fields", "fact default ada user", *facts) == []  # memory_type, tenant, user, source


def test_the_prefilter_flags_no_record_for_its_storage_fields(tmp_path: Path) -> None:
    write_store(tmp_path / "home", fact("f-1", "hello there", entity="me", value="Porto"), fact("f-2", entity="me"))
    with open_index(tmp_path / "index.sqlite3", tmp_path / "home", ".metaeng/facts.jsonl") as index:
        storage = index.flag(OWNER, DAY, [Look(("fact",)), Look(("default",)), Look(("user",)), Look(("0.9",))])
        words = index.flag(OWNER, DAY, [Look(("there",)), Look(("por",)), Look(("f-2",))])
    assert storage == []  # memory_type, tenant, source, confidence
    assert sorted((f.id, f.looks) for f in words) == [("f-1", 0b011), ("f-2", 0b100)]  # f-2: its key


def test_a_query_without_words_is_refused() -> None:
    with pytest.raises(DaemonError, match="at least one word"):
        read_query(" ?! … ")
