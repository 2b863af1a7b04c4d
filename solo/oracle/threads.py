"""A thread's progress track and the discovery check (docs/oracle.md, "Threads: weight and progress").

Every open thread has a track of :data:`~.state.TRACK` points. The player moves it on
when a scene has moved the thread on (``threads progress N``), or tries a **discovery
check** when the PCs go looking for something on it (``threads discover N``): one d100
under a chance that grows with the points already on the track, read into the oracle's
six answers by the same :func:`~.answer.grade`, and the answer says how many points it
adds and what comes with it. Reaching a flashpoint (5, and 10 at the end of the track)
brings the thread to a head.

Pure: the caller gives the generator (the game's table-side dice, or a seeded one) and
the state; the words that come with a find are drawn from an offshoot, so a check rolls
exactly one die on the generator it is given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..rules.dice import d100
from .answer import GRADES, HARD_ANSWERS, Interpretation, grade
from .random_events import ACTION_TABLE, SUBJECT_TABLE, Meaning, meaning_words, offshoot
from .state import TRACK, OracleState, ProgressStep
from .tables import TableSet

__all__ = ["DISCOVERY_BASE", "DISCOVERY_STEP", "DISCOVERY_GAIN", "DISCOVERY_READS", "discovery_chance",
           "discovery_odds", "Discovery", "discover"]

#: The chance of a discovery on a thread with no progress, and what each point on its track adds.
DISCOVERY_BASE = 40
DISCOVERY_STEP = 5
#: Points a discovery check adds to the track, by answer.
DISCOVERY_GAIN = {"yes, and": 2, "yes": 1, "yes, but": 1, "no, but": 0, "no": 0, "no, and": 0}
#: What each answer means for the search, in a few words (the renderers say it).
DISCOVERY_READS = {
    "yes, and": "a real find, and it leads further",
    "yes": "something is found",
    "yes, but": "something is found, at a price",
    "no, but": "nothing here, but a lead to follow elsewhere",
    "no": "nothing turns up",
    "no, and": "nothing turns up, and the search makes things worse",
}
#: The answers that come with words to read: what is found, or where the lead points.
_WITH_WORDS = frozenset({"yes, and", "yes", "yes, but", "no, but"})


def discovery_chance(progress: int) -> int:
    """The chance in % of a discovery: 40 on a fresh thread, 5 more for each point on its track (90 at 10)."""
    if isinstance(progress, bool) or not isinstance(progress, int) or not 0 <= progress <= TRACK:
        raise ValueError(f"progress must be 0-{TRACK}, not {progress!r}")
    return DISCOVERY_BASE + DISCOVERY_STEP * progress


def discovery_odds(progress: int) -> dict[str, int]:
    """Faces of the d100 (out of 100) that give each answer of a discovery check at ``progress``."""
    chance = discovery_chance(progress)
    faces = dict.fromkeys(GRADES, 0)
    for face in range(1, 101):
        faces[grade(face, chance)] += 1
    return faces


@dataclass(frozen=True)
class Discovery:
    """One discovery check: the thread, the chance and the roll, the answer, the points it added (``step``),
    the words to read what was found or where the lead points (``meaning``), and the price of a
    "yes, but" or the twist of a "no, and" (``hard``)."""

    thread: str
    number: int  # the thread's place in the open threads
    chance: int
    roll: int
    grade: str
    step: ProgressStep
    meaning: Meaning | None = None
    hard: Interpretation | None = None

    @property
    def found(self) -> bool:
        return self.grade.startswith("yes")

    @property
    def modifiers(self) -> list[tuple[str, int]]:
        """The chance taken apart: the base, then the track's points."""
        points = self.step.before
        return [(f"progress {points}", DISCOVERY_STEP * points)] if points else []

    def to_dict(self) -> dict[str, Any]:
        return {
            "thread": self.thread,
            "number": self.number,
            "chance": self.chance,
            "base": DISCOVERY_BASE,
            "modifiers": [list(m) for m in self.modifiers],
            "roll": self.roll,
            "answer": self.grade,
            "found": self.found,
            "reads": DISCOVERY_READS[self.grade],
            "gain": DISCOVERY_GAIN[self.grade],
            "progress": self.step.to_dict(),
            "meaning": self.meaning.to_dict() if self.meaning else None,
            "interpretation": self.hard.to_dict() if self.hard else None,
        }


def discover(rng: random.Random, state: OracleState, thread: str, tables: TableSet | None = None) -> Discovery:
    """A discovery check on an open thread, once per thread per scene.

    Rolls one d100 on ``rng`` under :func:`discovery_chance` of the thread's points,
    moves the track by :data:`DISCOVERY_GAIN` and marks the thread searched for this
    scene. With ``tables``, a find or a lead comes with a meaning pair, a "yes, but"
    with a row of ``price`` and a "no, and" with a row of ``twist``. ValueError if the
    thread is not open or was already searched in this scene.
    """
    if thread not in state.threads:
        raise ValueError(f"no thread {thread!r} in play")
    if thread in state.searched:
        raise ValueError(f"\u201c{thread}\u201d has already been looked into in this scene: look again in the next one")
    chance = discovery_chance(state.thread_progress(thread))
    roll = d100(rng)
    read = grade(roll, chance)
    state.searched.append(thread)
    step = state.gain(thread, DISCOVERY_GAIN[read])
    pair = hard = None
    if tables is not None:
        words = offshoot(rng, "discovery")
        if read in _WITH_WORDS and ACTION_TABLE in tables and SUBJECT_TABLE in tables:
            pair = meaning_words(words, tables)
        table = HARD_ANSWERS.get(read)
        if table is not None and table in tables:
            hard = Interpretation(read, table, tables.roll(table, words, slots=state.slots()).text, None)
    return Discovery(thread, state.threads.index(thread) + 1, chance, roll, read, step, pair, hard)
