"""The Lens chain as numpy arrays: its plan built over a rectangle of Pools, walked or solved in a few array steps.

:mod:`.lens_chain` says what the chain is (its states, what a round does,
what each side plays); this module holds the one implementation of how it
is worked out. It is imported on first need (``import numpy`` costs about a
tenth of a second), never by the first screen of a game.

**The plan.** A state is a pair of effects (what the last round left on
each side, :class:`~.lenses.Effect`) at a pair of Pools. The pairs a chain
can reach are found first, from its start pairs: a pair's rounds (A's
options, B's choices with their chances) lead to other pairs whatever the
Pools, so only pairs are listed, and every pair holds the whole rectangle
of Pools the chain can reach (with a round limit: as far as the rounds left
can take each Pool). B's chances are arrays over that rectangle, asked of
its policy once per pair (a policy with an ``over_grid`` method answers the
whole rectangle in one call: an NPC mind's). Then three kinds of rows:

* a **blow** (part): one side wins a round with a Lens and deals its damage,
  each amount with its chance, into the pair the round leaves: the value of
  that pair moved down the struck side's Pool, one slice per amount;
* a **declared round**: both sides have declared; its value is the chance
  that A wins it times A's blow, B's likewise, and the stalemate's pair.
  Pairs that differ only in what B read before declaring (its last Lens)
  share their rounds;
* a **state**: a pair's value, the sum of its declared rounds weighted by
  the chance of each declaration (A's option times B's choice), at every
  Pool; where A chooses (its Clever edge, or its best), the best option at
  each Pool by A's chance to win.

**Solving.** With a round limit the plan is walked backwards: each pass
works out every blow, every declared round and every state over the whole
rectangle from the pass before (A's and B's chances to win, and one plus the
expected rounds where A chooses), a few dozen array operations for all the
Lenses A may keep at once. Without one, the Pools are solved by growing sum
(a blow lowers one Pool, so a pair of Pools needs only smaller sums): the
states at one pair of Pools that a round can move between without touching a
Pool (a stalemate, a blow that does no damage) are one linear system, kept as
its few entries and solved for every pair of Pools of one sum at once, group
by group of the states that can come back to each other (:func:`solve_stays`),
A's choices by policy iteration.

**The first round** from the state asked about is played out at that one
pair of Pools (:meth:`Solved.round_value`), with A's first choice and B's
declaration as asked; the states it leads to are read off the solved arrays.

A state below the rectangle holds no value (a walk only reaches so far);
:meth:`Walk.knows` says which values are whole: those whose every way within
the rounds left stays inside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .lens_chain import EXIT

if TYPE_CHECKING:
    from .lens_chain import Effect, _Game

#: The value components: A wins, B wins; with rounds counted, also one plus the expected rounds still to come;
#: where B may leave (its nerve broken), also B gone.
A_WINS, B_WINS, ROUNDS, EXITS = 0, 1, 2, 3


class Grid(NamedTuple):
    """The rectangle of Pools a plan holds: A's from ``lo_a`` to ``hi_a``, B's from ``lo_b`` to ``hi_b``."""

    lo_a: int
    hi_a: int
    lo_b: int
    hi_b: int

    @property
    def shape(self) -> tuple[int, int]:
        return self.hi_a - self.lo_a + 1, self.hi_b - self.lo_b + 1

    def holds(self, pool_a: int, pool_b: int) -> bool:
        return self.lo_a <= pool_a <= self.hi_a and self.lo_b <= pool_b <= self.hi_b


class Missing(Exception):
    """A state the solved arrays do not hold (a pair never planned, Pools outside, too few rounds): plan anew."""

    def __init__(self, pairs: Iterable[tuple[Effect, Effect]] = ()):
        super().__init__("not in the plan")
        self.pairs = list(pairs)


class Stopped(Exception):
    """The caller no longer wants the walk (a thinker whose question was answered)."""


#: One option of A in a pair: (its declaration, its chance: 1.0 or an array over the rectangle), …
Option = tuple[tuple[str, "float | np.ndarray"], ...]


class Plan:
    """Every pair of effects reachable from the start pairs, with its options, and the rows that value it."""

    def __init__(self, game: _Game, grid: Grid, starts: Iterable[tuple[Effect, Effect]],
                 options: Callable[[Effect, Effect, Grid], list[Option]]):
        self.game, self.grid = game, grid
        ha, hb = grid.shape
        self.pairs: list[tuple[Effect, Effect]] = []
        self.pid: dict[tuple[Effect, Effect], int] = {}
        self.part_ids: dict[tuple[int, str, str, int], int] = {}
        # (the pair it leaves, the side that strikes, its damage Lens, the pair it leaves when it takes Pool off B)
        self.parts: list[tuple[int, str, str, int]] = []
        self.round_ids: dict[tuple | str, int] = {}
        Part = tuple[int, str, str, int]
        rounds: list[tuple[float, float, float, Part | None, Part | None, int]] = []
        self.exits = game.exits  # B may leave: a value component more
        self.exit_rounds: list[int] = []  # the "rounds" in which B leaves instead (no dice: the conflict ends)
        self.row_seg: list[int] = []
        self.row_round: list[int] = []
        self.row_weight: list[float | np.ndarray] = []
        self.seg_pair: list[int] = []
        self.options_of: list[int] = []  # per pair: how many options A has there (its segments are consecutive)
        self.first_seg: list[int] = []
        for start in starts:
            self.pair_id(start)
        at = 0
        while at < len(self.pairs):  # the list grows as the rounds reach new pairs
            ea, eb = self.pairs[at]
            opts = options(ea, eb, grid)
            self.first_seg.append(len(self.seg_pair))
            self.options_of.append(len(opts))
            for option in opts:
                seg = len(self.seg_pair)
                self.seg_pair.append(at)
                for ca, wa in option:
                    for cb, wb in game.spread_b(grid, ea, eb, ca).items():
                        if cb == EXIT:
                            u = self.round_ids.get(EXIT)
                            if u is None:
                                u = self.round_ids[EXIT] = len(rounds)
                                rounds.append((0.0, 0.0, 0.0, None, None, 0))
                                self.exit_rounds.append(u)
                        else:
                            spec = game.round_spec(ca, cb, ea, eb)
                            pa, pb, ps = (self.pair_id(p) for p in spec.after)
                            ph = self.pair_id(game.hurt_pair(spec.after[0]))
                            key = (ca, cb, ea.carry, eb.carry, pa, pb, ps, ph)
                            u = self.round_ids.get(key)
                            if u is None:
                                u = self.round_ids[key] = len(rounds)
                                rounds.append((spec.a, spec.b, spec.stalemate,
                                               (pa, "a", spec.damage_a, ph) if spec.a > 0.0 else None,
                                               (pb, "b", spec.damage_b, pb) if spec.b > 0.0 else None, ps))
                        self.row_seg.append(seg)
                        self.row_round.append(u)
                        self.row_weight.append(wa * wb)
            at += 1
        # the blows, by side and damage Lens (each group moves its pairs by the same amounts)
        for *_, part_a, part_b, _ in rounds:
            for part in (part_a, part_b):
                if part is not None and part not in self.part_ids:
                    self.part_ids[part] = len(self.parts)
                    self.parts.append(part)
        groups: dict[tuple, list[int]] = {}  # blows of the same amounts and chances go together
        for t, (_, side, dmg, _) in enumerate(self.parts):
            groups.setdefault((side, game.taps(side, dmg)), []).append(t)
        order = [t for members in groups.values() for t in members]  # the parts, group by group
        where = {t: i for i, t in enumerate(order)}
        self.parts = [self.parts[t] for t in order]
        self.part_ids = {p: i for i, p in enumerate(self.parts)}
        # (side, its parts, the pairs they leave, those a blow that takes Pool off B leaves or None where the
        # same, the amounts, their chances)
        self.groups: list[tuple[str, slice, np.ndarray, np.ndarray | None, tuple[int, ...], tuple[float, ...]]] = []
        at = 0
        for (side, (taps, chances)), members in groups.items():
            pairs = np.array([self.parts[where[t]][0] for t in members], dtype=np.intp)
            hurt = np.array([self.parts[where[t]][3] for t in members], dtype=np.intp)
            self.groups.append((side, slice(at, at + len(members)), pairs,
                                None if np.array_equal(pairs, hurt) else hurt, taps, chances))
            at += len(members)
        zero = len(self.parts)  # a row of zeros: the blow of a side that cannot win the round
        self.ra = np.array([r[0] for r in rounds])
        self.rb = np.array([r[1] for r in rounds])
        self.rs = np.array([r[2] for r in rounds])
        self.ta = np.array([self.part_ids[r[3]] if r[3] is not None else zero for r in rounds], dtype=np.intp)
        self.tb = np.array([self.part_ids[r[4]] if r[4] is not None else zero for r in rounds], dtype=np.intp)
        self.ps = np.array([r[5] for r in rounds], dtype=np.intp)
        self.rounds = rounds
        self.hit_a = max((max(taps) for side, _, _, _, taps, _ in self.groups if side == "a"), default=0)
        self.hit_b = max((max(taps) for side, _, _, _, taps, _ in self.groups if side == "b"), default=0)
        self.exit_ids = np.array(self.exit_rounds, dtype=np.intp)
        # B gone at the round limit in each pair (a try to get away at the end of the last round)
        self.gone = np.array([game.gone_at_limit(pair) for pair in self.pairs]) if self.exits else None
        n = len(self.row_seg)
        self.weights = np.empty((n, ha, hb))
        for i, w in enumerate(self.row_weight):
            self.weights[i] = w
        del self.row_weight
        self.rows_round = np.array(self.row_round, dtype=np.intp)
        self.seg_starts = np.searchsorted(np.array(self.row_seg, dtype=np.intp), np.arange(len(self.seg_pair)))
        single = [p for p, n_opts in enumerate(self.options_of) if n_opts == 1]
        self.single_pairs = np.array(single, dtype=np.intp)
        self.single_segs = np.array([self.first_seg[p] for p in single], dtype=np.intp)
        by_count: dict[int, list[int]] = {}
        for p, n_opts in enumerate(self.options_of):
            if n_opts > 1:
                by_count.setdefault(n_opts, []).append(p)
        self.multi = [(np.array(ps, dtype=np.intp),
                       np.array([[self.first_seg[p] + o for o in range(k)] for p in ps], dtype=np.intp))
                      for k, ps in by_count.items()]
        self.chooses = bool(self.multi)
        self._work: dict[int, dict[str, np.ndarray]] = {}

    def pair_id(self, pair: tuple[Effect, Effect]) -> int:
        i = self.pid.get(pair)
        if i is None:
            i = self.pid[pair] = len(self.pairs)
            self.pairs.append(pair)
        return i

    # -- one pass of every row over the rectangle ------------------------------------------------

    def padded(self, values: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``values`` (components × pairs × Pools) with room below each Pool for the blows: the ends where a Pool
        is spent, zeros where it is above zero but below the rectangle (values a walk does not hold). ``out``: a
        buffer :meth:`padded` made before for as many components, whose room below is already laid."""
        pad_a, pad_b = self.hit_b, self.hit_a
        comps, n, ha, hb = values.shape
        if out is None:
            g = self.grid
            out = np.zeros((comps, n, pad_a + ha, pad_b + hb))
            if pad_b:
                spent = np.arange(g.lo_b - pad_b, g.lo_b) <= 0  # B's Pool spent: A has won
                out[A_WINS, :, pad_a:, :pad_b][:, :, spent] = 1.0
                if comps > ROUNDS:
                    out[ROUNDS, :, pad_a:, :pad_b] = 1.0
            if pad_a:
                spent = np.arange(g.lo_a - pad_a, g.lo_a) <= 0
                out[B_WINS, :, :pad_a, pad_b:][:, spent] = 1.0
                if comps > ROUNDS:
                    out[ROUNDS, :, :pad_a, pad_b:] = 1.0
        out[:, :, pad_a:, pad_b:] = values
        return out

    def _buffers(self, comps: int) -> dict[str, np.ndarray]:
        """Work arrays for :meth:`options`, made once per plan and number of components (large arrays made anew
        at every step would cost more to map than to fill)."""
        work = self._work.get(comps)
        if work is None:
            ha, hb = self.grid.shape
            pad_a, pad_b = self.hit_b, self.hit_a
            n_rounds, n_rows = len(self.rounds), len(self.row_seg)
            work = self._work[comps] = {
                "parts": np.zeros((comps, len(self.parts) + 1, ha, hb)),
                "played": np.empty((comps, n_rounds, ha, hb)), "term": np.empty((comps, n_rounds, ha, hb)),
                "rows": np.empty((comps, n_rows, ha, hb)), "segs": np.empty((comps, len(self.seg_pair), ha, hb)),
                "tmp": np.empty((comps, max((len(g[2]) for g in self.groups), default=0), ha, hb)),
                "moved_a": np.empty((comps, max((len(g[2]) for g in self.groups if g[0] == "a"), default=0), ha,
                                     pad_b + hb)),
                "hurt_a": np.empty((comps, max((len(g[2]) for g in self.groups if g[0] == "a" and g[3] is not None),
                                               default=0), ha, pad_b + hb)),
                "moved_b": np.empty((comps, max((len(g[2]) for g in self.groups if g[0] == "b"), default=0),
                                     pad_a + ha, hb)),
            }
        return work

    def options(self, values: np.ndarray, padded: np.ndarray | None = None) -> np.ndarray:
        """Every option's value at every Pool (components × options × Pools) from the states' ``values`` after
        one round fewer: the blows, the declared rounds, the states, in three steps. ``padded``: a buffer of
        :meth:`padded` to reuse. The array returned is a work buffer, overwritten by the next call.
        :meth:`options_at` works out the same at chosen Pools alone, summing in the same order (a test holds them
        equal to the bit): a change to one is a change to both."""
        ha, hb = self.grid.shape
        pad_a, pad_b = self.hit_b, self.hit_a
        comps = values.shape[0]
        padded = self.padded(values, padded)
        work = self._buffers(comps)
        parts, tmp = work["parts"], work["tmp"]
        for side, where, pairs, hurt, taps, chances in self.groups:
            acc = parts[:, where]
            n = len(pairs)
            t = tmp[:, :n]
            if side == "a":  # A's blow: B's Pool lower by each amount (into B's nerve hurt, when it minds)
                moved = work["moved_a"][:, :n]
                np.take(padded[:, :, pad_a:], pairs, axis=1, out=moved, mode="clip")
                hurt_moved = moved
                if hurt is not None:
                    hurt_moved = work["hurt_a"][:, :n]
                    np.take(padded[:, :, pad_a:], hurt, axis=1, out=hurt_moved, mode="clip")
                for i, (v, q) in enumerate(zip(taps, chances)):
                    view = (hurt_moved if v > 0 else moved)[:, :, :, pad_b - v:pad_b - v + hb]
                    if i == 0:
                        np.multiply(view, q, out=acc)
                    else:
                        np.multiply(view, q, out=t)
                        acc += t
            else:
                moved = work["moved_b"][:, :n]
                np.take(padded[:, :, :, pad_b:], pairs, axis=1, out=moved, mode="clip")
                for i, (v, q) in enumerate(zip(taps, chances)):
                    view = moved[:, :, pad_a - v:pad_a - v + ha]
                    if i == 0:
                        np.multiply(view, q, out=acc)
                    else:
                        np.multiply(view, q, out=t)
                        acc += t
        same = (slice(None), None, None)
        played, term = work["played"], work["term"]
        np.take(parts, self.ta, axis=1, out=played, mode="clip")
        played *= self.ra[same]
        np.take(parts, self.tb, axis=1, out=term, mode="clip")
        term *= self.rb[same]
        played += term
        np.take(values, self.ps, axis=1, out=term, mode="clip")
        term *= self.rs[same]
        played += term
        if len(self.exit_ids):  # B leaves: the conflict ends there, in that round
            played[:, self.exit_ids] = 0.0
            played[EXITS, self.exit_ids] = 1.0
            played[ROUNDS, self.exit_ids] = 1.0
        # (mode "clip": the indices are the plan's own, and a take with "raise" copies its output once more)
        rows = work["rows"]
        np.take(played, self.rows_round, axis=1, out=rows, mode="clip")
        rows *= self.weights
        return np.add.reduceat(rows, self.seg_starts, axis=1, out=work["segs"])

    def options_at(self, padded: np.ndarray, ia: np.ndarray, ib: np.ndarray) -> np.ndarray:
        """Every option's value at the Pools ``(ia[k], ib[k])`` alone (components × options × points), from the
        states' values laid out as :meth:`padded` lays them: what :meth:`options` gives there, summed in the same
        order, without working out the rest of the rectangle. Solving by growing sum needs one sum at a time: at
        Pools 18 against 18, the whole rectangle at every sum was a third of the time."""
        pad_a, pad_b = self.hit_b, self.hit_a
        comps = padded.shape[0]
        at_a, at_b = (pad_a + ia)[None, :], (pad_b + ib)[None, :]
        parts = np.zeros((comps, len(self.parts) + 1, len(ia)))
        for side, where, pairs, hurt, taps, chances in self.groups:
            acc = None
            for v, q in zip(taps, chances):
                if side == "a":  # A's blow: B's Pool lower by each amount (into B's nerve hurt, when it minds)
                    src = hurt if hurt is not None and v > 0 else pairs
                    term = padded[:, src[:, None], at_a, at_b - v] * q
                else:
                    term = padded[:, pairs[:, None], at_a - v, at_b] * q
                if acc is None:
                    acc = term
                else:
                    acc += term
            parts[:, where] = acc
        same = (slice(None), None)
        played = parts[:, self.ta] * self.ra[same]
        played += parts[:, self.tb] * self.rb[same]
        played += padded[:, self.ps[:, None], at_a, at_b] * self.rs[same]
        if len(self.exit_ids):
            played[:, self.exit_ids] = 0.0
            played[EXITS, self.exit_ids] = 1.0
            played[ROUNDS, self.exit_ids] = 1.0
        rows = played[:, self.rows_round] * self.weights[:, ia, ib]
        return np.add.reduceat(rows, self.seg_starts, axis=1)

    def states(self, options: np.ndarray) -> np.ndarray:
        """The states' values from their options' (A's best where it chooses), and the round they add counted."""
        ha, hb = self.grid.shape
        comps = options.shape[0]
        out = np.empty((comps, len(self.pairs), ha, hb))
        out[:, self.single_pairs] = options[:, self.single_segs]
        for pairs, segs in self.multi:
            each = options[:, segs]  # components × pairs × options × Pools
            gains = each[A_WINS] + each[EXITS] if comps > EXITS else each[A_WINS]
            best = np.argmax(gains, axis=1)[None, :, None]
            out[:, pairs] = np.take_along_axis(each, best, axis=2)[:, :, 0]
        if comps > ROUNDS:
            out[ROUNDS] += 1.0
        return out


#: Expected rounds a walk keeps by state before it starts afresh (some 10 MB; a bot fighting one match-up 200 times
#: asks a few tens of thousands).
ROUNDS_KEPT = 65_536
#: One state's value: (A wins, B wins, expected rounds, B gone).
Value = tuple[float, float, float, float]


class Solved:
    """The values of a plan's states with a number of rounds to go, and one round played from any state."""

    plan: Plan
    comps: int

    def values_at(self, limit: int) -> np.ndarray:  # pragma: no cover - see the subclasses
        raise NotImplementedError

    def knows(self, pool_a: int, pool_b: int, limit: int | None) -> bool:  # pragma: no cover
        raise NotImplementedError

    def value(self, pair: tuple[Effect, Effect], pool_a: int, pool_b: int, limit: int | None) -> Value:
        """(A wins, B wins, expected rounds, B gone) from one state with ``limit`` rounds to go (Missing if not
        held): four floats, not an array (a bot asks hundreds of thousands; :meth:`round_value` sums them)."""
        if pool_b <= 0:
            return (1.0, 0.0, 0.0, 0.0)
        if pool_a <= 0:
            return (0.0, 1.0, 0.0, 0.0)
        if limit == 0:  # no round to go: still undecided (or B gone, got away at the end of the last round)
            game = self.plan.game
            return (0.0, 0.0, 0.0, float(game.gone_at_limit(pair)))
        p = self.plan.pid.get(pair)
        if p is None or not self.knows(pool_a, pool_b, limit):
            raise Missing([pair])
        g = self.plan.grid
        return self._value(p, pool_a - g.lo_a, pool_b - g.lo_b, limit)

    def _value(self, p: int, ia: int, ib: int, limit: int | None) -> Value:  # pragma: no cover
        raise NotImplementedError

    def round_value(self, ca: str, cb: str | tuple, ea: Effect, eb: Effect, pool_a: int, pool_b: int,
                    limit: int | None) -> np.ndarray:
        """One declared round from (ea, eb) at these Pools, then the solved values with ``limit`` − 1 rounds to go
        (None: no limit): (A wins, B wins, expected rounds, B gone). B's :data:`EXIT`: gone, in this round."""
        if cb == EXIT:
            return np.array([0.0, 0.0, 1.0, 1.0])
        game = self.plan.game
        spec = game.round_spec(ca, cb, ea, eb)
        after = None if limit is None else limit - 1
        hurt = game.hurt_pair(spec.after[0])
        terms: list[tuple[float, Value]] = []  # (the chance of a way the round goes, the value it leaves)
        for won, side, pair, dmg in ((spec.a, "a", spec.after[0], spec.damage_a),
                                     (spec.b, "b", spec.after[1], spec.damage_b)):
            if not won > 0.0:
                continue
            taps, chances = game.taps(side, dmg)
            for v, q in zip(taps, chances):
                at = self.value(hurt if v > 0 else pair, pool_a, pool_b - v, after) if side == "a" else \
                    self.value(pair, pool_a - v, pool_b, after)
                terms.append((float(won * q), at))
        if spec.stalemate > 0.0:
            terms.append((float(spec.stalemate), self.value(spec.after[2], pool_a, pool_b, after)))
        # the sums an array of four would make, component by component in the same order (the same bits)
        a_wins = b_wins = rounds = gone = 0.0
        for w, at in terms:
            a_wins += w * at[0]
            b_wins += w * at[1]
            rounds += w * at[2]
            gone += w * at[3]
        return np.array([a_wins, b_wins, rounds + 1.0, gone])


class Walk(Solved):
    """A plan walked backwards ``horizon`` − 1 times: the value of every state with 0 … horizon − 1 rounds to go.

    A value is whole where every way from its state within its rounds stays
    inside the rectangle (a blow of up to ``hit`` a round): :meth:`knows`.
    """

    def __init__(self, plan: Plan, horizon: int, stop: Callable[[], bool] | None = None):
        self.plan, self.horizon = plan, horizon
        self.comps = 4 if plan.exits else 3 if plan.chooses else 2
        ha, hb = plan.grid.shape
        values = np.zeros((self.comps, len(plan.pairs), ha, hb))
        if self.comps > ROUNDS:
            values[ROUNDS] = 1.0
        if plan.gone is not None:
            values[EXITS] = plan.gone[:, None, None]
        self.values = [values]
        self._expected_rounds: dict[tuple[int, int, int, int], float] = {}  # by state and rounds to go
        padded = None
        for _ in range(horizon - 1):
            if stop is not None and stop():
                raise Stopped
            padded = plan.padded(values, padded)
            values = plan.states(plan.options(values, padded))
            self.values.append(values)

    def knows(self, pool_a: int, pool_b: int, limit: int | None) -> bool:
        g = self.plan.grid
        if limit is None or limit > self.horizon - 1 or not g.holds(pool_a, pool_b):
            return False
        if limit <= 1:
            return True
        reach = limit - 1  # rounds that must stay inside
        return ((g.lo_a == 1 or pool_a - reach * self.plan.hit_b >= g.lo_a)
                and (g.lo_b == 1 or pool_b - reach * self.plan.hit_a >= g.lo_b))

    def _value(self, p: int, ia: int, ib: int, limit: int | None) -> Value:
        assert limit is not None
        v = self.values[limit][:, p, ia, ib].tolist()
        if self.comps > EXITS:
            return (v[A_WINS], v[B_WINS], v[ROUNDS] - 1.0, v[EXITS])
        if self.comps > ROUNDS:
            return (v[A_WINS], v[B_WINS], v[ROUNDS] - 1.0, 0.0)
        # with no choice of A, the expected rounds are the sum over the rounds of the chance to be still undecided;
        # kept by state, as a bot asks the same few thousand states again and again (a dict: only those asked)
        key = (p, ia, ib, limit)
        rounds = self._expected_rounds.get(key)
        if rounds is None:
            seen = np.array([self.values[t][:2, p, ia, ib] for t in range(limit)]).reshape(limit, 2)
            rounds = float(np.sum(1.0 - seen[:, A_WINS] - seen[:, B_WINS]))
            if len(self._expected_rounds) >= ROUNDS_KEPT:
                self._expected_rounds.clear()
            self._expected_rounds[key] = rounds
        return (v[A_WINS], v[B_WINS], rounds, 0.0)


class Stationary(Solved):
    """A plan with no round limit, solved exactly: Pools by growing sum, A's choices by policy iteration.

    A blow lowers one Pool, so the states at the Pools of one sum need only
    those of smaller sums, and a round that lowers no Pool (a stalemate, a
    blow of no damage) moves between the states of one pair of Pools: for
    each sum, every pair of Pools is a linear system, all solved at once
    (:func:`solve_stays`), from each option's value there worked out at that
    sum's Pools alone (:meth:`Plan.options_at`). States that can never leave
    their Pools never end: worth 0, as in :func:`~.odds.conflict_odds`.
    """

    def __init__(self, plan: Plan, stop: Callable[[], bool] | None = None):
        self.plan = plan
        self.comps = comps = 4 if plan.exits else 3
        g = plan.grid
        assert g.lo_a == 1 and g.lo_b == 1, "with no round limit every Pool below the start is reached"
        ha, hb = g.shape
        n_pairs = len(plan.pairs)
        values = np.zeros((comps, n_pairs, ha, hb))
        n_rounds = len(plan.rounds)
        stay_cols = np.zeros((n_rounds, 3), dtype=np.intp)  # where a round stays at its Pools, and its chance
        stay = np.zeros((n_rounds, 3))
        leave = np.zeros(n_rounds)  # the chance that it lowers a Pool (a sum of chances: 0 only if it never does)
        for u, (ra, rb, rs, part_a, part_b, ps) in enumerate(plan.rounds):
            stay_cols[u, 2], stay[u, 2] = ps, rs
            for k, (won, part) in enumerate(((ra, part_a), (rb, part_b))):
                if part is None:
                    continue
                taps, chances = plan.game.taps(part[1], part[2])
                stay_cols[u, k] = part[0]  # a blow of no damage: B's nerve not hurt
                stay[u, k] = won * sum(q for v, q in zip(taps, chances) if v == 0)
                leave[u] += won * sum(q for v, q in zip(taps, chances) if v > 0)
        leave[plan.exit_ids] = 1.0  # B leaving is a way out
        rows_seg = np.array(plan.row_seg, dtype=np.intp)
        rows = plan.rows_round
        ways_out = np.add.reduceat(plan.weights * leave[rows][:, None, None], plan.seg_starts, axis=0)
        first = np.array(plan.first_seg, dtype=np.intp)
        # A round's stays (a stalemate, a blow of no damage) as a list: the segment the row is in, the pair it
        # stays in, its chance; the same (segment, pair) gathered into one entry, summed in the order rows come
        stay_k, stay_row = np.nonzero((stay[rows] != 0.0).T)  # each k in turn, rows in order within it
        stay_chance = stay[rows[stay_row], stay_k]
        keyed = rows_seg[stay_row] * n_pairs + stay_cols[rows[stay_row], stay_k]
        entries, stay_entry = np.unique(keyed, return_inverse=True)
        stay_seg, stay_to = entries // n_pairs, entries % n_pairs
        stay_from = np.array(plan.seg_pair, dtype=np.intp)[stay_seg]
        padded = plan.padded(values)  # the values solved so far, with the ends below every Pool
        aims = [A_WINS, EXITS] if comps > EXITS else [A_WINS]  # A's aim: B out, or gone too where B may leave
        pad_a, pad_b = plan.hit_b, plan.hit_a
        for d in range(ha + hb - 1):
            if stop is not None and stop():
                raise Stopped
            ia = np.arange(max(0, d - hb + 1), min(d, ha - 1) + 1)
            ib = d - ia
            n_pts = len(ia)
            pts = np.arange(n_pts)
            outside = plan.options_at(padded, ia, ib).transpose(1, 2, 0)  # segments × points × components
            w = plan.weights[:, ia, ib]
            # the stays as a list: each (segment, pair it stays in) once, with its chance at every point
            weight = np.zeros((len(stay_seg), n_pts))
            np.add.at(weight, stay_entry, w[stay_row] * stay_chance[:, None])
            out_p = ways_out[:, ia, ib]
            choice = np.repeat(first[None, :], n_pts, axis=0)  # points × pairs: the segment A plays
            while True:
                c = outside[choice, pts[:, None]]  # points × pairs × components
                p_out = out_p[choice, pts[:, None]]
                # the stays of the segments chosen: each pair plays one segment at each point
                m = np.where(choice[:, stay_from] == stay_seg, weight.T, 0.0)  # points × stays
                live = p_out > 0.0
                flat = pts[:, None] * n_pairs + stay_from
                while True:  # the states that can reach a way out of their Pools
                    hit = (m > 0.0) & live[:, stay_to]
                    more = live | (np.bincount(flat[hit], minlength=n_pts * n_pairs) > 0).reshape(n_pts, n_pairs)
                    if np.array_equal(more, live):
                        break
                    live = more
                m = np.where(live[:, stay_from] & live[:, stay_to], m, 0.0)
                rhs = c.copy()
                rhs[..., ROUNDS] = 1.0 + (c[..., ROUNDS] - p_out)  # outside, each way out was stored as 1 + rounds
                rhs = np.where(live[:, :, None], rhs, 0.0)
                x = solve_stays(stay_from, stay_to, m, rhs)
                changed = False
                if plan.multi:  # A's choices: each option's value against the states solved (what A aims at)
                    gained = np.zeros((len(plan.seg_pair), n_pts, len(aims)))
                    np.add.at(gained, stay_seg, weight[:, :, None] * x[:, stay_to][..., aims].transpose(1, 0, 2))
                for pairs, segs in plan.multi:
                    each = outside[segs, :, A_WINS] + gained[segs, :, 0]
                    if comps > EXITS:  # A's aim: B out, or gone
                        each = each + outside[segs, :, EXITS] + gained[segs, :, 1]
                    now = choice[:, pairs].T  # pairs × points
                    best = np.take_along_axis(each, (now[:, None, :] - segs[:, :1, None]), axis=1)[:, 0]
                    for o in range(segs.shape[1]):
                        better = each[:, o] > best + 1e-13
                        if np.any(better):
                            best = np.where(better, each[:, o], best)
                            now = np.where(better, segs[:, o:o + 1], now)
                            changed = True
                    choice[:, pairs] = now.T
                if not changed:
                    break
            x[..., ROUNDS] += 1.0
            values[:, :, ia, ib] = padded[:, :, pad_a + ia, pad_b + ib] = x.transpose(2, 1, 0)
        self.values = values

    def knows(self, pool_a: int, pool_b: int, limit: int | None) -> bool:
        return limit is None and self.plan.grid.holds(pool_a, pool_b)

    def _value(self, p: int, ia: int, ib: int, limit: int | None) -> Value:
        v = self.values[:, p, ia, ib].tolist()
        return (v[A_WINS], v[B_WINS], v[ROUNDS] - 1.0, v[EXITS] if self.comps > EXITS else 0.0)


#: Below this many pairs a stay system is solved whole (LAPACK is quicker than finding its blocks); from it on, block
#: by block (:func:`solve_stays`).
BLOCKS_FROM = 64


def solve_stays(frm: np.ndarray, to: np.ndarray, m: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """``x = M x + rhs`` for every point at once, ``M`` given as its entries: ``M[p, frm[e], to[e]] = m[p, e]``
    (entries of one place summed), ``rhs``: points × pairs × values.

    A round that moves no Pool reaches few pairs (four on average against an NPC mind with its nerve, of 1,139),
    and seldom comes back: the pairs fall into small strongly connected groups (at most 16 there) whose order
    is a short chain of levels (three to six). Solved group by group, each level's groups at once, those they
    lead to known already, a system that took LAPACK 0.15 to 0.5 s whole (and ``M`` whole 90 MB) takes
    milliseconds; the same system, so the same values to within rounding (tests/test_lens_arrays_blocks.py
    holds them to the whole solve, tests/test_lens_arrays_oracle.py to 1e-12 of the chain before arrays).
    """
    points, n = rhs.shape[:2]
    at = np.arange(points)[:, None]
    if n < BLOCKS_FROM:
        whole = np.zeros((points, n, n))
        np.add.at(whole, (at, frm[None, :], to[None, :]), m)
        return np.linalg.solve(np.eye(n)[None] - whole, rhs)
    used = np.any(m != 0.0, axis=0)
    frm, to, m = frm[used], to[used], m[:, used]
    group, levels = stay_groups(n, frm, to)
    across = group[frm] != group[to]
    x = np.zeros_like(rhs)
    local = np.empty(n, dtype=np.intp)  # each pair's place in its group
    for members in levels:  # groups × size, padded with -1; every group they reach outside themselves is solved
        real = members >= 0
        flat = members[real]
        slot = np.full(n, -1, dtype=np.intp)  # each pair's group's row in this level
        slot[flat], local[flat] = np.nonzero(real)
        size = members.shape[1]
        place = slot * size + local  # each of the level's pairs in the level's groups laid end to end
        b = np.zeros((points, len(members) * size) + rhs.shape[2:])
        b[:, place[flat]] = rhs[:, flat]
        into = slot[frm] >= 0
        out = into & across  # into a group solved before
        np.add.at(b, (at, place[frm[out]][None, :]), m[:, out, None] * x[:, to[out]])
        inside = into & ~across
        block = np.zeros((points, len(members), size, size))
        np.add.at(block, (at, slot[frm[inside]][None, :], local[frm[inside]][None, :], local[to[inside]][None, :]),
                  m[:, inside])
        got = np.linalg.solve(np.eye(size) - block, b.reshape((points, len(members), size) + rhs.shape[2:]))
        x[:, flat] = got.reshape(b.shape)[:, place[flat]]
    return x


def stay_groups(n: int, frm: np.ndarray, to: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The strongly connected groups of the graph of ``n`` pairs whose edges go ``frm[e]`` to ``to[e]``, each
    pair's group, and the groups by level, those that reach no other first: each level as groups × largest size,
    padded with -1 (Tarjan's algorithm, without recursion: it finds a group only after every group it reaches)."""
    nexts: list[list[int]] = [[] for _ in range(n)]
    for i, j in zip(frm.tolist(), to.tolist()):
        if i != j:
            nexts[i].append(j)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    group = [-1] * n
    level: list[int] = []  # of each group
    found: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack[v] = True
            ws = nexts[v]
            while k < len(ws):
                w = ws[k]
                k += 1
                if index[w] < 0:
                    work.append((v, k))
                    work.append((w, 0))
                    break
                if on_stack[w]:
                    low[v] = min(low[v], index[w])
            else:
                if low[v] == index[v]:
                    members = []
                    while True:
                        w = stack.pop()
                        on_stack[w] = False
                        group[w] = len(found)
                        members.append(w)
                        if w == v:
                            break
                    members.sort()
                    deepest = -1  # the groups it reaches are all found already
                    for u in members:
                        for w in nexts[u]:
                            if group[w] != len(found):
                                deepest = max(deepest, level[group[w]])
                    found.append(members)
                    level.append(deepest + 1)
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
    by_level: list[list[list[int]]] = [[] for _ in range(max(level, default=-1) + 1)]
    for members, lv in zip(found, level):
        by_level[lv].append(members)
    levels = []
    for groups in by_level:
        size = max(len(g) for g in groups)
        levels.append(np.array([g + [-1] * (size - len(g)) for g in groups], dtype=np.intp))
    return np.array(group, dtype=np.intp), levels


def grid_of(pool_a: int, pool_b: int, limit: int | None, hit_a: int, hit_b: int) -> Grid:
    """The Pools a chain from (pool_a, pool_b) with ``limit`` rounds to go needs: all of them with no limit, else
    as far as the rounds after the first can take each Pool with the largest blows (``hit_a``: A's largest blow,
    which lowers B's Pool); :meth:`Walk.knows` says which values that holds whole."""
    if limit is None:
        return Grid(1, pool_a, 1, pool_b)
    reach = max(limit - 1, 0)
    return Grid(max(1, pool_a - reach * hit_b), pool_a, max(1, pool_b - reach * hit_a), pool_b)
