"""What every console page shares: the templates, rendering (masked as a whole), refusals,
the form token check of a button, and undoing a run (the run page's and the skill page's
buttons both do it).

Jinja2 renders with autoescaping on, so model-written text (rationales, facts, skill
names, diffs) is always text, never markup.
"""

from __future__ import annotations

import getpass
import hmac
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import jinja2
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from daemon.config.resolve import Deployment
from daemon.doors.console import actions, runs, when
from daemon.doors.console.auth import Session
from daemon.kernel import redact
from daemon.kernel.errors import DaemonError, UndoRefused, UnknownAgent, UnknownRun

HERE = Path(__file__).parent
TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)
TEMPLATES.filters.update(when.FILTERS)  # the <time> macro of templates/time.html


class Pages:
    """Request handlers over a deployment provider (the service swaps it on reload); each
    area of the console (agents, runs, review, memory, skills) is a subclass."""

    def __init__(
        self,
        deployment: Callable[[], Deployment],
        clock: Callable[[], datetime],
        env: Mapping[str, str],
    ) -> None:
        self.deployment = deployment
        self.clock = clock
        self.user = env.get("USER") or _user()

    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        session: Session = request.scope["console_session"]
        deployment = self.deployment()
        body = TEMPLATES.get_template(template).render(
            form_token=session.form_token,
            agents=list(deployment.agents),
            path=request.url.path,
            **context,
        )
        # Masked as a whole page, not field by field: a value shown in one more place (a
        # tooltip, a history line) must not be the one place a secret gets out.
        return HTMLResponse(redact.redact(body), status_code=status)

    def failure(self, request: Request, exc: Exception, status: int = 409, **context: Any) -> HTMLResponse:
        return self.render(request, "refused.html", status=status, error=str(exc), **context)

    def _agents(self, request: Request) -> list[str]:
        deployment = self.deployment()
        agent = request.query_params.get("agent") or None
        return [deployment.agent(agent).name] if agent else list(deployment.agents)

    async def _form(self, request: Request) -> dict[str, str] | Response:
        """The POSTed form if it carries this session's form token; a 403 page otherwise."""
        session: Session = request.scope["console_session"]
        form = await request.form()
        offered = form.get("form_token")
        if not isinstance(offered, str) or not hmac.compare_digest(offered, session.form_token):
            return HTMLResponse("<p>403: missing or wrong form token; reload the page and try again</p>", 403)
        return {k: v for k, v in form.items() if isinstance(v, str)}

    async def _undo(self, request: Request, agent: str, run_id: str) -> Response:
        session: Session = request.scope["console_session"]
        deployment = self.deployment()
        try:
            result = await run_in_threadpool(actions.undo_run, deployment, agent, run_id, self.clock(), session)
        except UndoRefused as exc:
            blockers = await run_in_threadpool(runs.blockers, deployment, agent, run_id, exc.files)
            return self.failure(request, exc, blockers=blockers, files=exc.files, agent=agent, run_id=run_id)
        except (UnknownAgent, UnknownRun) as exc:
            return self.failure(request, exc, 404)
        except DaemonError as exc:
            return self.failure(request, exc)
        return self.render(
            request,
            "done.html",
            message=f"run {run_id} undone by run {result.run_id} on agent {result.agent}",
            agent=result.agent,
            run_id=result.run_id,
            files=[*result.files, *result.proposals.lines()],
        )


def action(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """A button's route: htmx keeps the page's own address, so a reload never re-sends the POST."""

    async def route(request: Request) -> Response:
        response = await handler(request)
        response.headers["HX-Push-Url"] = "false"
        return response

    return route



def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def polled(request: Request) -> bool:
    """Whether htmx asks for a fragment (a status block polling itself), not a whole page: a
    boosted navigation sends HX-Request too, with HX-Boosted."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"
