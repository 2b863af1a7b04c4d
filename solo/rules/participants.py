"""Who takes part in an Extended Conflict, and what they carry between rounds.

A :class:`Participant` wraps a character (or stands alone as a static
obstacle) with everything the conflict needs: its side, its decider, its
conflict Pool, weapon and armour, and the effects that carry into the next
round (Covert and Flamboyant penalties, Clever's follow-up).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..decisions import Decider
from .character import HURT_PENALTY, HURT_REASON, Character, Pool, skill_target, skill_value
from .conflict_types import NOT_SHOWN_OFF, ConflictType
from .dice import DiceExpr, parse
from .fiction import Fiction, fiction_of
from .lenses import LENS_TABLE, Lens
from .outcomes import ACTIVE
from .rolls import Modifier
from .rulebook import Armour, Shield, Weapon, rules

DEFAULT_DAMAGE = parse("1d6")  # docs/rules.md §5.2; an obstacle's blow, in every conflict type (§5.4)
UNARMED_DAMAGE = parse("1d3")  # docs/rules.md §6.1: in combat, empty hands use the weapon table's Unarmed
UNARMED_FOCUS = "Unarmed"  # the Combat Focus of empty hands (docs/rules.md §2.2, §6.1)

#: Static opposition by difficulty (docs/rules.md §5.4): Challenge Rating and Pool.
OBSTACLES = {
    "easy": (30, 5),
    "normal": (50, 10),
    "hard": (70, 15),
    "very hard": (90, 20),
}



@dataclass(slots=True)
class Participant:
    id: str
    name: str
    side: str  # "a" (the side that started) or "b"
    char: Character | None = None
    decider: Decider | None = None
    challenge: int | None = None  # a static obstacle's fixed skill
    pool: Pool = field(default_factory=lambda: Pool(10, 10))
    pool_sources: tuple[str, ...] = ()
    uses_lenses: bool = False
    can_push: bool = False
    weapon: Weapon | None = None
    armour: Armour | None = None
    shield: Shield | None = None
    skill: str | None = None
    focuses: tuple[str, ...] = ()
    is_pc: bool = False
    luck_allowed: bool = False
    physical: bool = False  # the conflict is physical: the weapon in hand picks the Combat Focus
    flourishes: tuple[str, ...] | None = None  # the skills a Flamboyant move fits here (None: any but its own)
    #: Those of them that only some Focuses of fit, with those Focuses (:func:`~.conflict_types.flourish_focuses`)
    flourish_focuses: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: No foe of this one's speaks (the mindless dead, beasts, machines): a flashy Social move, a taunt or a
    #: charm, finds nobody to take it in (set by each conflict for its participants: :func:`hear_flourishes`)
    unheard: bool = False
    damage: DiceExpr | None = None  # overrides weapon and default damage (odds checks, creatures)
    gear_on_fists: bool = False  # #Gear adds to the gear table's Unarmed and Martial arts, as before play's edition 8
    bonus: int = 0  # a standing modifier for this conflict, e.g. the NPC's disposition in a social one
    bonus_parts: list[tuple[str, int]] = field(default_factory=list)  # its reasons and their values, as shown
    #: The part of the bonus that goes with who is still in on the other side (a social conflict's disposition,
    #: :func:`solo.npc.disposition.disposition_bonus`): (reason, value), replaced as they leave
    standing: tuple[str, int] | None = None
    fiction: Fiction | None = None  # what the text may say of it beyond the character (solo.rules.fiction)
    # -- state that changes as the conflict goes on
    status: str = ACTIVE
    pushing: bool = False
    carry: int = 0  # modifier for the next round (Covert/Flamboyant)
    clever_next: bool = False
    start_pool: int = 0
    last_lens: str = "none"
    exit_answer: str | None = None  # what the other side said to this NPC's exit (accept, refuse, let_go, chase)
    exits_closed: bool = False  # its surrender was refused or its flight caught: it fights on to the end
    last_foe: str | None = None  # whom it last struck or was struck by (the one asked when it wants out)
    _base: int | None = None  # cached base target; cleared whenever a Pool or gear changes
    _flourish: list[str] | None = None  # cached flamboyant_skills(); cleared with the base target
    # cached rolled_value()s by (the Lens's Focuses, skill); cleared with the base target (a copy starts afresh)
    _rolled: dict[tuple[tuple[str, ...] | None, str], int] | None = field(default=None, init=False, repr=False,
                                                                         compare=False)

    def invalidate(self) -> None:
        self._base = None
        self._flourish = None
        self._rolled = None

    def add_bonus(self, value: int, reason: str) -> None:
        """Add a standing modifier for the conflict (a disposition, a PC assisting): one sum, each reason kept,
        which the roll's target, the Lens menu and the odds all read from here."""
        if not value:
            return
        self.bonus += value
        self.bonus_parts.append((reason, value))  # shown one by one: +20 and -20 cancel in the sum, not on screen

    def set_standing(self, value: int, reason: str | None) -> None:
        """Put the standing modifier (:attr:`standing`) in the place of the last one, or take it off (``reason``
        None or ``value`` 0). New lists, never changed in place: the copies the odds play share the live ones."""
        new = (reason, value) if reason and value else None
        old = self.standing
        if new == old:
            return
        parts = list(self.bonus_parts)
        if old is not None:
            self.bonus -= old[1]
            if old in parts:
                parts.remove(old)
        if new is not None:
            self.bonus += value
            parts.append(new)
        self.bonus_parts = parts
        self.standing = new

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def is_obstacle(self) -> bool:
        return self.char is None

    @property
    def character(self) -> Character:
        """The character behind it: only those with one have deciders, Lenses, Luck and gear to change."""
        if self.char is None:
            raise ValueError(f"{self.name} is an obstacle, not a character")
        return self.char

    @property
    def pronoun(self) -> str:
        """How the engine, the view and the narration all refer to it: the file's word, else the character's."""
        if self.fiction is not None and self.fiction.pronoun:
            return self.fiction.pronoun
        return self.char.pronoun if self.char else "it"

    def base_target(self) -> int:
        """The effective conflict skill before this round's Lens and carried effects (cached)."""
        if self._base is not None:
            return self._base
        if self.char is None:
            value = self.challenge or 0
        else:
            if self.skill is None:
                raise ValueError(f"{self.name} takes part with a character but no conflict skill")
            value = skill_value(self.char, self.skill, self.fitting_focuses())
            if self.pool.current < 0 and not self.char.hurt:  # as _pool_hurts says (inlined: a hot path)
                value += HURT_PENALTY
        self._base = value
        return value

    def base_parts(self) -> tuple[int, list[tuple[str, int]]]:
        """:meth:`base_target` taken apart: the bare conflict skill and the modifiers on it (the same rules).

        The modifiers are the fitting Focus, hurt (a Pool below zero, or the
        combined conflict Pool below zero) and armour that hinders the skill;
        an obstacle has its Challenge Rating and none. ``base_target`` is the
        sum of the two, so what a menu shows and what the dice are rolled
        against come from this one place.
        """
        if self.char is None:
            return self.challenge or 0, []
        if self.skill is None:
            raise ValueError(f"{self.name} takes part with a character but no conflict skill")
        value, mods = skill_target(self.char, self.skill, self.fitting_focuses())
        parts = [(m.name, m.value) for m in mods]
        if self._pool_hurts():
            parts.append((HURT_REASON, HURT_PENALTY))
        return value - sum(m.value for m in mods), parts

    def _pool_hurts(self) -> bool:
        """A combined conflict Pool below zero hurts like a real one (when no real Pool already does)."""
        return self.pool.current < 0 and self.char is not None and not self.char.hurt

    def skill_called(self, ctype: ConflictType) -> str:
        """What the bare number of :meth:`base_parts` is called in a conflict of ``ctype``: the conflict skill, or an
        obstacle's rating; a person standing as one, by its fiction, rolls the skill its side rolls there
        ("Halvard Brekke … Social 35", not "Challenge 35", nor a bare "Skill 35")."""
        if self.char is not None and self.skill:
            return self.skill
        if self.fiction is not None and self.fiction.body in ("flesh", "undead", "animal"):
            return ctype.opposed_by[0] if ctype.opposed_by is not None and self.side == "b" else ctype.skill
        return "Challenge"

    @property
    def weapon_focus(self) -> str:
        """The Combat Focus that fits the weapon in hand (//Unarmed with empty hands)."""
        return self.weapon.focus if self.weapon is not None else UNARMED_FOCUS

    def fitting_focuses(self) -> tuple[str, ...]:
        """The conflict's Focuses that fit what this participant does.

        In a physical conflict the weapon says which Focus of the fighting skill fits
        (docs/rules.md §2.2): a long sword is //Melee, a bow //Ranged, so //Ranged does
        not help the sword. The other Focuses of that skill may still count as similar
        ones, at −20, through :func:`skill_target`. A Focus the conflict type does not
        accept never fits.
        """
        focuses = self.focuses
        if self.physical and self.skill is not None and focuses:
            focus = self.weapon_focus
            if focus in rules().skills[self.skill].focuses:
                return (focus,) if focus in focuses else ()
        return focuses

    def lens_focuses(self, lens: Lens, skill: str) -> tuple[str, ...]:
        """The Focuses of ``skill`` that fit a Lens rolling it instead of the conflict's skill (docs/rules.md §6).

        The book's Focus counts "whenever a skill roll is called for ... unless
        specifically stated" (l.95), and Covert and Flamboyant state nothing: so
        Covert's Cunning takes //Stealth or //Sleight (the Lens's ``focuses``),
        Flamboyant's declared skill the Focuses the conflict names for it (a
        social conflict: Cunning //Gambling or //Sleight, never //Lockpicking),
        or, where it names the skill alone, any Focus of it but //Person, //Circle and
        //Language; and where the rolled skill is the conflict's own (Covert in
        a sneak, against a lock) the conflict's Focuses fit as well.
        """
        shown = lens.focuses
        if shown is None:
            shown = next((fs for s, fs in self.flourish_focuses if s == skill), None) or _shown_off(skill)
        if skill != self.skill:
            return tuple(shown)
        own = self.fitting_focuses()
        return own + tuple(f for f in shown if f not in own)

    def rolled_target(self, lens: Lens, skill: str) -> tuple[int, list[Modifier]]:
        """The effective ``skill`` rolled with ``lens`` (Covert's Cunning, Flamboyant's skill) and its modifiers.

        The one rule for those rolls, before the round's Lens and carried effects:
        the fitting Focus (:meth:`lens_focuses`), hurt, armour, and a combined
        conflict Pool below zero (as :meth:`base_target` counts it). The conflict's
        ``lens_target`` and the NPC minds read it from here.
        """
        value, mods = skill_target(self.character, skill, self.lens_focuses(lens, skill))
        if self._pool_hurts():
            mods.append(Modifier(HURT_REASON, HURT_PENALTY))
            value += HURT_PENALTY
        return value, mods

    def rolled_value(self, lens: Lens, skill: str) -> int:
        """``rolled_target(lens, skill)[0]``, kept like :meth:`base_target` (until :meth:`invalidate`): the
        conflict rolls it every round a Covert or Flamboyant is declared, and the minds read it at every
        declaration."""
        rolled = self._rolled
        if rolled is None:
            rolled = self._rolled = {}
        key = (lens.focuses, skill)  # all of the Lens that lens_focuses reads
        value = rolled.get(key)
        if value is None:
            value = rolled[key] = self.rolled_target(lens, skill)[0]
        return value

    def damage_dice(self, physical: bool) -> DiceExpr:
        if self.damage is not None:
            return self.damage
        if physical and self.char is not None:  # an obstacle's blow is 1d6 even in a fight (§5.4)
            return self.weapon.damage if self.weapon is not None else UNARMED_DAMAGE
        return DEFAULT_DAMAGE

    def armour_against(self, attacker: Participant, ctype: ConflictType) -> int:
        """What this participant's armour takes off ``attacker``'s blows (docs/rules.md §6.1: combat on BODY only).

        Only blows to the conflict Pool: a Covert or Flamboyant blow to POW or
        CHA passes armour by (the caller asks only for conflict-Pool blows).
        """
        if ctype.physical and self.armour is not None and "BODY" in ctype.pools:
            return self.armour.points_against(attacker.weapon)
        return 0

    def takes_side_blows(self, side: str) -> bool:
        """Whether a won Covert or Flamboyant round may send its blow to ``side`` (POW, CHA) of this participant:
        a character with that Pool apart from the conflict's, and a mind for it to work on. The rulebook's
        mindless foes (the draugr, a beast with no Code Block, a machine) have no nerve to shake and no
        composure to lose: a blow to them goes to the conflict's Pool (docs/rulings.md, "A side Pool needs
        a mind"). The one test for the question asked, the Lens menu, the advice and the minds."""
        return self.char is not None and side not in self.pool_sources and not getattr(self.char, "mindless", False)

    @property
    def takes_surrender(self) -> bool:
        """Whether a foe's surrender means anything to this participant: anyone with a mind, and an obstacle (to give
        up on a lock is to walk away from it). A mindless one (the draugr, a beast with no Code Block, a machine)
        cannot take it: "The winch automaton takes Espen's surrender without a word" (a GM's run; docs/rulings.md,
        "A surrender needs someone to take it"). The one test for the exit menus and the proof's ways out."""
        return self.char is None or not getattr(self.char, "mindless", False)

    def opposing_shield(self, opponents: Iterable[Participant], physical: bool) -> Shield | None:
        """The opponent's shield that stands against this participant's kind of weapon (the first one)."""
        if not physical:
            return None
        kind = self.weapon.kind if self.weapon is not None else "melee"
        for o in opponents:
            if o.shield is not None and kind in o.shield.against:
                return o.shield
        return None

    def shield_penalty(self, opponents: Iterable[Participant], physical: bool) -> int:
        """The modifier opponents' shields put on this participant's rolls (0 outside physical conflicts)."""
        shield = self.opposing_shield(opponents, physical)
        return shield.penalty if shield is not None else 0

    def damage_bonus(self, physical: bool) -> int:
        return gear_bonus(self.char, self.weapon, fists=self.gear_on_fists) if physical else 0


def gear_bonus(char: Character | None, weapon: Weapon | None, *, fists: bool = False) -> int:
    """#Gear's +1 to +3 on the damage of ``weapon`` in ``char``'s hand (docs/rulings.md, "The Gear bonus needs a
    weapon"): none with empty hands, whether the gear table names them (its Unarmed and Martial arts, the
    entries //Unarmed fits) or not: the same fists read 1d3+2 in one tool and 1d3 in another (a GM-less table).
    The conflict, the sheet and the NPC card all ask here; ``fists``: those entries take it, as a game of play's
    edition 7 or earlier replays its blows."""
    if char is None or weapon is None or (weapon.focus == UNARMED_FOCUS and not fists) or "Gear" not in char.tags:
        return 0
    return char.gear_bonus


def _shown_off(skill: str) -> tuple[str, ...]:
    """The Focuses of ``skill`` a flashy move may show off (all but :data:`NOT_SHOWN_OFF`), from the rules."""
    t = rules()
    got = _SHOWN_OFF.get(skill)
    if got is None or got[0] is not t:
        got = _SHOWN_OFF[skill] = (t, tuple(f for f in t.skills[skill].focuses if f not in NOT_SHOWN_OFF))
    return got[1]


_SHOWN_OFF: dict[str, tuple[object, tuple[str, ...]]] = {}  # by skill: the rules read, and its Focuses shown off


def shown_pool(current: int, pushing: bool) -> int:
    """A Pool as the player sees it: a blow that takes a Pool below zero leaves it at 0 until its owner pushes
    on (the overflow counts only then, docs/rules.md §5.5), so the conflict's bars, its log and the status line
    show 0 while the push question waits; a pushed Pool shows its value below zero."""
    return current if pushing or current >= 0 else 0


def combined_pool(char: Character, names: tuple[str, ...]) -> Pool:
    """The conflict Pool: one of the character's Pools, or the rounded-up average of two."""
    if len(names) == 1:
        return char.pools[names[0]]
    currents = [char.pools[n].current for n in names]
    maxima = [char.pools[n].maximum for n in names]
    return Pool(math.ceil(sum(maxima) / len(maxima)), math.ceil(sum(currents) / len(currents)))


def settle_sources(char: Character, names: tuple[str, ...], end: int) -> dict[str, int]:
    """After a conflict on a combined Pool, set its two source Pools where the combined one ended.

    The combined Pool is the average of its sources (docs/rules.md §5.3), so
    the sources end where their average is what the combined Pool shows, and
    a combined Pool that was pushed costs its sources what pushing costs a
    single Pool (§5.5, the book's l.407):

    - still above zero: each source loses what the combined Pool lost; a source
      that would fall below zero stops at 0 (one already below zero stays as it
      is) and the other takes the rest, down to 0;
    - at zero (out): both sources end at 0;
    - below zero (pushed): both sources end below zero, each as far down its
      own range as the combined Pool went down its range (rounded towards
      zero, at least −1), so the −20 holds and each climbs back 1 a day; in
      comae both are at their full negative value.

    A source is never raised, and never taken below its full negative value.
    ``end`` is the combined Pool's value at the end. Returns the points each
    source lost (none for a single Pool).
    """
    if len(names) == 1:
        return {}
    sources = [char.pools[n] for n in names]
    before = [s.current for s in sources]
    start = combined_pool(char, names)
    if end > 0:
        lost = start.current - end
        if lost <= 0:
            return {}
        after, short = [], 0  # short: what a source could not take without going below zero
        for v in before:
            if v < 0:  # already below zero: it stays as it is, and the other takes its share
                after.append(v)
                short += lost
            else:
                after.append(max(0, v - lost))
                short += max(0, lost - v)
        for i in sorted(range(len(after)), key=lambda i: -after[i]):
            if after[i] <= 0:
                break
            moved = min(short, after[i])
            after[i] -= moved
            short -= moved
    else:
        after = []
        for v, pool in zip(before, sources):
            floor = 0 if end == 0 else min(-1, -((-end * pool.maximum) // start.maximum))  # ceil, towards 0
            after.append(max(-pool.maximum, min(v, floor)))
    taken = {}
    for name, pool, v, a in zip(names, sources, before, after):
        pool.current = max(-pool.maximum, min(v, a))
        taken[name] = v - pool.current
    return taken


def from_character(
    char: Character,
    side: str,
    ctype: ConflictType,
    *,
    decider: Decider | None = None,
    pid: str | None = None,
    uses_lenses: bool | None = None,
    luck_allowed: bool | None = None,
) -> Participant:
    """A character entering a conflict of ``ctype`` on ``side``.

    PCs use Lenses and Luck; NPCs use Lenses unless Common (docs/rules.md §6).
    """
    t = rules()
    skill, focuses = ctype.skill, ctype.focuses
    if ctype.opposed_by and side == "b":
        skill, focuses = ctype.opposed_by
    pool = combined_pool(char, ctype.pools)
    if uses_lenses is None:  # NPCs know (a recurring Common NPC uses Lenses); PCs always may
        uses_lenses = getattr(char, "uses_lenses", char.level != "common")
    return Participant(
        id=pid or char.name, name=char.name, side=side, char=char, decider=decider,
        pool=pool, pool_sources=ctype.pools, uses_lenses=uses_lenses, can_push=char.can_push,
        weapon=t.weapons.get(char.weapon) if char.weapon else None,
        armour=t.armour.get(char.armour) if char.armour else None,
        shield=t.shields.get(char.shield) if char.shield else None,
        skill=skill, focuses=tuple(focuses), is_pc=char.is_pc, physical=ctype.physical,
        flourishes=ctype.flourish_list, flourish_focuses=ctype.flourish_fits,
        luck_allowed=char.is_pc if luck_allowed is None else luck_allowed,
        start_pool=pool.current,
    )


def may_flourish(p: Participant) -> bool:
    """Whether Flamboyant is on offer to ``p`` here: :func:`flamboyant_skills` is not empty (found without
    ranking them, which a menu that only lists the Lens does not need)."""
    if p._flourish is not None:
        return bool(p._flourish)
    if p.char is None:
        return False
    return next(_shown_off_with(p), None) is not None


def may_give_up(foes: Iterable[Participant], hunts: bool = False) -> bool:
    """Whether a side may give up (surrender) against ``foes``, the one rule the Lens menus, the conflict's frame and
    the proof's ways out ask (docs/rulings.md, "A surrender needs someone to take it"): some foe of it can take a
    surrender (:attr:`Participant.takes_surrender`), or the side gives chase or keeps watch (``hunts``): to give up
    hunting a mindless quarry is to stop, as one walks away from a lock. The caller says which foes count: those
    still in the fight, or those who will take part."""
    return hunts or any(o.takes_surrender for o in foes)


#: The skill whose flourish is words (a taunt, charm, a speech): no flourish against foes none of whom speaks.
SPOKEN_FLOURISH = "Social"


def hear_flourishes(participants: list[Participant]) -> None:
    """Set each participant's :attr:`~Participant.unheard` for this conflict: whether no foe of its speaks (an
    obstacle counts as one that might: the library's Social is the librarian charmed, not the archive). Kept
    with the participant's other cached readings, which it clears where it changes."""
    if not any(p.uses_lenses and (p.flourishes is None or SPOKEN_FLOURISH in p.flourishes) for p in participants):
        return  # nobody here may show off with words (a chase, a lock): whether anyone hears them is moot
    speaks = {"a": False, "b": False}
    for o in participants:
        if o.char is None or fiction_of(o).speaks:
            speaks[o.side] = True
    for p in participants:
        unheard = not speaks["b" if p.side == "a" else "a"]
        if unheard != p.unheard:
            p.unheard = unheard
            p._flourish = None


def _shown_off_with(p: Participant) -> Iterator[str]:
    """The skills ``p`` has that a flashy move fits here, unordered: the conflict's list (or any), never its own
    skill, and no words where no foe hears them."""
    assert p.char is not None
    skills = p.char.skills
    for s in skills if p.flourishes is None else p.flourishes:
        if s in skills and s != p.skill and not (p.unheard and s == SPOKEN_FLOURISH):
            yield s


def flamboyant_skills(p: Participant) -> list[str]:
    """The skills ``p`` may show off with, best first (a fitting Focus counted): those the conflict's type says a
    flashy move fits there (``flamboyant`` in oracles/conflicts.toml, or the adventure's conflict), never its
    own conflict skill.

    The one list the Lens menu offers, the minds choose from and the exact odds price (docs/rulings.md,
    "Flamboyant by the fiction"). Empty: Flamboyant is not on offer in this conflict.
    """
    if p.char is None:
        return []
    # Kept on the participant: what moves a target in a conflict (a wound, a Pool below zero) moves every skill
    # alike, so the order stands until its gear changes (invalidate); a copy, for callers that edit the list.
    order = p._flourish
    if order is None:
        flamboyant = LENS_TABLE["flamboyant"]
        order = p._flourish = sorted(_shown_off_with(p), key=lambda s: -p.rolled_value(flamboyant, s))
    return list(order)


def obstacle(name: str, difficulty: str = "normal", *, side: str = "b", pid: str | None = None,
             challenge: int | None = None, pool: int | None = None, fiction: Fiction | None = None) -> Participant:
    """A static obstacle (a lock, a storm, an archive) by difficulty word or explicit numbers."""
    key = difficulty.strip().lower().replace("_", " ")
    if key not in OBSTACLES and (challenge is None or pool is None):
        raise KeyError(f"unknown obstacle difficulty {difficulty!r} (easy, normal, hard, very hard)")
    listed_cr, listed_size = OBSTACLES.get(key, (0, 0))  # unlisted: both numbers were given
    cr = challenge if challenge is not None else listed_cr
    size = pool if pool is not None else listed_size
    return Participant(id=pid or name, name=name, side=side, challenge=cr, pool=Pool(size, size), start_pool=size,
                       fiction=fiction)
