"""The sequential test of tests/sequential.py, held to the fixed 4-sigma test it replaces.

Exactly, on a Bernoulli with a known chance: the whole distribution of the count is carried from look to
look (the count after each block is the count before plus a binomial), so the chance of failing correct
code, the mean runs and the power against a deviation are sums, not samples. Then ``check`` itself, on
seeded Bernoulli streams: it stops early when the chance is right, fails when it is off, and its shared sum
catches a bias too small for any one case.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import sequential as sq


def _pmf(n: int, p: float) -> np.ndarray:
    k = np.arange(n + 1)
    log_comb = np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in range(n + 1)])
    return np.exp(log_comb + k * math.log(p) + (n - k) * math.log1p(-p))


def _fixed_fails(p0: float, p: float, runs: int) -> float:
    """The old test exactly: the chance that |z| > 4 after ``runs`` Bernoulli(p) draws, z against p0."""
    z = np.array([sq.z_score(k, runs, p0) for k in range(runs + 1)])
    return float(_pmf(runs, p)[np.abs(z) > 4].sum())


def _sequential(p0: float, p: float, runs: int) -> tuple[float, float]:
    """The sequential test exactly (one outcome): its chance of failing, and its mean runs over ``runs``."""
    alive, before, failed, mean = np.array([1.0]), 0, 0.0, 0.0
    for n in sq.looks(runs):
        alive = np.convolve(alive, _pmf(n - before, p))
        before = n
        z = [sq.z_score(k, n, p0) for k in range(n + 1)]
        fail = np.array([sq.fails(x, n / runs) for x in z])
        stop = fail | np.array([sq.settles(x, n / runs) for x in z])
        failed += alive[fail].sum()
        mean += n * alive[stop].sum()
        alive = np.where(stop, 0.0, alive)
    return failed, (mean + before * alive.sum()) / runs


def test_the_rejection_level_spends_the_fixed_tests_false_alarm_by_the_reflection_principle():
    assert 4 * sq._tail(sq.REJECT) == pytest.approx(2 * sq._tail(4.0), rel=1e-9)
    assert 4.16 < sq.REJECT < 4.17
    assert sq.looks(140)[:3] == [9, 18, 27] and sq.looks(140)[-1] == 210 and len(sq.looks(140)) == 24


@pytest.mark.parametrize(("p0", "runs"), [(0.5, 140), (0.3, 400), (0.1, 1500), (0.45, 2000)])
def test_exact_error_rates_are_those_of_the_fixed_test_or_better_at_under_four_tenths_of_its_runs(p0, runs):
    """Correct code: failed less often than by the fixed test (about 3e-5 against 6e-5 to 7e-5), after 0.36 of
    its runs on average. A deviation of 4, 5 or 6 of the fixed test's standard errors either way (4: the size
    each test's docstring names): caught at least as often as the fixed test catches it."""
    failed, mean = _sequential(p0, p0, runs)
    assert failed <= _fixed_fails(p0, p0, runs)
    assert failed < 3.5e-5
    assert mean < 0.4
    se = math.sqrt(p0 * (1 - p0) / runs)
    for theta in (4, 5, 6):
        for p in (p0 - theta * se, p0 + theta * se):
            fixed = _fixed_fails(p0, p, runs)
            caught, _ = _sequential(p0, p, runs)
            assert caught >= fixed, (theta, p, caught, fixed)
    # the documented size: caught in well over half the runs where the fixed test was a coin toss
    assert _sequential(p0, p0 + 4 * se, runs)[0] > 0.6


class _Coin:
    """A seeded Bernoulli stream standing in for a match-up's conflicts: 'won' with chance p, else 'lost'."""

    def __init__(self, p: float, seed: int):
        self.p, self.rng, self.played = p, random.Random(seed), 0

    def __call__(self, n: int) -> dict[str, int]:
        self.played += n
        won = sum(self.rng.random() < self.p for _ in range(n))
        return {"won": won, "lost": n - won}


def _cases(true: list[float], said: list[float], seed: int) -> list[sq.Case]:
    return [sq.Case(f"case {i}", {"won": q, "lost": 1 - q}, _Coin(p, seed + i)) for i, (p, q) in
            enumerate(zip(true, said))]


def test_right_chances_pass_and_stop_early():
    runs = 400
    said = [0.2 + 0.6 * i / 19 for i in range(20)]
    cases = sq.check(_cases(said, said, 1), runs)
    played = [c.runs for c in cases]
    assert all(c.done for c in cases)
    assert sum(played) / len(played) < 0.5 * runs and max(played) <= 1.5 * runs


def test_a_case_off_by_the_documented_deviation_and_more_fails():
    runs = 400
    se = math.sqrt(0.5 * 0.5 / runs)
    for seed in range(5):
        with pytest.raises(AssertionError, match="case 0"):
            sq.check(_cases([0.5 + 6 * se], [0.5], seed), runs)
    # and at exactly four of the fixed test's standard errors, in more of ten seeds than not
    caught = 0
    for seed in range(10):
        try:
            sq.check(_cases([0.5 - 4 * se], [0.5], 100 + seed), runs)
        except AssertionError:
            caught += 1
    assert caught >= 6


def test_a_chance_of_nothing_fails_on_the_first_time_it_happens():
    case = sq.Case("never", {"won": 0.0, "lost": 1.0}, _Coin(0.002, 3))
    with pytest.raises(AssertionError, match="never"):
        sq.check([case], 1000)


def test_the_shared_sum_catches_a_bias_too_small_for_any_one_case():
    """30 cases all off by 6 / sqrt(30) of their own standard errors: each alone is rarely caught, their sum
    (six standard errors of the sum) is; they play in lockstep until it settles."""
    runs, n = 200, 30
    said = [0.3 + 0.4 * i / (n - 1) for i in range(n)]
    true = [q + 6 / math.sqrt(n) * math.sqrt(q * (1 - q) / runs) for q in said]
    sq.check(_cases(true, said, 50), runs)  # no case alone fails
    with pytest.raises(AssertionError, match="all cases summed"):
        sq.check(_cases(true, said, 50), runs, shared=("won",))
    # right chances: the sum settles, and the cases stop early
    cases = sq.check(_cases(said, said, 50), runs, shared=("won", "lost"))
    assert sum(c.runs for c in cases) / n < 0.6 * runs


def test_a_mean_is_held_in_standard_errors_of_its_own_spread():
    """A number each conflict gives (its rounds), stood in for by a die: the right mean settles early, a mean
    off by six of the fixed test's standard errors fails."""

    def die(seed: int):
        rng = random.Random(seed)
        return lambda n: {"rounds": [rng.randint(1, 6) for _ in range(n)]}

    runs = 1000
    se = math.sqrt(35 / 12 / runs)
    (case,) = sq.check([sq.Case("d6", {}, die(1), means={"rounds": 3.5})], runs)
    assert case.done and case.runs < runs
    for seed in range(3):
        with pytest.raises(AssertionError, match="d6"):
            sq.check([sq.Case("d6", {}, die(seed), means={"rounds": 3.5 + 6 * se})], runs)
