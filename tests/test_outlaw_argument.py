"""Kaldskard's argument at the outlaws' fire for a party (scenes/kaldskard/drovers.toml): what the menu promises is
what happens.

Before (seed 7, three players): the menu's estimate read "≈ 0–1 % to win outright, 100 % they give up or run ·
likely best" and the hint "win, and they walk with you"; Torgny and Hallstein both walked away ("the opponent
fled"), which the scene takes as no alliance, and its text went on "She gets up and walks out into the snow"
right after "Hallstein turns on his heel and is gone". Ragna, spent (CHA 0) from the argument before, takes no
part (rules §5.5, spent before the start), so the text may not have her argue either.
"""

from __future__ import annotations

import re

import pytest

from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.play.advice import Estimate


@pytest.fixture(scope="module")
def argument():
    adventure = load_adventure(find_adventure("kaldskard"))
    scene = adventure.scenes["outlaw_camp"]
    return next(c for c in scene.choices if c.condition is not None and "party_size() >= 2" in c.condition.source
                and c.action is not None and c.action.kind == "conflict")


def _text(branch) -> str:
    return branch.text


def test_walking_away_is_promised_as_what_it_leads_to(argument):
    spec = argument.action.branches
    allies = {k for k in ("won", "opponent_surrendered", "opponent_fled") if "allies" in str(spec[k].effects)}
    assert allies == {"won", "opponent_surrendered"}  # the band that walks away does not join you
    assert "walk away" in argument.hint and "they do not" in argument.hint, argument.hint
    # and the odds say which it will be: walking away from an argument, apart from giving up
    words = Estimate(100, 0, 100, 0, 100, "walk away").words()
    assert "they walk away" in words and "give up" not in words


def test_the_texts_after_the_argument_name_ragna_and_never_have_her_argue(argument):
    spec = argument.action.branches
    for key in ("opponent_fled", "opponent_surrendered", "lost"):
        text = _text(spec[key])
        first = re.search(r"\b(she|her|Ragna)\b", text)
        assert first is not None and first.group(1) == "Ragna", (key, text)  # a "she" after "Hallstein … is gone"
    assert "she talks you round" not in _text(spec["lost"])
