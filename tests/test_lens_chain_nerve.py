"""The Lens chain with an NPC mind's nerve (issue 28, point 4): its morale checks, and its flight or surrender when
it breaks, priced exactly, and checked against the engine's own conflicts (the sequential test of
tests/sequential.py, with the error rates of four standard errors at the runs named)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import make_char
from sequential import Case, check

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
    # read once per form and duplicated after (NPC.from_form, the copy tests/test_npc_copy.py holds to a fresh
    # read): the same NPC each conflict, without checking every field of the same dict thousands of times
    npc = NPC.from_form(npc_file)
    pc = make_char("Tove", pools={"BODY": 8, "INT": 10, "POW": 14, "CHA": 14}, luck=0, Combat=60, Cunning=55,
                   Social=45, Move=40)
    pc.weapon = "short_sword"
    a = from_character(pc, "a", COMBAT, decider=LensKeeper(lens))
    b = from_character(npc, "b", COMBAT, decider=NPCMind(npc, mind_rng))
    return Conflict(COMBAT, [a, b], rng, round_limit=limit), a


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
# a coward that both runs and gives up is played through solo odds and solo duel with cautious, covert, flamboyant
# and quick, its flights and surrenders counted apart (tests/test_odds_cli.py, which also holds the two commands to
# the same match-up for every Lens, exactly): the other kinds of mind here, with the other Lenses. Each Lens is
# played against a mind's nerve at full power in one of the two files.
@pytest.mark.parametrize(("name", "lens"), [("yielder", "aggressive"), ("zealot", "clever"), ("thug", "none"),
                                            ("mindless", "aggressive")])
def test_the_chain_with_the_nerve_agrees_with_the_engine(name, lens):
    """Won, lost, the NPC fled, it surrendered, undecided: the chain's chances against seeded conflicts, the error
    rates of 3,000."""
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
    rng, mind_rng = random.Random(f"nerve:{name}:{lens}"), random.Random(f"nerve-mind:{name}:{lens}")

    def play(runs: int) -> dict[str, int]:
        counts = dict.fromkeys(expected, 0)
        for _ in range(runs):
            played, _ = _conflict(npc_file, lens, rng, mind_rng)
            counts[played.run().outcome] += 1
        return counts

    check([Case(f"{name} against {lens}", expected, play)], 3000)


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


def test_nerves_grouped_at_once_are_those_grouped_one_at_a_time_to_the_bit():
    """nerve_checks groups the chances by the nerve each leaves all codes at once (``by_code``): the same codes,
    in the same order, with the same chances to the last bit, as one code at a time (np.unique), over arrays of
    codes with repeats, zeros and one state. nerve_checks' sums are held to Morale.observe above."""
    from solo.minds.morale import by_code

    def one_at_a_time(pairs):
        out: dict = {}
        for code, p in pairs:
            for c in np.unique(code):
                got = np.where(code == c, p, 0.0)
                if np.any(got > 0.0):
                    out[int(c)] = out[int(c)] + got if int(c) in out else got
        return out

    rng = np.random.default_rng(11)
    for shape in ((7, 9), (4, 5), (), (8, 3), (30,)):
        for _ in range(40):
            codes = [rng.integers(0, 24, shape) for _ in range(2)]
            chances = [np.where(rng.random(shape) < 0.2, 0.0, rng.random(shape)) for _ in range(2)]
            pairs = list(zip(codes, chances))
            got, want = by_code(pairs), one_at_a_time(pairs)
            assert list(got) == list(want)
            assert all(np.array_equal(got[k], want[k]) for k in want)


