"""300 narrated rounds each of combat, a social conflict and a foot chase read varied (issue 13).

One fixed NPC against the greedy bot over many seeds, told by one Narrator
(benchmarks/narration_stats.py prints the same figures).
"""

from __future__ import annotations

import functools
import importlib.util
from collections import Counter
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


# -- Vellan's short lists, told in its own conflicts (a new player's run, `solo play vellan --seed 11`) ----------
@functools.lru_cache(maxsize=1)
def _vellan_read():
    """Vellan and its narration, read once a process (read for each of 150 conflicts, they were most of these
    tests' time); the tests only read them."""
    from solo.narration import load_templates
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure("vellan"))
    return adventure, load_templates(extra_data=[(adventure.source, adventure.templates)])


def _vellan_conflict(ctype_key, seed, *, pc_lens, npc_lens=None):
    """One of Vellan's conflicts as the game sets it up, told with Vellan's narration by a fresh Recording narrator:
    the argument with Ingrid in the harbour office (five rounds) or the confrontation with the hardest Brekke of
    the finale (six rounds). Returns the passages and the lines drawn."""
    import random

    from solo.characters import load_character
    from solo.events import EventLog
    from solo.minds.bots import LensKeeper
    from solo.narration import Narrator, narrate_events, narration_rng
    from solo.npc import NPC
    from solo.rules.conflict import Conflict
    from solo.rules.participants import from_character
    from solo.story.play.actions import obstacle_of
    from solo.story.play.engine import conflict_types_of
    from solo.story.play.npcs import npc_fields

    adventure, templates = _vellan_read()
    ctype = conflict_types_of(adventure)[ctype_key]
    pc = load_character("espen")
    a = from_character(pc, "a", ctype, decider=LensKeeper(pc_lens))
    if ctype_key == "confrontation":
        b = obstacle_of({"obstacle": {"name": "Halvard Brekke", "pronoun": "he", "body": "flesh", "challenge": 85,
                                      "pool": 16}})
        rounds, people = 6, {a.id: pc}
    else:
        ingrid = NPC.from_dict(npc_fields(adventure.npcs["ingrid"].data), rng=random.Random(seed))
        b = from_character(ingrid, "b", ctype, decider=LensKeeper(npc_lens))
        rounds, people = 5, {a.id: pc, b.id: ingrid}
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(seed), sink=log, round_limit=rounds).run()
    picks: list[tuple[str, str]] = []  # (event, line) for every line drawn

    class Recording(Narrator):
        def choose(self, cast, event, *args, **kw):
            template, values = super().choose(cast, event, *args, **kw)
            if template is not None:
                picks.append((event, template.text))
            return template, values

    passages = narrate_events(log.events, Recording(templates, narration_rng(seed)), people=people)
    return passages, picks


def test_ingrid_and_espen_both_playing_to_the_gallery_never_say_a_sentence_twice():
    """'Ingrid tells a story, and makes sure Espen hears every word.' in rounds 2 and 3, 'Espen laughs despite
    himself, and the point is Ingrid's.' in rounds 2 and 4 (before): Vellan's Flamboyant lines for an argument were
    three, both sides drew from them, and once all were told the oldest came back. A line told only of the other
    side now comes first (it is a new sentence), and the lists are longer than the argument."""
    rounds = 0
    for seed in range(30):
        passages, _ = _vellan_conflict("social", seed, pc_lens="flamboyant", npc_lens="flamboyant")
        rounds += max(p.round for p in passages)
        told = Counter(s for p in passages for line in p.lines for s in sentences(line))
        assert not [s for s, n in told.items() if n > 1], seed
    assert rounds >= 30 * 3  # arguments of several rounds were told


@pytest.mark.parametrize("pc_lens", ("none", "cautious", "aggressive"))
def test_brekke_never_answers_the_same_way_twice_in_one_confrontation(pc_lens):
    """'Halvard Brekke makes Espen feel very young.' in rounds 1 and 6 (before): the confrontation's lines for
    Brekke's answers and what they cost were three or four for six rounds. Each is now longer than the
    confrontation, so none comes back in it (the declarations are the generic ones, and may)."""
    outcomes = ("obstacle_wins", "setback_light", "setback_heavy", "progress_light", "progress_heavy")
    drawn = 0
    for seed in range(40):
        _, picks = _vellan_conflict("confrontation", seed, pc_lens=pc_lens)
        told = Counter(text for event, text in picks if event in outcomes)
        drawn += sum(told.values())
        assert not [t for t, n in told.items() if n > 1], (pc_lens, seed)
    assert drawn >= 40 * 4


@pytest.mark.parametrize("ctype", ("combat", "social", "foot_chase", "car_chase", "sneaking", "tracking"))
def test_no_round_tells_two_lines_that_share_a_telling_phrase(ctype):
    """'Espen's argument lands, and Jonas has no answer. Jonas has no answer at all, and it shows.'; 'Eyvind
    flinches at every feint. Eyvind flinches at every sudden change.'; 'Jonas steadies his voice and starts
    again.' … 'Jonas clears his throat and starts again.' (a new player's runs): two lines of a round that share a
    run of three telling words (Template.phrases) read as one thing said twice. Nineteen such rounds in these 240
    duels before; while another line fits, none is drawn."""
    import random
    from collections import defaultdict

    from solo.characters import load_character
    from solo.minds.arena import duel_npc, run_duels
    from solo.narration import Narrator, load_templates, narrate_events, narration_rng
    from solo.rules.conflict_types import conflict_type

    for one, other in (("{actor}'s argument lands, and {target} has no answer.",
                        "{target} has no answer at all, and it shows."),
                       ("{actor} flinches at every feint.", "{actor} flinches at every sudden change."),
                       ("{actor} steadies {their} voice and starts again.",
                        "{target} clears {target_their} throat and starts again."),
                       # two short words that tell as much ("… towards the way out" … "… as if for a way out")
                       ("{actor} gives ground, eyes flicking towards the way out.",
                        "{actor} glances about, as if for a way out."),
                       # one idea in other words (a player's runs, this session: solo.narration.templates.SAME_IDEA)
                       ("{target} has no good reply.", "{target} has no answer at all, and it shows."),
                       ("{actor} hesitates a heartbeat too long and has to scramble.",
                        "{actor} is a fraction too slow for {target}."),
                       ("{actor} keeps low and careful.", "{actor} moves carefully, as though the ground might give."),
                       # ... and from a reading of narrated conflicts (a later session)
                       ("{target} goes down on one knee, and struggles back up.",
                        "{actor} should be down, but gets up."),
                       ("{target} is knocked half apart and still reaches for {actor}.",
                        "{actor} is a wreck, and still comes on."),
                       ("{target} staggers half a step.", "{actor} sways on {their} feet."),
                       ("{target} flinches, then steadies.", "{actor} is not as steady as {they} {was|were}."),
                       ("{target} stares at the page while the words swim.", "{actor} can barely focus on the page."),
                       # a reading of Kaldskard's fights
                       ("{target} is tired, cold and doubting every mark.", "{actor} is tired, and doubts creep in."),
                       ("{target} is breathing harder now.", "{actor}'s breath comes ragged."),
                       # a later reading of narrated conflicts
                       ("{target} flinches, then steadies.", "{actor} flinches at every feint."),
                       ("{actor} badly misjudges the distance.", "{target} misjudges it, and pays."),
                       ("{target} has to wait, heart in mouth.", "{actor}'s heart is hammering.")):
        assert _line(one).phrases & _line(other).phrases
    assert not _line("{actor} works {their} way outward.").phrases & _line("{actor} finds a way out.").phrases
    class Recording(Narrator):
        def choose(self, cast, event, *args, **kw):
            template, values = super().choose(cast, event, *args, **kw)
            if template is not None:
                self.by_round[cast.round].append(template)
            return template, values

    templates = load_templates()
    kind = conflict_type(ctype)
    echoes = []
    for seed in range(40):
        npc = duel_npc(random.Random(f"duel-npc:{seed}"), kind)
        events = run_duels(npc, load_character("espen"), kind, runs=1, seed=seed, round_limit=10, explain=True).first
        narrator = Recording(templates, narration_rng(seed))
        narrator.by_round = defaultdict(list)
        narrate_events(events, narrator)
        echoes += [(seed, r, a.text, b.text) for r, lines in narrator.by_round.items() for i, a in enumerate(lines)
                   for b in lines[:i] if a.phrases & b.phrases]
    assert echoes == []


def _line(text):
    from solo.narration.templates import Template, parse_template

    pieces, slots, _ = parse_template(text)
    return Template(text, pieces, slots)


@pytest.mark.parametrize("ctype_key", ("library", "lockpicking", "sneaking"))
@pytest.mark.parametrize("lens", ("aggressive", "clever", "covert", "flamboyant", "quick"))
def test_a_search_of_five_rounds_in_one_manner_never_reads_the_same_move_twice(ctype_key, lens):
    """'Espen makes a bold leap, all sharp eyes and no method.' in rounds 1 and 5 of Vellan's registry (a new
    player's run, five rounds, Flamboyant throughout): a library's lists for these Lenses were four lines, and a
    lock's and a sneak's too. Each is now longer than five rounds, so one who keeps to one way of working against
    an archive, a lock or a watch reads each move once."""
    import random

    from solo.characters import load_character
    from solo.events import EventLog
    from solo.minds.bots import LensKeeper
    from solo.narration import Narrator, load_templates, narrate_events, narration_rng
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.participants import from_character, obstacle

    class Moves(Narrator):
        def choose(self, cast, event, *args, **kw):
            template, values = super().choose(cast, event, *args, **kw)
            if template is not None and event == "declare":
                self.moves.append(template.text)
            return template, values

    ctype, templates = conflict_type(ctype_key), load_templates()
    declared = 0
    for seed in range(12):
        searcher = from_character(load_character("espen"), "a", ctype, decider=LensKeeper(lens))
        log = EventLog()
        Conflict(ctype, [searcher, obstacle("The registry", "hard")], random.Random(seed), sink=log,
                 round_limit=5).run()
        narrator = Moves(templates, narration_rng(seed))
        narrator.moves = []
        narrate_events(log.events, narrator)
        declared += len(narrator.moves)
        assert not [t for t, n in Counter(narrator.moves).items() if n > 1], (ctype_key, lens, seed, narrator.moves)
    assert declared >= 12 * 2


def test_vellans_confrontation_has_a_move_of_its_own_for_each_round_of_it():
    """A reading of narrated conflicts (Vellan, seed 324): "Espen plays it safe." twice and "Espen takes it slowly and
    carefully." twice in six rounds with Brekke: the confrontation, a conflict type of Vellan's own, had its own
    Flamboyant moves only, and the lines for any conflict are three a Lens. A plain roll, Aggressive, Cautious or
    Flamboyant kept there reads six moves of the office's own before one comes back (Clever, Covert and Quick, the
    Lenses a proof is seldom pressed with, still tell the lines for any conflict). Its show is one of papers, figures
    and nerve: a knife-fighter's //Melee made Combat the best flourish across the desk (a player's games)."""
    from conftest import templates_with_adventures

    vellan = templates_with_adventures()[1]
    for lens in ("none", "aggressive", "cautious", "flamboyant"):
        own = vellan.lines.get(("confrontation", "declare", lens), ())
        assert len({t.text for t in own}) >= 6, lens
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import conflict_types_of

    office = conflict_types_of(load_adventure(find_adventure("vellan")))["confrontation"]
    assert office.flourish_list is not None and not {"Combat", "Move"} & set(office.flourish_list)
    assert {"Knowledge", "Willpower"} <= set(office.flourish_list)
