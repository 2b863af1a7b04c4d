"""A party all in comae still reaches the ending its conflict's branch names: a GM wrote ``lost = "beaten"`` (and
``comae = "beaten"``) and every such fight ended "The party has fallen", the Beaten ending never shown, though
``solo map`` drew the branch. A branch into a scene that is not an ending still ends the game there: nobody is left
to play it. docs/adventures.md ("Outcomes") says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.story.format.loader import load_adventure
from solo.story.play.engine import FALLEN, Game

YARD = """
[adventure]
id = "yard"
title = "The yard"
start = "yard"

[npcs.guard]
name = "Bram Tolk"
level = "skilled"
pronoun = "he"
skills = { Combat = 95, Move = 30 }
pools = { BODY = 40, INT = 6, POW = 6, CHA = 6 }
weapon = "cudgel"

[npcs.guard.code_block]
personality = ["Aggressive"]
dark_triad = ["Impulsive"]
motivation = ["Money"]
disposition = "Unfriendly"

[scenes.yard]
text = "A guard with a cudgel."

[[scenes.yard.choices]]
text = "Fight him"
conflict = { type = "combat", npcs = ["guard"], rounds = 30, won = "free", lost = "{lost}" }

[scenes.free]
text = "Free."
ending = true
outcome = "free"

[scenes.beaten]
text = "They throw what is left of you in the harbour."
ending = true
outcome = "beaten"

[scenes.cell]
text = "A cell."

[[scenes.cell.choices]]
text = "Wait"
goto = "free"
"""


class PushOn:
    """Fights with no Lens and pushes on every time, so that a lost fight ends in comae."""

    def decide(self, question):
        keys = question.keys()
        for key in ("c1", "push", "push_on", "no", "none"):
            if key in keys:
                return key
        return question.default or keys[0]


def play(tmp_path: Path, lost: str):
    path = tmp_path / "yard.toml"
    path.write_text(YARD.replace("{lost}", lost))
    adventure = load_adventure(path)
    for seed in range(40):
        log = EventLog()
        pc = pregenerated("espen")
        pc.pools["BODY"].current = 2
        game = Game(adventure, seed=seed, decider=PushOn(), sink=log, party=[pc])
        game.play()
        if any(e.kind == "pc_removed" for e in log.events):
            return game, log.events
    pytest.fail("no seed put the PC in comae")


def test_a_party_in_comae_reaches_the_ending_its_branch_names(tmp_path):
    game, events = play(tmp_path, "beaten")
    outcome = next(e.data for e in events if e.kind == "conflict_end")["outcome"]
    assert outcome == "comae"
    assert game.state.ending == "beaten"
    assert [e.data["scene"] for e in events if e.kind == "ending"] == ["beaten"]


def test_a_party_in_comae_led_to_a_scene_to_play_has_fallen(tmp_path):
    game, events = play(tmp_path, "cell")
    assert game.state.ending == FALLEN
    assert not any(e.kind == "scene_entered" and e.data.get("scene") == "cell" for e in events)
