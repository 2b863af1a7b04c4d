"""Oracle sessions on disk: ``--session NAME`` for solo oracle, table and scene, and ``solo session``."""

from __future__ import annotations

import json
import os
import re

import pytest

from solo.errors import ContentError
from solo.oracle import oracle_odds, scene_odds, tension_after_scene
from solo.oracle.scenes import scene_faces, scene_kind
from solo.oracle.session_file import (
    MAX_ENTRIES,
    MAX_TEXT,
    READ_LIMIT,
    OracleSession,
    load_session,
    save_session,
    session_path,
    sessions_folder,
)
from solo.paths import PathError


@pytest.fixture
def solo(cli_run, tmp_path, monkeypatch):
    """``solo`` with its saves in tmp/saves, so sessions live in tmp/sessions; run from tmp/work."""
    monkeypatch.delenv("SOLO_HOME", raising=False)
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)

    def run(*args):
        return cli_run(*args, "--saves", str(tmp_path / "saves"))

    return run


def _session(tmp_path, name="heist"):
    return load_session(name, tmp_path / "sessions", must_exist=True)


# -- the file ---------------------------------------------------------------------------------
def test_a_session_round_trips_through_its_file(tmp_path):
    folder = tmp_path / "sessions"
    session = load_session("heist", folder)
    assert session.state.tension == 5 and session.scenes == 0 and not session.path.exists()
    session.add_thread("Find the courier")
    session.add_thread('Who sent the "letter"? {npc} [red]')
    session.add_npc("Nora Dahl")
    session.state.tension = 7
    session.scenes = 3
    session.set_context("At the harbour office, before dawn")
    save_session(session)
    again = load_session("heist", folder)
    assert again.state.to_dict() == session.state.to_dict() and again.scenes == 3
    assert again.state.context == "At the harbour office, before dawn"
    assert [p.name for p in folder.iterdir()] == ["heist.toml"]  # no temporary file left behind


def test_closing_and_removing_by_number_or_text(tmp_path):
    session = OracleSession("s", tmp_path / "s.toml")
    for text in ("one", "two", "three"):
        session.add_thread(text)
    assert session.close_thread("2") == "two"
    assert session.close_thread("THREE") == "three"
    assert session.state.threads == ["one"]
    with pytest.raises(ValueError, match="no thread number 5"):
        session.close_thread("5")
    session.add_npc("Nora")
    with pytest.raises(ValueError, match="no NPC 'Ivar'"):
        session.remove_npc("Ivar")


def test_sizes_are_bounded(tmp_path):
    session = OracleSession("s", tmp_path / "s.toml")
    for i in range(MAX_ENTRIES):
        session.add_thread(f"thread {i}")
    with pytest.raises(ValueError, match=f"at most {MAX_ENTRIES} open threads"):
        session.add_thread("one too many")
    with pytest.raises(ValueError, match="characters long"):
        session.add_npc("x" * (MAX_TEXT + 1))
    with pytest.raises(ValueError, match="control characters"):
        session.add_npc("Nora\nDahl")


@pytest.mark.parametrize("name", ["../outside", "a/b", ".hidden", "", "nul\x00byte", "tab\there", "x" * 300])
def test_hostile_names_are_refused(tmp_path, name):
    with pytest.raises(PathError):
        session_path(name, tmp_path / "sessions")


def test_a_link_leading_outside_the_folder_is_refused(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    outside = tmp_path / "outside.toml"
    outside.write_text("tension = 3\n")
    (folder / "evil.toml").symlink_to(outside)
    with pytest.raises(PathError, match="outside the folder"):
        load_session("evil", folder)
    assert outside.read_text() == "tension = 3\n"


@pytest.mark.parametrize("text, where, message", [
    ("tension = 5\nthreads = [\n", "heist.toml:3", "TOML syntax error"),
    ("version = 1\n\ntension = 12\n", "heist.toml:3: tension", "tension must be 1-9"),
    ('tension = 5\nnpcs = "Nora"\n', "heist.toml:2: npcs", "list of text"),
    ("tension = 5\nmood = 3\n", "heist.toml:2: mood", "unknown field"),
    ("version = 9\n", "heist.toml:1: version", "not supported"),
    ("scenes = -1\n", "heist.toml:1: scenes", "whole number"),
    ('context = "two\\nlines"\n', "heist.toml:1: context", "one line"),
    ('threads = ["' + "x" * (MAX_TEXT + 1) + '"]\n', "heist.toml:1: threads", "characters long"),
    ("threads = [" + ", ".join(['"t"'] * (MAX_ENTRIES + 1)) + "]\n", "heist.toml:1: threads", "at most"),
    # the field said once (a GM-less table: "npcs: npcs: 'Edda Holm' is listed 4 times")
    ('npcs = ["Edda", "Edda", "Edda", "Edda"]\n', "heist.toml:1: npcs: 'Edda' is listed 4 times", "at most 3"),
])
def test_a_damaged_file_is_reported_with_file_and_line(tmp_path, text, where, message):
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / "heist.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_session("heist", folder)
    assert where in str(err.value) and message in str(err.value)


def test_an_oversized_or_binary_file_is_refused_without_reading_it_all(tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / "big.toml").write_bytes(b"#" * (READ_LIMIT + 10))
    with pytest.raises(ContentError, match="larger than"):
        load_session("big", folder)
    (folder / "bin.toml").write_bytes(b"\xff\xfe tension")
    with pytest.raises(ContentError, match="not UTF-8"):
        load_session("bin", folder)


def test_the_sessions_folder_sits_beside_the_saves_or_under_solo_home(tmp_path, monkeypatch):
    monkeypatch.delenv("SOLO_HOME", raising=False)
    monkeypatch.setenv("SOLO_SAVES", str(tmp_path / "data" / "saves"))
    assert sessions_folder() == tmp_path / "data" / "sessions"
    assert sessions_folder(tmp_path / "else" / "saves") == tmp_path / "else" / "sessions"
    monkeypatch.setenv("SOLO_HOME", str(tmp_path / "home"))
    assert sessions_folder() == tmp_path / "home" / "sessions"
    assert sessions_folder(tmp_path / "x" / "saves") == tmp_path / "x" / "sessions"  # --saves wins


# -- the commands -------------------------------------------------------------------------------
def test_scene_end_moves_the_tension_by_the_games_rule(solo, tmp_path):
    for went, control in (("well", True), ("badly", False), ("mixed", None)):
        for start in range(1, 10):
            name = f"t{went}{start}"  # a scene closes once: each close in a session of its own
            assert solo("session", name, "--tension", str(start)).exit_code == 0
            assert solo("scene", "We look around", "--session", name, "--seed", "1").exit_code == 0
            result = solo("scene", "--end", went, "--session", name, "--json")
            assert result.exit_code == 0, result.output
            data = json.loads(result.output)
            assert data["tension_before"] == start
            assert data["tension"] == tension_after_scene(start, control) == _session(tmp_path, name).state.tension


def test_a_scene_closed_without_a_session_says_nothing_keeps_the_new_tension(solo, tmp_path):
    """A GM-less table's run: `solo scene --end well` said "the tension eases from 5 to 4" and kept nothing, with no
    word of it; the next command was back at 5."""
    out = solo("scene", "--end", "well", "--tension", "7").output
    assert "the tension eases from 7 to 6." in out
    assert "No session keeps it: give --tension 6 to the next command, or keep a session with --session NAME." in out
    assert not (tmp_path / "sessions").exists()
    assert solo("scene", "We look around", "--session", "heist", "--seed", "1").exit_code == 0
    kept = solo("scene", "--end", "badly", "--session", "heist").output
    assert "No session keeps it" not in kept and "Session heist" in kept


def test_a_scene_set_up_over_one_never_closed_says_so(solo, tmp_path):
    """A GM-less table's run: a new scene was set up while the last was never closed, with no word that its end,
    which would have moved the tension, was skipped."""
    assert solo("scene", "a", "--session", "s1", "--seed", "1").exit_code == 0
    second = solo("scene", "b", "--session", "s1", "--seed", "1").output
    said = " ".join(second.split())
    assert said.startswith("Scene 1 was not closed, so the tension stays at 5 (close a scene with solo scene "
                           f"--end well|badly|mixed --session s1 --saves {tmp_path / 'saves'}). Scene 2, as you "
                           "expect it: b."), second
    assert solo("scene", "--end", "well", "--session", "s1").exit_code == 0
    assert solo("scene", "c", "--session", "s1", "--seed", "1").output.startswith("Scene 3, as you expect it: c.")


def test_a_session_asked_for_its_journal_says_it_keeps_none(solo, tmp_path):
    """A GM-less table's run: `solo journal dock` said "no saved game at saves/dock.json", with no word that a
    session keeps no journal."""
    assert solo("scene", "On the dock", "--session", "dock", "--seed", "1").exit_code == 0
    asked = solo("journal", "dock")
    assert asked.exit_code == 2 and "'dock' is a session, which keeps its tension, threads and NPCs but no journal " \
        "(solo session dock shows them)" in " ".join(asked.output.split())
    assert "is a session" not in solo("journal", "nothere").output


def test_scene_check_uses_and_counts_the_session(solo, tmp_path):
    assert solo("session", "heist", "--tension", "8", "--npc", "Nora Dahl").exit_code == 0
    kinds = set()
    for seed in range(30):
        result = solo("scene", "We", "search", "the", "office", "--session", "heist", "--seed", str(seed), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data["tension"] == 8 and data["expected"] == "We search the office"
        assert data["kind"] == scene_kind(data["roll"], 8)
        kinds.add(data["kind"])
    assert kinds == {"expected", "altered", "interrupted"}
    assert _session(tmp_path).scenes == 30
    assert _session(tmp_path).state.context == "We search the office"  # what events that name nobody follow
    text = solo("scene", "--session", "heist", "--seed", "1").output
    assert "Scene 31." in text and "interrupted 1-40, altered 41-80, as expected 81-00" in text
    assert "Session heist: tension 8 of 9 · scene 31 · 0 open threads · 1 NPC" in text


def test_what_solo_scene_says_to_run_next_is_a_command_a_shell_runs(solo, tmp_path):
    """A new player typed the 'Keep them with: npcs add NAME' that `solo scene` printed, and the shell answered
    'bash: npcs: command not found': those are commands of play. At a shell the follow-ups are `solo session`'s
    own options, for the session in use (or NAME, for one to keep them in), and each one runs."""
    import shlex

    assert solo("session", "our heist", "--thread", "Find the ledger").exit_code == 0
    follow_ups = {}
    for seed in range(200):
        for session in (("--session", "our heist"), ()):
            text = solo("scene", "We meet the fence", *session, "--seed", str(seed)).output
            assert "npcs add" not in text and "threads add" not in text and "threads close" not in text
            for part in text.replace("; ", ". ").split(". "):
                for lead in ("Keep them with: ", "Keep it with: ", "close the thread with: ", "mark the progress: "):
                    if lead in part:
                        said = part.split(lead)[1].splitlines()[0]
                        follow_ups.setdefault((lead, bool(session)), said.strip().rstrip("."))
    assert {lead for lead, kept in follow_ups if kept} == {"Keep them with: ", "Keep it with: ",
                                                           "close the thread with: ", "mark the progress: "}
    assert follow_ups[("Keep them with: ", False)] == "solo session SESSION_NAME --npc NAME"
    for (_, kept), command in sorted(follow_ups.items(), key=lambda kv: "close" in kv[0][0]):  # close last
        if not kept:
            continue
        words = shlex.split(command)
        assert words[:3] == ["solo", "session", "our heist"], command
        args = [w.replace("NAME", "Nora Dahl").replace("TEXT", "Who sent the fence") for w in words[1:]]
        assert solo(*args).exit_code == 0, command


def test_an_entry_named_past_its_weight_in_one_command_says_how_and_keeps_nothing(solo, tmp_path):
    """A new player's run: Nora was listed once, then `--npc "nora dahl" --npc "NORA DAHL" --npc "Nora Dahl"` said
    "'Nora Dahl' already counts 3 times": two of the three were that command's own, and nothing was kept."""
    assert solo("session", "heist", "--npc", "Nora Dahl").exit_code == 0
    result = solo("session", "heist", "--npc", "nora dahl", "--npc", "NORA DAHL", "--npc", "Nora Dahl")
    assert result.exit_code == 2
    assert "2 of them named in this command; the session is left as it was" in result.output
    assert _session(tmp_path).state.npcs == ["Nora Dahl"] and _session(tmp_path).state.npc_weight("Nora Dahl") == 1


def test_an_npc_gone_from_a_session_without_npcs_says_the_session_has_none(solo):
    """A docs audit: "no NPC number 1 (none are open)" spoke of NPCs in the words of threads."""
    assert solo("session", "dock", "--thread", "Find the courier").exit_code == 0
    gone = solo("session", "dock", "--npc-gone", "1")
    assert gone.exit_code == 2 and "no NPC number 1 (the session has no NPCs)" in gone.output
    for _ in range(2):
        assert solo("session", "dock", "--thread", "Find the courier").exit_code == 0
    most = solo("session", "dock", "--thread", "Find the courier")  # play's own words, which the docs quote
    assert most.exit_code == 2
    assert "\u201cFind the courier\u201d already counts 3 times, the most a thread can" in most.output


def test_a_scene_closes_once_and_the_next_check_opens_another(solo, tmp_path):
    """A new player's run: `solo scene --end well --session saltmarsh` three times eased the tension three times
    for one scene ("Scene 2 went well … 3 to 2", then "2 to 1"), and each emptied the scene's searches again. And a
    group's evening: a session made with `solo session fresh --thread B` had no scene, yet `--end badly` raised its
    tension for "scene 0"; nothing is closed before a scene is set up."""
    assert solo("session", "fresh", "--thread", "B").exit_code == 0
    early = solo("scene", "--end", "badly", "--session", "fresh")
    assert early.exit_code == 2 and "Session fresh has no scene yet to close" in early.output
    assert _session(tmp_path, "fresh").state.tension == 5 and not _session(tmp_path, "fresh").closed
    assert solo("scene", "We search the cabin", "--session", "heist", "--seed", "1").exit_code == 0
    first = solo("scene", "--end", "well", "--session", "heist")
    assert first.exit_code == 0 and "Scene 1 went well: the tension eases from 5 to 4." in first.output
    again = solo("scene", "--end", "well", "--session", "heist")
    assert again.exit_code == 2 and "Scene 1 of session heist is closed already" in again.output
    assert _session(tmp_path).state.tension == 4 and _session(tmp_path).closed
    assert solo("scene", "On deck", "--session", "heist", "--seed", "2").exit_code == 0
    assert not _session(tmp_path).closed
    mixed = solo("scene", "--end", "mixed", "--session", "heist")
    assert "Scene 2 had mixed results: the tension stays at 4" in mixed.output  # not "went mixed"


def test_scene_faces_agree_with_the_odds():
    for tension in range(1, 10):
        faces = scene_faces(tension)
        odds = scene_odds(tension)
        for kind, span in faces.items():
            width = span[1] - span[0] + 1 if span else 0
            assert width / 100 == odds[kind]


def test_oracle_uses_the_sessions_tension_and_keeps_what_it_is_given(solo, tmp_path):
    assert solo("session", "heist", "--tension", "7").exit_code == 0
    result = solo("oracle", "Is the guard awake?", "--odds", "likely", "--session", "heist",
                  "--npc", "Nora Dahl", "--thread", "Find the courier", "--seed", "3")
    assert result.exit_code == 0, result.output
    chance = oracle_odds("likely", 7).chance
    assert f"Odds: likely at tension 7: yes on a roll of {chance} or less." in result.output
    assert "Session heist: tension 7 of 9 · scene 0 · 1 open thread · 1 NPC" in result.output
    kept = _session(tmp_path).state
    assert kept.npcs == ["Nora Dahl"] and kept.threads == ["Find the courier"] and kept.tension == 7
    again = solo("oracle", "Q", "--session", "heist", "--tension", "2", "--json")
    assert json.loads(again.output)["odds"]["tension"] == 2 and _session(tmp_path).state.tension == 2


def test_a_misspelt_session_is_named_not_silently_started(solo, tmp_path):
    """A GM-less table's run: `solo oracle … --session dokc` answered at a fresh tension 5 (their session 'dock'
    stood at 6) and kept nothing, and `solo scene … --session dokc` then started a second session without a word.
    The oracle, which only reads it, refuses a name with no session and offers the one meant; a command that
    starts one says it is new, and the name it may have meant."""
    assert solo("scene", "On the dock", "--session", "dock", "--tension", "6", "--seed", "1").exit_code == 0
    asked = solo("oracle", "Is the hatch open?", "--session", "dokc", "--seed", "1")
    said = " ".join(asked.output.split())
    assert asked.exit_code == 2 and "no session 'dokc' yet: did you mean 'dock'?" in said
    # how to start one by the name given comes after the name meant, with the saves folder it was found through
    # (a group's evening: "start one with solo scene --session fery" read as advice to keep the slip)
    assert f"(to start one called 'dokc': solo scene \"…\" --session dokc --saves {tmp_path / 'saves'})" in said
    assert not (tmp_path / "sessions" / "dokc.toml").exists()
    started = solo("scene", "x", "--session", "dokc", "--seed", "1")
    assert started.exit_code == 0 and "Session dokc, new (did you mean 'dock'?): tension 5 of 9" in started.output
    again = solo("scene", "y", "--session", "dokc", "--seed", "1")
    assert "Session dokc: tension 5 of 9 · scene 2" in again.output  # no longer new
    kept = solo("oracle", "Q", "--session", "fresh", "--npc", "Rin Halden", "--seed", "1")  # given something to keep
    assert kept.exit_code == 0 and "Session fresh, new: tension 5 of 9" in kept.output


def test_solo_session_says_a_session_it_starts_is_new_and_the_one_meant(solo, tmp_path):
    """The review: `solo session dokc --thread X` started a session and said nothing of 'dock'; JSON had no word."""
    assert solo("scene", "On the dock", "--session", "dock", "--seed", "1").exit_code == 0
    started = solo("session", "dokc", "--thread", "Who else is aboard?")
    assert started.exit_code == 0 and "Session dokc, new (did you mean 'dock'?): tension 5 of 9" in started.output
    looked = solo("session", "dokk")
    said = " ".join(looked.output.split())
    assert "Session dokk (not begun: nothing is kept until a thread, an NPC, a tension or a scene is: solo session " \
           "dokk --saves " in said and "did you mean 'dokc'?)" in said
    assert json.loads(solo("session", "dokk", "--json").output)["new"] is True
    assert json.loads(solo("session", "dock", "--json").output)["new"] is False
    assert json.loads(solo("scene", "y", "--session", "fresh", "--json").output)["session_new"] is True
    assert json.loads(solo("oracle", "Q", "--session", "dock", "--json").output)["session_new"] is False


def test_oracle_events_can_name_the_sessions_npc(solo, tmp_path):
    from solo.oracle import OracleState, ask, load_tables
    from solo.rules.dice import new_rng

    solo("session", "heist", "--npc", "Nora Dahl", "--tension", "9")
    tables = load_tables([])
    seed = next(s for s in range(5000)
                if "Nora Dahl" in json.dumps(ask(new_rng(s), "Q", state=OracleState(tension=9, npcs=["Nora Dahl"]),
                                                 tables=tables).to_dict()))
    data = json.loads(solo("oracle", "Q", "--session", "heist", "--seed", str(seed), "--json").output)
    assert "Nora Dahl" in data["event"]["text"]
    plain = json.loads(solo("oracle", "Q", "--tension", "9", "--seed", str(seed), "--json").output)
    assert "Nora Dahl" not in json.dumps(plain)


def test_table_rows_draw_on_the_session(solo, tmp_path):
    mine = tmp_path / "tables"
    mine.mkdir()
    (mine / "mine.toml").write_text('[tables.visit]\nrows = ["{npc} knocks", "nobody comes"]\n')
    solo("session", "heist", "--npc", "Nora Dahl")
    seen = {solo("table", "visit", "--tables", str(mine), "--session", "heist", "--seed", str(s)).output
            for s in range(20)}
    assert any("Nora Dahl knocks" in line for line in seen)
    empty = {solo("table", "visit", "--tables", str(mine), "--session", "empty", "--seed", str(s)).output
             for s in range(5)}
    assert all("no session 'empty'" in line for line in empty)  # table never makes a session up
    # a new player's run: "(31 on 1-71)" under a session with nobody in it could not be matched against the
    # table --show lists (1-100, where 31 is another row); the smaller die now says why it is smaller
    solo("session", "bare", "--thread", "Find the ledger")
    solo("session", "bare", "--close", "1")
    bare = solo("table", "event_focus", "--session", "bare", "--seed", "3").output
    assert re.search(r"\(\d+ on 1-(\d+), the rows that need an NPC or a thread left out: there is none to name\)",
                     bare), bare
    whole = solo("table", "event_focus", "--seed", "3").output
    assert "on 1-100)" in whole and "left out" not in whole
    # a GM-less group's run: a session with an NPC and no thread was told the NPC rows were left out too; the
    # roll and the table as --show lists it name only the slot left empty
    solo("session", "folk", "--npc", "Nora Dahl")
    folk = solo("table", "event_focus", "--session", "folk", "--seed", "3").output
    assert re.search(r"\(\d+ on 1-\d+, the rows that need a thread left out: there is none to name\)", folk), folk
    shown = solo("table", "event_focus", "--session", "folk", "--show").output.splitlines()[0]
    assert shown.endswith(": the rows that need a thread are left out, the session has none to name)"), shown


def test_session_command_lists_changes_and_shows(solo, tmp_path):
    assert "No sessions in" in solo("session").output
    result = solo("session", "heist", "--thread", "Find the courier", "--thread", "Pay the debt",
                  "--thread", "Leave town", "--npc", "Nora")
    assert result.exit_code == 0
    fresh = " \u00b7 progress 0/10, flashpoint at 5"
    assert f"  1. Find the courier{fresh}\n  2. Pay the debt{fresh}\n  3. Leave town{fresh}" in result.output
    result = solo("session", "heist", "--close", "1", "--close", "3")  # both read against the list shown
    assert "Closed thread: Find the courier" in result.output and "Closed thread: Leave town" in result.output
    assert _session(tmp_path).state.threads == ["Pay the debt"]
    assert solo("session").output.splitlines()[1:] == ["  heist"]
    bad = solo("session", "heist", "--close", "9")
    assert bad.exit_code == 2 and "no thread number 9" in bad.output


def test_commands_refuse_hostile_session_names_and_write_nothing(solo, tmp_path):
    for name in ("../x", "a/b", ".x"):
        result = solo("scene", "--session", name)
        assert result.exit_code == 2 and "the session name" in result.output
    assert not (tmp_path / "x.toml").exists() and not (tmp_path / "sessions").exists()
    assert not os.listdir(tmp_path / "work")  # nothing appears in the working folder either


def test_a_damaged_session_stops_the_command_with_file_and_line(solo, tmp_path):
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "heist.toml").write_text("tension = 5\ntension = 6\n")
    result = solo("oracle", "Q", "--session", "heist")
    assert result.exit_code == 2 and "heist.toml:2" in result.output


def test_the_player_characters_a_session_names_are_shown(solo, tmp_path):
    """A GM-less table's run: ``pcs`` in a session file worked (random events read "Trouble lands on Tor Lunde"),
    yet the docs named no such field and ``solo session`` never showed it. It is shown, in words and JSON."""
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "heist.toml").write_text('version = 1\ntension = 5\npcs = ["Tor Lunde", "Mia Berg"]\n')
    shown = solo("session", "heist")
    assert shown.exit_code == 0 and "Player characters: Tor Lunde, Mia Berg" in shown.output, shown.output
    assert json.loads(solo("session", "heist", "--json").output)["pcs"] == ["Tor Lunde", "Mia Berg"]
    (tmp_path / "sessions" / "plain.toml").write_text("version = 1\ntension = 5\n")
    assert "Player characters" not in solo("session", "plain").output


def test_a_random_event_says_what_to_keep_of_it_in_the_session(solo, tmp_path):
    """A GM-less table's run: "A step towards settling a thread: Who sent the anonymous letter?" and the session's
    track left at 0, with no word of how to mark it, where solo scene says it. solo oracle says it too, as commands
    of the session; a situation that asks a question is not closed with a stray full stop."""
    assert solo("session", "beacon", "--thread", "Who sent the anonymous letter?").exit_code == 0
    moved = " ".join(solo("oracle", "Q?", "--session", "beacon", "--seed", "91").output.split())
    assert "A thread moves towards its end: Who sent the anonymous letter?" in moved, moved
    beacon = f"solo session beacon --saves {tmp_path / 'saves'}"  # found through --saves: its hints carry it
    assert f"close the thread with: {beacon} --close 1" in moved
    assert f"mark the progress: {beacon} --progress 1" in moved
    new = " ".join(solo("oracle", "Q?", "--session", "beacon", "--seed", "77").output.split())
    assert f"It follows the open thread: Who sent the anonymous letter? Keep it with: {beacon} " \
           "--thread TEXT" in new, new


def test_without_a_session_nothing_is_written(solo, tmp_path):
    assert solo("oracle", "Q", "--seed", "1").exit_code == 0
    assert solo("scene", "--seed", "1").exit_code == 0
    assert solo("scene", "--end", "well", "--tension", "3").output.strip() == \
        "The scene went well: the tension eases from 3 to 2.\nNo session keeps it: give --tension 2 to the next " \
        "command, or keep a session with --session NAME."
    assert not (tmp_path / "sessions").exists()


def test_with_solo_home_no_command_writes_sessions_into_the_current_folder(tmp_path, monkeypatch):
    """Issue 31, point 7: sessions live under SOLO_HOME, wherever solo is started."""
    from click.testing import CliRunner

    from solo.cli import cli

    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    monkeypatch.setenv("SOLO_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    for args in (["session", "heist", "--thread", "Who?"], ["scene", "We go", "--session", "heist"],
                 ["oracle", "Is it?", "--session", "heist"], ["scene", "--end", "well", "--session", "heist"]):
        assert runner.invoke(cli, args).exit_code == 0
    assert list(here.iterdir()) == []
    assert (tmp_path / "home" / "sessions" / "heist.toml").is_file()


def test_a_thread_no_session_keeps_is_not_closed_by_a_command_no_session_could_take():
    """A group's evening: `solo oracle "Does the bell ring?" --thread "The bell"` (no session) drew "A thread moves
    towards its end: The bell" and "close the thread with: solo session SESSION --close 1". A thread given for one
    command is kept nowhere: the event says it is done, and how to keep threads in a session."""
    from solo.cli.scene import session_shell
    from solo.ui.describe import UNKEPT, event_follow_up

    assert session_shell(None) == UNKEPT
    alone = event_follow_up({"closes": 1}, UNKEPT, kept=False)
    assert "the thread is done" in alone and "--close" not in alone and f"{UNKEPT} --thread TEXT" in alone
    kept = event_follow_up({"closes": 1}, "solo session heist")
    assert "solo session heist --close 1" in kept and "solo session heist --progress 1" in kept
    # a session may be called anything, even what the placeholder reads (the review: one called NAME lost its --close)
    odd = event_follow_up({"closes": 1}, UNKEPT)
    assert f"{UNKEPT} --close 1" in odd


def test_an_event_about_a_thread_with_none_kept_asks_the_table_to_choose_one(solo):
    """A group's evening: `solo oracle "Is it open?" -t 9 --seed 21`, no session and no thread, drew "A step towards
    settling a thread: an open thread.", which read as a slot left empty. With no thread to name, the row asks the
    table to choose the one that matters."""
    for seed in range(1, 200):  # the first event about a thread (seed 21, as the tables stand)
        out = " ".join(solo("oracle", "Is it open?", "-t", "9", "--seed", str(seed)).output.split())
        if "thread" in out.split("Random event:", 1)[-1]:
            break
    assert "Random event:" in out and "an open thread" not in out, out
    assert ": the one that matters most to you now." in out, out


def test_a_thread_moved_and_closed_in_one_command_is_told_and_kept_whole(solo, tmp_path):
    """A group's evening: `solo session g --progress 1 --close 1` crashed ("internal error: ValueError: … is not in
    list") after the session was saved, its progress line never shown; `--discover 3 --close 3` the same, the
    discovery's words lost. The progress and the discovery are told, with no command to close what is closed."""
    assert solo("session", "g", "--thread", "Who paid the crowd?", "--thread", "Where is the boat?").exit_code == 0
    moved = solo("session", "g", "--progress", "1", "--close", "1")
    assert moved.exit_code == 0, moved.output
    assert "Progress on \u201cWho paid the crowd?\u201d: 0 \u2192 1" in moved.output
    assert "Closed thread: Who paid the crowd?" in moved.output and "--close 1" not in moved.output
    found = solo("session", "g", "--discover", "1", "--close", "1", "--seed", "1")
    assert found.exit_code == 0, found.output
    assert "Discovery check on \u201cWhere is the boat?\u201d" in found.output and "--close" not in found.output
    assert _session(tmp_path, "g").state.threads == []


def test_two_discovery_checks_in_one_command_are_refused_not_one_dropped(solo, tmp_path):
    """A group's evening: `--discover 1 --discover 2` checked thread 2 alone, without a word of thread 1."""
    assert solo("session", "g", "--thread", "One", "--thread", "Two").exit_code == 0
    both = solo("session", "g", "--discover", "1", "--discover", "2")
    assert both.exit_code == 2 and "one --discover a command" in both.output
    assert not _session(tmp_path, "g").state.searched


def test_hints_for_a_session_found_through_saves_carry_the_saves(solo, tmp_path):
    """A group's evening: hints printed with --saves DIR ("Keep them with: solo session f --npc NAME", "then close it:
    solo session f --close 1") acted, typed as printed, on ./sessions/f.toml: another session. Each carries --saves."""
    saves = f"--saves {tmp_path / 'saves'}"
    assert solo("session", "f", "--thread", "Why was the lamp lit?").exit_code == 0
    said = " ".join(" ".join(solo("session", "f", "--progress", "1").output.split()) for _ in range(10))
    assert f"solo session f {saves} --close 1" in said, said
    assert solo("scene", "On the quay", "--session", "f", "--seed", "2").exit_code == 0
    unclosed = solo("scene", "In the cabin", "--session", "f", "--seed", "2")
    assert f"--end well|badly|mixed --session f {saves})" in " ".join(unclosed.output.split()), unclosed.output


@pytest.mark.parametrize("args", [("scene", "--end", "well", "--session", "fery"),
                                  ("session", "fery", "--close", "1"), ("session", "fery", "--npc-gone", "1"),
                                  ("session", "fery", "--progress", "1")])
def test_a_command_on_a_session_that_is_not_there_says_so(solo, tmp_path, args):
    """A group's evening: `--session fery` (for 'ferry') was told "has no scene yet to close", "no thread number 1:
    there are 0 open threads", "no NPC number 1", as if 'fery' were there and empty; the first advised starting it."""
    assert solo("scene", "At the ferry", "--session", "ferry", "--seed", "1").exit_code == 0
    told = solo(*args)
    assert told.exit_code == 2 and "no session 'fery' yet: did you mean 'ferry'?" in " ".join(told.output.split())
    assert not (tmp_path / "sessions" / "fery.toml").exists()


def test_a_scene_set_up_without_a_situation_leaves_the_last_ones_behind(solo, tmp_path):
    """A group's evening: scene 5 set up with no expectation kept scene 4's "We take the ferry to the skerry …", and
    scene 6's random event "follows the current situation" of it, two scenes old; after `--end` the session still
    said "This scene: …" of a scene closed. A scene with no situation has none; a closed one is said to be."""
    assert solo("scene", "We take the ferry to the skerry", "--session", "f", "--seed", "1").exit_code == 0
    assert solo("scene", "--end", "well", "--session", "f").exit_code == 0
    shown = solo("session", "f")
    assert "Last scene (closed): We take the ferry to the skerry" in shown.output, shown.output
    assert solo("scene", "--session", "f", "--seed", "3").exit_code == 0
    assert _session(tmp_path, "f").state.context == ""
    assert "skerry" not in solo("session", "f").output
    data = json.loads(solo("session", "f", "--json").output)
    assert data["context"] == "" and data["closed"] is False


def test_small_slips_of_a_group_are_read_or_named(solo, cli_run):
    """A group's evening: `--end Well` refused though odds words take any case; `solo npc --level skiled`, `solo table
    lst` and `solo npc --disposition hostile` (the oracle's own reaction word for Malicious) offered nothing near."""
    assert solo("scene", "x", "--session", "t1", "--seed", "1").exit_code == 0
    ended = solo("scene", "--end", "Well", "--session", "t1")
    assert ended.exit_code == 0 and "went well" in ended.output, ended.output
    assert "(did you mean 'skilled'?)" in cli_run("npc", "--level", "skiled").output
    assert "(did you mean solo table list?)" in cli_run("table", "lst").output
    hostile = cli_run("npc", "--disposition", "hostile", "--seed", "1", "--json")
    assert hostile.exit_code == 0 and json.loads(hostile.output)["code_block"]["disposition"] == "Malicious"


def test_an_npc_leaves_by_the_start_of_its_name_as_a_thread_closes_by_the_start_of_its_words(solo, tmp_path):
    """A group's evening: `--npc-gone maud` and `--npc-gone 'jonas "gull" pike'` (no emoji) found no one, where
    `--close` takes the start of a thread. The start of a name does, where only one name starts so."""
    assert solo("session", "f", "--npc", "Maud Hallam", "--npc", 'Jonas "Gull" Pike \U0001F41F',
                "--npc", "Maud Berg").exit_code == 0
    two = solo("session", "f", "--npc-gone", "maud")
    said = " ".join(two.output.split())
    assert two.exit_code == 2 and "\u201cmaud\u201d starts more than one NPC (1. Maud Hallam, 3. Maud Berg): give " \
        "more of it, or its number" in said, said
    assert solo("session", "f", "--thread", "Find the boat", "--thread", "Find the key").exit_code == 0
    threads = " ".join(solo("session", "f", "--close", "find").output.split())  # worded alike (a review)
    assert "\u201cfind\u201d starts more than one thread (1. Find the boat, 2. Find the key): give more of it, or " \
        "its number" in threads, threads
    assert solo("session", "f", "--npc-gone", "maud h").exit_code == 0
    assert solo("session", "f", "--npc-gone", 'jonas "gull" pike').exit_code == 0
    assert _session(tmp_path, "f").state.npcs == ["Maud Berg"]
    nobody = solo("session", "f", "--npc-gone", "Hallam")
    assert nobody.exit_code == 2 and "no NPC 'Hallam' in this session (its NPCs: Maud Berg)" in nobody.output


def test_second_review_of_sessions_and_tables(solo, cli_run, tmp_path):
    """A review: a thread pushed to the end of its track and closed in one command was told "then close it."; an
    event after `--end` "follows the current situation" of the closed scene; `solo session --saves DIR` with none
    kept advised a command without its --saves; `solo table LIST` and `lists` were read as tables."""
    assert solo("session", "g", "--thread", "The bell").exit_code == 0
    for _ in range(9):
        assert solo("session", "g", "--progress", "1").exit_code == 0
    settled = " ".join(solo("session", "g", "--progress", "1", "--close", "1").output.split())
    assert "the thread is settled" in settled and "then close it" not in settled, settled
    empty = " ".join(cli_run("session", "--saves", str(tmp_path / "other" / "saves")).output.split())
    assert f"start one with solo scene --session NAME --saves {tmp_path / 'other' / 'saves'}." in empty, empty
    assert solo("scene", "Crossing the ice", "--session", "ev", "--seed", "1").exit_code == 0
    assert solo("scene", "--end", "well", "--session", "ev").exit_code == 0
    asked = []
    for seed in range(200):
        told = " ".join(solo("oracle", "Q?", "--session", "ev", "--seed", str(seed)).output.split())
        if "Random event" in told and "Crossing the ice" in told:
            asked.append(told)
            break
    assert asked and "It follows the last scene: Crossing the ice." in asked[0], asked
    listed = cli_run("table", "LIST")  # the command, in any case
    assert listed.exit_code == 0 and "meaning.toml" in listed.output, listed.output
    slipped = cli_run("table", "lists")  # the command meant, before any table near it ('twist')
    assert slipped.exit_code == 2 and "(did you mean solo table list?)" in slipped.output, slipped.output


def test_a_tables_shown_chances_with_a_session_are_those_its_roll_has(solo):
    """A GM-less table's evening: with a session that named no NPC, `solo table event_focus --session mill --show`
    listed "A new person steps into the story" at 5.0 % and the {npc} rows at 9 % and 3 %, while the roll the same
    command made drew from the other rows only (5 in 71, and never an {npc} row)."""
    from solo.oracle import load_tables

    assert solo("session", "mill", "--thread", "Find the miller").exit_code == 0
    shown = json.loads(solo("table", "event_focus", "--session", "mill", "--show", "--json").output)
    table = load_tables().get("event_focus")
    kept = [row for row in table.rows if "{npc}" not in row.text]
    die = sum(row.weight for row in kept)
    assert shown["die"] == die < table.total_weight
    for row, told in zip(table.rows, shown["rows"]):
        assert told["chance"] == (row.weight / die if row in kept else 0.0), row.text
    text = solo("table", "event_focus", "--session", "mill", "--show").output
    assert f"— d{die} (of {table.total_weight}: the rows that need an NPC are left out" in text
    # every roll lands on a row shown with a chance, on the die shown
    for seed in range(40):
        rolled = json.loads(solo("table", "event_focus", "--session", "mill", "--seed", str(seed), "--json").output)
        assert rolled["out_of"] == die and "npc" not in rolled["slots"], rolled
    plain = json.loads(solo("table", "event_focus", "--show", "--json").output)
    assert plain["die"] == table.total_weight and all(r["chance"] > 0 for r in plain["rows"])
    assert "never changed" in " ".join(solo("table", "--help").output.split())


def test_an_event_about_a_thread_at_the_end_of_its_track_offers_no_progress_to_mark(solo):
    """A GM-less table's evening: with "Find the poisoner" at 10 of 10, a random event said "if it only moves it on,
    mark the progress: solo session endt --progress 1", and that command was refused ("at the end of its track")."""
    assert solo("session", "endt", "--thread", "Find the poisoner").exit_code == 0
    assert solo("session", "endt", *["--progress", "1"] * 10).exit_code == 0
    told = []
    for seed in range(300):
        out = " ".join(solo("oracle", "Does the miller confess?", "--session", "endt", "--seed",
                            str(seed)).output.split())
        if "close the thread with" in out:
            told.append(out)
    assert told and all("(its track is full: it can only be settled now)" in t and "--progress" not in t
                        for t in told)
    assert solo("session", "endt", "--progress", "1").exit_code != 0  # (what it would have offered is refused)
    assert solo("session", "half", "--thread", "Find the well").exit_code == 0
    offered = [" ".join(solo("oracle", "Is it dry?", "--session", "half", "--seed", str(s)).output.split())
               for s in range(300)]
    assert any(re.search(r"mark the progress: solo session half .*--progress 1", o) for o in offered)


def test_the_session_files_header_says_what_an_edit_keeps(solo, tmp_path):
    """A GM-less table's evening: the header said "Edit it if you like", and the comments a player added were gone
    at the next command; nor did it name pcs, the one field no command sets."""
    assert solo("session", "mire", "--npc", "Mag").exit_code == 0
    path = tmp_path / "sessions" / "mire.toml"
    path.write_text(path.read_text(encoding="utf-8") + "# Mag owes Hild a favour\n", encoding="utf-8")
    assert solo("session", "mire", "--npc", "Sister Wynn").exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert "Mag owes Hild" not in text  # as the header now says
    head = " ".join(line.lstrip("# ") for line in text.splitlines() if line.startswith("#"))
    assert "comments added here are not kept" in head and "pcs the player characters' names" in head


def test_a_name_added_that_reads_like_one_kept_is_said_with_how_to_take_it_out(solo):
    """A GM-less table's evening: `--npc "Mag the ferrywomen"` beside a kept "Mag the ferrywoman" was kept as a second
    NPC, picked as often as the first, with nothing said but "4 NPCs"."""
    assert solo("session", "mire", "--npc", "Mag the ferrywoman", "--thread", "Find the pilot").exit_code == 0
    asked = " ".join(solo("oracle", "Does Mag help us?", "--npc", "Mag the ferrywomen", "--session", "mire",
                          "--seed", "2").output.split())
    assert ("Added an NPC of its own: 'Mag the ferrywomen', though 'Mag the ferrywoman' is kept already; if they "
            "are one, take the new one out: solo session mire") in asked
    assert "--npc-gone 'Mag the ferrywomen'" in asked
    told = " ".join(solo("session", "mire", "--thread", "Find the pilots").output.split())
    assert "Added a thread of its own: 'Find the pilots', though 'Find the pilot' is kept already" in told
    # its own command takes it out; a name like no other, or one kept already, says nothing of the kind
    assert solo("session", "mire", "--npc-gone", "Mag the ferrywomen").exit_code == 0
    quiet = solo("session", "mire", "--npc", "Sister Wynn", "--npc", "Mag the ferrywoman").output
    assert "of its own" not in quiet
    assert json.loads(solo("session", "mire", "--json").output)["npcs"] == ["Mag the ferrywoman", "Sister Wynn"]


def test_the_oracle_adds_a_name_in_another_case_to_the_entry_a_session_keeps(solo):
    """A GM-less table: `solo oracle … --session friday --npc "edda holm" --thread "who is bribing …?"` added
    "edda holm" beside Edda Holm and a second thread, splitting their weight and progress, where oracle.md says a
    name typed again in another case is the same entry (as `solo session --npc` already read it)."""
    solo("session", "friday", "--npc", "Edda Holm", "--thread", "Who is bribing the archive clerk?")
    asked = solo("oracle", "Is she in?", "--session", "friday", "--npc", "edda holm", "--thread",
                 "who is bribing the archive clerk?", "--seed", "1")
    assert asked.exit_code == 0, asked.output
    data = json.loads(solo("session", "friday", "--json").output)
    assert [n if isinstance(n, str) else n["name"] for n in data["npcs"]] == ["Edda Holm"], data
    assert len(data["threads"]) == 1, data


def test_an_overlong_expectation_is_said_in_the_players_words(solo):
    """A GM-less table: "the scene's context is 300 characters long (at most 200)", where the command asks what you
    expect."""
    solo("session", "eve", "--thread", "x")
    refused = solo("scene", "x" * 300, "--session", "eve", "--seed", "1")
    assert refused.exit_code == 2
    assert "what you expect of the scene is 300 characters long" in " ".join(refused.output.split())


def test_a_thread_of_a_number_alone_is_refused(solo):
    """A GM-less table: `solo session t --thread 2` opened a thread called "2", and a thread "1984" could not be
    closed by its words ("no thread number 1984"): every command reads a number as a thread's place."""
    refused = solo("session", "nums", "--thread", "1984")
    assert refused.exit_code == 2 and "a thread needs words, not a number alone" in " ".join(refused.output.split())
    assert solo("session", "nums", "--thread", "1984 and after").exit_code == 0
