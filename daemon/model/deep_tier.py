"""The deep-tier model client: the one door for model calls (docs/explanation/deep-tier.md).

One `DeepTier` per run and agent. Each call:
1. builds the request (strict JSON Schema generated from a pydantic model, flat);
2. reserves an upper bound of its cost (request bytes — a token is at least one byte —
   at the input price, plus `max_output_tokens` at the output price) in the spend
   ledger; the first call of a run also consumes one deep pass of the daily cap;
3. calls the server once: no fallback model, no silent retries (`max_retries=0`), and
   at most `timeout_seconds` in all — connecting, sending, waiting and reading — however
   slowly the server trickles its answer (`daemon.kernel.exchange_deadline`: the SDK's own timeout
   bounds each socket read, not the call);
4. settles the ledger to the real usage; a call whose request provably never reached the
   server (`daemon.model.unsent`: refused, unresolved, TLS failed) settles at zero; a
   failed call that may have been processed, or an answer without usage, keeps its
   reservation (the ledger records which: `answered`, `unsent`, `kept`);
5. refuses an answer that contains a registered secret (a server or proxy that echoes the
   key) as tainted, before anything reads it;
6. validates the answer again with pydantic: the schema constrains the shape, it proves
   nothing about the content, and some servers ignore it.

The API key is passed in by the edge; it never reaches a log, a record or a report:
every detail and message built from a failure passes through `daemon.kernel.redact`, and an
exception the SDK raises becomes ModelUnavailable naming only its type.
"""

from __future__ import annotations

import hashlib
import json
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from daemon.kernel import redact
from daemon.kernel.errors import ModelResponseInvalid, ModelUnavailable
from daemon.kernel.exchange_deadline import Deadline
from daemon.kernel.json_contract import RequestBody
from daemon.kernel.settings import ModelSettings
from daemon.model.coordination_protocol import AgentBreaker, Ledger
from daemon.model.spend import Reservation
from daemon.model.strict_schema import flat_schema
from daemon.model.unsent import never_sent
from daemon.model.usage_price import priced

T = TypeVar("T", bound=BaseModel)
REQUEST_OVERHEAD_BYTES = 1024


def build_request(
    model: ModelSettings, system: str, user: str, response_model: type[BaseModel]
) -> tuple[list[dict[str, str]], RequestBody, str]:
    """The messages, response format and serialised body a call sends (its size is the body's)."""
    schema = flat_schema(response_model)
    messages: list[dict[str, str]] = [
        {"role": "system", "content": system},
        {"role": "user", "content": user},
    ]
    if model.output_format == "json_schema":
        response_format: RequestBody = {
            "type": "json_schema",
            "json_schema": {"name": response_model.__name__, "strict": True, "schema": schema},
        }
    else:
        response_format = {"type": "json_object", "schema": schema}
        # After the user's content, not in the system message: the requests of a run's
        # passes then share their system message and turns as one cacheable prefix.
        messages[1]["content"] = (
            f"{user}\n\nAnswer with one JSON object matching this JSON Schema:\n{json.dumps(schema, separators=(',', ':'))}"
        )
    request_body = json.dumps({"messages": messages, "response_format": response_format}, ensure_ascii=False)
    return messages, response_format, request_body


@dataclass(frozen=True)
class CallRecord:
    purpose: str
    status: str  # ok | invalid | error | refused
    reserved_usd: float
    cost_usd: float | None
    input_tokens: int | None
    output_tokens: int | None
    prompt_sha256: str
    detail: str = ""
    cached_tokens: int | None = None  # of input_tokens, as the server reported them
    saved_usd: float = 0.0  # what the cached tokens cost less than at the input price


@dataclass(frozen=True)
class CallResult(Generic[T]):
    value: T
    raw: str
    record: CallRecord


@dataclass
class DeepTier:
    """Model access for one run of one agent."""

    model: ModelSettings | None
    api_key: str | None
    ledger: Ledger
    agent: str
    run_id: str
    now: datetime
    deployment_budget_usd: float
    agent_budget_usd: float
    deep_cap: int
    unavailable_reason: str | None = None
    breaker: AgentBreaker | None = None
    # Why model calls may not be made now as far as the fleet is concerned (the run lock
    # lost, the coordination database down); None: no fleet check.
    fleet_refusal: Callable[[], str | None] | None = None
    # When each call happens (ledger entries carry it); None: the run's `now`.
    clock: Callable[[], datetime] | None = None
    calls: list[CallRecord] = field(default_factory=list)
    _client: Any = None
    _deadline: Deadline = field(default_factory=Deadline)

    def __post_init__(self) -> None:
        redact.register(self.api_key)  # already registered by the edge; a direct caller gets it too

    def _time(self) -> datetime:
        return self.clock() if self.clock is not None else self.now

    def availability(self) -> str | None:
        """None if calls can be attempted, else the reason they cannot."""
        if self.unavailable_reason:
            return self.unavailable_reason
        if self.model is None:
            return "no model configured (add a `model:` section to the config)"
        if self.fleet_refusal is not None:
            refusal = self.fleet_refusal()
            if refusal:
                return refusal
        if self.breaker is not None:
            return self.breaker.refusal(self._time())
        return None

    @property
    def spent_usd(self) -> float:
        return sum(c.cost_usd if c.cost_usd is not None else c.reserved_usd for c in self.calls)

    def _mask(self, text: str) -> str:
        """`text` without the key (even one too short for the registry) or any registered secret."""
        if self.api_key and len(self.api_key) >= 4:
            text = text.replace(self.api_key, redact.MASK)
        return redact.redact(text)

    def _client_for(self, model: ModelSettings) -> Any:
        if self._client is None:
            import openai  # here, not at the top: the SDK costs most of a command's start-up

            self._client = openai.OpenAI(
                base_url=model.base_url,
                api_key=self.api_key or "not-needed",
                max_retries=0,
                timeout=model.timeout_seconds,
                http_client=openai.DefaultHttpxClient(event_hooks={"request": [self._under_deadline]}),
            )
        return self._client

    def _under_deadline(self, request: Any) -> None:
        """httpx request hook: the call's deadline watches every connection it opens.

        The transport reports each connection through the `trace` request extension
        (httpcore's, public in both httpx and httpx2); `Connection: close` makes every call
        open its own, so no call reuses a connection its deadline never saw.
        """
        request.headers["Connection"] = "close"
        request.extensions["trace"] = self._trace

    def _trace(self, _event: str, info: dict[str, Any]) -> None:
        extra_info = getattr(info.get("return_value"), "get_extra_info", None)  # a `connect_*.complete`
        sock = extra_info("socket") if callable(extra_info) else None
        if isinstance(sock, socket.socket):
            self._deadline.watch(sock)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def reservation_for(self, request_bytes: int) -> float:
        assert self.model is not None
        return (
            (request_bytes + REQUEST_OVERHEAD_BYTES) * self.model.price_input_per_million
            + self.model.max_output_tokens * self.model.price_output_per_million
        ) / 1_000_000

    def _request(
        self, model: ModelSettings, system: str, user: str, response_model: type[BaseModel]
    ) -> tuple[list[dict[str, str]], RequestBody, str]:
        return build_request(model, system, user, response_model)

    def room_for(self, system: str, user: str, response_model: type[BaseModel]) -> int:
        """Bytes still free in a request that already carries `system` and `user`.

        What a pass may add to `user` (as serialized in the request body, escapes included)
        before `call` would refuse the request as larger than `max_input_bytes`; may be
        negative.
        """
        assert self.model is not None
        _messages, _format, body = self._request(self.model, system, user, response_model)
        return self._input_limit(response_model) - len(body.encode("utf-8"))

    @staticmethod
    def _schema_slack(response_model: type[BaseModel]) -> int:
        # The schema travels in every request and is not the pass's to shrink.
        return len(json.dumps(flat_schema(response_model))) + 4096

    def _input_limit(self, response_model: type[BaseModel]) -> int:
        assert self.model is not None
        return self.model.max_input_bytes + self._schema_slack(response_model)

    def estimate_usd(self, system: str, user: str, response_model: type[BaseModel]) -> float:
        """The reservation `call` would make for this request (its upper bound of cost)."""
        reason = self.availability()
        if reason:
            raise ModelUnavailable(reason)
        assert self.model is not None
        _messages, _format, body = self._request(self.model, system, user, response_model)
        return self.reservation_for(len(body.encode("utf-8")))

    def call(self, purpose: str, system: str, user: str, response_model: type[T]) -> CallResult[T]:
        """Ask the deep model for a `response_model`; raise ModelUnavailable or ModelResponseInvalid."""
        reason = self.availability()
        if reason:
            raise ModelUnavailable(reason)
        model = self.model
        assert model is not None
        messages, response_format, request_body = self._request(model, system, user, response_model)
        request_bytes = len(request_body.encode("utf-8"))
        prompt_hash = hashlib.sha256(request_body.encode("utf-8")).hexdigest()
        if request_bytes > self._input_limit(response_model):
            raise ModelResponseInvalid(
                f"{purpose}: request of {request_bytes} bytes exceeds max_input_bytes ({model.max_input_bytes})"
            )
        usd = self.reservation_for(request_bytes)
        reservation = self.ledger.reserve(
            agent=self.agent,
            run_id=self.run_id,
            usd=usd,
            now=self._time(),
            deployment_limit=self.deployment_budget_usd,
            agent_limit=self.agent_budget_usd,
            count_deep_pass=not self.calls,
            deep_cap=self.deep_cap,
        )
        limit_kwargs = {model.limit_param: model.max_output_tokens}
        try:
            client = self._client_for(model)
            with self._deadline.bound(model.timeout_seconds):
                completion = client.chat.completions.create(
                    model=model.model, messages=messages, response_format=response_format, **limit_kwargs
                )
        except Exception as exc:
            raise self._failure(purpose, model, reservation, prompt_hash, exc) from exc

        bill = priced(getattr(completion, "usage", None), model)
        input_tokens = bill.input_tokens if bill else None
        output_tokens = bill.output_tokens if bill else None
        cached, saved = (bill.cached_tokens, bill.saved_usd) if bill else (None, 0.0)
        cost: float | None = None
        if bill is not None:
            cost = bill.usd
            self.ledger.settle(
                reservation, cost, bill.input_tokens, bill.output_tokens, self._time(),
                cached_tokens=bill.cached_tokens, saved_usd=bill.saved_usd,
            )
        else:
            self.ledger.keep(reservation, "answer without usage", self._time())
        choices = getattr(completion, "choices", None) or []
        if not choices:
            self._record(
                purpose, "invalid", usd, cost, input_tokens, output_tokens, prompt_hash, "no choices", cached, saved
            )
            raise ModelResponseInvalid(f"{purpose}: the model returned no answer")
        choice = choices[0]
        content = getattr(choice.message, "content", None) or ""
        if redact.contains_secret(content):
            self._record(purpose, "invalid", usd, cost, input_tokens, output_tokens, prompt_hash, "tainted", cached, saved)
            raise ModelResponseInvalid(
                f"{purpose}: answer contains a configured secret (the API key or a `redact_env` value); "
                "refused as tainted"
            )
        size = len(content.encode("utf-8"))
        if size > model.max_response_bytes:
            self._record(purpose, "invalid", usd, cost, input_tokens, output_tokens, prompt_hash, "too large", cached, saved)
            raise ModelResponseInvalid(
                f"{purpose}: response of {size} bytes exceeds max_response_bytes ({model.max_response_bytes})"
            )
        if choice.finish_reason == "length":
            self._record(purpose, "invalid", usd, cost, input_tokens, output_tokens, prompt_hash, "truncated", cached, saved)
            raise ModelResponseInvalid(
                f"{purpose}: response truncated at max_output_tokens ({model.max_output_tokens})"
            )
        try:
            value = response_model.model_validate_json(content)
        except ValidationError as exc:
            detail = _summarise(exc)
            self._record(purpose, "invalid", usd, cost, input_tokens, output_tokens, prompt_hash, detail, cached, saved)
            raise ModelResponseInvalid(
                f"{purpose}: model response does not match the schema: {detail}"
            ) from exc
        record = self._record(purpose, "ok", usd, cost, input_tokens, output_tokens, prompt_hash, "", cached, saved)
        return CallResult(value=value, raw=content, record=record)

    def _failure(
        self, purpose: str, model: ModelSettings, reservation: Reservation, prompt_hash: str, exc: Exception
    ) -> ModelUnavailable:
        """Close the ledger entry of a call that got no answer, record it and say why, naming
        no part of the request.

        A request that provably never reached the server settles at zero; any other failure
        may have been processed and keeps its reservation. Both count for the breaker.
        """
        import openai  # loaded by _client_for already; named here for the exception types

        unsent = never_sent(exc)
        if isinstance(exc, openai.APIStatusError):
            detail = f"HTTP {exc.status_code}"
            message = f"{purpose}: model server answered HTTP {exc.status_code}"
        elif self._deadline.expired or isinstance(exc, openai.APITimeoutError):
            # The deadline shut the connection down mid-exchange: whatever error that
            # surfaced as (a read or protocol error), the call ran out of time.
            detail = "timeout"
            message = f"{purpose}: model call timed out after {model.timeout_seconds:g}s"
        elif unsent is not None:
            detail = "connection error"
            message = self._mask(f"{purpose}: cannot reach the model server at {model.base_url} ({unsent})")
        elif isinstance(exc, openai.APIConnectionError):
            detail = "connection lost"
            message = self._mask(
                f"{purpose}: the connection to the model server at {model.base_url} failed after the "
                "request was sent; it may have been processed"
            )
        else:
            # Any other SDK or transport failure (httpx building a header, h11 refusing a
            # value) may quote the request in its message: report the type only.
            detail = self._mask(type(exc).__name__)
            message = f"{purpose}: model call failed ({detail})"
        cost: float | None = None
        if unsent is not None:
            cost = 0.0
            self.ledger.release(reservation, f"{detail}: {unsent}", self._time())
            message += "; the request was never sent, nothing charged"
        else:
            self.ledger.keep(reservation, detail, self._time())
        self._record(purpose, "error", reservation.usd, cost, None, None, prompt_hash, detail)
        return ModelUnavailable(message)

    def _record(
        self,
        purpose: str,
        status: str,
        reserved: float,
        cost: float | None,
        input_tokens: int | None,
        output_tokens: int | None,
        prompt_hash: str,
        detail: str = "",
        cached_tokens: int | None = None,
        saved_usd: float = 0.0,
    ) -> CallRecord:
        record = CallRecord(
            purpose, status, reserved, cost, input_tokens, output_tokens, prompt_hash, detail, cached_tokens, saved_usd
        )
        self.calls.append(record)
        if self.breaker is not None:
            self.breaker.record(status == "ok", self._time(), f"{purpose}: {status} {detail}".strip())
        return record

    def answer_rejected(self, purpose: str, detail: str) -> None:
        """A pass found nothing usable in a schema-valid answer: it counts against the breaker."""
        if self.breaker is not None:
            self.breaker.record(False, self._time(), f"{purpose}: {detail}")


def _summarise(exc: ValidationError, limit: int = 5) -> str:
    parts = []
    for err in exc.errors()[:limit]:
        loc = ".".join(str(p) for p in err["loc"]) or "(root)"
        parts.append(f"{loc}: {err['msg']}")
    more = len(exc.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)
