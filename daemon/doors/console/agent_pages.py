"""The Agents page (each agent's status, its breaker's reset button) and the Lab page."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from daemon.doors.console import actions, lab_view
from daemon.doors.console.pages import Pages, action
from daemon.doors.status import build_status
from daemon.kernel.errors import DaemonError, UnknownAgent
from daemon.kernel.review_queue import list_proposals
from daemon.kernel.view import AgentView
from daemon.lab.adopt import KIND as ADOPTION_KIND
from daemon.wiring.pass_registry import default_registry


class AgentPages(Pages):
    async def agents(self, request: Request) -> Response:
        report = await run_in_threadpool(
            build_status, self.deployment(), now=self.clock(), registry=default_registry()
        )
        return self.render(request, "agents.html", report=report)

    async def lab(self, request: Request) -> Response:
        deployment = self.deployment()
        console = deployment.config.console
        folders = [deployment.path.parent / p for p in (console.lab_ledgers if console else [])]
        found = await run_in_threadpool(lab_view.ledgers, folders)
        spend = await run_in_threadpool(
            lab_view.spend_chart, deployment.state_dir, list(deployment.agents), self.clock().date()
        )
        proposals = []
        for name, agent in deployment.agents.items():
            view = AgentView(agent.home)
            proposals += [
                {"agent": name, "p": p, "status": p.status(view)}
                for p in list_proposals(view)
                if p.kind == ADOPTION_KIND
            ]
        return self.render(
            request, "lab.html", ledgers=found, spend=spend, proposals=proposals, folders=folders
        )

    async def breaker_reset(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        try:
            done = await run_in_threadpool(
                actions.reset_breaker, self.deployment(), request.path_params["agent"], request.scope["console_session"]
            )
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except DaemonError as exc:
            return self.failure(request, exc)
        return self.render(request, "done.html", message=done.message, agent=None, run_id=None, files=[])


def routes(pages: AgentPages) -> list[Route]:
    return [
        Route("/agents", pages.agents, methods=["GET"]),
        Route("/agents/{agent}/breaker/reset", action(pages.breaker_reset), methods=["POST"]),
        Route("/lab", pages.lab, methods=["GET"]),
    ]
