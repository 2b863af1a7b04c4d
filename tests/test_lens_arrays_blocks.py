"""A chain with no round limit is solved one sum of Pools at a time, its stays (rounds that move no Pool) group by
group: the same values as the whole system solved at once (solo/rules/lens_arrays.py: Stationary, solve_stays)."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.npc import generate_npc
from solo.rules import lens_arrays
from solo.rules.character import Pool
from solo.rules.dice import new_rng
from solo.rules.lens_arrays import BLOCKS_FROM, solve_stays, stay_groups
from solo.toml_write import dumps


def test_groups_are_found_with_their_levels_those_that_reach_nothing_first():
    frm, to = np.array([[0, 1], [1, 0], [2, 0], [4, 2], [4, 3], [5, 5], [5, 4], [4, 2]]).T
    group, levels = stay_groups(6, frm, to)
    assert group[0] == group[1] and len(set(group.tolist())) == 5
    as_sets = [{frozenset(int(v) for v in row if v >= 0) for row in level} for level in levels]
    assert as_sets == [{frozenset({0, 1}), frozenset({3})}, {frozenset({2})}, {frozenset({4})}, {frozenset({5})}]
    assert levels[0].shape == (2, 2) and sorted(levels[0].ravel().tolist()) == [-1, 0, 1, 3]


def _system(rng: np.random.Generator, n: int, points: int, group_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Stays as a chain makes them: each pair reaches a few others, back only within its group; every row keeps
    some chance of leaving (a way out), so the system has one solution."""
    order = rng.permutation(n)
    m = np.zeros((points, n, n))
    for at, i in enumerate(order):
        start = at - at % group_size
        near = order[start:start + group_size]  # its group: reached both ways
        later = order[start + group_size:]  # groups it may reach and never come back from
        targets = list(rng.choice(near, size=min(2, len(near)), replace=False))
        if len(later):
            targets += list(rng.choice(later, size=min(3, len(later)), replace=False))
        for j in targets:
            m[:, i, j] = rng.uniform(0.0, 1.0, size=points)
        m[:, i] *= rng.uniform(0.2, 0.95, size=(points, 1)) / np.maximum(m[:, i].sum(axis=1, keepdims=True), 1e-9)
    return m, rng.uniform(0.0, 1.0, size=(points, n, 4))


@pytest.mark.parametrize(("n", "group_size"), [(BLOCKS_FROM, 1), (150, 5), (200, 13), (90, 90)])
def test_solved_by_groups_is_the_whole_system_solved(n, group_size):
    rng = np.random.default_rng(n * 100 + group_size)
    m, rhs = _system(rng, n, 3, group_size)
    whole = np.linalg.solve(np.eye(n)[None] - m, rhs)
    frm, to = np.nonzero(np.any(m != 0.0, axis=0))
    weights = m[:, frm, to]
    half = len(frm) // 2  # an entry given in two parts is their sum
    frm, to = np.concatenate([frm, frm[:half]]), np.concatenate([to, to[:half]])
    parts = np.concatenate([weights, 0.75 * weights[:, :half]], axis=1)
    parts[:, :half] *= 0.25
    assert np.abs(solve_stays(frm, to, parts, rhs) - whole).max() < 1e-12
    assert np.abs(whole).max() > 0.5  # values worth comparing


def test_a_mind_with_its_nerve_is_priced_the_same_by_groups(tmp_path, monkeypatch):
    """A courtier deciding with her mind, her nerve in the numbers (199 pairs of effects at these Pools): each
    system the odds solve gives what the whole system solved at once gives, and the options at each sum of Pools
    are those worked out over the whole rectangle."""
    npc = generate_npc(new_rng(5), "skilled", role="courtier", name="Ylva Hovland")
    npc.pools["BODY"] = Pool(3, 3)
    (tmp_path / "ylva.toml").write_text(dumps(npc.to_dict()), encoding="utf-8")
    (tmp_path / "tove.toml").write_text('name = "Tove"\nweapon = "short_sword"\n'
                                        "skills = { Combat = 60, Cunning = 55, Social = 45, Move = 40 }\n"
                                        "pools = { BODY = 4, INT = 10, POW = 14, CHA = 14 }\n", encoding="utf-8")
    solved = []

    def recording(frm, to, m, rhs):
        x = solve_stays(frm, to, m, rhs)
        points, n = rhs.shape[:2]
        whole = np.zeros((points, n, n))
        np.add.at(whole, (np.arange(points)[:, None], frm, to), m)
        solved.append((n, float(np.abs(x - np.linalg.solve(np.eye(n) - whole, rhs)).max())))
        return x

    sums = []
    options_at = lens_arrays.Plan.options_at

    def checking(plan, padded, ia, ib):
        got = options_at(plan, padded, ia, ib)
        whole = plan.options(padded[:, :, plan.hit_b:, plan.hit_a:].copy())[:, :, ia, ib]
        sums.append(np.array_equal(got, whole))
        return got

    monkeypatch.setattr(lens_arrays, "solve_stays", recording)
    monkeypatch.setattr(lens_arrays.Plan, "options_at", checking)
    result = CliRunner().invoke(cli, ["odds", "--pc", str(tmp_path / "tove.toml"), "--npc",
                                      str(tmp_path / "ylva.toml"), "--json"])
    assert result.exit_code == 0, result.output
    assert solved and min(n for n, _ in solved) >= BLOCKS_FROM
    assert max(gap for _, gap in solved) < 1e-12
    assert len(sums) == len(solved) and all(sums)  # each sum's options are the rectangle's there, to the bit
