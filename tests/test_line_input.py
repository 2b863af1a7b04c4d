"""Line editing at the terminal (issue 17, item 7): history kept per saves folder, Tab completion of the
in-game words and of the current question's answers; piped and scripted play untouched."""

from __future__ import annotations

import builtins

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.decisions import Option, Question
from solo.ui.line_input import HISTORY_LINE_MAX, HISTORY_LINES, HISTORY_NAME, LineInput, Offering, table_words
from solo.ui.table_commands import commands

readline = pytest.importorskip("readline")


@pytest.fixture
def fresh_history():
    readline.clear_history()
    yield
    readline.clear_history()


def typed(monkeypatch, *lines):
    """input() as readline's would: each line typed is added to the history, then returned."""
    feed = iter(lines)

    def fake_input(prompt=""):
        line = next(feed)
        if line:
            readline.add_history(line)
        return line

    monkeypatch.setattr(builtins, "input", fake_input)


def test_tab_completes_commands_and_the_answers_of_the_question(tmp_path, fresh_history):
    reader = LineInput(tmp_path / HISTORY_NAME, readline=readline)
    words = table_words()
    assert {"help", "sheet", "note", "recap", "luck", "save", "quit", "undo"} <= set(words)
    assert set(commands()) <= set(words)  # whatever the table commands register
    reader.offer(Question("pc_source", "Who will you play?",
                          [Option("new", "Make a new character"), Option("random", "A random character"),
                           Option("roster:x@1", "Signe Haug")]))
    assert reader.candidates("si") == ["Signe Haug"]
    assert reader.candidates("MAKE") == ["Make a new character"]
    assert set(reader.candidates("s")) == {"Signe Haug", "save", "sheet ", "status "}
    assert [reader.complete("he", i) for i in range(2)] == ["help", None]
    # issue 31, point 7: a command that takes more is completed with its space, ready for what follows
    assert reader.candidates("tab") == ["table "] and reader.candidates("no") == ["note "]
    assert "table list" in reader.candidates("table ")
    reader.offer(Question("choice", "What now?", [Option("a", "Hide")]))  # the next question replaces them
    assert reader.candidates("Si") == []


def test_history_is_kept_per_saves_folder_bounded_and_without_repeats(tmp_path, monkeypatch, fresh_history):
    path = tmp_path / "saves" / HISTORY_NAME
    reader = LineInput(path, readline=readline)
    typed(monkeypatch, "1", "sheet", "sheet", "", "x" * (HISTORY_LINE_MAX + 1), "note the ferry is late")
    answers = [reader("> ") for _ in range(6)]
    assert answers[3] == ""
    assert path.read_text(encoding="utf-8").splitlines() == ["1", "sheet", "note the ferry is late"]

    readline.clear_history()
    LineInput(path, readline=readline)  # a new game in the same folder recalls them
    assert [readline.get_history_item(i) for i in range(1, 4)] == ["1", "sheet", "note the ferry is late"]

    many = [f"note {i}" for i in range(HISTORY_LINES + 50)]
    typed(monkeypatch, *many)
    for _ in many:
        reader("> ")
    kept = path.read_text(encoding="utf-8").splitlines()
    assert len(kept) <= HISTORY_LINES and kept[-1] == many[-1]


def test_an_unwritable_history_is_said_not_fatal(tmp_path, monkeypatch, fresh_history):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    reader = LineInput(blocker / HISTORY_NAME, readline=readline)  # its folder is a file
    typed(monkeypatch, "quit")
    assert reader("> ") == "quit"
    assert reader.problem and "history" in reader.problem


def test_offering_passes_each_question_on_unchanged(tmp_path, fresh_history):
    class First:
        def decide(self, q):
            return q.keys()[0]

    reader = LineInput(None, readline=readline)
    q = Question("choice", "Where?", [Option("n", "North gate"), Option("s", "South gate")])
    assert Offering(First(), reader).decide(q) == "n"
    assert reader.candidates("sou") == ["South gate"]


def test_piped_play_keeps_no_history(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", "tutorial", "--seed", "1", "--saves", "saves"], input="1\nhelp\n")
    assert "Input ended" in result.output
    assert not (tmp_path / "saves" / HISTORY_NAME).exists()


def test_tab_after_table_offers_the_adventures_own_tables(vellan, tmp_path, fresh_history):
    from solo.cli.play import _game_maker
    from solo.minds.bots import FirstDecider
    from solo.story.play.engine import Game

    reader = LineInput(None, readline=readline)
    make = _game_maker(Game, vellan, tmp_path / "roster", reader)
    make(seed=1, decider=FirstDecider())
    assert "table vellan_gossip" in reader.candidates("table vel")  # Vellan's own table, beside the common ones
    assert "table list" in reader.candidates("table li")
