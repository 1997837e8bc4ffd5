"""One suite, both backends: the spend ledger, the daily deep-pass cap and the breaker behave the same.

The local backend (state folder) and the PostgreSQL backend are reached the way the
daemon reaches them, through `coordination_for(deployment)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.coordination.backends import coordination_for
from daemon.model.coordination_protocol import Coordination
from daemon.model.spend import BudgetExhausted, CapReached
from tests.daemon.coordination.helpers import PG_ENV, fleet_daemon

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["local", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Coordination]:
    url = request.getfixturevalue("pg_url") if request.param == "postgresql" else "postgresql://x@h/d"
    config = fleet_daemon(tmp_path, "a", url, None)
    if request.param == "local":
        text = config.read_text()
        config.write_text(text[: text.index("coordination:")] + text[text.index("passes:") :])
    deployment = load_deployment(config, {"HOME": str(tmp_path), **PG_ENV})
    coordination = coordination_for(deployment)
    assert coordination.kind == request.param
    yield coordination


def _reserve(backend: Coordination, usd: float, agent: str = "ada", deep: bool = False, run: str = "r1") -> object:
    return backend.ledger().reserve(
        agent=agent, run_id=run, usd=usd, now=NOW, deployment_limit=1.0, agent_limit=0.6,
        count_deep_pass=deep, deep_cap=2,
    )


@pytest.mark.slow
def test_reservations_count_until_settled_and_a_budget_is_never_exceeded(backend: Coordination) -> None:
    first = _reserve(backend, 0.5)
    with pytest.raises(BudgetExhausted, match="agent 'ada' daily budget would be exceeded"):
        _reserve(backend, 0.2)
    backend.ledger().settle(first, 0.1, 100, 10, NOW)  # type: ignore[arg-type]
    _reserve(backend, 0.2)
    _reserve(backend, 0.6, agent="bob")
    with pytest.raises(BudgetExhausted, match="deployment daily budget would be exceeded"):
        _reserve(backend, 0.2, agent="cy")
    totals = backend.ledger().totals(NOW.date().isoformat(), "ada")
    assert (round(totals.deployment_usd, 9), round(totals.agent_usd, 9)) == (0.9, 0.3)


@pytest.mark.slow
def test_the_daily_deep_pass_cap_counts_runs_per_agent(backend: Coordination) -> None:
    _reserve(backend, 0.01, deep=True, run="r1")
    _reserve(backend, 0.01, deep=True, run="r2")
    with pytest.raises(CapReached, match="2 of 2 used today"):
        _reserve(backend, 0.01, deep=True, run="r3")
    _reserve(backend, 0.01, agent="bob", deep=True, run="r3")
    assert backend.ledger().totals(NOW.date().isoformat(), "ada").agent_deep_passes == 2


def test_the_breaker_opens_after_the_threshold_and_closes_on_success_or_reset(backend: Coordination) -> None:
    breaker = backend.breaker("ada", 2, timedelta(minutes=10))
    breaker.record(False, NOW, "distillation: error timeout")
    assert breaker.refusal(NOW) is None
    breaker.record(False, NOW, "distillation: error timeout")
    refusal = breaker.refusal(NOW + timedelta(minutes=1))
    assert refusal is not None and "2 consecutive failed" in refusal and "distillation: error timeout" in refusal
    assert breaker.refusal(NOW + timedelta(minutes=11)) is None  # half-open after the cooldown
    assert backend.breaker("bob", 2, timedelta(minutes=10)).refusal(NOW) is None
    assert breaker.reset().consecutive_failures == 2
    assert breaker.state().consecutive_failures == 0
    breaker.record(False, NOW, "x")
    breaker.record(True, NOW)
    assert breaker.state().opened_at is None and breaker.state().consecutive_failures == 0


@pytest.mark.slow
def test_an_unsent_call_settles_at_zero_and_a_kept_one_keeps_counting(backend: Coordination) -> None:
    ledger = backend.ledger()
    unsent, kept, answered = _reserve(backend, 0.3), _reserve(backend, 0.2), _reserve(backend, 0.1)
    ledger.release(unsent, "connection error: connection refused", NOW)  # type: ignore[arg-type]
    ledger.keep(kept, "timeout", NOW)  # type: ignore[arg-type]
    ledger.settle(answered, 0.05, 100, 10, NOW)  # type: ignore[arg-type]
    totals = ledger.totals(NOW.date().isoformat(), "ada")
    assert round(totals.agent_usd, 9) == 0.25  # nothing for the unsent call, the whole reservation for the kept one
    _reserve(backend, 0.35)  # the released reservation no longer holds the budget
