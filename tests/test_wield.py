"""The ``wield`` effect: the story puts a weapon in the hands of PCs who have none (Kaldskard's travellers fought
the outlaws with empty hands, 1d3 and //Unarmed, a Soldier's //Melee never used)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Answers, make_char

from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character
from solo.rules.rulebook import rules
from solo.story.format.loader import load_adventure
from solo.story.format.problems import AdventureError
from solo.story.play.engine import Game
from solo.story.play.party import set_up_party
from solo.ui.journal import Journal

SHED = """
[adventure]
title = "The woodshed"
start = "yard"
party = {{ min = 1, max = 3 }}

[scenes.yard]
text = "A woodshed, and two axes on the wall."

[[scenes.yard.choices]]
text = "Take the axes down"
effects = [ {{ wield = "{weapon}", who = "all" }} ]

[[scenes.yard.choices]]
text = "Leave"
goto = "end"

[scenes.end]
text = "Done."
ending = true
"""


def _shed(tmp_path: Path, weapon: str = "axe") -> Path:
    path = tmp_path / "shed.toml"
    path.write_text(SHED.format(weapon=weapon), encoding="utf-8")
    return path


def test_every_pc_without_a_weapon_takes_one_up_and_fights_with_it(tmp_path):
    events: list = []
    game = Game(load_adventure(_shed(tmp_path)), seed=1, decider=Answers(), sink=events.append)
    signe = make_char("Signe Falk", Combat=60, focuses={"Combat//Melee": 20})
    bo = make_char("Bo Lind", Combat=40)
    bo.weapon = "dagger"
    set_up_party(game, [signe, bo])
    game.apply(game.adventure.scenes["yard"].choices[0].effects[0])
    assert (signe.weapon, bo.weapon) == ("axe", "dagger")  # one who holds a weapon keeps it
    told = [e for e in events if e.kind == "wield"]
    assert [(e["actor"], e["weapon"], bool(e.get("kept"))) for e in told] == [("Signe Falk", "axe", False),
                                                                             ("Bo Lind", "dagger", True)]
    fighter = from_character(signe, "a", conflict_type("combat"))
    assert fighter.weapon is rules().weapons["axe"] and fighter.weapon_focus == "Melee"
    assert str(fighter.damage_dice(True)) == str(rules().weapons["axe"].damage)
    assert fighter.base_target() == 80  # Combat 60 and //Melee +20: the Focus the axe fits
    journal = Journal()
    for e in events:
        journal.render(e)
    assert "*Signe Falk now fights with an axe.*" in journal.text()
    assert "Signe Falk took up an axe" in "\n".join(journal.recap())  # and the recap keeps it


def test_a_weapon_the_gear_table_does_not_have_is_refused_with_its_place(tmp_path):
    with pytest.raises(AdventureError) as info:
        load_adventure(_shed(tmp_path, "axxe"))
    [problem] = [p for p in info.value.problems if "wield" in p.path]
    assert problem.path.endswith("effects[0].wield") and problem.file.endswith("shed.toml") and problem.line
    assert "'axxe'" in problem.message and "did you mean 'axe'" in problem.message.lower()


@pytest.mark.parametrize(("given", "says"), [("unarmed", "Unarmed is fighting with empty hands"),
                                             ("martial_arts", "Martial arts is fighting with empty hands")])
def test_empty_hands_are_no_weapon_to_hand_out(tmp_path, given, says):
    """'Espen Lind now fights with an unarmed.': the table's empty-handed entries are refused at load."""
    with pytest.raises(AdventureError) as info:
        load_adventure(_shed(tmp_path, given))
    assert any(says in p.message and p.path.endswith(".wield") for p in info.value.problems)


def test_a_weapon_may_be_named_as_the_table_names_it_and_empty_hands_take_it_up(tmp_path):
    """A PC's file takes "Short sword" as well as "short_sword"; so does the effect. A PC whose file says
    "unarmed" holds nothing, and takes the weapon."""
    events: list = []
    game = Game(load_adventure(_shed(tmp_path, "Short sword")), seed=1, decider=Answers(), sink=events.append)
    bo = make_char("Bo Lind", Combat=40)
    bo.weapon = "unarmed"
    set_up_party(game, [bo])
    game.apply(game.adventure.scenes["yard"].choices[0].effects[0])
    assert bo.weapon == "short_sword"
    assert [e["weapon"] for e in events if e.kind == "wield"] == ["short_sword"]

