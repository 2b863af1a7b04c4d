"""What each Lens is worth right now: exact win chances for a mind to weigh.

``solo odds`` answers "who wins from these Pools?" for the starting Pools
only. A mind needs the answer for *every* pair of Pools it may reach, so it
keeps the whole table the odds engine's solver (:func:`~solo.rules.odds.solve`)
computes when it plays its best. A test checks that the table equals
``conflict_odds`` state by state, so the minds and ``solo odds`` can never
disagree.

On top of the table, :class:`Evaluator` looks one round ahead for each of
the seven Lenses: this round's exact chances with this round's targets
(Lens, carried −20 or Clever's +20, the opponent's declared Lens), then the
value of wherever the round leaves the Pools, with what the Lens carries
into the next round. That is how Clever, Covert and Flamboyant — whose
effects last into the next round — get a number comparable with Aggressive
and Cautious. Everything is cached per match-up, so a thousand conflicts
pay for the tables once.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from ..rules.lenses import LENS_TABLE, MEMORYLESS, NEXT_ROUND, blow_effect, round_effects
from ..rules.odds import BEST, Kernel, Policy, Table, look_ahead, look_ahead_grid, round_kernel, solve

BASIC = MEMORYLESS  # the Lenses a table policy picks among (the name the minds and their tests use)


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

    def kernel(self, lens_me: str = "none", lens_op: str = "none", *, target_me: int | None = None, mod_op: int = 0,
               armour_op: int | None = None) -> Kernel:
        """A round with these Lenses; my target (before the Lens) and the armour my blows meet may be other ones."""
        return round_kernel(self.t_me if target_me is None else target_me, self.t_op + mod_op, lens_me, lens_op,
                            self.dice_me, self.dice_op, self.bonus_me, self.bonus_op, self.armour_me,
                            self.armour_op if armour_op is None else armour_op)


def win_table(m: Matchup, policy: Policy = BEST) -> Table:
    """``table[a][b]``: my chance to win from Pools (a, b), the opponent rolling plain.

    ``policy`` is a Lens, a callable ``(my pool, their pool) -> Lens``, or
    ``"best"``: in every state the best of the memoryless Lenses, which is
    optimal play against a plain opponent. A state where no blow can ever
    land is worth 0, as in ``conflict_odds``.
    """
    return solve(m.kernel, m.size_me, m.size_op, policy, only_win=True).win


@lru_cache(maxsize=512)
def evaluator(m: Matchup) -> Evaluator:
    """One evaluator per match-up for the whole process: duels replay the same Pools a lot."""
    return Evaluator(m)


class Evaluator:
    """One-round look-ahead values for every Lens, on top of the best-play table."""

    def __init__(self, m: Matchup):
        self.m = m
        self.table = win_table(m, BEST)
        self._next: dict[tuple[int, int], Table] = {(0, 0): self.table}
        self._lens: dict[tuple, dict[str, float]] = {}
        self._kernels: dict[tuple, list[tuple[str, Kernel, tuple[int, int], tuple[int, int]]]] = {}
        self._hopeless: dict[tuple, frozenset[str]] = {}
        self._grids: dict[tuple, dict] = {}  # lens_value_grid, by its arguments
        self._next_grids: dict[tuple[int, int], object] = {}

    def value(self, a: int, b: int) -> float:
        """Best-play win chance from Pool indexes (a, b); a side at 0 or below is out."""
        if b <= 0:
            return 1.0
        if a <= 0:
            return 0.0
        m = self.m
        return self.table[a if a <= m.size_me else m.size_me][b if b <= m.size_op else m.size_op]

    def _next_round(self, mod_me: int, mod_op: int) -> Table:
        """The value of every pair of Pools when next round starts with these modifiers.

        That round is played plain, then the best-play table takes over.
        """
        table = self._next.get((mod_me, mod_op))
        if table is None and "numpy" in sys.modules:  # the same numbers (look_ahead_grid), at array speed
            table = self._next[mod_me, mod_op] = self._next_grid(mod_me, mod_op).tolist()
        if table is None:
            m, then = self.m, self.table
            k = m.kernel(target_me=m.t_me + mod_me, mod_op=mod_op)
            table = [[0.0] * (m.size_op + 1)] + [
                [0.0] + [look_ahead(k, a, b, then, then, then) for b in range(1, m.size_op + 1)]
                for a in range(1, m.size_me + 1)]
            self._next[mod_me, mod_op] = table
        return table

    def lens_values(self, a: int, b: int, *, carry_me: int = 0, carry_op: int = 0, opp_lens: str = "none",
                    covert: int | None = None, flamboyant: int | None = None,
                    side_pool: bool = False) -> dict[str, float]:
        """My chance to win if I use each Lens this round and play well afterwards.

        ``covert`` and ``flamboyant`` are my targets for those Lenses (Cunning,
        the best other skill; shields included), None when they are not
        offered. ``side_pool``: a Covert or Flamboyant blow may go to a Pool
        that armour does not cover. ``opp_lens`` is what the opponent declared
        this round, or my best guess (its last Lens). What a Lens leaves for
        the next round (an edge, a penalty) comes from the Lens table.
        """
        key = (a, b, carry_me, carry_op, opp_lens, covert, flamboyant, side_pool)
        cached = self._lens.get(key)
        if cached is not None:
            return cached
        if a <= 0 or b <= 0:  # a side is already out: no Lens changes that
            out = dict.fromkeys(self._offered(covert, flamboyant), self.value(a, b))
        else:
            rounds = self._rounds(carry_me, carry_op, opp_lens, covert, flamboyant, side_pool)
            nxt = self._next_round
            out = {name: look_ahead(k, a, b, nxt(*won), nxt(*other), nxt(*other)) for name, k, won, other in rounds}
        self._lens[key] = out
        return out

    def round_wins(self, *, carry_me: int = 0, carry_op: int = 0, opp_lens: str = "none", covert: int | None = None,
                   flamboyant: int | None = None, side_pool: bool = False) -> dict[str, float]:
        """My chance to win this round with each Lens (the same rounds :meth:`lens_values` looks ahead from)."""
        return {name: k.round.a for name, k, _, _ in self._rounds(carry_me, carry_op, opp_lens, covert, flamboyant,
                                                                   side_pool)}

    def hopeless(self, lenses: tuple[str, ...], *, carry_me: int = 0, carry_op: int = 0, opp_lens: str = "none",
                 covert: int | None = None, flamboyant: int | None = None, side_pool: bool = False) -> frozenset[str]:
        """Those of ``lenses`` that cannot win this round while another of them can (none where none can): the
        mind's ``futile`` consideration, kept per round's modifiers (asked at every NPC declaration)."""
        key = (lenses, carry_me, carry_op, opp_lens, covert, flamboyant, side_pool)
        got = self._hopeless.get(key)
        if got is None:
            wins = self.round_wins(carry_me=carry_me, carry_op=carry_op, opp_lens=opp_lens, covert=covert,
                                   flamboyant=flamboyant, side_pool=side_pool)
            got = frozenset(k for k in lenses if wins.get(k, 1.0) <= 0.0)
            if not any(wins.get(k, 0.0) > 0.0 for k in lenses if k not in got):
                got = frozenset()  # every Lens is hopeless this round: none is worse for it
            self._hopeless[key] = got
        return got

    def lens_value_grid(self, *, carry_me: int = 0, carry_op: int = 0, opp_lens: str = "none",
                        covert: int | None = None, flamboyant: int | None = None, side_pool: bool = False) -> dict:
        """:meth:`lens_values` at every pair of Pools at once: {Lens: array indexed [a][b]} (row and column 0
        unused), each value with the bits :meth:`lens_values` gives (the same rounds, :func:`look_ahead_grid`).

        For a policy worked out over all the Pools of a walk (an NPC mind's, in
        the Lens chain); numpy is imported here.
        """
        key = (carry_me, carry_op, opp_lens, covert, flamboyant, side_pool)
        got = self._grids.get(key)
        if got is None:
            nxt = self._next_grid
            got = self._grids[key] = {name: look_ahead_grid(k, nxt(*won), nxt(*other), nxt(*other))
                                      for name, k, won, other in self._rounds(*key)}
        return got

    def _next_grid(self, mod_me: int, mod_op: int):
        """:meth:`_next_round` as an array, the same values (:func:`look_ahead_grid` over the best-play table)."""
        got = self._next_grids.get((mod_me, mod_op))
        if got is None:
            import numpy as np

            then = self._next_grids.get((0, 0))
            if then is None:
                then = self._next_grids[0, 0] = np.array(self.table, dtype=float)
            if (mod_me, mod_op) == (0, 0):
                return then
            m = self.m
            k = m.kernel(target_me=m.t_me + mod_me, mod_op=mod_op)
            got = self._next_grids[mod_me, mod_op] = look_ahead_grid(k, then, then, then)
        return got

    def _offered(self, covert: int | None, flamboyant: int | None) -> dict[str, int]:
        """Each Lens offered, with the skill it rolls (before the carried effects)."""
        rolls = {None: self.m.t_me, "Cunning": covert, "secondary": flamboyant}
        return {k: t for k, lens in LENS_TABLE.items() if (t := rolls[lens.rolls]) is not None}

    def _rounds(self, carry_me: int, carry_op: int, opp_lens: str, covert: int | None, flamboyant: int | None,
                side_pool: bool) -> list[tuple[str, Kernel, tuple[int, int], tuple[int, int]]]:
        """Each Lens offered with its round and the next rounds' modifiers after it (won; not won), whose tables
        (:meth:`_next_round`) value where it leaves the Pools: the same at every pair of Pools."""
        key = (carry_me, carry_op, opp_lens, covert, flamboyant, side_pool)
        rounds = self._kernels.get(key)
        if rounds is None:
            m = self.m
            offered = self._offered(covert, flamboyant)
            # what the round leaves (round_effects): an edge due counts as +NEXT_ROUND; their own Lens's penalty
            # is not looked ahead for (only their follow-up, win or lose)
            op_next = NEXT_ROUND if round_effects(opp_lens, won=False).follow_up else 0
            rounds = []
            for name, target in offered.items():
                lens = LENS_TABLE[name]
                armour = 0 if side_pool and lens.side_pool else None
                k = m.kernel(name, opp_lens, target_me=target + carry_me, mod_op=carry_op, armour_op=armour)
                if_won, if_not = round_effects(name, won=True), round_effects(name, won=False)
                won = (if_won.carry + NEXT_ROUND * if_won.follow_up, op_next + blow_effect(name))
                other = (if_not.carry + NEXT_ROUND * if_not.follow_up, op_next)
                rounds.append((name, k, won, other))
            self._kernels[key] = rounds
        return rounds


def best_basic(values: dict[str, float], allowed: Collection[str]) -> str:
    """The best of the memoryless Lenses among ``allowed`` (ties: the plainest)."""
    best, lens = -1.0, "none"
    for option in BASIC:
        if option in allowed and values.get(option, -1.0) > best + 1e-12:
            best, lens = values[option], option
    return lens
