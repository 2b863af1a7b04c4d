"""A scene's choices keep their numbers from visit to visit (docs/adventures.md, "Numbers").

The hub is the yard of tests/data/format/party.toml: "Pocket the spare key" (2) is once-only, and "Open the
side door" (3) appears only once the key is pocketed, so the menu changes while the numbers do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from solo.cli import cli
from solo.decisions import Option, Question, QuestionError
from solo.rules.creation import pregenerated
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game

PARTY = Path(__file__).parent / "data" / "format" / "party.toml"


class Typed:
    """Types the given lines at the scene's menus (as a person would), keeping each menu as numbered."""

    def __init__(self, *lines: str):
        self.lines = list(lines)
        self.menus: list[list[tuple[int, str]]] = []

    def decide(self, question):
        if question.kind == "choice":
            self.menus.append([(n, o.label) for n, o in question.numbered()])
            return question.resolve(self.lines.pop(0))
        return question.default or question.options[-1].key


def test_a_hub_keeps_its_numbers_when_conditional_choices_come_and_go():
    typed = Typed("1", "2", "1", "1", "5")
    game = Game(load_adventure(PARTY), seed=1, decider=typed, party=[pregenerated("espen")])
    assert game.play() == "home"
    numbers = [[n for n, _ in menu] for menu in typed.menus]
    assert numbers == [[1, 2, 4, 5], [1, 2, 4, 5], [1, 3, 4, 5], [1, 3, 4, 5], [3, 4, 5]]
    labels = [dict(menu) for menu in typed.menus]
    assert all(menu[4].startswith("Crack the strongroom door") for menu in labels)  # 4 is 4 on every visit
    assert labels[2][3] == "Open the side door with the spare key"
    assert game.state.chosen == {"yard/look": 3, "yard/2": 1, "yard/5": 1}


def test_a_number_that_is_hidden_now_is_refused_with_the_numbers_shown():
    typed = Typed("2", "2")
    game = Game(load_adventure(PARTY), seed=1, decider=typed, party=[pregenerated("espen")])
    shown = r"'2' is not an answer here\. Answer with one of: 1 \(.*\), 3 \(.*\), 4 \(.*\), 5 \("
    with pytest.raises(QuestionError, match=shown):
        game.play()


def test_question_numbers_map_typed_answers_and_menu_answers():
    q = Question("choice", "?", (Option("c1", "Wait", number=1), Option("c3", "Knock", number=3),
                                 Option("c4", "Leave", number=4)))
    assert [n for n, _ in q.numbered()] == [1, 3, 4]
    assert q.resolve("3") == "c3" and q.resolve("4") == "c4" and q.resolve("1") == "c1"
    assert q.menu_answer("c3") == "3"
    with pytest.raises(QuestionError, match=r"Answer with one of: 1 \(Wait\), 3 \(Knock\), 4 \(Leave\)\.$"):
        q.resolve("2")


def test_menus_the_game_makes_are_numbered_from_one():
    q = Question("lens", "?", (Option("none", "No Lens"), Option("cautious", "Cautious")))
    assert [n for n, _ in q.numbered()] == [1, 2]
    assert q.resolve("2") == "cautious" and q.menu_answer("cautious") == "2"


def test_a_script_types_the_numbers_the_menu_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "yard.txt"
    script.write_text("1\n2\n3\n")  # look; pocket the key; 3 is the side door (offered now, as the menu shows)
    r = CliRunner().invoke(cli, ["play", str(PARTY), "--pc", "espen", "--script", str(script), "--seed", "1",
                                 "--saves", str(tmp_path / "saves"), "--partial"])
    assert r.exit_code == 0, r.output
    assert "3.  Open the side door" in r.output.replace("3. Open", "3.  Open")
    assert "The strongroom" in r.output
