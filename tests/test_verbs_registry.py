"""Every adventure verb owns its chances beside its resolve (issue 29, point 8): solo prove asks the verb."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo.sim.prove.probe import start
from solo.story.format.loader import load_adventure
from solo.story.play.actions import ACTIONS, ActionVerb
from solo.story.play.chances import outcomes

DATA = Path(__file__).resolve().parent / "data" / "prove"


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_verb_has_its_own_chances(name):
    verb = ACTIONS[name]
    assert type(verb).chances is not ActionVerb.chances, f"the {name} verb has no chances beside its resolve"
    assert type(verb).resolve is not ActionVerb.resolve


def test_a_verb_without_chances_is_refused_not_played_with_dice(monkeypatch):
    """A new verb that forgot its chances makes solo prove fail loudly instead of quietly rolling real dice."""
    game = start(load_adventure(DATA / "odds.toml"), None)
    choice = next(c for c in game.adventure.scenes[game.state.scene].choices if c.action is not None)
    verb = ACTIONS[choice.action.kind]
    monkeypatch.setattr(type(verb), "chances", ActionVerb.chances)
    with pytest.raises(NotImplementedError):
        outcomes(game, choice.action)


def test_the_opposed_roll_and_its_chances_read_the_same_opposition():
    """One helper says what the other side rolls; the chances' note names that target."""
    from solo.story.play.actions import Opposed

    verb = ACTIONS["opposed"]
    assert isinstance(verb, Opposed)
    assert verb.theirs({"skill": "Social", "against": 45}, None) == ("Social", 45, [])


def test_a_cloned_game_numbers_its_chances_on_from_where_the_game_was():
    """Game.clone is the one place a game is branched: the copy's chances carry on the numbering, apart from the
    game it came from (a plain counter: an itertools.count cannot be copied from Python 3.14 on)."""
    import copy

    game = start(load_adventure(Path(__file__).parent / "data" / "prove" / "planted.toml"), None)
    for _ in range(3):
        next(game.chance_ids)
    twin = game.clone(game.state.copy(), decider=game.decider)
    assert [next(twin.chance_ids), next(twin.chance_ids)] == [4, 5]
    assert next(game.chance_ids) == 4  # the original goes on where it was
    assert next(copy.copy(twin.chance_ids)) == 6
