"""Issue 31's small things a player trips on: what Enter does, refusals, the oracle's odds, one player or
several, lines that wrap badly, the status line, and the help and lists that leave something out."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import run_play
from rich.console import Console

from solo.decisions import Option, Question, QuestionError
from solo.oracle.state import OracleState
from solo.saves import read_save
from solo.story.play.open_play import OpenGame, open_adventure
from solo.ui import describe as d
from solo.ui import story_commands as sc
from solo.ui.prompt import TerminalDecider, unbroken
from solo.ui.view import say_copyable

READINGS = Path(__file__).resolve().parent.parent / "oracles" / "tables" / "readings.toml"
START = ["1", "1", "We watch the quay"]  # one player, Espen, what scene 1 should be
TWO = ["2", "Ada", "1", "Bo", "3", "", "We watch the quay"]  # two: Ada plays Espen, Bo a random one (3, as Ada saw it)
# (Enter keeps the pronoun the dice drew)


def open_run(lines, folder, log=None, **options):
    return run_play(open_adventure(), lines, folder, seed=4, log=log, game_class=OpenGame, **options)


def flat(text: str) -> str:
    return " ".join(text.split())


# -- 1. "End the story here?" ------------------------------------------------------------------------


def test_with_a_thread_open_enter_plays_on_and_a_thread_at_a_flashpoint_is_named(tmp_path):
    lines = [*START, "7", "", "threads progress 1 3", "threads progress 1 2", "7", "", "threads close 1", "7", ""]
    code, out, transcript = open_run(lines, tmp_path)
    screen = flat(out)
    asked = screen.split("End the story here? (")[1:]
    assert len(asked) == 3
    assert asked[0].startswith("1 thread still open; the epilogue follows)") and "(Enter for No, play on)" in asked[0]
    assert "at a flashpoint; the epilogue follows)" in asked[1] and "(Enter for No, play on)" in asked[1]
    assert asked[2].startswith("every thread closed; the epilogue follows)")
    assert "(Enter for Yes, end the story)" in asked[2] and "The end:" in asked[2]
    assert "The end:" not in asked[0] + asked[1]
    log = read_save(tmp_path / "game.json").log
    assert [e[2] for e in log if e[1] == "end_story"] == ["play_on", "play_on", "end"]


def test_a_save_from_before_the_question_still_ends_where_it_ended(tmp_path):
    """An older save holds no answer to "End the story here?": the story ended there, so it still does."""
    open_run([*START, "7", "1", "1"], tmp_path / "a")  # and the first question of the epilogue
    log = [e for e in read_save(tmp_path / "a" / "game.json").log if e[1] != "end_story"]
    code, out, transcript = open_run([], tmp_path / "b", log=log)
    assert "The end: You closed the book after 1 scene" in transcript


def test_at_a_head_names_the_thread_furthest_past_a_flashpoint():
    from solo.story.play.open_play import at_a_head

    oracle = OracleState(threads=["A", "B", "C"])
    assert at_a_head(oracle) == ""
    oracle.add_progress("A", 3)
    oracle.add_progress("B", 3)
    oracle.add_progress("B", 3)
    assert at_a_head(oracle) == "B"


# -- 2. the weight legend ------------------------------------------------------------------------------


def test_the_weight_legend_is_true_for_a_thread_that_counts_three_times():
    oracle = OracleState(threads=["Find the pilot"])
    oracle.add_thread("Find the pilot", again=True)
    oracle.add_thread("Find the pilot", again=True)
    shown = sc.threads_text(SimpleNamespace(state=SimpleNamespace(oracle=oracle)))
    assert "Find the pilot \u00d73" in shown and "twice as often" not in shown
    assert "\u00d72, \u00d73: the oracle picks it two or three times as often" in shown


# -- 3. refusals ---------------------------------------------------------------------------------------


def test_a_refused_table_side_command_is_a_sentence_of_its_own_and_the_list_follows_on_its_line(tmp_path):
    lines = [*START, "threads discover 1", "threads discover 1", "threads progress 1 4",
             "threads add 1", "threads add 1", "threads add 1", "npcs add Old Marta", "npcs drop Zebra"]
    code, out, transcript = open_run(lines, tmp_path, width=400)
    said = out.splitlines()
    looked = next(i for i, s in enumerate(said) if "already looked into" in s)
    assert re.fullmatch(r"Your character has already looked into \u201c.+\u201d in this scene: look again in the "
                        r"next one\.", said[looked]) and said[looked + 1] == "Open threads:"
    step = said.index("Progress is 1 to 3 points at a time (1 a step, 2 a big one, 3 a breakthrough).")
    assert said[step + 1] == "Open threads:"
    most = next(i for i, s in enumerate(said) if "the most a thread can" in s)
    assert re.fullmatch(r"\u201c.+\u201d already counts 3 times, the most a thread can\.", said[most])
    assert said[most + 1] == "Open threads:"
    nobody = said.index("\u201cZebra\u201d is nobody in the story.")
    assert said[nobody + 1] == "People in the story:"


def test_the_party_is_said_to_have_looked_when_there_are_several(tmp_path):
    lines = [*TWO, "threads discover 1", "threads discover 1"]
    code, out, transcript = open_run(lines, tmp_path, width=400)
    assert "The party has already looked into \u201c" in out and "Your character" not in out


def test_enter_and_a_wrong_word_are_refused_in_the_same_words():
    question = Question("x", "What now?", (Option("a", "Face her"), Option("b", "Run")))
    with pytest.raises(QuestionError) as enter:
        question.resolve("")
    with pytest.raises(QuestionError) as wrong:
        question.resolve("banana")
    assert str(enter.value) == "Enter alone is not an answer here. Answer with one of: 1 (Face her), 2 (Run)."
    assert str(wrong.value) == "'banana' is not an answer here. Answer with one of: 1 (Face her), 2 (Run)."


def test_enter_takes_the_only_option_of_a_menu():
    assert Question("x", "What now?", (Option("face", "Face her"),)).resolve("") == "face"


# -- 4. an oracle question asked with a percentage ----------------------------------------------------


@pytest.mark.parametrize("odds,shown", [
    ({"likelihood": "65%", "chance": 65}, "(65 %)"),
    ({"likelihood": "65%", "chance": 75}, "(65 %, 75 % at this tension)"),
    ({"likelihood": "likely", "chance": 70}, "(likely, 70 %)"),
    ({"likelihood": "likely", "chance": 50}, "(likely 70 %, 50 % at this tension)"),  # not "(likely, 50 %)"
])
def test_an_oracle_answer_says_its_chance_once(odds, shown):
    line = d.oracle({"question": "Is it a painting?", "odds": odds, "roll": 12, "answer": "yes"})
    assert line == f"Oracle \u201cIs it a painting?\u201d {shown}: rolled 12: yes."


def test_the_journal_says_a_percentage_once(tmp_path):
    code, out, transcript = open_run([*START, "? Is the stolen object a painting? (65%)"], tmp_path)
    assert "Is the stolen object a painting?\u201d (65 %): rolled" in transcript
    assert "65%, " not in transcript and "65%, " not in out


# -- 5. one player or several --------------------------------------------------------------------------


def test_one_player_is_you_and_several_are_the_players(tmp_path):
    code, out, transcript = open_run([*START, "1", "", "", "7", "1"], tmp_path / "one")
    assert "(Enter for Does it go my way?)" in out
    assert "The end: You closed the book after 1 scene" in flat(out)
    lines = [*TWO, "1", "", "", "7", "1"]
    code, out, transcript = open_run(lines, tmp_path / "two")
    assert "(Enter for Does it go our way?)" in out
    assert "The end: The players closed the book after 1 scene" in flat(out)


def test_the_readings_read_for_one_pc_or_several():
    tables = tomllib.loads(READINGS.read_text(encoding="utf-8"))["tables"]
    for name, table in tables.items():
        for row in [table["description"], *table["rows"]]:
            text = row if isinstance(row, str) else row["text"]
            assert not re.search(r"\bPCs?\b|\bparty\b|which of", text), (name, text)


# -- 6. lines that wrap badly ----------------------------------------------------------------------------


def test_a_menu_never_breaks_a_chance_from_its_percent_sign():
    assert unbroken("-20 % next round unless won \u00b7 \u2248 41 % \u00b1 6 to win") == \
        "-20\u00a0% next round unless won \u00b7 \u2248\u00a041\u00a0% \u00b1\u00a06 to win"
    detail = "roll Cunning; hit the Pool or POW; -20 % next round unless won \u00b7 41 % to win, 20 % undecided"
    for line in _menu_at_widths(detail, range(40, 80)):
        assert not line.strip().startswith("%"), line


def _menu_at_widths(detail: str, widths: range) -> list[str]:
    """The lines of a two-option menu, the first with ``detail``, printed at each of ``widths``."""
    out = io.StringIO()
    decider = TerminalDecider(Console(file=out, width=60, color_system=None), reader=lambda prompt: "1")
    for width in widths:
        decider.console.width = width
        decider.decide(Question("lens", "Which Lens?", (Option("covert", "Covert", detail), Option("none", "No"))))
    return out.getvalue().splitlines()


def test_a_sum_on_a_menu_never_breaks_inside_one_of_its_terms():
    """A player's run: "55 % = Even 50 · high tension (6 of ⏎ 9) +5" and "0 % (Move 30 · hurt -20 · Hard -20 = ⏎ -10)".
    A tension's "6 of 9", a modifier and its value, and a sum and what it comes to stay together; the menu wraps
    between the terms."""
    assert unbroken("55 % = Even 50 \u00b7 high tension (6 of 9) +5") == \
        "55\u00a0% = Even 50 \u00b7 high tension (6\u00a0of\u00a09)\u00a0+5"
    assert unbroken("0 % (Move 30 \u00b7 hurt -20 \u00b7 Hard -20 = -10)") == \
        "0\u00a0% (Move 30 \u00b7 hurt\u00a0-20 \u00b7 Hard\u00a0-20 =\u00a0-10)"
    detail = "55 % = Even 50 \u00b7 high tension (6 of 9) +5 \u00b7 0 % (Move 30 \u00b7 hurt -20 \u00b7 Hard -20 = -10)"
    for line in _menu_at_widths(detail, range(30, 70)):
        assert not re.search(r"^\s*(of 9|9\)|-\d+|\+\d+)", line), line


def test_the_status_line_never_parts_a_pool_from_its_value():
    """A player's run at 120 columns: "… INT 16/16 POW ⏎ 10/10 CHA 14/14]". The status line wraps between its
    parts, never between a Pool (or Luck, or the tension) and its number."""
    from solo.ui.view import TerminalView

    line = ("[The quay at dusk \u00b7 tension 6/9 \u00b7 day 1/3 \u00b7 hours gone 2/5 \u00b7 Espen Lind: Luck 2, "
            "BODY 12/12 INT 16/16 POW 10/10 CHA 14/14]")
    for width in range(40, 130):
        out = io.StringIO()
        view = TerminalView(Console(file=out, width=width, color_system=None))
        view.status_line = lambda: line
        view.before_question()
        printed = out.getvalue()
        assert " ".join(printed.split()) == line and "\u00a0" not in printed, width  # plain spaces, to copy
        for shown in printed.splitlines():
            assert not re.match(r"\s*-?\d+(/\d+)?[,\] ]", shown), (width, shown)


def test_a_command_to_copy_is_printed_whole_on_a_line_of_its_own():
    out = io.StringIO()
    command = "solo play --load /tmp/pytest-of-someone/pytest-12/test_x0/saves/tutorial-2.json"
    say_copyable(Console(file=out, width=50, color_system=None), "Input ended; the game is saved. Resume with:",
                 command)
    assert out.getvalue().splitlines() == ["Input ended; the game is saved. Resume with:", f"  {command}"]


def test_the_resume_hint_and_the_character_hint_keep_their_paths_whole(tmp_path, monkeypatch):
    code, out, transcript = open_run([*START, "7", "1", "2", "", ""], tmp_path, width=40,
                                     characters_dir=tmp_path / "characters")
    said = out.splitlines()
    hint = said.index("Espen Lind is saved. Take him on with:")  # he in the story
    assert said[hint + 1] == f"  solo play --open --pc {tmp_path / 'characters' / 'espen_lind.toml'}"
    monkeypatch.chdir(tmp_path)  # the default roster, ./characters: the hint still names the whole path
    code, out, transcript = open_run([*START, "7", "1", "2", "", ""], tmp_path / "here", width=40,
                                     characters_dir=Path("characters"))
    said = out.splitlines()
    hint = said.index("Espen Lind is saved. Take him on with:")
    assert said[hint + 1] == f"  solo play --open --pc {tmp_path / 'characters' / 'espen_lind_2.toml'}"
    code, out, transcript = open_run([*START], tmp_path / "again", width=40)
    said = out.splitlines()
    save = str(tmp_path / "again" / "game.json")  # longer than the line: folded whole by the terminal, never by solo
    assert any(line.startswith("  ") and " play --load " in line and line.endswith(save) for line in said)


# -- 7. the status line --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["items", "clues", "recap", "note the clerk lied", "?"])
def test_the_status_line_comes_again_before_the_question_asked_again(tmp_path, command):
    lines = [*START, "status", command]
    code, out, transcript = open_run(lines, tmp_path, width=200)
    after = out.split(f"> {command}\n", 1)[1].split("What happens now?", 1)[0]
    assert "[scene 1 \u00b7 tension 5/9" in after
    before = out.split("> status\n", 1)[1].split("What happens now?", 1)[0]
    assert before.count("[scene 1 \u00b7 tension 5/9") == 1  # 'status' itself: the line once, then the question


# -- 9. help and lists -----------------------------------------------------------------------------------


def test_play_help_shows_open_play(cli_run):
    assert "solo play --open" in cli_run("play", "--help").output


def test_table_list_says_which_tables_are_weighted(cli_run):
    lines = {line.split()[0]: line for line in cli_run("table", "list").output.splitlines()}
    assert re.search(r" 20 rows, weighted\s+d22 ", lines["situation"])
    assert re.search(r" 100 rows\s+d100 ", lines["action"]) and "weighted" not in lines["action"]



def test_a_refused_answer_names_each_option_by_its_words_with_no_bracket_left_open():
    """A new player read "Answer with one of: 2 (Search the desk (Awareness //…), 3 (Lock up behind you and go
    bac…)": an option is named by its words before any aside in brackets, cut short only after them."""
    question = Question("x", "What now?", (Option("a", "Search the desk (Awareness //Search, 40 %)"),
                                           Option("b", "Lock up behind you and go back to the quay by the steps")))
    with pytest.raises(QuestionError) as wrong:
        question.resolve("banana")
    assert str(wrong.value) == ("'banana' is not an answer here. Answer with one of: 1 (Search the desk), "
                                "2 (Lock up behind you and go bac…).")
    said = str(wrong.value).split(": ", 1)[1]
    assert said.count("(") == said.count(")")


def test_help_does_not_print_the_resume_command_where_it_would_wrap():
    """A player's run: in-game help's quit line held the resume command in the table's column, wrapped mid-path
    ('solo play --load ⏎ /tmp/…/vellan.json'), which could not be copied as printed. Help says that quitting prints
    it; quitting prints it whole, on a line of its own (the test of a command to copy, above)."""
    from solo.ui.session import _help

    text = _help(True, ["Espen Lind"])
    quit_line = next(line for line in text.splitlines() if line.strip().startswith("quit"))
    assert "prints the command that resumes it" in quit_line
