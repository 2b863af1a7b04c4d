"""The exact chances shown to a player before they pick a Lens (no other solo tool does this).

For a one-against-one conflict (and only then: with allies or several
opponents a single fighter's odds would mislead) the odds engine computes, from the current
Pools, the chance of winning if the player keeps each of None, Aggressive and
Cautious every round while the opponent makes plain rolls, within the rounds
the scene has left. The other Lenses depend on what happens next round, so
they get no number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.lenses import MEMORYLESS
from ..rules.odds import conflict_odds

if TYPE_CHECKING:
    from ..rules.conflict_view import ConflictView
    from ..rules.participants import Participant


def lens_advice(conflict: ConflictView, participant: Participant) -> dict[str, str]:
    """{Lens: its chance to win, in words} for ``participant``; nothing where a number would mislead."""
    opponents = conflict.opponents(participant)
    allies = [p for p in conflict.active(participant.side) if p is not participant]
    if len(opponents) != 1 or allies or participant.pool.current < 1 or opponents[0].pool.current < 1:
        return {}  # the exact odds are one against one; a number for a group fight would mislead
    other = opponents[0]
    ctype = conflict.ctype
    physical = ctype.physical
    left = None
    if conflict.round_limit is not None:
        left = max(1, min(40, conflict.round_limit - conflict.round + 1))
    out = {}
    for lens in MEMORYLESS:
        try:
            odds = conflict_odds(
                participant.base_target() + participant.bonus + participant.carry, participant.pool.current,
                other.base_target() + other.bonus + other.carry, other.pool.current,
                damage_a=str(participant.damage_dice(physical)), damage_b=str(other.damage_dice(physical)),
                bonus_a=participant.damage_bonus(physical), bonus_b=other.damage_bonus(physical),
                armour_a=participant.armour_against(other, ctype), armour_b=other.armour_against(participant, ctype),
                lens_a=lens, round_limit=left,
            )
        except ValueError:  # beyond what the exact odds handle (a Pool over 200 …): no number, not no game
            return {}
        undecided = f", {odds.never_ends:.0%} undecided" if odds.never_ends >= 0.005 else ""  # at the round limit
        out[lens] = f"{odds.a_wins:.0%} to win{undecided}"
    return out
