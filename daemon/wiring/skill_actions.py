"""Pin, unpin and restore a skill — the one code path for `skills pin|unpin|restore` and the
console's buttons.

Each is a person's change applied as a run (`run_manual`): one commit `undo` reverts.
A pin (`.metaeng/skill-pins.json`) keeps a skill where it is for good; unpinning gives it
back to the curator; restoring moves an archived skill from `.metaeng/skill-archive` back
into the learned library (`skills_engine.archive.plan_restore`).
"""

from __future__ import annotations

from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.kernel.changeset import Changeset
from daemon.kernel.errors import DaemonError
from daemon.kernel.view import AgentView
from daemon.run.manual import ManualResult, run_manual
from daemon.run.session import AgentSession
from skills_engine.archive import Pin, pins_write, plan_restore, read_pins, recorded_names
from skills_engine.curator import restored_write
from skills_engine.inventory import load_inventory


def set_pin(
    deployment: Deployment, agent: str, name: str, pin: bool, *, now: datetime, lock_timeout: float
) -> ManualResult:
    """Pin (`pin=True`) or unpin the skill `name` of `agent` as a run.

    Pinning a skill the agent does not have (in its inventory or its archive) raises
    DaemonError; pinning a pinned skill or unpinning one that is not changes nothing
    (status "nothing", no run).
    """
    action = "pin" if pin else "unpin"

    def plan(session: AgentSession, view: AgentView, run_id: str) -> Changeset:
        pins = read_pins(view)
        if pin:
            names = {s.name for s in load_inventory(session.agent, view).skills} | recorded_names(view)
            if name not in names:
                raise DaemonError(f"agent {session.agent.name} has no skill {name!r} (see `skills list`)")
        if pin == (name in pins.pinned):
            return Changeset(
                pass_name=f"skills-{action}", status="nothing", reason=f"{name} is already {action}ned"
            )
        kept = dict(pins.pinned)
        if pin:
            kept[name] = Pin(at=now.isoformat(), run_id=run_id)
        else:
            kept.pop(name)
        write = pins_write(pins.model_copy(update={"pinned": kept}))
        return Changeset(
            pass_name=f"skills-{action}", status="changes", reason=f"{action}ned {name}", writes=(write,)
        )

    return run_manual(
        deployment, agent, label=f"skills-{action}", plan=plan, now=now, lock_timeout=lock_timeout
    )


def restore(
    deployment: Deployment, agent: str, name: str, *, now: datetime, lock_timeout: float
) -> ManualResult:
    """Move the archived skill `name` of `agent` back into its learned library, as a run.

    Raises DaemonError (nothing changed) if it is not archived, or the library holds a
    skill of that name now.
    """

    def plan(session: AgentSession, view: AgentView, _run_id: str) -> Changeset:
        learned = session.agent.skills.learned
        writes, deletes = plan_restore(view, learned, name)
        # its quiet time starts again, or the next run would archive it once more
        writes.append(restored_write(view, name, now))
        return Changeset(
            pass_name="skills-restore",
            status="changes",
            reason=f"restored {name} to {learned}/{name}; its time without use counts from now",
            writes=tuple(writes),
            deletes=tuple(deletes),
        )

    return run_manual(
        deployment, agent, label="skills-restore", plan=plan, now=now, lock_timeout=lock_timeout
    )
