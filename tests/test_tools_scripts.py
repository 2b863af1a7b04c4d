"""Strict ``--script`` play (issue 14, point 4) and where character files go (point 2).

A script's answer that fits no option stops the game with the script's file and
line (exit 3) and no later line is fed to anything; a script that ends before the
game does exits 4 unless ``--partial``; either way the game is saved. Scripted,
piped and simulated play write no character files unless ``--keep-characters``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.characters import load_character
from solo.cli import cli
from solo.cli.play import _characters_dir
from solo.saves import read_save

# A foyer with a cloak: two choices share the words "Go south", told apart by their conditions.
CLOAK = """\
[adventure]
id = "cloak"
title = "Cloak"
start = "foyer"

[scenes.foyer]
text = "A foyer."

[[scenes.foyer.choices]]
text = "Hang the cloak"
if = "not cloak_off"
effects = [ { set = "cloak_off" } ]

[[scenes.foyer.choices]]
text = "Go south"
if = "cloak_off"
goto = "won"

[[scenes.foyer.choices]]
text = "Go south"
if = "not cloak_off"
goto = "lost"

[scenes.won]
title = "The end"
text = "Light."
ending = true
outcome = "won"

[scenes.lost]
title = "The end"
text = "Dark."
ending = true
outcome = "lost"
"""
EPILOGUE = ["no", "keep"]  # did Espen act by his Willpower? keep the improvement roll


@pytest.fixture
def cloak(tmp_path):
    path = tmp_path / "cloak.toml"
    path.write_text(CLOAK, encoding="utf-8")
    return path


def play(folder: Path, adventure: Path, lines: list[str], *extra: str, chdir: bool = True):
    """``solo play`` of ``adventure`` as Espen with seed 1, answered by a script file; saves in folder/saves."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "walk.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["play", str(adventure), "--pc", "espen", "--seed", "1", "--script", str(script),
            "--saves", str(folder / "saves"), *extra]
    result = CliRunner().invoke(cli, args)
    return result, script


def answers_saved(folder: Path) -> list[str]:
    return [e[2] for e in read_save(folder / "saves" / "cloak.json").log if e[0] == "a"]


# -- point 4: strict scripts ---------------------------------------------------------------------
def test_an_answer_that_fits_no_option_stops_with_the_file_and_line(tmp_path, cloak):
    # line 1 hangs the cloak; line 3 (after a comment) fits nothing; line 4 would win if it were fed on
    result, script = play(tmp_path, cloak, ["1", "# then south", "banana", "1", *EPILOGUE])
    assert result.exit_code == 3, result.output
    flat = " ".join(result.output.split())
    assert f"{script}:3: 'banana' is not an answer here" in flat
    assert "The game is over" not in flat and "The end" not in flat  # "1" on line 4 was never fed
    assert answers_saved(tmp_path) == ["c1"]  # the game is saved up to the refused line, and no further
    assert "solo play --load" in flat


def test_a_prefix_that_fits_one_option_goes_on_and_an_empty_line_without_default_stops(tmp_path, cloak):
    result, _ = play(tmp_path, cloak, ["Go", *EPILOGUE])  # "Go south" is the only option starting so
    assert result.exit_code == 0, result.output
    result, script = play(tmp_path / "b", cloak, ["", *EPILOGUE])  # Enter at a menu with no default
    assert result.exit_code == 3
    said = " ".join(result.output.split())  # the two numbers the menu shows, each with its label
    assert re.search(rf"{re.escape(str(script))}:1: Enter alone is not an answer here\. Answer with one of: "
                     r"1 \([^)]+\), 3 \([^)]+\)\. The script stops here", said), said


def test_a_script_that_ends_early_exits_4_and_the_game_is_saved(tmp_path, cloak):
    result, script = play(tmp_path, cloak, ["1"])
    assert result.exit_code == 4, result.output
    flat = " ".join(result.output.split())
    assert f"{script}: the script ended after 1 answer, before the game did" in flat and "--partial" in flat
    assert answers_saved(tmp_path) == ["c1"]


def test_partial_lets_a_script_end_early(tmp_path, cloak):
    result, _ = play(tmp_path, cloak, ["1"], "--partial")
    assert result.exit_code == 0, result.output
    assert "Input ended; the game is saved" in " ".join(result.output.split())
    assert answers_saved(tmp_path) == ["c1"]
    resumed = CliRunner().invoke(cli, ["play", "--load", str(tmp_path / "saves" / "cloak.json"), "--script",
                                       str(_script(tmp_path, ["2", *EPILOGUE]))])  # "Go south", still number 2
    assert resumed.exit_code == 0, resumed.output
    assert answers_saved(tmp_path)[:2] == ["c1", "c2"]


def _script(folder: Path, lines: list[str]) -> Path:
    path = folder / "more.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_partial_needs_a_script(tmp_path, cloak):
    result = CliRunner().invoke(cli, ["play", str(cloak), "--partial", "--saves", str(tmp_path)], input="1\n")
    assert result.exit_code == 2 and "--partial goes with --script" in result.output


def test_a_whole_script_exits_0_and_names_the_outcome(tmp_path, cloak):
    result, _ = play(tmp_path, cloak, ["3", *EPILOGUE])  # south with the cloak on: the dark ending
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    # both endings are called "The end": the outcome says which one this was
    assert "The end: The end (lost)." in flat
    assert "The game is over (The end; outcome: lost)" in flat
    result, _ = play(tmp_path / "b", cloak, ["1", "2", *EPILOGUE])
    flat = " ".join(result.output.split())
    assert "The end: The end (won)." in flat and "outcome: won" in flat


# -- point 2: no stray character files -----------------------------------------------------------
def test_a_scripted_game_writes_no_characters(tmp_path, cloak, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("SOLO_HOME", raising=False)  # (the defaults, under tmp_path: a write would show there)
    result, _ = play(tmp_path, cloak, ["3", *EPILOGUE])
    assert result.exit_code == 0, result.output
    assert list(work.iterdir()) == []
    # the save, its backup and the journal kept beside it: no character file
    assert sorted(p.name for p in (tmp_path / "saves").iterdir()) == ["cloak.json", "cloak.json.bak", "cloak.md"]


def test_keep_characters_writes_them_where_asked(tmp_path, cloak, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOLO_HOME", raising=False)
    result, _ = play(tmp_path, cloak, ["3", *EPILOGUE], "--keep-characters", str(tmp_path / "heroes"))
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "heroes").iterdir()] == ["espen_lind.toml"]
    assert load_character(tmp_path / "heroes" / "espen_lind.toml").name == "Espen Lind"
    assert not (tmp_path / "characters").exists() and not (tmp_path / "saves" / "characters").exists()


def test_piped_answers_write_no_characters_either(tmp_path, cloak, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOLO_HOME", raising=False)
    result = CliRunner().invoke(cli, ["play", str(cloak), "--pc", "espen", "--seed", "1", "--saves", "saves"],
                                input="2\nno\nkeep\n")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cloak.toml", "saves"]
    assert not (tmp_path / "saves" / "characters").exists()


def test_characters_of_a_played_game_go_beside_its_saves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SOLO_SAVES", raising=False)
    monkeypatch.delenv("SOLO_HOME", raising=False)
    elsewhere = tmp_path / "elsewhere" / "game.json"
    # --load FILE in another folder, without --saves: beside that save, not in ./characters
    assert _characters_dir(None, elsewhere) == elsewhere.parent / "characters"
    assert _characters_dir(tmp_path / "mine", tmp_path / "mine" / "x.json") == tmp_path / "mine" / "characters"
    assert _characters_dir(None, Path("saves") / "tutorial.json") == Path("characters")  # the default place
    monkeypatch.setenv("SOLO_SAVES", str(tmp_path / "env"))
    assert _characters_dir(None, tmp_path / "env" / "t.json") == tmp_path / "env" / "characters"


def test_simulate_and_duel_write_nothing_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    done = runner.invoke(cli, ["simulate", "tutorial", "--runs", "20", "--errors-dir", str(tmp_path / "errors")])
    assert done.exit_code == 0, done.output
    done = runner.invoke(cli, ["duel", "--runs", "5", "--seed", "3"])
    assert done.exit_code == 0, done.output
    assert list(tmp_path.iterdir()) == []


# -- review: refused commands and leftover lines stop a script too -------------------------------
@pytest.mark.parametrize("command, reason", [
    ("sheet nobody", "No character called 'nobody'"),
    ("luck nobody contact smith", "No character called 'nobody'"),
    ("luck smith", "'luck smith' names no Luck command"),
    ("? (likely)", "Ask a question after the '?'"),
    ("undo", "Nothing to undo yet"),
])
def test_a_command_that_cannot_be_done_stops_the_script_at_its_line(tmp_path, cloak, command, reason):
    result, script = play(tmp_path, cloak, ["# first", command, "3", *EPILOGUE])
    assert result.exit_code == 3, result.output
    flat = " ".join(result.output.split())
    assert f"{script}:2: {reason}" in flat
    assert "The game is over" not in flat  # the "3" after it was never fed


def test_a_command_that_works_lets_the_script_go_on(tmp_path, cloak):
    result, _ = play(tmp_path, cloak, ["sheet", "note here", "3", *EPILOGUE])
    assert result.exit_code == 0, result.output


def test_answers_left_when_the_game_ends_stop_with_the_first_unused_line(tmp_path, cloak):
    result, script = play(tmp_path, cloak, ["3", *EPILOGUE, "", "# done", "extra", "more"])
    assert result.exit_code == 3, result.output
    flat = " ".join(result.output.split())
    assert "The game is over (The end; outcome: lost)" in flat
    assert f"{script}:6: the game ended before this line" in flat
    # blank lines and comments after the last answer are no leftovers
    result, _ = play(tmp_path / "b", cloak, ["3", *EPILOGUE, "", "# the end", "   "])
    assert result.exit_code == 0, result.output
