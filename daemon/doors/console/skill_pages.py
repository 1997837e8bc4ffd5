"""The Skills page (the library's health, each skill's place, the archive), each skill's own
page (`skill_detail`), and their buttons: restore a quarantined or archived skill, pin and unpin."""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from daemon.doors.console import actions, skill_detail, skills_view
from daemon.doors.console.pages import Pages, action
from daemon.kernel.errors import DaemonError, UnknownAgent


class SkillPages(Pages):
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

    async def skill(self, request: Request) -> Response:
        """One skill's page; `?file=REL` shows one of its files as text."""
        return await self._detail(request, skill_detail.skill_detail)

    async def archived_skill(self, request: Request) -> Response:
        """One archived skill's page, with Restore."""
        return await self._detail(request, skill_detail.archived_page)

    async def _detail(self, request: Request, read: Callable[..., skill_detail.SkillDetail]) -> Response:
        agent, name = request.path_params["agent"], request.path_params["name"]
        try:
            page = await run_in_threadpool(
                read, self.deployment(), agent, name, self.clock(), request.query_params.get("file")
            )
        except (UnknownAgent, skill_detail.UnknownSkill) as exc:
            return self.failure(request, exc, 404)
        return self.render(request, "skill.html", page=page, agent=page.agent)

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


def routes(pages: SkillPages) -> list[Route]:
    return [
        Route("/skills", pages.skills, methods=["GET"]),
        Route("/skills/{agent}/{name}", pages.skill, methods=["GET"]),
        Route("/skills/{agent}/archive/{name}", pages.archived_skill, methods=["GET"]),
        Route("/skills/{agent}/{name}/restore", action(pages.restore_skill), methods=["POST"]),
        Route("/skills/{agent}/{name}/{verb:str}", action(pages.pin_skill), methods=["POST"]),
        Route("/skills/{agent}/archive/{name}/restore", action(pages.restore_archived), methods=["POST"]),
    ]
