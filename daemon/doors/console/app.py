"""The console's Starlette application: routes, templates, and the guard around them.

GET routes read; POST routes are the buttons (`actions`). Each page is rendered by a
Jinja2 template with autoescaping on, so model-written text (rationales, facts, skill
names, diffs) is always text, never markup.
"""

from __future__ import annotations

import getpass
import hmac
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from daemon.config.resolve import Deployment
from daemon.doors.console import actions, lab_view, memory_view, runs, skills_view
from daemon.doors.console.auth import Session, Sessions
from daemon.doors.console.diff import FileDiff, split_patch
from daemon.doors.console.request_guard import Guard, allowed_hosts
from daemon.doors.status import build_status
from daemon.kernel import redact
from daemon.kernel.errors import DaemonError, UndoRefused, UnknownAgent, UnknownRun
from daemon.kernel.review_queue import ReviewError, list_proposals, shown_changes, stale_reasons
from daemon.kernel.view import AgentView
from daemon.lab.adopt import KIND as ADOPTION_KIND
from daemon.wiring.pass_registry import default_registry
from daemon.wiring.undo import preview

HERE = Path(__file__).parent
TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)

# Runs a person asks for, by their label, beside the passes in the Runs page's filter.
MANUAL_RUNS = {"undo", "review-approve", "curator", "skills-pin", "skills-unpin", "skills-restore"}


class Console:
    """Request handlers over a deployment provider (the service swaps it on reload)."""

    def __init__(
        self,
        deployment: Callable[[], Deployment],
        clock: Callable[[], datetime],
        env: Mapping[str, str],
    ) -> None:
        self.deployment = deployment
        self.clock = clock
        self.user = env.get("USER") or _user()

    # -- helpers -------------------------------------------------------------------------
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

    # -- pages ---------------------------------------------------------------------------
    async def agents(self, request: Request) -> Response:
        report = await run_in_threadpool(
            build_status, self.deployment(), now=self.clock(), registry=default_registry()
        )
        return self.render(request, "agents.html", report=report)

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

    async def review(self, request: Request) -> Response:
        deployment = self.deployment()
        try:
            names = self._agents(request)
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        wanted = request.query_params.get("status") or None
        items: list[dict[str, Any]] = []
        for name in names:
            view = AgentView(deployment.agents[name].home)
            for proposal in list_proposals(view):
                status = proposal.status(view)
                if wanted and status != wanted:
                    continue
                # Computed from the files and the content approval writes, never the stored diff.
                diffs = [_proposal_diff(path, diff) for path, diff in shown_changes(proposal, view)]
                why = list(stale_reasons(proposal, view).values()) if status == "stale" else []
                items.append({"agent": name, "p": proposal, "status": status, "diffs": diffs, "why": why})
        items.sort(key=lambda i: (i["status"] not in ("open", "stale"), str(i["p"].created_at)))
        return self.render(request, "review.html", items=items, status_filter=wanted or "")

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

    async def skills(self, request: Request) -> Response:
        deployment = self.deployment()
        name = request.query_params.get("agent") or next(iter(deployment.agents))
        try:
            page = await run_in_threadpool(
                skills_view.skills_page, deployment.agent(name), deployment.state_dir, self.clock()
            )
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        return self.render(request, "skills.html", page=page, agent=name)

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

    # -- buttons -------------------------------------------------------------------------
    async def undo(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        return await self._undo(request, request.path_params["agent"], request.path_params["run_id"])

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

    async def decide(self, request: Request) -> Response:
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        if request.path_params["verb"] not in ("approve", "reject"):
            return self.failure(request, DaemonError("the review actions are approve and reject"), 404)
        verb: Literal["approve", "reject"] = "approve" if request.path_params["verb"] == "approve" else "reject"
        agent, pid = request.path_params["agent"], request.path_params["proposal_id"]
        try:
            done = await run_in_threadpool(
                actions.decide_proposal,
                self.deployment(),
                agent,
                pid,
                verb,
                form.get("why", "")[:2000],
                self.clock(),
                request.scope["console_session"],
                self.user,
            )
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except (ReviewError, DaemonError) as exc:
            return self.failure(request, exc)
        return self.render(
            request, "done.html", message=done.message, agent=agent, run_id=done.run_id, files=list(done.files)
        )

    async def restore_skill(self, request: Request) -> Response:
        """Undo the run that quarantined the skill (`undo RUN_ID`): the copy goes back, as a run."""
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        agent, name = request.path_params["agent"], request.path_params["name"]
        try:
            rows, _problems = await run_in_threadpool(skills_view.skill_rows, self.deployment().agent(agent))
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        run_id = next((r.quarantine_run for r in rows if r.skill.name == name and r.quarantine_run), None)
        if run_id is None:
            return self.failure(request, DaemonError(f"skill {name!r} of agent {agent} is not quarantined by a run"), 404)
        return await self._undo(request, agent, run_id)

    async def pin_skill(self, request: Request) -> Response:
        """`skills pin|unpin NAME`: the curator never moves a pinned skill."""
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        verb = request.path_params["verb"]
        if verb not in ("pin", "unpin"):
            return self.failure(request, DaemonError("the pin actions are pin and unpin"), 404)
        agent, name = request.path_params["agent"], request.path_params["name"]
        deployment, now, session = self.deployment(), self.clock(), request.scope["console_session"]
        return await self._skill_action(
            request, agent, lambda: actions.pin_skill(deployment, agent, name, verb == "pin", now, session)
        )

    async def restore_archived(self, request: Request) -> Response:
        """`skills restore NAME`: an archived skill back into the learned library."""
        form = await self._form(request)
        if isinstance(form, Response):
            return form
        agent, name = request.path_params["agent"], request.path_params["name"]
        deployment, now, session = self.deployment(), self.clock(), request.scope["console_session"]
        return await self._skill_action(
            request, agent, lambda: actions.restore_archived(deployment, agent, name, now, session)
        )

    async def _skill_action(self, request: Request, agent: str, act: Callable[[], actions.Done]) -> Response:
        try:
            done = await run_in_threadpool(act)
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except DaemonError as exc:
            return self.failure(request, exc)
        return self.render(
            request, "done.html", message=done.message, agent=agent, run_id=done.run_id, files=list(done.files)
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


def _action(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """A button's route: htmx keeps the page's own address, so a reload never re-sends the POST."""

    async def route(request: Request) -> Response:
        response = await handler(request)
        response.headers["HX-Push-Url"] = "false"
        return response

    return route


def _proposal_diff(path: str, diff: str) -> FileDiff:
    files = split_patch(f"diff --git a/{path} b/{path}\n{diff}")
    return files[0] if files else FileDiff(path)


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def build_app(
    deployment: Callable[[], Deployment],
    sessions: Sessions,
    *,
    clock: Callable[[], datetime],
    env: Mapping[str, str],
    hostnames: tuple[str, ...] = (),
) -> Guard:
    """The console as an ASGI app, wrapped in its guard (hosts, session, origin, headers)."""
    console = Console(deployment, clock, env)
    app = Starlette(
        routes=[
            Route("/", lambda request: RedirectResponse("/agents", 303), methods=["GET"]),
            Route("/agents", console.agents, methods=["GET"]),
            Route("/agents/{agent}/breaker/reset", _action(console.breaker_reset), methods=["POST"]),
            Route("/runs", console.runs, methods=["GET"]),
            Route("/runs/{agent}/{run_id}", console.run, methods=["GET"]),
            Route("/runs/{agent}/{run_id}/undo", _action(console.undo), methods=["POST"]),
            Route("/review", console.review, methods=["GET"]),
            Route("/review/{agent}/{proposal_id}/{verb:str}", _action(console.decide), methods=["POST"]),
            Route("/memory", console.memory, methods=["GET"]),
            Route("/skills", console.skills, methods=["GET"]),
            Route("/skills/{agent}/{name}/restore", _action(console.restore_skill), methods=["POST"]),
            Route("/skills/{agent}/{name}/{verb:str}", _action(console.pin_skill), methods=["POST"]),
            Route("/skills/{agent}/archive/{name}/restore", _action(console.restore_archived), methods=["POST"]),
            Route("/lab", console.lab, methods=["GET"]),
            Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static"),
        ]
    )
    return Guard(app, sessions, allowed_hosts(hostnames), clock)
