"""How varied narrated duels read: 300 rounds each of combat, a social conflict and a foot chase.

One fixed NPC fights the greedy bot over many seeds and one Narrator tells it
all, as in a long game. Prints the figures issue 13 asks for (sentences that
come back too often, distinct sentences, repeats, unfilled slots, capitals,
combat words in the social conflict); tests/test_narration_variety.py
asserts them.

    python benchmarks/narration_stats.py [--rounds 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import random

from solo.characters import load_character
from solo.minds.arena import duel_npc, run_duels
from solo.narration import Narrator, load_templates, narrate_events, narration_rng
from solo.narration.variety import Variety, combat_words_in, variety
from solo.rules.conflict_types import conflict_type

TYPES = ("combat", "social", "foot_chase")
NPC = {"personality": ("Aggressive", "Lying"), "motivation": ("Money",)}


def told_rounds(ctype_key: str, rounds: int = 300, seed: int = 1) -> list[list[str]]:
    """The lines of ``rounds`` narrated rounds of one type, each round a list of lines."""
    ctype = conflict_type(ctype_key)
    npc = duel_npc(random.Random(f"duel-npc:{seed}"), ctype, **NPC)
    pc = load_character("espen")
    narrator = Narrator(load_templates(), narration_rng(seed))
    out: list[list[str]] = []
    run = 0
    while len(out) < rounds:
        stats = run_duels(npc, pc, ctype, runs=1, seed=seed * 10_000 + run, explain=True)
        run += 1
        people = {e["id"]: (npc if not e.get("pc") else pc)
                  for ev in stats.first if ev.kind == "conflict_start" for e in ev["participants"]}
        for passage in narrate_events(stats.first, narrator, people=people):
            if passage.round > 0:
                out.append(passage.lines)
    return out[:rounds]


def measure(ctype_key: str, rounds: int = 300, seed: int = 1) -> tuple[Variety, list[str]]:
    """The figures for one type, and any combat words told in it."""
    told = told_rounds(ctype_key, rounds, seed)
    words = [w for lines in told for line in lines for w in combat_words_in(line)]
    return variety(told), words


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for key in TYPES:
        figures, words = measure(key, args.rounds, args.seed)
        print(f"{key}: {figures}")
        if key != "combat":
            print(f"  combat words: {len(words)} {sorted(set(words))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
