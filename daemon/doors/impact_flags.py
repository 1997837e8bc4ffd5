"""`impact_flagged`: one notification per impact item newly flagged for review — said again
after what was learned from it reached the agent (docs/how-to/impact.md#flagged-items).

Like `skills_stale`, each item is notified once: `<state>/agents/<agent>/impact-flags.json`
keeps the items a notification went out for (by where they were first said: session and
turn, which stay the same while the transcript does). An item is remembered once every
target took its event (or `notify.events` does not want it, or there is no `notify:`); one
that could not be delivered is tried again the next time `impact` runs. The events go
straight to the targets, not through the service's outbox, which belongs to the running
daemon.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict

from daemon.config.resolve import Deployment
from daemon.doors.service.notifier import notifier_for
from daemon.doors.service.notify import Event
from daemon.doors.service.outbox import Outbox
from daemon.impact.document import ImpactItem
from daemon.kernel import atomic
from daemon.kernel.paths import StateLayout
from daemon.kernel.secret_shapes import masked
from daemon.kernel.statefile import read_versioned

VERSION = 1
KIND = "impact_flagged"


class NotifiedFlags(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    items: list[str] = []  # `key` of every flagged item a notification went out for


def key(item: ImpactItem) -> str:
    """What names an item across runs: where it was first said (`<session>#<turn>`)."""
    return f"{item.first.session}#{item.first.turn}"


def event(agent: str, item: ImpactItem) -> Event:
    """The notification of a flagged item. It leaves the machine (a webhook, a chat), so a key
    the person typed into their words is masked by its shape (`secret_shapes.masked`), not only
    the secrets the deployment registered."""
    said = masked(item.first.quote)
    return Event(
        KIND,
        agent,
        f"correction of agent {agent} said again: “{said}” — {item.flag_reason}",
        f"/impact?agent={quote(agent)}",
        {
            "item": item.id,
            "key": key(item),
            "kind": item.kind,
            "quote": said,
            "recurrences_after_delivery": item.recurrences_after_delivery,
            "reason": item.flag_reason,
        },
    )


def _read(path: Path) -> NotifiedFlags:
    return read_versioned(path, NotifiedFlags, VERSION) or NotifiedFlags()


def notify_flagged(
    deployment: Deployment,
    agent: str,
    items: Sequence[ImpactItem],
    clock: Callable[[], datetime],
    env: Mapping[str, str],
) -> list[str]:
    """Send `impact_flagged` for each flagged item of `items` not notified before; return the
    keys sent. Raises CorruptState or StateVersionError if the record cannot be read, OSError
    if it cannot be written."""
    path = StateLayout(deployment.state_dir).agent(agent).impact_flags
    before = _read(path)
    flagged = [i for i in items if i.flagged]
    new = [i for i in flagged if key(i) not in set(before.items)]
    notifier = notifier_for(deployment, clock, env, Outbox(None))
    sent = [key(i) for i in new if notifier is None or notifier.send(event(agent, i))]
    # items no longer flagged are forgotten: flagged again, they are notified again
    now_flagged = {key(i) for i in flagged}
    kept = sorted({k for k in before.items if k in now_flagged} | set(sent))
    if kept != before.items:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, json.dumps(NotifiedFlags(items=kept).model_dump(mode="json"), indent=1) + "\n")
    return sent
