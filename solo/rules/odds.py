"""Exact odds of a one-against-one Extended Conflict, by Markov chain over the Pools.

A round is decided by two independent d100 rolls, so its three results (A
wins, B wins, stalemate) have exact probabilities; the winner's damage has an
exact distribution. Together they are the round's *kernel*. From it, the
chance of winning from every pair of Pools follows by dynamic programming
over states with smaller Pools — no sampling. Lens policies may depend on
the state (an NPC mind that turns Cautious when hurt), as long as they need
no memory of earlier rounds; a side may also play its best in every state.

Everything that prices a conflict — ``solo odds``, the Lens advice shown to
players, the NPC minds' valuation — goes through :func:`round_kernel` and
:func:`solve`, so they can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial

from .dice import DiceExpr, keep_higher_distribution, parse
from .lenses import MEMORYLESS, Damage, lens

#: A Lens, "best" (in every state the best of the memoryless Lenses for that side), or (own pool, other pool) -> Lens
Policy = str | Callable[[int, int], str]
BEST = "best"
Table = list[list[float]]  # table[a][b]: a value for Pools (a, b)
MAX_POOL = 200
MAX_DICE = 20


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

    @property
    def a_gains(self) -> float:
        """A's chance to come out on top (a win; the Lens chain's odds add B gone)."""
        return self.a_wins

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
    # A wins with face x (x <= sa) if B failed or B succeeded lower than x: the sum over x of
    # (100 - sb) + min(x - 1, sb), counted in whole numbers (so exactly), then divided once
    a = _faces_won(sa, sb) / 10000
    b = _faces_won(sb, sa) / 10000
    return RoundOdds(a, b, 1.0 - a - b)


def _faces_won(mine: int, theirs: int) -> int:
    """How many of the 100 × 100 pairs of faces a side with ``mine`` succeeding faces wins against ``theirs``."""
    below = mine - 1  # min(j, theirs) summed for j = 0 … mine − 1
    ties = below * mine // 2 if below <= theirs else theirs * (theirs + 1) // 2 + (below - theirs) * theirs
    return mine * (100 - theirs) + ties


@lru_cache(maxsize=1024)
def damage_distribution(dice: str, lens_key: str, bonus: int = 0, armour: int = 0) -> tuple[tuple[int, float], ...]:
    """Exact damage dealt by a winner with this Lens: its damage mode, then bonus, armour and halving."""
    mode = lens(lens_key).damage
    dist = parse(dice).distribution()
    if mode is Damage.TWICE_KEEP_HIGHER:
        dist = keep_higher_distribution(dist)
    out: dict[int, float] = {}
    for value, p in dist.items():
        amount = 0 if mode is Damage.NONE else max(0, value + bonus - armour)
        if mode is Damage.HALVED:
            amount = (amount + 1) // 2
        out[amount] = out.get(amount, 0.0) + p
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class Kernel:
    """One round between two sides whose targets, Lenses and damage are fixed.

    A blow that does no damage changes nothing, like a stalemate, so only
    the blows that land are listed, each as (damage, chance that the round
    is won and the blow lands for that much).
    """

    round: RoundOdds
    blows_a: tuple[tuple[int, float], ...]
    blows_b: tuple[tuple[int, float], ...]
    land_a: float  # the chance that A's winning blow lands at all
    land_b: float
    moving: float  # the chance that the round changes a Pool


@lru_cache(maxsize=4096)
def round_kernel(target_a: int, target_b: int, lens_a: str = "none", lens_b: str = "none", dice_a: str = "1d6",
                 dice_b: str = "1d6", bonus_a: int = 0, bonus_b: int = 0, armour_a: int = 0,
                 armour_b: int = 0) -> Kernel:
    """The kernel of a round: targets before the Lenses' skill shift; ``armour_a`` stops B's blows and so on."""
    r = round_odds(target_a + lens(lens_a).skill_shift, target_b + lens(lens_b).skill_shift)
    hits_a = [(v, p) for v, p in damage_distribution(dice_a, lens_a, bonus_a, armour_b) if v > 0]
    hits_b = [(v, p) for v, p in damage_distribution(dice_b, lens_b, bonus_b, armour_a) if v > 0]
    # summed from the blows that land (1 - P(zero) leaves float dust where nothing can land)
    land_a, land_b = sum(p for _, p in hits_a), sum(p for _, p in hits_b)
    return Kernel(r, tuple((v, r.a * p) for v, p in hits_a), tuple((v, r.b * p) for v, p in hits_b), land_a, land_b,
                  r.a * land_a + r.b * land_b)


def _landed(k: Kernel, a: int, b: int, after_a: Table, after_b: Table, won: float, lost: float,
            between: float = 0.0) -> float:
    """The round step: over the blows that land from Pools (a, b), chance × value of where they leave them.

    ``after_a`` gives the values after A's blows, ``won`` the value when B
    is out, and so on; ``between`` is added after A's blows (it keeps the
    order of a sum that its callers' numbers depend on).
    """
    total = 0.0
    row = after_a[a]
    for v, q in k.blows_a:
        total += q * (row[b - v] if b > v else won)
    total += between
    for v, q in k.blows_b:
        total += q * (after_b[a - v][b] if a > v else lost)
    return total


def look_ahead(k: Kernel, a: int, b: int, after_win: Table, after_loss: Table, after_stall: Table) -> float:
    """A's chance to win from Pools (a, b) when the round to come is ``k`` and what follows depends on who wins it.

    The tables give A's chance from each pair of Pools after a won, a lost
    and a stalled round: how a mind prices a Lens whose effect lasts into
    the next round. Blows that do no damage count as won or lost rounds.
    """
    r = k.round
    total = _landed(k, a, b, after_win, after_loss, 1.0, 0.0, r.a * (1.0 - k.land_a) * after_win[a][b])
    return total + r.b * (1.0 - k.land_b) * after_loss[a][b] + r.stalemate * after_stall[a][b]


def look_ahead_grid(k: Kernel, after_win, after_loss, after_stall):
    """:func:`look_ahead` at every pair of Pools at once (numpy arrays indexed [a][b], row and column 0 unused).

    The same products added in the same order as :func:`look_ahead` adds them
    for one pair, each an elementwise operation, so every value has the same
    bits as the one :func:`look_ahead` gives (a test holds the two equal).
    Returns an array of the tables' shape, row and column 0 left at 0.
    """
    import numpy as np

    r = k.round
    size_a, size_b = after_win.shape[0] - 1, after_win.shape[1] - 1
    won, lost = after_win[1:, 1:], after_loss[1:, 1:]
    total = np.zeros((size_a, size_b))
    for v, q in k.blows_a:  # b - v, or B is out (worth 1)
        moved = np.ones((size_a, size_b))
        if v < size_b:
            moved[:, v:] = after_win[1:, 1:size_b - v + 1]
        total += q * moved
    total += r.a * (1.0 - k.land_a) * won
    for v, q in k.blows_b:  # a - v, or A is out (worth 0)
        moved = np.zeros((size_a, size_b))
        if v < size_a:
            moved[v:, :] = after_loss[1:size_a - v + 1, 1:]
        total += q * moved
    out = np.zeros(after_win.shape)
    out[1:, 1:] = total + r.b * (1.0 - k.land_b) * lost + r.stalemate * after_stall[1:, 1:]
    return out


def _value(k: Kernel, a: int, b: int, table: Table, ends: tuple[float, float, float], limited: bool) -> float:
    """One state's value from the round ``k``: ``ends`` is (value when B is out, when A is out, per round).

    Open-ended, a round that changes nothing is played again, so the value is
    divided by the chance that it moves; with a limit, it stays for the next
    pass (``table`` then holds the values with one round fewer to go).
    """
    won, lost, per_round = ends
    landed = _landed(k, a, b, table, table, won, lost)
    if limited:
        return landed + (per_round + (1.0 - k.moving) * table[a][b])
    return (per_round + landed) / k.moving


# What a table holds, as (its value when B is out, when A is out, what each round adds).
_WIN, _LOSE, _ROUNDS = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Chain:
    """The solved chain: A's chance to win and to lose and the rounds still to come, from every pair of Pools."""

    win: Table
    lose: Table | None  # None when only ``win`` was asked for
    rounds: Table | None
    start: Kernel  # the round played from the largest Pools (in the first round, with a limit)


def _choices(policy: Policy, own: int, other: int) -> tuple[str, ...]:
    """The Lenses a side may play in this state: one, or all the memoryless ones when it plays its best."""
    if policy == BEST:
        return MEMORYLESS
    choice = policy(own, other) if callable(policy) else policy
    if choice not in MEMORYLESS:
        raise ValueError(f"the exact odds handle the Lenses {', '.join(MEMORYLESS)}, not {choice!r}")
    return (choice,)


def solve(kernel: Callable[[str, str], Kernel], size_a: int, size_b: int, lens_a: Policy = "none",
          lens_b: Policy = "none", *, limit: int | None = None, only_win: bool = False) -> Chain:
    """Solve the chain over every pair of Pools up to (size_a, size_b).

    ``kernel(lens_a, lens_b)`` gives the round for a pair of Lenses. A side
    playing ``"best"`` takes, in each state, the Lens that gives it the
    best chance to win against the other side's Lens or policy: each state
    only leads to smaller ones, so the best choice per state is the best
    play. A state where no blow can ever land is worth 0. With a ``limit``
    the chain is walked that many rounds and what is left is a stalemate.
    """
    if lens_a == BEST and lens_b == BEST:
        raise ValueError("only one side can play its best against a known policy")
    if limit is not None and limit < 1:
        raise ValueError("round_limit must be at least 1")
    kernels: dict[tuple[str, str], Kernel] = {}

    def options(a: int, b: int) -> list[Kernel]:
        out = []
        for la in _choices(lens_a, a, b):
            for lb in _choices(lens_b, b, a):
                k = kernels.get((la, lb))
                if k is None:
                    k = kernels[la, lb] = kernel(la, lb)
                out.append(k)
        return out

    wanted = [_WIN] if only_win else [_WIN, _LOSE, _ROUNDS]
    if lens_b == BEST and _LOSE not in wanted:
        wanted.append(_LOSE)
    judge = wanted.index(_LOSE if lens_b == BEST else _WIN)  # the table a chooser maximises: its own chance
    fixed = None if callable(lens_a) or callable(lens_b) else options(0, 0)  # the same Lenses in every state
    start = (fixed or options(size_a, size_b))[0]
    others = [i for i in range(len(wanted)) if i != judge]
    if limit is None:
        # one pass, in place; where a side is out, the tables hold what they are worth there
        solved = [[[if_lost if a == 0 < b else if_won if b == 0 < a else 0.0 for b in range(size_b + 1)]
                   for a in range(size_a + 1)] for if_won, if_lost, _ in wanted]
    else:
        solved = [[[0.0] * (size_b + 1) for _ in range(size_a + 1)] for _ in wanted]
    grid = [[fixed or options(a, b) if a and b else [] for b in range(size_b + 1)] for a in range(size_a + 1)]
    for _ in range(limit or 1):  # with a limit, each pass adds a round before the ones already counted
        new = solved if limit is None else [[[0.0] * (size_b + 1) for _ in range(size_a + 1)] for _ in wanted]
        ranked = solved[judge]
        for a in range(1, size_a + 1):
            for b in range(1, size_b + 1):  # smaller Pools first: every state read below is already known
                chosen, best = None, 0.0
                for k in grid[a][b]:
                    if limit is None and k.moving <= 0.0:
                        continue  # nothing can ever change: the conflict never ends from here
                    value = _value(k, a, b, ranked, wanted[judge], limit is not None)
                    if chosen is None or value > best:
                        chosen, best = k, value
                if chosen is None:
                    continue
                new[judge][a][b] = best
                for i in others:
                    new[i][a][b] = _value(chosen, a, b, solved[i], wanted[i], limit is not None)
                if a == size_a and b == size_b:
                    start = chosen
        solved = new
    return Chain(solved[0], None if only_win else solved[1], None if only_win else solved[2], start)


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
    kernel = partial(round_kernel, skill_a, skill_b, dice_a=dice_a, dice_b=dice_b, bonus_a=bonus_a,
                     bonus_b=bonus_b, armour_a=armour_a, armour_b=armour_b)
    chain = solve(kernel, pool_a, pool_b, lens_a, lens_b, limit=round_limit)
    assert chain.lose is not None and chain.rounds is not None
    a_wins, b_wins = chain.win[pool_a][pool_b], chain.lose[pool_a][pool_b]
    return ConflictOdds(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), chain.rounds[pool_a][pool_b],
                        chain.start.round)
