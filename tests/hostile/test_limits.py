"""Issue 34, bounds: every number and input a command reads is bounded, and refused before the work starts.

"Before the work starts" is checked as work done, never as time: the function that would do the
work (play the games, fight the duels, price the odds, parse the JSON, walk the folder, build the
choices) is replaced by one that fails the test if it is called at all, or its calls are counted.
docs/limits.md is the one table of these bounds; the first test holds it to the code.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_files import EXAMPLE, TUTORIAL_SCRIPT, a_save, assert_no_crash, assert_one_line_error, invoke, run

from solo.cli import cli
from solo.rules.character import MAX_NAME
from solo.saves import write_save

DOCS = Path(__file__).resolve().parents[2] / "docs" / "limits.md"
HUGE = "1" + "0" * 30


def _constant(dotted: str) -> object:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_the_one_table_in_docs_limits_states_every_bound_as_the_code_sets_it():
    rows = [line for line in DOCS.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and "`solo." in line.rsplit("|", 2)[1]]
    assert len(rows) >= 35
    for row in rows:
        bound, where = row.rsplit("|", 3)[1:3]
        numbers = {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", bound)}
        for dotted in re.findall(r"`(solo\.[\w.]+)`", where):
            value = _constant(dotted)
            assert isinstance(value, (int, float)) and value in numbers, (dotted, value, bound)


def test_a_bound_set_twice_for_start_up_time_is_the_same_in_both_places():
    from solo.cli.limits import MAX_ROUNDS, TENSION
    from solo.oracle.likelihood import TENSION_MAX, TENSION_MIN
    from solo.story.play.actions import MAX_ROUNDS as ADVENTURE_ROUNDS

    assert MAX_ROUNDS == ADVENTURE_ROUNDS
    assert (TENSION.low, TENSION.high) == (TENSION_MIN, TENSION_MAX)


def _never(what: str):
    def called(*args, **kwargs):
        raise AssertionError(f"{what} ran: the bound should have stopped the command first")

    return called


# -- numbers on the command line --------------------------------------------------------------------
@pytest.mark.parametrize("args, option, bound, worker", [
    (["odds", "--skill-a", "50", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10", "--rounds", HUGE],
     "--rounds", "1 to 200", "solo.cli.odds._plain_odds"),
    (["odds", "--skill-a", "50", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10", "--rounds", "10" * 2000],
     "--rounds", "1 to 200", "solo.cli.odds._plain_odds"),
    (["odds", "--skill-a", "50", "--pool-a", "999", "--skill-b", "50", "--pool-b", "10"],
     "--pool-a", "1 to 200", "solo.cli.odds._plain_odds"),
    (["odds", "--skill-a", "50", "--pool-a", "10", "--skill-b", "50", "--pool-b", "10", "--simulate", HUGE],
     "--simulate", "1 to 1,000,000", "solo.cli.odds._plain_odds"),
    (["duel", "-n", HUGE], "--runs", "1 to 100,000", "solo.minds.arena.run_duels"),
    (["duel", "--rounds", HUGE], "--rounds", "1 to 200", "solo.minds.arena.run_duels"),
    (["duel", "--seed", "-1"], "--seed", "0 to 9,223,372,036,854,775,807", "solo.minds.arena.run_duels"),
    (["simulate", "tutorial", "-n", HUGE], "--runs", "1 to 100,000", "solo.sim.simulate.simulate"),
    (["simulate", "tutorial", "--jobs", HUGE], "--jobs", "1 to 1,024", "solo.sim.simulate.simulate"),
    (["simulate", "tutorial", "--max-turns", "0"], "--max-turns", "1 to 100,000", "solo.sim.simulate.simulate"),
    (["oracle", "Is it?", "--tension", HUGE], "--tension", "1 to 9", "solo.oracle.answer.ask"),
    (["roll", "d100", "--vs", "9" * 5000], "--vs", "0 to 200", "solo.rules.rolls.roll_check"),
])
def test_a_number_out_of_bounds_is_refused_before_any_work(tmp_path, monkeypatch, args, option, bound, worker):
    module, _, name = worker.rpartition(".")
    monkeypatch.setattr(importlib.import_module(module), name, _never(worker))
    result = invoke(monkeypatch, tmp_path, *args)
    line = assert_one_line_error(result, option, bound)
    assert len(line) < 300  # a number of 4,000 digits is not echoed whole


def test_an_error_quoting_what_was_typed_stays_one_readable_line(tmp_path, monkeypatch):
    from solo.terminal_text import MESSAGE_LIMIT

    result = invoke(monkeypatch, tmp_path, "npc", "--level", "boss" * 5000)
    line = assert_one_line_error(result, "unknown NPC level 'bossboss")
    assert len(line) <= len("solo npc: error: ") + MESSAGE_LIMIT and line.endswith("…")


@pytest.mark.parametrize("pools, rounds, npc", [(200, 200, False), (200, None, False), (60, 100, False)])
def test_odds_refuse_pools_and_rounds_beyond_their_budget_before_pricing(tmp_path, monkeypatch, pools, rounds, npc):
    monkeypatch.setattr("solo.cli.odds._plain_odds", _never("pricing"))
    args = ["odds", "--skill-a", "50", "--pool-a", str(pools), "--skill-b", "50", "--pool-b", str(pools)]
    result = invoke(monkeypatch, tmp_path, *args, *(["--rounds", str(rounds)] if rounds else []))
    assert_one_line_error(result, "states to price", "at most 250,000")


def test_odds_against_a_mind_have_a_smaller_budget(tmp_path, monkeypatch):
    from solo.minds.foresight import Foresight

    monkeypatch.setattr(Foresight, "exact", _never("the mind's pricing"))
    made = invoke(monkeypatch, tmp_path, "npc", "--level", "master", "--seed", "3", "--out", "m.toml")
    assert made.code == 0, made.err
    result = invoke(monkeypatch, tmp_path, "odds", "--pc", "espen", "--npc", "m.toml", "--rounds", "200")
    assert_one_line_error(result, "thinking NPC", "at most 30,000")


def test_within_bounds_the_odds_are_priced(tmp_path, monkeypatch):
    result = invoke(monkeypatch, tmp_path, "odds", "--skill-a", "50", "--pool-a", "10", "--skill-b", "50",
                    "--pool-b", "10", "--rounds", "200", "--json")
    assert result.code == 0, result.err
    assert 0 < json.loads(result.out)["a_wins"] < 1


# -- standard input of every interactive command ------------------------------------------------------
def test_solo_new_reading_dev_zero_ends_cleanly_in_bounded_memory(tmp_path):
    result = run(tmp_path, "new", shell_tail="< /dev/zero", memory=1_500_000_000, timeout=120)
    assert "nothing was saved" in assert_one_line_error(result, "input ended")


@pytest.mark.parametrize("command", [["new"], ["play", "tutorial", "--saves", "saves"]])
def test_piped_input_that_never_answers_ends_after_a_bounded_number_of_lines(tmp_path, command):
    done = subprocess.run([sys.executable, "-m", "solo", *command], cwd=tmp_path, text=True, capture_output=True,
                          input="help\n" * 10_000 + "banana\n" * 10_000, timeout=120)
    screen = done.stdout + done.stderr
    assert "100 lines of input in a row answer nothing here" in screen
    assert screen.count("> ") <= 300  # the prompts shown: bounded, not one for each of the 20,000 lines
    assert "internal error" not in screen


def test_a_name_over_the_limit_is_refused_at_the_prompt_and_asked_again(tmp_path, monkeypatch):
    long_name = "N" * (MAX_NAME + 1)
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(cli, ["new"], input=f"{long_name}\nAda\n")
    assert f"at most {MAX_NAME} characters here, not {MAX_NAME + 1}" in done.output
    assert "How should the story refer to Ada?" in done.output


# -- names, saves and journals ----------------------------------------------------------------------
@pytest.mark.parametrize("where, says", [("party", f"at most {MAX_NAME} characters, not 20,000"),
                                         ("snapshot", "20,000 characters long; at most 1,000"),
                                         ("log", "20,000 characters long; at most 1,000")])
def test_a_save_with_a_name_past_the_limit_is_refused_at_once_naming_the_limit(tmp_path, monkeypatch, where, says):
    long = "A" * 20_000
    save = a_save(party=[{"name": long if where == "snapshot" else "Ada"}])
    save.party = [{**_espen(), "name": long if where == "party" else "Ada"}]
    if where == "log":
        save.log.append(["m", "note", long])
    save.adventure_source = "tutorial"
    write_save(tmp_path / "saves" / "long.json", save)
    for args in (["play", "--load", "long", "--saves", "saves"], ["journal", "long", "--saves", "saves"]):
        result = invoke(monkeypatch, tmp_path, *args)
        assert says in assert_one_line_error(result, "long.json")


def _espen() -> dict:
    from solo.rules.creation import pregenerated

    return pregenerated("espen").to_dict()


def test_rebuilding_a_journal_does_no_work_that_grows_with_the_square_of_a_name(tmp_path, monkeypatch):
    """The rebuild once ran rich's highlighter over every line, quadratic in a name's length (40k: 17 s)."""
    from rich.highlighter import ReprHighlighter

    (tmp_path / "hero.toml").write_text("", encoding="utf-8")
    made = invoke(monkeypatch, tmp_path, "new", "--random", "--seed", "1", "--name", "A" * MAX_NAME, "--out",
                  "hero.toml", "--force")
    assert made.code == 0, made.err
    played = invoke(monkeypatch, tmp_path, "play", "tutorial", "--pc", "hero.toml", "--seed", "5", "--saves", "saves",
                    "--script", str(TUTORIAL_SCRIPT), "--partial")
    assert played.code == 0, played.err
    (tmp_path / "saves" / "tutorial.md").unlink()
    monkeypatch.setattr(ReprHighlighter, "highlight", _never("rich's highlighter"))
    rebuilt = invoke(monkeypatch, tmp_path, "journal", "tutorial", "--saves", "saves")
    assert rebuilt.code == 0, rebuilt.err
    assert "A" * MAX_NAME in rebuilt.out


def test_an_adventure_source_of_root_is_glanced_at_never_walked(tmp_path, monkeypatch):
    import os

    save = a_save()
    save.adventure_source = "/"
    write_save(tmp_path / "saves" / "root.json", save)
    seen: list[str] = []
    real = os.scandir

    def counting(path="."):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", counting)
    for args in (["play", "--load", "root", "--saves", "saves"], ["journal", "root", "--saves", "saves"],
                 ["play", "/"], ["check", "/"]):
        seen.clear()
        result = invoke(monkeypatch, tmp_path, *args)
        assert result.code in (1, 2) and "no .toml file at the top of this folder" in result.out + result.err
        assert_no_crash(result)
        assert set(seen) == {"/"}, seen  # the top of / listed, nothing below it, no file read


def test_a_folder_too_large_to_be_an_adventure_is_refused_before_any_file_is_read(tmp_path, monkeypatch):
    from solo.story.format import loader

    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "adventure.toml").write_text('[adventure]\ntitle = "x"\n', encoding="utf-8")
    for i in range(loader.MAX_ADVENTURE_FILES + 1):
        (folder / f"s{i}.toml").write_text("", encoding="utf-8")
    monkeypatch.setattr(loader, "read_bounded", _never("reading an adventure file"))
    result = invoke(monkeypatch, tmp_path, "check", "big")
    assert f"more than {loader.MAX_ADVENTURE_FILES} .toml files" in result.out + result.err


def test_a_scene_with_more_choices_than_the_bound_is_refused_before_they_are_built(tmp_path, monkeypatch):
    from solo.story.format.schema import MAX_CHOICES, Builder

    text = EXAMPLE.read_text(encoding="utf-8")
    many = "".join(f'\n[[scenes.landing.choices]]\ntext = "Option {i}"\ngoto = "landing"\n'
                   for i in range(MAX_CHOICES + 1))
    head, _, rest = text.partition("\n[scenes.cottage]")
    (tmp_path / "many.toml").write_text(head + many + "\n[scenes.cottage]" + rest, encoding="utf-8")
    built: list[str] = []
    real = Builder.build_choice

    def counting(self, file, path, data):
        built.append(path)
        return real(self, file, path, data)

    monkeypatch.setattr(Builder, "build_choice", counting)
    result = invoke(monkeypatch, tmp_path, "check", "many.toml")
    assert result.code == 1 and f"at most {MAX_CHOICES} choices, not" in result.out
    assert not [p for p in built if p.startswith("scenes.landing.")]


# -- JSON read by --stats -------------------------------------------------------------------------------
@pytest.mark.parametrize("content, says", [("[" * 100_000 + "]" * 100_000, "nested 100,000 levels deep; at most 100"),
                                           ("/dev/zero", "not a regular file")])
def test_map_stats_refuses_deep_or_endless_json_before_parsing_it(tmp_path, monkeypatch, content, says):
    import solo.json_files

    stats = "/dev/zero" if content == "/dev/zero" else "deep.json"
    if stats == "deep.json":
        (tmp_path / "deep.json").write_text(content, encoding="utf-8")
    monkeypatch.setattr(solo.json_files.json, "loads", _never("the JSON parser"))
    result = invoke(monkeypatch, tmp_path, "map", str(EXAMPLE), "--stats", stats)
    assert says in assert_one_line_error(result, stats)


def test_a_number_of_thousands_of_digits_in_json_is_refused_with_the_limit(tmp_path, monkeypatch):
    """Python's json raises a bare ValueError past 4,300 digits: that was an internal error in every reader."""
    write_save(tmp_path / "saves" / "big.json", a_save())
    raw = (tmp_path / "saves" / "big.json").read_text(encoding="utf-8").replace('"seed": 7', '"seed": 1' + "0" * 5000)
    (tmp_path / "saves" / "big.json").write_text(raw, encoding="utf-8")
    (tmp_path / "stats.json").write_text('{"runs": 1' + "0" * 5000 + ', "scenes": {}}', encoding="utf-8")
    for args in (["play", "--load", "big", "--saves", "saves"], ["map", str(EXAMPLE), "--stats", "stats.json"]):
        result = invoke(monkeypatch, tmp_path, *args)
        assert "a number of 5,001 digits; at most 1,000" in assert_one_line_error(result)
    listed = invoke(monkeypatch, tmp_path, "saves", "--saves", "saves")
    assert listed.code == 0 and "5,001 digits" in listed.out


def test_the_free_text_of_a_character_or_npc_file_is_bounded(tmp_path, monkeypatch):
    """An architecture audit: a character whose items held 300,000 characters played and printed 312,617 bytes at
    `sheet`; an NPC file's description as long printed 608,788 bytes in `solo duel`. Each is refused, naming the
    file and the field."""
    from solo.terminal_text import MAX_ENTRIES, MAX_FREE_TEXT

    long = "X" * (MAX_FREE_TEXT + 1)
    (tmp_path / "pc.toml").write_text(f'name = "Big Items"\nitems = ["{long}"]\n', encoding="utf-8")
    (tmp_path / "many.toml").write_text('name = "Many"\nitems = [' + ", ".join(['"a"'] * (MAX_ENTRIES + 1)) + "]\n",
                                        encoding="utf-8")
    (tmp_path / "npc.toml").write_text(f'name = "Nbig"\nlevel = "skilled"\ndescription = "{long}"\n',
                                       encoding="utf-8")
    played = invoke(monkeypatch, tmp_path, "play", "tutorial", "--pc", "pc.toml", "--saves", "s")
    assert played.code == 2 and f"pc.toml: items[0]: at most 2,000 characters, not {len(long):,}" in played.err
    many = invoke(monkeypatch, tmp_path, "play", "tutorial", "--pc", "many.toml", "--saves", "s")
    assert many.code == 2 and "many.toml: items: at most 500 entries, not 501" in many.err
    duel = invoke(monkeypatch, tmp_path, "duel", "--npc", "npc.toml", "--runs", "1")
    assert duel.code == 2 and "npc.toml: description: at most 2,000 characters" in duel.err
    from solo.rules.character import Character
    from solo.rules.creation import pregenerated

    whole = pregenerated("espen").to_dict()
    assert Character.from_dict({**whole, "items": ["Y" * MAX_FREE_TEXT]}).items == ["Y" * MAX_FREE_TEXT]
