"""An oracle question an adventure answers itself: where its branch for the answer is written (a ``yes_but``), no
price is drawn from the tables beside the story's own ("The price: It makes a promise you will have to keep" above
a written cost that was another, and never paid: a new player's run), and no reading of how to take a plain "yes"
(the branch says it). Where the answer falls back (no ``yes_but`` written: its ``yes``), it is told as that
``yes``, with no price nor reading: the story goes on by that branch and would never pay them (a player's Vellan:
"No, but you find a clue pointing somewhere else" above a door nobody opened). docs/adventures.md ("oracle") says so.
"""

from __future__ import annotations

from pathlib import Path

from solo.events import EventLog
from solo.rules.creation import pregenerated
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game

FORD = """
[adventure]
title = "The ford"
start = "ford"

[scenes.ford]
text = "A ford."

[[scenes.ford.choices]]
text = "Ask"
oracle = { question = "Does it hold?", odds = "even", yes = "over", no = "over"{but} }

[scenes.over]
text = "Over."
ending = true
"""


class Decide:
    """Asks the oracle; anything else its default."""

    def decide(self, question):
        return "c1" if question.kind == "choice" else question.default or question.keys()[0]


def oracle_events(tmp_path: Path, written_but: bool) -> list[dict]:
    path = tmp_path / "ford.toml"
    but = ', yes_but = { goto = "over", text = "It holds, and costs you your hat." }' if written_but else ""
    path.write_text(FORD.replace("{but}", but))
    adventure = load_adventure(path)
    found = []
    for seed in range(200):
        log = EventLog()
        Game(adventure, seed=seed, decider=Decide(), sink=log, party=[pregenerated("espen")]).play()
        found += [e.data for e in log.events if e.kind == "oracle"]
    return found


def test_a_written_yes_but_draws_no_price_and_a_fallback_is_told_as_its_branch(tmp_path):
    told = oracle_events(tmp_path, written_but=True)
    buts = [e for e in told if e["answer"] == "yes, but"]
    assert buts and all(e["interpretation"] is None for e in buts)
    # the written branches say what their answers mean, and an answer that falls back is told as the one it falls to
    assert all(e["reading"] is None for e in told) and {e["answer"] for e in told} == {"yes", "no", "yes, but"}
    fallen_back = oracle_events(tmp_path, written_but=False)
    assert {e["answer"] for e in fallen_back} == {"yes", "no"}
    assert all(e["interpretation"] is None and e["reading"] is None and not e["near"] for e in fallen_back)
    # the dice are the same: the "yes, but" rolls of the first are the "yes" of the second, seed for seed
    assert [e["roll"] for e in told] == [e["roll"] for e in fallen_back]
