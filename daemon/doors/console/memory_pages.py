"""The Memory page (an agent's current facts, searched, with their history) and the fact
page of each entity (its whole timeline, `entity_view`)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from daemon.doors.console import entity_view, memory_view
from daemon.doors.console.pages import Pages
from daemon.kernel.errors import DaemonError, UnknownAgent


class MemoryPages(Pages):
    async def memory(self, request: Request) -> Response:
        deployment = self.deployment()
        name = request.query_params.get("agent") or next(iter(deployment.agents))
        try:
            agent = deployment.agent(name)
            page = await run_in_threadpool(
                memory_view.memory_page,
                deployment.state_dir,
                agent,
                self.clock().date().isoformat(),
                request.query_params.get("q", ""),
            )
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except DaemonError as exc:
            return self.failure(request, exc, 500)
        return self.render(request, "memory.html", page=page, agent=name, q=request.query_params.get("q", ""))


    async def entity(self, request: Request) -> Response:
        agent, entity = request.path_params["agent"], request.path_params["entity"]
        try:
            page = await run_in_threadpool(
                entity_view.entity_page, self.deployment(), agent, entity, self.clock().date().isoformat()
            )
        except (UnknownAgent, entity_view.UnknownEntity) as exc:
            return self.failure(request, exc, 404)
        except DaemonError as exc:
            return self.failure(request, exc, 500)
        return self.render(request, "entity.html", page=page, agent=agent)


def routes(pages: MemoryPages) -> list[Route]:
    return [
        Route("/memory", pages.memory, methods=["GET"]),
        Route("/memory/{agent}/entity/{entity:path}", pages.entity, methods=["GET"]),
    ]
