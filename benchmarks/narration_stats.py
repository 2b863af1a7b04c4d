"""How varied narrated duels read: 300 rounds each of combat, a social conflict and a foot chase.

One fixed NPC fights the greedy bot over many seeds and one Narrator tells it
all, as in a long game. Prints the figures issue 13 asks for (sentences that
come back too often, distinct sentences, repeats, unfilled slots, capitals,
combat words in the social conflict); tests/test_narration_variety.py
asserts them.

Then, per conflict type over 40 conflicts (issue 27): the share of rounds with a
line of the NPC's Code Block manner (goal at least 30 %), the longest run of
rounds without a result told one by one (goal 1), and the sentence repeated most;
and for six pairs of NPCs with contrasting Code Blocks, fought with the same
seed, the same PC and the same dice, the share of the NPC's non-speech sentences
that differ between the two of a pair (goal at least half).

    python benchmarks/narration_stats.py [--rounds 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import replace

from solo.characters import load_character
from solo.events import EventLog
from solo.minds.arena import duel_npc, run_duels
from solo.minds.bots import GreedyDecider
from solo.narration import Narrator, load_templates, narrate_events, narration_rng
from solo.narration.variety import Variety, combat_words_in, sentences, variety
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character, obstacle

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


ALL_TYPES = ("combat", "social", "foot_chase", "car_chase", "sneaking", "tracking", "lockpicking", "library")
#: Six pairs of contrasting Code Blocks (docs/narration.md, "Manner"), each NPC's two personality entries.
PAIRS = (
    (("Generous", "Cheerful"), ("Pushy", "Irritating")),
    (("Shy", "Nervous"), ("Aggressive", "Sadistic")),
    (("Correct", "Boring"), ("Charming", "Talkative")),
    (("Manipulative", "Scheming"), ("Indifferent", "Non-Empathic")),
    (("Moody", "Bitter"), ("Fanatic", "Impulsive")),
    (("Lying", "Inquisitive"), ("Extroverted", "Generous")),
)
CONTRAST_TYPES = ("combat", "social", "foot_chase")


def _duel(ctype_key: str, seed: int, personality: tuple[str, ...] = NPC["personality"], name: str = "Tor Berg"
          ) -> list:
    """One conflict's events: Espen against an NPC of ``personality`` (or an obstacle), both sides played by
    the greedy bot with fixed seeds, so two NPCs that differ only in their Code Block roll the same dice."""
    ctype = conflict_type(ctype_key)
    pc = load_character("espen")
    a = from_character(pc, "a", ctype, decider=GreedyDecider(random.Random(seed * 2 + 1)))
    if ctype.static:
        b = obstacle("Old lock" if ctype_key == "lockpicking" else "Parish records", "normal")
    else:
        npc = duel_npc(random.Random(f"duel-npc:{seed}"), ctype, personality=personality, motivation=("Money",))
        npc = replace(npc, name=name, pronoun="he")
        b = from_character(npc, "b", ctype, decider=GreedyDecider(random.Random(seed * 2 + 2)))
    log = EventLog()
    Conflict(ctype, [a, b], random.Random(seed), sink=log, round_limit=12).run()
    return log.events


def fiction_figures(ctype_key: str, conflicts: int = 40, seed: int = 1) -> dict:
    """Per type: the share of rounds with a Code Block manner line (None without an NPC), the longest run of
    no-result rounds told one by one, and the most repeated sentence with its count."""
    narrator = Narrator(load_templates(), narration_rng(seed))
    rounds = manner_rounds = longest = 0
    told: Counter[str] = Counter()
    for n in range(conflicts):
        narrator.drawn = []
        passages = narrate_events(_duel(ctype_key, seed * 1000 + n), narrator)
        told.update(s for p in passages for line in p.lines for s in sentences(line))
        rounds += len({p.round for p in passages if p.round > 0})
        manner_rounds += len({r for r, _event, manner in narrator.drawn if manner and r > 0})
        stalled = sorted({r for r, event, _ in narrator.drawn if event in ("stalemate_failed", "stalemate_tie")})
        run = best = 0
        for i, r in enumerate(stalled):
            run = run + 1 if i and r == stalled[i - 1] + 1 else 1
            best = max(best, run)
        longest = max(longest, best)
    top, count = told.most_common(1)[0] if told else ("", 0)
    static = conflict_type(ctype_key).static
    return {"rounds": rounds, "manner_share": None if static else manner_rounds / max(1, rounds),
            "longest_run": longest, "top": top, "top_count": count}


def npc_sentences(events, seed: int, name: str = "Tor") -> list[str]:
    """The NPC's non-speech sentences in one told conflict: those naming it that quote nobody."""
    passages = narrate_events(events, Narrator(load_templates(), narration_rng(seed)))
    return [s for p in passages for line in p.lines for s in sentences(line) if name in s and '"' not in s]


def contrast(pair, duels: int = 6, seed: int = 1, types=CONTRAST_TYPES) -> float:
    """The share of the NPC's non-speech sentences that differ between the two NPCs of ``pair``: same seeds,
    same PC, same dice; sentences in common (as a multiset) over the longer telling."""
    same = longest = 0
    for ctype_key in types:
        for n in range(duels):
            s = seed * 100 + n
            first = Counter(npc_sentences(_duel(ctype_key, s, pair[0]), s))
            second = Counter(npc_sentences(_duel(ctype_key, s, pair[1]), s))
            same += sum((first & second).values())
            longest += max(sum(first.values()), sum(second.values()))
    return 1 - same / max(1, longest)


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
    print("\nper type, 40 conflicts: manner share (goal >= 30 %), longest run told one by one (goal 1), "
          "most repeated sentence")
    for key in ALL_TYPES:
        f = fiction_figures(key, 40, args.seed)
        share = "n/a (no NPC)" if f["manner_share"] is None else f"{f['manner_share']:.0%}"
        print(f"  {key:12} {f['rounds']:4} rounds  manner {share:>12}  run {f['longest_run']}  "
              f"x{f['top_count']} {f['top']}")
    print("\ncontrasting Code Blocks, same seed, PC and dice: NPC non-speech sentences that differ (goal >= 50 %)")
    for pair in PAIRS:
        print(f"  {' + '.join(pair[0]):24} vs {' + '.join(pair[1]):24} {contrast(pair, seed=args.seed):.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
