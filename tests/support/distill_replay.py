"""Scripted answers to the distillation requests of `lab distill`, computed from each request.

`ideal` answers exactly the facts the corpus says a session supports; `adversarial`
answers every trap as a fact, then for every supported fact a misquote (a quote the turn
does not hold) and a value its quote does not say, and last the supported facts
themselves — junk first, the worst order for the real facts. Both find the session and
the turn ids (`T1`…) in the request itself, as a model would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from daemon.lab.distill_corpus import Corpus, CorpusSession, Label
from tests.support.fake_model import FakeModelServer

SCHEMA = "DistillationResponse"
OPEN, CLOSE = "<untrusted_transcript_data>\n", "\n</untrusted_transcript_data>"
# A value no corpus session states, per key: stored, it would be unlabelled junk.
DECOYS = {
    "city": "Atlantis",
    "language": "Esperanto",
    "timezone": "Antarctica/Troll",
    "delivery": "carrier pigeon",
    "color": "ultraviolet",
    "plan": "Platinum",
    "drink": "absinthe",
    "diet": "carnivore",
    "pet": "iguana",
    "test_command": "nose2 --verbose",
    "package_manager": "bower",
    "deploy_command": "capistrano deploy",
    "staging_url": "https://decoy.invalid",
    "editor": "TECO",
    "os": "Haiku",
    "shell": "tcsh",
}
Respond = Callable[[dict[str, Any]], dict[str, Any]]


def request_turns(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The turn bodies a distillation request carries."""
    user = body["messages"][1]["content"]
    start, end = user.index(OPEN) + len(OPEN), user.rindex(CLOSE)
    turns: list[dict[str, Any]] = json.loads(user[start:end])["turns"]
    return turns


def _session(corpus: Corpus, turns: list[dict[str, Any]]) -> CorpusSession:
    first = turns[0]["messages"][0][1]
    found = [cs for cs in corpus.sessions if any(m.content == first for t in cs.turns for m in t.messages)]
    assert len(found) == 1, f"the request's first message is in {len(found)} corpus sessions"
    return found[0]


def _turn_id(turns: list[dict[str, Any]], quote: str) -> str | None:
    for turn in turns:
        if any(quote in m[1] for m in turn["messages"]):
            return str(turn["id"])
    return None


def fact(turn: str, quote: str, entity: str, key: str, value: str, day: str) -> dict[str, Any]:
    return {
        "turn": turn,
        "quote": quote,
        "entity": entity,
        "key": key,
        "value": value,
        "confidence": 0.95,
        "valid_from": day,
    }


def _said(cs: CorpusSession, turns: list[dict[str, Any]], label: Label, value: str | None = None, quote: str | None = None) -> list[dict[str, Any]]:
    turn = _turn_id(turns, label.quote)
    if turn is None:  # stated in another request of the session
        return []
    day = label.valid_from or cs.session.date
    return [fact(turn, quote or label.quote, label.entity, label.key, value or label.value, day)]


def ideal(corpus: Corpus) -> Respond:
    def respond(body: dict[str, Any]) -> dict[str, Any]:
        turns = request_turns(body)
        cs = _session(corpus, turns)
        return {"facts": [f for label in cs.session.facts for f in _said(cs, turns, label)]}

    return respond


def adversarial(corpus: Corpus) -> Respond:
    def respond(body: dict[str, Any]) -> dict[str, Any]:
        turns = request_turns(body)
        cs = _session(corpus, turns)
        facts = [f for trap in cs.session.traps for f in _said(cs, turns, trap)]
        for label in cs.session.facts:
            decoy = DECOYS[label.key]
            facts += _said(cs, turns, label, value=decoy, quote=f"my {label.key} is {decoy}")
            facts += _said(cs, turns, label, value=decoy)
        facts += [f for label in cs.session.facts for f in _said(cs, turns, label)]
        return {"facts": facts}

    return respond


def script(server: FakeModelServer, corpus: Corpus, respond: Respond) -> None:
    """Queue one computed answer per session (every session of a short corpus is one request)."""
    for _ in corpus.sessions:
        server.reply(respond, schema=SCHEMA)
