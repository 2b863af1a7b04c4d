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


# -- within one conflict, no sentence twice -------------------------------------------------------
def _one_conflict(ctype_key, seed):
    """One conflict of at most ten rounds, told by a fresh Narrator: a duel, or a PC against an obstacle."""
    import random
    from collections import Counter

    from solo.characters import load_character
    from solo.events import EventLog
    from solo.minds.arena import duel_npc, run_duels
    from solo.minds.bots import RandomDecider
    from solo.narration import Narrator, load_templates, narrate_events, narration_rng
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.participants import from_character, obstacle

    ctype = conflict_type(ctype_key)
    pc = load_character("espen")
    if ctype.static:
        log = EventLog()
        a = from_character(pc, "a", ctype, decider=RandomDecider(random.Random(seed)))
        Conflict(ctype, [a, obstacle("Old lock", "normal")], random.Random(seed), sink=log, round_limit=10).run()
        events, people = log.events, {a.id: pc}
    else:
        npc = duel_npc(random.Random(f"duel-npc:{seed}"), ctype)
        events = run_duels(npc, pc, ctype, runs=1, seed=seed, round_limit=10, explain=True).first
        people = {e["id"]: (npc if not e.get("pc") else pc)
                  for ev in events if ev.kind == "conflict_start" for e in ev["participants"]}
    passages = narrate_events(events, Narrator(load_templates(), narration_rng(seed)), people=people)
    assert max(p.round for p in passages) <= 10
    return Counter(s for p in passages for line in p.lines for s in sentences(line))


@pytest.mark.parametrize("ctype", ("combat", "social", "foot_chase", "car_chase", "sneaking", "tracking",
                                   "lockpicking", "library"))
def test_no_sentence_twice_in_one_conflict(ctype):
    """'Olav misses the pothole that Espen hits.' in rounds 3 and 7 of one chase (car_chase seed 13, before)."""
    total = 0
    for seed in range(40):
        told = _one_conflict(ctype, seed)
        total += sum(told.values())
        twice = [s for s, n in told.items() if n > 1]
        assert not twice, (ctype, seed, twice)
    assert total >= 40 * 6  # real conflicts were told, not a line or two each


def test_car_chase_seed_13_tells_no_outcome_twice():
    told = _one_conflict("car_chase", 13)
    assert not [s for s, n in told.items() if n > 1]
    assert not any("pothole" in s for s, n in told.items() if n > 1)


# -- personality beyond speech, runs told once (issue 27) -------------------------------------------
@pytest.fixture(scope="module", params=narration_stats.ALL_TYPES)
def fiction(request):
    return request.param, narration_stats.fiction_figures(request.param, 40, seed=1)


def test_a_code_block_manner_line_in_at_least_three_rounds_in_ten(fiction):
    ctype, figures = fiction
    if figures["manner_share"] is None:
        assert ctype in ("lockpicking", "library")  # no NPC, no Code Block
        return
    assert figures["manner_share"] >= 0.30, figures


def test_no_run_of_rounds_without_result_is_told_one_by_one(fiction):
    _, figures = fiction
    assert figures["longest_run"] == 1, figures
    assert figures["top_count"] <= figures["rounds"] // 5, figures  # nothing comes back in every fifth round


@pytest.mark.parametrize("pair", narration_stats.PAIRS, ids=lambda p: "-".join(p[0] + p[1]))
def test_contrasting_code_blocks_read_differently_without_their_quotes(pair):
    """Same seed, same PC, same dice: at least half of the NPC's non-speech sentences differ."""
    assert narration_stats.contrast(pair, duels=3) >= 0.5
