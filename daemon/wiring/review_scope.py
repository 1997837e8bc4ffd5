"""What approving a proposal of each kind may change, and what a memory proposal may not hold.

A proposal file lives in the agent home, which the agent's runtime can write, so its kind
is the only thing that says what it is for: an `instruction` proposal changes instruction
files, never a skill or the fact store, whatever paths its changes name. `vet` is the
`Vetting` the review queue's `plan_approval` is given: every change outside its kind's
scope is refused by path, an unknown kind is refused outright, and a `memory` proposal may
not add a record of a key a person has since forbidden (`memory forget --forbid`).

Each kind is made in one place (named below); a new kind of proposal needs its line here,
or it cannot be approved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from daemon.kernel.errors import CorruptState, PathRefused, StateVersionError
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.paths import ADOPTED_SETTINGS, FORK_BASES_DIR, SKILL_ARCHIVE_DIR, SKILL_CURATOR
from daemon.kernel.review_decisions import Vetting
from daemon.kernel.review_queue import Proposal
from daemon.kernel.runtime_files import HOOK_FILES, INSTRUCTION_FILES
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView, check_relative
from daemon.lab.adopt import KIND as SETTINGS_KIND
from daemon.wiring.hook_wiring import KIND as HOOK_WIRING_KIND
from memory_engine import factstore
from memory_engine.agent_memory import memory_files, memory_folders
from memory_engine.distillation import MEMORY_PROPOSAL
from memory_engine.facts_wiring import KIND as WIRING_KIND
from memory_engine.forbidden import FORBIDDEN_FILE, forbidden_keys
from skills_engine.archive import read_pins
from skills_engine.curator import KIND as ARCHIVE_KIND
from workspace.contradictions import KIND as CONTRADICTION_KIND
from workspace.instruction_review import KIND as INSTRUCTION_KIND
from workspace.roles import role_files

MERGE_KIND = "skill-merge"  # a model-written merge of near-duplicates under autonomy: review


def _instructions(agent: AgentSettings) -> ManagedPaths:
    return ManagedPaths(frozenset(agent.workspace.instructions), frozenset())


def _role_files(agent: AgentSettings) -> ManagedPaths:
    return ManagedPaths(frozenset(path for path, _role in role_files(agent)), frozenset())


def _daily_logs(agent: AgentSettings) -> ManagedPaths:
    return ManagedPaths(frozenset(), frozenset({agent.workspace.daily_logs}))


def _fact_store(agent: AgentSettings) -> ManagedPaths:
    return ManagedPaths(frozenset(memory_files(agent)), frozenset(memory_folders(agent)))


def _settings(agent: AgentSettings) -> ManagedPaths:
    return ManagedPaths(frozenset({ADOPTED_SETTINGS}), frozenset())


def _runtime_instructions(agent: AgentSettings) -> ManagedPaths:
    target = INSTRUCTION_FILES.get(agent.transcripts.format)
    return ManagedPaths(frozenset({target} if target else ()), frozenset())


def _skill_archive(agent: AgentSettings) -> ManagedPaths:
    return ManagedPaths(frozenset({SKILL_CURATOR}), frozenset({agent.skills.learned, SKILL_ARCHIVE_DIR}))


def _hook_settings(agent: AgentSettings) -> ManagedPaths:
    target = HOOK_FILES.get(agent.transcripts.format)
    return ManagedPaths(frozenset({target} if target else ()), frozenset())


def _skills(agent: AgentSettings) -> ManagedPaths:
    # A fork also records the pack skill it copied (its base for later upstream merges).
    return ManagedPaths(frozenset(), frozenset({agent.skills.learned, FORK_BASES_DIR}))


SCOPES: dict[str, Callable[[AgentSettings], ManagedPaths]] = {
    INSTRUCTION_KIND: _instructions,  # workspace/instruction_review.py
    "consolidation": _role_files,  # workspace/workspace_consolidation.py
    CONTRADICTION_KIND: _role_files,  # workspace/contradictions.py
    "daily-logs": _daily_logs,  # workspace/workspace_consolidation.py
    MEMORY_PROPOSAL: _fact_store,  # memory_engine/distillation.py
    SETTINGS_KIND: _settings,  # daemon/lab/adopt.py
    WIRING_KIND: _runtime_instructions,  # memory_engine/facts_wiring.py
    HOOK_WIRING_KIND: _hook_settings,  # daemon/wiring/hook_wiring.py
    "skill-create": _skills,  # skills_engine/candidates.py
    "skill-update": _skills,  # skills_engine/candidates.py
    "skill-fork": _skills,  # skills_engine/candidates.py
    "skill-upstream-merge": _skills,  # skills_engine/library_maintenance.py
    MERGE_KIND: _skills,  # skills_engine/library_maintenance.py
    ARCHIVE_KIND: _skill_archive,  # skills_engine/curator.py
}


def scope_of(agent: AgentSettings, kind: str) -> ManagedPaths | None:
    """The paths an approved proposal of `kind` may change for `agent`; None: unknown kind."""
    make = SCOPES.get(kind)
    return None if make is None else make(agent)


def vetting(agent: AgentSettings) -> Vetting:
    """The approval check of `agent`'s proposals (see the module docstring)."""

    def vet(proposal: Proposal, view: AgentView) -> Sequence[str]:
        return refusals(agent, proposal, view)

    return vet


def refusals(agent: AgentSettings, proposal: Proposal, view: AgentView) -> list[str]:
    """Why approving `proposal` is refused, one sentence per path or key; empty if it may be."""
    scope = scope_of(agent, proposal.kind)
    if scope is None:
        return [f"its kind {proposal.kind!r} is not a kind of proposal this daemon makes"]
    allowed = ", ".join(sorted(scope.files | {d + "/" for d in scope.dirs})) or "nothing"
    problems = []
    for change in proposal.changes:
        try:
            path = check_relative(change.path)
        except PathRefused as exc:
            problems.append(f"{change.path!r} is not a path in the agent home ({exc.reason})")
            continue
        if not scope.covers(path):
            problems.append(
                f"{change.path} is outside what a proposal of kind {proposal.kind!r} may change ({allowed})"
            )
    if proposal.kind == MEMORY_PROPOSAL and not problems:
        problems += _forbidden_records(agent, proposal, view)
    if proposal.kind in (ARCHIVE_KIND, MERGE_KIND) and not problems:
        problems += _pinned_since(agent, proposal, view)
    return problems


def _pinned_since(agent: AgentSettings, proposal: Proposal, view: AgentView) -> list[str]:
    """An archive or merge proposal may not move or delete a skill a person pinned after it was
    made (an archive moves each file out; a merge deletes a member's SKILL.md)."""
    try:
        pinned = set(read_pins(view).pinned)
    except (CorruptState, StateVersionError) as exc:
        return [f"the pins cannot be read, so no skill is moved: {exc}"]
    prefix = agent.skills.learned + "/"
    gone = [c.path[len(prefix) :] for c in proposal.changes if c.new_content is None and c.path.startswith(prefix)]
    if proposal.kind == MERGE_KIND:
        gone = [rel for rel in gone if rel.endswith("/SKILL.md") and rel.count("/") == 1]
    moved = {rel.split("/", 1)[0] for rel in gone}
    what = "archive" if proposal.kind == ARCHIVE_KIND else "merge"
    return [f"skill {name} was pinned since the {what} was proposed: it stays (reject this, the next run proposes anew)"
            for name in sorted(moved & pinned)]


def _forbidden_records(agent: AgentSettings, proposal: Proposal, view: AgentView) -> list[str]:
    """A sentence for each forbidden key that a fact-store change would add a record of.

    A record the file already holds is not added by approving, so only new lines count.
    """
    forbidden = forbidden_keys(view)
    store = ManagedPaths(frozenset({agent.memory.store}), frozenset(memory_folders(agent)))
    problems = []
    for change in proposal.changes:
        if change.new_content is None or not store.covers(check_relative(change.path)):
            continue
        try:
            held = set((view.read_text(change.path) or "").splitlines())
        except PathRefused:
            held = set()  # a target not readable as a file: the stale check refuses it
        try:
            records = factstore.parse_numbered(change.new_content, change.path)
        except (CorruptState, StateVersionError) as exc:
            problems.append(f"{change.path} would not be a fact store: {exc}")
            continue
        lines = change.new_content.splitlines()
        keys = sorted({r.key for n, r in records if r.key in forbidden and lines[n - 1] not in held})
        problems += [
            f"{change.path} would store a fact of the forbidden key {key!r} "
            f"(forbidden in {FORBIDDEN_FILE})"
            for key in keys
        ]
    return problems
