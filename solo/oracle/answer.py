"""The yes/no oracle: one d100 rolled under a chance, read into six graded answers.

Reading a face is a pure function of (roll, chance, tension), so the exact
odds come from enumerating the 100 faces rather than from a second formula
that could drift from the rules actually used.

Every answer comes with a short prompt for reading it, a row of the table for
its kind (``read_yes_and`` … ``read_no_and``), and a hard answer ("yes, but" or
"no, and") with something more to interpret: a row of the price or twist table
and a meaning pair. They are drawn from offshoots of the game's generator, never
from the generator itself, so asking the oracle rolls exactly the dice it rolled
before they were offered, and a saved game replays the same answers and the
same words.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..rules.dice import d100, is_exceptional, two_digits
from ..rules.rolls import judge
from .likelihood import TENSION_NEUTRAL, Likelihood, chance_of_yes, check_tension
from .likelihood import likelihood as read_likelihood
from .random_events import (
    ACTION_TABLE,
    SUBJECT_TABLE,
    Meaning,
    RandomEvent,
    event_triggered,
    meaning_words,
    offshoot,
    random_event,
)
from .state import OracleState
from .tables import TableSet

__all__ = [
    "GRADES",
    "NEAR_MISS",
    "grade",
    "OracleOdds",
    "oracle_odds",
    "OracleAnswer",
    "HARD_ANSWERS",
    "Interpretation",
    "interpret",
    "READING_TABLES",
    "Reading",
    "reading",
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


#: The answers that come with something to interpret, and the table its row is drawn from.
HARD_ANSWERS = {"yes, but": "price", "no, and": "twist"}


@dataclass(frozen=True)
class Interpretation:
    """What a hard answer brings: a row of ``table`` (``text``, None if the tables have no such table)
    and a meaning pair (None without the meaning tables), read together with the answer."""

    grade: str
    table: str
    text: str | None
    meaning: Meaning | None

    def to_dict(self) -> dict[str, Any]:
        return {"grade": self.grade, "table": self.table, "text": self.text,
                "meaning": self.meaning.to_dict() if self.meaning else None}


def interpret(rng: random.Random, grade: str, tables: TableSet, state: OracleState | None = None
              ) -> Interpretation | None:
    """The price of a "yes, but" or the twist of a "no, and", drawn from an offshoot of ``rng``
    (which is left as it was); None for the other answers."""
    table = HARD_ANSWERS.get(grade)
    if table is None:
        return None
    words = offshoot(rng, "interpretation")
    slots = state.slots() if state is not None else None
    text = tables.roll(table, words, slots=slots).text if table in tables else None
    pair = meaning_words(words, tables) if ACTION_TABLE in tables and SUBJECT_TABLE in tables else None
    if text is None and pair is None:
        return None
    return Interpretation(grade, table, text, pair)


#: Each answer and the table of prompts for reading it: "yes, but" -> "read_yes_but".
def grade_key(grade: str) -> str:
    """A grade as an adventure's oracle branch names it: "yes, but" is ``yes_but``."""
    return grade.replace(", ", "_")


READING_TABLES = {g: "read_" + grade_key(g).replace(" ", "_") for g in GRADES}


@dataclass(frozen=True)
class Reading:
    """A prompt for how to read an answer of its kind: a row of ``table`` (docs/oracle.md §3)."""

    grade: str
    table: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"grade": self.grade, "table": self.table, "text": self.text}


def reading(rng: random.Random, grade: str, tables: TableSet, state: OracleState | None = None) -> Reading | None:
    """A row of the answer's reading table, drawn from an offshoot of ``rng`` (which is left as it was);
    None when the tables have no such table."""
    table = READING_TABLES[grade]
    if table not in tables:
        return None
    slots = state.slots() if state is not None else None
    return Reading(grade, table, tables.roll(table, offshoot(rng, "reading"), slots=slots).text)


@dataclass(frozen=True)
class OracleAnswer:
    question: str
    odds: OracleOdds
    roll: int
    grade: str
    event_triggered: bool
    event: RandomEvent | None = None
    interpretation: Interpretation | None = None
    reading: Reading | None = None

    @property
    def chance(self) -> int:
        return self.odds.chance

    @property
    def key(self) -> str:
        """The branch this answer takes in an adventure's ``oracle`` action (:func:`grade_key`)."""
        return grade_key(self.grade)

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
            "interpretation": self.interpretation.to_dict() if self.interpretation else None,
            "reading": self.reading.to_dict() if self.reading else None,
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
    threads; without tables only ``event_triggered`` is set. With tables, every
    answer gets its :class:`Reading` (see :func:`reading`) and a hard answer its
    :class:`Interpretation` (see :func:`interpret`).
    """
    if tension is None:
        tension = state.tension if state is not None else TENSION_NEUTRAL
    check_tension(tension)
    odds = oracle_odds(likelihood, tension)
    roll = d100(rng)
    triggered = event_triggered(roll, tension)
    event = random_event(rng, tables, state) if triggered and tables is not None else None
    read = grade(roll, odds.chance)
    hard = interpret(rng, read, tables, state) if tables is not None else None
    prompt = reading(rng, read, tables, state) if tables is not None else None
    return OracleAnswer(question, odds, roll, read, triggered, event, hard, prompt)
