"""The Impact page (`/impact?agent=A`): what the person corrected or ruled on, what was learned
from it, when it reached the agent, and what was said again — the report of
`metaeng-daemon impact`, computed in the background by Compute now (`impact_now`), with the
weekly trend of repeated statements as a chart. Until a computation of this console is done,
the page shows the headline the last `impact` saved, if any (`daemon.doors.impact_headline`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from daemon.config.resolve import Deployment
from daemon.doors.console.charts import Chart, line_chart
from daemon.doors.console.impact_now import ImpactNow, ImpactResult
from daemon.doors.console.pages import Pages, action, polled
from daemon.doors.impact_compute import since_day
from daemon.doors.impact_headline import HeadlineFile, read_headline
from daemon.impact.document import ImpactDocument, ImpactItem
from daemon.kernel.errors import AgentBusy, DaemonError, UnknownAgent


@dataclass(frozen=True)
class ImpactView:
    """A finished report, sorted for the page."""

    document: ImpactDocument
    learned: list[ImpactItem]  # items a fact or a skill was learned from, in the order first said
    never_used: list[ImpactItem]  # of them, those that never reached the agent
    corrections_never_learned: list[ImpactItem]
    other_not_learned: list[ImpactItem]  # preferences and standing instructions no fact was learned from
    trend: Chart


def impact_view(document: ImpactDocument) -> ImpactView:
    """The report as the page shows it: items by what became of them, and the weekly trend chart."""
    weeks = document.trend
    chart = line_chart(
        "Statements per week, and how many were said again",
        "statements",
        [w.week[5:] for w in weeks],
        {
            "all statements": [float(w.statements) for w in weeks],
            "said again": [float(w.repeated) for w in weeks],
            "said again after delivery": [float(w.repeated_after_delivery) for w in weeks],
        },
    )
    learned = [i for i in document.items if not i.never_learned]
    return ImpactView(
        document=document,
        learned=learned,
        never_used=[i for i in learned if i.delivered_at is None],
        corrections_never_learned=[i for i in document.items if i.never_learned and i.kind == "correction"],
        other_not_learned=[i for i in document.items if i.never_learned and i.kind != "correction"],
        trend=chart,
    )


class ImpactPages(Pages):
    def __init__(
        self, deployment: Callable[[], Deployment], clock: Callable[[], datetime], env: Mapping[str, str]
    ) -> None:
        super().__init__(deployment, clock, env)
        self.now = ImpactNow(clock, env)

    async def impact(self, request: Request) -> Response:
        """GET: the agent's last result (or what the saved headline says), and Compute now."""
        deployment = self.deployment()
        try:
            name = deployment.agent(request.query_params.get("agent") or next(iter(deployment.agents))).name
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        return await self._page(request, name, 200)

    async def compute(self, request: Request) -> Response:
        """POST: start computing the agent's impact; the page then polls its progress."""
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        deployment = self.deployment()
        try:
            name = deployment.agent(request.path_params["agent"]).name
            since = since_day(form.get("since") or None, "since")
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except DaemonError as exc:  # a day that is not one: nothing started
            return await self._page(request, name, 400, problem=str(exc))
        try:
            job = self.now.start(deployment, name, request.scope["console_session"], since)
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except AgentBusy as exc:
            return await self._page(request, exc.agent, 409, busy=str(exc))
        return await self._page(request, job.agent, 202)

    async def progress(self, request: Request) -> Response:
        """GET: the computation's progress, then its result; only the fragment for htmx's polling."""
        try:
            name = self.deployment().agent(request.path_params["agent"]).name
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        return await self._page(request, name, 200)

    async def _page(
        self, request: Request, agent: str, status: int, busy: str | None = None, problem: str | None = None
    ) -> Response:
        job = self.now.job(agent)
        # whether it runs, then the result: a job that ends meanwhile polls once more, and one
        # seen ended has its result stored already (it is stored before the job ends)
        running = job is not None and job.running
        result: ImpactResult | None = self.now.result(agent)
        headline: HeadlineFile | None = None
        if result is None:
            try:
                headline = await run_in_threadpool(read_headline, self.deployment().state_dir, agent)
            except DaemonError as exc:  # said beside the problem of the request, if any
                problem = f"{problem} {exc}" if problem else str(exc)
        fragment = polled(request)
        return self.render(
            request,
            "impact_result.html" if fragment else "impact.html",
            status=status,
            agent=agent,
            job=job,
            running=running,
            result=result,
            view=impact_view(result.document) if result else None,
            headline=headline,
            problem=problem,
            busy=busy,
            # the day the form shows: the running computation's, else the shown result's
            since=(job.since if running and job is not None else result.document.since if result else None),
        )


def routes(pages: ImpactPages) -> list[Route]:
    return [
        Route("/impact", pages.impact, methods=["GET"]),
        Route("/impact/{agent}/compute", pages.progress, methods=["GET"]),
        Route("/impact/{agent}/compute", action(pages.compute), methods=["POST"]),
    ]
