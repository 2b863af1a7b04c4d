"""300 narrated rounds each of combat, a social conflict and a foot chase read varied (issue 13).

One fixed NPC against the greedy bot over many seeds, told by one Narrator
(benchmarks/narration_stats.py prints the same figures).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from solo.narration.variety import sentences, variety

BENCHMARK = Path(__file__).parents[1] / "benchmarks" / "narration_stats.py"
spec = importlib.util.spec_from_file_location("narration_stats", BENCHMARK)
narration_stats = importlib.util.module_from_spec(spec)
spec.loader.exec_module(narration_stats)


@pytest.fixture(scope="module", params=("combat", "social", "foot_chase"))
def measured(request):
    return request.param, *narration_stats.measure(request.param, 300, seed=1)


def test_no_sentence_in_more_than_one_round_in_twenty(measured):
    _, figures, _ = measured
    assert figures.rounds == 300
    assert figures.worst_share <= 0.05, figures


def test_at_least_150_distinct_sentences(measured):
    _, figures, _ = measured
    assert figures.distinct >= 150, figures


def test_no_sentence_twice_in_a_row_no_unfilled_slot_every_sentence_capitalised(measured):
    _, figures, _ = measured
    assert figures.repeats == []
    assert figures.unfilled == []
    assert figures.uncapitalised == []


def test_no_combat_word_in_a_social_conflict(measured):
    ctype, _, words = measured
    if ctype == "social":
        assert words == []


def test_the_measure_itself():
    assert sentences('Espen waits. "Stop!" Brakk begs. Round two.') == ["Espen waits.", '"Stop!" Brakk begs.',
                                                                        "Round two."]
    figures = variety([["A thing. B thing."], ["A thing."], ["c {slot}."]])
    assert figures.rounds == 3 and figures.distinct == 3
    assert figures.top[0] == ("A thing.", 2 / 3)
    assert figures.unfilled == ["c {slot}."] and figures.uncapitalised == ["c {slot}."]
    assert variety([["Same.", "Same."]]).repeats == ["Same."]
