"""One daemon's model door under load: `python -m tests.support.fleet_worker CONFIG AGENT CALLS THREADS`.

Makes CALLS model calls through the deep tier (reserve in the deployment's ledger, call
the scripted model, settle) from THREADS threads started together, and prints one JSON
line: {"ok": n, "refused": n, "errors": [...]}. Used by the fleet tests and the benchmark.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel

from daemon.config import load_deployment
from daemon.coordination.backends import coordination_for
from daemon.kernel.errors import ModelUnavailable
from daemon.model.deep_tier import DeepTier


class Pong(BaseModel):
    ok: bool


def main(config: str, agent: str, calls: int, threads: int) -> dict[str, object]:
    deployment = load_deployment(Path(config), os.environ)
    ledger = coordination_for(deployment).ledger()
    budget = deployment.config.budget
    counts = {"ok": 0, "refused": 0}
    errors: list[str] = []
    mutex = threading.Lock()
    start = threading.Barrier(threads)
    shares = [calls // threads + (1 if i < calls % threads else 0) for i in range(threads)]

    def work(index: int) -> None:
        deep = DeepTier(
            model=deployment.model,
            api_key=os.environ.get("TEST_API_KEY"),
            ledger=ledger,
            agent=agent,
            run_id=f"{agent}-w{index}",
            now=datetime.now(UTC),
            deployment_budget_usd=budget.daily_usd,
            agent_budget_usd=budget.per_agent_daily_usd,
            deep_cap=1_000_000,
        )
        start.wait(timeout=120)  # a thread that failed before it would otherwise stop them all
        for _ in range(shares[index]):
            try:
                deep.call("fleet", "Answer ok.", "ping", Pong)
                outcome = "ok"
            except ModelUnavailable as exc:
                outcome = "refused" if "budget would be exceeded" in str(exc) else "error"
                if outcome == "error":
                    with mutex:
                        errors.append(str(exc))
            if outcome != "error":
                with mutex:
                    counts[outcome] += 1
        deep.close()

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return {**counts, "errors": errors[:5]}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))), flush=True)
