"""The yes/no oracle: one d100 rolled under a chance, read into six graded answers.

Reading a face is a pure function of (roll, chance, tension), so the exact
odds come from enumerating the 100 faces rather than from a second formula
that could drift from the rules actually used.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..rules.dice import d100, is_exceptional, two_digits
from ..rules.rolls import judge
from .likelihood import TENSION_NEUTRAL, Likelihood, chance_of_yes, check_tension
from .likelihood import likelihood as read_likelihood
from .random_events import RandomEvent, event_triggered, random_event
from .state import OracleState
from .tables import TableSet

__all__ = [
    "GRADES",
    "NEAR_MISS",
    "grade",
    "OracleOdds",
    "oracle_odds",
    "OracleAnswer",
    "ask",
]

#: Best to worst. "and" = a double; "but" = within NEAR_MISS of the chance.
GRADES = ("yes, and", "yes", "yes, but", "no, but", "no", "no, and")
NEAR_MISS = 10


def grade(roll: int, chance: int) -> str:
    """How a face reads against a chance.

    Doubles (11 … 99, 00) are exceptional: "yes, and" if at or under the
    chance, else "no, and". Otherwise a yes whose roll is within 10 below
    the chance (chance − 9 … chance) is "yes, but", and a no within 10 above
    it (chance + 1 … chance + 10) is "no, but". 00 is always "no, and".
    """
    check = judge(roll, chance)
    if check.success:
        if check.exceptional:
            return "yes, and"
        return "yes, but" if roll > chance - NEAR_MISS else "yes"
    if check.exceptional:
        return "no, and"
    return "no, but" if roll <= chance + NEAR_MISS else "no"


@dataclass(frozen=True)
class OracleOdds:
    """Exact odds for one likelihood and tension, counted in faces of the d100 (out of 100)."""

    likelihood: str
    base: int
    tension: int
    chance: int
    faces: dict[str, int]  # grade -> faces of the d100 that give it
    event_faces: int

    @property
    def yes(self) -> float:
        return sum(self.faces[g] for g in GRADES[:3]) / 100

    @property
    def no(self) -> float:
        return sum(self.faces[g] for g in GRADES[3:]) / 100

    @property
    def exceptional(self) -> float:
        return (self.faces["yes, and"] + self.faces["no, and"]) / 100

    @property
    def event(self) -> float:
        return self.event_faces / 100

    def to_dict(self) -> dict[str, Any]:
        return {
            "likelihood": self.likelihood,
            "base": self.base,
            "tension": self.tension,
            "chance": self.chance,
            "yes": self.yes,
            "exceptional": self.exceptional,
            "event": self.event,
            "grades": {g: self.faces[g] / 100 for g in GRADES},
        }


def oracle_odds(word: str | int | Likelihood = "even", tension: int = TENSION_NEUTRAL) -> OracleOdds:
    """Enumerate all 100 faces: the chance of every grade and of a random event."""
    like = read_likelihood(word)
    chance = chance_of_yes(like, tension)
    faces = dict.fromkeys(GRADES, 0)
    events = 0
    for face in range(1, 101):
        faces[grade(face, chance)] += 1
        events += event_triggered(face, tension)
    return OracleOdds(like.word, like.base, tension, chance, faces, events)


@dataclass(frozen=True)
class OracleAnswer:
    question: str
    odds: OracleOdds
    roll: int
    grade: str
    event_triggered: bool
    event: RandomEvent | None = None

    @property
    def chance(self) -> int:
        return self.odds.chance

    @property
    def yes(self) -> bool:
        return self.grade.startswith("yes")

    @property
    def exceptional(self) -> bool:
        return is_exceptional(self.roll)

    @property
    def near(self) -> bool:
        return self.grade.endswith("but")

    @property
    def answer(self) -> str:
        return self.grade

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.grade,
            "yes": self.yes,
            "roll": self.roll,
            "dice": two_digits(self.roll),
            "chance": self.chance,
            "likelihood": self.odds.likelihood,
            "base": self.odds.base,
            "tension": self.odds.tension,
            "exceptional": self.exceptional,
            "near": self.near,
            "event_chance": self.odds.event_faces,
            "event_triggered": self.event_triggered,
            "event": self.event.to_dict() if self.event else None,
            "odds": self.odds.to_dict(),
        }


def ask(
    rng: random.Random,
    question: str = "",
    likelihood: str | int | Likelihood = "even",
    *,
    tension: int | None = None,
    state: OracleState | None = None,
    tables: TableSet | None = None,
) -> OracleAnswer:
    """Roll the oracle once.

    Tension comes from ``tension`` if given, else from ``state``, else 5.
    When the roll raises a random event and ``tables`` is given, the event is
    drawn at once from the same generator, tied to the state's NPCs and
    threads; without tables only ``event_triggered`` is set.
    """
    if tension is None:
        tension = state.tension if state is not None else TENSION_NEUTRAL
    check_tension(tension)
    odds = oracle_odds(likelihood, tension)
    roll = d100(rng)
    triggered = event_triggered(roll, tension)
    event = random_event(rng, tables, state) if triggered and tables is not None else None
    return OracleAnswer(question, odds, roll, grade(roll, odds.chance), triggered, event)
