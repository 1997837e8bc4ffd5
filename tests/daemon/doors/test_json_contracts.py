"""What each command prints with `--json` is its document model, exactly.

Each command runs in-process on a real deployment; its output is validated with the
document model (`model_validate_json`: it matches the schema in docs/reference/json.md)
and dumped again, which must give back exactly what was printed (no key the model does
not know, none it would add).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from daemon.doors.cli.memory_refused_cmd import Queued
from daemon.doors.documents import (
    DOCUMENTS,
    MemoryAnswer,
    MemoryListing,
    RefusedDocument,
    ReviewListDocument,
    RunsDocument,
    ShownProposal,
    ShownRun,
    TranscriptsDocument,
)
from daemon.doors.once_document import ENTRIES, PassEntry, PassHeader, PassOutcome, once_document
from daemon.doors.status_documents import StatusDocument
from daemon.kernel.changeset import PassDetails
from daemon.kernel.review_decisions import Decided
from daemon.lab.adopt import SettingsProposal, SettingsProposed
from daemon.run.applier import PassResult
from daemon.run.runner import RunResult
from daemon.wiring.pass_registry import default_registry
from daemon.wiring.purge import Purged
from memory_engine.distillation import DistillationDetails
from memory_engine.forget import Forgotten
from memory_engine.keep import Kept
from skills_engine.curator import CuratorDetails
from skills_engine.enforce import GuardDetails
from tests.support.deploy import CliResult, run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent
from tests.test_example import copy_example

# Details of a person's action (review, forget, purge, retry, lab proposal, skills check),
# never of a pass of `once`: printed by their own commands.
NOT_PASS_DETAILS = {Decided, Forgotten, Kept, Purged, Queued, SettingsProposal, SettingsProposed, GuardDetails, CuratorDetails}


def printed(model: type[BaseModel], result: CliResult) -> Any:
    """The document `result` printed, validated by `model`; fails unless it dumps back the same."""
    assert result.code == 0, result.err
    document = model.model_validate_json(result.out)
    assert document.model_dump(mode="json") == result.json()
    return document


@pytest.mark.slow
def test_the_example_run_without_a_key_prints_its_documents(root: Path) -> None:
    config = copy_example(root)
    no_key = {"OPENAI_API_KEY": ""}

    once = printed(DOCUMENTS["once"], run_cli(config, "once", "--agent", "ada", "--json", env=no_key))

    assert once.run_id and {p.name for p in once.passes} >= {"distillation", "workspace_consolidation"}
    assert any(p.status == "skipped" for p in once.passes) and any(p.status == "applied" for p in once.passes)
    runs = printed(RunsDocument, run_cli(config, "runs", "--json"))
    assert [r.run_id for r in runs.root] == [once.run_id]
    shown = printed(ShownRun, run_cli(config, "show", once.run_id, "--json"))
    assert shown.files and shown.diff
    status = printed(StatusDocument, run_cli(config, "status", "--json", env=no_key))
    assert [a.name for a in status.agents] == ["ada"] and status.agents[0].last_run is not None
    transcripts = printed(TranscriptsDocument, run_cli(config, "transcripts", "--agent", "ada", "--json"))
    assert transcripts.agent == "ada"
    printed(ReviewListDocument, run_cli(config, "review", "list", "--json"))


def test_a_distillation_run_prints_its_documents(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    # Berlin is stored; Paris rests on a quote that does not say it, and is refused.
    fake_model.reply({"facts": [berlin_fact(), berlin_fact(value="Paris")]}, schema="DistillationResponse")

    once = printed(DOCUMENTS["once"], run_cli(config, "once", "--agent", "ada", "--json"))

    distillation = once.passes[0]
    assert (distillation.name, distillation.stored, distillation.rejected) == ("distillation", 1, 1)
    query = ("memory", "query", "--agent", "ada", "--entity", "user", "--as-of", "2026-11-30", "--json")
    found = printed(MemoryAnswer, run_cli(config, *query[:-1], "--key", "city", "--json"))
    assert found.value == "Berlin" and found.record is not None and found.record.quote == "I live in Berlin"
    assert printed(MemoryAnswer, run_cli(config, *query[:-1], "--key", "timezone", "--json")).record is None
    listing = printed(MemoryListing, run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json"))
    assert [r.value for r in listing.records] == ["Berlin"] and listing.settings_origin == "config"
    refused = printed(RefusedDocument, run_cli(config, "memory", "refused", "--agent", "ada", "--json"))
    assert [(e.value, e.run_id) for e in refused.root] == [("Paris", once.run_id)]
    status = printed(StatusDocument, run_cli(config, "status", "--agent", "ada", "--json"))
    assert status.agents[0].breaker is not None and status.agents[0].last_run.run_id == once.run_id


def test_a_run_under_review_prints_the_review_documents(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model, autonomy="review")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    once = printed(DOCUMENTS["once"], run_cli(config, "once", "--agent", "ada", "--json"))
    proposal = once.passes[0].proposal

    queue = printed(ReviewListDocument, run_cli(config, "review", "list", "--json"))

    assert [(p.id, p.kind, p.status, p.created_by_run) for p in queue.root] == [
        (proposal, "memory", "open", once.run_id)
    ]
    shown = printed(ShownProposal, run_cli(config, "review", "show", proposal, "--json"))
    assert shown.diff and [h.action for h in shown.history] == ["created"]


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_details_model_of_a_pass_has_its_entry_in_the_once_document() -> None:
    assert default_registry()  # every pass module is loaded
    details = {d for d in _subclasses(PassDetails) if not issubclass(d, PassHeader)}
    assert details - NOT_PASS_DETAILS == set(ENTRIES), "add an entry model to daemon/doors/once_document.py"
    assert set(PassEntry.__args__) == {PassOutcome, *ENTRIES.values()}
    for entry in (PassOutcome, *ENTRIES.values()):
        assert list(entry.model_fields)[-4:] == ["name", "status", "reason", "files"], entry
    for model in ENTRIES:
        assert not set(model.model_fields) & set(PassHeader.model_fields), f"{model.__name__} hides a header key"


def test_keys_that_do_not_apply_are_left_out_not_printed_as_null() -> None:
    details = DistillationDetails(
        turns=4, turns_waiting=0, model_requests=1, facts_proposed=1, stored=1, rejected_facts=[], warnings=[]
    )
    result = RunResult(
        agent="ada",
        run_id="R",
        attempted_run_id="R",
        started_at=datetime(2026, 11, 30, tzinfo=UTC),
        duration_seconds=0.1,
        passes=(PassResult("distillation", "applied", "1 stored", ("MEMORY.md",), (), details),),
        files_changed=("MEMORY.md",),
        dry_run=False,
        cost_usd=0.0,
        model_calls=(),
        notes=(),
    )
    entry = once_document(result).model_dump(mode="json")["passes"][0]
    assert entry == {
        "turns": 4,
        "turns_waiting": 0,
        "model_requests": 1,
        "facts_proposed": 1,
        "stored": 1,
        "rejected_facts": [],
        "warnings": [],
        "name": "distillation",
        "status": "applied",
        "reason": "1 stored",
        "files": ["MEMORY.md"],
    }
