"""A sequential test of sampled frequencies against exact chances: play in blocks, stop once it is settled.

WHY. The statistical tests play thousands of seeded conflicts through the engine and hold each outcome's
frequency to the chance the exact code (the Lens chain, conflict_odds) gives: four standard errors at a
fixed number of runs N. Most of those runs are spent on correct code that was settled long before the
N-th: a frequency two standard errors from its chance at N/3 will not wander to a 4-sigma deviation.
This module plays the same seeded conflicts in blocks and stops as soon as the evidence settles the
question either way, with error rates no worse than the fixed test's (numbers below; tests/test_sequential.py
works them out exactly on a Bernoulli).

THE STATISTIC is the fixed test's: z = (count - n p) / sqrt(n p (1 - p)), after n runs, one for each
outcome of each case. Time is counted in units of the fixed test's runs, t = n / N; a deviation of the
true chance from p by theta standard errors *of the fixed test* (theta = 4: the "four standard errors are
at most 0.17 a pair" of a docstring) drifts z by theta * sqrt(t). B = z * sqrt(t) is (nearly) a Brownian
motion with drift theta: the normal approximation the 4-sigma test already rests on.

THE DESIGN (a group-sequential test with an O'Brien-Fleming rejection boundary and a non-binding futility
boundary):

* Looks after every N/16 runs (``LOOKS``), at most 1.5 N runs (``LONGEST``): 24 looks.
* Fail at a look when |z| >= REJECT * sqrt(1.5 / t): a constant |B| >= 4.161 * sqrt(1.5) on the Brownian
  scale. By the reflection principle, P(max over 0 <= t <= 1.5 of |B| >= c sqrt(1.5)) <= 4 Q(c) for any
  looks at all; with Q(4.161) = Q(4) / 2 that is 2 Q(4) = 6.3e-5, the fixed 4-sigma test's false alarm,
  as an upper bound (discrete looks give about 3e-5). At t = 1.5 the bar is |z| >= 4.161, at t = 1 it is 5.1.
* Settle (pass) an outcome at a look from t >= 1/4 on when |z| <= 4.5 sqrt(t) - 1.75: its frequency is
  1.75 standard errors nearer its chance than a deviation of 4.5 standard errors of the fixed test would
  put it. Once settled an outcome stays settled; a case stops when all its outcomes have settled.
  The boundary is non-binding: the false alarm bound above ignores it, so playing on (for another outcome,
  or for a shared check) never raises it; and an outcome that plays on past its own settling only gains
  power, so each outcome's power is at least that of the design alone.

OPERATING CHARACTERISTICS (Brownian model, 200,000 paths; exactly on a Bernoulli in tests/test_sequential.py)
for one outcome, theta the true deviation in standard errors of the fixed test at N:

    theta                       0      3      4      5      6      7      8
    fails, fixed 4-sigma test   6e-5   0.159  0.500  0.841  0.977  0.9987 0.99997
    fails, this design          <6e-5  0.256  0.673  0.925  0.987  0.998  0.9997
    mean runs / N, passing      0.36

So correct code costs about a third of the fixed test (0.39 for a case with two outcomes as correlated
as won and lost; more with more outcomes, all of which must settle), and a deviation of the documented
size (theta = 4) is caught with probability 0.67 instead of 0.5, theta = 5 and 6 more often too. Only far
beyond the documented size (theta >= 7, where both are all but certain) does the early settling cost about
one in a thousand.

A SHARED CHECK (``shared``): the fixed tests also sum the z of many cases (a bias all 49 Lens pairs share
shows in the sum long before in one pair). Here every case plays in lockstep, the same runs, until each
shared sum sum(z) / sqrt(cases) has settled by the same boundaries: with equal runs it is itself a
standardised sum of independent Brownian motions, so the same numbers hold for it; after that each case
plays on alone until its own outcomes settle.

Seeds stay fixed: each case's ``play`` draws on from its own seeded generator, block after block, so a
run is as deterministic as the fixed test was.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: looks per the fixed test's runs N, and the most runs played, in units of N
LOOKS = 16
LONGEST = 1.5
#: the design deviation (standard errors of the fixed test) and the margin the futility boundary keeps from it
DESIGN_THETA = 4.5
MARGIN = 1.75
#: no outcome settles before this share of N (an early settling would cost power against large deviations)
FIRST_SETTLE = 0.25


def _tail(x: float) -> float:
    """Q(x) = P(Z > x) for a standard normal Z."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def _reject_level() -> float:
    """c with Q(c) = Q(4) / 2: then 4 Q(c), the reflection-principle bound, is the fixed test's 2 Q(4)."""
    lo, hi = 4.0, 5.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _tail(mid) > _tail(4.0) / 2 else (lo, mid)
    return hi


#: |z| at the last look (t = LONGEST) that fails; earlier looks need |z| >= REJECT * sqrt(LONGEST / t)
REJECT = _reject_level()


def z_score(count: int, runs: int, p: float) -> float:
    """How many standard errors the frequency is from the exact chance (a chance of 0 or 1: any miss is far)."""
    se = math.sqrt(max(p * (1 - p), 1e-12) / runs)
    return (count / runs - p) / se


def fails(z: float, t: float) -> bool:
    """Past the rejection boundary at information time t = runs / N."""
    return abs(z) >= REJECT * math.sqrt(LONGEST / t)


def settles(z: float, t: float) -> bool:
    """Inside the futility boundary at t = runs / N: near enough its chance to stop playing."""
    return t >= FIRST_SETTLE - 1e-12 and abs(z) <= DESIGN_THETA * math.sqrt(t) - MARGIN


def looks(runs: int) -> list[int]:
    """The cumulative runs at each look for a fixed test of ``runs``: N/16, 2N/16, ... up to 1.5 N."""
    return [math.ceil(k * runs / LOOKS) for k in range(1, int(LONGEST * LOOKS) + 1)]


@dataclass
class Case:
    """One match-up: the exact chance of each outcome, and a player of more seeded conflicts.

    ``play(n)`` plays n more conflicts, drawing on from where the last call left its generator, and returns
    how many ended in each outcome (outcomes not named count 0). ``means`` are exact means of a number each
    conflict gives (its rounds): for each, ``play`` returns the n numbers under its name, and their mean is
    held to it in standard errors of the sample's own spread, as the fixed tests did."""

    name: str
    chances: Mapping[str, float]
    play: Callable[[int], Mapping[str, Any]]
    means: Mapping[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    sums: dict[str, tuple[float, float]] = field(default_factory=dict)
    runs: int = 0
    settled: set[str] = field(default_factory=set)

    def more(self, target: int) -> None:
        got = self.play(target - self.runs)
        for outcome in self.chances:
            self.counts[outcome] = self.counts.get(outcome, 0) + got.get(outcome, 0)
        for key in self.means:
            total, squares = self.sums.get(key, (0.0, 0.0))
            self.sums[key] = (total + math.fsum(got[key]), squares + math.fsum(x * x for x in got[key]))
        self.runs = target

    def z(self, outcome: str) -> float:
        if outcome in self.means:
            total, squares = self.sums[outcome]
            mean, n = total / self.runs, self.runs
            spread = max(squares - n * mean * mean, 0.0) / (n - 1)
            return (mean - self.means[outcome]) / math.sqrt(max(spread, 1e-12) / n)
        return z_score(self.counts[outcome], self.runs, self.chances[outcome])

    @property
    def done(self) -> bool:
        return self.settled >= {*self.chances, *self.means}


def check(cases: Sequence[Case], runs: int, shared: Sequence[str] = ()) -> list[Case]:
    """Play ``cases`` in blocks against their chances; raise AssertionError on a frequency past the boundary.

    ``runs`` is the fixed test's N, whose error rates this keeps (see the module's docstring); ``shared``
    names outcomes whose z are also summed over all cases, checked as one more statistic. Returns the cases,
    with the runs each played and its counts."""
    open_shared = set(shared)
    for target in looks(runs):
        t = target / runs
        playing = list(cases) if open_shared else [c for c in cases if not c.done]
        if not playing:
            break
        far = []
        for case in playing:
            case.more(target)
            for outcome in (*case.chances, *case.means):
                z = case.z(outcome)
                if fails(z, t):
                    far.append((case.name, outcome, case.counts.get(outcome, "mean"), case.runs,
                                round({**case.chances, **case.means}[outcome], 4), round(z, 2)))
                elif outcome not in case.settled and settles(z, t):
                    case.settled.add(outcome)
        for outcome in sorted(open_shared):
            total = sum(c.z(outcome) for c in cases) / math.sqrt(len(cases))
            if fails(total, t):
                far.append(("all cases summed", outcome, None, target, None, round(total, 2)))
            elif settles(total, t):
                open_shared.discard(outcome)
        assert not far, f"after {target} runs (fixed test: {runs}), beyond {REJECT * math.sqrt(LONGEST / t):.2f} " \
                        f"standard errors: {far}"
    return list(cases)
