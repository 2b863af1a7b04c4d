"""The Lens chain (solo/rules/lens_chain.py): exact odds with every Lens, checked three ways.

Against :func:`~solo.rules.odds.conflict_odds` where both can answer (memoryless Lenses,
nothing carried): equal to 1e-12. Against the real engine (solo/rules/conflict.py, driven by
deciders that always declare the same Lens) for all 49 pairs of Lenses, from fresh starts and
from states with carried effects: by the sequential test of tests/sequential.py, the error rates of
four standard errors at the runs each test names, stopping once the conflicts played settle it.
Against itself: the value of a state is the mean of the values of the states its round leads to,
so the odds shown after a lost Covert round are the chain's value of that true state, not a −20
laid on every round to come.
"""

from __future__ import annotations

import random

import pytest
from conftest import make_char
from sequential import Case, check

from solo.decisions import CLEVER_FOLLOW_UP, DAMAGE_POOL, FLAMBOYANT_SKILL, LENS, PUSH, QUICK_ACTION
from solo.rules.conflict import Conflict
from solo.rules.dice import parse
from solo.rules.lens_chain import (
    FOLLOW_UPS,
    NOTHING,
    Effect,
    LensChain,
    chain_odds,
    fixed_policy,
    lens_odds,
    lens_targets,
)
from solo.rules.lenses import LENS_TABLE, LENSES
from solo.rules.matchup import _MATCHUP
from solo.rules.odds import conflict_odds, damage_distribution, round_odds
from solo.rules.outcomes import OUT
from solo.rules.participants import Participant
from solo.rules.rulebook import Armour

MEMORYLESS = ("none", "aggressive", "cautious")


# -- equal to conflict_odds where both apply -----------------------------------------------------


@pytest.mark.parametrize("limit", [None, 1, 7, 30])
@pytest.mark.parametrize("lens_a", MEMORYLESS + ("best",))
@pytest.mark.parametrize("lens_b", MEMORYLESS)
def test_memoryless_pairs_equal_conflict_odds(lens_a, lens_b, limit):
    setting = dict(damage_a="1d8", damage_b="1d4+1", bonus_a=1, armour_a=2, armour_b=1)
    old = conflict_odds(55, 12, 48, 14, lens_a=lens_a, lens_b=lens_b, round_limit=limit, **setting)
    new = chain_odds(lens_targets(55), 12, {k: 48 for k in MEMORYLESS}, 14, lens_a=lens_a, policy_b=lens_b,
                     round_limit=limit, **setting)
    for field in ("a_wins", "b_wins", "never_ends", "expected_rounds"):
        assert getattr(new, field) == pytest.approx(getattr(old, field), abs=1e-12), field
    assert new.round.a == pytest.approx(old.round.a, abs=1e-15)
    assert new.round.b == pytest.approx(old.round.b, abs=1e-15)


@pytest.mark.parametrize("limit", [None, 12])
def test_state_dependent_memoryless_policy_equals_conflict_odds(limit):
    def plain(own, other):
        return "cautious" if own * 2 <= other else "aggressive" if other <= 4 else "none"

    old = conflict_odds(50, 15, 60, 12, lens_b=plain, round_limit=limit)
    new = chain_odds(50, 15, 60, 12, policy_b=lambda own, other, mine, theirs: plain(own, other),
                     round_limit=limit)
    assert (new.a_wins, new.b_wins, new.expected_rounds) == pytest.approx(
        (old.a_wins, old.b_wins, old.expected_rounds), abs=1e-12)


def test_a_nothing_can_hurt_never_ends_as_in_conflict_odds():
    old = conflict_odds(50, 5, 50, 5, damage_a="1d4", damage_b="1d4", armour_a=4, armour_b=4)
    new = chain_odds(50, 5, 50, 5, damage_a="1d4", damage_b="1d4", armour_a=4, armour_b=4)
    assert new.never_ends == pytest.approx(old.never_ends) == pytest.approx(1.0)
    # Covert still strikes (a −20) through armour that takes the whole blow; nobody is ever out
    covert = chain_odds({"none": 50, "covert": 60}, 5, 50, 5, damage_a="1d4", damage_b="1d4", armour_a=4,
                        armour_b=4, lens_a="covert")
    assert covert.a_wins == covert.b_wins == 0.0


# -- the real engine ----------------------------------------------------------------------------------

A = dict(combat=55, cunning=65, social=45, pool=5, dice="1d6", armour=0)
B = dict(combat=50, cunning=40, social=60, pool=6, dice="1d4+1", armour=1)


def _targets(s: dict) -> dict[str, int]:
    """What the engine rolls for each Lens: Combat (no Focus), bare Cunning, Social as the shown-off skill."""
    return lens_targets(s["combat"], covert=s["cunning"], flamboyant=s["social"])


class Declares:
    """A decider that always declares one Lens (or draws it from a policy of the chain's state)."""

    def __init__(self, lens: str = "none", edge: str = "skill", policy=None, rng: random.Random | None = None):
        self.lens, self.edge, self.policy, self.rng = lens, edge, policy, rng

    def _draw(self, question, follow_up: bool) -> str:
        me = question.context["participant"]
        other = question.context["conflict"].opponents(me)[0]
        spread = self.policy(me.pool.current, other.pool.current, Effect(me.carry, follow_up), Effect(other.carry))
        if isinstance(spread, str):
            return spread
        x = self.rng.random()
        for choice, p in spread.items():
            x -= p
            if x < 0:
                return choice
        return choice

    def decide(self, question) -> str:
        kind = question.kind
        if kind == LENS:
            return self._draw(question, False) if self.policy else self.lens
        if kind == CLEVER_FOLLOW_UP:
            return self._draw(question, True) if self.policy else self.edge
        if kind == FLAMBOYANT_SKILL:
            return "Social"
        if kind == QUICK_ACTION:
            return "ready"  # no flight in the match-up type, nothing to switch to or use
        if kind == DAMAGE_POOL:
            return "conflict"  # the chain tracks the conflict Pools only
        if kind == PUSH:
            return OUT
        raise AssertionError(f"unexpected question {kind}")


def _fighter(pid: str, side: str, s: dict, decider, effect: Effect = NOTHING) -> Participant:
    char = make_char(pid, pools=s["pool"], Combat=s["combat"], Cunning=s["cunning"], Social=s["social"])
    p = Participant(id=pid, name=pid, side=side, char=char, pool=char.pools["BODY"], pool_sources=("BODY",),
                    uses_lenses=True, decider=decider, skill="Combat", damage=parse(s["dice"]),
                    armour=Armour("custom", "Armour", s["armour"]) if s["armour"] else None, start_pool=s["pool"])
    p.carry, p.clever_next = effect.carry, effect.follow_up
    return p


def _player(deciders, seed: int, limit: int | None, effects=(NOTHING, NOTHING), a=A, b=B):
    """play(runs): {"won": A won, "lost": B won} over ``runs`` more conflicts of the real engine, each from the
    given effects, drawing on from one generator seeded with ``seed`` (the sequential test asks block by block)."""
    rng = random.Random(seed)

    def play(runs: int) -> dict[str, int]:
        won = lost = 0
        for _ in range(runs):
            da, db = deciders()
            result = Conflict(_MATCHUP, [_fighter("A", "a", a, da, effects[0]),
                                         _fighter("B", "b", b, db, effects[1])], rng, round_limit=limit).run()
            won += result.outcome == "won"
            lost += result.outcome == "lost"
        return {"won": won, "lost": lost}

    return play


def _agrees(name: str, odds, play, runs: int) -> None:
    """The engine's won and lost against the chain's chances: the sequential test with the error rates of four
    standard errors at ``runs`` conflicts."""
    check([Case(name, {"won": odds.a_wins, "lost": odds.b_wins}, play)], runs)


def _chain(policy_b, a=A, b=B) -> LensChain:
    return LensChain(_targets(a), _targets(b), damage_a=a["dice"], damage_b=b["dice"], armour_a=a["armour"],
                     armour_b=b["armour"], policy_b=policy_b)


def _check_pairs(runs: int, limit: int | None, edge_a: str, edge_b: str, seed: int) -> None:
    """Every pair against the chain; and together: a bias shared by many pairs (a carried effect misread) shows
    in the sum of their deviations long before in one pair, so the sums of won's and of lost's z are checked
    too (the pairs play in lockstep until those sums settle)."""
    cases = []
    for j, lb in enumerate(LENSES):
        chain = _chain(fixed_policy(lb, edge_b))
        for i, la in enumerate(LENSES):
            odds = chain.odds(A["pool"], B["pool"], lens_a=fixed_policy(la, edge_a), round_limit=limit)
            play = _player(lambda la=la, lb=lb: (Declares(la, edge_a), Declares(lb, edge_b)), seed + 7 * j + i, limit)
            cases.append(Case(f"{la} against {lb}", {"won": odds.a_wins, "lost": odds.b_wins}, play))
    check(cases, runs, shared=("won", "lost"))


def test_every_pair_of_lenses_agrees_with_the_engine():
    """All 49 pairs, the error rates of 140 conflicts each, at most 6 rounds: four standard errors are at most
    0.17 a pair.

    That is a coarse net for one pair; the sums of the 49 deviations catch a bias that all pairs
    share from about 0.025. The slow test below tightens both."""
    _check_pairs(140, 6, "damage", "skill", 100)


@pytest.mark.slow
def test_every_pair_of_lenses_agrees_with_the_engine_open_ended():
    """The same with no round limit, the other follow-up edges and the error rates of 400 conflicts a pair
    (four standard errors at most 0.1 a pair, about 0.015 for a bias shared by all)."""
    _check_pairs(400, None, "skill", "damage", 300)


EFFECT_CASES = [  # (A's Lens now, B's Lens now, A's effect, B's effect): states one round of the engine leaves
    ("covert", "none", Effect(-20), NOTHING),  # A's Covert round not won
    ("covert", "covert", NOTHING, Effect(-40)),  # both Covert, A won: B not won, and struck
    ("none", "clever", Effect(-20), Effect(0, True)),  # A's Covert round lost to B's Clever: B's edge is due
    ("clever", "flamboyant", Effect(0, True), Effect(-20)),  # a Clever round won or stalled against Flamboyant
    ("aggressive", "covert", Effect(-40), NOTHING),  # A's Covert round lost to B's Covert blow
]


@pytest.mark.parametrize("index", range(len(EFFECT_CASES)))
def test_a_start_with_carried_effects_agrees_with_the_engine(index):
    """From a state with effects: conflicts of at most 5 rounds, the error rates of 1,500 (four standard errors
    at most 0.052)."""
    la, lb, ea, eb = EFFECT_CASES[index]
    a, b = dict(A, pool=4), dict(B, pool=5)
    chain = _chain(fixed_policy(lb, "skill"), a, b)
    odds = chain.odds(4, 5, lens_a=fixed_policy(la, "damage"), effect_a=ea, effect_b=eb, round_limit=5)
    fresh = chain.odds(4, 5, lens_a=fixed_policy(la, "damage"), round_limit=5)
    play = _player(lambda: (Declares(la, "damage"), Declares(lb, "skill")), 900 + index, 5, (ea, eb), a, b)
    _agrees(f"{la} against {lb}", odds, play, 1500)
    # the effects matter here, by more than the test's margin: it could tell them apart
    assert max(abs(odds.a_wins - fresh.a_wins), abs(odds.b_wins - fresh.b_wins)) > 0.06


def test_a_stochastic_policy_of_the_whole_state_agrees_with_the_engine():
    """B draws its Lens from a policy of its Pool, the foe's, its carry and its follow-up, as a mind would."""

    def policy(own, other, mine, theirs):
        if mine.follow_up:
            return {"skill": 0.3, "damage": 0.7} if other <= 3 else {"skill": 0.8, "damage": 0.2}
        if mine.carry < 0:
            return {"cautious": 0.6, "covert": 0.4}
        if own < other:
            return {"clever": 0.5, "aggressive": 0.3, "flamboyant": 0.2}
        return {"none": 0.4, "covert": 0.4, "quick": 0.2}

    chain = _chain(policy)
    for i, (la, limit) in enumerate((("covert", 6), ("cautious", None))):
        odds = chain.odds(A["pool"], B["pool"], lens_a=fixed_policy(la, "skill"), round_limit=limit)
        draws = random.Random(i)  # B's own generator, drawing on from one conflict to the next
        play = _player(lambda la=la, draws=draws: (Declares(la, "skill"), Declares(policy=policy, rng=draws)),
                       500 + i, limit)
        _agrees(la, odds, play, 2000)  # the error rates of 2,000: four standard errors at most 0.045


# -- the chain's value of the true state ----------------------------------------------------------------


def _next_states(ta: int, tb: int, lens_a: str, pool_a: int, pool_b: int):
    """By hand: A's Lens against B's plain roll, one round; [(chance, A wins now, B wins now, state after)].

    A's Covert or Flamboyant round not won leaves A −20; won, it leaves B −20 (docs/rules.md §6).
    """
    carries = lens_a in ("covert", "flamboyant")
    shift = {"aggressive": -20, "cautious": 20, "quick": -20}.get(lens_a, 0)
    r = round_odds(ta + shift, tb)
    out = [(r.stalemate, (pool_a, pool_b, Effect(-20 if carries else 0), NOTHING))]
    for v, p in damage_distribution("1d6", "none" if lens_a in ("covert", "flamboyant", "quick") else lens_a):
        out.append((r.a * p, (pool_a, pool_b - v, NOTHING, Effect(-20 if carries else 0))))
    for v, p in damage_distribution("1d6", "none"):
        out.append((r.b * p, (pool_a - v, pool_b, Effect(-20 if carries else 0), NOTHING)))
    return out


@pytest.mark.parametrize("limit", [None, 9])
@pytest.mark.parametrize("lens_a", ["covert", "aggressive"])
def test_a_state_is_worth_the_mean_of_the_states_its_round_leads_to(lens_a, limit):
    """V(state, n rounds) = Σ chance × V(next state, n − 1 rounds), every next state asked through the public call."""
    chain = LensChain(lens_targets(50, covert=60), 55)
    start = chain.odds(8, 7, lens_a=lens_a, round_limit=limit)
    mean_a = mean_b = 0.0
    for p, (pa, pb, ea, eb) in _next_states(60 if lens_a == "covert" else 50, 55, lens_a, 8, 7):
        if pb <= 0:
            mean_a += p
        elif pa <= 0:
            mean_b += p
        else:
            fresh = LensChain(lens_targets(50, covert=60), 55)  # no look-up from the first walk
            nxt = fresh.odds(pa, pb, lens_a=lens_a, effect_a=ea, effect_b=eb,
                             round_limit=None if limit is None else limit - 1)
            mean_a += p * nxt.a_wins
            mean_b += p * nxt.b_wins
    assert start.a_wins == pytest.approx(mean_a, abs=1e-12)
    assert start.b_wins == pytest.approx(mean_b, abs=1e-12)


def test_after_a_lost_covert_round_the_odds_are_those_of_the_true_state():
    """The issue's scenario. Round 4: A (Covert 60, Combat 50) against B (55), Pools 8 and 7, 27 rounds left.
    The round stalls: round 5 starts from the same Pools with A at −20 for that one round.

    The odds shown in round 5 for each Lens are the chain's value of that state: one round at −20,
    then the chain's values with no effect. The advice before issue 12 laid the −20 on every round
    still to come, which reads far worse."""
    targets_a = lens_targets(50, covert=60)
    chain = LensChain(targets_a, 55)
    before = chain.lens_odds(8, 7, round_limit=27)
    after = chain.lens_odds(8, 7, effect_a=Effect(-20), round_limit=26)
    for lens in ("none", "aggressive", "cautious"):
        # by hand: this round at −20 (A's Lens shift too), then the chain's values with one round fewer
        shift = {"aggressive": -20, "cautious": 20}.get(lens, 0)
        r = round_odds(50 - 20 + shift, 55)
        then = LensChain(targets_a, 55)  # a fresh chain, so nothing is looked up from the walk above

        def value(pa, pb, lens=lens, then=then):
            return then.odds(pa, pb, lens_a=lens, round_limit=25).a_wins

        expected = r.stalemate * value(8, 7)
        expected += sum(r.a * p * (1.0 if v >= 7 else value(8, 7 - v)) for v, p in damage_distribution("1d6", lens))
        expected += sum(r.b * p * (0.0 if v >= 8 else value(8 - v, 7)) for v, p in damage_distribution("1d6", "none"))
        assert after.odds[lens].a_wins == pytest.approx(expected, abs=1e-12)
        # the old advice: −20 on every round to come
        every_round = conflict_odds(50 - 20, 8, 55, 7, lens_a=lens, round_limit=26).a_wins
        assert after.odds[lens].a_wins - every_round > 0.05
        # one round at −20 costs something, but the state is otherwise the one of round 4
        assert before.odds[lens].a_wins - 0.1 < after.odds[lens].a_wins < before.odds[lens].a_wins
    # a state the first walk reached is a look-up, with the same numbers as a fresh chain
    assert chain.odds(8, 7, lens_a="covert", effect_a=Effect(-20), round_limit=26) == after.odds["covert"]
    fresh = LensChain(targets_a, 55).odds(8, 7, lens_a="covert", effect_a=Effect(-20), round_limit=26)
    assert fresh.a_wins == pytest.approx(after.odds["covert"].a_wins, abs=1e-15)


@pytest.mark.parametrize("limit", [None, 6])
def test_what_b_declared_this_round_replaces_its_policy_for_that_round_only(limit):
    """B rolls plain as a rule but declared Cautious this round (it acted first): one round of that, then the chain."""
    chain = LensChain(55, 50)
    declared = chain.odds(7, 8, round_limit=limit, declared_b="cautious")
    r = round_odds(55, 50 + 20)
    then = LensChain(55, 50)

    def value(pa, pb):
        return then.odds(pa, pb, round_limit=None if limit is None else limit - 1).a_wins

    expected = r.stalemate * value(7, 8)
    expected += sum(r.a * p * (1.0 if v >= 8 else value(7, 8 - v)) for v, p in damage_distribution("1d6", "none"))
    expected += sum(r.b * p * (0.0 if v >= 7 else value(7 - v, 8)) for v, p in damage_distribution("1d6", "cautious"))
    assert declared.a_wins == pytest.approx(expected, abs=1e-12)
    assert declared.round == r
    # the same state later, with no declaration, is B's policy again
    plain = chain.odds(7, 8, round_limit=limit)
    assert plain.a_wins == pytest.approx(conflict_odds(55, 7, 50, 8, round_limit=limit).a_wins, abs=1e-12)
    assert chain.look_ahead(7, 8, round_limit=limit, declared_b="cautious").best in LENSES
    with pytest.raises(ValueError, match="may choose"):
        chain.odds(7, 8, declared_b="skill")  # no follow-up is due for B


# -- choices: the follow-up, the best, the policy's answers -------------------------------------------------


@pytest.mark.parametrize("limit", [None, 10])
def test_the_follow_up_edge_is_the_better_one(limit):
    chain = LensChain(60, {"none": 50, "covert": 45}, damage_a="1d4", policy_b=fixed_policy("covert"))
    either = [chain.odds(9, 9, lens_a=fixed_policy("clever", edge), round_limit=limit).a_wins for edge in FOLLOW_UPS]
    best_edge = chain.odds(9, 9, lens_a="clever", round_limit=limit)
    assert best_edge.a_wins >= max(either) - 1e-12
    due = chain.odds(9, 9, lens_a="clever", effect_a=Effect(0, True), round_limit=limit)
    assert due.first in FOLLOW_UPS


def test_the_edge_the_chain_picks_agrees_with_the_engine_when_a_decider_follows_it():
    """A keeps Clever and takes, each follow-up, the edge the chain itself picks for that state and the rounds
    left (its ``first``, a look-up in the kept walk); played through the engine, the error rates of 1,500
    conflicts."""
    chain = _chain(fixed_policy("covert"))
    limit = 6
    odds = chain.odds(A["pool"], B["pool"], lens_a="clever", round_limit=limit)

    class Edge(Declares):
        def decide(self, question):
            if question.kind != CLEVER_FOLLOW_UP:
                return super().decide(question)
            me = question.context["participant"]
            view = question.context["conflict"]
            other = view.opponents(me)[0]
            return chain.odds(me.pool.current, other.pool.current, lens_a="clever", effect_a=Effect(me.carry, True),
                              effect_b=Effect(other.carry), round_limit=limit - view.round + 1).first

    _agrees("clever with the chain's edge", odds, _player(lambda: (Edge("clever"), Declares("covert")), 77, limit),
            1500)
    picked = {chain.odds(p, q, lens_a="clever", effect_a=Effect(c, True), round_limit=n).first
              for p in range(1, 6) for q in range(1, 7) for c in (0, -20) for n in range(1, 6)}
    assert picked == set(FOLLOW_UPS)  # both edges are taken somewhere: the choice is a real one


def test_lens_odds_gives_every_lens_and_the_best():
    policy = fixed_policy("aggressive")
    result = lens_odds(lens_targets(55, covert=70, flamboyant=40), 10, {"none": 50, "aggressive": 50}, 10,
                       policy_b=policy, round_limit=30)
    assert list(result.odds) == list(LENSES)
    assert result.best == max(result.odds, key=lambda k: result.odds[k].a_wins)
    assert result.best == "covert"  # Cunning 70 against a foe that swings at −20
    for lens, odds in result.odds.items():
        assert odds.first == lens
        assert odds.a_wins + odds.b_wins + odds.never_ends == pytest.approx(1.0)
        assert odds.to_dict()["first"] == lens
    some = lens_odds(55, 10, 50, 10, lenses=["cautious", "none", "covert"])  # covert: no Cunning given
    assert list(some.odds) == ["none", "cautious"]
    best_play = chain_odds(lens_targets(55, covert=70, flamboyant=40), 10, {"none": 50, "aggressive": 50}, 10,
                           policy_b=policy, lens_a="best", round_limit=30)
    assert best_play.a_wins >= result.odds[result.best].a_wins - 1e-12


@pytest.mark.parametrize("limit", [None, 2, 12])
def test_look_ahead_is_one_round_then_the_best_play(limit):
    """Each Lens now, then A's best: the best of them is the best-play chain's first choice and value."""
    chain = LensChain(lens_targets(55, covert=60), lens_targets(50), policy_b=fixed_policy("aggressive"))
    now = chain.look_ahead(8, 9, round_limit=limit)
    best = chain.odds(8, 9, lens_a="best", round_limit=limit)
    assert list(now.odds) == ["none", "aggressive", "cautious", "clever", "covert", "quick"]
    assert now.best == best.first
    top = now.odds[now.best]
    assert (top.a_wins, top.b_wins, top.expected_rounds) == pytest.approx(
        (best.a_wins, best.b_wins, best.expected_rounds), abs=1e-12)
    assert all(o.a_wins <= best.a_wins + 1e-12 for o in now.odds.values())
    # the Lens kept every round can only do as well as that Lens now and the best afterwards
    kept = chain.lens_odds(8, 9, round_limit=limit)
    assert all(kept.odds[k].a_wins <= now.odds[k].a_wins + 1e-12 for k in now.odds)
    edges = chain.look_ahead(8, 9, effect_a=Effect(0, True), round_limit=limit)
    assert set(edges.odds) == set(FOLLOW_UPS)


def test_policies_are_checked():
    with pytest.raises(ValueError, match="may choose"):
        chain_odds(50, 5, 50, 5, policy_b=lambda *s: "covert")  # no Cunning target for B
    with pytest.raises(ValueError, match="may choose"):
        chain_odds(50, 5, 50, 5, policy_b=lambda *s: "clever")  # the round after Clever is skill or damage
    with pytest.raises(ValueError, match="add up"):
        chain_odds(50, 5, 50, 5, policy_b=lambda *s: {"none": 0.5, "cautious": 0.3})
    with pytest.raises(ValueError):
        chain_odds(50, 5, 50, 5, lens_a="covert")
    with pytest.raises(ValueError):
        chain_odds(50, 0, 50, 5)
    with pytest.raises(ValueError):
        chain_odds(50, 5, 50, 5, round_limit=0)
    with pytest.raises(ValueError):
        chain_odds({"covert": 50}, 5, 50, 5)  # the follow-up rolls the plain target
    with pytest.raises(ValueError):
        fixed_policy("none", "sideways")
    # a stochastic answer is normalised and its zero chances dropped
    half = chain_odds(50, 5, 50, 5, policy_b=lambda *s: {"none": 0.5, "cautious": 0.5, "aggressive": 0.0})
    assert 0.0 < half.a_wins < 1.0


class _Whole:
    """A policy that answers a whole grid of Pools at once, the same chances whatever the state."""

    def __init__(self, answer):
        self.answer = answer

    def __call__(self, *state):
        raise AssertionError("asked state by state")

    def over_grid(self, own, other, mine, theirs, seen=None):
        return self.answer


def test_a_whole_grid_answer_is_normalised_to_the_bit_as_one_array_per_choice_would_be():
    """_Game.policy_grid stacks a policy's answer over the Pools (its fast path): the chances are those of the
    plain way, one array per choice summed in their order, to the last bit, on grids of one Pool too (where
    numpy's own sum over the choices would add in pairs)."""
    import numpy as np

    from solo.rules.lens_arrays import Grid

    rng = np.random.default_rng(3)
    for shape_grid in (Grid(1, 1, 1, 1), Grid(1, 1, 1, 9), Grid(3, 14, 2, 12), Grid(1, 20, 1, 20)):
        ha, hb = shape_grid.shape
        for n in (1, 2, 7, 9, 17, 22):
            keys = [(k, i) for i in range(4) for k in LENSES][:n]
            raw = [rng.random((ha, hb)) ** rng.integers(1, 6) for _ in keys]
            if n > 1:
                raw[0] = raw[0] * 0.0  # a choice never taken is left out
            scalar = 0.25 if n in (7, 17) else 0.0  # a number stands for every Pool (else: arrays only)
            if scalar:
                raw[1] = raw[1] * 0.0
            total = sum(raw)
            answer = {k: (1.0 - scalar) * p / total for k, p in zip(keys, raw)}
            if scalar:
                answer[keys[1]] = scalar

            whole = _Whole(answer)
            game = LensChain(50, lens_targets(50, covert=45, flamboyant=40), policy_b=whole).game
            game.allowed = {"a": frozenset(LENSES), "b": frozenset(LENSES)}  # a choice: (Lens, what it leaves)
            got = game.policy_grid(whole, "b", shape_grid, NOTHING, NOTHING)
            plain = {c: np.asarray(p, dtype=float) for c, p in answer.items()}
            plain_total = sum(plain.values())
            want = {c: np.broadcast_to(p / plain_total, (ha, hb)) for c, p in plain.items() if p.max() > 0.0}
            assert list(got) == list(want)
            for c in want:
                assert np.array_equal(got[c], want[c]), (shape_grid, n, c)


def test_what_b_sees_and_what_it_does_not_are_mixed_to_the_bit_as_one_array_per_choice_would_be():
    """spread_b mixes B's choices blind and seeing (by the chance it declares second) stacked (its fast path,
    lens_chain._mixed): to the last bit what one array per choice gives, in their order from 0.0."""
    import numpy as np

    from solo.rules.lens_chain import _mixed

    rng = np.random.default_rng(5)
    for shape in ((1, 1), (3, 7), (12, 12)):
        sees = rng.choice([0.0, 0.5, 1.0], size=shape)
        for n_blind, n_seen in ((0, 3), (4, 0), (5, 9), (22, 17)):
            blind = {("k", i): rng.random(shape) for i in range(n_blind)}
            seen = {("k", i + 3): rng.random(shape) * (i % 4 != 0) for i in range(n_seen)}
            spreads = ((1.0 - sees, blind), (sees, seen))
            plain: dict = {}
            for weight, spread in spreads:
                for c, p in spread.items():
                    plain[c] = plain.get(c, 0.0) + weight * p
            want = {c: p for c, p in plain.items() if np.any(p > 0.0)}
            got = _mixed(spreads, shape)
            assert list(got) == list(want)
            for c in want:
                assert np.array_equal(got[c], want[c])


def test_a_round_for_each_nerve_is_the_round_worked_out_afresh():
    """round_spec works out a round once for every nerve B's choice may leave (only the nerve differs): each is
    what the round gives worked out on its own."""
    from solo.minds.morale import Nerve
    from solo.rules.lens_chain import RoundSpec, _damage_lens, _roll
    from solo.rules.lenses import round_effects

    chain = LensChain(lens_targets(60, covert=50, flamboyant=55), lens_targets(50, covert=45, flamboyant=40),
                      damage_b="1d8", armour_a=1, policy_b=_seeing_policy, remembers=True)
    game = chain.game
    nerves = (None, Nerve(), Nerve("shaken", True), Nerve("broken"))
    for ca in (*LENSES, *FOLLOW_UPS):
        for cb in (*LENSES, *FOLLOW_UPS):
            for ea in (NOTHING, Effect(-20, False, "covert"), Effect(0, True, "clever")):
                for eb in (NOTHING, Effect(-20, False, "flamboyant", Nerve("shaken")), Effect(20, True, "clever")):
                    for nerve in nerves:
                        choice_b = cb if nerve is None else (cb, nerve)
                        b = eb if nerve is None else eb._replace(nerve=nerve)
                        ta, la = _roll(game.a, ca, ea.carry)
                        tb, lb = _roll(game.b, cb, b.carry)
                        r = round_odds(ta + LENS_TABLE[la].skill_shift, tb + LENS_TABLE[lb].skill_shift)
                        last_b = b.last if cb in FOLLOW_UPS else cb

                        after = tuple(
                            (Effect(*round_effects(ca, won=wa, struck_by=cb if wb else None), ea.last),
                             Effect(*round_effects(cb, won=wb, struck_by=ca if wa else None), last_b, b.nerve))
                            for wa, wb in ((True, False), (False, True), (False, False)))
                        want = RoundSpec(r.a, r.b, r.stalemate, _damage_lens(ca), _damage_lens(cb), after)
                        assert game.round_spec(ca, choice_b, ea, eb) == want


# -- what B sees and remembers, and a round B already declared ---------------------------------------------


class Sees(Declares):
    """A decider drawing from a policy of the whole state, what the foe declared before it (if it did) and its
    own last Lens (kept through a follow-up), as an NPC mind reads them."""

    def __init__(self, policy, rng):
        super().__init__(policy=policy, rng=rng)
        self.last = None

    def _draw(self, question, follow_up: bool) -> str:
        me = question.context["participant"]
        view = question.context["conflict"]
        other = view.opponents(me)[0]
        decl = view.declared(other.id)
        seen = None if decl is None else (decl.clever_choice or decl.lens)
        theirs = Effect(other.carry, other.clever_next if decl is None else decl.clever_choice is not None)
        spread = self.policy(me.pool.current, other.pool.current, Effect(me.carry, follow_up, self.last), theirs,
                             seen)
        x = self.rng.random()
        choice = next(iter(spread))
        for option, p in spread.items():
            choice = option
            x -= p
            if x < 0:
                break
        if not follow_up:
            self.last = choice
        return choice


def _seeing_policy(own, other, mine, theirs, seen):
    """Answers a foe's declaration when it saw one, repeats itself, and reads the foe's −20."""
    if mine.follow_up:
        return {"skill": 0.5, "damage": 0.5} if seen == "cautious" else {"skill": 0.9, "damage": 0.1}
    if seen is not None:  # the best answer it knows
        return {"cautious": 0.9, "clever": 0.1} if seen in ("covert", "clever", "flamboyant") else {"covert": 1.0}
    if mine.last == "covert":
        return {"covert": 0.5, "aggressive": 0.5}
    if theirs.carry < 0:
        return {"aggressive": 0.8, "none": 0.2}
    return {"none": 0.3, "aggressive": 0.3, "flamboyant": 0.2, "clever": 0.2}


def _initiative(a: dict, b: dict):
    """The engine's order for two non-PCs: the larger Pool first, then the higher skill (no roll-off here)."""
    assert a["combat"] != b["combat"]

    def sees(pool_a, pool_b):
        return 1.0 if pool_a > pool_b or (pool_a == pool_b and a["combat"] > b["combat"]) else 0.0

    return sees


@pytest.mark.parametrize("index,lens,limit", [(0, "covert", 6), (1, "cautious", None), (2, "clever", 8)])
def test_a_policy_that_sees_and_remembers_agrees_with_the_engine(index, lens, limit):
    """B declares second when the initiative says so and then answers A's declaration; it remembers its own last
    Lens. The error rates of 2,000 conflicts each (four standard errors at most 0.045)."""
    chain = LensChain(_targets(A), _targets(B), damage_a=A["dice"], damage_b=B["dice"], armour_a=A["armour"],
                      armour_b=B["armour"], policy_b=_seeing_policy, sees=_initiative(A, B), remembers=True)
    odds = chain.odds(A["pool"], B["pool"], lens_a=fixed_policy(lens, "skill"), round_limit=limit)
    draws = random.Random(40 + index)
    _agrees(lens, odds, _player(lambda: (Declares(lens, "skill"), Sees(_seeing_policy, draws)), 600 + index, limit),
            2000)
    # seeing and remembering are part of the numbers: without them they move by 0.02 to 0.12 here
    blind = LensChain(_targets(A), _targets(B), damage_a=A["dice"], damage_b=B["dice"], armour_a=A["armour"],
                      armour_b=B["armour"], policy_b=lambda own, other, mine, theirs: _seeing_policy(
                          own, other, mine, theirs, None))
    plain = blind.odds(A["pool"], B["pool"], lens_a=fixed_policy(lens, "skill"), round_limit=limit)
    assert abs(plain.a_wins - odds.a_wins) > 0.02


@pytest.mark.parametrize("limit", [None, 7])
def test_a_declared_spread_is_the_mean_of_its_declarations(limit):
    """B's chances this round in place of its policy: the mean of the odds after each declaration, weighted."""
    chain = LensChain(_targets(A), _targets(B), policy_b="none")
    spread = {"covert": 0.25, "clever": 0.25, "aggressive": 0.5}
    mixed = chain.odds(5, 6, lens_a="cautious", round_limit=limit, declared_b=spread)
    each = {c: chain.odds(5, 6, lens_a="cautious", round_limit=limit, declared_b=c) for c in spread}
    assert mixed.a_wins == pytest.approx(sum(p * each[c].a_wins for c, p in spread.items()), abs=1e-12)
    assert mixed.b_wins == pytest.approx(sum(p * each[c].b_wins for c, p in spread.items()), abs=1e-12)


@pytest.mark.parametrize("limit", [None, 6])
def test_a_declaration_the_policy_never_makes_leads_to_states_worked_out_on_demand(limit):
    """B rolls plain as a rule, so no state with B at −20 or its Clever edge due is ever solved; B declared Covert
    this round. By hand: this round, then fresh chains from each state it leaves."""
    targets_a, targets_b = lens_targets(55), lens_targets(50, covert=60)
    chain = LensChain(targets_a, targets_b)
    chain.odds(7, 8, round_limit=limit)  # solved from here first: the look-up must not assume its states suffice
    got = chain.odds(7, 8, round_limit=limit, declared_b="covert")
    r = round_odds(55, 60)
    after = None if limit is None else limit - 1

    def value(pa, pb, ea, eb):
        return LensChain(targets_a, targets_b).odds(pa, pb, effect_a=ea, effect_b=eb, round_limit=after).a_wins

    # B's Covert not won leaves it −20; won, it leaves A −20 (docs/rules.md §6)
    expected = r.stalemate * value(7, 8, NOTHING, Effect(-20))
    expected += sum(r.a * p * (1.0 if v >= 8 else value(7, 8 - v, NOTHING, Effect(-20))) for v, p in
                    damage_distribution("1d6", "none"))
    expected += sum(r.b * p * (0.0 if v >= 7 else value(7 - v, 8, Effect(-20), NOTHING)) for v, p in
                    damage_distribution("1d6", "covert"))
    assert got.a_wins == pytest.approx(expected, abs=1e-12)


def test_a_short_limit_lists_only_the_states_it_can_reach():
    """Pools of 200 with two rounds to go: a handful of states, the same numbers as conflict_odds."""
    chain = LensChain(lens_targets(60), 50)
    odds = chain.odds(200, 200, round_limit=2)
    assert odds.a_wins == odds.b_wins == 0.0 and odds.never_ends == pytest.approx(1.0)
    few = chain.odds(3, 200, round_limit=3)
    assert few.b_wins == pytest.approx(conflict_odds(60, 3, 50, 200, round_limit=3).b_wins, abs=1e-12)
    ha, hb = chain._kept[-1][1].plan.grid.shape  # the Pools the last walk holds: as far as two rounds reach
    assert ha * hb < 200


def test_a_round_moved_to_other_pools_puts_a_side_out_only_where_its_blow_reaches():
    """The blows of a round are slices of the values one Pool lower, the ends below zero: checked against the
    round's own chances and damage at every pair of Pools near the ends (more and more blows put a side out), with
    armour that turns some blows into nothing. One round to go: the chance that this round ends it; two: the mean
    of the values with one round to go of the states it leads to, each asked of a fresh chain."""
    targets_a, targets_b = lens_targets(55, covert=60), lens_targets(50)
    setting = dict(damage_a="1d6+1", damage_b="1d4", armour_a=2, armour_b=1)
    chain = LensChain(targets_a, targets_b, **setting)
    r = round_odds(60 - 20 + LENS_TABLE["covert"].skill_shift, 50 + LENS_TABLE["aggressive"].skill_shift)
    a_blows = damage_distribution("1d6+1", "covert", 0, 1)  # A's blows meet B's armour, and so on
    b_blows = damage_distribution("1d4", "aggressive", 0, 2)
    kept = fixed_policy("covert")
    for pool_a in range(1, 9):
        for pool_b in range(1, 9):
            one = chain.odds(pool_a, pool_b, lens_a=kept, effect_a=Effect(-20), declared_b="aggressive",
                             round_limit=1)
            assert one.a_wins == pytest.approx(sum(r.a * p for v, p in a_blows if v >= pool_b), abs=1e-15)
            assert one.b_wins == pytest.approx(sum(r.b * p for v, p in b_blows if v >= pool_a), abs=1e-15)
            two = chain.odds(pool_a, pool_b, lens_a=kept, effect_a=Effect(-20), declared_b="aggressive",
                             round_limit=2)

            def then(pa, pb, ea, eb):
                if pb <= 0:
                    return 1.0
                if pa <= 0:
                    return 0.0
                return LensChain(targets_a, targets_b, **setting).odds(pa, pb, lens_a=kept, effect_a=ea,
                                                                       effect_b=eb, round_limit=1).a_wins

            # Covert won leaves B struck (-20), not won leaves A -20; B's Aggressive leaves nothing
            expected = r.stalemate * then(pool_a, pool_b, Effect(-20), NOTHING)
            expected += sum(r.a * p * then(pool_a, pool_b - v, NOTHING, Effect(-20)) for v, p in a_blows)
            expected += sum(r.b * p * then(pool_a - v, pool_b, Effect(-20), NOTHING) for v, p in b_blows)
            assert two.a_wins == pytest.approx(expected, abs=1e-15)


def test_where_no_lens_can_win_the_best_is_the_one_least_likely_to_lose():
    """A grave-lord's armour no blow gets through: 'No Lens · 0 % to win, 78 % undecided · best' over 'Cautious ·
    0 % to win, 88 % undecided' (the first of a tie was taken). Among equal chances to win, the lesser loss; a
    better chance to win still goes first, and a full tie keeps the earlier Lens."""
    from solo.rules.lens_chain import best_of
    from solo.rules.odds import ConflictOdds, RoundOdds

    def odds(win, lose):
        return ConflictOdds(win, lose, 1.0 - win - lose, 30.0, RoundOdds(0.3, 0.3, 0.4))

    assert best_of({"none": odds(0.0, 0.22), "cautious": odds(0.0, 0.12)}) == "cautious"
    assert best_of({"none": odds(0.011, 0.5), "cautious": odds(0.01, 0.1)}) == "none"
    assert best_of({"none": odds(0.0, 0.2), "cautious": odds(0.0, 0.2)}) == "none"
    # and the engine's own chain: nothing gets through B's armour, so every Lens wins nothing
    chain = lens_odds(40, 10, 60, 10, armour_b=20, round_limit=12)
    assert all(o.a_wins == 0.0 for o in chain.odds.values())
    least = min(o.b_wins for o in chain.odds.values())
    assert chain.odds[chain.best].b_wins == least
