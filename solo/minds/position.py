"""Reading a live conflict from one participant's side: whom it faces and what each Lens is worth.

The valuation (:mod:`solo.minds.valuation`) knows only numbers; this module
turns a conflict as it stands into those numbers (targets, Pools, armour,
shields, what the opponent declared) for the NPC minds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..rules.character import HURT_PENALTY
from ..rules.conflict_types import ConflictType
from ..rules.conflict_view import ConflictView
from ..rules.lenses import LENS_TABLE, NEXT_ROUND, SIDE_POOLS
from ..rules.odds import damage_distribution
from ..rules.outcomes import ACTIVE
from ..rules.participants import Participant
from .valuation import Evaluator, Matchup, evaluator


class Position(NamedTuple):
    """A participant's view of the fight at one declaration: who it faces and what each Lens is worth.

    A named tuple (read only, as a frozen dataclass would be, and made in a fraction of its time: a mind reads
    one at every declaration)."""

    me: Participant
    main: Participant  # the opponent that threatens it most
    opponents: tuple[Participant, ...]
    allies: tuple[Participant, ...]  # active participants on its side, itself included
    evaluator: Evaluator
    a: int  # own Pool index (distance to out, or to comae when pushing)
    b: int
    values: dict[str, float]  # Lens -> chance to win (one-round look-ahead, best play after)
    armour_op: int
    physical: bool
    # what its Lens choice reads beyond the values (npc._reading_fields): the shields against it, its Covert and
    # Flamboyant targets (None: not offered) and whether their blows may go to a Pool armour does not cover
    shield_me: int = 0
    covert: int | None = None
    flamboyant: int | None = None
    side_pool: bool = False

    @property
    def ratio(self) -> float:
        """Opponents per member of its side (above 1: outnumbered)."""
        return len(self.opponents) / max(1, len(self.allies))

    def win(self, lenses: Iterable[str] | None = None) -> float:
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
        if ratio < 1.0:  # float dust can put a sure win a hair above 1: no complex powers
            return 1.0 - max(0.0, 1.0 - best) ** (1.0 / ratio)
        return best


def threat(p: Participant, physical: bool) -> float:
    """How dangerous a participant is: its base chance times its mean damage."""
    return max(1, p.base_target()) * max(0.5, mean_damage(p, physical))


def mean_damage(p: Participant, physical: bool, armour: int = 0) -> float:
    """The mean of a participant's blow (dice and bonus, less ``armour``), from the odds engine's tables."""
    return sum(v * q for v, q in damage_distribution(str(p.damage_dice(physical)), "none",
                                                     p.damage_bonus(physical), armour))


def _index(p: Participant) -> tuple[int, int]:
    """(index, size): the Pool as a distance to going out; a pusher's runs on to comae."""
    size = max(p.pool.maximum, p.pool.current, 1)
    if p.pushing:
        return p.pool.current + p.pool.maximum, size + p.pool.maximum
    return p.pool.current, size


def matchup_of(me: Participant, opponent: Participant, ctype: ConflictType, *,
               shield_me: int | None = None) -> Matchup:
    """The match-up of two participants in a conflict of ``ctype`` as they stand now."""
    physical = ctype.physical
    if shield_me is None:
        shield_me = me.shield_penalty((opponent,), physical)
    _, size_me = _index(me)
    _, size_op = _index(opponent)
    # the match-up's fields in their order: a mind reads one at every declaration, mostly one it read before
    key = (me.base_target() + shield_me, opponent.base_target() + opponent.shield_penalty((me,), physical),
           str(me.damage_dice(physical)), str(opponent.damage_dice(physical)), me.damage_bonus(physical),
           opponent.damage_bonus(physical), me.armour_against(opponent, ctype), opponent.armour_against(me, ctype),
           size_me, size_op)
    m = _MATCHUPS.get(key)
    if m is None:
        if len(_MATCHUPS) >= 4096:
            _MATCHUPS.clear()
        m = _MATCHUPS[key] = Matchup(*key)
    return m


#: Match-ups by their fields (frozen: one made once serves every read of it)
_MATCHUPS: dict[tuple, Matchup] = {}


def read_position(conflict: ConflictView, me: Participant, *,
                  secondary: dict[tuple[str, bool, str | None], tuple[int | None, int | None]] | None = None
                  ) -> Position:
    """Size up the fight from ``me``'s side: the main opponent, the match-up and every Lens's value.

    ``secondary`` caches the Covert/Flamboyant targets between calls
    (skill look-ups are the slow part); pass a dict kept per conflict.
    """
    ctype = conflict.ctype
    physical = ctype.physical
    opponents = tuple(conflict.opponents(me))
    allies = tuple(p for p in conflict.participants if p.side == me.side and p.status == ACTIVE)
    main = max(opponents, key=lambda o: (threat(o, physical), o.id)) if len(opponents) > 1 else opponents[0]
    shield_me = me.shield_penalty(opponents, physical)
    a, _ = _index(me)
    b, _ = _index(main)
    m = matchup_of(me, main, ctype, shield_me=shield_me)
    armour_op = m.armour_op
    ev = evaluator(m)
    carry_op = main.carry
    decl = conflict.declared(main.id)
    if decl is not None:  # it declared before me this round: I know what it does
        opp_lens = decl.lens
        carry_op += sum(v for _, v in decl.modifiers)
    else:
        opp_lens = main.last_lens if main.uses_lenses and not LENS_TABLE[main.last_lens].follow_up else "none"
        if main.clever_next:
            carry_op += NEXT_ROUND
    covert, flamboyant, side_pool = secondary_reading(me, main, shield_me, armour_op, physical,
                                                      secondary if secondary is not None else {})
    values = ev.lens_values(a, b, carry_me=me.carry, carry_op=carry_op, opp_lens=opp_lens, covert=covert,
                            flamboyant=flamboyant, side_pool=side_pool)
    return Position(me, main, opponents, allies, ev, a, b, values, armour_op, physical, shield_me, covert, flamboyant,
                    side_pool)


def secondary_reading(me: Participant, main: Participant, shield_me: int, armour_op: int, physical: bool,
                      cache: dict) -> tuple[int | None, int | None, bool]:
    """What a Lens choice reads of Covert and Flamboyant: their targets against the shields (None: not offered,
    as to a side that uses no Lenses), and whether their blows may go to a Pool armour does not cover. ``cache``
    keeps the targets by what they rest on (the position read in play and a Lens policy share one per fight)."""
    if not me.uses_lenses or me.char is None:
        return None, None, False
    key = (me.id, me.char.hurt or me.pool.current < 0, me.skill)
    got = cache.get(key)
    if got is None:
        got = cache[key] = _secondary_targets(me)
    covert, flamboyant = got
    return (covert + shield_me if covert is not None else None,
            flamboyant + shield_me if flamboyant is not None else None,
            physical and armour_op > 0 and any(main.takes_side_blows(side) for side in SIDE_POOLS))


def _secondary_targets(me: Participant) -> tuple[int | None, int | None]:
    """My Covert and Flamboyant targets, from the rules' own :meth:`Participant.rolled_target` (Focus counted),
    Flamboyant's among the skills a flashy move fits here (:func:`~solo.rules.participants.flamboyant_skills`)."""
    from ..rules.participants import flamboyant_skills

    covert = me.rolled_value(LENS_TABLE["covert"], "Cunning")
    flamboyant = LENS_TABLE["flamboyant"]
    others = [me.rolled_value(flamboyant, s) for s in flamboyant_skills(me)]
    return covert, (max(others) if others else None)


def best_secondary(me: Participant) -> str | None:
    """The skill a Flamboyant participant shows off with: its best one of those a flashy move fits here, Focus
    counted."""
    from ..rules.participants import flamboyant_skills

    flamboyant = LENS_TABLE["flamboyant"]
    best, name = None, None
    for s in flamboyant_skills(me):
        value = me.rolled_value(flamboyant, s)
        if best is None or value > best:
            best, name = value, s
    return name


def push_chance(conflict: ConflictView, me: Participant) -> float:
    """The chance to win if ``me`` pushes on from its spent Pool: −20 % and a run down to comae."""
    opponents = conflict.opponents(me)
    if not opponents:
        return 1.0
    physical = conflict.ctype.physical
    main = max(opponents, key=lambda o: (threat(o, physical), o.id))
    hurt = 0 if me.char is not None and me.char.hurt else HURT_PENALTY
    size = max(1, me.pool.maximum)
    b, size_op = _index(main)
    m = Matchup(t_me=me.base_target() + hurt, t_op=main.base_target(), dice_me=str(me.damage_dice(physical)),
                dice_op=str(main.damage_dice(physical)), bonus_me=me.damage_bonus(physical),
                bonus_op=main.damage_bonus(physical), armour_me=me.armour_against(main, conflict.ctype),
                armour_op=main.armour_against(me, conflict.ctype), size_me=size, size_op=size_op)
    return evaluator(m).value(size + min(0, me.pool.current), b)


def quick_extras(conflict: ConflictView, me: Participant) -> list[str]:
    """Quick's extra actions other than leaving (switch weapon, use an item, get ready).

    Asks the engine for the list it would offer, so the two never drift
    apart; a mind uses this to see whether Quick buys anything but a way out.
    """
    return [o.key for o in conflict.quick_options(me) if o.key != "leave"]
