"""The words a conflict ends and a participant leaves with, named once.

They are plain strings (they travel in events, saves and JSON reports), but
code names them through these constants so that a typo is an import error,
not a branch that never runs.
"""

from __future__ import annotations

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
