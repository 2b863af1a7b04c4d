"""How sure a number from play is: the standard errors that every sampled share and mean is shown with.

A number from dice played many times is an estimate; the guide's rule is that it says so with its ±. These are
the one home of those spreads for the commands that play conflicts to count them (``solo odds --simulate``,
``solo duel``), so the two cannot say one mean's spread two ways.
"""

from __future__ import annotations

import math

__all__ = ["share_error", "mean_error"]


def share_error(p: float, runs: int) -> float:
    """One standard error of a share ``p`` of ``runs`` conflicts, at least that of one conflict in them (a share of
    0 or 1 is no certainty)."""
    return math.sqrt(max(p * (1 - p), 1.0 / runs) / runs)


def mean_error(total: float, squares: float, runs: int) -> float:
    """One standard error of a mean over ``runs`` samples, from their sum and the sum of their squares (0 with
    fewer than two: one sample has no spread to tell)."""
    if runs < 2:
        return 0.0
    mean = total / runs
    variance = max(0.0, (squares - runs * mean * mean) / (runs - 1))
    return math.sqrt(variance / runs)
