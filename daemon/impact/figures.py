"""The headline figures of an impact report: their own module, because `status` shows them
from the cache `impact` writes and must not build the whole report's models to read them."""

from __future__ import annotations

from daemon.kernel.json_contract import Document


class ImpactFigures(Document):
    """The headline figures of the items shown."""

    items: int
    learned: int  # items learned from: a fact, a skill made from the turn or an approved instruction change
    delivered: int
    repeated: int  # items said again in a later session
    repeated_after_delivery: int  # items said again after they had reached the agent
    corrections_never_learned: int
    flagged: int  # items flagged for review (said again after delivery)
