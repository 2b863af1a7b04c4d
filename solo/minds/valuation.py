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

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Union

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
def evaluator(m: Matchup) -> "Evaluator":
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


# -- reading a live conflict --------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """A participant's view of the fight at one declaration: who it faces and what each Lens is worth."""

    me: object  # Participant
    main: object  # the opponent that threatens it most
    opponents: tuple
    allies: tuple  # active participants on its side, itself included
    evaluator: Evaluator
    a: int  # own Pool index (distance to out, or to comae when pushing)
    b: int
    values: dict  # Lens -> chance to win (one-round look-ahead, best play after)
    armour_op: int
    physical: bool

    @property
    def ratio(self) -> float:
        """Opponents per member of its side (above 1: outnumbered)."""
        return len(self.opponents) / max(1, len(self.allies))

    def win(self, lenses=None) -> float:
        """The best chance among the Lenses it may use, adjusted for numbers.

        Against several foes the one-against-one chance is raised to the
        power of the odds in numbers (and the other way round with allies):
        crude, but it makes being outnumbered feel like it should.
        """
        vals = self.values
        best = max((vals[k] for k in (lenses or vals) if k in vals), default=vals["none"])
        ratio = self.ratio
        if ratio > 1.0:
            return best ** ratio
        if ratio < 1.0:
            return 1.0 - (1.0 - best) ** (1.0 / ratio)
        return best


def threat(p, physical: bool) -> float:
    """How dangerous a participant is: its base chance times its mean damage."""
    return max(1, p.base_target()) * max(0.5, mean_damage(p, physical))


def mean_damage(p, physical: bool, armour: int = 0) -> float:
    """The mean of a participant's blow (dice and bonus, less ``armour``), from the odds engine's tables."""
    return sum(v * q for v, q in damage_distribution(str(p.damage_dice(physical)), "none",
                                                     p.damage_bonus(physical), armour))


def _shield_penalty(p, opponents, physical: bool) -> int:
    if not physical:
        return 0
    kind = p.weapon.kind if p.weapon is not None else "melee"
    for o in opponents:
        if o.shield is not None and kind in o.shield.against:
            return o.shield.penalty
    return 0


def _armour(target, attacker, ctype) -> int:
    if ctype.physical and target.armour is not None and "BODY" in ctype.pools:
        return target.armour.points_against(attacker.weapon)
    return 0


def _index(p) -> tuple[int, int]:
    """(index, size): the Pool as a distance to going out; a pusher's runs on to comae."""
    size = max(p.pool.maximum, p.pool.current, 1)
    if p.pushing:
        return p.pool.current + p.pool.maximum, size + p.pool.maximum
    return p.pool.current, size


def matchup_of(me, opponent, ctype, *, shield_me: int | None = None) -> Matchup:
    """The match-up of two participants in a conflict of ``ctype`` as they stand now."""
    physical = ctype.physical
    if shield_me is None:
        shield_me = _shield_penalty(me, (opponent,), physical)
    _, size_me = _index(me)
    _, size_op = _index(opponent)
    return Matchup(
        t_me=me.base_target() + shield_me, t_op=opponent.base_target() + _shield_penalty(opponent, (me,), physical),
        dice_me=str(me.damage_dice(physical)), dice_op=str(opponent.damage_dice(physical)),
        bonus_me=me.damage_bonus(physical), bonus_op=opponent.damage_bonus(physical),
        armour_me=_armour(me, opponent, ctype), armour_op=_armour(opponent, me, ctype), size_me=size_me,
        size_op=size_op,
    )


def read_position(conflict, me, *, secondary: dict | None = None) -> Position:
    """Size up the fight from ``me``'s side: the main opponent, the match-up and every Lens's value.

    ``secondary`` caches the Covert/Flamboyant targets between calls
    (skill look-ups are the slow part); pass a dict kept per conflict.
    """
    ctype = conflict.ctype
    physical = ctype.physical
    opponents = tuple(conflict.opponents(me))
    allies = tuple(p for p in conflict.participants if p.side == me.side and p.status == "in")
    main = max(opponents, key=lambda o: (threat(o, physical), o.id)) if len(opponents) > 1 else opponents[0]
    shield_me = _shield_penalty(me, opponents, physical)
    a, _ = _index(me)
    b, _ = _index(main)
    m = matchup_of(me, main, ctype, shield_me=shield_me)
    armour_op = m.armour_op
    ev = evaluator(m)
    carry_op = main.carry
    decl = conflict.decl.get(main.id)
    if decl is not None:  # it declared before me this round: I know what it does
        opp_lens = decl.lens
        carry_op += sum(v for _, v in decl.modifiers)
    else:
        opp_lens = main.last_lens if main.uses_lenses and main.last_lens != "clever" else "none"
        if main.clever_next:
            carry_op += NEXT_ROUND
    covert = flamboyant = None
    side_pool = False
    if me.uses_lenses and me.char is not None:
        cache = secondary if secondary is not None else {}
        key = (me.id, me.char.hurt, me.skill)
        if key not in cache:
            cache[key] = _secondary_targets(me)
        covert, flamboyant = (t + shield_me if t is not None else None for t in cache[key])
        side_pool = physical and armour_op > 0 and main.char is not None
    values = ev.lens_values(a, b, carry_me=me.carry, carry_op=carry_op, opp_lens=opp_lens, covert=covert,
                            flamboyant=flamboyant, side_pool=side_pool)
    return Position(me, main, opponents, allies, ev, a, b, values, armour_op, physical)


def _secondary_targets(me) -> tuple[int | None, int | None]:
    from ..rules.character import skill_target

    covert = skill_target(me.char, "Cunning", ())[0]
    others = [skill_target(me.char, s, ())[0] for s in me.char.skills if s != me.skill]
    return covert, (max(others) if others else None)


def best_secondary(me) -> str | None:
    """The skill a Flamboyant participant shows off with: its best one besides the conflict's."""
    from ..rules.character import skill_target

    best, name = None, None
    for s in me.char.skills:
        if s == me.skill:
            continue
        value = skill_target(me.char, s, ())[0]
        if best is None or value > best:
            best, name = value, s
    return name


def push_chance(conflict, me) -> float:
    """The chance to win if ``me`` pushes on from its spent Pool: −20 % and a run down to comae."""
    opponents = conflict.opponents(me)
    if not opponents:
        return 1.0
    physical = conflict.ctype.physical
    main = max(opponents, key=lambda o: (threat(o, physical), o.id))
    hurt = 0 if me.char is not None and me.char.hurt else -20
    size = max(1, me.pool.maximum)
    b, size_op = _index(main)
    m = Matchup(t_me=me.base_target() + hurt, t_op=main.base_target(), dice_me=str(me.damage_dice(physical)),
                dice_op=str(main.damage_dice(physical)), bonus_me=me.damage_bonus(physical),
                bonus_op=main.damage_bonus(physical), armour_me=_armour(me, main, conflict.ctype),
                armour_op=_armour(main, me, conflict.ctype), size_me=size, size_op=size_op)
    return evaluator(m).value(size + min(0, me.pool.current), b)


def quick_extras(conflict, me) -> list[str]:
    """Quick's extra actions other than leaving (switch weapon, use an item, get ready).

    Asks the engine for the list it would offer, so the two never drift
    apart; a mind uses this to see whether Quick buys anything but a way out.
    """
    options = getattr(conflict, "_quick_options", None)
    if options is None:
        return []
    return [o.key for o in options(me) if o.key != "leave"]
