"""The six Lenses (and the plain roll), described once (docs/rules.md §6).

Everything that needs to know what a Lens does reads this table: the
conflict engine (targets, damage, what carries into the next round), the
exact odds and the NPC minds' valuation (the same numbers as a Markov
kernel), the Lens menu and the renderers (names and hints). A Lens that is
added or changed here is changed everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple


class Damage(str, Enum):
    """How a round won with a Lens hurts."""

    PLAIN = "plain"  # the damage dice once
    TWICE_KEEP_HIGHER = "twice"  # roll the damage twice, keep the higher
    HALVED = "halved"  # half the damage, rounded up
    NONE = "none"  # no damage this round


@dataclass(frozen=True)
class Lens:
    key: str
    name: str  # what a person reads
    blurb: str  # one line for the Lens menu; "{shift}" stands for the skill shift
    skill_shift: int  # added to the roll's target this round
    damage: Damage
    rolls: str | None = None  # the skill rolled instead of the conflict's: "Cunning", or "secondary" (chosen)
    focuses: tuple[str, ...] | None = None  # the rolled skill's Focuses that fit (None: any it has; §6)
    side_pool: str | None = None  # the other Pool a won round may hit instead of the conflict Pool
    follow_up: bool = False  # an edge next round, whether this round is won or not (a ruling: docs/rulings.md)
    penalty_if_not_won: int = 0  # own next round, when this round is not won
    penalty_on_hit: int = 0  # the target's next round, when this Lens deals the damage
    extra_action: bool = False
    stance: str = "plain"  # what declaring it shows across the table, for the words: "bold", "wary" or "plain"

    @property
    def hint(self) -> str:
        """The Lens menu's line, with the skill shift written from the number the roll uses."""
        return self.blurb.format(shift=f"{self.skill_shift:+d}")


NEXT_ROUND = 20  # the size of every next-round effect: Clever's edge, Covert's and Flamboyant's penalties
CLEVER_BONUS = NEXT_ROUND
NEXT_ROUND_PENALTY = -NEXT_ROUND

#: Covert's Cunning fits these Focuses: sneaking up on a foe, "literally or symbolically" (the book, l.433),
#: is //Stealth, and the hidden hand //Sleight (docs/rulings.md, "Covert and Flamboyant take a fitting Focus").
COVERT_FOCUSES = ("Stealth", "Sleight")

PLAIN = Lens("none", "No Lens", "a plain roll", 0, Damage.PLAIN)


def both_sides(on_hit: int, if_not_won: int) -> str:
    """A Lens's next-round penalty whichever way the round goes, as every menu says it: "won, the foe -20 % next
    round; not won, you -20 %" ("-20 % next round unless won" read as one's own penalty only: a new player)."""
    return f"won, the foe {on_hit} % next round; not won, you {if_not_won} %"


_BOTH_SIDES = both_sides(NEXT_ROUND_PENALTY, NEXT_ROUND_PENALTY)
LENS_TABLE: dict[str, Lens] = {
    lens.key: lens
    for lens in (
        PLAIN,
        Lens("aggressive", "Aggressive", "{shift} %, damage twice, keep the higher", -20, Damage.TWICE_KEEP_HIGHER,
             stance="bold"),
        Lens("cautious", "Cautious", "{shift} %, your blows halved", +20, Damage.HALVED, stance="wary"),
        Lens("clever", "Clever", "no damage now, an edge next round", 0, Damage.NONE, follow_up=True,
             stance="wary"),
        Lens("covert", "Covert", "roll Cunning; hit the Pool or POW; " + _BOTH_SIDES, 0, Damage.PLAIN,
             rolls="Cunning", focuses=COVERT_FOCUSES, side_pool="POW", penalty_if_not_won=NEXT_ROUND_PENALTY,
             penalty_on_hit=NEXT_ROUND_PENALTY, stance="wary"),
        Lens("flamboyant", "Flamboyant", "roll another skill; hit the Pool or CHA; " + _BOTH_SIDES, 0,
             Damage.PLAIN, rolls="secondary", side_pool="CHA", penalty_if_not_won=NEXT_ROUND_PENALTY,
             penalty_on_hit=NEXT_ROUND_PENALTY, stance="bold"),
        Lens("quick", "Quick", "{shift} %, plus one extra action", -20, Damage.PLAIN, extra_action=True,
             stance="bold"),
    )
}

#: The Pools a won round may hit instead of the conflict's (Covert's POW, Flamboyant's CHA).
SIDE_POOLS: tuple[str, ...] = tuple(lens.side_pool for lens in LENS_TABLE.values() if lens.side_pool)

#: Every Lens key, the plain roll first, in menu order.
LENSES: tuple[str, ...] = tuple(LENS_TABLE)
#: The Lenses whose effect is over when the round is: a state-only Markov chain can play them as a policy.
MEMORYLESS: tuple[str, ...] = tuple(
    k for k, lens in LENS_TABLE.items()
    if not (lens.follow_up or lens.rolls or lens.penalty_if_not_won or lens.penalty_on_hit or lens.extra_action))
#: What a person reads for each Lens key (the renderers' column and line).
LENS_NAMES = {k: lens.name for k, lens in LENS_TABLE.items()}


def lens(key: str) -> Lens:
    """The Lens called ``key``; a clear error for anything else."""
    try:
        return LENS_TABLE[key]
    except KeyError:
        raise ValueError(f"unknown Lens {key!r} (known: {', '.join(LENSES)})") from None


#: The two edges of Clever's follow-up (the engine's answers to its question): a declaration that is no Lens.
FOLLOW_SKILL, FOLLOW_DAMAGE = "skill", "damage"
FOLLOW_UPS: tuple[str, str] = (FOLLOW_SKILL, FOLLOW_DAMAGE)


def declared(choice: str) -> Lens:
    """The Lens a declaration counts as: a Clever follow-up edge declares none (the plain roll)."""
    return PLAIN if choice in FOLLOW_UPS else LENS_TABLE[choice]


def strikes(choice: str) -> bool:
    """Whether a round won with this declaration deals a blow (Clever's deals none, so it strikes nobody)."""
    return declared(choice).damage is not Damage.NONE


class RoundEffect(NamedTuple):
    """What a round leaves on one side for the next: added to its roll, and whether its Clever edge is due."""

    carry: int = 0
    follow_up: bool = False


def blow_effect(striker: str) -> int:
    """What a blow dealt with this declaration leaves on the side it struck, for its next round (Covert's and
    Flamboyant's −20, even when armour took the whole blow); 0 for a declaration that deals no blow."""
    got = _BLOW_EFFECTS.get(striker)
    if got is None:
        got = _BLOW_EFFECTS[striker] = declared(striker).penalty_on_hit if strikes(striker) else 0
    return got


_BLOW_EFFECTS: dict[str, int] = {}  # blow_effect by declaration: read at every blow the engine deals


def blow_amount(rolled: int, bonus: int, armour: int, lens: Lens) -> int:
    """What a blow takes from the Pool struck, in the ruled order (docs/rules.md §5.2, §6.1): the dice
    (``rolled``, already twice-keep-higher for Aggressive), plus the weapon's bonus, minus armour, never
    below 0, then halved, rounded up, for a Lens that halves its blows (Cautious)."""
    amount = rolled + bonus - armour
    if amount < 0:
        amount = 0
    if lens.damage is Damage.HALVED:
        amount = (amount + 1) // 2
    return amount


def round_effects(choice: str, *, won: bool, struck_by: str | None = None) -> RoundEffect:
    """What one round leaves on a side that declared ``choice`` (a Lens, or a Clever edge), for its next round.

    The one place the table's next-round columns are read (docs/rules.md §6):
    its own Lens's (Clever's edge, due won or not; Covert's and Flamboyant's
    −20 when the round was not won) plus the penalty of the blow that struck it
    (``struck_by``, the winner's declaration: :func:`blow_effect`). The
    conflict engine sets the first part when a round is resolved and adds the
    second when the blow is dealt; the Lens chain and the minds' look-ahead
    take both at once. Penalties add up: a side struck by a Covert win after
    its own Covert round was not won carries −40.
    """
    if struck_by is None:  # its own Lens's part alone: what the engine asks at every round of every decider
        got = _OWN_EFFECTS.get((choice, won))
        if got is not None:
            return got
    own = declared(choice)
    carry = 0 if (own.follow_up or won) else own.penalty_if_not_won
    if struck_by is not None:
        carry += blow_effect(struck_by)
        return RoundEffect(carry, own.follow_up)
    got = _OWN_EFFECTS[choice, won] = RoundEffect(carry, own.follow_up)  # read only (a named tuple)
    return got


_OWN_EFFECTS: dict[tuple[str, bool], RoundEffect] = {}  # round_effects without a blow, by (choice, won)
