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
    side_pool: str | None = None  # the other Pool a won round may hit instead of the conflict Pool
    follow_up: bool = False  # an edge next round, whether this round is won or not (a ruling: docs/rulings.md)
    penalty_if_not_won: int = 0  # own next round, when this round is not won
    penalty_on_hit: int = 0  # the target's next round, when this Lens deals the damage
    extra_action: bool = False

    @property
    def hint(self) -> str:
        """The Lens menu's line, with the skill shift written from the number the roll uses."""
        return self.blurb.format(shift=f"{self.skill_shift:+d}")


NEXT_ROUND = 20  # the size of every next-round effect: Clever's edge, Covert's and Flamboyant's penalties
CLEVER_BONUS = NEXT_ROUND
NEXT_ROUND_PENALTY = -NEXT_ROUND

PLAIN = Lens("none", "No Lens", "a plain roll", 0, Damage.PLAIN)
LENS_TABLE: dict[str, Lens] = {
    lens.key: lens
    for lens in (
        PLAIN,
        Lens("aggressive", "Aggressive", "{shift} %, damage twice, keep the higher", -20, Damage.TWICE_KEEP_HIGHER),
        Lens("cautious", "Cautious", "{shift} %, your blows halved", +20, Damage.HALVED),
        Lens("clever", "Clever", "no damage now, an edge next round", 0, Damage.NONE, follow_up=True),
        Lens("covert", "Covert", "roll Cunning; hit the Pool or POW; -20 % next round unless won", 0, Damage.PLAIN,
             rolls="Cunning", side_pool="POW", penalty_if_not_won=NEXT_ROUND_PENALTY,
             penalty_on_hit=NEXT_ROUND_PENALTY),
        Lens("flamboyant", "Flamboyant", "roll another skill; hit the Pool or CHA; -20 % next round unless won", 0,
             Damage.PLAIN, rolls="secondary", side_pool="CHA", penalty_if_not_won=NEXT_ROUND_PENALTY,
             penalty_on_hit=NEXT_ROUND_PENALTY),
        Lens("quick", "Quick", "{shift} %, plus one extra action", -20, Damage.PLAIN, extra_action=True),
    )
}

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
