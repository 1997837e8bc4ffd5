"""The console's security rules, checked before any route runs (docs/explanation/console.md).

1. Host allow-list (localhost, 127.0.0.1, [::1] and the configured names): a DNS-rebinding
   page that resolves its own name to 127.0.0.1 gets 403.
2. No session, no page: `?token=` (compared in constant time) starts a session, sets an
   HttpOnly, SameSite=Strict cookie and redirects to the same path without the token.
   Static files (htmx, CSS) need no session: they are public code.
3. Any method but GET/HEAD must come from this origin: `Sec-Fetch-Site: same-origin`, or
   without that header an `Origin` equal to the request's own; the per-session form token
   is checked by each action (`forms.require_form_token`), since it sits in the body.
4. Every response carries a strict Content-Security-Policy (`default-src 'self'`, no
   inline script or style), nosniff, no framing, no referrer, no caching.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from datetime import datetime
from urllib.parse import urlencode

import structlog
from starlette.datastructures import URL
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from daemon.doors.console.auth import COOKIE, Sessions

log = structlog.get_logger("metaeng.console")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]", "::1")
SAFE_METHODS = ("GET", "HEAD")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def host_name(host_header: str) -> str:
    """The name part of a Host header (`[::1]:8765` → `[::1]`, `localhost:80` → `localhost`)."""
    if host_header.startswith("["):
        return host_header.split("]", 1)[0] + "]"
    return host_header.rsplit(":", 1)[0] if ":" in host_header else host_header


def allowed_hosts(extra: Iterable[str]) -> frozenset[str]:
    return frozenset(n.lower() for n in (*LOOPBACK_NAMES, *extra))


def same_origin(request: Request) -> bool:
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site == "same-origin"
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    return origin is not None and origin in (f"http://{host}", f"https://{host}")


class Guard:
    """ASGI middleware enforcing rules 1-4 above around the console's routes."""

    def __init__(
        self, app: ASGIApp, sessions: Sessions, hosts: frozenset[str], clock: Callable[[], datetime]
    ) -> None:
        self.app = app
        self.sessions = sessions
        self.hosts = hosts
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() not in _LOWER]
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        if refusal is not None:
            await refusal(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    def _refusal(self, request: Request) -> Response | None:
        host = host_name(request.headers.get("host", "")).lower()
        if host not in self.hosts:
            log.warning("console.refused", why="host", host=host[:100], path=request.url.path)
            return PlainTextResponse(
                f"403: host {host!r} is not allowed; add it to console.hostnames if you reach the console by that name",
                status_code=403,
            )
        if request.url.path.startswith("/static/"):
            return None
        offered = request.query_params.get("token")
        if offered is not None and request.method in SAFE_METHODS:
            return self._login(request, offered)
        session = self.sessions.get(request.cookies.get(COOKIE))
        if session is None:
            log.warning("console.refused", why="no session", path=request.url.path)
            return _no_session(request)
        if request.method not in SAFE_METHODS and not same_origin(request):
            log.warning("console.refused", why="cross-site", session=session.label, path=request.url.path)
            return PlainTextResponse(
                "403: a state-changing request must come from the console's own pages "
                "(Sec-Fetch-Site: same-origin or a matching Origin)",
                status_code=403,
            )
        request.scope["console_session"] = session
        return None

    def _login(self, request: Request, offered: str) -> Response:
        if not self.sessions.token_matches(offered):
            log.warning("console.refused", why="wrong token", path=request.url.path)
            return PlainTextResponse("401: wrong token; open the link printed by `metaeng-daemon console`", 401)
        session = self.sessions.start(self.clock())
        log.info("console.login", session=session.label)
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
        target = URL(path=local_path(request.url.path), query=urlencode(rest))
        response = RedirectResponse(str(target), status_code=303)
        response.set_cookie(COOKIE, session.id, httponly=True, samesite="strict", path="/")
        return response


_LOWER = {k.lower() for k in HEADERS}


def local_path(path: str) -> str:
    """`path` if it can only name a page of this console, else "/".

    A browser reads `//host/x` (and `/\\host/x`) as another site: a link or redirect built from
    the requested path must not send a person there.
    """
    if not path.startswith("/") or path.startswith(("//", "/\\")):
        return "/"
    return path


def _no_session(request: Request) -> Response:
    # A link followed from another site (a notification in a chat) arrives without the
    # SameSite=Strict cookie; a click on this same-site link then carries it.
    path = html.escape(local_path(request.url.path))
    body = (
        "<!doctype html><title>metaeng console: no session</title>"
        "<p>401: no console session. Open the link that <code>metaeng-daemon console</code> printed "
        "(it carries <code>?token=</code>, read from the token file in the state folder).</p>"
        f'<p>Already logged in in this browser? <a href="{path}">Open {path} again from here</a>.</p>'
    )
    return HTMLResponse(body, status_code=401)
