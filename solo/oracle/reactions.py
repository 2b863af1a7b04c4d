"""How an NPC met by chance first reacts to the PCs.

One d100, higher is friendlier, shifted by the NPC's Social Disposition
(docs/rules.md §7.2) so a Malicious guard can at best be neutral and an
Affectionate friend is never hostile. The reaction names the disposition
the game may adopt for the scene. Building the NPC itself (the Code Block)
is another module's job: pass its generator in as ``generate_npc``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import did_you_mean
from ..rules.dice import d100, is_exceptional
from .likelihood import OracleError
from .random_events import Meaning, meaning
from .tables import TableSet

__all__ = [
    "DISPOSITIONS",
    "REACTIONS",
    "disposition_modifier",
    "reaction_for",
    "reaction_odds",
    "Reaction",
    "npc_reaction",
]

#: Social Disposition -> modifier, as in the rules.
DISPOSITIONS: dict[str, int] = {
    "affectionate": 40,
    "friendly": 20,
    "neutral": 0,
    "indifferent": 0,
    "unfriendly": -20,
    "malicious": -40,
}

#: (highest total, reaction, disposition it suggests), low to high; the last band is open-ended.
REACTIONS: tuple[tuple[int | None, str, str], ...] = (
    (15, "hostile", "malicious"),
    (35, "unfriendly", "unfriendly"),
    (65, "neutral", "neutral"),
    (85, "friendly", "friendly"),
    (None, "helpful", "affectionate"),
)


def disposition_modifier(disposition: str | int) -> int:
    if isinstance(disposition, bool):
        raise OracleError(f"not a disposition: {disposition!r}")
    if isinstance(disposition, int):
        return disposition
    key = str(disposition).strip().lower()
    if key not in DISPOSITIONS:
        raise OracleError(
            f"unknown disposition {disposition!r}{did_you_mean(key, DISPOSITIONS)}; "
            f"use one of: {', '.join(DISPOSITIONS)}"
        )
    return DISPOSITIONS[key]


def reaction_for(total: int) -> tuple[str, str]:
    """The (reaction, suggested disposition) for a modified roll."""
    for top, name, disposition in REACTIONS:
        if top is None or total <= top:
            return name, disposition
    raise AssertionError("the last band is open-ended")


def reaction_odds(disposition: str | int = "neutral", modifier: int = 0) -> dict[str, float]:
    """Exact chance of each reaction, counted over the 100 faces."""
    shift = disposition_modifier(disposition) + modifier
    counts = {name: 0 for _, name, _ in REACTIONS}
    for face in range(1, 101):
        counts[reaction_for(face + shift)[0]] += 1
    return {k: v / 100 for k, v in counts.items()}


@dataclass(frozen=True)
class Reaction:
    """``twist`` is a meaning pair drawn on a double: the NPC has something on their mind."""

    roll: int
    modifier: int
    total: int
    reaction: str
    disposition: str
    twist: Meaning | None = None
    npc: Any = None  # what the caller's generate_npc made: the oracle sits beside solo.npc, not above it

    def to_dict(self) -> dict[str, Any]:
        npc = self.npc.to_dict() if hasattr(self.npc, "to_dict") else self.npc
        return {
            "roll": self.roll,
            "modifier": self.modifier,
            "total": self.total,
            "reaction": self.reaction,
            "disposition": self.disposition,
            "twist": self.twist.to_dict() if self.twist else None,
            "npc": npc,
        }


def npc_reaction(
    rng: random.Random,
    disposition: str | int = "neutral",
    *,
    modifier: int = 0,
    tables: TableSet | None = None,
    generate_npc: Callable[[random.Random], Any] | None = None,
) -> Reaction:
    """Roll a reaction; ``modifier`` adds anything else that applies (a Status tag, a bribe).

    The draws happen in a fixed order — reaction, twist, NPC — so a seed
    replays the same meeting.
    """
    shift = disposition_modifier(disposition) + modifier
    roll = d100(rng)
    total = roll + shift
    name, suggested = reaction_for(total)
    twist = meaning(rng, tables) if tables is not None and is_exceptional(roll) else None
    npc = generate_npc(rng) if generate_npc is not None else None
    return Reaction(roll, shift, total, name, suggested, twist, npc)
