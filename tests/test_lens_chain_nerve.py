"""The Lens chain with an NPC mind's nerve (issue 28, point 4): its morale checks, and its flight or surrender when
it breaks, priced exactly, and checked against the engine's own conflicts (four standard errors)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from conftest import make_char

from solo.minds.bots import LensKeeper
from solo.minds.foresight import Foresight
from solo.minds.morale import Morale, Nerve, nerve_checks, reaction_split
from solo.minds.npc import NPCMind
from solo.npc import NPC
from solo.npc.leanings import leanings
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.outcomes import LOST, OPPONENT_FLED, OPPONENT_SURRENDERED, STALEMATE, WON
from solo.rules.participants import from_character

COMBAT = conflict_type("combat")
BODY = {"skills": {"Combat": 55, "Cunning": 45, "Move": 40}, "pools": {"BODY": 8, "INT": 6, "POW": 10, "CHA": 6},
        "weapon": "axe"}
EVENT = {"event": {"topic": "Money", "sign": "negative"}}
#: Code Blocks from one that breaks easily and runs (Health: surrender, flee or beg) to one that fights on (Faith).
MINDS = {
    "coward": {"name": "Sneak", "level": "skilled", **BODY,
               "code_block": {"personality": ["Nervous", "Shy"], "motivation": ["Health"], **EVENT}},
    "yielder": {"name": "Clerk", "level": "skilled", **BODY,
                "code_block": {"personality": ["Correct", "Reserved"], "motivation": ["Order and Logic"], **EVENT}},
    "zealot": {"name": "Zealot", "level": "skilled", **BODY,
               "code_block": {"personality": ["Stressed", "Bitter"], "motivation": ["Faith"], **EVENT}},
    "thug": {"name": "Thug", "level": "common", "skills": {"Combat": 50, "Cunning": 30, "Move": 30},
             "pools": {"BODY": 8, "INT": 6, "POW": 6, "CHA": 6}, "weapon": "cudgel",
             "code_block": {"personality": ["Nervous", "Bitter"], "motivation": ["Loiter"], **EVENT}},
    "mindless": {"name": "Grim", "level": "skilled", "mindless": True, **BODY},
}


def _conflict(npc_file: dict, lens: str, rng: random.Random, mind_rng: random.Random, limit: int = 30):
    npc = NPC.from_dict(npc_file)
    pc = make_char("Tove", pools={"BODY": 8, "INT": 10, "POW": 14, "CHA": 14}, luck=0, Combat=60, Cunning=55,
                   Social=45, Move=40)
    pc.weapon = "short_sword"
    a = from_character(pc, "a", COMBAT, decider=LensKeeper(lens))
    b = from_character(npc, "b", COMBAT, decider=NPCMind(npc, mind_rng))
    return Conflict(COMBAT, [a, b], rng, round_limit=limit), a


def _z(count: int, runs: int, p: float) -> float:
    return (count / runs - p) / math.sqrt(max(p * (1 - p), 1e-12) / runs)


def test_the_chain_checks_morale_as_observe_does():
    """nerve_checks over arrays: the chance of each nerve it leaves is the chance observe draws against."""
    for motivation in ("Health", "Order and Logic", "Faith", "Money"):
        block = {"personality": ["Nervous", "Shy"], "motivation": [motivation], **EVENT}
        lean = leanings(NPC.from_dict({**MINDS["coward"], "code_block": block}).code_block)
        for state in ("steady", "shaken"):
            for fired in ((), ("half",), ("half", "hopeless"), ("flee_line",)):
                for pool, last, win in ((8, 8, 0.7), (3, 5, 0.3), (2, 2, 0.05), (5, 6, 0.66), (1, 4, 0.45)):
                    live = Morale(lean, state=state, fired=set(fired), last_pool=last)
                    nerve = Nerve.of(live, pool)
                    got = {n: float(p) for n, p in nerve_checks(lean, nerve, np.array(pool / 8), np.array(win))}
                    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)

                    class Fixed(random.Random):
                        def __init__(self, x: float):
                            super().__init__(0)
                            self.x = x

                        def random(self) -> float:
                            return self.x

                    for x, failed in ((0.0, True), (0.999999999, False)):  # a draw that fails it, one that holds
                        morale = Morale(lean, state=state, fired=set(fired), last_pool=last)
                        check = morale.observe(pool=pool, maximum=8, win=win, allies_out=set(), opponents=1, side=1,
                                               rng=Fixed(x))
                        left = Nerve.of(morale, pool)
                        left = Nerve("broken") if left.state == "broken" else left._replace(hurt=False)
                        if check is None:
                            assert got == {left: 1.0}
                        elif check.failed == failed:
                            share = check.chance if failed else 1.0 - check.chance
                            assert got[left] == pytest.approx(share, abs=1e-15)


def test_what_a_broken_mind_does_is_its_code_blocks_share_of_surrenders():
    coward = leanings(NPC.from_dict(MINDS["coward"]).code_block)
    assert reaction_split(coward, can_flee=True) == coward.surrender_bias
    assert reaction_split(coward, can_flee=False) == 1.0
    zealot = leanings(NPC.from_dict(MINDS["zealot"]).code_block)
    assert reaction_split(zealot, can_flee=True) is None


@pytest.mark.slow
# every Lens against a coward that both runs and gives up is played through solo odds and solo duel, its flights
# and surrenders counted apart (tests/test_odds_cli.py): the other kinds of mind here
@pytest.mark.parametrize(("name", "lens"), [("yielder", "aggressive"), ("zealot", "clever"), ("thug", "none"),
                                            ("mindless", "aggressive")])
def test_the_chain_with_the_nerve_agrees_with_the_engine(name, lens):
    """Won, lost, the NPC fled, it surrendered, undecided: the chain's chances against 3,000 seeded conflicts."""
    npc_file = MINDS[name]
    conflict, pc = _conflict(npc_file, lens, random.Random(0), random.Random(0))
    exact = Foresight(nerve=True).exact(conflict.view, pc, [lens], asked=False)
    odds = exact.odds[lens]
    expected = {WON: odds.a_wins, LOST: odds.b_wins, STALEMATE: odds.never_ends,
                OPPONENT_FLED: odds.b_exits * (1 - exact.surrenders),
                OPPONENT_SURRENDERED: odds.b_exits * exact.surrenders}
    assert sum(expected.values()) == pytest.approx(1.0, abs=1e-9)
    if name == "mindless":
        assert odds.b_exits == 0.0
    elif name == "zealot":  # it fights on when it breaks; only Quick's try to get away, shaken, takes it out
        assert odds.b_exits < 1e-3
    else:
        assert odds.b_exits > 0.05
    if name == "yielder":
        assert exact.surrenders == 1.0
    runs = 3000
    rng, mind_rng = random.Random(f"nerve:{name}:{lens}"), random.Random(f"nerve-mind:{name}:{lens}")
    counts = dict.fromkeys(expected, 0)
    for _ in range(runs):
        played, _ = _conflict(npc_file, lens, rng, mind_rng)
        counts[played.run().outcome] += 1
    for outcome, p in expected.items():
        assert abs(_z(counts[outcome], runs, p)) <= 4, (outcome, counts, expected)


def test_a_kept_morale_check_is_the_one_worked_out_afresh():
    """Over a walk's Pools the morale check is kept by everything it reads (npc._checks_at; the Lens the mind
    used last is not among them): asked again with another last Lens, in another order, it is the same check,
    to the bit, as one worked out with nothing kept; and the declarations built on it are too."""
    from dataclasses import replace

    from solo.minds.morale import SHAKEN, STEADY
    from solo.minds.npc import _checks, _checks_at, declaration_chances
    from solo.rules.lens_chain import Effect

    conflict, pc = _conflict(MINDS["coward"], "covert", random.Random(0), random.Random(0))
    foe = conflict.view.opponents(pc)[0]
    mind = foe.decider
    own, other = np.meshgrid(np.arange(1, 9), np.arange(2, 9), indexing="ij")
    states = [(Effect(c, f, last, Nerve(state, half, hurt=hurt)), Effect(tc, tf, "covert"), seen)
              for c, f in ((0, False), (-20, False), (0, True)) for last in (None, "cautious", "covert")
              for state, half, hurt in ((STEADY, False, False), (SHAKEN, True, False), (SHAKEN, True, True))
              for tc, tf in ((0, False), (-20, True)) for seen in (None, "aggressive")]

    def readings():  # nothing kept yet
        return {m: replace(mind._reading(conflict.view, foe, m), seen={}) for m in ("steady", "shaken", "broken")}

    for order in (states, states[::-1]):
        kept = readings()
        for mine, theirs, seen in order:
            r = kept[mine.nerve.state]
            got = _checks_at(r, own, other, mine, theirs, seen, "covert", False, mine.nerve)
            want = _checks(r, own, other, mine, theirs, seen, "covert", False, mine.nerve)
            assert [n for n, _ in got] == [n for n, _ in want]
            assert all(np.array_equal(p, q) for (_, p), (_, q) in zip(got, want))
            fresh = readings()
            for k, p in declaration_chances(kept, 0.5, own, other, mine, theirs, seen, "covert", mine.last,
                                            False).items():
                q = declaration_chances(fresh, 0.5, own, other, mine, theirs, seen, "covert", mine.last, False)[k]
                assert np.array_equal(p, q), k


def _plain_nerve_checks(lean, nerve_now, frac, win):
    """nerve_checks as it was, one nerve at a time (np.unique): the plain way its fast path is held to."""
    from solo.minds.morale import (
        _STATES,
        BROKEN,
        HOPELESS,
        LOSING,
        RECOVER_AT,
        SEVERITY,
        SHAKEN,
        SHAKEN_PRESSURE,
        SPREAD,
        nerve,
    )

    frac, win = np.asarray(frac, dtype=float), np.asarray(win, dtype=float)
    if lean.mindless or nerve_now.state == BROKEN:
        return [(nerve_now._replace(hurt=False), np.ones(np.broadcast(frac, win).shape))]
    shaken = nerve_now.state == SHAKEN
    line = lean.flee_threshold
    half = (frac < 0.5) & (not nerve_now.half)
    at_line = (frac <= line) & (win < LOSING) if line > 0 else np.zeros(frac.shape, dtype=bool)
    flee = at_line & (not nerve_now.flee_line)
    wounded = shaken and nerve_now.hurt
    hopeless = (win < HOPELESS) & (not nerve_now.hopeless)
    fired = half | flee | hopeless | wounded
    # observe's sum, in its order: a trigger that did not fire adds 0.0, which leaves the sum's bits alone
    severity = (np.where(half, SEVERITY["half"], 0.0) + np.where(flee, SEVERITY["flee_line"], 0.0)
                + (SEVERITY["wounded"] if wounded else 0.0) + np.where(hopeless, SEVERITY["hopeless"], 0.0))
    pressure = severity + (1.0 - win) + (SHAKEN_PRESSURE if shaken else 0.0)
    x = (pressure - nerve(lean)) / SPREAD
    chance = np.where(x > 40, 1.0, np.where(x < -40, 0.0, 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))))
    flags = (nerve_now.half | half).astype(int) + 2 * (nerve_now.flee_line | flee) + 4 * (nerve_now.hopeless | hopeless)
    now = _STATES.index(nerve_now.state)
    steadies = shaken & (win >= RECOVER_AT)  # no trigger and a clearly better position: steady again
    held = np.where(fired, now, np.where(steadies, 0, now))
    failed = np.where(shaken | at_line, 2, 1)
    out: dict = {}
    for code, p in ((flags + 8 * held, np.where(fired, 1.0 - chance, 1.0)),
                    (flags + 8 * failed, np.where(fired, chance, 0.0))):
        for c in np.unique(code):
            got = np.where(code == c, p, 0.0)
            if np.any(got > 0.0):
                out[int(c)] = out[int(c)] + got if int(c) in out else got
    # broken, it never looks again: what had fired no longer counts (one nerve, not one for each past)
    return [(Nerve(BROKEN) if c // 8 == 2 else Nerve(_STATES[c // 8], bool(c & 1), bool(c & 2), bool(c & 4)), p)
            for c, p in out.items()]


def test_the_morale_checks_fast_path_is_the_plain_one_to_the_bit():
    """nerve_checks works out every nerve a check may leave at once (its fast path): the same nerves, in the same
    order, with the same chances to the last bit, as one at a time, over arrays of states and at one state."""
    from solo.minds.morale import BROKEN, HOPELESS, LOSING, RECOVER_AT, SHAKEN, STEADY

    rng = np.random.default_rng(11)
    edges = np.array([0.0, HOPELESS, LOSING, RECOVER_AT, 0.5, 1.0, 0.35, 0.125])
    for motivation in ("Health", "Order and Logic", "Faith", "Money"):
        block = {"personality": ["Nervous", "Shy"], "motivation": [motivation], **EVENT}
        lean = leanings(NPC.from_dict({**MINDS["coward"], "code_block": block}).code_block)
        for state in (STEADY, SHAKEN, BROKEN):
            for flags in range(16):
                nerve = Nerve(state, bool(flags & 1), bool(flags & 2), bool(flags & 4), bool(flags & 8))
                for frac, win in ((rng.random((7, 9)), rng.random((7, 9))), (rng.choice(edges, (4, 5)),
                                                                           rng.choice(edges, (4, 5))),
                                  (np.array(0.25), np.array(0.3)), (np.arange(1, 9)[:, None] / 8,
                                                                    np.full((8, 3), 0.45))):
                    got = nerve_checks(lean, nerve, frac, win)
                    want = _plain_nerve_checks(lean, nerve, frac, win)
                    assert [n for n, _ in got] == [n for n, _ in want]
                    assert all(np.array_equal(p, q) for (_, p), (_, q) in zip(got, want))
