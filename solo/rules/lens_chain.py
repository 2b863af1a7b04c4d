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
near-best options. What B already declared this round (it acted first) may
replace its policy for that one round (``declared_b``).

A :class:`LensChain` answers three questions from any state:
:meth:`~LensChain.odds` (A keeps a Lens, or plays its best),
:meth:`~LensChain.lens_odds` (every Lens A may keep, and the best of them) and
:meth:`~LensChain.look_ahead` (each Lens this round, A's best after: what a
mind weighs).

How it is solved: the states reachable from the start are listed once, each
with its round merged by successor. With a round limit the chain is walked
backwards that many rounds, A's and B's chances to win carried together as
one complex number; without one, the states are solved in order of growing
Pools, those that share both Pools (they differ in their effects only, and a
round that changes no Pool moves between them) as one small linear system.
A chain keeps what it solved, so a later state of the same conflict is a
look-up when the first walk reached it. The work is the states (Pool pairs
times the pairs of effects the Lenses can leave) times the successors of a
round (more when B mixes Lenses) times the rounds to go:
``benchmarks/lens_odds.py`` measures it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain as concat
from itertools import islice
from operator import itemgetter, mul
from typing import NamedTuple

from .dice import parse
from .lenses import CLEVER_BONUS, LENS_TABLE, LENSES, PLAIN, Damage, Lens
from .odds import BEST, MAX_DICE, MAX_POOL, ConflictOdds, RoundOdds, damage_distribution, round_kernel

#: The two edges of the Clever follow-up (the engine's answers to its question).
FOLLOW_SKILL, FOLLOW_DAMAGE = "skill", "damage"
FOLLOW_UPS: tuple[str, str] = (FOLLOW_SKILL, FOLLOW_DAMAGE)
#: The Lens whose damage is rolled twice, keep the higher: the "damage" edge is priced with its dice.
_TWICE = next(k for k, v in LENS_TABLE.items() if v.damage is Damage.TWICE_KEEP_HIGHER)
#: The Lenses that roll the conflict's own skill (an int target stands for all of them).
CONFLICT_SKILL_LENSES: tuple[str, ...] = tuple(k for k, v in LENS_TABLE.items() if v.rolls is None)


class Effect(NamedTuple):
    """What the last round left on one side for this round (see the module's docstring)."""

    carry: int = 0
    follow_up: bool = False


NOTHING = Effect()

#: A side's choice in one state: a Lens (an edge when its follow-up is due) or {choice: chance}.
Choice = str | Mapping[str, float]
#: (own pool, other pool, own effect, other effect) -> Choice
PolicyFn = Callable[[int, int, Effect, Effect], Choice]
#: A policy, or a plain string: that Lens every round (the "skill" edge after Clever).
LensPolicy = str | PolicyFn
Spread = tuple[tuple[str, float], ...]  # choices with their chances, none of them zero


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


class _Round(NamedTuple):
    """One round for a pair of choices from a pair of effects."""

    odds: RoundOdds
    blows_a: _Blows  # A's, to B's Pool
    blows_b: _Blows
    stalemate: float
    after_a: int  # the pair of effects (as a pair id) after a round A won
    after_b: int
    after_s: int  # after a stalemate


def _spread(answer: Choice, allowed: Iterable[str], where: str) -> Spread:
    """A policy's answer as choices and chances: checked, normalised, zero chances left out."""
    spread = {answer: 1.0} if isinstance(answer, str) else dict(answer)
    allowed = set(allowed)
    total = 0.0
    for choice, p in spread.items():
        if choice not in allowed:
            raise ValueError(f"{where}: the policy chose {choice!r}; it may choose {', '.join(sorted(allowed))}")
        if not p >= 0.0:
            raise ValueError(f"{where}: the policy gave {choice!r} the chance {p}")
        total += p
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"{where}: the policy's chances add up to {total}, not 1")
    return tuple((c, p / total) for c, p in spread.items() if p > 0.0)


# -- the chain ---------------------------------------------------------------------------------

_E = 16  # effect ids per side that a state key has room for
_STRIDE_B = MAX_POOL + 1  # a state key is ((pool_a * _STRIDE_B + pool_b) * _E + effect a) * _E + effect b
_DOWN_B = _E * _E  # B's Pool one lower
_DOWN_A = _STRIDE_B * _DOWN_B
_WIN, _LOSE = 0, 1  # the keys (and positions) of the two ends
_CHOICES = LENSES + FOLLOW_UPS
_KEEP = 32  # solved chains a LensChain keeps: one per Lens of A (or policy) and kind of limit, the least asked out
_FIRST = 1 << 40  # a start key plus _FIRST × (1 + the choice's place in _CHOICES): B declared it this round


def _root(key: int, declared: str | None) -> int:
    """The key a walk starts from: the state, or the state in a round whose choice B already declared."""
    return key if declared is None else key + _FIRST * (1 + _CHOICES.index(declared))


def _key(pool_a: int, pool_b: int, ia: int, ib: int) -> int:
    return ((pool_a * _STRIDE_B + pool_b) * _E + ia) * _E + ib


def _state(key: int) -> tuple[int, int, int, int]:
    rest, ib = divmod(key, _E)
    rest, ia = divmod(rest, _E)
    pool_a, pool_b = divmod(rest, _STRIDE_B)
    return pool_a, pool_b, ia, ib


class _Game:
    """What one match-up's chains share, whatever A plays: effects, B's choices, the rounds."""

    def __init__(self, a: _Side, b: _Side, policy: LensPolicy):
        self.a, self.b = a, b
        self.policy_b = fixed_policy(policy) if isinstance(policy, str) else policy
        self.lenses_a = tuple(k for k, _ in a.targets)
        self.lenses_b = tuple(k for k, _ in b.targets)
        self.effects: list[Effect] = []
        self._ids: dict[Effect, int] = {}
        self._rounds: dict[tuple[str, str, int, int], _Round] = {}
        self._b: dict[int, Spread] = {}

    def eid(self, e: Effect) -> int:
        i = self._ids.get(e)
        if i is None:
            i = self._ids[e] = len(self.effects)
            if i >= _E:
                raise ValueError("too many different carried effects")  # the Lens table makes a handful
            self.effects.append(e)
        return i

    def choices(self, policy: PolicyFn, side: str, key: int) -> Spread:
        """A policy's choices in a state, seen from its own side."""
        pool_a, pool_b, ia, ib = _state(key)
        ea, eb = self.effects[ia], self.effects[ib]
        own, other, mine, theirs, lenses = ((pool_a, pool_b, ea, eb, self.lenses_a) if side == "a"
                                            else (pool_b, pool_a, eb, ea, self.lenses_b))
        allowed = FOLLOW_UPS if mine.follow_up else lenses
        return _spread(policy(own, other, mine, theirs), allowed,
                       f"side {side} at Pools {own}/{other}, effects {tuple(mine)}/{tuple(theirs)}")

    def choices_b(self, key: int) -> Spread:
        out = self._b.get(key)  # cached per state: every chain of the match-up asks the same
        if out is None:
            out = self._b[key] = self.choices(self.policy_b, "b", key)
        return out

    def round(self, ca: str, cb: str, ia: int, ib: int) -> _Round:
        key = (ca, cb, ia, ib)
        r = self._rounds.get(key)
        if r is None:
            a, b = self.a, self.b
            ta, la = _roll(a, ca, self.effects[ia].carry)
            tb, lb = _roll(b, cb, self.effects[ib].carry)
            odds = round_kernel(ta, tb, la, lb, a.dice, b.dice, a.bonus, b.bonus, a.armour, b.armour).round
            pairs = [self.eid(_after(ca, cb, wa, wb)) * _E + self.eid(_after(cb, ca, wb, wa))
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
        out: dict[int, float] = {}
        get = out.get
        rounds = self._rounds
        win = lose = 0.0
        for ca, pa in spread_a:
            for cb, pb in spread_b or self.choices_b(key):
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

    def first_round(self, key: int, spread_a: Spread, spread_b: Spread | None = None) -> RoundOdds:
        _, _, ia, ib = _state(key)
        a = b = s = 0.0
        for ca, pa in spread_a:
            for cb, pb in spread_b or self.choices_b(key):
                r = self.round(ca, cb, ia, ib).odds
                a += pa * pb * r.a
                b += pa * pb * r.b
                s += pa * pb * r.stalemate
        return RoundOdds(a, b, s)


Option = tuple[Spread, tuple[int, ...], tuple[float, ...]]  # A's spread, successor keys, their chances


def _plan(game: _Game, start: int, options: Callable[[int], list[Spread]]) -> dict[int, list[Option]]:
    """Every state reachable from ``start`` (a breadth-first walk), with A's options and their rounds.

    A ``start`` with a declaration of B on it (:func:`_root`) plays its round with that choice; the
    same state reached later plays B's policy as every other state does.
    """
    plan: dict[int, list[Option]] = {}
    queue = [start]
    seen = {start}
    for key in queue:  # the queue grows as the walk goes
        opts = []
        declared = key // _FIRST
        state = key % _FIRST
        for spread in options(state):
            t = game.transitions(state, spread, ((_CHOICES[declared - 1], 1.0),) if declared else None)
            for k in t:
                if k > _LOSE and k not in seen:
                    seen.add(k)
                    queue.append(k)
            opts.append((spread, tuple(t), tuple(t.values())))
        plan[key] = opts
    return plan


def _gatherer(idx: list[int]) -> Callable[[list], tuple]:
    """The items at ``idx`` of a row, always as a tuple (an itemgetter of one index returns the item)."""
    return itemgetter(*idx) if len(idx) > 1 else (lambda row: tuple(row[i] for i in idx))


class _Sums(NamedTuple):
    """Many weighted sums over one row of values, as one gather and one pass (the walk's inner loop)."""

    gather: Callable[[list], tuple]
    weights: tuple[complex, ...]  # complex: a complex value times a float weight would go the slow way round
    real: tuple[float, ...]
    counts: tuple[int, ...]  # how many terms each sum takes, in order

    @classmethod
    def of(cls, rows: list[tuple[tuple[int, ...], tuple[float, ...]]], index: dict[int, int]) -> _Sums:
        idx = [index[k] for keys, _ in rows for k in keys]
        weights = [p for _, chances in rows for p in chances]
        return cls(_gatherer(idx), tuple(map(complex, weights)), tuple(weights), tuple(len(keys) for keys, _ in rows))

    def over(self, row: list, weights: tuple) -> list:
        terms = map(mul, weights, self.gather(row))
        return [sum(islice(terms, n)) for n in self.counts]


class _Walk:
    """A chain walked backwards ``limit`` rounds: every reached state's value with 0 … limit rounds to go."""

    def __init__(self, plan: dict[int, list[Option]], limit: int):
        self.plan, self.limit = plan, limit
        single = [k for k, opts in plan.items() if len(opts) == 1]
        multi = [k for k, opts in plan.items() if len(opts) > 1]
        index = self.index = {_WIN: 0, _LOSE: 1}
        for key in single + multi:
            index[key] = len(index)
        self._multi_at = {k: j for j, k in enumerate(multi)}
        singles = _Sums.of([opt[1:] for k in single for opt in plan[k]], index)
        options = _Sums.of([opt[1:] for k in multi for opt in plan[k]], index)
        groups = [len(plan[k]) for k in multi]
        each_idx = [tuple(index[k] for k in keys) for k in multi for _, keys, _ in plan[k]]  # option by option
        each_w = [chances for k in multi for _, _, chances in plan[k]]
        ends = [1.0 + 0.0j, 1.0j]
        values: list[complex] = ends + [0j] * (len(index) - 2)
        self.values = [values]  # values[t][i]: A wins + 1j·B wins from state i with t rounds to go
        self.rounds: list[list[float]] | None = [[0.0] * len(index)] if multi else None
        self.picks: list[list[int]] = []  # picks[t - 1][j]: the option the j-th multi state takes with t to go
        for _ in range(limit):
            prev = values
            values = ends + singles.over(prev, singles.weights)
            if multi:  # A chooses: the option with the best chance to win, and the rounds that choice takes
                each = options.over(prev, options.weights)
                picks, chosen, at = [], [], 0
                for n in groups:
                    best = at
                    for o in range(at + 1, at + n):
                        if each[o].real > each[best].real:
                            best = o
                    values.append(each[best])
                    picks.append(best - at)
                    chosen.append(best)
                    at += n
                self.picks.append(picks)
                assert self.rounds is not None
                before = self.rounds[-1]
                # the rounds of the chosen options only
                terms = map(mul, concat.from_iterable(map(each_w.__getitem__, chosen)),
                            _gatherer(list(concat.from_iterable(map(each_idx.__getitem__, chosen))))(before))
                self.rounds.append([0.0, 0.0] + [1.0 + r for r in singles.over(before, singles.real)]
                                   + [1.0 + sum(islice(terms, len(each_w[o]))) for o in chosen])
            self.values.append(values)

    def covers(self, key: int, limit: int | None) -> bool:
        return limit is not None and limit <= self.limit and key in self.index

    def value(self, key: int, limit: int | None) -> tuple[complex, float]:
        """(A wins + 1j·B wins, expected rounds) from ``key`` (an end too) with ``limit`` rounds to go."""
        assert limit is not None
        i = self.index[key]
        if self.rounds is not None:
            return self.values[limit][i], self.rounds[limit][i]
        # with no choices the expected rounds are the sum over the rounds of the chance to be still undecided
        return self.values[limit][i], sum(1.0 - v[i].real - v[i].imag for v in self.values[:limit])

    def at(self, key: int, limit: int | None) -> tuple[complex, float, Spread]:
        """(A wins + 1j·B wins, expected rounds, A's spread in the first round)."""
        assert limit is not None
        j = self._multi_at.get(key)
        option = 0 if j is None else self.picks[limit - 1][j]
        return (*self.value(key, limit), self.plan[key][option][0])


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

    def value(self, key: int, limit: int | None = None) -> tuple[complex, float]:
        return self.value_of[key], self.rounds[key]

    def at(self, key: int, limit: int | None = None) -> tuple[complex, float, Spread]:
        return self.value_of[key], self.rounds[key], self.plan[key][self.chosen[key]][0]


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


class LensChain:
    """One match-up of the Lens chain: two sides and B's policy. Ask it for the odds from any state.

    ``targets_*`` maps each Lens a side may use to its target before the
    Lens's skill shift (:func:`lens_targets`; an int stands for every Lens
    that rolls the conflict's skill). ``armour_a`` is what A's armour takes
    off B's blows, and so on, as in :func:`~.odds.conflict_odds`. B's
    choices, the rounds and the solved chains are kept: asking again from a
    state that an earlier walk reached (with no more rounds to go) is a
    look-up. The kept chains hold Python numbers for every state and round
    to go: tens of megabytes for all seven Lenses at Pools 20 and 30 rounds
    against a B that mixes Lenses (50 MB in ``benchmarks/lens_odds.py``; 30
    with no limit, 10 at Pools 10). Keep one per conflict, drop it after.
    """

    def __init__(self, targets_a: Mapping[str, int] | int, targets_b: Mapping[str, int] | int, *,
                 damage_a: str = "1d6", damage_b: str = "1d6", bonus_a: int = 0, bonus_b: int = 0,
                 armour_a: int = 0, armour_b: int = 0, policy_b: LensPolicy = "none"):
        a = _side(targets_a, damage_a, bonus_a, armour_a, "a")
        b = _side(targets_b, damage_b, bonus_b, armour_b, "b")
        if isinstance(policy_b, str) and policy_b not in dict(b.targets):
            raise ValueError(f"side b has no target for the Lens {policy_b!r}")
        self.game = _Game(a, b, policy_b)
        self.lenses_a: tuple[str, ...] = self.game.lenses_a
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
             effect_b: Effect = NOTHING, round_limit: int | None = None, declared_b: str | None = None) -> ChainOdds:
        """The odds from Pools (pool_a, pool_b) and these effects.

        ``lens_a``: the Lens A keeps every round (its follow-up edge chosen for
        the better chance), ``"best"`` (its best in every state), or a policy
        as B's. ``round_limit``: the rounds still to play (None: no limit).
        ``declared_b``: what B already declared this round (a Lens, or its edge
        when its follow-up is due), in place of its policy for this round only.
        """
        self._check(pool_a, pool_b, round_limit, effect_a, effect_b)
        if not callable(lens_a) and lens_a != BEST and lens_a not in self.lenses_a:
            raise ValueError(f"side a has no target for the Lens {lens_a!r} (it has {', '.join(self.lenses_a)})")
        key = self._start(pool_a, pool_b, effect_a, effect_b, declared_b)
        v, rounds, spread = self._solved(lens_a, key, round_limit).at(key, round_limit)
        return self._odds(key, v, rounds, spread)

    def _start(self, pool_a: int, pool_b: int, effect_a: Effect, effect_b: Effect, declared_b: str | None) -> int:
        """The start's key, a declaration of B on it (checked against what B may choose there)."""
        game = self.game
        key = _key(pool_a, pool_b, game.eid(effect_a), game.eid(effect_b))
        if declared_b is not None:
            allowed = FOLLOW_UPS if effect_b.follow_up else game.lenses_b
            _spread(declared_b, allowed, f"B's declaration at Pools {pool_b}/{pool_a}")
        return _root(key, declared_b)

    def _odds(self, root: int, v: complex, rounds: float, spread: Spread) -> ChainOdds:
        a_wins, b_wins = v.real, v.imag
        first = max(spread, key=lambda cp: cp[1])[0]
        declared = root // _FIRST
        odds = self.game.first_round(root % _FIRST, spread, ((_CHOICES[declared - 1], 1.0),) if declared else None)
        return ChainOdds(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), rounds, odds, first)

    def _solved(self, lens_a: str | PolicyFn, key: int, round_limit: int | None) -> _Walk | _Blocks:
        """The solved chain for ``lens_a`` that covers the state ``key``: the one kept, or a new one."""
        which = (lens_a, round_limit is None)
        kept = self._kept[which] = self._kept.pop(which, [])  # the most recently asked last
        while len(self._kept) > _KEEP:  # a new policy function for A on every call must not pile up chains
            del self._kept[next(iter(self._kept))]
        for solved in kept:
            if solved.covers(key, round_limit):
                return solved
        plan = _plan(self.game, key, self._options(lens_a))
        solved = _Blocks(plan) if round_limit is None else _Walk(plan, round_limit)
        kept[:] = [solved]  # the latest per Lens: a conflict's later states are mostly in it
        return solved

    def lens_odds(self, pool_a: int, pool_b: int, *, effect_a: Effect = NOTHING, effect_b: Effect = NOTHING,
                  round_limit: int | None = None, lenses: Iterable[str] | None = None,
                  declared_b: str | None = None) -> LensOdds:
        """The odds for every Lens A may keep (or those in ``lenses``) from one state, and the best of them."""
        wanted = self.lenses_a if lenses is None else tuple(k for k in self.lenses_a if k in set(lenses))
        if not wanted:
            raise ValueError("no Lens to price")
        odds = {k: self.odds(pool_a, pool_b, lens_a=k, effect_a=effect_a, effect_b=effect_b,
                             round_limit=round_limit, declared_b=declared_b) for k in wanted}
        best = wanted[0]
        for k in wanted:
            if odds[k].a_wins > odds[best].a_wins + 1e-12:
                best = k
        return LensOdds(odds, best)

    def look_ahead(self, pool_a: int, pool_b: int, *, effect_a: Effect = NOTHING, effect_b: Effect = NOTHING,
                   round_limit: int | None = None, declared_b: str | None = None) -> LensOdds:
        """The odds if A plays each Lens this round, then its best in every state (an edge each, when due).

        One best-play chain (``lens_a="best"``), then one round per Lens from
        its values: the number a mind weighs for "this Lens now". The best of
        them is the best-play chain's own first choice.
        """
        self._check(pool_a, pool_b, round_limit, effect_a, effect_b)
        key = self._start(pool_a, pool_b, effect_a, effect_b, declared_b)
        solved = self._solved(BEST, key, round_limit)
        after = None if round_limit is None else round_limit - 1
        odds = {}
        for spread, keys, chances in solved.plan[key]:
            v, rounds = 0j, 1.0
            for k, p in zip(keys, chances):
                if k == _WIN or k == _LOSE:
                    v += p * (1.0 + 0j if k == _WIN else 1j)
                elif after != 0:
                    kv, kr = solved.value(k, after)
                    v += p * kv
                    rounds += p * kr
            odds[spread[0][0]] = self._odds(key, v, rounds, spread)
        best = max(odds, key=lambda k: odds[k].a_wins)
        return LensOdds(odds, best)


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
