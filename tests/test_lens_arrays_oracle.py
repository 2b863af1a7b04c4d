"""The Lens chain as arrays (solo/rules/lens_arrays.py) against the pure-Python chain it replaced (issue 28).

tests/lens_chain_oracle.py is that chain as it stood, kept here only as the oracle: the values of
every Lens kept, from the states a conflict passes through, against an NPC mind (asked state by
state, as the old chain asked it) and against stand-in policies that see and remember, with and
without a round limit, agree to 1e-12, and the best Lens is the same.
"""

from __future__ import annotations

import random

import lens_chain_oracle as oracle
import pytest
from conftest import make_char

from solo.minds.bots import LensKeeper
from solo.minds.foresight import Foresight, foe_of, initiative, mind_of, side_targets
from solo.minds.npc import NPCMind
from solo.npc import NPC
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.lens_chain import Effect, LensChain, fixed_policy, lens_targets
from solo.rules.lenses import LENSES
from solo.rules.participants import from_character

COMBAT = conflict_type("combat")
NPC_FILE = {"name": "Vera", "level": "skilled", "skills": {"Combat": 55, "Cunning": 60, "Social": 50},
            "pools": {"BODY": 9, "INT": 8, "POW": 14, "CHA": 14}, "weapon": "dagger",
            "code_block": {"personality": ["Aggressive", "Manipulative"], "motivation": ["Faith"],
                           "event": {"topic": "Money", "sign": "negative"}}}


def _duel(limit: int | None, pools: int = 9, social: int = 70):
    npc = NPC.from_dict(NPC_FILE)
    npc.pools["BODY"].current = npc.pools["BODY"].maximum = pools
    pc = make_char("Ada", pools=pools, luck=0, Combat=60, Cunning=55, Social=social)
    a = from_character(pc, "a", COMBAT, decider=LensKeeper("none"))
    b = from_character(npc, "b", COMBAT, decider=NPCMind(npc, random.Random(1)))
    conflict = Conflict(COMBAT, [a, b], random.Random(1), round_limit=limit)
    conflict.round = 1
    return conflict, a, b


def _old_exact(view, me) -> dict:
    """Every Lens's odds as the old Foresight priced them: one old chain per Lens, the mind asked state by state."""
    foe = foe_of(view, me)
    mind = mind_of(foe)
    physical = view.ctype.physical
    from solo.minds.position import best_secondary

    mine, theirs = side_targets(view, me), side_targets(view, foe, best_secondary(foe))
    setting = dict(damage_a=str(me.damage_dice(physical)), damage_b=str(foe.damage_dice(physical)),
                   bonus_a=me.damage_bonus(physical), bonus_b=foe.damage_bonus(physical),
                   armour_a=me.armour_against(foe, view.ctype), armour_b=foe.armour_against(me, view.ctype))
    limit = view.round_limit
    left = None if limit is None else max(1, limit - max(view.round, 1) + 1)
    decl = view.declared(foe.id)
    last = mind.remembered_lens(view)
    eb = Effect(foe.carry, foe.clever_next if decl is None else decl.clever_choice is not None, last)
    out = {}
    for lens in mine:
        policy = mind.lens_policy(view, foe, keeps=lens)
        chain = oracle.LensChain(mine, theirs, policy_b=policy, sees=initiative(me, foe), remembers=True, **setting)
        declared = (decl.clever_choice or decl.lens) if decl is not None else mind.lens_spread(view, foe, lens)
        lens_a = oracle.fixed_policy("clever", "skill") if lens == "clever" else lens
        out[lens] = chain.odds(me.pool.current, foe.pool.current, lens_a=lens_a, effect_a=oracle.Effect(me.carry),
                               effect_b=oracle.Effect(*eb[:3]), round_limit=left, declared_b=declared)
    return out


def _same(new: dict, old: dict) -> None:
    assert list(new) == list(old)
    for lens, o in old.items():
        n = new[lens]
        for field in ("a_wins", "b_wins", "never_ends", "expected_rounds"):
            assert getattr(n, field) == pytest.approx(getattr(o, field), abs=1e-12), (lens, field)
        assert n.first == o.first
    best = max(old, key=lambda k: old[k].a_wins)
    assert max(new, key=lambda k: new[k].a_wins) == best


# A limit of 30 ran here too: it ran no line of either chain or of the mind that 12 does not (traced line by line).
@pytest.mark.parametrize("limit", [12, None])
def test_every_lens_against_a_mind_has_the_old_chains_odds_through_a_conflict(limit):
    """The first menu, then later ones as the conflict moves on (hurt, a −20 carried, the mind's Clever edge due,
    its last Lens remembered): the same odds as the old chain, Lens by Lens."""
    conflict, pc, npc = _duel(limit, pools=9 if limit is not None else 6)
    view = conflict.view
    foresight = Foresight(max_mind=20, twins=False, nerve=False)  # the old chain held the nerve as it stood
    states = [(1, 0, False, None, 0), (3, -20, False, "covert", -20), (5, 0, True, "clever", 0),
              (7, -40, False, "aggressive", 0)]
    mind = mind_of(npc)
    for round_no, carry, edge_due, last, npc_carry in states:
        conflict.round, pc.carry, npc.carry, npc.clever_next = round_no, carry, npc_carry, edge_due
        mind._fight_for(view).last_lens = last
        if round_no > 1:
            pc.pool.current, npc.pool.current = max(1, pc.pool.current - 2), max(1, npc.pool.current - 1)
        _same(foresight.exact(view, pc).odds, _old_exact(view, pc))


def _sees(pa: int, pb: int) -> float:
    return 1.0 if pa > pb else 0.0 if pa < pb else 0.5


def _stand_in(own, other, mine, theirs, seen=None):
    """A mind-like stochastic policy that answers what it saw, remembers its last Lens and reads the foe's -20."""
    if mine.follow_up:
        return {"skill": 0.6, "damage": 0.4} if other > 3 else {"skill": 0.2, "damage": 0.8}
    if seen in ("covert", "flamboyant"):
        return {"cautious": 0.7, "clever": 0.3}
    out = {"none": 1.0, "aggressive": 0.5 + (other < own), "cautious": 1.0 + (own < other),
           "covert": 0.8 if theirs.carry < 0 else 0.2, "clever": 0.4, "flamboyant": 0.1,
           "quick": 0.3 if mine.last == "quick" else 0.05}
    total = sum(out.values())
    return {k: v / total for k, v in out.items()}


# Limits: 1 (the first round alone), 2 (a walk whose rectangle stops above Pool 1), 9 (a walk over every Pool) and
# none (the solve). A limit of 30 ran here too, at twice the time of 9: it walks the same rectangle with more passes,
# and it ran exactly the same lines of both chains as 9 does (traced line by line), so it tested nothing 9 does not.
# The solve starts at Pools 5 and 6, where it started at 6 and 7 in 0.4 s more: the same lines of both chains run
# (traced), and the Pools stand to the blows as they did (A's above B's largest blow, 4; B's within A's, 7).
@pytest.mark.parametrize("limit", [1, 2, 9, None])
def test_stand_in_policies_give_the_old_chains_odds(limit):
    """Every way of asking: each Lens kept (its edge the better one), best play, a kept Clever with a set edge, a
    declared B, a first declaration of A, carried effects; B seeing A's declaration and remembering its own."""
    a, b = lens_targets(55, covert=62, flamboyant=40), lens_targets(50, covert=45, flamboyant=58)
    setting = dict(damage_a="1d6", damage_b="1d4+1", armour_a=1, bonus_a=1)
    new = LensChain(a, b, policy_b=_stand_in, sees=_sees, remembers=True, **setting)
    old = oracle.LensChain(a, b, policy_b=_stand_in, sees=_sees, remembers=True, **setting)
    pools = (5, 6) if limit is None else (9, 8)
    cases = [dict(), dict(effect_a=Effect(-20), effect_b=Effect(0, True, "clever")),
             dict(effect_b=Effect(-20, False, "covert"), declared_b={"cautious": 0.5, "covert": 0.5}),
             dict(effect_a=Effect(0, True), first_a="damage")]
    for case in cases:
        for lens_a in (*LENSES, "best", fixed_policy("clever", "skill")):
            if "first_a" in case and lens_a != "clever":
                continue
            old_case = {k: oracle.Effect(*v[:3]) if isinstance(v, Effect) else v for k, v in case.items()}
            o = old.odds(*pools, lens_a=oracle.fixed_policy("clever", "skill") if not isinstance(lens_a, str)
                         else lens_a, round_limit=limit, **old_case)
            n = new.odds(*pools, lens_a=lens_a, round_limit=limit, **case)
            for field in ("a_wins", "b_wins", "never_ends", "expected_rounds"):
                assert getattr(n, field) == pytest.approx(getattr(o, field), abs=1e-12), (case, lens_a, field)
            assert n.first == o.first and n.round == o.round
    n_all = new.lens_odds(*pools, round_limit=limit)
    o_all = old.lens_odds(*pools, round_limit=limit)
    assert n_all.best == o_all.best
    ahead_new, ahead_old = new.look_ahead(*pools, round_limit=limit), old.look_ahead(*pools, round_limit=limit)
    assert ahead_new.best == ahead_old.best
    for k, o in ahead_old.odds.items():
        assert ahead_new.odds[k].a_wins == pytest.approx(o.a_wins, abs=1e-12)
