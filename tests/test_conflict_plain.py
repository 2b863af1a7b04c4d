"""The fused loop for plain conflicts (Conflict._run_plain) against the phase table, seed by seed.

A plain conflict has two participants, no decider, no sink, no shield and no Luck due, and a
plain ``random.Random``;
``run()`` plays it in one loop. Stepping the same conflict through ``step()`` must give the
same outcome, rounds, statuses and Pool lost, leave the characters' Pools the same, and
draw the same numbers from the generator (its state after is compared).
"""

from __future__ import annotations

import random

import pytest
from conftest import make_char

from solo.events import EventLog
from solo.rules.conflict import ENDED, Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.dice import draw_below
from solo.rules.participants import from_character, obstacle
from solo.rules.rulebook import rules

TYPES = [conflict_type(k) for k in ("combat", "social", "foot_chase", "car_chase", "library", "sneaking")]
WEAPONS = [None, "dagger", "short_sword", "axe", "long_sword", "longbow", "regular_firearm"]
ARMOUR = [None, None, "light", "medium", "heavy"]


def _fighter(rng: random.Random, name: str):
    """A character drawn at random: skills, Focuses, Pools (some already hurt), gear, level, Gear tag."""
    skills = {s: rng.randint(5, 95) for s in ("Combat", "Social", "Move", "Knowledge", "Cunning", "Willpower")}
    focuses = {}
    for skill, focus in (("Combat", "Melee"), ("Combat", "Ranged"), ("Move", "Athletics"), ("Social", "Influence"),
                         ("Knowledge", "Research"), ("Cunning", "Stealth")):
        if rng.random() < 0.3:
            focuses[f"{skill}//{focus}"] = rng.choice([10, 20, 30])
    size = rng.randint(3, 16)
    char = make_char(name, level=rng.choice([None, "common", "skilled"]), pools=size, focuses=focuses,
                     tags=["Gear"] if rng.random() < 0.2 else [], **skills)
    if rng.random() < 0.15:
        char.pools["BODY"].current = -rng.randint(0, 2)  # hurt before the fight: the −20 from the start
    char.weapon = rng.choice(WEAPONS)
    char.armour = rng.choice(ARMOUR)
    char.gear_bonus = rng.randint(0, 2)
    return char


def _setting(seed: int):
    """Two fresh sides and the conflict's options, the same for the same seed."""
    rng = random.Random(seed)
    ctype = rng.choice(TYPES)
    a = from_character(_fighter(rng, "A"), "a", ctype)
    if rng.random() < 0.15:
        b = obstacle("Door", rng.choice(["easy", "normal", "hard"]), side="b")
    else:
        b = from_character(_fighter(rng, "B"), "b", ctype)
    if rng.random() < 0.2:
        a.add_bonus(rng.choice([-20, 20]), "disposition")
    limit = rng.choice([None, None, 1, 3, 8])
    if limit is None and (min(a.base_target() + a.bonus, b.base_target()) <= 0 or a.armour or b.armour):
        limit = 60  # a side that never succeeds, or armour that takes every blow, would stall for ever
    for p in (a, b):
        p.invalidate()
    return ctype, [a, b], limit


def _played(seed: int, fused: bool):
    ctype, parts, limit = _setting(seed)
    dice = random.Random(seed * 7919 + 1)
    conflict = Conflict(ctype, parts, dice, round_limit=limit)
    assert conflict.fused()
    if fused:
        result = conflict.run()
    else:
        while conflict.phase != ENDED:
            conflict.step()
        result = conflict.result
    pools = [(p.pool.current, p.char.pools if p.char else None) for p in parts]
    return result.to_dict(), [p.status for p in parts], repr(pools), dice.getstate()


@pytest.mark.parametrize("block", range(4))
def test_the_fused_loop_plays_plain_conflicts_as_the_phase_table_does(block):
    for seed in range(block * 1000, (block + 1) * 1000):
        assert _played(seed, True) == _played(seed, False), f"seed {seed}"


class _Subclass(random.Random):
    pass


def test_a_conflict_with_a_sink_a_decider_or_three_sides_is_not_plain():
    ctype = conflict_type("combat")

    def two():
        return [from_character(make_char("A"), "a", ctype), from_character(make_char("B"), "b", ctype)]

    assert Conflict(ctype, two(), random.Random(1)).fused()
    assert not Conflict(ctype, two(), random.Random(1), sink=EventLog()).fused()
    decided = two()
    decided[0].decider = object()  # type: ignore[assignment]
    assert not Conflict(ctype, decided, random.Random(1)).fused()
    three = two() + [from_character(make_char("C"), "b", ctype, pid="C")]
    assert not Conflict(ctype, three, random.Random(1)).fused()
    owing = two()
    assert owing[0].char is not None
    owing[0].char.owed_failures = 1
    assert not Conflict(ctype, owing, random.Random(1)).fused()
    assert not Conflict(ctype, two(), _Subclass(1)).fused()  # its draws may not be Random's own
    shielded = [from_character(make_char("A"), "a", ctype), from_character(make_char("B"), "b", ctype)]
    shielded[1].shield = next(iter(rules().shields.values()))
    assert not Conflict(ctype, shielded, random.Random(1)).fused()
    given_later = Conflict(ctype, two(), random.Random(1))
    given_later.rng = _Subclass(1)  # new dice after it was made: the fused loop and every roll use them
    assert not given_later.fused()
    same = _Subclass(1)
    assert [given_later._below(100) for _ in range(50)] == [same.randint(1, 100) - 1 for _ in range(50)]


@pytest.mark.parametrize("sides", [1, 2, 3, 6, 7, 10, 20, 99, 100, 101, 1000])
def test_draw_below_draws_what_randint_draws(sides):
    a, b = random.Random(sides), random.Random(sides)
    below = draw_below(a)
    assert [below(sides) + 1 for _ in range(2000)] == [b.randint(1, sides) for _ in range(2000)]
    assert a.getstate() == b.getstate()


def test_draw_below_of_another_generator_calls_its_randint():
    class Recorded(random.Random):
        def randint(self, a, b):
            return b  # a stand-in that always rolls the highest face

    assert draw_below(Recorded(1))(6) + 1 == 6
