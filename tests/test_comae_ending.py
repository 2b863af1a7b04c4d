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


def test_a_party_felled_by_a_cost_on_the_way_to_an_ending_has_fallen(tmp_path):
    """The review: the comae ending was open to any branch, so a climb whose 30 BODY left nobody ended "Top
    (escaped)", with "You made it over, , and walk home." Only a conflict's own branch tells the fallen party's end."""
    path = tmp_path / "cliff.toml"
    path.write_text("""
[adventure]
id = "cliff"
title = "The cliff"
start = "foot"

[scenes.foot]
text = "A cliff."

[[scenes.foot.choices]]
text = "Climb"
goto = { goto = "top", effects = [ { damage = "BODY", amount = 30 } ] }

[scenes.top]
text = "{party} made it over."
ending = true
outcome = "over"
""")
    pc = pregenerated("espen")
    pc.pools["BODY"].current = -1
    log = EventLog()
    game = Game(load_adventure(path), seed=1, decider=PushOn(), sink=log, party=[pc])
    game.play()
    assert game.state.ending == FALLEN


def test_the_ending_of_a_fallen_party_does_not_say_they_are_not_there_to_see_it(tmp_path):
    """The review: "You wake on the deck…" and under it "Espen Lind, in comae, is not there to see it." The ending
    the fight's branch names is the fallen party's own."""
    _, events = play(tmp_path, "beaten")
    ending = next(e.data for e in events if e.kind == "ending")
    assert "fallen" not in ending


def test_the_text_after_a_party_fell_together_speaks_of_those_who_fell(tmp_path):
    """The review: a party of two in comae read "The snow covers you.  wakes in the mud;  is beaten." The branch's
    text and the ending's are filled from the party the conflict took out: names, {you} for two, party_size()."""
    from solo.story.format.text import fill

    path = tmp_path / "yard.toml"
    text = YARD.replace("{lost}", "beaten").replace(
        'text = "They throw what is left of you in the harbour."',
        'text = "The snow covers {you}. {pc} wakes in the mud; {party} {verb.is} beaten{if party_size() > 1} '
        'together{end}."').replace('lost = "beaten" }', 'lost = "beaten", comae = { goto = "beaten", '
                                   'text = "{pc} falls last." } }')
    path.write_text(text)
    adventure = load_adventure(path)
    for seed in range(60):
        log = EventLog()
        party = [pregenerated("espen"), pregenerated("espen")]
        party[1].name = "Thea Holm"
        for pc in party:
            pc.pools["BODY"].current = 2
        game = Game(adventure, seed=seed, decider=PushOn(), sink=log, party=party)
        game.play()
        if game.state.ending == "beaten" and len(game.state.removed) == 2:
            break
    else:
        pytest.fail("no seed put both PCs in comae")
    said = [fill(e.data["text"], e.data["slots"]) for e in log.events
            if e.kind in ("branch_text", "scene_entered") and "slots" in e.data]
    last = next(e.data["actor"] for e in reversed(log.events) if e.kind == "comae")
    assert any(line == f"{last} falls last." for line in said), said
    ending = next(line for line in said if line.startswith("The snow covers"))
    first = game.state.party[game.state.active].name
    assert ending == (f"The snow covers you both. {first} wakes in the mud; "
                      "Espen Lind and Thea Holm are beaten together.")
