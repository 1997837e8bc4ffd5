"""The Runs page (every run, filtered by agent and pass) and a run's page with its Undo button."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from daemon.doors.console import runs
from daemon.doors.console.pages import Pages, action
from daemon.kernel.errors import DaemonError, UnknownAgent, UnknownRun
from daemon.wiring.undo import preview

# Runs a person asks for, by their label, beside the passes in the Runs page's filter.
MANUAL_RUNS = {"undo", "review-approve", "curator", "skills-pin", "skills-unpin", "skills-restore"}


class RunPages(Pages):
    async def runs(self, request: Request) -> Response:
        deployment = self.deployment()
        try:
            names = self._agents(request)
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        pass_name = request.query_params.get("pass") or None
        rows = await run_in_threadpool(runs.list_runs, deployment, names, pass_name)
        passes = sorted({p for a in deployment.agents.values() for p in a.passes} | MANUAL_RUNS)
        return self.render(
            request,
            "runs.html",
            rows=rows,
            passes=passes,
            agent=request.query_params.get("agent", ""),
            pass_name=pass_name or "",
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


def routes(pages: RunPages) -> list[Route]:
    return [
        Route("/runs", pages.runs, methods=["GET"]),
        Route("/runs/{agent}/{run_id}", pages.run, methods=["GET"]),
        Route("/runs/{agent}/{run_id}/undo", action(pages.undo), methods=["POST"]),
    ]
