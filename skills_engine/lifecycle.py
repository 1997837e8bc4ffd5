"""A learned skill's place in its life, from what the agent did with it (pure, no I/O).

    active → stale → archived

A skill is **stale** when both `stale_after_sessions` of the agent's sessions and
`stale_after_days` days have passed since it was last opened (since it was learned, if
never); it is due for the **archive** past `archive_after_sessions` and `archive_after_days`
(`skills.curator` in the config). Counting sessions, not only days, keeps a quiet agent's
skills: a month without sessions is not a month of disuse. Sessions are those the usage
scan read (daemon/transcripts/usage_record.py): a deployment that has just begun counting
has counted none, so nothing goes stale on an upgrade.

A skill is also **stale** when the corrections linked to it keep coming back after it was
opened: `impact` found them said again `impact_stale_recurrences` times after it was opened
(the curator reads what the last `impact` wrote, never computes it; skills_engine/impact_record.py).

Only skills the daemon learned itself are curated: a skill a person wrote (no provenance
sidecar), a fork of a pack or managed skill, and the pack and managed skills themselves
are **kept**, whatever their use; a **pinned** skill never moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from daemon.kernel.settings import CuratorSettings
from daemon.transcripts.usage_record import Tally, UsageFile

State = Literal["active", "stale", "archive", "pinned", "kept"]


@dataclass(frozen=True)
class Use:
    """What the agent did with one skill, as the curator reads it."""

    uses: int
    last: str | None  # the last use (UTC ISO 8601), None if never used
    sessions_since: int  # the agent's sessions since the last use (or since it was learned)
    days_since: int  # days since the last use (or since it was learned, or restored)
    restored: str | None = None  # when a person restored it, if its quiet time counts from then


@dataclass(frozen=True)
class Verdict:
    name: str
    state: State
    why: str
    use: Use


def _instant(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _day(stamp: str) -> date:
    return _instant(stamp).date()


def use_of(usage: UsageFile, tally: Tally, learned_at: str, today: date, restored: str | None = None) -> Use:
    """`tally` read against the agent's sessions; a skill never used counts from `learned_at`,
    one a person restored from the archive (`restored`) after its last use, from the restore."""
    if tally.count and tally.last and not (restored and _instant(restored) > _instant(tally.last)):
        since = usage.sessions_since(tally) or 0
        return Use(tally.count, tally.last, since, max((today - _day(tally.last)).days, 0))
    start = _day(restored or learned_at)
    since = sum(n for day, n in usage.sessions_by_day.items() if day >= start.isoformat())
    return Use(tally.count, tally.last, since, max((today - start).days, 0), restored)


def _quiet(use: Use) -> str:
    if use.restored:
        what = f"restored from the archive {use.restored[:10]}"
    else:
        what = f"last used {use.last[:10]}" if use.last else "never used since it was learned"
    return f"{what}: {use.sessions_since} session(s) and {use.days_since} day(s) since"


def verdict(
    name: str, use: Use, curated: bool, pinned: bool, settings: CuratorSettings, recurring: int = 0
) -> Verdict:
    """Where the skill `name` stands (see the module docstring). `curated`: the daemon
    learned it (not a person's, not a fork, not a pack's or managed one); `recurring`: the
    times its corrections were said again after it was opened, as the last `impact` found."""
    if pinned:
        return Verdict(name, "pinned", "pinned by a person: never moved", use)
    if not curated:
        return Verdict(name, "kept", "not learned by the daemon (a person's, a fork, a pack's or managed): never archived", use)
    if not settings.enabled:
        return Verdict(name, "active", "the curator is off (skills.curator.enabled: false)", use)
    quiet = _quiet(use)
    if use.sessions_since >= settings.archive_after_sessions and use.days_since >= settings.archive_after_days:
        return Verdict(
            name, "archive",
            f"{quiet} (archived after {settings.archive_after_sessions} sessions and {settings.archive_after_days} days)", use,
        )
    if use.sessions_since >= settings.stale_after_sessions and use.days_since >= settings.stale_after_days:
        return Verdict(
            name, "stale", f"{quiet} (stale after {settings.stale_after_sessions} sessions and {settings.stale_after_days} days)", use
        )
    if settings.impact_stale_recurrences and recurring >= settings.impact_stale_recurrences:
        return Verdict(
            name, "stale",
            f"its corrections keep coming back after it was used (impact): said again {recurring} time(s) "
            f"after it was opened (stale from {settings.impact_stale_recurrences})", use,
        )
    return Verdict(name, "active", quiet if use.uses == 0 or use.restored else f"{use.uses} use(s), {quiet}", use)
