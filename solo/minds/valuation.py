"""What each Lens is worth right now: exact win chances for a mind to weigh.

The odds engine (:mod:`solo.rules.odds`) answers "who wins from these
Pools?" for the starting Pools only. A mind needs the answer for *every*
pair of Pools it may reach, so this module runs the same Markov chain once
over the whole grid, with the odds engine's own kernels
(:func:`~solo.rules.odds.round_odds`, :func:`~solo.rules.odds.damage_distribution`),
and keeps the table. A test checks that the table equals ``conflict_odds``
state by state, so the minds and ``solo odds`` can never disagree.

On top of the table, :class:`Evaluator` looks one round ahead for each of
the seven Lenses: this round's exact chances with this round's targets
(Lens, carried −20 or Clever's +20, the opponent's declared Lens), then the
table's value of wherever the round leaves the Pools. That is how Clever,
Covert and Flamboyant — whose effects last into the next round — get a
number comparable with Aggressive and Cautious. Everything is cached per
match-up, so a thousand conflicts pay for the tables once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Union

from ..rules.odds import ODDS_LENSES, damage_distribution, round_odds

BASIC = ODDS_LENSES  # none, aggressive, cautious: the Lenses the Markov chain handles as a policy
SKILL_SHIFT = {"none": 0, "aggressive": -20, "cautious": 20, "quick": -20, "clever": 0, "covert": 0,
               "flamboyant": 0}
NEXT_ROUND = 20  # Clever's bonus, Covert's and Flamboyant's penalty (RULES.md §6)

Policy = Union[str, Callable[[int, int], str]]


@dataclass(frozen=True)
class Matchup:
    """Everything about two fighters that does not change from round to round.

    Targets are base targets (skill, Focus, hurt, shields) before Lens and
    carried effects. ``armour_*`` is what that side's armour takes off the
    *other* side's blows. Sizes are the largest Pool index the table covers.
    """

    t_me: int
    t_op: int
    dice_me: str = "1d6"
    dice_op: str = "1d6"
    bonus_me: int = 0
    bonus_op: int = 0
    armour_me: int = 0
    armour_op: int = 0
    size_me: int = 10
    size_op: int = 10


def _damage(dice: str, lens: str, bonus: int, armour: int) -> tuple[tuple[int, float], ...]:
    """Positive damage only: zero-damage results change nothing, like a stalemate."""
    return tuple((v, p) for v, p in damage_distribution(dice, lens, bonus, armour) if v > 0)


def win_table(m: Matchup, policy: Policy = "best") -> list[list[float]]:
    """``table[a][b]``: my chance to win from Pools (a, b), the opponent rolling plain.

    ``policy`` is a Lens, a callable ``(my pool, their pool) -> Lens``, or
    ``"best"``: in every state the best of none/aggressive/cautious, which is
    optimal play against a plain opponent (each state only leads to smaller
    ones, so the best stationary choice per state is the optimum). A state
    where no blow can ever land is worth 0, as in ``conflict_odds``.
    """
    A, B = m.size_me, m.size_op
    kernels = {}
    for lens in BASIC:
        r = round_odds(m.t_me + SKILL_SHIFT[lens], m.t_op)
        da = _damage(m.dice_me, lens, m.bonus_me, m.armour_op)
        db = _damage(m.dice_op, "none", m.bonus_op, m.armour_me)
        moving = r.a * sum(p for _, p in da) + r.b * sum(p for _, p in db)
        kernels[lens] = (r.a, r.b, da, db, moving)
    lenses = BASIC if policy == "best" else None
    table = [[0.0] * (B + 1) for _ in range(A + 1)]
    for a in range(1, A + 1):
        table[a][0] = 1.0
    for a in range(1, A + 1):
        row = table[a]
        for b in range(1, B + 1):
            if lenses is None:
                chosen = (policy(a, b) if callable(policy) else policy,)
                if chosen[0] not in kernels:
                    raise ValueError(f"a table policy picks among {', '.join(BASIC)}, not {chosen[0]!r}")
            else:
                chosen = lenses
            best = 0.0
            for lens in chosen:
                ra, rb, da, db, moving = kernels[lens]
                if moving <= 0.0:
                    continue
                w = 0.0
                for v, p in da:
                    w += ra * p * (row[b - v] if b > v else 1.0)
                for v, p in db:
                    if a > v:
                        w += rb * p * table[a - v][b]
                w /= moving
                if w > best:
                    best = w
            row[b] = best
    return table


@lru_cache(maxsize=512)
def evaluator(m: Matchup) -> Evaluator:
    """One evaluator per match-up for the whole process: duels replay the same Pools a lot."""
    return Evaluator(m)


class Evaluator:
    """One-round look-ahead values for every Lens, on top of the best-play table."""

    def __init__(self, m: Matchup):
        self.m = m
        self.table = win_table(m, "best")
        self._mod: dict[tuple, float] = {}
        self._lens: dict[tuple, dict[str, float]] = {}

    def value(self, a: int, b: int) -> float:
        """Best-play win chance from Pool indexes (a, b); a side at 0 or below is out."""
        if b <= 0:
            return 1.0
        if a <= 0:
            return 0.0
        m = self.m
        return self.table[a if a <= m.size_me else m.size_me][b if b <= m.size_op else m.size_op]

    def _after(self, a: int, b: int, mod_me: int, mod_op: int) -> float:
        """The value of (a, b) when next round starts with these modifiers (one plain round, then the table)."""
        if mod_me == 0 and mod_op == 0:
            return self.value(a, b)
        if b <= 0:
            return 1.0
        if a <= 0:
            return 0.0
        key = (a, b, mod_me, mod_op)
        cached = self._mod.get(key)
        if cached is None:
            m = self.m
            cached = self._round(a, b, m.t_me + mod_me, m.t_op + mod_op,
                                 _damage(m.dice_me, "none", m.bonus_me, m.armour_op),
                                 _damage(m.dice_op, "none", m.bonus_op, m.armour_me), (0, 0), (0, 0), (0, 0))
            self._mod[key] = cached
        return cached

    def _round(self, a, b, t_me, t_op, da, db, on_win, on_loss, on_stall) -> float:
        """Expected value of one round: chances from the targets, damage from the dice, then what follows."""
        r = round_odds(t_me, t_op)
        total = 0.0
        hit = 0.0
        for v, p in da:
            hit += p
            total += r.a * p * self._after(a, b - v, *on_win)
        total += r.a * (1.0 - hit) * self._after(a, b, *on_win)  # a win that the armour swallows
        took = 0.0
        for v, p in db:
            took += p
            total += r.b * p * self._after(a - v, b, *on_loss)
        total += r.b * (1.0 - took) * self._after(a, b, *on_loss)
        total += r.stalemate * self._after(a, b, *on_stall)
        return total

    def lens_values(self, a: int, b: int, *, carry_me: int = 0, carry_op: int = 0, opp_lens: str = "none",
                    covert: int | None = None, flamboyant: int | None = None,
                    side_pool: bool = False) -> dict[str, float]:
        """My chance to win if I use each Lens this round and play well afterwards.

        ``covert`` and ``flamboyant`` are my targets for those Lenses (Cunning,
        the best other skill; shields included), None when they are not
        offered. ``side_pool``: a Covert or Flamboyant blow may go to a Pool
        that armour does not cover. ``opp_lens`` is what the opponent declared
        this round, or my best guess (its last Lens).
        """
        key = (a, b, carry_me, carry_op, opp_lens, covert, flamboyant, side_pool)
        cached = self._lens.get(key)
        if cached is not None:
            return cached
        m = self.m
        t_op = m.t_op + carry_op + SKILL_SHIFT.get(opp_lens, 0)
        op_damage = "none" if opp_lens not in BASIC else opp_lens
        db = () if opp_lens == "clever" else _damage(m.dice_op, op_damage, m.bonus_op, m.armour_me)
        op_next = NEXT_ROUND if opp_lens == "clever" else 0  # their follow-up, win or lose
        plain = _damage(m.dice_me, "none", m.bonus_me, m.armour_op)
        t = m.t_me + carry_me
        stay = (0, op_next)
        out = {
            "none": self._round(a, b, t, t_op, plain, db, stay, stay, stay),
            "aggressive": self._round(a, b, t - 20, t_op, _damage(m.dice_me, "aggressive", m.bonus_me, m.armour_op),
                                      db, stay, stay, stay),
            "cautious": self._round(a, b, t + 20, t_op, _damage(m.dice_me, "cautious", m.bonus_me, m.armour_op),
                                    db, stay, stay, stay),
            "quick": self._round(a, b, t - 20, t_op, plain, db, stay, stay, stay),
            "clever": self._round(a, b, t, t_op, (), db, (NEXT_ROUND, op_next), (NEXT_ROUND, op_next),
                                  (NEXT_ROUND, op_next)),
        }
        side = _damage(m.dice_me, "none", m.bonus_me, 0) if side_pool else plain
        for lens, target in (("covert", covert), ("flamboyant", flamboyant)):
            if target is not None:
                missed = (-NEXT_ROUND, op_next)
                out[lens] = self._round(a, b, target + carry_me, t_op, side, db, (0, op_next - NEXT_ROUND),
                                        missed, missed)
        self._lens[key] = out
        return out


def best_basic(values: dict[str, float], allowed) -> str:
    """The best of none/aggressive/cautious among ``allowed`` (ties: the plainest)."""
    best, lens = -1.0, "none"
    for option in BASIC:
        if option in allowed and values.get(option, -1.0) > best + 1e-12:
            best, lens = values[option], option
    return lens
