"""How sure a number from play is: the standard errors that every sampled share and mean is shown with.

A number from dice played many times is an estimate; the guide's rule is that it says so with its ±. These are
the one home of those spreads for the commands that play conflicts to count them (``solo odds --simulate``,
``solo duel``, ``solo simulate``), so no two of them can say one spread two ways.
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson", "share_error", "mean_error"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


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


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` tries (95 % by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
