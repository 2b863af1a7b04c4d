"""A choice says what is at stake (``hint``), what taking it again costs (``retry_cost``), and ``once`` is a condition.

The adventure is tests/data/format/party.toml; docs/adventures.md ("Choices", "Retries") says what is tested.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from solo.decisions import Option, Question
from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.sim.prove.reads import conditions_of
from solo.story.format.loader import load_adventure, read_adventure
from solo.story.play.engine import Game
from solo.ui.prompt import TerminalDecider

PARTY = Path(__file__).parent / "data" / "format" / "party.toml"


class Keys:
    """Answers the scene's choices with the given keys in order, keeping every choice question; else the default
    or the last option."""

    def __init__(self, *keys: str):
        self.keys = list(keys)
        self.menus: list[Question] = []

    def decide(self, question):
        if question.kind == "choice":
            self.menus.append(question)
            return self.keys.pop(0)
        return question.default or question.options[-1].key


def play(*keys: str, text: str | None = None, tmp_path: Path | None = None):
    path = PARTY
    if text is not None:
        assert tmp_path is not None
        path = tmp_path / "party.toml"
        path.write_text(text)
    log = EventLog()
    decider = Keys(*keys)
    game = Game(load_adventure(path), seed=1, decider=decider, sink=log, party=[pregenerated("espen")])
    game.play()
    return game, log.events, decider.menus


def details(menu: Question) -> dict[str, str]:
    return {o.key: o.detail for o in menu.options}


def test_a_hint_stands_beside_its_choice_and_in_the_choice_event():
    game, events, menus = play("c4", "c1")
    assert details(menus[0])["c4"] == "the bell may ring"
    assert details(menus[0])["c5"] == ""
    chosen = next(e.data for e in events if e.kind == "choice")
    assert chosen["hint"] == "the bell may ring"
    game, events, menus = play("c5")
    assert "hint" not in next(e.data for e in events if e.kind == "choice")  # none written, none said


def test_the_terminal_shows_the_hint_as_written_never_as_markup():
    console = Console(record=True, width=120, color_system=None)
    question = Question("choice", "What do you do?", (Option("c1", "Wait", "[bold]he[/] bolts the door", number=1),
                                                      Option("c3", "Knock", number=3)))
    TerminalDecider(console, reader=lambda prompt: "3").show(question)
    shown = console.export_text()
    assert "[bold]he[/] bolts the door" in shown
    assert "1." in shown and "3." in shown and "2." not in shown


def test_a_skill_and_its_focus_wrap_as_one_word_in_a_menu():
    """"1. Study the wreck while the bus winds down the hill (Awareness" with "//Perception)" on the next line: the
    author's "Skill //Focus" is one word in a menu's layout, however narrow the column."""
    label = "Study the wreck while the bus winds down the hill (Awareness //Perception)"
    hint = "you see it only from the bus, and only as it passes"
    for width in (70, 100):
        console = Console(record=True, width=width, color_system=None)
        question = Question("choice", "What do you do?", (Option("c1", label, "" if width == 70 else hint, number=1),
                                                          Option("c2", "Talk to the driver", number=2)))
        TerminalDecider(console, reader=lambda prompt: "1").show(question)
        shown = console.export_text()
        assert "(Awareness\u00a0//Perception)" in shown, shown
        assert not any(line.strip().startswith("//") for line in shown.splitlines()), shown


def test_a_hint_longer_than_a_line_is_refused_where_it_is(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text(PARTY.read_text().replace('hint = "the bell may ring"', f'hint = "{"ring " * 30}"'))
    _, problems = read_adventure(path)
    assert [(p.code, p.path) for p in problems] == [("E002", "scenes.yard.choices[3].hint")]
    assert "at most 120 characters, not 150" in problems[0].message


def test_a_retry_costs_from_the_second_time_and_the_menu_says_so_after_the_first():
    game, events, menus = play("c1", "c1", "c5")
    assert details(menus[0])["c1"] == "it takes an hour"
    assert details(menus[1])["c1"] == "it takes an hour · again: costs 1 hour, 1 tension"
    tension = [e.data for e in events if e.kind == "tension"]
    assert tension == [{"before": 5, "after": 6}]  # the second look only
    assert game.state.counters["hours"] == 1
    assert "c1" in details(menus[2])  # hours < 2 still holds after one retry: offered …
    game, events, menus = play("c1", "c1", "c1", "c5")
    assert game.state.counters["hours"] == 2 and "c1" not in details(menus[3])  # … and gone after two


def test_only_costs_are_retry_costs(tmp_path):
    text = PARTY.read_text().replace('retry_cost = [ { add = "hours" }, { tension = 1 } ]',
                                     'retry_cost = [ { set = "seen" }, { luck = 1 }, { tension = -1 }, '
                                     '{ damage = "POW", amount = "1d3" } ]')
    path = tmp_path / "a.toml"
    path.write_text(text)
    _, problems = read_adventure(path)
    errors = {p.path: p.message for p in problems if p.severity == "error"}
    assert set(errors) == {f"scenes.yard.choices[0].retry_cost[{i}]" for i in range(3)}
    assert "'set' is not a cost" in errors["scenes.yard.choices[0].retry_cost[0]"]
    assert "negative" in errors["scenes.yard.choices[0].retry_cost[1]"]
    assert "positive" in errors["scenes.yard.choices[0].retry_cost[2]"]


def test_a_pool_cost_is_named_by_its_dice_and_pool(tmp_path):
    text = PARTY.read_text().replace('retry_cost = [ { add = "hours" }, { tension = 1 } ]',
                                     'retry_cost = [ { damage = "POW", amount = "1d3", who = "all" }, { luck = -1 } ]')
    game, events, menus = play("c1", "c5", text=text, tmp_path=tmp_path)
    assert details(menus[1])["c1"] == "it takes an hour · again: costs 1d3 POW each, 1 Luck Point"


def test_once_is_written_into_the_condition_and_spent_after_one_take():
    adventure = load_adventure(PARTY)
    key = adventure.scenes["yard"].choices[1]
    assert key.once and key.condition is not None and key.condition.source == 'chosen("yard/2") == 0'
    assert key.condition in conditions_of(adventure)  # solo prove reads it as any other condition
    door = adventure.scenes["yard"].choices[0]
    assert door.condition is not None and door.condition.source == "hours < 2"  # not once: as written
    game, events, menus = play("c2", "c5")
    assert "c2" in details(menus[0]) and "c2" not in details(menus[1])
    assert game.state.chosen == {"yard/2": 1, "yard/5": 1}


def test_once_keeps_the_choices_own_condition(tmp_path):
    text = PARTY.read_text().replace('text = "Pocket the spare key under the mat"\nonce = true',
                                     'text = "Pocket the spare key under the mat"\nonce = true\nif = "hours > 0"')
    adventure = load_adventure(_write(tmp_path, text))
    condition = adventure.scenes["yard"].choices[1].condition
    assert condition is not None and condition.source == '(hours > 0) and chosen("yard/2") == 0'
    game, events, menus = play("c1", "c1", "c2", "c5", text=text, tmp_path=tmp_path)
    assert "c2" not in details(menus[0]) and "c2" in details(menus[2]) and "c2" not in details(menus[3])


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "once.toml"
    path.write_text(text)
    return path
