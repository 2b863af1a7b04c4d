"""What an adventure's `{if}` blocks join up reads as one sentence would: bots play every bundled adventure and
no scene or branch text they are shown has a doubled space or a space before a stop (Vellan's page six read
"to hang a shipowner.  It repeats" where a condition's text began with its own space)."""

from __future__ import annotations

import random
import re

import pytest

from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.sim.policies import make_policy
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game

BAD_JOIN = re.compile(r"\S  +\S| [.,;:!?](?:\s|$)")


@pytest.mark.parametrize("name", ["tutorial", "vellan", "kaldskard"])
def test_bots_are_shown_no_badly_joined_text(name):
    adventure = load_adventure(find_adventure(name))
    seen = 0
    for seed in range(12):
        log = EventLog()
        bot = make_policy(("random", "cautious", "bold")[seed % 3], random.Random(seed))
        Game(adventure, seed=seed, decider=bot, sink=log, party=[pregenerated("espen")]).play()
        for event in log.events:
            if event.kind in ("scene_entered", "branch_text"):
                for line in str(event.data.get("text", "")).splitlines():
                    seen += 1
                    assert not BAD_JOIN.search(line.strip()), (name, seed, line)
    assert seen > 100
