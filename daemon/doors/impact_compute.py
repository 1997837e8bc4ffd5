"""Computing an agent's impact report, as `metaeng-daemon impact` and the console's Impact page
both do it: the whole history read (no cursor moves), the stored facts, the learned skills,
the review queue's proposals and the MCP server's answers (`daemon.doors.impact_sources`),
the report, and its headline written for `status` (`daemon.doors.impact_headline`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime

from daemon.config.resolve import Deployment
from daemon.doors.impact_headline import write_headline
from daemon.doors.impact_learned import keep_found, learned_skills
from daemon.doors.impact_sources import mcp_answers, proposal_sources
from daemon.impact.document import ImpactDocument
from daemon.impact.history import read_history
from daemon.impact.report import impact_items, report
from daemon.kernel.errors import DaemonError
from daemon.transcripts.files import source_of
from daemon.wiring.fact_lookup import fact_index


def since_day(value: str | None, name: str = "--since") -> str | None:
    """`value` as the day YYYY-MM-DD a report starts at (None: the whole history); a value that
    is not a day is refused with a DaemonError naming `name` (the option or the form field)."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise DaemonError(f"{name}: {value!r} is not a day (YYYY-MM-DD)") from None


# The steps a computation goes through, in order, as its progress reports them.
STEPS = ("reading the transcripts", "reading the stored facts", "finding and matching the statements")


@dataclass(frozen=True)
class Computed:
    document: ImpactDocument
    headline_error: str | None  # why the headline file could not be written, if it could not
    # what else could not be kept: the learned skills' record, the flagged items' notices
    problems: tuple[str, ...] = ()


def compute_impact(
    deployment: Deployment,
    agent_name: str,
    clock: Callable[[], datetime],
    since: str | None,
    progress: Callable[[str], None] | None = None,
    env: Mapping[str, str] | None = None,
) -> Computed:
    """The impact report of `agent_name` (raises UnknownAgent), its headline written to the
    state folder, what it found of the learned skills kept and its newly flagged items
    notified (`daemon.doors.impact_learned`; `env`: the notify command's PATH and locale); a headline that cannot be written is said in `headline_error`, never raised:
    the report itself is still right."""
    say = progress or (lambda _step: None)
    agent = deployment.agent(agent_name)
    say(STEPS[0])
    history = read_history(source_of(agent), clock())
    say(STEPS[1])
    with fact_index(deployment.state_dir, agent) as index:
        facts = index.records(agent.owner, None, None)
    proposals, unread = proposal_sources(agent)
    answers, answer_warnings = mcp_answers(deployment.state_dir, agent.name)
    say(STEPS[2])
    items = impact_items(history, facts, learned_skills(agent), proposals, answers)
    document = report(agent.name, history, facts, since, items=items)
    if answer_warnings:
        document = document.model_copy(update={"warnings": [*document.warnings, *answer_warnings]})
    problems = (*((unread,) if unread else ()), *keep_found(deployment, agent.name, items, since, clock, env))
    try:
        write_headline(
            deployment.state_dir, agent.name, document.figures, document.sessions_read, since, clock()
        )
    except OSError as exc:
        return Computed(document, f"the impact headline was not saved for `status`: {exc}", problems)
    return Computed(document, None, problems)
