"""How fast the Lens advice prices every Lens (solo/rules/lens_chain.py, solo/story/advice.py, issue 12).

The targets from the issue: all the Lens odds against a mind, Pools up to 20, round limit 30,
in under 150 ms a prompt; an estimate for a group fight in under 300 ms. Each figure is the best
of ``--repeat`` runs in process time (CPU seconds: another job on the machine slows the wall
clock, not this), every run from a fresh advisor with the odds engine's and the minds' caches
cleared, as a new conflict in a fresh process pays.

* ``mind``: the advice as a player sees it, against a Skilled NPC whose mind decides (a fixed
  Code Block, see ``NPC_FILE``): the first prompt of a conflict (round 1, Pools n/n, 30 rounds),
  and a later one (round 5 after a lost Covert round), which the chains kept from the first
  answer;
* stand-in policies for B straight through :class:`~solo.rules.lens_chain.LensChain`, from light to
  heavy: ``plain`` (a Common NPC, a plain roll every round), ``mindlike`` (a softmax over Lenses
  within ``NEAR_BEST`` of a fixed stand-in score, as a mind draws) and ``uniform`` (every Lens at 1/7);
* ``group``: the estimate shown in a fight of two PCs against that NPC (the advisor's budget).

    python benchmarks/lens_odds.py [--pools 10 20] [--limit 30] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from solo.minds.npc import NEAR_BEST, TEMPERATURE
from solo.rules.lens_chain import LensChain, lens_targets

TARGETS_B = lens_targets(50, covert=45, flamboyant=40)

NPC_FILE = {"name": "Vera", "level": "skilled", "skills": {"Combat": 55, "Cunning": 60, "Social": 50},
            "pools": {"BODY": 10, "INT": 8, "POW": 14, "CHA": 14}, "weapon": "dagger",
            "code_block": {"personality": ["Correct", "Bitter"], "motivation": ["Faith"],
                           "event": {"topic": "Money", "sign": "negative"}}}


def _clear() -> None:
    from solo.minds.valuation import evaluator
    from solo.rules.odds import damage_distribution, round_kernel, round_odds

    for cached in (round_kernel, round_odds, damage_distribution, evaluator):
        cached.cache_clear()


def _fighters(pools: int):
    from solo.npc import NPC
    from solo.rules.character import Character, Pool
    from solo.rules.rulebook import POOLS, SKILLS

    npc = NPC.from_dict(NPC_FILE)
    npc.pools["BODY"] = Pool(pools, pools)
    skills = dict.fromkeys(SKILLS, 30) | {"Combat": 60, "Cunning": 55, "Social": 45}
    pc = Character("Ada", skills, {p: Pool(14, 14) for p in POOLS} | {"BODY": Pool(pools, pools)},
                   weapon="short_sword", items=["Rope"], luck=0)
    return pc, npc


def _conflict(pools: int, limit: int, extra_pc: bool = False):
    from solo.minds.bots import GreedyDecider, LensKeeper
    from solo.minds.npc import NPCMind
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.participants import from_character

    ctype = conflict_type("combat")
    pc, npc = _fighters(pools)
    ps = [from_character(pc, "a", ctype, decider=LensKeeper("none"))]
    if extra_pc:
        other, _ = _fighters(pools)
        other.name = "Cai"
        ps.append(from_character(other, "a", ctype, decider=GreedyDecider()))
    ps.append(from_character(npc, "b", ctype, decider=NPCMind(npc, random.Random(1))))
    conflict = Conflict(ctype, ps, random.Random(1), round_limit=limit)
    conflict.round = 1
    return conflict, ps[0], ps[-1]


def best_of(repeat: int, fn) -> tuple[float, object]:
    cpu, result = math.inf, None
    for _ in range(repeat):
        c = time.process_time()
        result = fn()
        cpu = min(cpu, time.process_time() - c)
    return cpu, result


def mind_prompts(pools: int, limit: int, repeat: int) -> dict:
    """The advice against a mind: the first prompt of a conflict, and a later one from the kept chains."""
    from solo.story.advice import LensAdvisor

    def first():
        _clear()
        conflict, pc, npc = _conflict(pools, limit)
        advisor = LensAdvisor()
        words = advisor(conflict.view, pc)
        return conflict, pc, npc, advisor, words

    cpu, (conflict, pc, npc, advisor, words) = best_of(repeat, first)  # type: ignore[misc]
    # round 5, after a lost Covert round: both sides hurt, Ada at −20 for this round
    conflict.round, pc.carry = 5, -20
    pc.pool.current, npc.pool.current = pools - 3, pools - 4
    c = time.process_time()
    later = advisor(conflict.view, pc)
    later_cpu = time.process_time() - c
    chains = next(iter(advisor.foresight._chains.values()))
    states = sum(len(w.far) for ch in chains.values() for kept in ch._kept.values() for w in kept)
    return {"first_prompt_seconds": round(cpu, 4), "later_prompt_seconds": round(later_cpu, 4),
            "states": states, "first": words, "later": later}


def group_estimate(pools: int, limit: int, repeat: int) -> dict:
    """The estimate for a fight of two PCs (a weaker second one) against the NPC, within the advisor's budget."""
    from solo.story.advice import ESTIMATE_RUNS, ESTIMATE_SECONDS, estimate, likely_best

    def once():
        _clear()
        conflict, pc, _ = _conflict(pools, limit, extra_pc=True)
        conflict.participants[1].char.skills["Combat"] = 35  # a weak ally, and the NPC's Pool twice theirs:
        conflict.participants[1].invalidate()  # the fight in the balance
        conflict.participants[-1].pool.current = conflict.participants[-1].pool.maximum = 2 * pools
        lens = likely_best(conflict.view, pc)
        return lens, estimate(conflict.view, pc, lens, runs=ESTIMATE_RUNS, budget=ESTIMATE_SECONDS)

    cpu, (lens, est) = best_of(repeat, once)  # type: ignore[misc]
    return {"seconds": round(cpu, 4), "runs": est.runs, "lens": lens, "words": est.words()}


def plain(own, other, mine, theirs):
    return "skill" if mine.follow_up else "none"


def uniform(own, other, mine, theirs):
    if mine.follow_up:
        return {"skill": 0.6, "damage": 0.4}
    return dict.fromkeys(TARGETS_B, 1 / len(TARGETS_B))


def mindlike(own, other, mine, theirs, size=20):
    if mine.follow_up:
        return {"skill": 0.7, "damage": 0.3} if other > 6 else {"skill": 0.3, "damage": 0.7}
    scores = {"none": 0.0, "aggressive": 0.4 * (1 - other / size) - 0.1, "cautious": 0.5 * (1 - own / size),
              "clever": 0.2 if own >= other else -0.3, "covert": 0.25 if theirs.carry < 0 else -0.2,
              "flamboyant": -0.4, "quick": -1.0}
    best = max(scores.values())
    near = {k: math.exp((v - best) / TEMPERATURE) for k, v in scores.items() if v >= best - NEAR_BEST}
    total = sum(near.values())
    return {k: w / total for k, w in near.items()}


def stand_ins(pools: int, limit: int, repeat: int) -> dict:
    out = {}
    for name, policy in (("plain", plain), ("mindlike", mindlike), ("uniform", uniform)):
        def once(policy=policy):
            _clear()
            chain = LensChain(lens_targets(55, covert=50, flamboyant=45), TARGETS_B, damage_b="1d8", armour_a=1,
                              policy_b=policy)
            return chain.lens_odds(pools, pools, round_limit=limit)

        cpu, odds = best_of(repeat, once)
        out[name] = {"seconds": round(cpu, 4), "best": odds.best}  # type: ignore[attr-defined]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pools", type=int, nargs="+", default=[10, 20], help="both Pools (default 10 20)")
    parser.add_argument("--limit", type=int, default=30, help="rounds to go (default 30)")
    parser.add_argument("--repeat", type=int, default=3, help="take the best of this many (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result: dict = {"round_limit": args.limit, "targets": {"mind_prompt": 0.15, "group_estimate": 0.3}}
    for n in args.pools:
        result[f"pools_{n}"] = {"mind": mind_prompts(n, args.limit, args.repeat),
                                "stand_ins": stand_ins(n, args.limit, args.repeat),
                                "group": group_estimate(n, args.limit, args.repeat)}
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    for n in args.pools:
        r = result[f"pools_{n}"]
        m = r["mind"]
        print(f"Pools {n}/{n}, {args.limit} rounds to go (targets: 150 ms a prompt, 300 ms an estimate)")
        print(f"  against a mind, first prompt : {m['first_prompt_seconds'] * 1000:7.0f} ms  "
              f"({m['states']:,} states kept)")
        print(f"  against a mind, later prompt : {m['later_prompt_seconds'] * 1000:7.1f} ms")
        for name, s in r["stand_ins"].items():
            print(f"  stand-in B {name:9s}       : {s['seconds'] * 1000:7.0f} ms")
        g = r["group"]
        print(f"  group fight estimate         : {g['seconds'] * 1000:7.0f} ms  {g['runs']} conflicts, "
              f"{g['lens']}: {g['words']}")
        best = max(m["first"].items(), key=lambda kv: "best" in kv[1])
        print(f"  the first menu's best        : {best[0]}: {best[1]}")


if __name__ == "__main__":
    main()
