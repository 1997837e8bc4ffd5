"""The spend ledger: daily deep-pass caps and USD budgets, write-ahead (docs/explanation/deep-tier.md).

One append-only JSON Lines file per UTC day under `<state>/spend/`. Before a model call
the caller *reserves* an upper bound under a deployment-wide lock, so many agents
reserving at once can never exceed the budget; after the call it *settles* to the real
usage. A reservation without a settlement (a crash, a failed call with unknown usage)
keeps counting at its full amount: spend is never under-reported.

Every call that ends records which case it was (`outcome`): a `settle` entry replaces the
reservation by the usage the server reported (`answered`) or by zero when the request
provably never reached the server (`unsent`: refused, unresolved, TLS failed — it was never
processed); a `kept` entry says the call failed after its request may have reached the
server (or the answer carried no usage), so its reservation stays charged.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon.kernel import atomic
from daemon.kernel.errors import DaemonError, ModelUnavailable

VERSION = 1
LOCK_TIMEOUT_SECONDS = 30.0
# How a call's reservation ended, as its closing ledger entry records it.
ANSWERED = "answered"  # settled to the usage the server reported
UNSENT = "unsent"  # the request never reached the server: settled at zero
KEPT = "kept"  # may have been processed, usage unknown: the reservation stays charged


@dataclass(frozen=True)
class DayTotals:
    deployment_usd: float
    agent_usd: float
    agent_deep_passes: int
    # What the server's prompt cache saved the agent today, and over how many input tokens.
    agent_saved_usd: float = 0.0
    agent_cached_tokens: int = 0


@dataclass(frozen=True)
class Reservation:
    call_id: str
    agent: str
    run_id: str
    usd: float
    day: str


class CapReached(ModelUnavailable):
    def __init__(self, agent: str, used: int, cap: int) -> None:
        super().__init__(f"daily deep-pass cap reached for agent {agent!r}: {used} of {cap} used today")


class BudgetExhausted(ModelUnavailable):
    def __init__(self, scope: str, spent: float, reservation: float, limit: float) -> None:
        super().__init__(
            f"{scope} budget would be exceeded: {spent:.6f} USD spent or reserved today + "
            f"{reservation:.6f} USD reservation > {limit:.6f} USD"
        )


class SpendLedger:
    def __init__(self, spend_dir: Path, lock_path: Path) -> None:
        self.spend_dir = spend_dir
        self.lock_path = lock_path

    def _file(self, day: str) -> Path:
        return self.spend_dir / f"{day}.jsonl"

    def _entries(self, day: str) -> Iterator[dict[str, object]]:
        path = self._file(day)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line torn by a crash mid-append; its call was never made
            if isinstance(entry, dict):
                version = entry.get("v")
                if isinstance(version, int) and version > VERSION:
                    raise DaemonError(
                        f"{path} has ledger entries of version {version}; this daemon reads up to {VERSION}"
                    )
                yield entry

    def totals(self, day: str, agent: str) -> DayTotals:
        reserved: dict[str, tuple[str, float]] = {}
        settled: dict[str, float] = {}
        deep = 0
        saved = 0.0
        cached = 0
        for entry in self._entries(day):
            kind = entry.get("kind")
            if kind == "reserve":
                reserved[str(entry["call"])] = (str(entry["agent"]), float(entry["usd"]))  # type: ignore[arg-type]
            elif kind == "settle":
                settled[str(entry["call"])] = float(entry["usd"])  # type: ignore[arg-type]
                if entry.get("agent") == agent:
                    saved += float(entry.get("saved_usd", 0.0))  # type: ignore[arg-type]
                    cached += int(entry.get("cached_tokens", 0))  # type: ignore[call-overload]
            elif kind == "deep_pass" and entry.get("agent") == agent:
                deep += 1
        deployment = 0.0
        mine = 0.0
        for call, (who, amount) in reserved.items():
            cost = settled.get(call, amount)
            deployment += cost
            if who == agent:
                mine += cost
        return DayTotals(deployment, mine, deep, saved, cached)

    def reserve(
        self,
        *,
        agent: str,
        run_id: str,
        usd: float,
        now: datetime,
        deployment_limit: float,
        agent_limit: float,
        count_deep_pass: bool,
        deep_cap: int,
    ) -> Reservation:
        """Check caps and budgets and record the reservation; raises CapReached/BudgetExhausted."""
        # Imported here: `status` reads the ledger without its lock (appends are whole lines).
        from filelock import FileLock, Timeout

        day = now.date().isoformat()
        try:
            with FileLock(str(self.lock_path), timeout=LOCK_TIMEOUT_SECONDS):
                totals = self.totals(day, agent)
                if count_deep_pass and totals.agent_deep_passes >= deep_cap:
                    raise CapReached(agent, totals.agent_deep_passes, deep_cap)
                if totals.deployment_usd + usd > deployment_limit:
                    raise BudgetExhausted("deployment daily", totals.deployment_usd, usd, deployment_limit)
                if totals.agent_usd + usd > agent_limit:
                    raise BudgetExhausted(f"agent {agent!r} daily", totals.agent_usd, usd, agent_limit)
                call_id = f"{run_id}-{secrets.token_hex(3)}"
                stamp = now.isoformat()
                if count_deep_pass:
                    self._append(day, {"kind": "deep_pass", "agent": agent, "run_id": run_id, "ts": stamp})
                self._append(
                    day,
                    {
                        "kind": "reserve",
                        "agent": agent,
                        "run_id": run_id,
                        "call": call_id,
                        "usd": usd,
                        "ts": stamp,
                    },
                )
                return Reservation(call_id, agent, run_id, usd, day)
        except Timeout as exc:
            raise ModelUnavailable(
                f"spend ledger lock {self.lock_path} busy for {LOCK_TIMEOUT_SECONDS:.0f}s"
            ) from exc

    def settle(
        self,
        reservation: Reservation,
        usd: float,
        input_tokens: int,
        output_tokens: int,
        now: datetime,
        *,
        cached_tokens: int = 0,
        saved_usd: float = 0.0,
    ) -> None:
        """Replace a reservation by the real cost (same day file as the reservation)."""
        cache = {"cached_tokens": cached_tokens, "saved_usd": saved_usd} if cached_tokens else {}
        self._close(
            reservation,
            now,
            kind="settle",
            outcome=ANSWERED,
            usd=usd,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            **cache,
        )

    def release(self, reservation: Reservation, detail: str, now: datetime) -> None:
        """Settle at zero a reservation whose request provably never reached the server."""
        self._close(
            reservation,
            now,
            kind="settle",
            outcome=UNSENT,
            usd=0.0,
            input_tokens=0,
            output_tokens=0,
            detail=detail,
        )

    def keep(self, reservation: Reservation, detail: str, now: datetime) -> None:
        """Record that a call failed after its request may have been processed: the reservation stays."""
        self._close(reservation, now, kind=KEPT, outcome=KEPT, detail=detail)

    def _close(self, reservation: Reservation, now: datetime, **entry: object) -> None:
        self._append(
            reservation.day,
            {
                "agent": reservation.agent,
                "run_id": reservation.run_id,
                "call": reservation.call_id,
                "ts": now.isoformat(),
                **entry,
            },
        )

    def _append(self, day: str, entry: dict[str, object]) -> None:
        atomic.append_line(self._file(day), json.dumps({"v": VERSION, **entry}, sort_keys=True))
