"""The author's tools (issue 14, point 5): messages and scripts in the menu's own numbers, the simulate
report's counters, and the map's conditions and in-scene choices."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_tools_scripts import CLOAK

from solo.cli import cli
from solo.decisions import Option, Question, QuestionError
from solo.rules.creation import pregenerated
from solo.sim.drawing import edge_list, render
from solo.sim.one_run import play_one
from solo.sim.report import histogram_bins
from solo.sim.simulate import Options, simulate
from solo.story.format.loader import load_adventure

# A room left at random: the step counter ends anywhere from 1 up, one value per run length.
COUNTING = """\
[adventure]
id = "counting"
title = "Counting"
start = "room"

[scenes.room]
text = "A room."
on_enter = [ { add = "steps" } ]

[[scenes.room.choices]]
text = "Again"
goto = "room"

[[scenes.room.choices]]
text = "Stay a while"
effects = [ { add = "waits" } ]

[[scenes.room.choices]]
text = "Leave"
if = "steps > 0 or waits > 0"
goto = "out"

[scenes.out]
text = "Out."
ending = true
"""


@pytest.fixture
def cloak(tmp_path):
    path = tmp_path / "cloak.toml"
    path.write_text(CLOAK, encoding="utf-8")
    return load_adventure(path)


@pytest.fixture
def counting(tmp_path):
    path = tmp_path / "counting.toml"
    path.write_text(COUNTING, encoding="utf-8")
    return path


# -- answers in the menu's numbers ----------------------------------------------------------------
GATES = Question("choice", "Which way?", (Option("c1", "Go north"), Option("c2", "Go south"),
                                          Option("c4", "Go west"), Option("c5", "Wait")))


def test_an_ambiguous_answer_is_named_by_the_numbers_the_menu_shows():
    with pytest.raises(QuestionError) as info:
        GATES.resolve("go")
    text = str(info.value)
    assert text.startswith("'go' could be 1 (Go north), 2 (Go south), 3 (Go west)"
                           ". Answer with one of: 1 (Go north), 2 (Go south), 3 (Go west), 4 (Wait).")
    assert "c4" not in text and "c1" not in text


def test_the_answer_to_type_is_the_menu_number_unless_that_number_means_another_option():
    assert [GATES.menu_answer(k) for k in ("c1", "c2", "c4", "c5")] == ["1", "2", "3", "4"]
    sizes = Question("party_size", "How many?", (Option("3", "three"), Option("1", "one"), Option("2", "two")))
    assert [sizes.menu_answer(k) for k in ("3", "1", "2")] == ["3", "1", "2"]  # "1" is the key "1", not row 1
    for key in sizes.keys():
        assert sizes.resolve(sizes.menu_answer(key)) == key
    assert Question("name", "Name?").menu_answer("Ada Berg") == "Ada Berg"  # free text as it is


def test_a_simulated_run_records_the_numbers_its_menus_showed(cloak):
    espen = [pregenerated("espen")]
    dark_is_row_three = False
    for seed in range(30):
        result = play_one(cloak, espen, seed, "random")
        choices = [a for kind, a in result.answers if kind == "choice"]
        assert choices and all(a in ("1", "2", "3") for a in choices), choices  # never the inner keys c2, c3
        # numbers are stable: c3 ("Go south" in the dark) is shown as 3 even while c2 is hidden
        dark_is_row_three |= result.ending == "lost" and choices == ["3"]
    assert dark_is_row_three


def test_a_cut_off_run_replays_with_partial(tmp_path):
    loop = Path(__file__).parent / "data" / "sim" / "loop.toml"
    report = simulate(Options(str(loop), 2, seed=1, max_turns=5), jobs=1, errors_dir=tmp_path)
    assert report["error_count"] == 2
    for error in report["errors"]:
        assert error["error"] == "TurnLimit" and "--partial" in error["replay"]
        lines = [ln for ln in Path(error["script"]).read_text().splitlines() if not ln.startswith("#")]
        assert lines and set(lines) == {"1"}  # the corridor's one open way, as the menu numbers it
        args = shlex.split(error["replay"])
        result = CliRunner().invoke(cli, args[1:])
        assert result.exit_code == 0, result.output
        assert "Input ended; the game is saved" in " ".join(result.output.split())


def test_a_replay_names_every_path_whole_so_it_runs_from_any_folder(tmp_path, monkeypatch):
    """With a relative --errors-dir, the replay gave its script and saves folder relative to where simulate ran
    beside the adventure's whole path: run from another folder, it found no script."""
    loop = Path(__file__).parent / "data" / "sim" / "loop.toml"
    (tmp_path / "here").mkdir()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    [error] = simulate(Options(str(loop), 1, seed=1, max_turns=5), jobs=1,
                       errors_dir=Path("errs"))["errors"]
    args = shlex.split(error["replay"])
    paths = [args[i + 1] for i, a in enumerate(args) if a in ("--script", "--saves", "--pc")] + [args[2]]
    assert len(paths) == 4 and all(Path(p).is_absolute() for p in paths), args  # a made-up PC: a file too
    assert Path(error["script"]).is_absolute()
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = CliRunner().invoke(cli, args[1:])
    assert result.exit_code == 0, result.output
    assert "Input ended; the game is saved" in " ".join(result.output.split())


# -- the simulate report's counters ------------------------------------------------------------------
def test_histogram_bins_keep_few_values_and_group_many():
    assert histogram_bins({"0": 5, "3": 2}) == [[0, 0, 5], [3, 3, 2]]
    many = histogram_bins({str(v): 1 for v in range(200)})
    assert many == [[25 * i, 25 * i + 24, 25] for i in range(8)]
    gappy = histogram_bins({"1": 4, "2": 1, "100": 2, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 1})
    assert gappy[0] == [1, 13, 11] and gappy[-1] == [92, 100, 2] and sum(b[2] for b in gappy) == 13
    assert len(gappy) == 8 and all(b[2] == 0 for b in gappy[1:-1])  # empty ranges kept: the shape is honest
    assert histogram_bins({}) == []


def test_the_text_report_shows_a_counter_as_a_range_and_a_small_histogram(counting):
    result = CliRunner().invoke(cli, ["simulate", str(counting), "--runs", "400", "--seed", "3"])
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.output.splitlines() if ln.startswith("  counter steps:"))
    assert ", 1 to " in line  # at least one step, up to the longest run
    pairs = line[line.index("(") + 1: line.rindex(")")].split(" · ")
    assert 2 <= len(pairs) <= 8
    assert sum(int(p.rsplit(": ", 1)[1].replace(",", "")) for p in pairs) == 400
    json_report = CliRunner().invoke(cli, ["simulate", str(counting), "--runs", "400", "--seed", "3", "--json"])
    steps = json.loads(json_report.stdout)["state_at_end"]["counters"]["steps"]
    assert steps["min"] == 1 and steps["max"] == max(int(v) for v in steps["values"])
    assert sum(b[2] for b in steps["bins"]) == sum(steps["values"].values()) == 400


# -- the map --------------------------------------------------------------------------------------
def test_choices_with_the_same_words_are_told_apart_by_their_conditions(cloak):
    edges = {(e.source, e.target): e for e in edge_list(cloak)}
    assert edges["foyer", "won"].label == "Go south [if cloak_off]"
    assert edges["foyer", "lost"].label == "Go south [if not cloak_off]"
    text = render(cloak, "mermaid")
    assert 's_foyer -->|"Go south #91;if cloak_off#93;"| s_won' in text
    assert 's_foyer -->|"Go south #91;if not cloak_off#93;"| s_lost' in text


@pytest.mark.parametrize("fmt", ["mermaid", "dot"])
def test_a_choice_that_stays_in_its_scene_is_a_dotted_loop(cloak, counting, fmt):
    stays = [e for e in edge_list(cloak) if e.stays]
    assert [(e.source, e.target, e.label) for e in stays] == [("foyer", "foyer", "Hang the cloak [if not cloak_off]")]
    text = render(load_adventure(counting), fmt)
    if fmt == "mermaid":
        assert 's_room -.->|"Stay a while"| s_room' in text
        assert 's_room -->|"Again"| s_room' in text  # a goto back to the scene enters it again: a plain loop
    else:
        assert '"room" -> "room" [label="Stay a while", style=dotted];' in text
        assert '"room" -> "room" [label="Again"];' in text
