"""Minds by nature in group fights: a band of draugr, a band of bandits, against a party (issue 33).

Seed 001's design notes: draugr deal the most damage where it counts, swarm
and drop the weakest first; bandits want to live and will not fight
outnumbered. This plays many seeded group combats through the real engine
(:func:`solo.minds.arena.run_skirmishes`) and prints, like ``solo duel``:

- for three mindless draugr against a tank, a fighter and a weak character:
  how often a target choice fell on the weakest foe (least conflict Pool left)
  against what a blind pick would give, and how often the band struck the foe
  it struck last again while it still stood (the swarm);
- for bandits (skilled thugs who live for money) against characters with the
  bandits' own sheet: the share of bandits that fled, bargained or surrendered,
  when outnumbered and when they outnumber the party.

    python benchmarks/band_minds.py [--fights 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import random

from solo.minds.arena import parse_trait, run_skirmishes
from solo.npc import generate_npc
from solo.npc.codeblock import CodeBlock, RecentEvent
from solo.rules.character import Character, Pool
from solo.rules.conflict_types import conflict_type
from solo.rules.rulebook import POOLS, SKILLS

COMBAT = conflict_type("combat")
PARTY = {  # name: (Combat, weapon, armour, BODY)
    "Tank": (60, "long_sword", "heavy", 16),
    "Fighter": (50, "axe", None, 12),
    "Weak": (35, None, None, 8),
}
#: (bandits, characters): outnumbered, even, outnumbering
NUMBERS = ((2, 3), (2, 2), (3, 1))


def party() -> list[Character]:
    out = []
    for name, (combat, weapon, armour, body) in PARTY.items():
        skills = {s: 30 for s in SKILLS}
        skills["Combat"] = combat
        pools = {p: Pool(12, 12) for p in POOLS}
        pools["BODY"] = Pool(body, body)
        out.append(Character(name=name, skills=skills, pools=pools, weapon=weapon, armour=armour))
    return out


def draugr_band(rng: random.Random, size: int = 3) -> list:
    return [generate_npc(rng, "skilled", role="draugr", mindless=True) for _ in range(size)]


def bandit(rng: random.Random):
    """A skilled thug who lives for money: Aggressive, Self-Centred, Money (bargains, surrenders or runs)."""
    npc = generate_npc(rng, "skilled", role="thug")
    npc.code_block = CodeBlock((parse_trait("Aggressive"), parse_trait("dark:Self-Centred")), ("Money",),
                               RecentEvent("Money", False, "debts to the wrong people"), "Unfriendly")
    return npc


def bandits_like(size: int) -> list[Character]:
    """Characters with a bandit's own sheet (Combat, weapon, Pools), so only the numbers differ."""
    proto = bandit(random.Random(5))
    return [Character(name=f"Traveller {i + 1}", skills=dict(proto.skills),
                      pools={k: Pool(v.maximum, v.maximum) for k, v in proto.pools.items()},
                      weapon=proto.weapon, armour=proto.armour) for i in range(size)]


def measure_draugr(fights: int, seed: int = 1):
    return run_skirmishes(draugr_band, party(), COMBAT, runs=fights, seed=seed)


def measure_bandits(band: int, travellers: int, fights: int, seed: int = 1):
    return run_skirmishes(lambda rng: [bandit(rng) for _ in range(band)], bandits_like(travellers), COMBAT,
                          runs=fights, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fights", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    draugr = measure_draugr(args.fights)
    bands = {f"{b} bandits v {t}": measure_bandits(b, t, args.fights) for b, t in NUMBERS}
    if args.json:
        print(json.dumps({"draugr": draugr.to_dict(), **{k: v.to_dict() for k, v in bands.items()}}, indent=2))
        return
    print(f"Three draugr against Tank, Fighter and Weak, {args.fights} fights:")
    print(f"  target choices {draugr.choices}: the weakest {draugr.weakest_share:.1%}, "
          f"a blind pick {draugr.chance_share:.1%} ({draugr.weakest_share / draugr.chance_share:.2f}x chance)")
    print(f"  struck the band's last foe again while it stood: {draugr.followed}/{draugr.followed_chances}")
    print(f"\nBandits against travellers of their own sheet, {args.fights} fights each:")
    for label, s in bands.items():
        print(f"  {label:<16} fled or gave up {s.gave_up():6.1%}  exits {dict(s.exits)}  breaks {dict(s.breaks)}")


if __name__ == "__main__":
    main()
