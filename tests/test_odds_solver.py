"""The one round kernel and the one solver behind every exact number (solo odds, the advice, the minds)."""

from __future__ import annotations

from functools import partial

import pytest

from solo.rules.lenses import LENS_TABLE, MEMORYLESS
from solo.rules.odds import BEST, conflict_odds, look_ahead, round_kernel, round_odds, solve

KERNEL = partial(round_kernel, 60, 45, dice_a="1d8", dice_b="1d6", bonus_a=1, armour_a=2, armour_b=1)


def test_the_kernel_reads_the_lens_table():
    for key, lens in LENS_TABLE.items():
        k = round_kernel(50, 40, key)
        assert k.round == round_odds(50 + lens.skill_shift, 40)
    assert round_kernel(50, 40, "clever").blows_a == ()  # no damage now
    halved = round_kernel(50, 40, "cautious", dice_a="1d6")
    assert max(v for v, _ in halved.blows_a) == 3
    k = round_kernel(50, 40, armour_b=6)  # 1d6 on armour 6: no blow of A ever lands
    assert k.blows_a == () and k.moving == pytest.approx(k.round.b)


def test_best_play_is_the_best_first_step_in_every_state():
    best = solve(KERNEL, 9, 8, BEST, only_win=True).win
    for a in range(1, 10):
        for b in range(1, 9):
            steps = [look_ahead(KERNEL(lens, "none"), a, b, best, best, best) for lens in MEMORYLESS]
            assert best[a][b] == pytest.approx(max(steps), abs=1e-12)
            fixed = [solve(KERNEL, a, b, lens, only_win=True).win[a][b] for lens in MEMORYLESS]
            assert best[a][b] >= max(fixed) - 1e-12


def test_best_play_for_b_is_best_play_for_a_seen_from_the_other_side():
    mirrored = partial(round_kernel, 45, 60, dice_a="1d6", dice_b="1d8", bonus_b=1, armour_a=1, armour_b=2)
    b_best = solve(KERNEL, 7, 6, "aggressive", BEST)
    a_best = solve(mirrored, 6, 7, BEST, "aggressive")
    assert b_best.lose is not None and a_best.lose is not None
    for a in range(1, 8):
        for b in range(1, 7):
            assert b_best.lose[a][b] == pytest.approx(a_best.win[b][a], abs=1e-12)
            assert b_best.win[a][b] == pytest.approx(a_best.lose[b][a], abs=1e-12)
    with pytest.raises(ValueError):
        solve(KERNEL, 3, 3, BEST, BEST)


def pressing(own: int, other: int) -> str:
    return "aggressive" if own > other else "none"


@pytest.mark.parametrize("policy", ["none", "cautious", BEST, pressing])
def test_a_long_enough_round_limit_is_no_limit(policy):
    free = solve(KERNEL, 7, 8, policy)
    limited = solve(KERNEL, 7, 8, policy, limit=300)
    for name in ("win", "lose", "rounds"):
        for a in range(1, 8):
            for b in range(1, 9):
                assert getattr(limited, name)[a][b] == pytest.approx(getattr(free, name)[a][b], abs=1e-9), name


def test_conflict_odds_is_the_solver_at_the_starting_pools():
    chain = solve(KERNEL, 10, 9, "cautious", "aggressive")
    odds = conflict_odds(60, 10, 45, 9, damage_a="1d8", bonus_a=1, armour_a=2, armour_b=1, lens_a="cautious",
                         lens_b="aggressive")
    assert chain.lose is not None and chain.rounds is not None
    assert (odds.a_wins, odds.b_wins, odds.expected_rounds) == (chain.win[10][9], chain.lose[10][9],
                                                                 chain.rounds[10][9])
    assert odds.round == round_odds(80, 25)
