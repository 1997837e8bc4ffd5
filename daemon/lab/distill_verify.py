"""`lab verify` of a precision ledger: rebuild every request, re-score every answer.

Against the corpus copy in the ledger (`corpus/`, its files' hashes as `ledger.json`
recorded them) and the recorded model settings, system prompt and memory settings:
- every session of the corpus is accounted for, in order; a session left unscored
  (stopped, not run) only in a run that says it stopped;
- each request is the pass's request for the next turns of its session (the same turn
  bodies, `today` and allowed keys), and the sha256 of its body is the one recorded
  before the call (and the deep tier's own hash of what it sent);
- each answer's sha256 is the one recorded, and putting the recorded answers through the
  pass's checks and write rules again gives the recorded outcomes;
- the figures (`results.json`, and those in `ledger.json`) follow from those outcomes.
Any mismatch is a problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from daemon.kernel.settings import AgentMemory, AgentSettings, ModelSettings
from daemon.lab.distill_bench import PROMPT_FILE, distill_sources, sha256
from daemon.lab.distill_corpus import Corpus, CorpusError, CorpusSession, corpus_files, parse_corpus
from daemon.lab.distill_score import bench_agent, figures, session_now, settle, user_message
from daemon.lab.experiment_ledger import LedgerError, check_version, dumps, load_manifest, read_json
from daemon.model.deep_tier import build_request
from daemon.passes.turn_batches import TurnGroup, split_turns
from daemon.passes.turn_prompt import SYSTEM_PROMPT
from memory_engine.distillation import DistillationResponse

SCORED = ("answered", "invalid_response")


@dataclass
class DistillCheck:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    requests: int = 0
    sessions: int = 0


def _json(value: Any) -> Any:
    """`value` as it reads back from a ledger file (tuples become lists, and so on)."""
    return json.loads(dumps(value))


def _read(root: Path, rel: str, check: DistillCheck) -> dict[str, Any] | None:
    try:
        doc = read_json(root / rel)
        check_version(doc, root / rel)
    except LedgerError as exc:
        check.problems.append(f"{rel}: {exc}")
        return None
    if not isinstance(doc, dict):
        check.problems.append(f"{rel}: expected a JSON object")
        return None
    return doc


def _setup(root: Path, doc: dict[str, Any], check: DistillCheck) -> tuple[Corpus, ModelSettings, str, AgentSettings] | None:
    try:
        corpus = parse_corpus(corpus_files(root / "corpus"), "corpus")
    except CorpusError as exc:
        check.problems.append(f"corpus/: cannot be loaded ({exc})")
        return None
    recorded = doc.get("corpus") or {}
    if corpus.file_hashes() != recorded.get("files") or corpus.sha256 != recorded.get("sha256"):
        check.problems.append("corpus/: its files are not the ones ledger.json names (hashes differ)")
    try:
        model = ModelSettings.model_validate(doc["model"]["settings"])
        memory = AgentMemory.model_validate(doc["settings"]["memory"])
        system = (root / PROMPT_FILE).read_text(encoding="utf-8")
    except (KeyError, TypeError, ValidationError, OSError, UnicodeDecodeError) as exc:
        check.problems.append(f"ledger.json: model, memory settings or prompt cannot be read back ({type(exc).__name__})")
        return None
    if sha256(system) != (doc.get("prompt") or {}).get("sha256"):
        check.problems.append(f"{PROMPT_FILE}: sha256 differs from the one ledger.json recorded")
    if system != SYSTEM_PROMPT:
        check.notes.append("the passes' shared system prompt changed since this run; the recorded one is re-checked")
    agent = bench_agent(corpus.header.allowed_keys, memory)
    return corpus, model, system, agent


def _requests(
    root: Path, cs: CorpusSession, entry: dict[str, Any], setup: tuple[Corpus, ModelSettings, str, AgentSettings], check: DistillCheck
) -> tuple[list[tuple[TurnGroup, DistillationResponse | None]], int] | None:
    _corpus, model, system, agent = setup
    now = session_now(cs)
    answers: list[tuple[TurnGroup, DistillationResponse | None]] = []
    invalid = 0
    next_turn = 1
    count = entry.get("requests")
    if not isinstance(count, int) or count < 1:
        check.problems.append(f"ledger.json: session {cs.id} has no request count")
        return None
    for number in range(1, count + 1):
        folder = f"sessions/{cs.id}/request-{number:02d}"
        request = _read(root, f"{folder}/request.json", check)
        response = _read(root, f"{folder}/response.json", check)
        if request is None or response is None:
            return None
        try:
            first, _last = request["turns"]
            if not (isinstance(first, int) and 1 <= first <= len(cs.turns)):
                raise ValueError(first)
            (group,) = split_turns(cs.turns[first - 1 :], int(request["room"]), 1)
        except (KeyError, TypeError, ValueError):
            check.problems.append(f"{folder}/request.json: its turns or room cannot be read back")
            return None
        user = user_message(group, agent, now)
        body = build_request(model, system, user, DistillationResponse)[2]
        if first != next_turn or request.get("turns") != [first, first + len(group.turns) - 1]:
            check.problems.append(f"{folder}/request.json: does not cover the session's next turns")
        elif request.get("user") != user:
            check.problems.append(f"{folder}/request.json: is not the pass's request for these corpus turns")
        elif request.get("request_sha256") != sha256(body) or response.get("prompt_sha256", sha256(body)) != sha256(body):
            check.problems.append(f"{folder}: the request's sha256 is not that of the request rebuilt")
        next_turn = first + len(group.turns)
        check.requests += 1
        if response.get("status") == "invalid_response":
            invalid += 1
            answers.append((group, None))
            continue
        raw = response.get("raw")
        if response.get("status") != "ok" or not isinstance(raw, str):
            check.problems.append(f"{folder}/response.json: a scored session holds no answer here")
            return None
        if response.get("response_sha256") != sha256(raw):
            check.problems.append(f"{folder}/response.json: the answer's sha256 is not the one recorded")
        try:
            answers.append((group, DistillationResponse.model_validate_json(raw)))
        except ValidationError:
            check.problems.append(f"{folder}/response.json: the recorded answer does not match the schema")
            return None
    if next_turn != len(cs.turns) + 1:
        check.problems.append(f"sessions/{cs.id}: the requests do not cover every turn of the session")
    return answers, invalid


def verify_distill(root: Path, doc: dict[str, Any]) -> DistillCheck:
    """Every problem with the precision ledger `root` whose `ledger.json` is `doc`."""
    check = DistillCheck()
    setup = _setup(root, doc, check)
    if setup is None:
        return check
    corpus, _model, _system, agent = setup
    recorded = load_manifest(root).get("provenance", {}).get("distillation_sources")
    if recorded and recorded != distill_sources():
        check.notes.append("the distillation pass's source changed since this run; re-scoring decides")
    listed = doc.get("sessions")
    entries: list[dict[str, Any]] = [e for e in listed if isinstance(e, dict)] if isinstance(listed, list) else []
    if [e.get("session") for e in entries] != [cs.id for cs in corpus.sessions]:
        check.problems.append("ledger.json: its sessions are not the corpus's sessions, in order")
        return check
    outcomes: dict[str, list[dict[str, Any]]] = {}
    requests = invalid = 0
    for cs, entry in zip(corpus.sessions, entries, strict=True):
        if entry.get("status") not in SCORED:
            if doc.get("status") != "completed_with_errors":
                check.problems.append(f"ledger.json: session {cs.id} is {entry.get('status')!r} in a completed run")
            continue
        found = _requests(root, cs, entry, setup, check)
        if found is None:
            continue
        answers, bad = found
        requests, invalid = requests + len(answers), invalid + bad
        outcomes[cs.id] = settle(cs, agent, answers)
        check.sessions += 1
        saved = _read(root, f"sessions/{cs.id}/outcomes.json", check)
        if saved is not None and saved.get("outcomes") != _json(outcomes[cs.id]):
            check.problems.append(f"sessions/{cs.id}/outcomes.json: re-scoring the recorded answers gives other outcomes")
    scored = _json(figures(corpus, outcomes, requests, invalid))
    results = _read(root, "results.json", check)
    if results is not None and {k: v for k, v in results.items() if k != "version"} != scored:
        check.problems.append("results.json: the figures do not follow from the recorded answers")
    if doc.get("figures") != {k: v for k, v in scored.items() if k != "by_session"}:
        check.problems.append("ledger.json: its figures do not follow from the recorded answers")
    return check
