"""The two regimes (docs/explanation/workspace.md): which changes apply directly and which wait in the queue.

- **Lossless tidying** (daily-log de-duplication, a loss-checked rewrite of identity,
  behaviour and long-memory files) applies directly with `autonomy: autonomous`, after a
  snapshot, with a report and `undo`. With `autonomy: review` it becomes a proposal.
- **Instruction files** (the `instructions` role) change only through an approved
  proposal while the instruction hold is on (`instruction_hold: true`, the default) —
  in both autonomy modes, whichever pass wants the change. The passes' write scopes
  leave instruction files out while the hold is on, so the runner refuses such a write
  even if a pass tried.
- **Hold lifted** (`instruction_hold: false`, set per agent by the deployment owner):
  with `autonomy: autonomous`, a loss-checked consolidation of instruction files applies
  directly (unless it moves content into them from other files: promoting, say, a note
  from MEMORY.md into AGENTS.md changes what the agent is asked to do, so it waits), and an instruction-review change applies directly when it passes the
  injection guard (`workspace.instruction_guard`); it is still recorded in the queue as
  an approved proposal, with its rationale and evidence. With `autonomy: review`, the
  hold being lifted changes nothing: every change is a proposal.
"""

from __future__ import annotations

from daemon.kernel.settings import AgentSettings

HOLD_LIFTED_BY = "metaeng-daemon (instruction_hold: false, autonomy: autonomous)"


def instruction_writes_possible(agent: AgentSettings) -> bool:
    """Whether any pass may write an instruction file directly (only with the hold lifted)."""
    return not agent.instruction_hold


def applies_directly(agent: AgentSettings, is_instruction: bool) -> bool:
    """Whether a lossless change to a file applies without a person's approval."""
    if agent.autonomy != "autonomous":
        return False
    return not (is_instruction and agent.instruction_hold)


def instruction_change_applies_directly(agent: AgentSettings) -> bool:
    """Whether an instruction-review change may skip the queue (the guard still decides)."""
    return agent.autonomy == "autonomous" and not agent.instruction_hold
