"""Regenerate a stored play script.

    python tests/data/scripts/make_script.py tutorial 5            # the planned tutorial player
    python tests/data/scripts/make_script.py vellan 4 --bot 4      # a seeded bot player
    python tests/data/scripts/make_script.py vellan 9 --bot 9 --players 3

The planned player follows the listed scene choices, plays Cautious, takes
every Luck flip, never reduces damage and pushes when it can. The bot picks
at random (never yields) with its own seed; with --players it seats Ada, Bo
and Cy, the first on the pregenerated character. Answers are printed as the
option numbers a person would type, so a script is a real input file.
"""

import argparse
import random

from solo.story.play.engine import Game
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure

PLANS = {
    "tutorial": {"party_size": ["1"], "pc_source": ["pregen"], "choice": ["c2", "c1", "c2", "c1"]},
}
PLAYERS = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]


class Planned:
    def __init__(self, plan):
        self.plan = {k: list(v) for k, v in plan.items()}

    def answer(self, q):
        if self.plan.get(q.kind):
            return self.plan[q.kind].pop(0)
        return {"lens": "cautious", "luck_flip": "yes", "luck_reduce": "no", "push": "push"}.get(
            q.kind, q.options[0].key if q.options else "Player")


class Bot:
    def __init__(self, seed, players):
        self.rng = random.Random(seed)
        self.players = players
        self.seated = 0

    def answer(self, q):
        if q.kind == "party_size":
            return str(self.players)
        if q.kind == "player":
            self.seated += 1
            return PLAYERS[self.seated - 1]
        if q.kind == "pc_source":
            return "pregen" if "pregen" in q.keys() else "random"
        if q.free_text:
            return q.default or "yes"
        if q.kind == "pronoun" and q.default:  # a random character keeps the pronoun the dice drew
            return q.default
        if q.kind == "lens":
            return self.rng.choice(["cautious", "none", "aggressive", "cautious"])
        if q.kind == "luck_flip":
            return "yes"
        if q.kind == "exit_offer":  # an opponent yields or runs: let it
            return q.default
        if q.kind == "luck_reduce":
            return "no"
        if q.kind == "push":
            return "push" if "push" in q.keys() else q.options[-1].key
        keys = [k for k in q.keys() if k not in ("flee", "surrender")] or q.keys()
        return self.rng.choice(keys)


class Recorder:
    def __init__(self, player):
        self.player = player
        self.lines = []

    def decide(self, q):
        key = q.resolve(self.player.answer(q))
        self.lines.append(q.menu_answer(key) if q.options else key)  # the number the menu shows
        return key


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("adventure")
    parser.add_argument("seed", type=int)
    parser.add_argument("--bot", type=int, help="use the random bot with this seed")
    parser.add_argument("--players", type=int, default=1)
    args = parser.parse_args()
    player = Bot(args.bot, args.players) if args.bot is not None else Planned(PLANS[args.adventure])
    recorder = Recorder(player)
    game = Game(load_adventure(find_adventure(args.adventure)), seed=args.seed, decider=recorder)
    ending = game.play()
    who = f"a seeded bot (seed {args.bot}, {args.players} player(s))" if args.bot is not None else "a planned player"
    print(f"# {args.adventure}, seed {args.seed}: {who}, made by tests/data/scripts/make_script.py; "
          f"ends in {ending}.")
    print("\n".join(recorder.lines))


if __name__ == "__main__":
    main()
