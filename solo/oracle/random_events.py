"""Random events: what happens when the dice say the story moves on its own.

An event is a focus (who or what it concerns, drawn from ``event_focus``)
and a pair of meaning words (``action`` × ``subject``) for the player to
interpret. The focus is tied to the game's own NPCs and threads through the
table's ``{npc}`` and ``{thread}`` slots, so it never points at nobody.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..rules.dice import is_exceptional
from .state import OracleState
from .tables import TableResult, TableSet

__all__ = [
    "FOCUS_TABLE",
    "ACTION_TABLE",
    "SUBJECT_TABLE",
    "event_digit",
    "event_triggered",
    "Meaning",
    "RandomEvent",
    "meaning",
    "random_event",
]

FOCUS_TABLE = "event_focus"
ACTION_TABLE = "action"
SUBJECT_TABLE = "subject"


def event_digit(roll: int) -> int | None:
    """The repeated digit of a double (11 -> 1 … 99 -> 9, 00 -> 0), else None."""
    if not is_exceptional(roll):
        return None
    return 0 if roll == 100 else roll // 11


def event_triggered(roll: int, tension: int) -> bool:
    """A double whose digit is at or below the tension. 00 reads as digit 0, so it always triggers."""
    digit = event_digit(roll)
    return digit is not None and digit <= tension


@dataclass(frozen=True)
class Meaning:
    action: str
    subject: str

    def __str__(self) -> str:
        return f"{self.action} / {self.subject}"

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "subject": self.subject}


def meaning(rng: random.Random, tables: TableSet) -> Meaning:
    """Two words to read together: a verb-like action and a noun-like subject."""
    action = tables.roll(ACTION_TABLE, rng).text
    subject = tables.roll(SUBJECT_TABLE, rng).text
    return Meaning(action, subject)


@dataclass(frozen=True)
class RandomEvent:
    """``focus`` is the row's key (e.g. ``npc_acts``) so code can branch on it; ``text`` is for people."""

    focus: str
    text: str
    meaning: Meaning
    npc: str | None = None
    thread: str | None = None
    pc: str | None = None
    focus_roll: TableResult | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "focus": self.focus,
            "text": self.text,
            "meaning": self.meaning.to_dict(),
            "npc": self.npc,
            "thread": self.thread,
            "pc": self.pc,
            "focus_roll": self.focus_roll.to_dict() if self.focus_roll else None,
        }


def random_event(rng: random.Random, tables: TableSet, state: OracleState | None = None) -> RandomEvent:
    """Draw a focus and a meaning pair.

    With a state, rows about NPCs or threads are drawn only when it lists
    some, and name one of them. Without one (a table-side question with no
    game behind it) every row can come up and reads with generic words.
    """
    slots = state.slots() if state is not None else {}
    focus = tables.roll(FOCUS_TABLE, rng, slots=slots)
    words = meaning(rng, tables)
    key = focus.key or f"{FOCUS_TABLE}:{focus.row}"
    return RandomEvent(
        focus=key,
        text=focus.text,
        meaning=words,
        npc=focus.slots.get("npc") if slots.get("npc") else None,
        thread=focus.slots.get("thread") if slots.get("thread") else None,
        pc=focus.slots.get("pc") if slots.get("pc") else None,
        focus_roll=focus,
    )
