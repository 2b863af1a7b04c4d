"""Scene set-up for open play: does the next scene start the way the player expects?

The player says what they expect; one d100 against the tension decides if
that holds, is changed in some detail, or is cut off by a random event. The
higher the tension, the less the story waits for the PCs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..rules.dice import d100
from .likelihood import TENSION_NEUTRAL, check_tension
from .random_events import Meaning, RandomEvent, meaning, random_event
from .state import OracleState
from .tables import TableResult, TableSet

__all__ = ["SCENE_KINDS", "ALTERATION_TABLE", "scene_kind", "scene_odds", "scene_faces", "SceneSetup",
           "set_up_scene"]

SCENE_KINDS = ("expected", "altered", "interrupted")
ALTERATION_TABLE = "scene_alteration"


def scene_kind(roll: int, tension: int) -> str:
    """1 … 5×T interrupted, 5×T+1 … 10×T altered, anything higher as expected."""
    check_tension(tension)
    if roll <= 5 * tension:
        return "interrupted"
    if roll <= 10 * tension:
        return "altered"
    return "expected"


def scene_odds(tension: int) -> dict[str, float]:
    """Exact chances of each kind, counted over the 100 faces."""
    counts = dict.fromkeys(SCENE_KINDS, 0)
    for face in range(1, 101):
        counts[scene_kind(face, tension)] += 1
    return {k: v / 100 for k, v in counts.items()}


def scene_faces(tension: int) -> dict[str, tuple[int, int] | None]:
    """The faces (lowest, highest) that give each kind, read through :func:`scene_kind`; None for none."""
    faces: dict[str, tuple[int, int] | None] = dict.fromkeys(SCENE_KINDS)
    for face in range(1, 101):
        kind = scene_kind(face, tension)
        low = faces[kind]
        faces[kind] = (low[0] if low else face, face)
    return faces


@dataclass(frozen=True)
class SceneSetup:
    """``alteration`` is set for an altered scene, ``event`` for an interrupted one."""

    kind: str
    roll: int
    tension: int
    alteration: TableResult | None = None
    meaning: Meaning | None = None
    event: RandomEvent | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "roll": self.roll,
            "tension": self.tension,
            "alteration": self.alteration.to_dict() if self.alteration else None,
            "meaning": self.meaning.to_dict() if self.meaning else None,
            "event": self.event.to_dict() if self.event else None,
        }


def set_up_scene(
    rng: random.Random, tables: TableSet, state: OracleState | None = None, *, tension: int | None = None
) -> SceneSetup:
    """Roll the set-up; an altered scene gets a change and a meaning pair, an interrupted one an event."""
    if tension is None:
        tension = state.tension if state is not None else TENSION_NEUTRAL
    check_tension(tension)
    roll = d100(rng)
    kind = scene_kind(roll, tension)
    if kind == "altered":
        slots = state.slots() if state is not None else {}
        change = tables.roll(ALTERATION_TABLE, rng, slots=slots)
        return SceneSetup(kind, roll, tension, alteration=change, meaning=meaning(rng, tables))
    if kind == "interrupted":
        return SceneSetup(kind, roll, tension, event=random_event(rng, tables, state))
    return SceneSetup(kind, roll, tension)
