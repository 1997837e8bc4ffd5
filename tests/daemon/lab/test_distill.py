"""`lab distill` through the real CLI, with scripted answers from the local OpenAI-compatible server."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from daemon.lab.distill_corpus import load_corpus
from daemon.passes.turn_prompt import SYSTEM_PROMPT
from tests.daemon.lab.test_ledger import reseal
from tests.support import distill_replay
from tests.support.deploy import TEST_KEY, CliResult, base_config, run_cli, write_config
from tests.support.fake_model import FakeModelServer

CORPUS = Path(__file__).parents[3] / "benchmarks" / "distill_corpus"
SUBSET = ("s01-lisbon-move", "s03-london-guess", "s06-memory-paris", "s07-memory-first-person", "s14-singapore-question")
NO_TRAPS = {"traps": 0, "stored": 0, "junk_rate": None}


@pytest.fixture
def config(root: Path, fake_model: FakeModelServer) -> Path:
    return write_config(root, base_config(root, fake_model.url))


@pytest.fixture
def subset(root: Path) -> Path:
    """Five sessions of the benchmark corpus: a hypothetical, an assistant's guess, two memory blocks, a question."""
    folder = root / "subset"
    (folder / "sessions").mkdir(parents=True)
    shutil.copy(CORPUS / "corpus.yaml", folder / "corpus.yaml")
    for name in SUBSET:
        shutil.copy(CORPUS / "sessions" / f"{name}.yaml", folder / "sessions" / f"{name}.yaml")
    return folder


def distill(config: Path, corpus: Path, out: Path, *extra: str) -> CliResult:
    return run_cli(config, "lab", "distill", "--live", "--corpus", str(corpus), "--output", str(out), "--json", *extra)


def replay(server: FakeModelServer, corpus: Path, mode: str) -> None:
    loaded = load_corpus(corpus)
    distill_replay.script(server, loaded, getattr(distill_replay, mode)(loaded))


def verify(config: Path, ledger: Path) -> Any:
    return run_cli(config, "lab", "verify", str(ledger), "--json").json()


def test_without_live_it_refuses_calls_nothing_and_creates_nothing(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    result = run_cli(config, "lab", "distill", "--corpus", str(subset), "--output", str(root / "out"))
    assert result.code == 1
    assert "add --live to run it" in result.err and "nothing was done" in result.err
    assert not (root / "out").exists() and fake_model.requests == []


def test_ideal_replay_stores_exactly_the_supported_facts_and_verifies(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    replay(fake_model, subset, "ideal")
    result = distill(config, subset, root / "ideal")
    assert result.code == 0, result.err
    figures = result.json()["figures"]
    assert (figures["precision"], figures["recall"], figures["junk_rate"]) == (1.0, 1.0, 0.0)
    assert (figures["stored"], figures["facts"], figures["traps"], figures["requests"]) == (5, 5, 7, 5)
    assert figures["by_outcome"] == {"stored admitted": 5}
    assert figures["by_category"]["recalled_memory"] == {"traps": 4, "stored": 0, "junk_rate": 0.0}
    assert figures["by_category"]["joke"] == NO_TRAPS
    request = fake_model.requests[0]
    assert request["messages"][0]["content"] == SYSTEM_PROMPT
    assert request["response_format"]["json_schema"]["name"] == "DistillationResponse"
    check = verify(config, root / "ideal")
    assert check["ok"], check["problems"]
    assert (check["kind"], check["requests_rebuilt"], check["sessions_rescored"]) == ("distill", 5, 5)


def test_adversarial_replay_shows_what_the_pass_lets_through(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    replay(fake_model, subset, "adversarial")
    result = distill(config, subset, root / "adversarial")
    assert result.code == 0, result.err
    figures = result.json()["figures"]
    # Stored: the five real facts. The hypothetical Oslo and the two first-person memory notes
    # are refused by the claim check (memory_engine/claim.py), so junk no longer takes the
    # date Lisbon and the Basic plan need.
    assert (figures["stored"], figures["supported_stored"], figures["precision"]) == (5, 5, 1.0)
    assert (figures["facts_found"], figures["recall"]) == (5, 1.0)
    assert (figures["traps_stored"], figures["junk_rate"]) == (0, 0.0)
    assert figures["by_category"]["hypothetical"] == {"traps": 1, "stored": 0, "junk_rate": 0.0}
    assert figures["by_category"]["assistant_guess"] == {"traps": 1, "stored": 0, "junk_rate": 0.0}
    assert figures["by_category"]["recalled_memory"] == {"traps": 4, "stored": 0, "junk_rate": 0.0}
    assert figures["by_category"]["question"] == {"traps": 1, "stored": 0, "junk_rate": 0.0}
    assert figures["by_outcome"] == {
        "rejected hypothetical": 1,
        "rejected invalid_schema": 1,  # the assistant's guess: source `assistant` is not allowed
        "rejected quote_not_found": 5,  # the misquotes
        "rejected recalled": 2,  # the first-person notes inside <memory>
        "rejected ungrounded": 8,  # the values not in their quotes, and third-person traps
        "stored admitted": 5,
    }
    assert figures["unlabelled_stored"] == 0
    report = (root / "adversarial" / "report.md").read_text()
    assert "| hypothetical | 1 | 0 | 0.0 % |" in report
    assert verify(config, root / "adversarial")["ok"]


@pytest.mark.slow
def test_a_tampered_ledger_fails_verify_even_when_resealed(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    replay(fake_model, subset, "adversarial")
    ledger = root / "run"
    assert distill(config, subset, ledger).code == 0
    response = ledger / "sessions" / "s01-lisbon-move" / "request-01" / "response.json"
    forged = json.loads(response.read_text())
    answer = json.loads(forged["raw"])
    answer["facts"] = [f for f in answer["facts"] if f["value"] != "Oslo"]  # hide the stored junk
    forged["raw"] = json.dumps(answer)
    response.write_text(json.dumps(forged), encoding="utf-8")

    tampered = run_cli(config, "lab", "verify", str(ledger))
    assert tampered.code == 1
    assert "sessions/s01-lisbon-move/request-01/response.json: sha256 differs from the manifest" in tampered.out
    reseal(ledger)
    problems = verify(config, ledger)["problems"]
    assert problems == [
        "sessions/s01-lisbon-move/request-01/response.json: the answer's sha256 is not the one recorded",
        "sessions/s01-lisbon-move/outcomes.json: re-scoring the recorded answers gives other outcomes",
        "results.json: the figures do not follow from the recorded answers",
        "ledger.json: its figures do not follow from the recorded answers",
    ]


def test_forged_figures_or_a_swapped_corpus_file_fail_verify(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    replay(fake_model, subset, "ideal")
    ledger = root / "run"
    assert distill(config, subset, ledger).code == 0
    results = ledger / "results.json"
    doc = json.loads(results.read_text())
    doc["junk_rate"] = 0.01
    results.write_text(json.dumps(doc), encoding="utf-8")
    reseal(ledger)
    assert verify(config, ledger)["problems"] == ["results.json: the figures do not follow from the recorded answers"]

    copy = ledger / "corpus" / "sessions" / "s01-lisbon-move.yaml"
    copy.write_text(copy.read_text().replace("last month", "last year"), encoding="utf-8")
    reseal(ledger)
    problems = verify(config, ledger)["problems"]
    assert problems[0] == "corpus/: its files are not the ones ledger.json names (hashes differ)"
    assert "sessions/s01-lisbon-move/request-01/request.json: is not the pass's request for these corpus turns" in problems


def test_a_provider_error_stops_the_run_and_scores_only_what_was_answered(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    loaded = load_corpus(subset)
    fake_model.reply(distill_replay.ideal(loaded), schema=distill_replay.SCHEMA)
    fake_model.reply("{not json", schema=distill_replay.SCHEMA)
    fake_model.reply(status=500, schema=distill_replay.SCHEMA)
    result = distill(config, subset, root / "run")
    assert result.code == 1
    body = result.json()
    assert (body["status"], body["stopped"]) == ("completed_with_errors", "provider_error: InternalServerError")
    figures = body["figures"]
    assert (figures["sessions"], figures["requests"], figures["invalid_responses"]) == (2, 2, 1)
    assert (figures["stored"], figures["facts"], figures["recall"]) == (1, 2, 0.5)
    sessions = json.loads((root / "run" / "ledger.json").read_text())["sessions"]
    assert [s["status"] for s in sessions] == ["answered", "invalid_response", "stopped", "not_run", "not_run"]
    assert verify(config, root / "run")["ok"]
    assert TEST_KEY not in "".join(p.read_text() for p in (root / "run").rglob("*.json"))


def test_the_budget_stops_before_a_call_that_does_not_fit(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    result = distill(config, subset, root / "run", "--budget-usd", "0.001")
    assert result.code == 1
    assert result.json()["stopped"].startswith("budget_exhausted:") and fake_model.requests == []
    assert run_cli(config, "lab", "distill", "--live", "--corpus", str(subset), "--output", str(root / "x"), "--budget-usd", "3").code == 1


def test_an_authoring_slip_in_the_corpus_is_named_and_nothing_runs(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    session = subset / "sessions" / "s01-lisbon-move.yaml"
    session.write_text(session.read_text().replace('quote: "If I ever moved to Oslo"', 'quote: "If I moved to Oslo"'))
    result = distill(config, subset, root / "run")
    assert result.code == 1
    assert "sessions/s01-lisbon-move.yaml: traps[0].quote: 'If I moved to Oslo' is not verbatim in turn 2" in result.err
    assert not (root / "run").exists() and fake_model.requests == []


@pytest.mark.slow
def test_the_benchmark_corpus_is_whole_and_the_ideal_replay_stores_what_the_checks_can_read(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    corpus = load_corpus(CORPUS)
    categories = Counter(t.category for cs in corpus.sessions for t in cs.session.traps)
    assert len(corpus.sessions) >= 100
    assert set(categories) == set(corpus.header.categories) and min(categories.values()) >= 10
    replay(fake_model, CORPUS, "ideal")
    result = distill(config, CORPUS, root / "ideal")
    assert result.code == 0, result.err
    figures = result.json()["figures"]
    assert (figures["precision"], figures["junk_rate"]) == (1.0, 0.0)
    assert figures["requests"] == len(corpus.sessions)
    # The true facts the checks cannot read yet (benchmarks/RESULTS.md): an emoji ending the
    # sentence that jokes about something else, and "green tea, please" in Japanese.
    assert figures["by_outcome"] == {
        "stored admitted": figures["facts"] - 2,
        "rejected joke": 1,
        "rejected request": 1,
    }


@pytest.mark.slow
def test_the_adversarial_replay_of_the_benchmark_corpus_meets_the_targets(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    replay(fake_model, CORPUS, "adversarial")
    result = distill(config, CORPUS, root / "adversarial")
    assert result.code == 0, result.err
    figures = result.json()["figures"]
    assert figures["precision"] >= 0.95 and figures["recall"] >= 0.90, figures
    assert figures["unlabelled_stored"] == 0
    over = {c: n for c, n in figures["by_category"].items() if n["junk_rate"] > 0.05}
    assert over == {}
    # the unmarked joke "Mein Haustier ist ein Drache namens Günther": a pet no one has
    assert figures["by_category"]["joke"] == {"traps": 11, "stored": 0, "junk_rate": 0.0}
    assert set(figures["by_language"]) >= {"de", "en", "es", "fr", "it", "ja", "pl", "pt", "ru"}


@pytest.mark.slow
def test_the_text_output_gives_the_figures_with_their_counts_and_the_ledger(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    replay(fake_model, subset, "adversarial")
    ledger = root / "run"
    result = run_cli(config, "lab", "distill", "--live", "--corpus", str(subset), "--output", str(ledger))
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("distillation precision on metaeng-distill-precision: 5 of 5 session(s) scored, 5 request(s), ")
    assert lines[1:4] == [
        "precision 100.0 % (5 of 5 stored facts supported; 0 unlabelled)",
        "recall 100.0 % (5 of 5 supported facts stored)",
        "junk rate 0.0 % (0 of 7 traps stored)",
    ]
    assert any(line.split() == ["hypothetical", "1", "0", "0.0", "%"] for line in lines), result.out
    assert any(line.split() == ["joke", "0", "0", "—"] for line in lines), result.out
    assert lines[-1] == f"ledger: {ledger} (report.md); check it with `lab verify {ledger}`"
    check = run_cli(config, "lab", "verify", str(ledger))
    assert check.code == 0
    assert check.out.endswith("5 request(s) rebuilt, 5 session(s) re-scored, figures recomputed\n")


def test_without_output_the_ledger_goes_to_the_state_folder(
    config: Path, subset: Path, root: Path, fake_model: FakeModelServer
) -> None:
    replay(fake_model, subset, "ideal")
    now = datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC)
    result = run_cli(config, "lab", "distill", "--live", "--corpus", str(subset), "--json", clock=lambda: now)
    assert result.code == 0, result.err
    ledger = root / "state" / "lab" / "distill-20261130T120005Z"
    assert result.json()["output"] == str(ledger)
    assert verify(config, ledger)["ok"]
