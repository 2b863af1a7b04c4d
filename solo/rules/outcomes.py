"""The words a conflict ends and a participant leaves with, named once.

They are plain strings (they travel in events, saves and JSON reports), but
code names them through these constants so that a typo is an import error,
not a branch that never runs. And how a conflict ends, worked out once
(:func:`ending_of`).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

# -- a participant's status in a conflict
ACTIVE = "in"
OUT = "out"
COMAE = "comae"
FLED = "fled"
SURRENDERED = "surrendered"

# -- the two ways out that a participant may declare instead of a Lens
FLEE = "flee"
SURRENDER = "surrender"
EXITS = (FLEE, SURRENDER)

# -- how a conflict ends, from one side's point of view
WON = "won"
LOST = "lost"
OPPONENT_FLED = "opponent_fled"
OPPONENT_SURRENDERED = "opponent_surrendered"
STALEMATE = "stalemate"
OUTCOMES = (WON, LOST, FLED, SURRENDERED, OPPONENT_FLED, OPPONENT_SURRENDERED, COMAE, STALEMATE)

#: The same ending seen from the other side.
MIRROR = {
    WON: LOST, LOST: WON, FLED: OPPONENT_FLED, OPPONENT_FLED: FLED,
    SURRENDERED: OPPONENT_SURRENDERED, OPPONENT_SURRENDERED: SURRENDERED,
    COMAE: WON, STALEMATE: STALEMATE,
}

#: The statuses of one who went down (as against one who left by a way out).
DOWN = frozenset({OUT, COMAE})


def ending_of(statuses: AbstractSet[str], party: bool) -> str:
    """How a conflict ends, seen from the party, once one side has all left it: ``statuses``, those its members
    left with (out, comae, fled, surrendered); ``party``, whether that side is the party. Anyone of it down makes
    it a win (or a loss: comae where every one of the party is in comae); else anyone who gave up a surrender, and
    running alone a flight. The conflict ends so, and the narrator reads an ending the same way."""
    if not party:
        if statuses & DOWN:
            return WON
        return OPPONENT_SURRENDERED if SURRENDERED in statuses else OPPONENT_FLED
    if statuses == {COMAE}:
        return COMAE
    if statuses & DOWN:
        return LOST
    return SURRENDERED if SURRENDERED in statuses else FLED
