"""The Runs page (paginated, filtered by agent and pass, searched), a run's page with its
Undo button, and Run now (`once --agent A [--pass P]`) with its progress."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from daemon.config.resolve import Deployment
from daemon.doors.console import run_search, runs
from daemon.doors.console.pages import Pages, action, polled
from daemon.doors.console.run_now import RunNow
from daemon.kernel import lock_probe
from daemon.kernel.errors import AgentBusy, DaemonError, UnknownAgent, UnknownRun
from daemon.kernel.settings import PASS_ORDER
from daemon.run.session import agent_state
from daemon.wiring.undo import preview

# Runs a person asks for, by their label, beside the passes in the Runs page's filter.
MANUAL_RUNS = {"undo", "review-approve", "curator", "skills-pin", "skills-unpin", "skills-restore"}


class RunPages(Pages):
    def __init__(
        self, deployment: Callable[[], Deployment], clock: Callable[[], datetime], env: Mapping[str, str]
    ) -> None:
        super().__init__(deployment, clock, env)
        self.now = RunNow(clock, env)  # Run now needs the model key from the environment, as `once` does

    async def runs(self, request: Request) -> Response:
        deployment = self.deployment()
        try:
            names = self._agents(request)
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        query = run_search.parse_query(names, dict(request.query_params))
        found = await run_in_threadpool(run_search.run_page, deployment, query)
        kept = {
            "agent": request.query_params.get("agent", ""),
            "pass": query.pass_name or "",
            "q": query.text or "",
            "size": str(query.size) if query.size != run_search.PAGE else "",
        }

        def link(page: int) -> str:
            params = {k: v for k, v in {**kept, "page": str(page) if page > 1 else ""}.items() if v}
            return "/runs" + (f"?{urlencode(params)}" if params else "")

        passes = sorted({p for a in deployment.agents.values() for p in a.passes} | MANUAL_RUNS)
        return self.render(
            request,
            "runs.html",
            found=found,
            query=query,
            passes=passes,
            run_passes=PASS_ORDER,
            agent=kept["agent"],
            pass_name=kept["pass"],
            text=kept["q"],
            newer=link(query.page - 1) if found.has_newer else None,
            older=link(query.page + 1) if found.has_older else None,
            sizes=sorted({25, run_search.PAGE, 100, run_search.MAX_PAGE, query.size}),
        )

    async def run(self, request: Request) -> Response:
        agent, run_id = request.path_params["agent"], request.path_params["run_id"]
        try:
            detail = await run_in_threadpool(runs.run_detail, self.deployment(), agent, run_id)
        except (UnknownAgent, UnknownRun) as exc:
            return self.failure(request, exc, 404)
        # what the undo button would restore and withdraw, for its confirm (None: it would be refused)
        undoing = None
        if not detail.row.undone_by:
            try:
                undoing = await run_in_threadpool(preview, self.deployment(), agent, run_id)
            except DaemonError:
                undoing = None
        return self.render(request, "run.html", detail=detail, agent=agent, undoing=undoing)

    async def undo(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        return await self._undo(request, request.path_params["agent"], request.path_params["run_id"])

    async def run_now(self, request: Request) -> Response:
        """POST: start `once --agent A [--pass P]`; the page then polls its progress."""
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        deployment = self.deployment()
        try:
            job = self.now.start(deployment, request.path_params["agent"], form.get("pass") or None, request.scope["console_session"])
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except AgentBusy as exc:
            return self._status(request, exc.agent, 409, busy=str(exc))
        except DaemonError as exc:
            return self.failure(request, exc, 404)
        return self._status(request, job.agent, 202)

    async def run_now_status(self, request: Request) -> Response:
        """GET: the progress of the agent's Run now; only the fragment for htmx's polling."""
        try:
            name = self.deployment().agent(request.path_params["agent"]).name
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        return self._status(request, name, 200)

    def _status(self, request: Request, agent: str, status: int, busy: str | None = None) -> Response:
        job = self.now.job(agent)
        elsewhere = (job is None or not job.running) and lock_probe.held(agent_state(self.deployment(), agent).run_lock)
        fragment = polled(request)
        return self.render(
            request,
            "run_now_status.html" if fragment else "run_now.html",
            status=status,
            agent=agent,
            job=job,
            progress=list(job.progress) if job else [],
            busy=busy,
            elsewhere=elsewhere,
        )


def routes(pages: RunPages) -> list[Route]:
    return [
        Route("/runs", pages.runs, methods=["GET"]),
        Route("/runs/{agent}/now", pages.run_now_status, methods=["GET"]),  # before /runs/{agent}/{run_id}
        Route("/runs/{agent}/now", action(pages.run_now), methods=["POST"]),
        Route("/runs/{agent}/{run_id}", pages.run, methods=["GET"]),
        Route("/runs/{agent}/{run_id}/undo", action(pages.undo), methods=["POST"]),
    ]
