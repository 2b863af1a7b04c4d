"""How often a duel ends in a stalemate, per conflict type: Skilled NPCs against the pregenerated PC.

The measure behind docs/rulings.md, "Stacked penalties and stalemates". For each opposed conflict type,
``--npcs`` Skilled NPCs (drawn as ``solo duel --seed N`` draws them, N = 1, 2, …) each fight ``--runs``
conflicts against the PC, who is played by the greedy bot, with the round limit of ``solo duel`` (30).
Printed per type: the share of stalemates, the mean rounds, the share of rounds nobody won, the share of
rolls made at a target of 5 or less, and the lowest target rolled.

    python benchmarks/stalemates.py                   # 10 NPCs x 100 duels per type, against Espen
    python benchmarks/stalemates.py --competent       # Espen made competent in each type (50 % + Focus)
    python benchmarks/stalemates.py --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solo.minds.arena import DEFAULT_ROUND_LIMIT, duel_npc, duel_seeds, restore, snapshot  # noqa: E402
from solo.minds.bots import GreedyDecider  # noqa: E402
from solo.minds.npc import NPCMind  # noqa: E402
from solo.rules.conflict import Conflict  # noqa: E402
from solo.rules.conflict_types import bundled_conflict_types  # noqa: E402
from solo.rules.creation import pregenerated  # noqa: E402
from solo.rules.participants import from_character  # noqa: E402

TYPES = ("combat", "social", "foot_chase", "car_chase", "sneaking", "tracking")


class _Tally:
    """An event sink that counts rounds, empty rounds and roll targets, and nothing else."""

    def __init__(self) -> None:
        self.rounds = self.empty = self.rolls = self.low = 0
        self.lowest = 999

    def __call__(self, event) -> None:
        kind = event.kind
        if kind == "round_result":
            self.rounds += 1
            self.empty += bool(event.data["stalemate"])
        elif kind == "roll":
            target = event.data["target"]
            self.rolls += 1
            self.low += target <= 5
            self.lowest = min(self.lowest, target)


def competent(pc, ctype, side: str) -> None:
    """The PC at 50 % in the skill of its side, with the type's first Focus for it."""
    skill, focuses = ctype.opposed_by if ctype.opposed_by and side == "b" else (ctype.skill, ctype.focuses)
    pc.skills[skill] = max(pc.skills[skill], 50)
    if focuses:
        pc.focuses.setdefault(f"{skill}//{focuses[0]}", 20)


def measure(type_key: str, *, npcs: int, runs: int, make_competent: bool, round_limit: int,
            pc_side: str = "b") -> dict:
    ctype = bundled_conflict_types()[type_key]
    outcomes: dict[str, int] = {}
    tally = _Tally()
    total_rounds = 0
    for seed in range(1, npcs + 1):
        npc = duel_npc(random.Random(f"duel-npc:{seed}"), ctype, level="skilled")
        dice, mind_rng = duel_seeds(seed)
        mind = NPCMind(npc, mind_rng)
        kept = snapshot(npc)
        for _ in range(runs):
            restore(npc, kept)
            pc = pregenerated("espen")
            if make_competent:
                competent(pc, ctype, pc_side)
            npc_side = "a" if pc_side == "b" else "b"
            them = from_character(npc, npc_side, ctype, decider=mind, pid=npc.name, uses_lenses=npc.uses_lenses)
            me = from_character(pc, pc_side, ctype, decider=GreedyDecider(), pid="PC")
            result = Conflict(ctype, [them, me], dice, sink=tally, round_limit=round_limit).run()
            outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
            total_rounds += result.rounds
    n = npcs * runs
    return {"type": type_key, "duels": n, "stalemate": outcomes.get("stalemate", 0) / n,
            "mean_rounds": total_rounds / n, "empty_rounds": tally.empty / max(1, tally.rounds),
            "rolls_at_5_or_less": tally.low / max(1, tally.rolls), "lowest_target": tally.lowest,
            "outcomes": outcomes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--npcs", type=int, default=10)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUND_LIMIT)
    parser.add_argument("--competent", action="store_true")
    parser.add_argument("--pc-side", choices=("a", "b"), default="b",
                        help="b (default): the NPC starts, as in solo duel; a: the PC starts (sneaks, drives, tracks)")
    parser.add_argument("--types", nargs="*", default=list(TYPES))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure(t, npcs=args.npcs, runs=args.runs, make_competent=args.competent, round_limit=args.rounds,
                    pc_side=args.pc_side) for t in args.types]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'type':11s} {'duels':>6s} {'stalemate':>10s} {'rounds':>7s} {'empty':>7s} {'rolls<=5':>9s} {'lowest':>7s}")
    for r in rows:
        print(f"{r['type']:11s} {r['duels']:6d} {r['stalemate']:10.1%} {r['mean_rounds']:7.2f} "
              f"{r['empty_rounds']:7.1%} {r['rolls_at_5_or_less']:9.1%} {r['lowest_target']:7d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
