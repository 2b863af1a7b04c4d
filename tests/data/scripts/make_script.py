"""Regenerate a stored play script: python tests/data/scripts/make_script.py tutorial 5 > out.txt

A planned player: follows the listed scene choices, plays Cautious, takes every
Luck flip, never reduces damage, pushes when it can. The answers are printed as
the option numbers a person would type, so the script is a real input file.
"""

import sys

from solo.story.engine import Game
from solo.story.library import find_adventure
from solo.story.loader import load_adventure

PLANS = {
    "tutorial": {"party_size": ["1"], "pc_source": ["pregen"], "choice": ["2", "1", "2", "1"]},
}


class Planned:
    def __init__(self, plan):
        self.plan = {k: list(v) for k, v in plan.items()}
        self.lines = []

    def decide(self, q):
        if self.plan.get(q.kind):
            answer = self.plan[q.kind].pop(0)
        elif q.kind == "lens":
            answer = "cautious"
        elif q.kind == "luck_flip":
            answer = "yes"
        elif q.kind == "luck_reduce":
            answer = "no"
        elif q.kind == "push":
            answer = "push"
        else:
            answer = q.options[0].key if q.options else "Player"
        key = q.resolve(answer)
        self.lines.append(str(q.keys().index(key) + 1) if q.options else key)
        return key


if __name__ == "__main__":
    name, seed = sys.argv[1], int(sys.argv[2])
    player = Planned(PLANS[name])
    game = Game(load_adventure(find_adventure(name)), seed=seed, decider=player)
    ending = game.play()
    print(f"# {name}, seed {seed}: a planned player (tests/data/scripts/make_script.py); ends in {ending}.")
    print("\n".join(player.lines))
