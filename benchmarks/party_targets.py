"""Whom NPCs strike in party conflicts, by Code Block, over many seeded fights.

Three PCs face one NPC in a full combat through the real engine: a tank
(Combat 70, long sword, heavy armour, BODY 16), a fighter (Combat 50, axe,
BODY 12) and a weak one (Combat 30, unarmed, BODY 8). Every time the NPC wins
a round it chooses a target; this counts those choices for a mindless
draugr, a self-preserving NPC and a reckless one.

    python benchmarks/party_targets.py [--fights 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

from solo.events import EventLog
from solo.minds.arena import parse_trait
from solo.minds.npc import NPCMind
from solo.npc import generate_npc
from solo.npc.codeblock import CodeBlock, RecentEvent
from solo.rules.character import Character, Pool
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character
from solo.rules.rulebook import POOLS, SKILLS

COMBAT = conflict_type("combat")
PARTY = {  # name: (Combat, weapon, armour, BODY)
    "Tank": (70, "long_sword", "heavy", 16),
    "Fighter": (50, "axe", None, 12),
    "Weak": (30, None, None, 8),
}
KINDS = {
    "mindless draugr": dict(mindless=True),
    "self-preserving (Nervous, Self-Centred; Health)": dict(traits=("Nervous", "dark:Self-Centred"), motive="Health"),
    "reckless (Aggressive, Fanatic; Faith)": dict(traits=("Aggressive", "dark:Fanatic"), motive="Faith"),
}


def pc(name: str) -> Character:
    combat, weapon, armour, body = PARTY[name]
    skills = {s: 5 for s in SKILLS}
    skills["Combat"] = combat
    pools = {p: Pool(12, 12) for p in POOLS}
    pools["BODY"] = Pool(body, body)
    return Character(name=name, skills=skills, pools=pools, weapon=weapon, armour=armour)


def npc(kind: dict, seed: int):
    if kind.get("mindless"):
        return generate_npc(random.Random(seed), "master", role="draugr", mindless=True)
    body = generate_npc(random.Random(seed), "master", role="thug")
    body.code_block = CodeBlock(tuple(parse_trait(t) for t in kind["traits"]), (kind["motive"],),
                                RecentEvent("Success", True, "recent endeavours succeed"), "Neutral")
    return body


class Plain:
    """The PCs fight on with plain rolls; only the NPC's choices are measured."""

    def decide(self, q):
        if q.kind == "push":
            return "out"
        return "none" if "none" in q.keys() else ("no" if "no" in q.keys() else q.options[0].key)


def measure(kind: dict, fights: int, seed: int = 1) -> tuple[Counter, Counter]:
    """(every target choice, the first choice of each fight while all three PCs stand)."""
    targets: Counter = Counter()
    first: Counter = Counter()
    for i in range(fights):
        log = EventLog()
        foe = npc(kind, seed + i)
        mind = NPCMind(foe, random.Random(seed * 1000 + i), sink=log)
        participants = [from_character(pc(n), "a", COMBAT, decider=Plain(), luck_allowed=False) for n in PARTY]
        participants.append(from_character(foe, "b", COMBAT, decider=mind))
        Conflict(COMBAT, participants, random.Random(seed * 7919 + i), round_limit=30).run()
        choices = [e["choice"] for e in log.of("npc_decision") if e["question"] == "target"]
        targets.update(choices)
        if choices:
            first[choices[0]] += 1
    return targets, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fights", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    for label, kind in KINDS.items():
        counts, first = measure(kind, args.fights)
        total, firsts = sum(counts.values()) or 1, sum(first.values()) or 1
        results[label] = {"first": {n: first[n] / firsts for n in PARTY}, "all": {n: counts[n] / total for n in PARTY},
                          "fights_with_a_choice": firsts, "choices": total}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"Whom the NPC strikes, over {args.fights} fights each against Tank, Fighter and Weak.")
    for key, title in (("first", "First blow of the fight (all three standing)"), ("all", "Every blow")):
        print(f"\n{title}:")
        print(f"  {'NPC':<48}" + "".join(f"{n:>9}" for n in PARTY))
        for label, row in results.items():
            print(f"  {label:<48}" + "".join(f"{row[key][n]:>9.1%}" for n in PARTY))


if __name__ == "__main__":
    main()
