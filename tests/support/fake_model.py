"""A small OpenAI-compatible server on 127.0.0.1 that replays scripted answers.

The real `openai` SDK talks to it over HTTP, so the real request (with its JSON Schema)
and our own validation run in every test. It records every request it receives.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str | None = None
    status: int = 200
    prompt_tokens: int | None = 120
    completion_tokens: int | None = 40
    # Of prompt_tokens, how many the server says it had cached (prompt_tokens_details).
    cached_tokens: int | None = None
    finish_reason: str = "stop"
    delay: float = 0.0
    raw_body: bytes | None = None
    # Answer only once the test sets this event (at most HOLD_SECONDS): deterministic "while
    # the model thinks" windows, whatever the machine's load.
    hold: threading.Event | None = None
    respond: Callable[[dict[str, Any]], Any] | None = None  # content computed from the request body
    # "status": the whole answer, status line first, one byte every TRICKLE_SECONDS; "body":
    # the status line and headers at once, then the body so. A slow but finite answer (a
    # valid one, a minute or more late) that never leaves one socket read waiting long.
    trickle: str = ""


HOLD_SECONDS = 120.0
TRICKLE_SECONDS = 0.2
# How long `stop` waits for the accept loop to end before it fails the test with every
# thread's stack (socketserver's own `shutdown` would wait forever).
STOP_SECONDS = 15.0


class _Listener(ThreadingHTTPServer):
    # socketserver's default backlog is 5: a burst of clients (the fleet test runs 48 at
    # once) overflows it and connections fail before the server ever sees them.
    request_queue_size = 256


@dataclass
class FakeModelServer:
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    _queues: dict[str, deque[Reply]] = field(default_factory=dict)
    _server: _Listener | None = None
    _loop: threading.Thread | None = None
    _listener_id: tuple[int, int] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def reply(self, content: Any = None, *, schema: str = "*", **kwargs: Any) -> None:
        """Queue one answer; `content` is JSON-encoded unless it is already a string.

        A callable `content` is called with the request body when the request arrives, and
        what it returns is the answer (for answers that depend on what was asked)."""
        if callable(content):
            kwargs["respond"], content = content, None
        text = content if isinstance(content, str) or content is None else json.dumps(content)
        with self._lock:
            self._queues.setdefault(schema, deque()).append(Reply(content=text, **kwargs))

    def clear(self) -> None:
        """Drop every queued answer not consumed."""
        with self._lock:
            self._queues.clear()

    def pending(self) -> int:
        return sum(len(q) for q in self._queues.values())

    def schema_names(self) -> list[str]:
        names = []
        for body in self.requests:
            fmt = body.get("response_format") or {}
            names.append((fmt.get("json_schema") or {}).get("name", fmt.get("type", "")))
        return names

    def _next(self, body: dict[str, Any]) -> Reply | None:
        fmt = body.get("response_format") or {}
        name = (fmt.get("json_schema") or {}).get("name")
        with self._lock:
            for key in (name, "*"):
                if key and self._queues.get(key):
                    return self._queues[key].popleft()
        return None

    def start(self) -> FakeModelServer:
        server_ref = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"_unparsed": raw.decode("utf-8", "replace")}
                with server_ref._lock:
                    server_ref.requests.append(body)
                    server_ref.headers.append({k.lower(): v for k, v in self.headers.items()})
                reply = server_ref._next(body)
                if reply is None:
                    self._send(
                        500,
                        json.dumps({"error": {"message": "no scripted reply left", "type": "test"}}).encode(),
                    )
                    return
                if reply.hold is not None:
                    reply.hold.wait(HOLD_SECONDS)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.respond is not None:
                    answer = reply.respond(body)
                    reply.content = answer if isinstance(answer, str) else json.dumps(answer)
                if reply.raw_body is not None:
                    self._send(reply.status, reply.raw_body)
                    return
                if reply.status != 200:
                    self._send(
                        reply.status,
                        json.dumps({"error": {"message": "scripted failure", "type": "test"}}).encode(),
                    )
                    return
                usage = None
                if reply.prompt_tokens is not None and reply.completion_tokens is not None:
                    usage = {
                        "prompt_tokens": reply.prompt_tokens,
                        "completion_tokens": reply.completion_tokens,
                        "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                    }
                    if reply.cached_tokens is not None:
                        usage["prompt_tokens_details"] = {"cached_tokens": reply.cached_tokens}
                payload = {
                    "id": f"chatcmpl-{len(server_ref.requests)}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", "fake"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply.content},
                            "finish_reason": reply.finish_reason,
                        }
                    ],
                    "usage": usage,
                }
                self._send(200, json.dumps(payload).encode(), reply.trickle)

            def _send(self, status: int, data: bytes, trickle: str = "") -> None:
                try:
                    if trickle:
                        self._trickle(status, data, trickle)
                        return
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _trickle(self, status: int, data: bytes, trickle: str) -> None:
                self.close_connection = True
                head = (
                    f"HTTP/1.1 {status} OK\r\ncontent-type: application/json\r\n"
                    f"content-length: {len(data)}\r\nconnection: close\r\n\r\n"
                ).encode()
                if trickle == "body":
                    self.wfile.write(head)
                    head = b""
                answer = head + data
                for index in range(len(answer)):  # until the client goes away (BrokenPipeError)
                    time.sleep(TRICKLE_SECONDS)
                    self.wfile.write(answer[index : index + 1])

        self._server = _Listener(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # Non-blocking: the accept loop must never block in accept() (socketserver's own
        # listener blocks, so a second loop on the same descriptor — after something closed
        # ours and the number was reused — would hang the loop, and `stop`, for ever).
        self._server.socket.setblocking(False)
        self._listener_id = _identity(self._server.socket.fileno())
        self._loop = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._loop.start()
        return self

    def stop(self) -> None:
        server, loop = self._server, self._loop
        self._server = self._loop = None
        if server is None or loop is None:
            return
        stopper = threading.Thread(target=server.shutdown, daemon=True)
        stopper.start()
        stopper.join(STOP_SECONDS)
        fileno = server.socket.fileno()
        ours = _identity(fileno) == self._listener_id
        # Still listening: a shutdown by number (code acting on a descriptor it no longer owns)
        # stops a listener without closing it, and refuses every later request just the same.
        listening = ours and server.socket.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
        if ours:
            server.server_close()
        else:
            server.socket.detach()  # the number is someone else's now: never close it again
        if stopper.is_alive():
            raise AssertionError(
                f"the scripted model server's accept loop did not stop within {STOP_SECONDS:g}s; "
                f"every thread's stack:\n{_stacks()}"
            )
        if not listening:
            # Code in this test acted on a descriptor it did not own, and it was this listener's:
            # every request to this port after that was refused. Find it; never hide it.
            raise AssertionError(
                f"the scripted model server's listening socket (descriptor {fileno}) was "
                f"{'shut down' if ours else 'closed'} by something else during this test"
            )


def _identity(fileno: int) -> tuple[int, int] | None:
    try:
        st = os.fstat(fileno)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _stacks() -> str:
    frames = sys._current_frames()
    return "\n".join(
        f"--- {thread.name}\n" + "".join(traceback.format_stack(frames[thread.ident]))
        for thread in threading.enumerate()
        if thread.ident in frames
    )
