"""Loading the impact corpus and scoring detection and recurrence against its labels
(benchmarks/impact_corpus/corpus.yaml describes the corpus; bench_impact.py runs it).

A detected statement is right when it overlaps (shares characters with) a labelled item
occurrence's quote in the same session and turn; every other detected statement — on a
look-alike or anywhere else — is a false positive. A labelled occurrence is found when some
statement overlaps it. Recurrence is scored over pairs of labelled occurrences: a pair is
predicted when the statements found on its two occurrences were grouped into one item,
right when the two occurrences belong to one labelled item.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from daemon.impact.recurrence import Item
from daemon.impact.statements import Statement

CORPUS = Path(__file__).parent / "impact_corpus"


@dataclass(frozen=True)
class Occurrence:
    item: str
    kind: str
    session: str
    turn: int
    quote: str
    language: str
    subject: str = ""  # fact:<entity>.<key>, skill:<name> or instruction:<slug>
    learned: bool = False  # its fate is not never_learned


@dataclass
class Agent:
    name: str
    sessions: list[dict[str, Any]]  # {id, date, language, transcript}
    occurrences: list[Occurrence] = field(default_factory=list)
    lookalikes: list[dict[str, Any]] = field(default_factory=list)


def session_id(number: int) -> str:
    return f"s{number:02d}"


def load(root: Path = CORPUS) -> list[Agent]:
    agents = []
    for folder in sorted((root / "agents").iterdir()):
        sessions = []
        for path in sorted((folder / "sessions").glob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            number = int(path.name[:2])
            sessions.append(
                {
                    "id": session_id(number),
                    "date": str(data["date"]),
                    "language": data["language"],
                    "transcript": data["transcript"],
                }
            )
        agent = Agent(folder.name, sessions)
        languages = {s["id"]: s["language"] for s in sessions}
        for item in yaml.safe_load((folder / "items.yaml").read_text(encoding="utf-8"))["items"]:
            for occ in item["occurrences"]:
                sid = session_id(occ["session"])
                agent.occurrences.append(
                    Occurrence(
                        item["id"],
                        item["kind"],
                        sid,
                        occ["turn"],
                        occ["quote"],
                        occ.get("language", languages[sid]),
                        item["subject"],
                        item["fate"] != "never_learned",
                    )
                )
        looks = yaml.safe_load((folder / "lookalikes.yaml").read_text(encoding="utf-8"))["lookalikes"]
        agent.lookalikes = [dict(x, session=session_id(x["session"])) for x in looks]
        agents.append(agent)
    return agents


def _overlaps(content: str, quote: str, sentence: str) -> bool:
    """Whether `sentence` and `quote` share characters in `content`."""
    a = content.find(quote)
    b = content.find(sentence)
    if a < 0 or b < 0:
        return quote in sentence or sentence in quote
    return a < b + len(sentence) and b < a + len(quote)


def match(agent: Agent, found: list[Statement]) -> dict[int, Occurrence | None]:
    """Statement index → the labelled occurrence it overlaps, or None (a false positive)."""
    contents = {(s["id"], i + 1): t["content"] for s in agent.sessions for i, t in enumerate(s["transcript"])}
    by_turn: dict[tuple[str, int], list[Occurrence]] = defaultdict(list)
    for occ in agent.occurrences:
        by_turn[(occ.session, occ.turn)].append(occ)
    result: dict[int, Occurrence | None] = {}
    for index, st in enumerate(found):
        content = contents[(st.session, st.turn)]
        result[index] = next(
            (o for o in by_turn[(st.session, st.turn)] if _overlaps(content, o.quote, st.quote)), None
        )
    return result


def learned_subjects(agent: Agent, found: list[Statement]) -> dict[Statement, frozenset[str]]:
    """What a daemon that learns every learned item from each turn it is said in would give
    `group`: the item's labelled subject, for each statement found on it — a fact's key and
    value, a skill, or the line of an instruction file a proposal citing the turn changes
    (`daemon.impact.review_links.learned_lines`)."""
    matched = match(agent, found)
    return {
        st: frozenset({occ.subject})
        for index, st in enumerate(found)
        if (occ := matched[index]) is not None and occ.learned
    }


def lookalike_hits(agent: Agent, found: list[Statement]) -> list[dict[str, Any]]:
    contents = {(s["id"], i + 1): t["content"] for s in agent.sessions for i, t in enumerate(s["transcript"])}
    hits = []
    for look in agent.lookalikes:
        content = contents[(look["session"], look["turn"])]
        for st in found:
            if (st.session, st.turn) == (look["session"], look["turn"]) and _overlaps(
                content, look["quote"], st.quote
            ):
                hits.append(
                    {**{k: look[k] for k in ("session", "turn", "category", "quote")}, "detected": st.quote}
                )
    return hits


def ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def detection(agents: list[Agent], found: dict[str, list[Statement]]) -> dict[str, Any]:
    """Precision and recall of detection, overall, per language and per kind."""
    tp_by: dict[str, list[int]] = defaultdict(
        lambda: [0, 0, 0]
    )  # key → [right statements, all statements, found occurrences]
    occ_by: dict[str, int] = defaultdict(int)
    misses: list[dict[str, Any]] = []
    false: list[dict[str, Any]] = []
    same_kind = right = 0
    for agent in agents:
        matched = match(agent, found[agent.name])
        seen: set[Occurrence] = set()
        for index, st in enumerate(found[agent.name]):
            occ = matched[index]
            keys = [
                "all",
                f"language:{occ.language if occ else st.language.split('+')[0]}",
                f"kind:{occ.kind if occ else st.kind}",
            ]
            for key in keys:
                tp_by[key][1] += 1
                tp_by[key][0] += occ is not None
            if occ is None:
                false.append(
                    {
                        "agent": agent.name,
                        "session": st.session,
                        "turn": st.turn,
                        "quote": st.quote,
                        "cues": list(st.cues),
                    }
                )
            else:
                seen.add(occ)
                right += 1
                same_kind += occ.kind == st.kind
        for occ in agent.occurrences:
            for key in ("all", f"language:{occ.language}", f"kind:{occ.kind}"):
                occ_by[key] += 1
                tp_by[key][2] += occ in seen
            if occ not in seen:
                misses.append(
                    {
                        "agent": agent.name,
                        "item": occ.item,
                        "session": occ.session,
                        "turn": occ.turn,
                        "quote": occ.quote,
                    }
                )
    figures = {
        key: {
            "precision": ratio(tp_by[key][0], tp_by[key][1]),
            "recall": ratio(tp_by[key][2], occ_by[key]),
            "statements": tp_by[key][1],
            "occurrences": occ_by[key],
        }
        for key in sorted(set(tp_by) | set(occ_by))
    }
    # of the statements found on a labelled occurrence, how many were given its labelled kind
    kind_agreement = ratio(same_kind, right)
    return {"figures": figures, "kind_agreement": kind_agreement, "missed": misses, "false_positives": false}


def recurrence(
    agents: list[Agent], found: dict[str, list[Statement]], items: dict[str, list[Item]]
) -> dict[str, Any]:
    """Pair precision and recall of grouping, over labelled occurrences (see the module docstring)."""
    predicted: set[tuple[Occurrence, Occurrence]] = set()
    labelled: set[tuple[Occurrence, Occurrence]] = set()
    detected: set[Occurrence] = set()
    for agent in agents:
        matched = match(agent, found[agent.name])
        position = {id(st): i for i, st in enumerate(found[agent.name])}
        for occ in matched.values():
            if occ is not None:
                detected.add(occ)
        for item in items[agent.name]:
            occs = {matched[position[id(st)]] for st in item.statements} - {None}
            for a, b in itertools.combinations(sorted(occs, key=_order), 2):  # type: ignore[arg-type]
                predicted.add((a, b))  # type: ignore[arg-type]
        by_item: dict[str, list[Occurrence]] = defaultdict(list)
        for occ in agent.occurrences:
            by_item[occ.item].append(occ)
        for occs in by_item.values():
            labelled.update(itertools.combinations(sorted(occs, key=_order), 2))
    right = {p for p in predicted if p[0].item == p[1].item}
    reachable = {p for p in labelled if p[0] in detected and p[1] in detected}
    return {
        "precision": ratio(len(right), len(predicted)),
        "recall": ratio(len(right & labelled), len(labelled)),
        "recall_of_detected": ratio(len(right & reachable), len(reachable)),
        "pairs_predicted": len(predicted),
        "pairs_labelled": len(labelled),
        "wrong_pairs": [
            [a.quote, b.quote]
            for a, b in sorted(predicted - right, key=lambda p: (_order(p[0]), _order(p[1])))
        ],
        "missed_pairs": [
            [a.quote, b.quote]
            for a, b in sorted(reachable - right, key=lambda p: (_order(p[0]), _order(p[1])))
        ],
    }


def _order(occ: Occurrence) -> tuple[str, int, str]:
    return (occ.session, occ.turn, occ.quote)
