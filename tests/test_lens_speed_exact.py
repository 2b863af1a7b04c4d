"""The shortcuts that make the Lens odds against a mind faster keep them exact (issue 12, speed).

An NPC mind's Lens policy keeps what it worked out per state (every consideration but the habit of
repeating its last Lens, once; the spread once per last Lens); the Lens chain shares a declared round
between the states that differ only in what it does not read of B, and a side's blows between the
rounds that differ only in a carry; the advice prices Covert and Flamboyant once where they cannot
differ. Each shortcut is checked against the plain computation it replaces: the mind's considerations
summed in their order, asked afresh for one state at a time; the chain without shared rounds; every
Lens priced on its own.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from conftest import make_char

from solo.minds.bots import LensKeeper
from solo.minds.foresight import Foresight
from solo.minds.npc import NPCMind, Situation, choice_chances, foe_last_lens, lens_considerations, totals_of
from solo.npc import NPC
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.lens_chain import NOTHING, Effect, LensChain, lens_targets
from solo.rules.lenses import CLEVER_BONUS, LENS_TABLE, LENSES, NEXT_ROUND
from solo.rules.participants import from_character

COMBAT = conflict_type("combat")
NPC_FILE = {"name": "Vera", "level": "skilled", "skills": {"Combat": 55, "Cunning": 60, "Social": 50},
            "pools": {"BODY": 9, "INT": 8, "POW": 14, "CHA": 14}, "weapon": "dagger",
            "code_block": {"personality": ["Correct", "Bitter"], "motivation": ["Faith"],
                           "event": {"topic": "Money", "sign": "negative"}}}


def _duel(seed: int = 1):
    npc = NPC.from_dict(NPC_FILE)
    pc = make_char("Ada", pools=9, luck=0, Combat=60, Cunning=55, Social=45)
    mind = NPCMind(npc, random.Random(seed))
    a = from_character(pc, "a", COMBAT, decider=LensKeeper("none"))
    b = from_character(npc, "b", COMBAT, decider=mind)
    return Conflict(COMBAT, [a, b], random.Random(seed), round_limit=30), mind, b


def _states():
    """A spread of states as B sees them: (own, other, own effect, foe's effect, what the foe declared first)."""
    rng = random.Random(7)
    out = []
    for _ in range(120):
        last = rng.choice((None, *LENSES))
        mine = Effect(rng.choice((0, -20, -40)), rng.random() < 0.2, last)
        theirs = Effect(rng.choice((0, -20)), rng.random() < 0.2)
        seen = rng.choice((None, None, *LENSES, "skill", "damage"))
        out.append((rng.randint(1, 9), rng.randint(1, 9), mine, theirs, seen))
    return out


def _by_considerations(mind: NPCMind, view, me, state, keeps: str) -> dict[str, float]:
    """The policy's spread in one state the long way: every consideration, inertia in its place, summed in order."""
    own, other, mine, theirs, seen = state
    r = mind._make_reading(view, me)
    opp_frac = other / r.op_max
    if mine.follow_up:
        return mind.lens_policy(view, me, keeps=keeps)(own, other, mine, theirs, seen)  # the edges: no shortcut
    if seen is not None:
        opp_lens = sit_lens = "none" if seen in ("skill", "damage") else seen
        carry_op = theirs.carry + (CLEVER_BONUS if seen == "skill" else 0)
    else:
        sit_lens = foe_last_lens(keeps, theirs)
        opp_lens = "none" if LENS_TABLE[sit_lens].follow_up else sit_lens
        carry_op = theirs.carry + (NEXT_ROUND if theirs.follow_up else 0)
    vals = r.ev.lens_values(own, other, carry_me=mine.carry, carry_op=carry_op, opp_lens=opp_lens, covert=r.covert,
                            flamboyant=r.flamboyant, side_pool=r.side_pool)
    rounds = r.ev.round_wins(carry_me=mine.carry, carry_op=carry_op, opp_lens=opp_lens, covert=r.covert,
                             flamboyant=r.flamboyant, side_pool=r.side_pool)
    hopeless = {k for k in r.lenses if rounds[k] == 0}  # left out of the draw while another Lens can win the round
    sit = Situation(values=vals, win=max(vals[k] for k in r.lenses if k in vals), own_frac=own / r.own_max,
                    opp_frac=opp_frac, opp_lens=sit_lens, opp_off_balance=theirs.carry < 0, armour_op=r.armour_op,
                    morale=r.morale, last_lens=mine.last, kind=r.kind, rapport=r.rapport,
                    futile=frozenset(hopeless) if hopeless != set(r.lenses) else frozenset())
    return choice_chances(totals_of(lens_considerations(r.lean, r.lenses, sit), r.lenses, digits=6))


@pytest.mark.parametrize("keeps", ["none", "clever", "covert"])
def test_the_mind_policy_is_its_considerations_summed_in_order_whatever_it_was_asked_before(keeps):
    conflict, mind, me = _duel()
    view = conflict.view
    shared = mind.lens_policy(view, me, keeps=keeps)
    states = _states()
    asked = {i: shared(*s) for i, s in enumerate(states)}  # one policy asked everything: its kept parts reused
    for i, state in enumerate(states):
        fresh_conflict, fresh_mind, fresh_me = _duel()
        alone = fresh_mind.lens_policy(fresh_conflict.view, fresh_me, keeps=keeps)(*state)  # nothing kept yet
        assert asked[i] == alone, state
        assert asked[i] == _by_considerations(fresh_mind, fresh_conflict.view, fresh_me, state, keeps), state
    assert any(len(v) > 1 for v in asked.values())  # the mind draws among several Lenses somewhere
    # asked again, in reverse: the same spreads
    assert {i: shared(*s) for i, s in reversed(list(enumerate(states)))} == asked


def _ignores_last(own, other, mine, theirs, seen=None):
    """A stochastic policy that sees the foe's Lens but does not read its own last one."""
    if mine.follow_up:
        return {"skill": 0.6, "damage": 0.4} if other > 3 else "damage"
    out = {"none": 1.0, "cautious": 1.0 + (own < other), "covert": 0.5 if theirs.carry < 0 else 0.2,
           "clever": 0.7 if seen in (None, "aggressive") else 0.1, "flamboyant": 0.3}
    total = sum(out.values())
    return {k: v / total for k, v in out.items()}


def _plainly(own, other, mine, theirs, seen=None):
    """A policy with one choice in every state, seeing the foe's Lens, not reading its own last one."""
    if mine.follow_up:
        return "damage" if other < 4 else "skill"
    return "cautious" if own < other else "clever" if seen == "covert" else "covert"


@pytest.mark.parametrize("policy", [_ignores_last, _plainly])
@pytest.mark.parametrize("limit", [1, 3, 12, 30])
def test_rounds_shared_by_what_b_remembers_give_the_odds_without_sharing(limit, policy):
    """A policy that ignores its last Lens, held with it (states split by it, rounds and blows shared) and without
    it (each state's round merged by successor)."""
    a, b = lens_targets(55, covert=50, flamboyant=45), lens_targets(50, covert=45, flamboyant=40)

    def sees(pa, pb):
        return 1.0 if pa > pb else 0.0 if pa < pb else 0.5

    plain = LensChain(a, b, damage_b="1d8", armour_a=1, policy_b=policy, sees=sees)
    split = LensChain(a, b, damage_b="1d8", armour_a=1, policy_b=policy, sees=sees, remembers=True)
    starts = [(7, 6, NOTHING, NOTHING), (5, 8, Effect(-20), Effect(0, True)), (6, 6, Effect(0, True), Effect(-20))]
    for pa, pb, ea, eb in starts:
        got = split.lens_odds(pa, pb, effect_a=ea, effect_b=eb._replace(last="clever" if eb.follow_up else None),
                              round_limit=limit)
        want = plain.lens_odds(pa, pb, effect_a=ea, effect_b=eb, round_limit=limit)
        assert got.best == want.best
        for lens, odds in want.odds.items():
            mine = got.odds[lens]
            assert mine.first == odds.first
            for field in ("a_wins", "b_wins", "never_ends", "expected_rounds"):
                assert getattr(mine, field) == pytest.approx(getattr(odds, field), abs=1e-12), (lens, field)


def test_a_bad_answer_names_the_state_it_was_given_in():
    chain = LensChain(50, 50, policy_b=lambda own, other, mine, theirs: "covert" if own < 3 else "none")
    with pytest.raises(ValueError, match=r"side b at Pools [12]/\d+, effects .*may choose"):
        chain.odds(5, 5, round_limit=10)


def _asked(monkeypatch) -> list[str]:
    """The Lenses the chains are asked to price from here on."""
    asked: list[str] = []
    real = LensChain.kept_odds

    def counting(self, pool_a, pool_b, wanted, **kwargs):
        asked.extend(wanted)
        return real(self, pool_a, pool_b, wanted, **kwargs)

    monkeypatch.setattr(LensChain, "kept_odds", counting)
    return asked


@pytest.mark.parametrize("social", [55, 70])
def test_a_lens_priced_by_its_twin_has_the_odds_it_has_priced_alone(monkeypatch, social):
    """Covert rolls Cunning (55), Flamboyant in a fight the best of Move, Willpower and Social: the same target
    when Social is 55 too."""
    conflict, mind, npc = _duel()
    pc = conflict.participants[0]
    pc.char.skills["Social"] = social  # 55: Flamboyant's fitting skill rolls what Covert's Cunning rolls
    pc.invalidate()
    view = conflict.view
    alone = Foresight(max_mind=20, twins=False)
    twinned = Foresight(max_mind=20)
    asked = _asked(monkeypatch)
    for round_no, carry, pools in ((1, 0, (9, 9)), (4, -20, (7, 5)), (6, 0, (4, 6))):
        conflict.round, pc.carry = round_no, carry
        pc.pool.current, npc.pool.current = pools
        want = alone.exact(view, pc)
        del asked[:]
        got = twinned.exact(view, pc)
        assert got.odds == want.odds and got.best == want.best
        assert got.odds["flamboyant"].first == "flamboyant"
        assert ("flamboyant" in asked) == (social > 55)  # priced on its own only where it differs


BLAS_THREADS = """
import ctypes, os, sys
import solo.rules.lens_arrays  # numpy, as the exact odds load it
libs = sorted({line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line.lower()})
counts = [getattr(ctypes.CDLL(path), name)() for path in libs
          for name in ("openblas_get_num_threads", "openblas_get_num_threads64_", "scipy_openblas_get_num_threads64_")
          if hasattr(ctypes.CDLL(path), name)]
print(os.environ["OPENBLAS_NUM_THREADS"], counts)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the loaded libraries from /proc/self/maps")
@pytest.mark.parametrize("chosen", [None, "2"])
def test_the_exact_odds_solve_on_one_blas_thread_unless_the_user_chose(chosen):
    """solo sets OpenBLAS to one thread before numpy loads (solo/__init__.py): the small solves of the odds
    only lose by threads, badly on a busy machine. A user's own setting stays."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if chosen is not None:
        env["OPENBLAS_NUM_THREADS"] = chosen
    done = subprocess.run([sys.executable, "-c", BLAS_THREADS], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    setting, counts = done.stdout.split(" ", 1)
    assert setting == (chosen or "1")
    if chosen is None and counts.strip() != "[]":  # numpy built on OpenBLAS: the library itself runs one thread
        assert counts.strip() == "[1]", counts


@pytest.mark.parametrize(("lens", "limit"), [("none", 12), ("aggressive", 30), ("cautious", 30)])
def test_the_walks_expected_rounds_kept_by_state_are_the_sum_taken_afresh(lens, limit):
    """Keeping one Lens against plain rolls, a walk's expected rounds are the sum over the rounds to go of the
    chance to be still undecided, kept once worked out for a state (a bot asks the same states again and again).
    Asked in a shuffled order, twice, every state and number of rounds to go must give the very float the sum
    taken afresh for it gives: nothing kept for one state is read for another."""
    import numpy as np

    from solo.rules.lens_arrays import A_WINS, B_WINS, Walk

    chain = LensChain(lens_targets(55), lens_targets(45), damage_a="1d6", damage_b="1d4", bonus_a=1, armour_b=1)
    chain.odds(14, 11, lens_a=lens, round_limit=limit)
    [walk] = [solved for _, solved in chain._kept if isinstance(solved, Walk)]
    assert walk.comps == 2  # no choice of A and no way out for B: the expected rounds come from the sum
    pairs, ha, hb = walk.values[0].shape[1:]
    states = [(p, ia, ib, t) for t in range(1, walk.horizon) for p in range(pairs) for ia in range(ha)
              for ib in range(hb)]
    random.Random(limit).shuffle(states)
    for p, ia, ib, t in states + states[: len(states) // 2]:
        seen = np.array([walk.values[s][:2, p, ia, ib] for s in range(t)]).reshape(t, 2)
        afresh = float(np.sum(1.0 - seen[:, A_WINS] - seen[:, B_WINS]))
        assert walk._value(p, ia, ib, t)[2].hex() == afresh.hex()
    assert len({round(walk._value(*state)[2], 9) for state in states}) > 50  # the states differ: a real check
