"""The review queue's page and its Approve/Reject buttons."""

from __future__ import annotations

from typing import Any, Literal

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from daemon.doors.console import actions
from daemon.doors.console.diff import FileDiff, split_patch
from daemon.doors.console.pages import Pages, action
from daemon.kernel.errors import DaemonError, UnknownAgent
from daemon.kernel.review_queue import (
    ReviewError,
    changes_shown,
    list_proposals,
    shown_changes,
    stale_reasons,
)
from daemon.kernel.view import AgentView

# What a kind's `evidence` lists: a consolidation cites the merges it made, a contradiction
# its two sides, the daily-logs tidy the repeats it removed; memory and instruction
# proposals cite turns of the transcripts.
EVIDENCE = {
    "consolidation": "Merges",
    "contradiction": "The two sides",
    "daily-logs": "Repeated notes",
    "memory": "Cited turns",
    "instruction": "Cited turns",
}


class ReviewPages(Pages):
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
                choices = [
                    (c, [_proposal_diff(path, diff) for path, diff in changes_shown(c.changes, view)])
                    for c in proposal.choices
                ]
                items.append(
                    {"agent": name, "p": proposal, "status": status, "diffs": diffs, "why": why, "choices": choices,
                     "evidence": EVIDENCE.get(proposal.kind, "Evidence")}
                )
        items.sort(key=lambda i: (i["status"] not in ("open", "stale"), str(i["p"].created_at)))
        return self.render(request, "review.html", items=items, status_filter=wanted or "")

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
                form.get("keep") or None,
            )
        except UnknownAgent as exc:
            return self.failure(request, exc, 404)
        except (ReviewError, DaemonError) as exc:
            return self.failure(request, exc)
        return self.render(
            request, "done.html", message=done.message, agent=agent, run_id=done.run_id, files=list(done.files)
        )


def routes(pages: ReviewPages) -> list[Route]:
    return [
        Route("/review", pages.review, methods=["GET"]),
        Route("/review/{agent}/{proposal_id}/{verb:str}", action(pages.decide), methods=["POST"]),
    ]


def _proposal_diff(path: str, diff: str) -> FileDiff:
    files = split_patch(f"diff --git a/{path} b/{path}\n{diff}")
    return files[0] if files else FileDiff(path)
