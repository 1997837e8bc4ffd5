"""The console's Starlette application: each area's routes, and the guard around them.

GET routes read; POST routes are the buttons (`actions`). The pages of each area live in
their own module (`agent_pages`, `run_pages`, `review_pages`, `memory_pages`,
`skill_pages`, `impact_pages`) over what they share (`pages`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from starlette.applications import Starlette
from starlette.responses import RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from daemon.config.resolve import Deployment
from daemon.doors.console import agent_pages, impact_pages, memory_pages, review_pages, run_pages, skill_pages
from daemon.doors.console.auth import Sessions
from daemon.doors.console.pages import HERE
from daemon.doors.console.request_guard import Guard, allowed_hosts


def build_app(
    deployment: Callable[[], Deployment],
    sessions: Sessions,
    *,
    clock: Callable[[], datetime],
    env: Mapping[str, str],
    hostnames: tuple[str, ...] = (),
) -> Guard:
    """The console as an ASGI app, wrapped in its guard (hosts, session, origin, headers)."""
    args = (deployment, clock, env)
    app = Starlette(
        routes=[
            Route("/", lambda request: RedirectResponse("/agents", 303), methods=["GET"]),
            *agent_pages.routes(agent_pages.AgentPages(*args)),
            *run_pages.routes(run_pages.RunPages(*args)),
            *review_pages.routes(review_pages.ReviewPages(*args)),
            *memory_pages.routes(memory_pages.MemoryPages(*args)),
            *skill_pages.routes(skill_pages.SkillPages(*args)),
            *impact_pages.routes(impact_pages.ImpactPages(*args)),
            Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
        ]
    )
    return Guard(app, sessions, allowed_hosts(hostnames), clock)
