"""docs/oracle.md promises numbers; these tests hold the code to them face by face."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo.oracle import LADDER, oracle_odds, scene_odds
from solo.oracle.likelihood import COMAE_WORDS

DOC = Path(__file__).resolve().parent.parent / "docs" / "oracle.md"


def _table_after(heading_fragment: str, first_cell: str) -> list[list[str]]:
    """The first Markdown table after a heading containing ``heading_fragment``, header starting ``first_cell``."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and heading_fragment in line)
    rows: list[list[str]] = []
    inside = False
    for line in lines[start:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not inside:
                if cells[0] != first_cell:
                    continue
                inside = True
            rows.append(cells)
        elif inside:
            break
    assert rows, f"no table under {heading_fragment!r}"
    return rows


def test_documented_chance_table_covers_every_word_and_tension():
    rows = _table_after("Chance of yes for every likelihood", "likelihood")
    header, body = rows[0], rows[2:]
    assert header[2:] == [f"T{t}" for t in range(1, 10)]
    documented = {r[0] for r in body}
    assert documented == set(LADDER) | set(COMAE_WORDS)


@pytest.mark.parametrize("tension", range(1, 10))
def test_documented_chances_equal_the_enumerated_faces(tension):
    rows = _table_after("Chance of yes for every likelihood", "likelihood")
    for row in rows[2:]:
        word, base = row[0], int(row[1])
        odds = oracle_odds(word, tension)
        assert odds.base == base
        assert round(odds.yes * 100) == int(row[1 + tension]), (word, tension)


def test_documented_ladder_matches_the_code():
    rows = _table_after("1. Likelihood words", "word")
    assert {r[0]: int(r[1]) for r in rows[2:]} == LADDER


def test_documented_event_rate_equals_the_enumerated_faces():
    rows = _table_after("4. Random events", "tension")
    tensions = [int(c) for c in rows[0][1:]]
    rates = [int(c) for c in rows[2][1:]]
    assert tensions == list(range(1, 10))
    for tension, rate in zip(tensions, rates):
        for word in LADDER:
            assert round(oracle_odds(word, tension).event * 100) == rate


@pytest.mark.parametrize("tension", range(1, 10))
def test_documented_scene_formula(tension):
    odds = scene_odds(tension)
    assert round(odds["interrupted"] * 100) == 5 * tension
    assert round(odds["altered"] * 100) == 5 * tension
    assert round(odds["expected"] * 100) == 100 - 10 * tension


def test_documented_discovery_answers_equal_the_enumerated_faces():
    from solo.oracle import GRADES, discovery_chance, discovery_odds

    rows = _table_after("Discovery answers for every point", "progress")
    assert rows[0][2:] == list(GRADES)
    assert [int(r[0]) for r in rows[2:]] == list(range(11))
    for row in rows[2:]:
        points = int(row[0])
        assert int(row[1]) == discovery_chance(points)
        assert [int(c) for c in row[2:]] == [discovery_odds(points)[g] for g in GRADES], points


def test_documented_discovery_gains_are_the_codes():
    from solo.oracle.threads import DISCOVERY_GAIN, DISCOVERY_READS

    rows = _table_after("The discovery check", "answer")
    assert {r[0]: int(r[2]) for r in rows[2:]} == DISCOVERY_GAIN
    assert {r[0]: r[1] for r in rows[2:]} == DISCOVERY_READS
