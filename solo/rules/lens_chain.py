"""Exact odds of a one-against-one Extended Conflict in which either side may use any Lens.

:mod:`.odds` prices conflicts whose Lenses are over when the round is (none,
Aggressive, Cautious): its chain's state is the two Pools. Clever, Covert and
Flamboyant leave something for the next round, so this chain's state is the
two Pools *and* what the last round left on each side, an :class:`Effect`:

* ``carry``: added to that side's roll this round. A Covert or Flamboyant
  round not won (stalemates included) leaves −20 on its own side; a Covert
  or Flamboyant win leaves −20 on the side it struck, even when armour took
  the whole blow. They add up as in the engine: both read
  :func:`~.lenses.round_effects`, so a carry is 0, −20 or −40 (a start state
  may bring any other number, for its one round).
* ``follow_up``: a Clever round was just played, won or not. This round the
  side declares no Lens but one edge: ``"skill"`` (+20 to the roll) or
  ``"damage"`` (the damage dice rolled twice, keep the higher). A side struck
  by a Covert win while it played Clever has both.
* ``last``: the Lens the side declared last (kept through its follow-up),
  held only for a side B whose policy reads it (``remembers=True``: an NPC
  mind's habit of repeating its Lens); None otherwise.
* ``nerve``: side B's morale, when its policy has one (an NPC mind whose
  nerve can go, :mod:`solo.minds.morale`): its state, the one-time triggers
  fired, whether a blow hurt it since it last looked. Opaque to the chain:
  B's policy reads it and answers each choice with the nerve its check
  leaves, ``(Lens, nerve)``, or :data:`EXIT` when it breaks and leaves (the
  conflict ends there, counted apart: :attr:`ChainOdds.b_exits`); the chain
  marks it hurt (``policy.hurt(nerve)``) when a blow of A takes Pool off B.

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
  zero, as in :func:`~.odds.conflict_odds`. B may leave (flee or give up)
  only through a policy with a nerve (``Effect.nerve``).

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

How it is solved lives in :mod:`.lens_arrays` (numpy, imported on first
need): the pairs of effects reachable are listed, every pair over the whole
rectangle of Pools the chain can reach, and walked backwards with a round
limit (or solved by growing Pools without one) in a few array steps for all
the Lenses A may keep at once (:meth:`LensChain.kept_odds`): a kept Lens is
part of A's state (``Effect.last``), so one walk holds them all. The first
round from the asked state is played out explicitly; the states it leads to
are read off the solved arrays. A chain keeps what it solved: a later state of
the same conflict is a look-up when the first walk holds it, and a new walk
from that state when it does not (the player switched Lenses into effects
keeping one Lens never leaves, or B declared what its policy never would).
``benchmarks/lens_odds.py`` measures it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .dice import parse
from .lenses import (
    CLEVER_BONUS,
    FOLLOW_DAMAGE,
    FOLLOW_SKILL,
    FOLLOW_UPS,
    LENS_TABLE,
    LENSES,
    Damage,
    round_effects,
)
from .odds import BEST, MAX_DICE, MAX_POOL, ConflictOdds, RoundOdds, damage_distribution, round_odds

if TYPE_CHECKING:
    import numpy as np

    from .lens_arrays import Grid, Solved

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
    nerve: Hashable | None = None  # side B's morale, as its policy writes it (None: a nerve that never moves)


NOTHING = Effect()
#: B's choice to leave the conflict (flee or give up, its policy's nerve broken): the conflict ends at once,
#: counted apart from the wins (:attr:`ChainOdds.b_exits`).
EXIT = "exit"


def choice_of(key: object) -> str:
    """The declaration in one of B's choices: a Lens, an edge or :data:`EXIT`, with or without the nerve it
    leaves (a policy with a nerve answers ``(declaration, nerve after its check)``)."""
    return key[0] if isinstance(key, tuple) else key  # type: ignore[return-value]

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


class Kept:
    """A side that declares ``lens`` every round and takes the edge ``edge`` after Clever (:func:`fixed_policy`).

    The same at every Pool, so the chain reads it whole (``over_grid``) and,
    for side A, as a Lens kept rather than a policy asked state by state.
    """

    __slots__ = ("edge", "lens")

    def __init__(self, lens: str, edge: str = FOLLOW_SKILL):
        if edge not in FOLLOW_UPS:
            raise ValueError(f"a Clever follow-up is {' or '.join(FOLLOW_UPS)}, not {edge!r}")
        self.lens, self.edge = lens, edge

    def __call__(self, own: int, other: int, mine: Effect, theirs: Effect, seen: str | None = None) -> str:
        return self.edge if mine.follow_up else self.lens

    def over_grid(self, own: np.ndarray, other: np.ndarray, mine: Effect, theirs: Effect,
                  seen: str | None = None) -> dict[str, float]:
        return {self(0, 0, mine, theirs): 1.0}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Kept) and (self.lens, self.edge) == (other.lens, other.edge)

    def __hash__(self) -> int:
        return hash((Kept, self.lens, self.edge))

    def __repr__(self) -> str:
        return f"fixed_policy({self.lens!r}, {self.edge!r})"


def fixed_policy(lens_key: str, follow_up: str = FOLLOW_SKILL) -> Kept:
    """A side that declares ``lens_key`` every round and takes the edge ``follow_up`` after Clever.

    A plain string as B's policy means ``fixed_policy(string)``.
    """
    return Kept(lens_key, follow_up)


def lens_targets(skill: int, *, covert: int | None = None, flamboyant: int | None = None) -> dict[str, int]:
    """A side's target for each Lens it may use, before the Lens's own skill shift.

    ``skill`` is what the engine's ``_target_for`` rolls for a plain
    declaration: the conflict's skill and Focus (``base_target``), plus the
    side's standing ``bonus`` and the opposing shield's penalty. Every Lens
    that rolls the conflict's skill starts there. ``covert`` is Cunning and
    ``flamboyant`` the declared other skill, each with its fitting Focus
    (``Participant.rolled_target``), plus the same bonus and shield; None leaves that
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
    ``b_exits``: the chance that B leaves, its nerve broken (fleeing or
    giving up, as its policy has it); ``never_ends`` is what is left after
    both wins and that.
    """

    first: str = "none"
    b_exits: float = 0.0

    @property
    def undecided(self) -> float:
        return self.never_ends

    @property
    def a_gains(self) -> float:
        """A's chance to come out on top: B knocked out, or gone (:attr:`b_exits`)."""
        return self.a_wins + self.b_exits

    def to_dict(self) -> dict:
        out = {**super().to_dict(), "first": self.first}
        if self.b_exits:
            out["b_exits"] = self.b_exits
        return out


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


def _roll(side: _Side, choice: str, carry: int) -> tuple[int, str]:
    """(target before the Lens's shift, the Lens whose shift and damage the kernel applies)."""
    targets = dict(side.targets)
    if choice == FOLLOW_SKILL:
        return targets["none"] + carry + CLEVER_BONUS, "none"
    if choice == FOLLOW_DAMAGE:  # no shift, damage twice keep the higher: that Lens's dice, its shift undone
        return targets["none"] + carry - LENS_TABLE[_TWICE].skill_shift, _TWICE
    return targets[choice] + carry, choice


def _damage_lens(choice: str) -> str:
    """The Lens whose damage a declaration deals (the Clever edges: plain, or twice keep the higher)."""
    return "none" if choice == FOLLOW_SKILL else _TWICE if choice == FOLLOW_DAMAGE else choice


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
        if choice_of(choice) not in allowed or not p >= 0.0:
            place = _place(where)
            if choice_of(choice) not in allowed:
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


class RoundSpec(NamedTuple):
    """One declared round from a pair of effects: its chances, the Lenses whose damage the winner deals, and the
    pairs of effects it leaves (A won, B won, stalemate)."""

    a: float
    b: float
    stalemate: float
    damage_a: str
    damage_b: str
    after: tuple[tuple[Effect, Effect], tuple[Effect, Effect], tuple[Effect, Effect]]


# -- the match-up -------------------------------------------------------------------------


class _Game:
    """What one match-up's walks share, whatever A plays: the rounds, the blows, B's choices over the Pools."""

    def __init__(self, a: _Side, b: _Side, policy: LensPolicy, sees: Sees | None = None, remembers: bool = False):
        self.a, self.b = a, b
        self.remembers = remembers and not isinstance(policy, str)
        self.policy_b: Callable[..., Choice] = fixed_policy(policy) if isinstance(policy, str) else policy
        self.sees = None if isinstance(policy, str) else sees  # a fixed Lens does not look
        self.lenses_a = tuple(k for k, _ in a.targets)
        self.lenses_b = tuple(k for k, _ in b.targets)
        # a policy with a nerve (an NPC mind whose morale can move) may also leave, and marks its nerve hurt
        self._hurt: Callable[[Hashable], Hashable] | None = getattr(self.policy_b, "hurt", None)
        self.exits = self._hurt is not None
        self.allowed = {"a": frozenset(self.lenses_a),
                        "b": frozenset(self.lenses_b) | ({EXIT} if self.exits else frozenset())}
        self._hurts: dict[tuple[Effect, Effect], tuple[Effect, Effect]] = {}
        self._leaving: Callable[[Hashable], float] | None = getattr(self.policy_b, "leaving", None)
        self._specs: dict[tuple[str, str | tuple, Effect, Effect], RoundSpec] = {}
        self._bare: dict[tuple, tuple] = {}  # round_spec's all but B's nerve (see _bare_spec)
        self._taps: dict[tuple[str, str], tuple[tuple[int, ...], tuple[float, ...]]] = {}
        self._b: dict[tuple, dict[str, np.ndarray]] = {}
        self._sees: dict[Grid, np.ndarray] = {}
        self._pool_grids: dict[Grid, tuple[np.ndarray, np.ndarray]] = {}
        # the largest blow of each side (what a walk keeps below each Pool)
        self.hit_a = max(v for v, _ in damage_distribution(a.dice, "none", a.bonus, b.armour))
        self.hit_b = max(v for v, _ in damage_distribution(b.dice, "none", b.bonus, a.armour))

    def hurt_pair(self, pair: tuple[Effect, Effect]) -> tuple[Effect, Effect]:
        """The pair a blow of A leaves when it takes Pool off B: B's nerve marked hurt (the same pair when B's
        policy has no nerve, or its nerve does not mind)."""
        got = self._hurts.get(pair)
        if got is None:
            ea, eb = pair
            got = pair
            if self._hurt is not None and eb.nerve is not None:
                nerve = self._hurt(eb.nerve)
                if nerve != eb.nerve:
                    got = (ea, eb._replace(nerve=nerve))
            self._hurts[pair] = got
        return got

    def gone_at_limit(self, pair: tuple[Effect, Effect]) -> float:
        """The chance that B is gone when the round limit comes in this pair (its nerve's try to get away at
        the end of the round just played, ``policy.leaving(nerve)``): a value with no round to go."""
        nerve = pair[1].nerve
        return self._leaving(nerve) if self._leaving is not None and nerve is not None else 0.0

    def round_spec(self, ca: str, choice_b: str | tuple, ea: Effect, eb: Effect) -> RoundSpec:
        """One declared round (B's choice a declaration, or a declaration and the nerve it leaves; never
        :data:`EXIT`, which ends the conflict without a round)."""
        key = (ca, choice_b, ea, eb)
        spec = self._specs.get(key)
        if spec is None:
            cb = choice_of(choice_b)
            nerve = choice_b[1] if isinstance(choice_b, tuple) else eb.nerve
            # all but B's nerve, which only passes through: one for every nerve a mind's choice may leave
            bare = self._bare.get((ca, cb, ea, eb.carry, eb.follow_up, eb.last))
            if bare is None:
                bare = self._bare[ca, cb, ea, eb.carry, eb.follow_up, eb.last] = self._bare_spec(ca, cb, ea, eb)
            (a, b, stalemate), damage_a, damage_b, after = bare
            left = tuple((pa, Effect(carry, follow_up, last, nerve)) for pa, (carry, follow_up, last) in after)
            spec = self._specs[key] = RoundSpec(a, b, stalemate, damage_a, damage_b, left)  # type: ignore[arg-type]
        return spec

    def _bare_spec(self, ca: str, cb: str, ea: Effect, eb: Effect) -> tuple:
        """:meth:`round_spec` but B's nerve: (its chances, the damage Lenses, the pairs it leaves with B's effect
        as (carry, follow-up, last)). Everything a round reads but the nerve, so kept by that."""
        a, b = self.a, self.b
        ta, la = _roll(a, ca, ea.carry)
        tb, lb = _roll(b, cb, eb.carry)
        r = round_odds(ta + LENS_TABLE[la].skill_shift, tb + LENS_TABLE[lb].skill_shift)  # round_kernel's
        last_b = (eb.last if cb in FOLLOW_UPS else cb) if self.remembers else None

        def pair(wa: bool, wb: bool) -> tuple[Effect, tuple]:  # wa: A won the round, wb: B won it
            return (Effect(*round_effects(ca, won=wa, struck_by=cb if wb else None), ea.last),
                    (*round_effects(cb, won=wb, struck_by=ca if wa else None), last_b))

        return ((r.a, r.b, r.stalemate), _damage_lens(ca), _damage_lens(cb),
                (pair(True, False), pair(False, True), pair(False, False)))

    def taps(self, side: str, dmg: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """A side's blow with a damage Lens, once it has won the round: each amount (0: it lands for nothing)
        and its chance."""
        key = (side, dmg)
        got = self._taps.get(key)
        if got is None:
            me, other = (self.a, self.b) if side == "a" else (self.b, self.a)
            dist = [(v, p) for v, p in damage_distribution(me.dice, dmg, me.bonus, other.armour) if p > 0.0]
            got = self._taps[key] = (tuple(v for v, _ in dist), tuple(p for _, p in dist))
        return got

    def sees_grid(self, grid: Grid) -> np.ndarray | None:
        """The chance at each pair of Pools that B declares after A (None: it never sees A's declaration)."""
        if self.sees is None:
            return None
        got = self._sees.get(grid)
        if got is None:
            import numpy as np

            got = self._sees[grid] = np.array([[self.sees(pa, pb) for pb in range(grid.lo_b, grid.hi_b + 1)]
                                               for pa in range(grid.lo_a, grid.hi_a + 1)], dtype=float)
        return got

    def spread_b(self, grid: Grid, ea: Effect, eb: Effect, ca: str) -> dict[str, np.ndarray]:
        """B's chances of each choice at every pair of Pools of ``grid`` from these effects, A declaring ``ca``
        (mixed by the chance that B sees it); choices never taken are left out."""
        sees = self.sees_grid(grid)
        key = (grid, ea, eb, ca if sees is not None else None)
        got = self._b.get(key)
        if got is not None:
            return got
        import numpy as np

        if sees is None:
            got = self.policy_grid(self.policy_b, "b", grid, eb, ea)
        else:
            blind = self.policy_grid(self.policy_b, "b", grid, eb, ea, None) if np.any(sees < 1.0) else {}
            seen = self.policy_grid(self.policy_b, "b", grid, eb, ea, ca) if np.any(sees > 0.0) else {}
            got = _mixed(((1.0 - sees, blind), (sees, seen)), grid.shape)
        self._b[key] = got
        return got

    def policy_grid(self, policy: Callable[..., Choice], side: str, grid: Grid, mine: Effect, theirs: Effect,
                    *seen: str | None) -> dict[str, np.ndarray]:
        """A policy's chances over the Pools of ``grid`` as ``side`` sees them: whole, when the policy has an
        ``over_grid`` method, else asked state by state (and checked, as :func:`_spread` checks)."""
        import numpy as np

        allowed = self._allowed(side, mine)
        ha, hb = grid.shape
        pools_a, pools_b = self._pools(grid)
        own, other = (pools_a, pools_b) if side == "a" else (pools_b, pools_a)
        whole = getattr(policy, "over_grid", None)
        if whole is not None:
            got = whole(own, other, mine, theirs, *seen)
            answer = [(got, 1.0)] if isinstance(got, str) else list(got.items())
            return self._normalised(answer, (ha, hb), policy, side, own, other, mine, theirs, seen, allowed)
        out: dict[str, np.ndarray] = {}
        for i in range(ha):
            for j in range(hb):
                o, t = int(own[i, j]), int(other[i, j])
                for c, p in _spread(policy(o, t, mine, theirs, *seen), allowed, (side, o, t, mine, theirs)):
                    arr = out.get(c)
                    if arr is None:
                        arr = out[c] = np.zeros((ha, hb))
                    arr[i, j] = p
        return out

    def _pools(self, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
        """A's Pool and B's at every point of ``grid`` (read only: every policy asked over it shares them)."""
        got = self._pool_grids.get(grid)
        if got is None:
            import numpy as np

            ha, hb = grid.shape
            pools_a = np.arange(grid.lo_a, grid.hi_a + 1)[:, None].repeat(hb, axis=1)
            pools_b = np.arange(grid.lo_b, grid.hi_b + 1)[None, :].repeat(ha, axis=0)
            pools_a.flags.writeable = pools_b.flags.writeable = False
            got = self._pool_grids[grid] = (pools_a, pools_b)
        return got

    def _normalised(self, answer: list[tuple[str, Any]], shape: tuple[int, int], policy: Callable[..., Choice],
                    side: str, own: np.ndarray, other: np.ndarray, mine: Effect, theirs: Effect, seen: tuple,
                    allowed: frozenset[str]) -> dict[str, np.ndarray]:
        """A whole-grid answer ({choice: chances}) checked and normalised, choices never taken left out.

        An answer whose every choice is an array over the grid (a mind's:
        some twenty small arrays with a nerve, asked thousands of times a
        walk) is stacked and worked on in a few array steps: the same
        arithmetic as one array per choice, ``total`` summed over the
        choices in their order (a running sum: numpy's ``reduce`` may add in
        pairs), so the same bits (tests/test_lens_chain.py holds it to the
        plain way). Any other answer (numbers standing for every Pool) goes
        the plain way, one array per choice.
        """
        import numpy as np

        values = [p for _, p in answer]
        if not all(type(p) is np.ndarray and p.shape == shape and p.dtype == np.float64 for p in values):
            arrays = {c: np.asarray(p, dtype=float) for c, p in answer}
            plain = sum(arrays.values())
            if (any(choice_of(c) not in allowed for c in arrays) or min(float(p.min()) for p in arrays.values()) < 0.0
                    or float(np.max(np.abs(plain - 1.0))) > 1e-6):
                self._check_point(policy, side, own, other, mine, theirs, seen, allowed)
            return {c: np.broadcast_to(p / plain, shape) for c, p in arrays.items() if p.max() > 0.0}
        stack = np.array(values)  # one copy of them all
        total = np.add.accumulate(stack, axis=0)[-1]
        if (any(choice_of(c) not in allowed for c, _ in answer) or float(stack.min()) < 0.0
                or float(np.max(np.abs(total - 1.0))) > 1e-6):
            self._check_point(policy, side, own, other, mine, theirs, seen, allowed)
        taken = stack.reshape(len(answer), -1).max(axis=1) > 0.0
        stack /= total
        stack.flags.writeable = False
        return {c: stack[i] for i, (c, _) in enumerate(answer) if taken[i]}

    def _allowed(self, side: str, mine: Effect) -> frozenset[str]:
        """What ``side`` may declare with this effect: its Lenses, or its edges when its follow-up is due; and a
        way out for a B whose nerve may break."""
        if not mine.follow_up:
            return self.allowed[side]
        return frozenset(FOLLOW_UPS) | ({EXIT} if side == "b" and self.exits else frozenset())

    @staticmethod
    def _check_point(policy: Callable[..., Choice], side: str, own: np.ndarray, other: np.ndarray, mine: Effect,
                     theirs: Effect, seen: tuple, allowed: Iterable[str]) -> None:
        """A whole-grid answer that is wrong somewhere: asked state by state, so the error names the state."""
        for o, t in zip(own.ravel(), other.ravel()):
            _spread(policy(int(o), int(t), mine, theirs, *seen), allowed, (side, int(o), int(t), mine, theirs))
        raise ValueError(f"side {side}: the policy's chances over the Pools do not add up to 1")

    def choices(self, policy: Callable[..., Choice], side: str, pools: tuple[int, int], mine: Effect,
                theirs: Effect, *seen: str | None) -> Spread:
        """A policy's choices in one state, seen from its own side (``pools``: its own, the other's)."""
        allowed = self._allowed(side, mine)
        own, other = pools
        return _spread(policy(own, other, mine, theirs, *seen), allowed, (side, own, other, mine, theirs))

    def choices_b(self, pool_a: int, pool_b: int, ea: Effect, eb: Effect, ca: str) -> Spread:
        """B's choices in one state when A declares ``ca``, mixed by the chance that B sees it."""
        pools = (pool_b, pool_a)
        if self.sees is None:
            return self.choices(self.policy_b, "b", pools, eb, ea)
        p = self.sees(pool_a, pool_b)
        if p >= 1.0:
            return self.choices(self.policy_b, "b", pools, eb, ea, ca)
        if p <= 0.0:
            return self.choices(self.policy_b, "b", pools, eb, ea, None)
        out: dict[str, float] = {}
        for w, spread in ((1.0 - p, self.choices(self.policy_b, "b", pools, eb, ea, None)),
                          (p, self.choices(self.policy_b, "b", pools, eb, ea, ca))):
            for c, q in spread:
                out[c] = out.get(c, 0.0) + w * q
        return tuple((c, q) for c, q in out.items() if q > 0.0)


def _mixed(spreads: Sequence[tuple[np.ndarray, Mapping[str, np.ndarray]]],
           shape: tuple[int, int]) -> dict[str, np.ndarray]:
    """Chances over a grid of Pools mixed by weights over it: for each choice, the sum over ``spreads`` of weight
    × chance, in their order from 0.0; choices never taken left out (read only).

    Each spread's choices are worked on stacked (a mind with a nerve has
    some twenty, each a small array), the sums in the order one array per
    choice would make them, so the same bits (tests/test_lens_chain.py).
    """
    import numpy as np

    keys: dict[str, int] = {}
    for _, spread in spreads:
        for c in spread:
            keys.setdefault(c, len(keys))
    if not keys:
        return {}
    out = np.zeros((len(keys), *shape))
    for weight, spread in spreads:
        if spread:
            rows = [keys[c] for c in spread]
            out[rows] += weight * np.stack(list(spread.values()))
    taken = out.reshape(len(keys), -1).max(axis=1, initial=0.0) > 0.0
    out.flags.writeable = False
    return {c: out[i] for c, i in keys.items() if taken[i]}


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


# -- what A plays ------------------------------------------------------------------------------

#: How A plays in a walk: ("keep", {Lens: edge rule}) — each Lens kept every round, its Clever edge "best" (the
#: better one) or the one named; ("best", None) — its best in every state; ("policy", fn) — a policy like B's.
Mode = tuple[str, object]
_KEEP = 3  # solved walks a LensChain keeps, the least recently used out
_PRICES = 4096  # prices a LensChain remembers by what was asked (a bot fighting one match-up asks again and again)


class _Request(NamedTuple):
    """One price asked of a walk: A's mode, its kept Lens (a tag in its state), its first declaration, B's."""

    kind: str
    lens: str | None  # the Lens A keeps (kind "keep")
    rule: object  # the edge rule (keep), or A's policy (policy)
    first: str | None
    declared_b: Spread | None


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
    (a state per Lens it may have used: dearer). B's policy also sees, in
    A's effect's ``last``, the Lens A keeps (when it keeps one): what a mind
    answers when it declares first. A policy with an ``over_grid`` method
    (``(own pools, other pools, own effect, other effect[, seen]) -> {choice:
    chances}``, the Pools as arrays) is asked for a whole walk's Pools at once.
    The solved walks are kept (the latest few): asking again from a state a
    walk holds (with no more rounds to go) is a look-up. They hold every state
    for every round to go: about 15 MB for all the Lenses at Pools 20 and 30
    rounds against a mind. Keep one per conflict, drop it after.
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
        self._kept: list[tuple[Mode, Solved]] = []
        self._prices: dict[tuple, dict[str, ChainOdds]] = {}

    # -- checks ---------------------------------------------------------------------------------

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

    def _request(self, lens_a: str | PolicyFn, first_a: str | None, declared_b: Choice | None, pool_a: int,
                 pool_b: int, effect_a: Effect, effect_b: Effect) -> _Request:
        rule: object
        if isinstance(lens_a, Kept):
            if lens_a.lens not in self.lenses_a:
                raise ValueError(f"side a: the policy chose {lens_a.lens!r}; it may choose "
                                 f"{', '.join(sorted(self.lenses_a))}")
            kind, lens, rule = "keep", lens_a.lens, lens_a.edge
        elif callable(lens_a):
            kind, lens, rule = "policy", None, lens_a
        elif lens_a == BEST:
            kind, lens, rule = "best", None, None
        elif lens_a in self.lenses_a:
            kind, lens, rule = "keep", lens_a, BEST
        else:
            raise ValueError(f"side a has no target for the Lens {lens_a!r} (it has {', '.join(self.lenses_a)})")
        if first_a is not None:
            allowed = FOLLOW_UPS if effect_a.follow_up else self.lenses_a
            _spread(first_a, allowed, f"A's first declaration at Pools {pool_a}/{pool_b}")
        spread_b = None
        if declared_b is not None:
            spread_b = _spread(declared_b, self.game._allowed("b", effect_b),
                               f"B's declaration at Pools {pool_b}/{pool_a}")
        return _Request(kind, lens, rule, first_a, spread_b)

    # -- the public calls -------------------------------------------------------------------------------

    def odds(self, pool_a: int, pool_b: int, *, lens_a: str | PolicyFn = "none", effect_a: Effect = NOTHING,
             effect_b: Effect = NOTHING, round_limit: int | None = None,
             declared_b: Choice | None = None, first_a: str | None = None) -> ChainOdds:
        """The odds from Pools (pool_a, pool_b) and these effects.

        ``lens_a``: the Lens A keeps every round (its follow-up edge chosen for
        the better chance), ``"best"`` (its best in every state), a Lens kept
        with a set edge (:func:`fixed_policy`), or a policy as B's.
        ``round_limit``: the rounds still to play (None: no limit).
        ``declared_b``: what B declares this round (a Lens, or its edge when
        its follow-up is due), or its chances ({choice: chance}), in place of
        its policy for this round only: what it already declared, or what the
        mind would draw now from what it remembers. ``first_a``: what A
        declares this round (a Lens, or an edge when its follow-up is due) in
        place of ``lens_a``'s choice, ``lens_a`` playing every round after
        (the odds of each Clever edge, then keeping Clever).
        """
        self._check(pool_a, pool_b, round_limit, effect_a, effect_b)
        request = self._request(lens_a, first_a, declared_b, pool_a, pool_b, effect_a, effect_b)
        got = self._price({"": request}, pool_a, pool_b, effect_a, effect_b, round_limit)
        assert got is not None
        return got[""]

    def kept_odds(self, pool_a: int, pool_b: int, wanted: Mapping[str, tuple[str | PolicyFn, Choice | None]], *,
                  effect_a: Effect = NOTHING, effect_b: Effect = NOTHING, round_limit: int | None = None,
                  first_a: str | None = None, stop: Callable[[], bool] | None = None) -> dict[str, ChainOdds]:
        """Several prices from one state in one walk: {name: (what A keeps, B's declaration this round or None)}.

        What A keeps is a Lens (its edge the better one) or :func:`fixed_policy`
        (Clever with its +20 edge): all of them are walked together. ``stop``
        is asked before each pass of the walk; when it says so, nothing is
        priced (an empty dict) and nothing kept.
        """
        self._check(pool_a, pool_b, round_limit, effect_a, effect_b)
        requests = {name: self._request(lens_a, first_a, declared, pool_a, pool_b, effect_a, effect_b)
                    for name, (lens_a, declared) in wanted.items()}
        got = self._price(requests, pool_a, pool_b, effect_a, effect_b, round_limit, stop)
        return {} if got is None else got

    def lens_odds(self, pool_a: int, pool_b: int, *, effect_a: Effect = NOTHING, effect_b: Effect = NOTHING,
                  round_limit: int | None = None, lenses: Iterable[str] | None = None,
                  declared_b: Choice | None = None) -> LensOdds:
        """The odds for every Lens A may keep (or those in ``lenses``) from one state, and the best of them."""
        wanted = self.lenses_a if lenses is None else tuple(k for k in self.lenses_a if k in set(lenses))
        if not wanted:
            raise ValueError("no Lens to price")
        odds = self.kept_odds(pool_a, pool_b, {k: (k, declared_b) for k in wanted}, effect_a=effect_a,
                              effect_b=effect_b, round_limit=round_limit)
        return LensOdds(odds, best_of(odds))

    def look_ahead(self, pool_a: int, pool_b: int, *, effect_a: Effect = NOTHING, effect_b: Effect = NOTHING,
                   round_limit: int | None = None, declared_b: Choice | None = None) -> LensOdds:
        """The odds if A plays each Lens this round, then its best in every state (an edge each, when due).

        One best-play walk, then one round per Lens from its values: the
        number a mind weighs for "this Lens now". The best of them is the
        best-play chain's own first choice.
        """
        self._check(pool_a, pool_b, round_limit, effect_a, effect_b)
        firsts = FOLLOW_UPS if effect_a.follow_up else self.lenses_a
        requests = {c: self._request(BEST, c, declared_b, pool_a, pool_b, effect_a, effect_b) for c in firsts}
        odds = self._price(requests, pool_a, pool_b, effect_a, effect_b, round_limit)
        assert odds is not None
        best = max(odds, key=lambda k: odds[k].a_wins)
        return LensOdds(odds, best)

    # -- pricing --------------------------------------------------------------------------------------

    def _mode(self, requests: Mapping[str, _Request]) -> Mode:
        kinds = {r.kind for r in requests.values()}
        if len(kinds) != 1:
            raise ValueError("one walk prices one kind of play for A")
        kind = kinds.pop()
        if kind == "keep":
            rules: dict[str, object] = {}
            for r in requests.values():
                assert r.lens is not None
                if rules.setdefault(r.lens, r.rule) != r.rule:
                    raise ValueError(f"{r.lens} is kept two ways in one walk")
            return ("keep", rules)
        if kind == "policy":
            fns = {id(r.rule): r.rule for r in requests.values()}
            if len(fns) != 1:
                raise ValueError("one walk prices one policy for A")
            return ("policy", fns.popitem()[1])
        return ("best", None)

    def _start_a(self, request: _Request, effect_a: Effect) -> Effect:
        """A's effect at the start: for a kept Lens, tagged with it (B reads it as the Lens A used last)."""
        return effect_a._replace(last=request.lens) if request.kind == "keep" else effect_a._replace(last=None)

    def _options(self, mode: Mode) -> Callable[..., list[tuple]]:
        """A's options in a pair of effects: over a walk's Pools (``grid``), or at one pair of Pools (``at``)."""
        game = self.game
        edges = [((FOLLOW_SKILL, 1.0),), ((FOLLOW_DAMAGE, 1.0),)]
        kind, what = mode

        def options(ea: Effect, grid: Grid | None = None, at: tuple[int, int] | None = None) -> list[tuple]:
            if kind == "keep":
                assert isinstance(what, dict) and ea.last is not None
                if not ea.follow_up:
                    return [((ea.last, 1.0),)]
                rule = what[ea.last]
                return edges if rule == BEST else [((rule, 1.0),)]
            if kind == "best":
                return edges if ea.follow_up else [((k, 1.0),) for k in game.lenses_a]
            assert callable(what)
            raise AssertionError("a policy's options need the other side's effect")  # see _policy_options

        return options

    def _plan_options(self, mode: Mode) -> Callable[[Effect, Effect, Grid], list[tuple]]:
        game = self.game
        if mode[0] != "policy":
            base = self._options(mode)
            return lambda ea, eb, grid: base(ea, grid)
        policy = mode[1]
        assert callable(policy)
        return lambda ea, eb, grid: [tuple(game.policy_grid(policy, "a", grid, ea, eb).items())]

    def _first_options(self, mode: Mode, request: _Request, ea: Effect, eb: Effect, pool_a: int,
                       pool_b: int) -> list[Spread]:
        if request.first is not None:
            return [((request.first, 1.0),)]
        if mode[0] == "policy":
            policy = mode[1]
            assert callable(policy)
            return [self.game.choices(policy, "a", (pool_a, pool_b), ea, eb)]
        return self._options(mode)(ea)

    def _price(self, requests: Mapping[str, _Request], pool_a: int, pool_b: int, effect_a: Effect,
               effect_b: Effect, round_limit: int | None,
               stop: Callable[[], bool] | None = None) -> dict[str, ChainOdds] | None:
        # The price is a function of the match-up and of what is asked: asked again (the same state of a fight
        # met once more, as bots meet it run after run), it is read back instead of walked through again.
        try:
            key: tuple | None = (tuple(requests.items()), pool_a, pool_b, effect_a, effect_b, round_limit)
            known = self._prices.get(key)  # type: ignore[arg-type]
        except TypeError:  # something asked that cannot be a key (an unhashable policy): priced afresh
            key = known = None
        if known is not None:
            return dict(known)
        got = self._price_afresh(requests, pool_a, pool_b, effect_a, effect_b, round_limit, stop)
        if key is not None and got is not None:
            if len(self._prices) >= _PRICES:
                self._prices.clear()
            self._prices[key] = dict(got)
        return got

    def _price_afresh(self, requests: Mapping[str, _Request], pool_a: int, pool_b: int, effect_a: Effect,
                      effect_b: Effect, round_limit: int | None,
                      stop: Callable[[], bool] | None = None) -> dict[str, ChainOdds] | None:
        from .lens_arrays import Missing, Stopped

        mode = self._mode(requests)
        for at in range(len(self._kept) - 1, -1, -1):
            kept_mode, solved = self._kept[at]
            if not self._fits(kept_mode, mode, solved, round_limit):
                continue
            try:
                out = self._first_rounds(solved, mode, requests, pool_a, pool_b, effect_a, effect_b, round_limit)
            except Missing:
                continue
            self._kept.append(self._kept.pop(at))  # the most recently used last
            return out
        try:
            solved = self._solve(mode, requests, pool_a, pool_b, effect_a, effect_b, round_limit, stop)
        except Stopped:
            return None
        self._kept.append((mode, solved))
        if len(self._kept) > _KEEP:
            del self._kept[0]
        return self._first_rounds(solved, mode, requests, pool_a, pool_b, effect_a, effect_b, round_limit)

    @staticmethod
    def _fits(kept: Mode, mode: Mode, solved: Solved, round_limit: int | None) -> bool:
        from .lens_arrays import Walk

        if kept[0] != mode[0] or (round_limit is None) != (not isinstance(solved, Walk)):
            return False
        if mode[0] == "keep":
            assert isinstance(kept[1], dict) and isinstance(mode[1], dict)
            return all(kept[1].get(k) == rule for k, rule in mode[1].items())
        return mode[0] == "best" or kept[1] is mode[1]

    def _solve(self, mode: Mode, requests: Mapping[str, _Request], pool_a: int, pool_b: int, effect_a: Effect,
               effect_b: Effect, round_limit: int | None, stop: Callable[[], bool] | None) -> Solved:
        """A new walk (or solve) for ``mode``, from the start and every pair of effects its first rounds reach."""
        from .lens_arrays import Plan, Stationary, Walk, grid_of

        game = self.game
        grid = grid_of(pool_a, pool_b, round_limit, game.hit_a, game.hit_b)
        starts: dict[tuple[Effect, Effect], None] = {}
        for r in requests.values():
            ea = self._start_a(r, effect_a)
            starts[(ea, effect_b)] = None
            for spread_a in self._first_options(mode, r, ea, effect_b, pool_a, pool_b):
                for ca, _ in spread_a:
                    for cb, _ in r.declared_b or game.choices_b(pool_a, pool_b, ea, effect_b, ca):
                        if cb == EXIT:
                            continue
                        after = game.round_spec(ca, cb, ea, effect_b).after
                        for pair in (*after, game.hurt_pair(after[0])):
                            starts[pair] = None
        plan = Plan(game, grid, starts, self._plan_options(mode))
        if round_limit is None:
            return Stationary(plan, stop)
        return Walk(plan, round_limit, stop)

    def _first_rounds(self, solved: Solved, mode: Mode, requests: Mapping[str, _Request], pool_a: int, pool_b: int,
                      effect_a: Effect, effect_b: Effect, round_limit: int | None) -> dict[str, ChainOdds]:
        """Each request's first round from the start, played out, the rest read off ``solved``."""
        game = self.game
        out = {}
        for name, r in requests.items():
            ea = self._start_a(r, effect_a)
            best = None
            for spread_a in self._first_options(mode, r, ea, effect_b, pool_a, pool_b):
                value = None
                a = b = s = 0.0
                for ca, pa in spread_a:
                    for cb, pb in r.declared_b or game.choices_b(pool_a, pool_b, ea, effect_b, ca):
                        v = solved.round_value(ca, cb, ea, effect_b, pool_a, pool_b, round_limit)
                        value = pa * pb * v if value is None else value + pa * pb * v
                        if cb == EXIT:  # no round: B is gone
                            continue
                        spec = game.round_spec(ca, cb, ea, effect_b)
                        a += pa * pb * spec.a
                        b += pa * pb * spec.b
                        s += pa * pb * spec.stalemate
                assert value is not None
                if best is None or value[0] + value[3] > best[0][0] + best[0][3]:
                    best = (value, spread_a, RoundOdds(a, b, s))
            assert best is not None
            value, spread_a, first_round = best
            a_wins, b_wins, b_exits = float(value[0]), float(value[1]), float(value[3])
            first = max(spread_a, key=lambda cp: cp[1])[0]
            out[name] = ChainOdds(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins - b_exits), float(value[2]),
                                  first_round, first, b_exits)
        return out


def best_of(odds: Mapping[str, ConflictOdds]) -> str:
    """The Lens with the highest chance to win, or to see B leave; of those that tie (within 1e-12), the one least
    likely to lose (where nothing can win, "0 % to win, 88 % undecided" is better than "0 %, 78 %"), then the
    earlier one."""
    keys = list(odds)
    best = keys[0]
    for k in keys:
        o, b = odds[k], odds[best]
        if o.a_gains > b.a_gains + 1e-12 or (o.a_gains > b.a_gains - 1e-12 and o.b_wins < b.b_wins - 1e-12):
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
