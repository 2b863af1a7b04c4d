"""Minds by nature in group fights (issue 33, measured by benchmarks/band_minds.py).

Draugr (mindless) strike the foe their blows drop soonest and keep on it until it falls; living
bandits check their nerve by numbers and, outnumbered, run, bargain or give up rather than fight.
Every figure comes from seeded group combats through the real engine.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).parents[1] / "benchmarks" / "band_minds.py"
spec = importlib.util.spec_from_file_location("band_minds", BENCHMARK)
band_minds = importlib.util.module_from_spec(spec)
spec.loader.exec_module(band_minds)


@pytest.fixture(scope="module")
def draugr():
    return band_minds.measure_draugr(80)


def test_draugr_pick_the_weakest_at_least_twice_as_often_as_chance(draugr):
    assert draugr.choices >= 300  # enough choices between foes to count
    assert draugr.chance_share < 0.5  # a blind pick would find the weakest less than half the time …
    assert draugr.weakest_share >= 2 * draugr.chance_share  # … the draugr at least twice as often


def test_draugr_swarm_the_foe_they_struck_last_and_never_break(draugr):
    assert draugr.followed_chances >= 100
    assert draugr.followed / draugr.followed_chances >= 0.9
    assert draugr.exits["fled"] == draugr.exits["surrendered"] == 0 and not draugr.breaks


def test_outnumbered_bandits_flee_or_parley_and_numbers_decide_it():
    outnumbered = band_minds.measure_bandits(2, 3, 100)
    outnumbering = band_minds.measure_bandits(3, 1, 100)
    assert outnumbered.gave_up() >= 0.5  # the bar: at least half of them run, bargain or yield
    assert outnumbered.breaks["flee"] > 0 and outnumbered.breaks["bargain"] > 0  # both ways out are taken
    assert outnumbering.gave_up() <= outnumbered.gave_up() - 0.3  # the same men stand when they are more
