"""Exact odds of a one-against-one Extended Conflict, by Markov chain over the Pools.

A round is decided by two independent d100 rolls, so its three results (A
wins, B wins, stalemate) have exact probabilities; the winner's damage has an
exact distribution. From those, the chance of winning from every pair of
Pools follows by dynamic programming over states with smaller Pools — no
sampling. Lens policies may depend on the state (an NPC mind that turns
Cautious when hurt), as long as they need no memory of earlier rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Union

from .dice import DiceExpr, keep_higher_distribution, parse

Policy = Union[str, Callable[[int, int], str]]  # a Lens, or (own pool, other pool) -> Lens
ODDS_LENSES = ("none", "aggressive", "cautious")
MAX_POOL = 200
MAX_DICE = 20
_SKILL = {"none": 0, "aggressive": -20, "cautious": 20}


@dataclass(frozen=True)
class RoundOdds:
    a: float
    b: float
    stalemate: float


@dataclass(frozen=True)
class ConflictOdds:
    a_wins: float
    b_wins: float
    never_ends: float  # both sides' damage can be fully absorbed: the conflict cannot end
    expected_rounds: float
    round: RoundOdds  # the first round's chances

    def to_dict(self) -> dict:
        return {
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "never_ends": self.never_ends,
            "expected_rounds": self.expected_rounds,
            "round": {"a": self.round.a, "b": self.round.b, "stalemate": self.round.stalemate},
        }


def _success_faces(target: int) -> int:
    """How many faces of 1..99 succeed (100 always fails)."""
    return max(0, min(target, 99))


@lru_cache(maxsize=4096)
def round_odds(target_a: int, target_b: int) -> RoundOdds:
    """Exact chances of one round: the highest success wins, equal successes and double failure stall."""
    sa, sb = _success_faces(target_a), _success_faces(target_b)
    # A wins with face x (x <= sa) if B failed or B succeeded lower than x.
    a = sum((100 - sb) + min(x - 1, sb) for x in range(1, sa + 1)) / 10000
    b = sum((100 - sa) + min(y - 1, sa) for y in range(1, sb + 1)) / 10000
    return RoundOdds(a, b, 1.0 - a - b)


@lru_cache(maxsize=1024)
def damage_distribution(dice: str, lens: str, bonus: int = 0, armour: int = 0) -> tuple[tuple[int, float], ...]:
    """Exact damage dealt by a winner: dice (twice keep higher for Aggressive), bonus, armour, halving."""
    dist = parse(dice).distribution()
    if lens == "aggressive":
        dist = keep_higher_distribution(dist)
    out: dict[int, float] = {}
    for value, p in dist.items():
        amount = max(0, value + bonus - armour)
        if lens == "cautious":
            amount = (amount + 1) // 2
        out[amount] = out.get(amount, 0.0) + p
    return tuple(sorted(out.items()))


def _lens(policy: Policy, own: int, other: int) -> str:
    lens = policy(own, other) if callable(policy) else policy
    if lens not in ODDS_LENSES:
        raise ValueError(f"the exact odds handle the Lenses {', '.join(ODDS_LENSES)}, not {lens!r}")
    return lens


def conflict_odds(
    skill_a: int,
    pool_a: int,
    skill_b: int,
    pool_b: int,
    *,
    damage_a: str | DiceExpr = "1d6",
    damage_b: str | DiceExpr = "1d6",
    bonus_a: int = 0,
    bonus_b: int = 0,
    armour_a: int = 0,
    armour_b: int = 0,
    lens_a: Policy = "none",
    lens_b: Policy = "none",
    round_limit: int | None = None,
) -> ConflictOdds:
    """The exact chance that A wins, B wins, and the expected rounds, from the given Pools.

    A side is out when its Pool reaches zero (no pushing, no Luck). Armour is
    subtracted as given, so pass it only for combat on BODY. With a
    ``round_limit`` the conflict that is still going after that many rounds is
    a stalemate (reported in ``never_ends``).
    """
    if pool_a < 1 or pool_b < 1:
        raise ValueError("Pools must be at least 1")
    if pool_a > MAX_POOL or pool_b > MAX_POOL:
        raise ValueError(f"the exact odds handle Pools up to {MAX_POOL}")
    dice_a, dice_b = str(damage_a), str(damage_b)
    for dice in (dice_a, dice_b):  # raise early on malformed or absurd dice
        expr = parse(dice)
        if sum(t.count for t in expr.terms if t.sides) > MAX_DICE or any(t.sides > 1000 for t in expr.terms):
            raise ValueError(f"the exact odds handle at most {MAX_DICE} dice of up to 1000 sides, not {dice}")
    fixed = not callable(lens_a) and not callable(lens_b)
    cache: dict[tuple[str, str], tuple] = {}

    def kernel(la: str, lb: str):
        key = (la, lb)
        if key not in cache:
            r = round_odds(skill_a + _SKILL[la], skill_b + _SKILL[lb])
            da = damage_distribution(dice_a, la, bonus_a, armour_b)  # A's blows land on B's armour
            db = damage_distribution(dice_b, lb, bonus_b, armour_a)
            hits_a = [(v, p) for v, p in da if v > 0]
            hits_b = [(v, p) for v, p in db if v > 0]
            # summed from the blows that land (1 - P(zero) leaves float dust where nothing can land)
            moving = r.a * sum(p for _, p in hits_a) + r.b * sum(p for _, p in hits_b)
            cache[key] = (r, hits_a, hits_b, moving)
        return cache[key]

    # win[a][b]: chance A wins from Pools (a, b); rounds[a][b]: expected rounds from there.
    win = [[0.0] * (pool_b + 1) for _ in range(pool_a + 1)]
    lose = [[0.0] * (pool_b + 1) for _ in range(pool_a + 1)]
    rounds = [[0.0] * (pool_b + 1) for _ in range(pool_a + 1)]
    for a in range(pool_a + 1):
        win[a][0] = 1.0 if a > 0 else 0.0
    for b in range(pool_b + 1):
        lose[0][b] = 1.0 if b > 0 else 0.0
    if fixed:
        k = kernel(_lens(lens_a, 0, 0), _lens(lens_b, 0, 0))
    if round_limit is not None:
        if round_limit < 1:
            raise ValueError("round_limit must be at least 1")
        return _limited(pool_a, pool_b, round_limit, kernel, lens_a, lens_b)
    for a in range(1, pool_a + 1):
        row_w, row_l, row_r = win[a], lose[a], rounds[a]
        for b in range(1, pool_b + 1):  # smaller Pools first: every state read below is already known
            if not fixed:
                k = kernel(_lens(lens_a, a, b), _lens(lens_b, b, a))
            moving = k[3]
            if moving <= 0.0:
                continue  # nothing can ever change: the conflict never ends from here
            w, l_, e = _after_blows(k, a, b, win, lose, rounds)
            row_w[b] = w / moving
            row_l[b] = l_ / moving
            row_r[b] = (1.0 + e) / moving
    first = kernel(_lens(lens_a, pool_a, pool_b), _lens(lens_b, pool_b, pool_a))[0]
    a_wins, b_wins = win[pool_a][pool_b], lose[pool_a][pool_b]
    return ConflictOdds(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), rounds[pool_a][pool_b], first)


def _after_blows(k, a: int, b: int, win, lose, rounds) -> tuple[float, float, float]:
    """One round's landed blows from Pools (a, b): the chance to win, to lose, and rounds still to come.

    ``win``/``lose``/``rounds`` give the values of the states a blow leads to:
    the same tables (the chain to its end) or last round's (a round limit).
    """
    r, da, db, _ = k
    w = l_ = e = 0.0
    for v, p in da:
        nb = b - v
        if nb <= 0:
            w += r.a * p
        else:
            w += r.a * p * win[a][nb]
            l_ += r.a * p * lose[a][nb]
            e += r.a * p * rounds[a][nb]
    for v, p in db:
        na = a - v
        if na <= 0:
            l_ += r.b * p
        else:
            w += r.b * p * win[na][b]
            l_ += r.b * p * lose[na][b]
            e += r.b * p * rounds[na][b]
    return w, l_, e


def _limited(pool_a: int, pool_b: int, limit: int, kernel, lens_a: Policy, lens_b: Policy) -> ConflictOdds:
    """Finite horizon: the same chain, walked ``limit`` rounds, what is left over is a stalemate."""
    kernels = [[None] * (pool_b + 1) for _ in range(pool_a + 1)]
    for a in range(1, pool_a + 1):
        for b in range(1, pool_b + 1):
            kernels[a][b] = kernel(_lens(lens_a, a, b), _lens(lens_b, b, a))
    zero = [[0.0] * (pool_b + 1) for _ in range(pool_a + 1)]
    win, lose, rounds = zero, [row[:] for row in zero], [row[:] for row in zero]
    for _ in range(limit):
        nw = [[0.0] * (pool_b + 1) for _ in range(pool_a + 1)]
        nl = [[0.0] * (pool_b + 1) for _ in range(pool_a + 1)]
        nr = [[0.0] * (pool_b + 1) for _ in range(pool_a + 1)]
        for a in range(1, pool_a + 1):
            for b in range(1, pool_b + 1):
                stay = 1.0 - kernels[a][b][3]
                w, l_, e = _after_blows(kernels[a][b], a, b, win, lose, rounds)
                w += stay * win[a][b]
                l_ += stay * lose[a][b]
                e += 1.0 + stay * rounds[a][b]
                nw[a][b], nl[a][b], nr[a][b] = w, l_, e
        win, lose, rounds = nw, nl, nr
    a_wins, b_wins = win[pool_a][pool_b], lose[pool_a][pool_b]
    first = kernels[pool_a][pool_b][0]
    return ConflictOdds(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), rounds[pool_a][pool_b], first)
