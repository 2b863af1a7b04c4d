"""How sure a number from play is: the standard errors that every sampled share and mean is shown with.

A number from dice played many times is an estimate; the guide's rule is that it says so with its ±. These are
the one home of those spreads for the commands that play conflicts to count them (``solo odds --simulate``,
``solo duel``, ``solo simulate``), so no two of them can say one spread two ways.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = ["Z95", "wilson", "share_error", "mean_error", "clustered_share_error", "error_digits", "add_cluster",
           "cluster_errors"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def error_digits(error: float, places: int) -> str:
    """A standard error written at ``places`` decimals, or to one significant figure where that would show none:
    never "± 0.0", which reads as exact (a review of solo simulate's means)."""
    shown = places
    while f"{error:.{shown}f}".strip("0.") == "" and shown < 6:
        shown += 1
    return f"{error:.{shown}f}"


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


def clustered_share_error(part: float, part_sq: float, cross: float, whole: float, whole_sq: float,
                          clusters: int) -> float:
    """One standard error of a share ``part / whole`` counted in clusters, such as the Lenses an NPC declared,
    shared over every round of many conflicts: the rounds of one conflict are not independent tries (a mind that
    leans Clever leans so all fight long), so a binomial spread over rounds would claim too much. From each
    conflict's own counts, summed: ``part`` (x), ``part_sq`` (x²), ``cross`` (x·m), ``whole`` (m), ``whole_sq``
    (m²), the ratio estimator's linearised variance N/(N-1)·Σ(x - p·m)²/(Σm)² (0 with fewer than two)."""
    if clusters < 2 or whole <= 0:
        return 0.0
    p = part / whole
    spread = max(0.0, part_sq - 2 * p * cross + p * p * whole_sq)
    # at least one declaration's worth: a share of none or of all is no certainty (as share_error holds it)
    return max(math.sqrt(clusters / (clusters - 1) * spread) / whole, 1.0 / whole)


def add_cluster(sums: dict, counts: Mapping[str, int]) -> None:
    """Fold one cluster's counts (one conflict's Lens declarations) into ``sums``, the sums
    :func:`clustered_share_error` reads: x² and x·m of each key (``part_sq``, ``cross``), m² (``whole_sq``) and the
    clusters counted (``clusters``). ``solo duel`` and ``solo simulate`` keep theirs so, and merge them by adding."""
    m = sum(counts.values())
    squares, cross = sums.setdefault("part_sq", {}), sums.setdefault("cross", {})
    for key, x in counts.items():
        squares[key] = squares.get(key, 0) + x * x
        cross[key] = cross.get(key, 0) + x * m
    sums["whole_sq"] = sums.get("whole_sq", 0) + m * m
    sums["clusters"] = sums.get("clusters", 0) + 1


def cluster_errors(counts: Mapping[str, int], sums: Mapping) -> dict[str, float]:
    """One standard error of each key's share of ``counts``, from the sums :func:`add_cluster` kept."""
    whole = sum(counts.values())
    return {key: clustered_share_error(x, sums.get("part_sq", {}).get(key, 0), sums.get("cross", {}).get(key, 0),
                                       whole, sums.get("whole_sq", 0), sums.get("clusters", 0))
            for key, x in counts.items()}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` tries (95 % by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
