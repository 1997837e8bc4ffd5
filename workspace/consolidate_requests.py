"""Which model requests a consolidation makes, each within the limit, and which wait (pure).

A request shows the model some numbered units (with the headings around them) and the list
of role files. Its serialised body — measured like the deep-tier client measures a call:
the JSON of the messages and the response format, schema included — must stay within the
model's `max_input_bytes`. All role files go into one request when they fit. Otherwise
each file that fits is one *piece*; a larger file is cut at its top-level headings (then
the next level down, ...), and a section still too large into runs of consecutive units.
Pieces are packed, in file and section order, into as few requests as fit. A unit larger
than any request can hold is left as it is and reported.

A piece is *done* once the model answered a request that held it and nothing in it changed
since. The state file keeps the digests of the done pieces: a request whose pieces are all
done is not sent again, so unchanged role files cost no model call, and a pass that sends
only some requests (at most `model.max_calls_per_pass`) resumes where it
stopped on the next run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from daemon.kernel.changeset import FileWrite
from daemon.kernel.paths import META_DIR
from daemon.kernel.settings import ModelSettings
from daemon.kernel.view import AgentView
from daemon.model.deep_tier import build_request
from workspace.consolidate_model import SYSTEM_PROMPT, ConsolidationResponse, file_entry, item_entry, payload
from workspace.numbered import Document, Item, parse
from workspace.roles import WorkspaceFile

STATE_FILE = f"{META_DIR}/workspace-consolidation.json"
STATE_VERSION = 2


def request_bytes(model: ModelSettings, user: str) -> int:
    """The size of the body `DeepTier.call` sends for this user message (schema included)."""
    return len(build_request(model, SYSTEM_PROMPT, user, ConsolidationResponse)[2].encode("utf-8"))


@lru_cache(maxsize=1 << 16)
def _cost(item: Item) -> int:
    """What one entry adds to the body at most: escaped twice (payload, then body), plus ', '."""
    entry = json.dumps(json.dumps(item_entry(item), ensure_ascii=False), ensure_ascii=False)
    return len(entry.encode("utf-8"))


@dataclass(frozen=True)
class Piece:
    path: str
    context: tuple[Item, ...]  # the headings above the piece, shown for orientation
    items: tuple[Item, ...]  # headings and units, in order
    cost: int

    @property
    def uids(self) -> list[str]:
        return [i.uid for i in self.items if i.kind == "unit"]

    @property
    def digest(self) -> str:
        """What the piece says, not its ids: removing a unit above renumbers, changes nothing here."""
        parts = [self.path, *(i.raw for i in self.context), "\x00", *(i.raw for i in self.items)]
        return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Request:
    number: int
    pieces: tuple[Piece, ...]
    user: str
    size: int

    @property
    def uids(self) -> frozenset[str]:
        return frozenset(uid for p in self.pieces for uid in p.uids)

    @property
    def files(self) -> list[str]:
        return list(dict.fromkeys(p.path for p in self.pieces))

    def units(self) -> list[Item]:
        return [i for p in self.pieces for i in p.items if i.kind == "unit"]


@dataclass(frozen=True)
class Layout:
    requests: tuple[Request, ...]
    too_large: tuple[str, ...]  # unit ids no request can hold
    fixed_bytes: int  # the body with no unit: instructions, schema, file list
    capacity: int  # what is left for units in one request


def _split(path: str, group: Sequence[Item], context: tuple[Item, ...], capacity: int) -> Iterable[Piece]:
    """`group` (a file or a section) as pieces that fit `capacity`; too-large units are skipped."""
    if not any(i.kind == "unit" for i in group):
        return
    costs = [_cost(i) for i in (*context, *group)]
    if sum(costs) <= capacity:
        yield Piece(path, context, tuple(group), sum(costs))
        return
    levels = [i.level for i in group[1:] if i.kind == "heading"]
    inner = context + ((group[0],) if group[0].kind == "heading" else ())
    if not levels:
        yield from _runs(path, group, context, inner, capacity)
        return
    top = min(levels)
    cuts = [0] + [n for n in range(1, len(group)) if group[n].kind == "heading" and group[n].level == top]
    for number, (start, end) in enumerate(zip(cuts, [*cuts[1:], len(group)], strict=True)):
        below = inner if number and group[0].kind == "heading" and group[0].level < top else context
        yield from _split(path, group[start:end], below, capacity)


def _runs(
    path: str, group: Sequence[Item], context: tuple[Item, ...], inner: tuple[Item, ...], capacity: int
) -> Iterable[Piece]:
    """A section without sub-headings as runs of consecutive units that fit."""
    room = capacity - sum(_cost(i) for i in inner)
    current: list[Item] = []
    used = sum(_cost(i) for i in context)
    for item in group:
        cost = _cost(item)
        if item.kind == "unit" and cost > room:
            continue  # too large for any request: left as it is
        if current and used + cost > capacity:
            if any(i.kind == "unit" for i in current):
                yield Piece(path, context, tuple(current), used)
            context, current = inner, []
            used = sum(_cost(i) for i in inner)
        current.append(item)
        used += cost
    if any(i.kind == "unit" for i in current):
        yield Piece(path, context, tuple(current), used)


def plan_layout(files: Sequence[WorkspaceFile], docs: Mapping[str, Document], model: ModelSettings) -> Layout:
    """The requests that cover every unit of `docs` (role order), each within `max_input_bytes`."""
    # Every file's listing and (empty) unit list, at their longest: an upper bound of any request's.
    listing = [file_entry(WorkspaceFile(f.path, f.role, None), complete=False) for f in files]
    fixed = request_bytes(model, payload(listing, {f.path: [] for f in files}))
    capacity = model.max_input_bytes - fixed
    pieces: list[Piece] = []
    for f in files:
        entries = [i for i in docs[f.path].items if i.kind in ("heading", "unit")]
        pieces += _split(f.path, entries, (), capacity)
    sent = {uid for p in pieces for uid in p.uids}
    too_large = tuple(u.uid for f in files for u in docs[f.path].units() if u.uid not in sent)
    groups: list[list[Piece]] = []
    used = capacity + 1
    for piece in pieces:
        if used + piece.cost > capacity:
            groups.append([])
            used = 0
        groups[-1].append(piece)
        used += piece.cost
    requests = tuple(_request(n, tuple(g), files, docs, model) for n, g in enumerate(groups, start=1))
    return Layout(requests, too_large, fixed, capacity)


def _request(
    number: int,
    pieces: tuple[Piece, ...],
    files: Sequence[WorkspaceFile],
    docs: Mapping[str, Document],
    model: ModelSettings,
) -> Request:
    uids = {uid for p in pieces for uid in p.uids}
    listing = [file_entry(f, complete=all(u.uid in uids for u in docs[f.path].units())) for f in files]
    units: dict[str, list[str | list[int | str]]] = {}
    for piece in pieces:
        units.setdefault(piece.path, []).extend(item_entry(i) for i in (*piece.context, *piece.items))
    user = payload(listing, units)
    return Request(number, pieces, user, request_bytes(model, user))


def read_done(view: AgentView) -> frozenset[str]:
    """The digests of the pieces already consolidated (empty when unreadable or of another version)."""
    raw = view.read_bytes(STATE_FILE)
    if raw is None:
        return frozenset()
    try:
        data = json.loads(raw)
    except ValueError:
        return frozenset()  # unreadable: ask the model again, the next run rewrites the file
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        return frozenset()  # version 1 kept one digest of all files: consolidate once more
    done = data.get("done_pieces")
    return frozenset(d for d in done if isinstance(d, str)) if isinstance(done, list) else frozenset()


@dataclass(frozen=True)
class Progress:
    """What this run's answers covered, to record the pieces done after its writes."""

    files: tuple[WorkspaceFile, ...]
    model: ModelSettings
    done_before: frozenset[str]
    covered: frozenset[tuple[str, str]]  # (file, raw text) of each unit the model answered for

    def state_write(self, texts: Mapping[str, str]) -> FileWrite:
        """The state file once `texts` (the role files after this run's writes) are on disk."""
        files = [WorkspaceFile(f.path, f.role, texts.get(f.path)) for f in self.files]
        docs = {f.path: parse(f.path, f.text or "") for f in files}
        done = set()
        for request in plan_layout(files, docs, self.model).requests:
            for piece in request.pieces:
                answered = all((piece.path, i.raw) in self.covered for i in piece.items if i.kind == "unit")
                if piece.digest in self.done_before or answered:
                    done.add(piece.digest)
        body = {"version": STATE_VERSION, "done_pieces": sorted(done)}
        return FileWrite(path=STATE_FILE, content=(json.dumps(body, indent=1) + "\n").encode("utf-8"))
