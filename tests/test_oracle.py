"""The yes/no oracle, tension, random events, scene set-up and NPC reactions."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest

from solo.oracle import (
    GRADES,
    LADDER,
    OracleError,
    OracleState,
    TableSet,
    ask,
    chance_of_yes,
    event_triggered,
    grade,
    likelihood,
    load_tables,
    npc_reaction,
    oracle_odds,
    random_event,
    reaction_odds,
    scene_odds,
    set_up_scene,
    tension_after_scene,
)
from solo.oracle.random_events import event_digit
from solo.oracle.reactions import reaction_for
from solo.oracle.scenes import scene_kind

DOUBLES = {11, 22, 33, 44, 55, 66, 77, 88, 99, 100}
WORDS = list(LADDER)
TENSIONS = range(1, 10)


@pytest.fixture(scope="module")
def tables():
    return load_tables(use_env=False)


# -- likelihood words ---------------------------------------------------------


def test_ladder_has_at_least_seven_rising_words():
    bases = list(LADDER.values())
    assert len(bases) >= 7
    assert bases == sorted(bases) and len(set(bases)) == len(bases)


@pytest.mark.parametrize(
    "word, base",
    [("hard", 30), ("Very Hard", 10), ("easy", 70), ("normal", 50), ("routine", 95),
     ("very-likely", 85), ("VERY_UNLIKELY", 15), ("50/50", 50), ("no way", 5), ("65%", 65), (40, 40)],
)
def test_accepted_words(word, base):
    assert likelihood(word).base == base


@pytest.mark.parametrize("word", ["maybe", "good", "", "0", "100", "very likley"])
def test_unknown_words_are_refused(word):
    with pytest.raises(OracleError):
        likelihood(word)


def test_unknown_word_suggests_a_close_one():
    with pytest.raises(OracleError, match="did you mean 'very likely'"):
        likelihood("very likley")


def test_a_suggested_alias_says_what_it_stands_for():
    """A new GM's 'probabl' was asked "did you mean 'probable'?" before a list of words without it."""
    with pytest.raises(OracleError, match="did you mean 'probable', that is 'likely'\\?"):
        likelihood("probabl")
    assert likelihood("probable").word == "likely"


@pytest.mark.parametrize("tension", [0, 10, -1, 5.5, True, "5"])
def test_tension_off_the_track_is_refused(tension):
    with pytest.raises(OracleError):
        chance_of_yes("even", tension)


# -- chance of yes: enumerate every face ------------------------------------------


def _count_yes(chance: int) -> int:
    return sum(1 for face in range(1, 101) if grade(face, chance).startswith("yes"))


@pytest.mark.parametrize("word", WORDS + ["easy", "normal", "hard", "very hard", "routine"])
@pytest.mark.parametrize("tension", TENSIONS)
def test_chance_is_the_documented_formula_and_the_yes_faces(word, tension):
    base = likelihood(word).base
    expected = max(1, min(99, base + 5 * (tension - 5)))
    assert chance_of_yes(word, tension) == expected
    odds = oracle_odds(word, tension)
    assert odds.chance == expected
    assert _count_yes(expected) == expected  # the faces at or under the chance are the yeses
    assert odds.yes == pytest.approx(expected / 100)
    assert sum(odds.faces.values()) == 100


@pytest.mark.parametrize("tension", TENSIONS)
def test_chance_never_falls_as_likelihood_rises(tension):
    chances = [oracle_odds(w, tension).yes for w in WORDS]
    assert chances == sorted(chances)
    assert chances[0] < chances[-1]


@pytest.mark.parametrize("word", WORDS)
def test_chance_rises_with_tension(word):
    chances = [oracle_odds(word, t).yes for t in TENSIONS]
    assert chances == sorted(chances)
    assert chances[0] < chances[-1]
    for low, high in zip(chances, chances[1:]):
        if 0.01 < high < 0.99 and 0.01 < low:
            assert high - low == pytest.approx(0.05)


def test_at_neutral_tension_each_step_up_the_ladder_is_strictly_more_likely():
    chances = [chance_of_yes(w, 5) for w in WORDS]
    assert all(a < b for a, b in zip(chances, chances[1:]))


def test_nothing_is_certain_either_way():
    for word in WORDS:
        for t in TENSIONS:
            odds = oracle_odds(word, t)
            assert 0.01 <= odds.yes <= 0.99
            assert grade(100, odds.chance) == "no, and"


# -- graded answers ------------------------------------------------------------------


def test_grades_at_chance_70():
    assert grade(66, 70) == "yes, and"
    assert grade(70, 70) == "yes, but"
    assert grade(61, 70) == "yes, but"
    assert grade(60, 70) == "yes"
    assert grade(1, 70) == "yes"
    assert grade(71, 70) == "no, but"
    assert grade(80, 70) == "no, but"
    assert grade(81, 70) == "no"
    assert grade(77, 70) == "no, and"
    assert grade(100, 70) == "no, and"


@pytest.mark.parametrize("chance", [1, 5, 9, 10, 30, 50, 70, 89, 90, 95, 99])
def test_grade_bands_match_the_definition_on_every_face(chance):
    for face in range(1, 101):
        g = grade(face, chance)
        assert g in GRADES
        yes = face <= chance and face != 100
        assert g.startswith("yes") == yes
        if face in DOUBLES:
            assert g.endswith("and")
        elif yes:
            assert g == ("yes, but" if chance - 9 <= face else "yes")
        else:
            assert g == ("no, but" if face <= chance + 10 else "no")


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("tension", TENSIONS)
def test_exceptional_answers_are_always_ten_percent(word, tension):
    odds = oracle_odds(word, tension)
    assert odds.exceptional == pytest.approx(0.10)
    assert odds.faces["yes, and"] == sum(1 for d in DOUBLES if d <= odds.chance and d != 100)


def test_likely_at_neutral_tension_in_faces():
    assert oracle_odds("likely", 5).faces == {
        "yes, and": 6, "yes": 55, "yes, but": 9, "no, but": 9, "no": 17, "no, and": 4,
    }


# -- random events ---------------------------------------------------------------------


@pytest.mark.parametrize("tension", TENSIONS)
def test_event_rate_is_tension_plus_one_percent(tension):
    faces = [f for f in range(1, 101) if event_triggered(f, tension)]
    assert len(faces) == tension + 1
    assert 100 in faces
    assert all(f in DOUBLES and event_digit(f) <= tension for f in faces)
    for word in WORDS:
        assert oracle_odds(word, tension).event == pytest.approx((tension + 1) / 100)


def test_event_digits():
    assert event_digit(44) == 4 and event_digit(100) == 0 and event_digit(45) is None
    assert event_triggered(55, 5) and not event_triggered(66, 5)


def _roll_to(face: int) -> random.Random:
    """A generator whose next d100 is ``face``, found by trying seeds."""
    for seed in range(100_000):
        if random.Random(seed).randint(1, 100) == face:
            return random.Random(seed)
    raise AssertionError(face)


def test_an_event_roll_draws_an_event_tied_to_the_state(tables):
    state = OracleState(tension=5, npcs=["Nora Dahl"], threads=["find the ledger"])
    answer = ask(_roll_to(33), "Is anyone here?", "even", state=state, tables=tables)
    assert answer.roll == 33 and answer.grade == "yes, and"
    assert answer.event_triggered and answer.event is not None
    ev = answer.event
    assert ev.meaning.action in [r.text for r in tables.get("action").rows]
    assert ev.meaning.subject in [r.text for r in tables.get("subject").rows]
    assert "{" not in ev.text
    if ev.focus.startswith("npc"):
        assert ev.npc == "Nora Dahl" and "Nora Dahl" in ev.text
    if ev.focus.startswith("thread"):
        assert ev.thread == "find the ledger" and "find the ledger" in ev.text


def test_a_double_above_the_tension_raises_no_event(tables):
    answer = ask(_roll_to(77), "Q", "likely", tension=5, tables=tables)
    assert answer.grade == "no, and" and not answer.event_triggered and answer.event is None


def test_events_never_name_npcs_or_threads_the_game_does_not_have(tables):
    rng = random.Random(11)
    empty = OracleState(tension=5)
    for _ in range(400):
        ev = random_event(rng, tables, empty)
        assert ev.focus not in {"npc_acts", "npc_negative", "npc_positive", "thread_closer", "thread_away"}
        assert ev.npc is None and ev.thread is None


class FirstFace(random.Random):
    """A generator whose first randint falls on ``face``; every draw after it is the seeded generator's."""

    def __init__(self, face: int, seed: int = 0):
        super().__init__(seed)
        self.face: int | None = face
        self.range: tuple[int, int] | None = None

    def randint(self, a, b):
        if self.face is None:
            return super().randint(a, b)
        face, self.face, self.range = self.face, None, (a, b)
        assert a <= face <= b, f"face {face} is not in {a}..{b}"
        return face


def test_event_focus_follows_the_weights_when_everything_is_in_play(tables):
    state = OracleState(npcs=["A", "B"], threads=["T"])
    table = tables.get("event_focus")
    exact = {}
    for row in table.rows:
        exact[row.key] = exact.get(row.key, 0) + Fraction(row.weight, table.total_weight)
    # every face of the focus die, once: the rows come up exactly in proportion to their weights
    counts: dict[str, int] = {}
    for face in range(1, table.total_weight + 1):
        rng = FirstFace(face)
        key = random_event(rng, tables, state).focus
        assert rng.range == (1, table.total_weight)
        counts[key] = counts.get(key, 0) + 1
    assert {k: Fraction(c, table.total_weight) for k, c in counts.items()} == exact
    # and a seeded sample agrees, within four standard errors; every NPC is named in turn
    rng = random.Random(5)
    n = 2000
    sampled: dict[str, int] = {}
    npc_counts = {}
    for _ in range(n):
        ev = random_event(rng, tables, state)
        sampled[ev.focus] = sampled.get(ev.focus, 0) + 1
        if ev.npc:
            npc_counts[ev.npc] = npc_counts.get(ev.npc, 0) + 1
    for key, p in exact.items():
        assert abs(sampled.get(key, 0) / n - p) <= 4 * math.sqrt(p * (1 - p) / n), key
    assert set(npc_counts) == {"A", "B"}


def test_without_a_state_npc_rows_read_generically(tables):
    rng = random.Random(2)
    seen = set()
    for _ in range(500):
        ev = random_event(rng, tables)
        seen.add(ev.focus)
        assert ev.npc is None and "{" not in ev.text
    assert "npc_acts" in seen


# -- reproducibility ------------------------------------------------------------------


def test_same_seed_same_answers(tables):
    def run(seed):
        rng = random.Random(seed)
        state = OracleState(tension=9, npcs=["Nora"], threads=["escape"])
        out = [ask(rng, f"q{i}", "even", state=state, tables=tables).to_dict() for i in range(200)]
        out.append(set_up_scene(rng, tables, state).to_dict())
        out.append(npc_reaction(rng, "friendly", tables=tables).to_dict())
        return json.dumps(out)

    assert run(42) == run(42)
    assert run(42) != run(43)


def test_answers_follow_the_odds_over_many_rolls():
    # every face of the d100 once: 80 of the hundred say yes to "likely" at tension 7
    yes = sum(ask(FirstFace(face), "", "likely", tension=7).yes for face in range(1, 101))
    assert yes == oracle_odds("likely", 7).chance == 80
    rng = random.Random(9)
    n = 2000
    sampled = sum(ask(rng, "", "likely", tension=7).yes for _ in range(n))
    assert abs(sampled / n - 0.80) <= 4 * math.sqrt(0.80 * 0.20 / n)


def test_answer_to_dict_is_json_and_consistent(tables):
    answer = ask(random.Random(1), "Locked?", "likely", tension=6, tables=tables)
    data = json.loads(json.dumps(answer.to_dict()))
    assert {"answer", "roll", "chance", "event"} <= set(data)
    assert data["chance"] == 75
    assert data["answer"] == grade(data["roll"], 75)
    assert data["yes"] == (data["roll"] <= 75)


# -- tension and state ----------------------------------------------------------------


def test_tension_moves_one_step_and_stays_on_the_track():
    assert tension_after_scene(5, True) == 4
    assert tension_after_scene(5, False) == 6
    assert tension_after_scene(5, None) == 5
    assert tension_after_scene(1, True) == 1
    assert tension_after_scene(9, False) == 9


def test_state_round_trips_through_json():
    state = OracleState(tension=3, npcs=["Nora"], threads=["find the ledger"], pcs=["Espen Lind"])
    state.add_npc("Ivar")
    state.add_npc("Ivar")
    state.close_thread("find the ledger")
    state.add_thread("get out of town")
    assert state.end_scene(False) == 4
    again = OracleState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    assert again.npcs == ["Nora", "Ivar"] and again.threads == ["get out of town"]


@pytest.mark.parametrize(
    "data", [{"tension": 0}, {"tension": "5"}, {"npcs": "Nora"}, {"threads": [1]}, {"version": 99}, []]
)
def test_damaged_state_is_refused(data):
    with pytest.raises(ValueError):
        OracleState.from_dict(data)


def test_closing_an_unknown_thread_is_an_error():
    with pytest.raises(ValueError, match="no thread"):
        OracleState().close_thread("nope")


# -- scene set-up ----------------------------------------------------------------------


@pytest.mark.parametrize("tension", TENSIONS)
def test_scene_odds_are_as_documented(tension):
    odds = scene_odds(tension)
    assert odds["interrupted"] == pytest.approx(5 * tension / 100)
    assert odds["altered"] == pytest.approx(5 * tension / 100)
    assert odds["expected"] == pytest.approx((100 - 10 * tension) / 100)


def test_scene_kinds_at_the_borders():
    assert scene_kind(25, 5) == "interrupted"
    assert scene_kind(26, 5) == "altered"
    assert scene_kind(50, 5) == "altered"
    assert scene_kind(51, 5) == "expected"


def test_scene_set_up_fills_in_what_each_kind_needs(tables):
    state = OracleState(tension=9, npcs=["Nora"], threads=["escape"])
    rng = random.Random(3)
    kinds = set()
    for _ in range(200):
        setup = set_up_scene(rng, tables, state)
        kinds.add(setup.kind)
        assert (setup.event is not None) == (setup.kind == "interrupted")
        assert (setup.alteration is not None) == (setup.kind == "altered")
        assert (setup.meaning is not None) == (setup.kind == "altered")
        json.dumps(setup.to_dict())
    assert kinds == {"expected", "altered", "interrupted"}


# -- NPC reactions ----------------------------------------------------------------------


def test_reaction_bands():
    assert reaction_for(15) == ("hostile", "malicious")
    assert reaction_for(16) == ("unfriendly", "unfriendly")
    assert reaction_for(65) == ("neutral", "neutral")
    assert reaction_for(86) == ("helpful", "affectionate")
    assert reaction_for(140) == ("helpful", "affectionate")


def test_reaction_odds_follow_disposition():
    assert reaction_odds("neutral") == pytest.approx(
        {"hostile": 0.15, "unfriendly": 0.20, "neutral": 0.30, "friendly": 0.20, "helpful": 0.15}
    )
    assert reaction_odds("malicious")["friendly"] == 0 and reaction_odds("malicious")["helpful"] == 0
    assert reaction_odds("Affectionate")["hostile"] == 0 and reaction_odds("affectionate")["unfriendly"] == 0
    friendliness = [reaction_odds(d)["helpful"] + reaction_odds(d)["friendly"]
                    for d in ("malicious", "unfriendly", "neutral", "friendly", "affectionate")]
    assert friendliness == sorted(friendliness)
    assert reaction_odds("neutral", 20) == reaction_odds("friendly")


def test_reaction_uses_the_hook_and_adds_a_twist_on_doubles(tables):
    calls = []

    def generate(rng):
        calls.append(rng)
        return {"name": "Ivar Holm"}

    reaction = npc_reaction(_roll_to(44), "unfriendly", tables=tables, generate_npc=generate)
    assert reaction.roll == 44 and reaction.total == 24 and reaction.reaction == "unfriendly"
    assert reaction.twist is not None
    assert reaction.to_dict()["npc"] == {"name": "Ivar Holm"} and len(calls) == 1
    plain = npc_reaction(_roll_to(45), "friendly", tables=tables)
    assert plain.twist is None and plain.total == 65 and plain.reaction == "neutral"


def test_unknown_disposition_is_refused():
    with pytest.raises(OracleError, match="unknown disposition"):
        npc_reaction(random.Random(1), "grumpy")


def test_tableset_from_data_is_enough_for_events():
    tables = TableSet.from_data({"tables": {
        "event_focus": {"rows": [{"text": "{npc} acts", "key": "npc_acts"}, {"text": "A stranger", "key": "new_npc"}]},
        "action": {"rows": ["Steal"]},
        "subject": {"rows": ["Map"]},
    }})
    ev = random_event(random.Random(1), tables, OracleState(npcs=["Olav"]))
    assert ev.meaning.action == "Steal" and ev.meaning.subject == "Map"
    assert ev.text in {"Olav acts", "A stranger"}
    for seed in range(30):
        assert random_event(random.Random(seed), tables, OracleState()).focus == "new_npc"


def test_the_oracles_bounds_are_named_for_what_they_keep():
    """Issue 31, point 7: the floor that lifts a chance to 1 % reads "never impossible", the cap "never certain"."""
    from solo.story.play.engine import _oracle_parts

    assert _oracle_parts("impossible", 1) == ("Impossible", 1,
                                              [("low tension (1 of 9)", -20), ("never impossible", 16)])
    assert _oracle_parts("certain", 9) == ("Certain", 99, [("high tension (9 of 9)", 20), ("never certain", -16)])


def test_a_scene_that_went_well_eases_the_tension_whatever_its_author_guessed(tmp_path):
    """Issue 31, point 8: by the Mythic habit a scene the PCs came out of well (their rolls and conflicts went
    their way) eases the tension, one that went badly raises it; the author's `control` counts only where
    nothing was rolled or it came out even."""
    from solo.minds.bots import FirstDecider
    from solo.rules.creation import pregenerated
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game, scene_control

    assert scene_control(2, "npcs") is True and scene_control(-1, "pcs") is False
    assert scene_control(0, "npcs") is False and scene_control(0, "pcs") is True and scene_control(0, None) is None
    story = tmp_path / "lane.toml"
    story.write_text('''[adventure]
id = "lane"
title = "Lane"
start = "lane"

[scenes.lane]
text = "A big man blocks the lane."
control = "npcs"

[[scenes.lane.choices]]
text = "Walk past him"
roll = { skill = "Awareness", difficulty = "routine", success = "home", failure = "home" }

[scenes.home]
text = "Home."
ending = true
outcome = "won"
''', encoding="utf-8")
    events = []
    game = Game(load_adventure(story), seed=1, decider=FirstDecider(), sink=events.append,
                party=[pregenerated("espen")])
    game.play()
    assert [(e["before"], e["after"]) for e in events if e.kind == "tension"] == [(5, 4)]  # eased, not raised
