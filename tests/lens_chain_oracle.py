"""Exact odds of a one-against-one Extended Conflict in which either side may use any Lens.

:mod:`.odds` prices conflicts whose Lenses are over when the round is (none,
Aggressive, Cautious): its chain's state is the two Pools. Clever, Covert and
Flamboyant leave something for the next round, so this chain's state is the
two Pools *and* what the last round left on each side, an :class:`Effect`:

* ``carry``: added to that side's roll this round. A Covert or Flamboyant
  round not won (stalemates included) leaves −20 on its own side; a Covert
  or Flamboyant win leaves −20 on the side it struck, even when armour took
  the whole blow. They add up as in the engine (``Participant.carry`` is
  reset when a round is resolved, then the struck side's penalty is added
  when the blow is dealt), so a carry is 0, −20 or −40 (a start state may
  bring any other number, for its one round).
* ``follow_up``: a Clever round was just played, won or not. This round the
  side declares no Lens but one edge: ``"skill"`` (+20 to the roll) or
  ``"damage"`` (the damage dice rolled twice, keep the higher). A side struck
  by a Covert win while it played Clever has both.
* ``last``: the Lens the side declared last (kept through its follow-up),
  held only for a side B whose policy reads it (``remembers=True``: an NPC
  mind's habit of repeating its Lens); None otherwise.

What each Lens does comes from :data:`~.lenses.LENS_TABLE`; a round's chances
and blows from :func:`~.odds.round_kernel` and
:func:`~.odds.damage_distribution`, the kernel that ``solo odds``, the Lens
advice and the minds use. Where the model is narrower than the engine:

* **Quick** is its skill shift (−20) with plain damage; its extra action is
  not modelled (a weapon switch would change the dice; an attempt to get
  away is not a way of winning).
* **Covert and Flamboyant** blows go to the conflict Pool, armour and all:
  the chain tracks the two conflict Pools only, not POW or CHA.
* No pushing, no Luck, one against one; a side is out when its Pool reaches
  zero, as in :func:`~.odds.conflict_odds`.

Side A keeps one Lens every round (taking the Clever follow-up when it is
due, with the edge that gives it the better chance to win from there), or
plays its best in every state, or plays a policy like B's. Side B plays a
policy: a function of the state as it sees it, ``(own pool, other pool, own
effect, other effect)``, returning a Lens (an edge when its follow-up is due)
or a mapping of choices to chances — an NPC mind that draws among its
near-best options. With ``sees`` (the initiative: the chance, at each pair of
Pools, that B declares after A) the policy gets a fifth argument, A's
declaration when B saw it, else None. What B declares this round may replace
its policy for that one round (``declared_b``: what it already declared, or
its chances as the live mind stands).

A :class:`LensChain` answers three questions from any state:
:meth:`~LensChain.odds` (A keeps a Lens, or plays its best),
:meth:`~LensChain.lens_odds` (every Lens A may keep, and the best of them) and
:meth:`~LensChain.look_ahead` (each Lens this round, A's best after: what a
mind weighs).

How it is solved: the first round from the asked state is played out
explicitly; the states it leads to are valued by a solved chain. The states
reachable are listed once (with a round limit, only as far as the rounds
left reach). With a round limit the chain is walked backwards, A's and B's
chances to win carried together as one complex number, each round split
where both sides have declared (:func:`_declared_plan`: the states that
differ only in B's last Lens share the rounds that follow their
declarations, and the rounds that differ only in what either side carried
share the blows of the side that wins them); without one, the states are
solved in order of growing Pools,
those that share both Pools (they differ in their effects only, and a round
that changes no Pool moves between them) as one small linear system, each
round merged by successor. A round's successors lie at the same distances from its
Pools wherever it is played, so they are listed once per shape (the declarations, the effects,
how many blows of each side leave the other standing: :meth:`_Game.pair`) and moved to each
state's Pools. A chain keeps what it solved: a later state of the
same conflict is a look-up when the first walk reached it, and worked out on
top of the walk (:meth:`LensChain._value`) when it holds effects that keeping
one Lens never leaves (the player switched Lenses). The work is the states
(Pool pairs times the pairs of effects, B's last Lens among them) times the
successors of a round (more when B mixes Lenses) times the rounds to go:
``benchmarks/lens_odds.py`` measures it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain as concat
from itertools import islice
from operator import add, itemgetter, mul
from typing import NamedTuple

from solo.rules.dice import parse
from solo.rules.lenses import CLEVER_BONUS, LENS_TABLE, LENSES, PLAIN, Damage, Lens
from solo.rules.odds import BEST, MAX_DICE, MAX_POOL, ConflictOdds, RoundOdds, damage_distribution, round_kernel

#: The two edges of the Clever follow-up (the engine's answers to its question).
FOLLOW_SKILL, FOLLOW_DAMAGE = "skill", "damage"
FOLLOW_UPS: tuple[str, str] = (FOLLOW_SKILL, FOLLOW_DAMAGE)
#: The Lens whose damage is rolled twice, keep the higher: the "damage" edge is priced with its dice.
_TWICE = next(k for k, v in LENS_TABLE.items() if v.damage is Damage.TWICE_KEEP_HIGHER)
#: The Lenses that roll the conflict's own skill (an int target stands for all of them).
CONFLICT_SKILL_LENSES: tuple[str, ...] = tuple(k for k, v in LENS_TABLE.items() if v.rolls is None)


class Effect(NamedTuple):
    """What the last round left on one side for this round (see the module's docstring).

    ``last`` is the Lens the side declared last (kept through a Clever
    follow-up): held only for a side B whose policy remembers it (an NPC
    mind's habit of repeating its Lens), None otherwise.
    """

    carry: int = 0
    follow_up: bool = False
    last: str | None = None


NOTHING = Effect()

#: A side's choice in one state: a Lens (an edge when its follow-up is due) or {choice: chance}.
Choice = str | Mapping[str, float]
#: (own pool, other pool, own effect, other effect) -> Choice
PolicyFn = Callable[[int, int, Effect, Effect], Choice]
#: (own pool, other pool, own effect, other effect, what the other side declared first or None) -> Choice
SeeingPolicyFn = Callable[[int, int, Effect, Effect, "str | None"], Choice]
#: A policy, or a plain string: that Lens every round (the "skill" edge after Clever).
LensPolicy = str | PolicyFn | SeeingPolicyFn
#: (pool a, pool b) -> the chance that B declares after A, seeing A's choice (initiative)
Sees = Callable[[int, int], float]
Spread = tuple[tuple[str, float], ...]  # choices with their chances, none of them zero


def alike_in_play(lens_1: str, lens_2: str) -> bool:
    """Whether two Lenses do the same in the chain, whatever they roll: the same shift, damage, follow-up and penalties.

    Kept at the same target, two such Lenses have the same odds against a
    side whose policy cannot tell them apart (Covert and Flamboyant when
    Cunning is the best other skill).
    """
    a, b = LENS_TABLE[lens_1], LENS_TABLE[lens_2]
    return ((a.skill_shift, a.damage, a.follow_up, a.penalty_if_not_won, a.penalty_on_hit)
            == (b.skill_shift, b.damage, b.follow_up, b.penalty_if_not_won, b.penalty_on_hit))


def fixed_policy(lens_key: str, follow_up: str = FOLLOW_SKILL) -> Callable[[int, int, Effect, Effect], str]:
    """A side that declares ``lens_key`` every round and takes the edge ``follow_up`` after Clever.

    A plain string as B's policy means ``fixed_policy(string)``.
    """
    if follow_up not in FOLLOW_UPS:
        raise ValueError(f"a Clever follow-up is {' or '.join(FOLLOW_UPS)}, not {follow_up!r}")

    def policy(own: int, other: int, mine: Effect, theirs: Effect) -> str:
        return follow_up if mine.follow_up else lens_key

    return policy


def lens_targets(skill: int, *, covert: int | None = None, flamboyant: int | None = None) -> dict[str, int]:
    """A side's target for each Lens it may use, before the Lens's own skill shift.

    ``skill`` is what the engine's ``_target_for`` rolls for a plain
    declaration: the conflict's skill and Focus (``base_target``), plus the
    side's standing ``bonus`` and the opposing shield's penalty. Every Lens
    that rolls the conflict's skill starts there. ``covert`` is the bare
    Cunning and ``flamboyant`` the declared other skill (``skill_target``
    with no Focus), each plus the same bonus and shield; None leaves that
    Lens out. Never the carried effect: the chain adds that itself.
    """
    out = dict.fromkeys(CONFLICT_SKILL_LENSES, skill)
    for key, target in (("covert", covert), ("flamboyant", flamboyant)):
        if target is not None:
            out[key] = target
    return {k: out[k] for k in LENSES if k in out}  # menu order


@dataclass(frozen=True)
class ChainOdds(ConflictOdds):
    """:class:`~.odds.ConflictOdds` from a state of the Lens chain.

    With a round limit ``never_ends`` is what is still undecided at the
    limit (also called :attr:`undecided`). ``round`` is the first round's
    chances, B's policy mixed in. ``first`` is A's choice in the first
    round: its Lens, its edge when a Clever follow-up is due, the best one
    with ``lens_a="best"``, the likeliest one of a stochastic policy.
    """

    first: str = "none"

    @property
    def undecided(self) -> float:
        return self.never_ends

    def to_dict(self) -> dict:
        return {**super().to_dict(), "first": self.first}


@dataclass(frozen=True)
class LensOdds:
    """The odds for every Lens A may keep, from one state, and the best of them."""

    odds: dict[str, ChainOdds]  # Lens -> the odds if A keeps it every round
    best: str  # the highest chance to win (ties within 1e-12: the earlier in the Lens menu)

    def to_dict(self) -> dict:
        return {"best": self.best, "odds": {k: v.to_dict() for k, v in self.odds.items()}}


# -- one round ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Side:
    targets: tuple[tuple[str, int], ...]
    dice: str
    bonus: int
    armour: int  # what this side's armour takes off the other side's blows


def _lens_of(choice: str) -> Lens:
    """The Lens a declaration counts as: the follow-up declares none."""
    return PLAIN if choice in FOLLOW_UPS else LENS_TABLE[choice]


def _after(mine: str, theirs: str, won: bool, lost: bool) -> Effect:
    """What a round leaves on a side that declared ``mine`` against ``theirs`` (as conflict.py resolves and strikes).

    Its own Lens: Clever's follow-up, or Covert's and Flamboyant's penalty
    when the round was not won; the other's: the penalty of a Covert or
    Flamboyant blow that struck it (a Lens that deals no damage strikes nobody).
    """
    m, o = _lens_of(mine), _lens_of(theirs)
    carry = 0 if (m.follow_up or won) else m.penalty_if_not_won
    if lost and o.damage is not Damage.NONE:
        carry += o.penalty_on_hit
    return Effect(carry, m.follow_up)


def _roll(side: _Side, choice: str, carry: int) -> tuple[int, str]:
    """(target before the Lens's shift, the Lens whose shift and damage the kernel applies)."""
    targets = dict(side.targets)
    if choice == FOLLOW_SKILL:
        return targets["none"] + carry + CLEVER_BONUS, "none"
    if choice == FOLLOW_DAMAGE:  # no shift, damage twice keep the higher: that Lens's dice, its shift undone
        return targets["none"] + carry - LENS_TABLE[_TWICE].skill_shift, _TWICE
    return targets[choice] + carry, choice


class _Blows(NamedTuple):
    """One side's winning blows in a round, by growing damage: what the chain needs to place them."""

    damage: tuple[int, ...]  # 0: the round is won but no blow lands
    offset: tuple[int, ...]  # what each blow takes off a state key (the struck side's Pool, lower)
    chance: tuple[float, ...]  # the round won and that blow
    beyond: tuple[float, ...]  # beyond[i]: the chance of the blows from the i-th on (those that put the foe out)

    @classmethod
    def of(cls, won: float, dist: tuple[tuple[int, float], ...], down: int) -> _Blows:
        blows = [(v, won * p) for v, p in dist if won * p > 0.0]
        chances = [q for _, q in blows]
        return cls(tuple(v for v, _ in blows), tuple(-v * down for v, _ in blows), tuple(chances),
                   tuple(sum(chances[i:]) for i in range(len(chances) + 1)))


#: A round's successors as offsets from its Pools, the ends it reaches, and all their chances (see :func:`_shape`).
_Shape = tuple[tuple[int, ...], tuple[int, ...], tuple[float, ...]]


class _Round(NamedTuple):
    """One round for a pair of choices from a pair of effects."""

    odds: RoundOdds
    blows_a: _Blows  # A's, to B's Pool
    blows_b: _Blows
    stalemate: float
    after_a: int  # the pair of effects (as a pair id) after a round A won
    after_b: int
    after_s: int  # after a stalemate


def _spread(answer: Choice, allowed: Iterable[str], where: str | tuple) -> Spread:
    """A policy's answer as choices and chances: checked, normalised, zero chances left out.

    ``where`` says where the policy was asked, for the error: a text, or
    (side, own pool, other pool, own effect, other effect), put in words
    only then (the chain asks thousands of states).
    """
    if isinstance(answer, str):
        if answer in allowed:
            return ((answer, 1.0),)
        spread: Mapping[str, float] = {answer: 1.0}
    else:
        spread = answer
    total = 0.0
    for choice, p in spread.items():
        if choice not in allowed or not p >= 0.0:
            place = _place(where)
            if choice not in allowed:
                raise ValueError(f"{place}: the policy chose {choice!r}; it may choose {', '.join(sorted(allowed))}")
            raise ValueError(f"{place}: the policy gave {choice!r} the chance {p}")
        total += p
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"{_place(where)}: the policy's chances add up to {total}, not 1")
    return tuple((c, p / total) for c, p in spread.items() if p > 0.0)


def _place(where: str | tuple) -> str:
    if isinstance(where, str):
        return where
    side, own, other, mine, theirs = where
    return f"side {side} at Pools {own}/{other}, effects {tuple(mine)}/{tuple(theirs)}"


# -- the chain ---------------------------------------------------------------------------------

_E = 64  # effect ids per side that a state key has room for
_STRIDE_B = MAX_POOL + 1  # a state key is ((pool_a * _STRIDE_B + pool_b) * _E + effect a) * _E + effect b
_DOWN_B = _E * _E  # B's Pool one lower
_DOWN_A = _STRIDE_B * _DOWN_B
_WIN, _LOSE = 0, 1  # the keys (and positions) of the two ends
_EDGES = frozenset(FOLLOW_UPS)
_KEEP = 32  # Lenses of A (or policies) and kinds of limit a LensChain keeps solved chains for, the least asked out
_PER_LENS = 3  # solved chains kept for each: the first of a conflict (its later states are in it) and the latest
_ON_DEMAND = 400  # states worked out on top of a kept walk before a new one is solved instead


def _key(pool_a: int, pool_b: int, ia: int, ib: int) -> int:
    return ((pool_a * _STRIDE_B + pool_b) * _E + ia) * _E + ib


def _state(key: int) -> tuple[int, int, int, int]:
    rest, ib = divmod(key, _E)
    rest, ia = divmod(rest, _E)
    pool_a, pool_b = divmod(rest, _STRIDE_B)
    return pool_a, pool_b, ia, ib


def _mix(parts: list[tuple[float, Spread]]) -> Spread:
    """Spreads mixed with the given weights (B seeing A's choice some of the time)."""
    out: dict[str, float] = {}
    for w, spread in parts:
        for c, p in spread:
            out[c] = out.get(c, 0.0) + w * p
    return tuple((c, p) for c, p in out.items() if p > 0.0)


class _Game:
    """What one match-up's chains share, whatever A plays: effects, B's choices, the rounds."""

    def __init__(self, a: _Side, b: _Side, policy: LensPolicy, sees: Sees | None = None, remembers: bool = False):
        self.a, self.b = a, b
        self.remembers = remembers and not isinstance(policy, str)
        self.policy_b = fixed_policy(policy) if isinstance(policy, str) else policy
        self.sees = None if isinstance(policy, str) else sees  # a fixed Lens does not look
        self.lenses_a = tuple(k for k, _ in a.targets)
        self.lenses_b = tuple(k for k, _ in b.targets)
        self.allowed = {"a": frozenset(self.lenses_a), "b": frozenset(self.lenses_b)}
        self.effects: list[Effect] = []
        self._ids: dict[Effect, int] = {}
        self._rounds: dict[tuple[str, str, int, int], _Round] = {}
        self._shapes: dict[tuple[str, str, int, int, int, int], _Shape] = {}
        self._b: dict[object, Spread] = {}
        self._sees: dict[int, float] = {}  # sees() at each pair of Pools (pool_a * _STRIDE_B + pool_b)
        self._b_round: dict[int, int] = {}  # B's effect id -> the id of what a round reads of it (_declared_plan)
        self._reads: dict[tuple, int] = {}  # what a round reads of B's effect -> its id

    def eid(self, e: Effect) -> int:
        i = self._ids.get(e)
        if i is None:
            i = self._ids[e] = len(self.effects)
            if i >= _E:
                raise ValueError("too many different carried effects")  # the Lens table makes a handful
            self.effects.append(e)
        return i

    def choices(self, policy: Callable[..., Choice], side: str, key: int, *seen: str | None) -> Spread:
        """A policy's choices in a state, seen from its own side (``seen``: what the other declared first)."""
        rest, ib = divmod(key, _E)
        rest, ia = divmod(rest, _E)
        pool_a, pool_b = divmod(rest, _STRIDE_B)
        ea, eb = self.effects[ia], self.effects[ib]
        if side == "a":
            own, other, mine, theirs = pool_a, pool_b, ea, eb
        else:
            own, other, mine, theirs = pool_b, pool_a, eb, ea
        allowed = _EDGES if mine.follow_up else self.allowed[side]
        return _spread(policy(own, other, mine, theirs, *seen), allowed, (side, own, other, mine, theirs))

    def choices_b(self, key: int, ca: str) -> Spread:
        """B's choices in a state when A declares ``ca``: cached, every chain of the match-up asks the same."""
        sees = self.sees
        if sees is None:
            out = self._b.get(key)
            if out is None:
                out = self._b[key] = self.choices(self.policy_b, "b", key)
            return out
        pools = key // _DOWN_B
        p = self._sees.get(pools)
        if p is None:
            p = self._sees[pools] = sees(*divmod(pools, _STRIDE_B))
        which = (key, ca) if p > 0.0 else key
        out = self._b.get(which)
        if out is None:
            policy = self.policy_b
            if p >= 1.0:
                out = self.choices(policy, "b", key, ca)
            elif p <= 0.0:
                out = self.choices(policy, "b", key, None)
            else:
                out = _mix([(1.0 - p, self.choices(policy, "b", key, None)), (p, self.choices(policy, "b", key, ca))])
            self._b[which] = out
        return out

    def round(self, ca: str, cb: str, ia: int, ib: int) -> _Round:
        key = (ca, cb, ia, ib)
        r = self._rounds.get(key)
        if r is None:
            a, b = self.a, self.b
            ta, la = _roll(a, ca, self.effects[ia].carry)
            tb, lb = _roll(b, cb, self.effects[ib].carry)
            odds = round_kernel(ta, tb, la, lb, a.dice, b.dice, a.bonus, b.bonus, a.armour, b.armour).round
            last = (self.effects[ib].last if cb in FOLLOW_UPS else cb) if self.remembers else None
            pairs = [self.eid(_after(ca, cb, wa, wb)) * _E + self.eid(_after(cb, ca, wb, wa)._replace(last=last))
                     for wa, wb in ((True, False), (False, True), (False, False))]
            r = self._rounds[key] = _Round(
                odds, _Blows.of(odds.a, damage_distribution(a.dice, la, a.bonus, b.armour), _DOWN_B),
                _Blows.of(odds.b, damage_distribution(b.dice, lb, b.bonus, a.armour), _DOWN_A), odds.stalemate,
                *pairs)
        return r

    def transitions(self, key: int, spread_a: Spread, spread_b: Spread | None = None) -> dict[int, float]:
        """{successor key: chance} of one round from ``key``, A choosing as ``spread_a`` says (B too, if given)."""
        pool_a, pool_b, ia, ib = _state(key)
        base = key - (ia * _E + ib)  # (pool_a, pool_b) with no effects
        pairs = [(ca, pa, cb, pb) for ca, pa in spread_a for cb, pb in (spread_b or self.choices_b(key, ca))]
        if len(pairs) == 1:
            ca, pa, cb, pb = pairs[0]
            keys, chances = self.pair(key, ca, cb)
            p = pa * pb
            return dict(zip(keys, chances if p == 1.0 else [p * q for q in chances]))
        out: dict[int, float] = {}
        get = out.get
        rounds = self._rounds
        win = lose = 0.0
        for ca, pa, cb, pb in pairs:
            p = pa * pb
            r = rounds.get((ca, cb, ia, ib)) or self.round(ca, cb, ia, ib)
            blows = r.blows_a
            cut = bisect_left(blows.damage, pool_b)  # the blows from here on put B out
            after = base + r.after_a
            for off, q in zip(blows.offset[:cut], blows.chance):
                k = after + off
                out[k] = get(k, 0.0) + p * q
            win += p * blows.beyond[cut]
            blows = r.blows_b
            cut = bisect_left(blows.damage, pool_a)
            after = base + r.after_b
            for off, q in zip(blows.offset[:cut], blows.chance):
                k = after + off
                out[k] = get(k, 0.0) + p * q
            lose += p * blows.beyond[cut]
            if r.stalemate > 0.0:
                k = base + r.after_s
                out[k] = get(k, 0.0) + p * r.stalemate
        if win > 0.0:
            out[_WIN] = win
        if lose > 0.0:
            out[_LOSE] = lose
        return out

    def pair(self, key: int, ca: str, cb: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The successors of one round from ``key`` in which A declares ``ca`` and B ``cb``, and their chances.

        In the order :meth:`transitions` lists them (the blows, the stalemate,
        then the two ends). A round's successors lie at the same distances
        from its Pools wherever it is played, but for the blows that put a
        side out: so they are worked out once per shape (the declarations,
        the effects, how many of each side's blows leave the other standing)
        and moved to the state's Pools.
        """
        rest, ib = divmod(key, _E)
        pools, ia = divmod(rest, _E)
        pool_a, pool_b = divmod(pools, _STRIDE_B)
        r = self._rounds.get((ca, cb, ia, ib)) or self.round(ca, cb, ia, ib)
        cut_b = bisect_left(r.blows_a.damage, pool_b)  # the blows from here on put B out
        cut_a = bisect_left(r.blows_b.damage, pool_a)
        which = (ca, cb, ia, ib, cut_b, cut_a)
        shape = self._shapes.get(which)
        if shape is None:
            shape = self._shapes[which] = _shape(r, cut_b, cut_a)
        offsets, ends, chances = shape
        base = key - (ia * _E + ib)  # (pool_a, pool_b) with no effects
        return tuple(map(base.__add__, offsets)) + ends, chances

    def first_round(self, key: int, spread_a: Spread, spread_b: Spread | None = None) -> RoundOdds:
        _, _, ia, ib = _state(key)
        a = b = s = 0.0
        for ca, pa in spread_a:
            for cb, pb in spread_b or self.choices_b(key, ca):
                r = self.round(ca, cb, ia, ib).odds
                a += pa * pb * r.a
                b += pa * pb * r.b
                s += pa * pb * r.stalemate
        return RoundOdds(a, b, s)


def _shape(r: _Round, cut_b: int, cut_a: int) -> _Shape:
    """A round's successors as offsets from its Pools (with no effects), the ends it reaches, and all their chances.

    ``cut_b`` of A's blows leave B standing, ``cut_a`` of B's leave A. A
    successor reached two ways (a blow that does no damage) is listed once,
    its chances added in the order they come.
    """
    blows = r.blows_a
    keys = [r.after_a + off for off in blows.offset[:cut_b]]
    chances = list(blows.chance[:cut_b])
    win = blows.beyond[cut_b]
    blows = r.blows_b
    keys += [r.after_b + off for off in blows.offset[:cut_a]]
    chances += blows.chance[:cut_a]
    lose = blows.beyond[cut_a]
    if r.stalemate > 0.0:
        keys.append(r.after_s)
        chances.append(r.stalemate)
    merged = dict(zip(keys, chances))
    if len(merged) < len(keys):  # one state reached two ways
        merged = {}
        for k, q in zip(keys, chances):
            merged[k] = merged.get(k, 0.0) + q
    ends = tuple(k for k, q in ((_WIN, win), (_LOSE, lose)) if q > 0.0)
    return (tuple(merged), ends,
            tuple(merged.values()) + tuple(q for q in (win, lose) if q > 0.0))


Option = tuple[Spread, tuple[int, ...], tuple[float, ...]]  # A's spread, successor keys, their chances


def _plan(game: _Game, start: int | dict[int, int], options: Callable[[int], list[Spread]],
          depth: int | None = None) -> tuple[dict[int, list[Option]], dict[int, int]]:
    """Every state reachable from ``start`` (a breadth-first walk), with A's options and their rounds.

    ``start`` is a state, or {state: its distance from the start} for several
    (by growing distance). With a ``depth``, only the states fewer than that
    many rounds away get their rounds; those exactly that far are listed with
    none (a walk of ``depth`` − 1 rounds only needs their value with no round
    to go). Returns the plan and each state's distance from the start.
    """
    plan: dict[int, list[Option]] = {}
    far = dict(start) if isinstance(start, dict) else {start: 0}
    queue = list(far)
    for key in queue:  # the queue grows as the walk goes
        d = far[key]
        if depth is not None and d >= depth:
            plan[key] = []
            continue
        opts = []
        for spread in options(key):
            t = game.transitions(key, spread)
            for k in t:
                if k > _LOSE and k not in far:
                    far[k] = d + 1
                    queue.append(k)
            opts.append((spread, tuple(t), tuple(t.values())))
        plan[key] = opts
    return plan, far


def _gatherer(idx: list[int]) -> Callable[[list], tuple]:
    """The items at ``idx`` of a row, always as a tuple (an itemgetter of one index returns the item)."""
    return itemgetter(*idx) if len(idx) > 1 else (lambda row: tuple(row[i] for i in idx))


_FEW = 12  # groups of fewer sums than this are summed one by one (see _Sums)
#: One column of a group of sums: the gather of its terms' values, their weights as complex numbers and as floats.
_Column = tuple[Callable[[list], tuple], tuple[complex, ...], tuple[float, ...]]


class _Sums:
    """Many weighted sums over one row of values, every step in C (the walk's inner loop).

    The sums with the same number of terms go together: their first terms
    are gathered and weighted as one column, their second ones as another,
    and the columns added in turn, so each sum adds its terms in its own
    order, as ``sum`` over them would, with no Python step per sum (the
    rows of a small group are summed one by one, with ``sum``). Over
    states (``states=True``) the two ends, worth 1 and 1j in a row of values
    and 0 in a row of rounds, come last in a round (:func:`_shape`): their
    terms become one constant ``win + lose·1j`` added last, which gives the
    same bits (adding 0.0 to a part changes nothing) for fewer steps. The
    results come back in the order of the rows.
    """

    __slots__ = ("counts", "groups", "reorder", "rest")

    def __init__(self, rows: list[tuple[tuple[int, ...], tuple[float, ...]]], index: dict[int, int],
                 states: bool = False, grouped: bool = True):
        trimmed: list[tuple[tuple[int, ...], tuple[float, ...], complex | None]] = []
        for keys, chances in rows:
            n, const = len(keys), 0j
            if states:  # the ends at the tail of a round, the win before the loss
                if n and keys[n - 1] == _LOSE:
                    n -= 1
                    const = 1j * chances[n]
                if n and keys[n - 1] == _WIN:
                    n -= 1
                    const = complex(chances[n], const.imag)
            trimmed.append((keys[:n], chances[:n], const if n < len(keys) else None))
        by_count: dict[tuple[int, bool], list[int]] = {}
        for r, (keys, _, end) in enumerate(trimmed):
            by_count.setdefault((len(keys), end is not None), []).append(r)
        # a group of a few sums costs a step per column: those rows are summed one by one, as sum() over their terms
        few = sorted(r for group in by_count.values() if len(group) < (_FEW if grouped else len(rows) + 1)
                     for r in group)
        self.rest: _Column | None = None
        self.counts: tuple[int, ...] = tuple(len(rows[r][0]) for r in few)
        if few:
            weights = [p for r in few for p in rows[r][1]]
            self.rest = (_gatherer([index[k] for r in few for k in rows[r][0]]), tuple(map(complex, weights)),
                         tuple(weights))
        self.groups: list[tuple[int, list[_Column], tuple[complex, ...] | None]] = []
        placed: list[int] = list(few)
        for n, has_const in sorted(by_count):
            members = by_count[n, has_const]
            if not grouped or len(members) < _FEW:
                continue
            placed.extend(members)
            columns: list[_Column] = []
            for j in range(n):
                weights = [trimmed[r][1][j] for r in members]
                columns.append((_gatherer([index[trimmed[r][0][j]] for r in members]),
                                tuple(map(complex, weights)), tuple(weights)))
            consts = tuple(trimmed[r][2] or 0j for r in members) if has_const else None
            self.groups.append((len(members), columns, consts))
        at = [0] * len(rows)
        for p, r in enumerate(placed):
            at[r] = p
        self.reorder = None if placed == sorted(placed) else _gatherer(at)

    @classmethod
    def of(cls, rows: list[tuple[tuple[int, ...], tuple[float, ...]]], index: dict[int, int],
           states: bool = False, grouped: bool = True) -> _Sums:
        """``states``: the rows' keys are states, the ends among them (else: declared rounds, by their place).

        ``grouped=False`` sums every row one by one: rounds merged over many
        declarations have many terms each, in groups too small to pay.
        """
        return cls(rows, index, states, grouped)

    def over(self, row: list, real: bool = False) -> list:
        """Every sum over ``row``: of values (A wins + 1j·B wins), or ``real``: of rounds (the ends count 0)."""
        out: list = []
        if self.rest is not None:
            gather, weights, floats = self.rest
            terms = map(mul, floats if real else weights, gather(row))
            out = [sum(islice(terms, n)) for n in self.counts]
        for size, columns, consts in self.groups:
            if not columns:  # the ends alone
                out.extend([0.0] * size if real or consts is None else consts)
                continue
            gather, weights, floats = columns[0]
            acc: Iterable[complex | float] = map(mul, floats if real else weights, gather(row))
            for gather, weights, floats in islice(columns, 1, None):
                acc = map(add, acc, map(mul, floats if real else weights, gather(row)))
            if consts is not None and not real:
                acc = map(add, acc, consts)
            out.extend(acc)
        return list(self.reorder(out)) if self.reorder is not None else out


Declared = tuple[tuple[int, ...], tuple[float, ...]]  # a round whose choices are made: successor keys, chances


def _damage_lens(choice: str) -> str:
    """The Lens whose damage a declaration deals (the Clever edges: plain, or twice keep the higher)."""
    return "none" if choice == FOLLOW_SKILL else _TWICE if choice == FOLLOW_DAMAGE else choice


def _declared_plan(game: _Game, start: dict[int, int], options: Callable[[int], list[Spread]], depth: int
                   ) -> tuple[dict[int, list[tuple[Spread, tuple[int, ...], tuple[float, ...]]]], dict[int, int],
                              list[Declared], list[Declared] | None]:
    """The states :func:`_plan` lists, each round split at the moment both sides have declared.

    A state's option is then its chances of each pair of declarations, by
    the place of that pair's round in the returned list; the round is listed
    once for every state it is played from. B's last Lens (a side B that
    remembers it) changes B's choices but not the round that follows them,
    so the states that differ only by it share their rounds, several times
    over for a mind that mixes its Lenses: the walk then has fewer terms
    than over :func:`_plan`'s merged rounds. When B remembers nothing there
    is nothing to share, and each state's option is its one merged round.

    Split, a declared round is itself a mix of three parts: for each side,
    the blows it deals when it wins the round (the chance of each blow once
    the round is won, the end among them), and the state a stalemate
    leaves. A side's blows reach the same states whatever either side
    carried into the round (a carry moves the chances to win, not where a
    blow leaves the Pools and the effects), so the rounds that differ only
    by a carry share their parts: the fourth item returned lists them, over
    states, and a declared round's keys are then ``-1 - part`` or a state.
    Without the split it is None.
    """
    split = game.remembers
    plan: dict[int, list[tuple[Spread, tuple[int, ...], tuple[float, ...]]]] = {}
    rounds: list[Declared] = []
    at: dict[tuple[int, int, str, str], int] = {}
    far = dict(start)
    queue = list(far)
    effects = game.effects
    b_rounds, reads = game._b_round, game._reads
    choices_b = game.choices_b
    parts: list[Declared] = []
    part_at: dict[tuple[int, int, str, bool], int] = {}
    for key in queue:  # the queue grows as the walk goes
        d = far[key]
        if d >= depth:
            plan[key] = []
            continue
        ib = key % _E
        b_round = b_rounds.get(ib)
        if b_round is None:  # what the round reads of B: its carry, and its last Lens only when its edge is due
            eb = effects[ib]
            read = (eb.carry, True, eb.last) if eb.follow_up else (eb.carry, False)
            b_round = b_rounds[ib] = reads.setdefault(read, len(reads))
        shared = key - ib  # the Pools and A's effect; with what the round reads of B, a round's place
        opts = []
        for spread in options(key):
            ids, chances = [], []
            if not split:  # the round merged by successor, as _plan lists it
                t = game.transitions(key, spread)
                for k in t:
                    if k > _LOSE and k not in far:
                        far[k] = d + 1
                        queue.append(k)
                merged: tuple[Spread, tuple[int, ...], tuple[float, ...]] = (spread, (len(rounds),), (1.0,))
                opts.append(merged)
                rounds.append((tuple(t), tuple(t.values())))
                continue
            for ca, qa in spread:
                for cb, qb in choices_b(key, ca):
                    which = (shared, b_round, ca, cb)
                    i = at.get(which)
                    if i is None:
                        pools = key - key % _DOWN_B  # the Pools with no effects
                        r = game.round(ca, cb, key // _E % _E, key % _E)
                        row: list[int] = []
                        qs: list[float] = []
                        for won, after, lens, a_wins in ((r.odds.a, r.after_a, ca, True),
                                                         (r.odds.b, r.after_b, cb, False)):
                            if not won > 0.0:
                                continue
                            part = (pools, after, _damage_lens(lens), a_wins)
                            j = part_at.get(part)
                            if j is None:
                                j = part_at[part] = len(parts)
                                blows = _blows(game, pools + after, part[2], a_wins)
                                parts.append(blows)
                                for k in blows[0]:
                                    if k > _LOSE and k not in far:
                                        far[k] = d + 1
                                        queue.append(k)
                            row.append(-1 - j)
                            qs.append(won)
                        if r.stalemate > 0.0:
                            k = pools + r.after_s
                            if k not in far:
                                far[k] = d + 1
                                queue.append(k)
                            row.append(k)
                            qs.append(r.stalemate)
                        i = at[which] = len(rounds)
                        rounds.append((tuple(row), tuple(qs)))
                    ids.append(i)
                    chances.append(qa * qb)
            opts.append((spread, tuple(ids), tuple(chances)))
        plan[key] = opts
    return plan, far, rounds, (parts if split else None)


def _blows(game: _Game, after: int, lens: str, a_wins: bool) -> Declared:
    """The states one side's blows lead to (``after``: the Pools, and the effects the round leaves), and the chance
    of each once the side has won the round: by growing damage, then the end the blows that put the foe out reach."""
    a, b = game.a, game.b
    if a_wins:
        dist, down, pool, end = damage_distribution(a.dice, lens, a.bonus, b.armour), _DOWN_B, after // _DOWN_B, _WIN
        pool %= _STRIDE_B
    else:
        dist, down, pool, end = damage_distribution(b.dice, lens, b.bonus, a.armour), _DOWN_A, after // _DOWN_A, _LOSE
    keys: list[int] = []
    chances: list[float] = []
    out = 0.0
    for v, p in dist:
        if not p > 0.0:
            continue
        if v < pool:
            keys.append(after - v * down)
            chances.append(p)
        else:
            out += p
    if out > 0.0:
        keys.append(end)
        chances.append(out)
    return tuple(keys), tuple(chances)


class _Walk:
    """A chain walked backwards: every listed state's value with 0 … ``horizon`` − 1 rounds to go.

    The plan comes from :func:`_declared_plan` with ``depth=horizon``: a state
    ``d`` rounds from the plan's start is worth asking with up to
    ``horizon − d`` rounds to go (its round's successors then have the rounds
    they need), which :meth:`covers` and :meth:`knows` check. Each pass works
    out every declared round's value from the states' values of the pass
    before, then every state's value as its mix of declared rounds.
    """

    def __init__(self, plan: dict[int, list[tuple[Spread, tuple[int, ...], tuple[float, ...]]]],
                 far: dict[int, int], rounds: list[Declared], parts: list[Declared] | None, horizon: int):
        self.far, self.horizon = far, horizon
        limit = horizon - 1
        single = [k for k, opts in plan.items() if len(opts) == 1]
        multi = [k for k, opts in plan.items() if len(opts) > 1]
        edge = [k for k, opts in plan.items() if not opts]  # as far as the horizon: only ever worth 0 here
        index = self.index = {_WIN: 0, _LOSE: 1}
        for key in single + multi + edge:
            index[key] = len(index)
        groups = [len(plan[k]) for k in multi]
        ends = [1.0 + 0.0j, 1.0j]
        zeros = [0j] * len(edge)
        values: list[complex] = ends + [0j] * (len(index) - 2)
        self.values = [values]  # values[t][i]: A wins + 1j·B wins from state i with t rounds to go
        self.rounds: list[list[float]] | None = None
        if parts is None and all(len(ids_) == 1 for opts in plan.values() for _, ids_, _ in opts):  # merged rounds
            self._merged(plan, rounds, single, multi, groups, len(edge), limit)
            return
        assert parts is not None, "rounds split by declaration come with their blows"
        blows = _Sums.of(parts, index, states=True)  # a side's blows from the states' values
        where = {-1 - j: j for j in range(len(parts))}  # then a declared round from the blows and the states
        where.update((k, len(parts) + i) for k, i in index.items())
        played = _Sums.of(list(rounds), where)
        ids = {i: i for i in range(len(rounds))}
        mix = _Sums.of([opt[1:] for k in single for opt in plan[k]], ids)  # a state from its declared rounds
        options = _Sums.of([opt[1:] for k in multi for opt in plan[k]], ids)
        if multi:  # A chooses: the rounds its choice takes are counted along
            self.rounds = [[0.0] * len(index)]
            each_idx = [ids_ for k in multi for _, ids_, _ in plan[k]]
            each_w = [chances for k in multi for _, _, chances in plan[k]]
        for _ in range(limit):
            prev = values
            now = played.over(blows.over(prev) + prev)
            values = ends + mix.over(now)
            if multi:
                each = options.over(now)
                chosen = _best_of_groups(each, groups, 0)
                values.extend(each[o] for o in chosen)
                assert self.rounds is not None
                last = self.rounds[-1]
                before = [1.0 + r for r in played.over(blows.over(last, real=True) + last, real=True)]  # a round's
                terms = map(mul, concat.from_iterable(map(each_w.__getitem__, chosen)),
                            _gatherer(list(concat.from_iterable(map(each_idx.__getitem__, chosen))))(before))
                self.rounds.append([0.0, 0.0] + mix.over(before, real=True)
                                   + [sum(islice(terms, len(each_w[o]))) for o in chosen] + [0.0] * len(edge))
            values.extend(zeros)
            self.values.append(values)

    def _merged(self, plan: dict[int, list[tuple[Spread, tuple[int, ...], tuple[float, ...]]]],
                rounds: list[Declared], single: list[int], multi: list[int], groups: list[int], edges: int,
                limit: int) -> None:
        """The walk when every option is one round merged by successor: no mix to work out."""
        n = len(single)
        order = [plan[k][0][1][0] for k in single] + [opt[1][0] for k in multi for opt in plan[k]]
        played = _Sums.of([rounds[i] for i in order], self.index, states=True, grouped=False)
        ends = [1.0 + 0.0j, 1.0j]
        zeros = [0j] * edges
        values = self.values[0]
        if multi:
            self.rounds = [[0.0] * len(self.index)]
        for _ in range(limit):
            now = played.over(values)
            values = ends + now[:n]
            if multi:
                chosen = _best_of_groups(now, groups, n)
                values.extend(now[o] for o in chosen)
                assert self.rounds is not None
                before = played.over(self.rounds[-1], real=True)
                self.rounds.append([0.0, 0.0] + [1.0 + r for r in before[:n]]
                                   + [1.0 + before[o] for o in chosen] + [0.0] * edges)
            values.extend(zeros)
            self.values.append(values)

    def covers(self, key: int, limit: int | None) -> bool:
        """Whether the walk knows the successors of ``key`` with ``limit`` − 1 rounds to go."""
        d = self.far.get(key)
        return limit is not None and d is not None and d + limit <= self.horizon

    def knows(self, key: int, limit: int | None) -> bool:
        """Whether the walk knows the value of ``key`` with ``limit`` rounds to go (it walked ``horizon`` − 1)."""
        d = self.far.get(key)
        return limit is not None and d is not None and limit <= self.horizon - max(d, 1)

    def value(self, key: int, limit: int | None) -> tuple[complex, float]:
        """(A wins + 1j·B wins, expected rounds) from ``key`` (an end too) with ``limit`` rounds to go."""
        assert limit is not None
        i = self.index[key]
        if self.rounds is not None:
            return self.values[limit][i], self.rounds[limit][i]
        # with no choices the expected rounds are the sum over the rounds of the chance to be still undecided
        return self.values[limit][i], sum(1.0 - v[i].real - v[i].imag for v in self.values[:limit])


def _solve_block(coef: list[dict[int, float]], outside: list[complex], out_rounds: list[float],
                 exits: list[bool]) -> tuple[list[complex], list[float]]:
    """Solve x = outside + M x (and the rounds, one per round) over the states of one block.

    ``coef[i]`` holds the chances of moving within the block, by position.
    States from which no way out can be reached never end: 0 (as in ``conflict_odds``).
    """
    n = len(coef)
    if n == 1:
        stay = coef[0].get(0, 0.0)
        if not exits[0] or stay >= 1.0:
            return [0j], [0.0]
        return [outside[0] / (1.0 - stay)], [out_rounds[0] / (1.0 - stay)]
    live = list(exits)
    changed = True
    while changed:  # every state that can reach a way out
        changed = False
        for i in range(n):
            if not live[i] and any(live[j] for j, p in coef[i].items() if p > 0.0):
                live[i] = changed = True
    pos = [i for i in range(n) if live[i]]
    at = {i: r for r, i in enumerate(pos)}
    m = len(pos)
    # (I - M) x = b for two right-hand sides; Gaussian elimination with partial pivoting (m is a handful)
    rows = []
    for i in pos:
        row: list[complex] = [0j] * m + [outside[i], complex(out_rounds[i])]
        row[at[i]] = 1.0 + 0j
        for j, p in coef[i].items():
            if j in at:
                row[at[j]] -= p
        rows.append(row)
    for c in range(m):
        pivot = max(range(c, m), key=lambda r: abs(rows[r][c]))
        rows[c], rows[pivot] = rows[pivot], rows[c]
        head = rows[c]
        h = head[c]
        for r in range(c + 1, m):
            f = rows[r][c] / h
            if f:
                row = rows[r]
                for k in range(c, m + 2):
                    row[k] -= f * head[k]
    x: list[complex] = [0j] * m
    y: list[complex] = [0j] * m
    for c in range(m - 1, -1, -1):
        row = rows[c]
        sx, sy = row[m], row[m + 1]
        for k in range(c + 1, m):
            sx -= row[k] * x[k]
            sy -= row[k] * y[k]
        x[c], y[c] = sx / row[c], sy / row[c]
    values, rounds = [0j] * n, [0.0] * n
    for r, i in enumerate(pos):
        values[i], rounds[i] = x[r], y[r].real
    return values, rounds


class _Blocks:
    """A chain with no round limit, solved block by block (a block: the states that share both Pools)."""

    def __init__(self, plan: dict[int, list[Option]]):
        self.plan = plan
        value = self.value_of = {_WIN: 1.0 + 0j, _LOSE: 1j}
        rounds = self.rounds = {_WIN: 0.0, _LOSE: 0.0}
        self.chosen: dict[int, int] = {}
        blocks: dict[int, list[int]] = {}
        for key in plan:
            blocks.setdefault(key // _DOWN_B, []).append(key)
        for block in sorted(blocks):  # smaller Pools first: every state out of the block is known
            states = blocks[block]
            at = {k: n for n, k in enumerate(states)}
            policy = [0] * len(states)
            for _ in range(100):  # policy iteration where A chooses: a few passes at most
                built = [self._parts(plan[k][policy[n]], at) for n, k in enumerate(states)]
                x, y = _solve_block([b[0] for b in built], [b[1] for b in built], [b[2] for b in built],
                                    [b[3] for b in built])
                changed = False
                for n, k in enumerate(states):
                    if len(plan[k]) == 1:
                        continue
                    best = x[n].real
                    for o, option in enumerate(plan[k]):
                        if o != policy[n]:
                            inside, out, _, _ = self._parts(option, at)
                            v = (out + sum(p * x[m] for m, p in inside.items())).real
                            if v > best + 1e-13:
                                best, policy[n], changed = v, o, True
                if not changed:
                    break
            for n, k in enumerate(states):
                value[k], rounds[k], self.chosen[k] = x[n], y[n], policy[n]

    def _parts(self, option: Option, at: dict[int, int]) -> tuple[dict[int, float], complex, float, bool]:
        """An option's round split into (chances within the block, value and rounds from outside, leaves at all)."""
        value, rounds = self.value_of, self.rounds
        inside: dict[int, float] = {}
        out, out_r, leaves = 0j, 1.0, False
        for k, p in zip(option[1], option[2]):
            n = at.get(k)
            if n is None:
                out += p * value[k]
                out_r += p * rounds[k]
                leaves = leaves or p > 0.0
            else:
                inside[n] = inside.get(n, 0.0) + p
        return inside, out, out_r, leaves

    def covers(self, key: int, limit: int | None) -> bool:
        return limit is None and key in self.plan

    def knows(self, key: int, limit: int | None) -> bool:
        return limit is None and key in self.plan

    def value(self, key: int, limit: int | None = None) -> tuple[complex, float]:
        return self.value_of[key], self.rounds[key]


# -- the public calls ----------------------------------------------------------------------------------


def _side(targets: Mapping[str, int] | int, dice: str, bonus: int, armour: int, name: str) -> _Side:
    table = lens_targets(targets) if isinstance(targets, int) else dict(targets)
    unknown = set(table) - set(LENSES)
    if unknown:
        raise ValueError(f"side {name}: unknown Lenses {', '.join(sorted(unknown))}")
    if "none" not in table:
        raise ValueError(f"side {name} needs a target for the plain roll ('none'): the Clever follow-up rolls it")
    expr = parse(str(dice))
    if sum(t.count for t in expr.terms if t.sides) > MAX_DICE or any(t.sides > 1000 for t in expr.terms):
        raise ValueError(f"the exact odds handle at most {MAX_DICE} dice of up to 1000 sides, not {dice}")
    return _Side(tuple((k, table[k]) for k in LENSES if k in table), str(dice), bonus, armour)


class _Nothing:
    """The values with no round to go: the ends are what they are, every other state is still undecided."""

    @staticmethod
    def knows(key: int, limit: int | None) -> bool:
        return limit == 0

    @staticmethod
    def value(key: int, limit: int | None = None) -> tuple[complex, float]:
        return (1.0 + 0j if key == _WIN else 1j if key == _LOSE else 0j), 0.0


class _Missing(Exception):
    """A state the solved chain without a round limit does not hold: its value needs a new solve."""

    def __init__(self, key: int):
        super().__init__(key)
        self.key = key


class LensChain:
    """One match-up of the Lens chain: two sides and B's policy. Ask it for the odds from any state.

    ``targets_*`` maps each Lens a side may use to its target before the
    Lens's skill shift (:func:`lens_targets`; an int stands for every Lens
    that rolls the conflict's skill). ``armour_a`` is what A's armour takes
    off B's blows, and so on, as in :func:`~.odds.conflict_odds`. ``sees``,
    when given, is the chance at Pools (a, b) that B declares after A (the
    initiative) and so knows A's choice: B's policy is then called with a
    fifth argument, A's declaration or None. ``remembers``: B's effect holds
    the Lens it declared last (``Effect.last``), for a policy that reads it
    (a state per Lens it may have used: dearer). B's choices, the rounds and the
    solved chains are kept: asking again from a state that an earlier walk
    reached (with no more rounds to go) is a look-up. The kept chains hold
    Python numbers for every state and round to go: tens of megabytes for all
    seven Lenses at Pools 20 and 30 rounds against a B that mixes Lenses. Keep
    one per conflict, drop it after.
    """

    def __init__(self, targets_a: Mapping[str, int] | int, targets_b: Mapping[str, int] | int, *,
                 damage_a: str = "1d6", damage_b: str = "1d6", bonus_a: int = 0, bonus_b: int = 0,
                 armour_a: int = 0, armour_b: int = 0, policy_b: LensPolicy = "none", sees: Sees | None = None,
                 remembers: bool = False):
        a = _side(targets_a, damage_a, bonus_a, armour_a, "a")
        b = _side(targets_b, damage_b, bonus_b, armour_b, "b")
        if isinstance(policy_b, str) and policy_b not in dict(b.targets):
            raise ValueError(f"side b has no target for the Lens {policy_b!r}")
        self.game = _Game(a, b, policy_b, sees, remembers)
        self.lenses_a: tuple[str, ...] = self.game.lenses_a
        self.targets_a: dict[str, int] = dict(a.targets)  # A's target for each Lens, before its shift
        self._kept: dict[tuple[object, bool], list[_Walk | _Blocks]] = {}

    def _options(self, lens_a: str | PolicyFn) -> Callable[[int], list[Spread]]:
        edges: list[Spread] = [((FOLLOW_SKILL, 1.0),), ((FOLLOW_DAMAGE, 1.0),)]
        if callable(lens_a):
            game, policy = self.game, lens_a
            return lambda key: [game.choices(policy, "a", key)]
        own: list[Spread] = [((k, 1.0),) for k in (self.lenses_a if lens_a == BEST else (lens_a,))]
        effects = self.game.effects
        return lambda key: edges if effects[(key // _E) % _E].follow_up else own

    @staticmethod
    def _check(pool_a: int, pool_b: int, round_limit: int | None, effect_a: Effect, effect_b: Effect) -> None:
        if pool_a < 1 or pool_b < 1:
            raise ValueError("Pools must be at least 1")
        if pool_a > MAX_POOL or pool_b > MAX_POOL:
            raise ValueError(f"the exact odds handle Pools up to {MAX_POOL}")
        if round_limit is not None and round_limit < 1:
            raise ValueError("round_limit must be at least 1")
        if not (isinstance(effect_a, Effect) and isinstance(effect_b, Effect)):
            raise TypeError("an effect is an Effect(carry, follow_up)")

    def odds(self, pool_a: int, pool_b: int, *, lens_a: str | PolicyFn = "none", effect_a: Effect = NOTHING,
             effect_b: Effect = NOTHING, round_limit: int | None = None,
             declared_b: Choice | None = None, first_a: str | None = None) -> ChainOdds:
        """The odds from Pools (pool_a, pool_b) and these effects.

        ``lens_a``: the Lens A keeps every round (its follow-up edge chosen for
        the better chance), ``"best"`` (its best in every state), or a policy
        as B's. ``round_limit``: the rounds still to play (None: no limit).
        ``declared_b``: what B declares this round (a Lens, or its edge when
        its follow-up is due), or its chances ({choice: chance}), in place of
        its policy for this round only: what it already declared, or what the
        mind would draw now from what it remembers. ``first_a``: what A
        declares this round (a Lens, or an edge when its follow-up is due) in
        place of ``lens_a``'s choice, ``lens_a`` playing every round after
        (the odds of each Clever edge, then keeping Clever).
        """
        self._check(pool_a, pool_b, round_limit, effect_a, effect_b)
        if not callable(lens_a) and lens_a != BEST and lens_a not in self.lenses_a:
            raise ValueError(f"side a has no target for the Lens {lens_a!r} (it has {', '.join(self.lenses_a)})")
        key, spread_b = self._start(pool_a, pool_b, effect_a, effect_b, declared_b)
        firsts = None
        if first_a is not None:
            allowed = FOLLOW_UPS if effect_a.follow_up else self.lenses_a
            firsts = [_spread(first_a, allowed, f"A's first declaration at Pools {pool_a}/{pool_b}")]
        after = None if round_limit is None else round_limit - 1
        solved = self._solved(lens_a, key, round_limit)
        try:
            return self._best_first(solved, key, after, lens_a, spread_b, firsts)
        except _Missing:  # a state (after B's declaration, or the start itself) the kept chains lack: solve anew
            solved = self._solved(lens_a, key, round_limit, starts=self._starts(key, lens_a, spread_b, firsts))
            return self._best_first(solved, key, after, lens_a, spread_b, firsts)

    def _best_first(self, solved: _Walk | _Blocks | _Nothing, key: int, after: int | None, lens_a: str | PolicyFn,
                    spread_b: Spread | None, firsts: list[Spread] | None = None) -> ChainOdds:
        """The odds from ``key``: A's best option in the first round (of ``firsts``, if given), then the solved
        values."""
        best = None
        memo: dict[tuple[int, int], tuple[complex, float]] = {}
        for spread_a in firsts or self._options(lens_a)(key):
            v, rounds = self._one_round(solved, key, after, spread_a, spread_b, lens_a, memo)
            if best is None or v.real > best[0].real:
                best = (v, rounds, spread_a)
        assert best is not None
        return self._odds(key, *best, spread_b)

    def _starts(self, key: int, lens_a: str | PolicyFn, spread_b: Spread | None,
                firsts: list[Spread] | None = None) -> dict[int, int]:
        """Where a new solve for a first round from ``key`` starts: the state, and every state its round leads to."""
        starts = {key: 0}
        for spread_a in firsts or self._options(lens_a)(key):
            starts.update((k, 1) for k in self.game.transitions(key, spread_a, spread_b) if k > _LOSE and k != key)
        return starts

    def _start(self, pool_a: int, pool_b: int, effect_a: Effect, effect_b: Effect,
               declared_b: Choice | None) -> tuple[int, Spread | None]:
        """The start's key, and a declaration of B on it (checked against what B may choose there)."""
        game = self.game
        key = _key(pool_a, pool_b, game.eid(effect_a), game.eid(effect_b))
        if declared_b is None:
            return key, None
        allowed = FOLLOW_UPS if effect_b.follow_up else game.lenses_b
        return key, _spread(declared_b, allowed, f"B's declaration at Pools {pool_b}/{pool_a}")

    def _one_round(self, solved: _Walk | _Blocks | _Nothing, key: int, after: int | None, spread_a: Spread,
                   spread_b: Spread | None, lens_a: str | PolicyFn = BEST,
                   memo: dict[tuple[int, int], tuple[complex, float]] | None = None) -> tuple[complex, float]:
        """A's and B's chances from ``key``: this round played out, then the solved values with ``after`` to go."""
        v, rounds = 0j, 1.0
        for k, p in self.game.transitions(key, spread_a, spread_b).items():
            kv, kr = self._value(solved, k, after, lens_a, {} if memo is None else memo)
            v += p * kv
            rounds += p * kr
        return v, rounds

    def _value(self, solved: _Walk | _Blocks | _Nothing, key: int, limit: int | None, lens_a: str | PolicyFn,
               memo: dict[tuple[int, int], tuple[complex, float]]) -> tuple[complex, float]:
        """A state's value with ``limit`` rounds to go: from the solved chain, or (a state it never reached,
        after a declaration of B its policy would not make) worked out round by round on top of it."""
        if key <= _LOSE:
            return (1.0 + 0j if key == _WIN else 1j), 0.0
        if solved.knows(key, limit):
            return solved.value(key, limit)
        if limit is None:
            raise _Missing(key)
        if limit == 0:
            return 0j, 0.0
        got = memo.get((key, limit))
        if got is None:
            if len(memo) >= _ON_DEMAND:
                raise _Missing(key)
            for spread_a in self._options(lens_a)(key):
                v, rounds = self._one_round(solved, key, limit - 1, spread_a, None, lens_a, memo)
                if got is None or v.real > got[0].real:
                    got = (v, rounds)
            assert got is not None
            memo[key, limit] = got
        return got

    def _odds(self, key: int, v: complex, rounds: float, spread: Spread, spread_b: Spread | None) -> ChainOdds:
        a_wins, b_wins = v.real, v.imag
        first = max(spread, key=lambda cp: cp[1])[0]
        odds = self.game.first_round(key, spread, spread_b)
        return ChainOdds(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), rounds, odds, first)

    def _solved(self, lens_a: str | PolicyFn, key: int, round_limit: int | None,
                starts: dict[int, int] | None = None) -> _Walk | _Blocks | _Nothing:
        """A solved chain for ``lens_a`` to price a first round from ``key`` on: a kept one, or a new one.

        A kept chain that reached ``key`` is a look-up. With a round limit, a
        kept walk that did not (the player switched Lenses, so the state holds
        effects keeping one Lens never leaves) still knows where one round from
        it leads, nearly always: its values are worked out on top of the walk
        (:meth:`_value`), and only when that fails is a new one solved. With
        ``starts`` a new one is solved from those states.
        """
        if round_limit == 1:
            return _Nothing()
        which = (lens_a, round_limit is None)
        kept = self._kept[which] = self._kept.pop(which, [])  # the most recently asked last
        while len(self._kept) > _KEEP:  # a new policy function for A on every call must not pile up chains
            del self._kept[next(iter(self._kept))]
        if starts is None:
            for old in kept:
                if old.covers(key, round_limit):
                    return old
            walks = [w for w in kept if isinstance(w, _Walk) and round_limit is not None
                     and w.horizon >= round_limit - 1]
            if walks:
                return max(walks, key=lambda w: w.horizon)
            starts = {key: 0}
        solved: _Walk | _Blocks
        if round_limit is None:
            solved = _Blocks(_plan(self.game, starts, self._options(lens_a))[0])
        else:
            plan, far, rounds, parts = _declared_plan(self.game, starts, self._options(lens_a), round_limit)
            solved = _Walk(plan, far, rounds, parts, round_limit)
        kept.append(solved)  # a conflict's later states are mostly in the first one: kept, with the latest
        if len(kept) > _PER_LENS:
            del kept[1]
        return solved

    def lens_odds(self, pool_a: int, pool_b: int, *, effect_a: Effect = NOTHING, effect_b: Effect = NOTHING,
                  round_limit: int | None = None, lenses: Iterable[str] | None = None,
                  declared_b: Choice | None = None) -> LensOdds:
        """The odds for every Lens A may keep (or those in ``lenses``) from one state, and the best of them."""
        wanted = self.lenses_a if lenses is None else tuple(k for k in self.lenses_a if k in set(lenses))
        if not wanted:
            raise ValueError("no Lens to price")
        odds = {k: self.odds(pool_a, pool_b, lens_a=k, effect_a=effect_a, effect_b=effect_b,
                             round_limit=round_limit, declared_b=declared_b) for k in wanted}
        return LensOdds(odds, best_of(odds))

    def look_ahead(self, pool_a: int, pool_b: int, *, effect_a: Effect = NOTHING, effect_b: Effect = NOTHING,
                   round_limit: int | None = None, declared_b: Choice | None = None) -> LensOdds:
        """The odds if A plays each Lens this round, then its best in every state (an edge each, when due).

        One best-play chain (``lens_a="best"``), then one round per Lens from
        its values: the number a mind weighs for "this Lens now". The best of
        them is the best-play chain's own first choice.
        """
        self._check(pool_a, pool_b, round_limit, effect_a, effect_b)
        key, spread_b = self._start(pool_a, pool_b, effect_a, effect_b, declared_b)
        solved = self._solved(BEST, key, round_limit)
        after = None if round_limit is None else round_limit - 1
        while True:
            try:
                odds = {}
                memo: dict[tuple[int, int], tuple[complex, float]] = {}
                for spread in self._options(BEST)(key):
                    v, rounds = self._one_round(solved, key, after, spread, spread_b, BEST, memo)
                    odds[spread[0][0]] = self._odds(key, v, rounds, spread, spread_b)
                break
            except _Missing:
                solved = self._solved(BEST, key, round_limit, starts=self._starts(key, BEST, spread_b))
        best = max(odds, key=lambda k: odds[k].a_wins)
        return LensOdds(odds, best)


def best_of(odds: Mapping[str, ConflictOdds]) -> str:
    """The Lens with the highest chance to win (ties within 1e-12: the earlier one)."""
    keys = list(odds)
    best = keys[0]
    for k in keys:
        if odds[k].a_wins > odds[best].a_wins + 1e-12:
            best = k
    return best


def chain_odds(targets_a: Mapping[str, int] | int, pool_a: int, targets_b: Mapping[str, int] | int, pool_b: int, *,
               damage_a: str = "1d6", damage_b: str = "1d6", bonus_a: int = 0, bonus_b: int = 0, armour_a: int = 0,
               armour_b: int = 0, lens_a: str | PolicyFn = "none", policy_b: LensPolicy = "none",
               effect_a: Effect = NOTHING, effect_b: Effect = NOTHING, round_limit: int | None = None) -> ChainOdds:
    """The exact odds of a one-against-one conflict from a state, any Lenses on either side.

    Like :func:`~.odds.conflict_odds` (equal to it when both sides keep a
    memoryless Lens and nothing is carried), plus what the last round left
    on each side (``effect_a``, ``effect_b``), A keeping any Lens (or
    ``"best"``, or a policy) and B playing a policy of the whole state.
    """
    chain = LensChain(targets_a, targets_b, damage_a=damage_a, damage_b=damage_b, bonus_a=bonus_a, bonus_b=bonus_b,
                      armour_a=armour_a, armour_b=armour_b, policy_b=policy_b)
    return chain.odds(pool_a, pool_b, lens_a=lens_a, effect_a=effect_a, effect_b=effect_b, round_limit=round_limit)


def lens_odds(targets_a: Mapping[str, int] | int, pool_a: int, targets_b: Mapping[str, int] | int, pool_b: int, *,
              damage_a: str = "1d6", damage_b: str = "1d6", bonus_a: int = 0, bonus_b: int = 0, armour_a: int = 0,
              armour_b: int = 0, policy_b: LensPolicy = "none", effect_a: Effect = NOTHING,
              effect_b: Effect = NOTHING, round_limit: int | None = None,
              lenses: Iterable[str] | None = None) -> LensOdds:
    """The odds for every Lens A may keep every round, against B's policy, from one state; and the best Lens."""
    chain = LensChain(targets_a, targets_b, damage_a=damage_a, damage_b=damage_b, bonus_a=bonus_a, bonus_b=bonus_b,
                      armour_a=armour_a, armour_b=armour_b, policy_b=policy_b)
    return chain.lens_odds(pool_a, pool_b, effect_a=effect_a, effect_b=effect_b, round_limit=round_limit,
                           lenses=lenses)


def _best_of_groups(values: list[complex], groups: list[int], at: int) -> list[int]:
    """Per run of ``groups[i]`` options from ``at`` on: the index of the one with the highest win share."""
    chosen = []
    for n in groups:
        best = at
        for o in range(at + 1, at + n):
            if values[o].real > values[best].real:
                best = o
        chosen.append(best)
        at += n
    return chosen
