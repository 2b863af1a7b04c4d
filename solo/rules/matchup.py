"""Plain one-against-one match-ups played by the real engine, for the odds checks.

``solo odds --simulate`` and the tests use this to compare the engine's
frequencies with the exact odds: two stand-in fighters with one skill, one
Pool, fixed damage dice, armour and a fixed Lens each round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..decisions import LENS, PUSH, Question
from .character import Character, Pool
from .conflict import Conflict
from .conflict_types import ConflictType
from .dice import parse
from .outcomes import LOST, OUT, WON
from .participants import Participant
from .rulebook import POOLS, SKILLS, Armour

_MATCHUP = ConflictType(key="matchup", name="Match-up", skill="Combat", focuses=(), pools=("BODY",),
                        physical=True, flight=False)


class FixedLens:
    """Declares the same Lens every round and never yields."""

    def __init__(self, lens: str):
        self.lens = lens

    def decide(self, question: Question) -> str:
        if question.kind == LENS:
            return self.lens
        return question.options[0].key if question.kind != PUSH else OUT


@dataclass(frozen=True)
class Side:
    skill: int
    pool: int
    damage: str = "1d6"
    armour: int = 0
    lens: str = "none"


def fighter(pid: str, side_name: str, s: Side) -> Participant:
    char = Character(
        name=pid, skills={k: (s.skill if k == "Combat" else 5) for k in SKILLS},
        pools={p: Pool(s.pool, s.pool) for p in POOLS}, level="skilled",
    )
    return Participant(
        id=pid, name=pid, side=side_name, char=char, pool=char.pools["BODY"], pool_sources=("BODY",),
        uses_lenses=s.lens != "none", decider=FixedLens(s.lens) if s.lens != "none" else None,
        armour=Armour("custom", "Armour", s.armour) if s.armour else None,
        skill="Combat", damage=parse(s.damage), start_pool=s.pool,
    )


def frequencies(a: Side, b: Side, runs: int, rng: random.Random) -> dict:
    counts = {WON: 0, LOST: 0}
    rounds = 0
    for _ in range(runs):
        conflict = Conflict(_MATCHUP, [fighter("A", "a", a), fighter("B", "b", b)], rng)
        result = conflict.run()
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
        rounds += result.rounds
    return {"a_wins": counts[WON] / runs, "b_wins": counts[LOST] / runs, "mean_rounds": rounds / runs,
            "counts": counts}
