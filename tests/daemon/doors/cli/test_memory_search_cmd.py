"""`metaeng-daemon memory search QUERY`: words or a question against entity, key, value and quote."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from daemon.doors.documents import MemorySearchDocument
from tests.support.deploy import base_config, run_cli, tree_snapshot, usage_error, write_config
from tests.support.facts import stored_fact, write_store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def deployment(root: Path) -> Path:
    config = write_config(root, base_config(root, None))
    (root / "state" / "agents" / "ada").mkdir(parents=True)  # the query index is kept there
    write_store(
        root / "ada",
        stored_fact(id="f-old", value="Lisbon", valid_from="2026-01-01", valid_to="2026-10-01", quote="I live in Lisbon"),
        stored_fact(
            id="f-new",
            value="Porto",
            valid_from="2026-10-01",
            supersedes_memory_id="f-old",
            quote="Jonas lives in Porto, and I moved there too",
        ),
        stored_fact(id="f-team", key="team", value="billing platform", valid_from="2026-09-01"),
        stored_fact(id="f-bob", user="bob", value="Oslo", valid_from="2026-10-05", quote="Jonas lives in Oslo"),
    )
    return config


def search(config: Path, *args: str) -> tuple[int, str, str]:
    result = run_cli(config, "memory", "search", *args, clock=lambda: NOW)
    return result.code, result.out, result.err


def test_memory_search_finds_a_question_in_a_quote_and_prints_the_fact(root: Path) -> None:
    config = deployment(root)
    before = tree_snapshot(root / "ada")

    code, out, err = search(config, "where does Jonas live", "--agent", "ada")

    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "ENTITY", "KEY", "VALUE", "FROM", "BECAUSE"]
    assert lines[1].split()[:5] == ["f-new", "user", "city", "Porto", "2026-10-01"]
    assert "“Jonas lives in Porto, and I moved there too”" in lines[1]
    assert len(lines) == 2  # bob's "Jonas lives in Oslo" is another owner's
    assert tree_snapshot(root / "ada") == before


def test_memory_search_json_is_its_document_with_scores_best_first(root: Path) -> None:
    config = deployment(root)

    code, out, _err = search(config, "user billing", "--agent", "ada", "--json")

    assert code == 0
    document = MemorySearchDocument.model_validate_json(out)
    assert document.model_dump(mode="json") == json.loads(out)  # the model is the contract, exactly
    assert document.query == "user billing" and document.as_of == "2026-11-30" and document.words == ["user", "billing"]
    assert [m.record.id for m in document.matches] == ["f-team", "f-new"]  # the rarer word first
    assert document.matches[0].score > document.matches[1].score > 0
    assert document.more is False


def test_memory_search_limit_says_more_and_all_includes_superseded_facts(root: Path) -> None:
    config = deployment(root)

    _code, limited, _err = search(config, "user", "--agent", "ada", "--limit", "1")
    _code, current, _err = search(config, "Lisbon", "--agent", "ada")
    _code, every, _err = search(config, "Lisbon", "--agent", "ada", "--all")

    assert len(limited.splitlines()) == 3 and limited.splitlines()[-1] == "more facts match: --limit 2 shows more"
    assert current == "no fact valid on 2026-11-30 holds Lisbon\n"
    assert every.splitlines()[0].split() == ["ID", "ENTITY", "KEY", "VALUE", "FROM", "TO", "BECAUSE"]
    assert every.splitlines()[1].split()[:6] == ["f-old", "user", "city", "Lisbon", "2026-01-01", "2026-10-01"]


def test_memory_search_refuses_a_query_without_words_and_an_unknown_agent_changing_nothing(root: Path) -> None:
    config = deployment(root)
    before = tree_snapshot(root)

    no_words = search(config, "?! …", "--agent", "ada")
    unknown = search(config, "Porto", "--agent", "nobody")

    assert no_words == (1, "", "error: give at least one word to search for (letters or digits)\n")
    assert unknown[0] == 1 and unknown[2] == "error: unknown agent 'nobody' (configured: ada)\n"
    assert "argument --limit: must be 1 or more, got 0" in usage_error(
        config, "memory", "search", "x", "--agent", "ada", "--limit", "0"
    )
    assert tree_snapshot(root) == before
