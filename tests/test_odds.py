"""Exact conflict odds: checked against enumeration, and against the engine by simulation (the sequential test
of tests/sequential.py, with the error rates of four standard errors at the runs named)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from sequential import Case, check

from solo.cli import cli
from solo.rules.conflict import Conflict
from solo.rules.matchup import _MATCHUP, Side, fighter, frequencies
from solo.rules.odds import conflict_odds, damage_distribution, round_odds
from solo.rules.rolls import judge


@pytest.mark.parametrize("ta,tb", [(50, 50), (65, 30), (0, 50), (120, 99), (99, 100), (-10, -5), (30, 90)])
def test_round_odds_equal_full_enumeration(ta, tb):
    a = b = 0
    for x in range(1, 101):
        for y in range(1, 101):
            rx, ry = judge(x, ta), judge(y, tb)
            sx = x if rx.success else -1
            sy = y if ry.success else -1
            if sx > sy:
                a += 1
            elif sy > sx:
                b += 1
    r = round_odds(ta, tb)
    assert r.a == pytest.approx(a / 10000, abs=1e-12)
    assert r.b == pytest.approx(b / 10000, abs=1e-12)
    assert r.stalemate == pytest.approx(1 - (a + b) / 10000, abs=1e-12)


def test_damage_distributions_are_exact():
    assert dict(damage_distribution("1d6", "none")) == pytest.approx({v: 1 / 6 for v in range(1, 7)})
    agg = dict(damage_distribution("1d6", "aggressive"))
    assert agg == pytest.approx({v: (2 * v - 1) / 36 for v in range(1, 7)})
    cautious = dict(damage_distribution("1d6", "cautious"))
    assert cautious == pytest.approx({1: 2 / 6, 2: 2 / 6, 3: 2 / 6})
    armoured = dict(damage_distribution("1d6", "none", bonus=1, armour=4))
    assert armoured == pytest.approx({0: 3 / 6, 1: 1 / 6, 2: 1 / 6, 3: 1 / 6})


def test_symmetric_match_is_even_and_one_pool_one_blow():
    odds = conflict_odds(50, 10, 50, 10)
    assert odds.a_wins == pytest.approx(0.5, abs=1e-12)
    one = conflict_odds(40, 1, 60, 1)
    r = round_odds(40, 60)
    assert one.a_wins == pytest.approx(r.a / (r.a + r.b))
    assert one.expected_rounds == pytest.approx(1 / (r.a + r.b))


def test_odds_rise_with_skill_and_pool():
    base = conflict_odds(50, 10, 50, 10).a_wins
    assert conflict_odds(60, 10, 50, 10).a_wins > base
    assert conflict_odds(50, 12, 50, 10).a_wins > base
    assert conflict_odds(50, 10, 50, 10, armour_a=2).a_wins > base


def test_armour_that_stops_everything_never_ends():
    odds = conflict_odds(50, 5, 50, 5, damage_a="1d4", damage_b="1d4", armour_a=4, armour_b=4)
    assert odds.never_ends == pytest.approx(1.0)


def test_state_dependent_policy():
    def policy(own, other):
        return "cautious" if own * 2 <= other else "aggressive"

    odds = conflict_odds(50, 20, 50, 20, lens_b=policy)
    assert 0 < odds.a_wins < 1
    assert odds.round == round_odds(50, 30)  # B starts Aggressive at full Pool
    with pytest.raises(ValueError):
        conflict_odds(50, 5, 50, 5, lens_a="clever")
    with pytest.raises(ValueError):
        conflict_odds(50, 0, 50, 5)


SETTINGS = [
    (Side(50, 10), Side(50, 10)),
    (Side(65, 12, "1d8", 0, "aggressive"), Side(50, 14, "1d6", 2, "cautious")),
    (Side(40, 8, "1d4+1", 0, "cautious"), Side(70, 6, "1d10", 2, "none")),
    (Side(80, 6, "2d4", 4, "none"), Side(55, 16, "1d6", 0, "aggressive")),
    (Side(30, 15, "1d6", 0, "aggressive"), Side(45, 9, "1d3", 0, "aggressive")),
]
# Setting 1 tries the most rules at once (both Lens damage modes, armour, unequal dice, Pools and
# skills). At the error rates of 4,000 runs four standard errors of A's chance are 0.028: a Pool off by one moves it
# 0.033, a point of armour 0.105, either Lens ignored 0.11 or more. The other settings, at 5,000
# runs each (four standard errors at most 0.028 too), are the slow part. Setting 4 (low skills, both
# Aggressive) stalls for many rounds per conflict, so it plays 2,000 (four standard errors 0.045).
STRONGEST = 1
SLOW_RUNS = {4: 2000}
ENGINE_RUNS = [(STRONGEST, 4000)] + [pytest.param(i, SLOW_RUNS.get(i, 5000), marks=pytest.mark.slow)
                                     for i in range(len(SETTINGS)) if i != STRONGEST]


def _play(a: Side, b: Side, runs: int, seed: int, round_limit: int | None = None) -> tuple[Counter, list[int]]:
    """Outcomes and rounds of conflicts through the real engine, one by one, for honest error bars."""
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    rounds = []
    for _ in range(runs):
        result = Conflict(_MATCHUP, [fighter("A", "a", a), fighter("B", "b", b)], rng, round_limit=round_limit).run()
        outcomes[result.outcome] += 1
        rounds.append(result.rounds)
    return outcomes, rounds


def _player(a: Side, b: Side, seed: int, round_limit: int | None = None):
    """play(runs): the outcomes of ``runs`` more conflicts, and their rounds, drawing on from one seeded generator."""
    rng = random.Random(seed)

    def play(runs: int) -> dict:
        outcomes: Counter = Counter()
        rounds = []
        for _ in range(runs):
            result = Conflict(_MATCHUP, [fighter("A", "a", a), fighter("B", "b", b)], rng,
                              round_limit=round_limit).run()
            outcomes[result.outcome] += 1
            rounds.append(result.rounds)
        assert set(outcomes) <= {"won", "lost", "stalemate"}
        return {**outcomes, "rounds": rounds}

    return play


def test_frequencies_count_the_engine_runs():
    a, b = SETTINGS[STRONGEST]
    outcomes, rounds = _play(a, b, 300, 1000)
    freq = frequencies(a, b, 300, random.Random(1000))
    assert freq["counts"] == dict(outcomes)
    assert freq["a_wins"] == outcomes["won"] / 300 and freq["b_wins"] == outcomes["lost"] / 300
    assert freq["mean_rounds"] == sum(rounds) / 300


@pytest.mark.parametrize("index,runs", ENGINE_RUNS)
def test_engine_agrees_with_exact_odds_within_4_standard_errors(index, runs):
    a, b = SETTINGS[index]
    odds = conflict_odds(a.skill, a.pool, b.skill, b.pool, damage_a=a.damage, damage_b=b.damage,
                         armour_a=a.armour, armour_b=b.armour, lens_a=a.lens, lens_b=b.lens)
    # A's wins; nothing ends undecided; the mean number of rounds, against the standard error of the sample's own
    # spread
    (case,) = check([Case(f"setting {index}", {"won": odds.a_wins, "stalemate": 0.0}, _player(a, b, 1000 + index),
                          means={"rounds": odds.expected_rounds})], runs)
    assert case.counts["stalemate"] == 0


def test_cli_json_keys_and_errors():
    runner = CliRunner()
    result = runner.invoke(cli, ["odds", "--skill-a", "60", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10",
                                 "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert {"a_wins", "b_wins", "expected_rounds", "round"} <= set(data)
    assert set(data["round"]) == {"a", "b", "stalemate"}
    result = runner.invoke(cli, ["odds", "--skill-a", "60", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10",
                                 "--simulate", "200", "--json"])
    data = json.loads(result.output)
    assert data["simulation"]["runs"] == 200 and data["simulation"]["conflicts_per_second"] > 0
    # in words, the engine's shares are sampled and say so with their ±, and no benchmark's "conflicts/s" (a group's
    # evening read it as a debug line)
    told = runner.invoke(cli, ["odds", "--skill-a", "60", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10",
                               "--simulate", "400", "--seed", "2"]).output.splitlines()[-1]
    share = json.loads(runner.invoke(cli, ["odds", "--skill-a", "60", "--pool-a", "10", "--skill-b", "50", "--pool-b",
                                           "10", "--simulate", "400", "--seed", "2", "--json"]).output)["simulation"]
    err = 100 * (share["a_wins"] * (1 - share["a_wins"]) / 400) ** 0.5
    assert told.startswith("The engine played 400 conflicts: ") and "conflicts/s" not in told
    assert f"A won {share['a_wins']:.2%} ± {err:.2f}" in told and "(± one standard error)" in told
    for bad in (["--pool-a", "-3"], ["--lens-a", "sneaky"], ["--damage-a", "2x"], ["--armour-b", "-1"]):
        args = ["odds", "--skill-a", "60", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10"]
        for i in range(0, len(bad), 2):
            if bad[i] in args:
                args[args.index(bad[i]) + 1] = bad[i + 1]
            else:
                args += bad[i:i + 2]
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, bad


def test_round_limit_turns_the_rest_into_stalemate():
    free = conflict_odds(50, 8, 50, 8)
    for limit in (1, 3, 10):
        limited = conflict_odds(50, 8, 50, 8, round_limit=limit)
        assert limited.a_wins + limited.b_wins + limited.never_ends == pytest.approx(1.0)
        assert limited.a_wins <= free.a_wins + 1e-12
    assert conflict_odds(50, 8, 50, 8, round_limit=1).a_wins == 0.0  # 1d6 cannot take 8 in one blow
    one = conflict_odds(60, 1, 40, 1, round_limit=1)
    assert one.a_wins == pytest.approx(round_odds(60, 40).a)
    long = conflict_odds(50, 6, 55, 7, damage_a="1d8", round_limit=400)
    assert long.a_wins == pytest.approx(conflict_odds(50, 6, 55, 7, damage_a="1d8").a_wins, abs=1e-9)


@pytest.mark.parametrize("runs", [4000, pytest.param(20000, marks=pytest.mark.slow)])
def test_round_limit_agrees_with_the_engine(runs):
    odds = conflict_odds(45, 8, 50, 9, round_limit=5)
    check([Case("5 rounds at most", {"won": odds.a_wins, "lost": odds.b_wins, "stalemate": odds.never_ends},
                _player(Side(45, 8), Side(50, 9), 77, round_limit=5))], runs)
