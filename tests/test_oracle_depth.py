"""The oracle's depth (issue 31, point 9): weighted lists, a thread's progress track and the discovery
check, a reading for every answer, and the element tables."""

from __future__ import annotations

import json
import math
import random
import re
from fractions import Fraction

import pytest
from conftest import FirstFace, play_session

from solo.errors import ContentError
from solo.events import Event
from solo.oracle import (
    FLASHPOINTS,
    GRADES,
    TRACK,
    OracleState,
    discover,
    discovery_chance,
    discovery_odds,
    grade,
    load_tables,
    random_event,
)
from solo.oracle.session_file import OracleSession, load_session, save_session
from solo.oracle.threads import DISCOVERY_GAIN
from solo.saves import read_save
from solo.story.play.state import GameState
from solo.ui import describe as d
from solo.ui.event_stream import roll_records


@pytest.fixture(scope="module")
def tables():
    return load_tables(use_env=False)


def play(adventure, lines, folder, *, seed=5, log=None):
    """A session answered by ``lines`` then end of input: (session, what the screen showed)."""
    session, _, screen = play_session(adventure, lines, folder, seed=seed, log=log)
    return session, screen


def after(out: str, command: str) -> str:
    return out.rsplit(f"> {command}\n", 1)[1].split("\n\n", 1)[0]


# -- weights ----------------------------------------------------------------------------------------


def test_an_entry_written_again_counts_again_up_to_three_times():
    state = OracleState()
    assert state.add_thread("Find the ledger") == 1
    assert state.add_thread("Find the ledger") == 1  # the game noting it again adds no weight
    assert state.add_thread("Find the ledger", again=True) == 2
    assert state.add_thread("Find the ledger", again=True) == 3
    with pytest.raises(ValueError, match="already counts 3 times"):
        state.add_thread("Find the ledger", again=True)
    assert state.add_npc("Nora Dahl", again=True) == 1  # new: once, whatever the flag
    assert state.add_npc("Nora Dahl", again=True) == 2
    state.add_thread("Pay the debt")
    assert state.slots()["thread"] == ["Find the ledger"] * 3 + ["Pay the debt"]
    assert state.slots()["npc"] == ["Nora Dahl"] * 2
    state.close_thread("Find the ledger")
    state.remove_npc("Nora Dahl")
    assert state.thread_weights == {} and state.npc_weights == {}
    assert state.add_thread("Find the ledger") == 1  # opened anew, it counts once


def test_a_random_pick_honours_the_weights(tables):
    """An NPC written three times is named by three in four NPC events of four (exact proportion of the
    list, and a seeded sample within four standard errors)."""
    state = OracleState(npcs=["Nora", "Ivar"])
    state.add_npc("Nora", again=True)
    state.add_npc("Nora", again=True)
    assert Fraction(state.slots()["npc"].count("Nora"), len(state.slots()["npc"])) == Fraction(3, 4)
    rng = random.Random(11)
    named = [random_event(rng, tables, state).npc for _ in range(3000)]
    named = [n for n in named if n]
    share = named.count("Nora") / len(named)
    assert abs(share - 0.75) <= 4 * math.sqrt(0.75 * 0.25 / len(named))


def test_weights_progress_and_searches_round_trip_and_old_states_still_load():
    state = OracleState(threads=["A", "B"], npcs=["N"])
    state.add_thread("A", again=True)
    state.add_npc("N", again=True)
    state.add_npc("N", again=True)
    state.add_progress("B", 3)
    state.searched.append("A")
    data = json.loads(json.dumps(state.to_dict()))
    assert data["weights"] == {"threads": {"A": 2}, "npcs": {"N": 3}} and data["progress"] == {"B": 3}
    assert OracleState.from_dict(data) == state
    old = {"version": 1, "tension": 6, "npcs": ["N"], "threads": ["A"], "pcs": []}
    loaded = OracleState.from_dict(old)
    assert loaded.thread_weight("A") == 1 and loaded.thread_progress("A") == 0 and loaded.to_dict() == old
    for bad, match in (({"weights": {"threads": {"A": 4}}}, "2-3"), ({"weights": {"npcs": {"Z": 2}}}, "not on"),
                       ({"progress": {"A": TRACK + 1}}, "1-10"), ({"searched": ["Z"]}, "not open")):
        with pytest.raises(ValueError, match=match):
            OracleState.from_dict({**old, **bad})


# -- the progress track and the discovery check -------------------------------------------------------------


def test_progress_moves_along_the_track_and_says_which_flashpoints_it_reached():
    state = OracleState(threads=["A"])
    assert FLASHPOINTS == (5, 10) and TRACK == 10
    assert state.add_progress("A", 3).flashpoints == ()
    step = state.add_progress("A", 2)
    assert (step.before, step.after, step.flashpoints, step.ended) == (3, 5, (5,), False)
    state.add_progress("A", 3)
    step = state.add_progress("A", 3)  # 8 + 3 stops at the end of the track
    assert (step.before, step.after, step.flashpoints, step.ended) == (8, 10, (10,), True)
    with pytest.raises(ValueError, match="end of its track"):
        state.add_progress("A")
    for points in (0, 4, True):
        with pytest.raises(ValueError, match="1 to 3 points"):
            OracleState(threads=["B"]).add_progress("B", points)
    with pytest.raises(ValueError, match="no thread"):
        state.add_progress("Z")


def test_the_discovery_chance_grows_by_five_a_point_and_its_answers_are_the_oracles():
    assert [discovery_chance(p) for p in range(TRACK + 1)] == list(range(40, 91, 5))
    for points in range(TRACK + 1):
        faces = discovery_odds(points)
        chance = discovery_chance(points)
        assert sum(faces.values()) == 100
        assert sum(faces[g] for g in GRADES[:3]) == chance  # yes on the chance or under
        assert faces == {g: sum(grade(f, chance) == g for f in range(1, 101)) for g in GRADES}
    with pytest.raises(ValueError):
        discovery_chance(TRACK + 1)


@pytest.mark.parametrize("face", [11, 20, 38, 44, 47, 60, 100])
def test_a_discovery_check_reads_its_face_and_moves_the_track(tables, face):
    state = OracleState(threads=["A", "B"])
    state.add_progress("B", 2)  # chance 50
    found = discover(FirstFace(face), state, "B", tables)
    assert found.chance == 50 and found.roll == face and found.grade == grade(face, 50)
    assert found.step.before == 2 and state.thread_progress("B") == 2 + DISCOVERY_GAIN[found.grade]
    assert found.number == 2 and state.searched == ["B"]
    assert (found.meaning is not None) == (found.grade != "no" and found.grade != "no, and")
    assert (found.hard is not None) == (found.grade in ("yes, but", "no, and"))
    text = d.discovery(found.to_dict())
    assert text.startswith("Discovery check on \u201cB\u201d (progress 2 of 10, 50 %)") and found.grade in text


def test_a_discovery_check_rolls_one_die_once_a_scene(tables):
    state = OracleState(threads=["A"])
    rng, plain = random.Random(4), random.Random(4)
    discover(rng, state, "A", tables)
    plain.randint(1, 100)
    assert rng.getstate() == plain.getstate()  # the words come from an offshoot
    with pytest.raises(ValueError, match="has already been looked into in this scene"):
        discover(rng, state, "A", tables)
    state.end_scene(None)
    assert state.searched == []
    discover(rng, state, "A", tables)
    record = roll_records(Event("discovery", discover(random.Random(1), OracleState(threads=["X"]), "X").to_dict()))
    assert record[0]["target"] == 40 and record[0]["skill"] == "discovery" and record[0]["base"] == 40


def test_reaching_a_flashpoint_and_the_end_of_the_track_is_said():
    state = OracleState(threads=["A"])
    state.add_progress("A", 3)
    text = d.thread_progress({**state.add_progress("A", 3).to_dict(), "number": 1})
    assert "3 \u2192 6 of 10 (+3)" in text and "Flashpoint (5 of 10)" in text
    state.add_progress("A", 3)
    text = d.thread_progress({**state.add_progress("A", 3).to_dict(), "number": 1})
    assert "The end of the track" in text and text.endswith("then close it: threads close 1.")


# -- the element tables and the event focus -------------------------------------------------------------


def test_the_event_focus_gives_the_same_focus_on_every_face_as_before_it_grew(tables):
    """Each focus got a second wording beside the first, splitting its weight, so face by face the focus
    (and so every saved game) is what it was with eleven rows."""
    before = [("remote", 8), ("new_npc", 10), ("npc_acts", 18), ("npc_negative", 6), ("npc_positive", 5),
              ("thread_closer", 12), ("thread_away", 10), ("new_thread", 6), ("pc_negative", 10),
              ("pc_positive", 7), ("ambiguous", 8)]
    old_faces = [key for key, weight in before for _ in range(weight)]
    table = tables.get("event_focus")
    new_faces = [row.key for row in table.rows for _ in range(row.weight)]
    assert len(table.rows) >= 20 and new_faces == old_faces
    assert all([r.slots for r in table.rows if r.key == k] == [r.slots for r in table.rows if r.key == k][:1] * 2
               for k, _ in before)  # both wordings fill the same slots: the same dice


def test_table_list_shows_the_new_tables_in_columns(cli_run):
    lines = cli_run("table", "list").output.splitlines()
    names = [line.split()[0] for line in lines]
    assert {"character_action", "read_no_but", "read_yes_and"} <= set(names)
    assert len({line.index(" rows") for line in lines}) == 1  # the counts line up
    assert any(line.startswith("character_action") and re.search(r" 100 rows +d100 ", line) for line in lines)
    assert len({re.search(r" d\d+ ", line).start() for line in lines}) == 1  # and so do the dice


# -- in play: the commands, the save and the journal --------------------------------------------------


def test_in_play_weights_progress_and_discovery_survive_save_and_load(vellan, tmp_path):
    lines = ["threads add 1", "threads add learn why the margit sank", "threads add 1", "threads add 1",
             "npcs add Old Marta", "npcs add old marta", "threads progress 2 3", "threads progress learn 2",
             "threads discover 1", "threads discover 1", "threads", "npcs"]
    session, out = play(vellan, lines, tmp_path)
    oracle = session.game.state.oracle
    first, second = oracle.threads
    assert (oracle.thread_weight(first), oracle.thread_weight(second), oracle.npc_weight("Old Marta")) == (3, 2, 2)
    assert "already counts 3 times" in out
    assert "Flashpoint (5 of 10)" in after(out, "threads progress learn 2")
    assert oracle.thread_progress(second) == 5 and oracle.searched == [first]
    assert "already looked into" in after(out, "threads discover 1")
    shown = after(out, "threads").splitlines()
    points = oracle.thread_progress(first)
    assert shown[1] == f"  1. {first} \u00d73 \u00b7 progress {points}/10, flashpoint at 5"
    assert shown[2] == f"  2. {second} \u00d72 \u00b7 progress 5/10, the end at 10"
    assert after(out, "npcs").splitlines()[1] == "  Old Marta \u00d72 (named by you)"
    log = read_save(tmp_path / "game.json").log
    assert ["m", "threads", "progress", second, "2"] in log and ["m", "threads", "discover", first] in log
    assert GameState.from_dict(json.loads(json.dumps(session.game.state.to_dict()))).oracle == oracle  # snapshot
    again, out2 = play(vellan, ["threads"], tmp_path, log=log)
    assert again.game.state.oracle.to_dict() == oracle.to_dict()  # the replay rolls the same discovery
    assert after(out2, "threads") == after(out, "threads")
    journal = (tmp_path / "game.md").read_text()
    assert "Discovery check on" in journal and "now counts \u00d72 on the list of NPCs" in journal


# -- sessions --------------------------------------------------------------------------------------------


def test_a_session_file_lists_an_entry_again_for_its_weight_and_keeps_progress(tmp_path):
    folder = tmp_path / "sessions"
    session = load_session("heist", folder)
    session.add_thread("Find the courier")
    session.add_thread("find the courier", again=True)  # any case names the thread already open
    session.add_npc("Nora Dahl")
    session.add_npc("Nora Dahl", again=True)
    session.add_npc("Nora Dahl", again=True)
    session.add_progress("1")
    session.add_progress("1")
    save_session(session)
    text = session.path.read_text()
    assert 'threads = ["Find the courier", "Find the courier"]' in text
    assert 'progress = { "Find the courier" = 2 }' in text
    again = load_session("heist", folder)
    assert again.state.to_dict() == session.state.to_dict()
    session.path.write_text(text.replace('npcs = ["Nora Dahl", "Nora Dahl", "Nora Dahl"]',
                                         'npcs = ["Nora Dahl", "Nora Dahl", "Nora Dahl", "Nora Dahl"]'))
    with pytest.raises(ContentError, match="listed 4 times"):
        load_session("heist", folder)
    session.path.write_text('threads = ["A"]\nprogress = { "B" = 2 }\n')
    with pytest.raises(ContentError, match=r"heist.toml:2.*not one of the threads"):
        load_session("heist", folder)
    session.path.write_text('version = 1\ntension = 5\nthreads = ["A"]\nnpcs = []\n')  # as written before
    assert load_session("heist", folder).state.thread_weight("A") == 1


def test_solo_session_weighs_moves_and_discovers(cli_run, tmp_path, monkeypatch):
    monkeypatch.delenv("SOLO_HOME", raising=False)
    saves = ["--saves", str(tmp_path / "saves")]
    cli_run("session", "heist", "--thread", "Find the courier", "--npc", "Nora", *saves)
    out = cli_run("session", "heist", "--thread", "Find the courier", "--npc", "nora", "--progress", "1",
                  "--progress", "1", *saves).output
    assert "Thread counts \u00d72: Find the courier" in out and "NPC counts \u00d72: Nora" in out
    assert "  1. Find the courier \u00d72 \u00b7 progress 2/10, flashpoint at 5" in out and "  1. Nora \u00d72" in out
    result = cli_run("session", "heist", "--discover", "1", "--seed", "3", "--json", *saves)
    data = json.loads(result.output)
    expected = OracleState(threads=["Find the courier"])
    expected.add_progress("Find the courier", 2)
    assert data["discovery"] == discover(random.Random(3), expected, "Find the courier", load_tables()).to_dict()
    refused = cli_run("session", "heist", "--discover", "1", *saves)
    assert refused.exit_code == 2 and "has already been looked into in this scene" in refused.output
    cli_run("scene", "--session", "heist", "--seed", "1", *saves)  # a new scene
    assert cli_run("session", "heist", "--discover", "1", *saves).exit_code == 0
    session = OracleSession("x", tmp_path / "x.toml")
    session.add_thread("T")
    with pytest.raises(Exception, match="1 to 3 points"):
        session.add_progress("1", 4)


@pytest.mark.parametrize("mixed", [False, True])
def test_a_new_scene_lets_the_pcs_look_into_a_thread_again_however_the_last_one_went(tutorial, tmp_path, monkeypatch,
                                                                                      mixed):
    if mixed:  # a scene that leaves the tension where it was is a new scene all the same
        monkeypatch.setattr("solo.story.play.engine.scene_control", lambda went, authored: None)
    lines = ["", "", "threads add Find the smuggler", "1", "threads discover 1", "1", "2", "threads discover 1"]
    session, out = play(tutorial, lines, tmp_path, seed=9)
    state = session.game.state
    assert state.scene == "caught" and state.oracle.tension == (5 if mixed else 6)
    assert out.count("Discovery check on \u201cFind the smuggler\u201d") == 2 and "already looked into" not in out
    assert state.oracle.searched == ["Find the smuggler"]
