"""How fast the Lens chain prices every Lens (solo/rules/lens_chain.py, issue 12).

The target from the issue: the odds of all the Lenses A may keep, against a stochastic
policy of B over the whole state, at Pools 20 and 20 with 30 rounds to go, in under
150 ms a call. Each figure is the best of ``--repeat`` calls, every call from a new
LensChain with the odds engine's caches cleared (a fresh process pays that too), in
process time (CPU seconds: another job on the machine slows the wall clock, not this).

B's policies, from light to heavy:

* ``plain``: a Common NPC, a plain roll every round (the chain's smallest case);
* ``mind``: a mind-like draw, a softmax over the Lenses within ``NEAR_BEST`` of its best
  score, as ``NPCMind._pick`` draws (its scores here a fixed stand-in: pressing when
  ahead, guarding when hurt, Clever when not behind, Covert on an off-balance foe),
  with the follow-up's edge by the foe's Pool — one to four Lenses per state;
* ``uniform``: every Lens at 1/7 in every state (the most states and rounds).

Also printed: the same without a round limit, a later state of the same conflict
asked from the kept chain (round 5, after a lost Covert round), A playing its best
in every state, and where the time goes (listing the states and their rounds,
walking the rounds back). The first line times today's ``conflict_odds`` for one
memoryless Lens pair at the same size, as a yardstick for the machine.

    python benchmarks/lens_odds.py [--pools 20] [--limit 30] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import time

from solo.minds.npc import NEAR_BEST, TEMPERATURE
from solo.rules.lens_chain import NOTHING, Effect, LensChain, _Blocks, _key, _plan, _Walk, lens_targets
from solo.rules.odds import conflict_odds, damage_distribution, round_kernel, round_odds

TARGETS_A = lens_targets(55, covert=50, flamboyant=45)
TARGETS_B = lens_targets(50, covert=45, flamboyant=40)
SETTING = dict(damage_a="1d6", damage_b="1d8", armour_a=1)  # A lightly armoured against B's long sword


def plain(own: int, other: int, mine: Effect, theirs: Effect) -> str:
    return "skill" if mine.follow_up else "none"


def uniform(own: int, other: int, mine: Effect, theirs: Effect) -> dict[str, float]:
    if mine.follow_up:
        return {"skill": 0.6, "damage": 0.4}
    return dict.fromkeys(TARGETS_B, 1 / len(TARGETS_B))


def mind(own: int, other: int, mine: Effect, theirs: Effect, size: int = 20) -> dict[str, float]:
    if mine.follow_up:
        return {"skill": 0.7, "damage": 0.3} if other > 6 else {"skill": 0.3, "damage": 0.7}
    scores = {"none": 0.0, "aggressive": 0.4 * (1 - other / size) - 0.1, "cautious": 0.5 * (1 - own / size),
              "clever": 0.2 if own >= other else -0.3, "covert": 0.25 if theirs.carry < 0 else -0.2,
              "flamboyant": -0.4, "quick": -1.0}
    best = max(scores.values())
    near = {k: math.exp((v - best) / TEMPERATURE) for k, v in scores.items() if v >= best - NEAR_BEST}
    total = sum(near.values())
    return {k: w / total for k, w in near.items()}


POLICIES = {"plain": plain, "mind": mind, "uniform": uniform}


def _fresh(policy) -> LensChain:
    for cached in (round_kernel, round_odds, damage_distribution):
        cached.cache_clear()
    return LensChain(TARGETS_A, TARGETS_B, policy_b=policy, **SETTING)


def best_of(repeat: int, fn) -> tuple[float, float, object]:
    """(best process seconds, best wall seconds, the last result) over ``repeat`` calls."""
    cpu, wall, result = math.inf, math.inf, None
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        result = fn()
        cpu, wall = min(cpu, time.process_time() - c), min(wall, time.perf_counter() - w)
    return cpu, wall, result


def breakdown(policy, pools: int, limit: int | None) -> dict[str, float]:
    """Process seconds spent listing the states and walking (or solving) them, summed over the Lenses."""
    chain = _fresh(policy)
    game = chain.game
    start = _key(pools, pools, game.eid(NOTHING), game.eid(NOTHING))
    out = {"plan": 0.0, "solve": 0.0, "states": 0, "terms": 0}
    for lens in chain.lenses_a:
        c = time.process_time()
        plan = _plan(game, start, chain._options(lens))
        out["plan"] += time.process_time() - c
        c = time.process_time()
        _Walk(plan, limit) if limit is not None else _Blocks(plan)
        out["solve"] += time.process_time() - c
        out["states"] += len(plan)
        out["terms"] += sum(len(option[1]) for options in plan.values() for option in options)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pools", type=int, default=20, help="both Pools (default 20)")
    parser.add_argument("--limit", type=int, default=30, help="rounds to go (default 30)")
    parser.add_argument("--repeat", type=int, default=3, help="take the best of this many (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n, limit = args.pools, args.limit
    result: dict[str, object] = {"pools": n, "round_limit": limit, "target_seconds": 0.15}

    def yardstick():
        for cached in (round_kernel, round_odds, damage_distribution):
            cached.cache_clear()
        return conflict_odds(55, n, 50, n, round_limit=limit, damage_b="1d8", armour_a=1)

    result["conflict_odds_one_pair"] = best_of(args.repeat, yardstick)[0]
    rows = []
    for name, policy in POLICIES.items():
        cpu, wall, odds = best_of(args.repeat, lambda p=policy: _fresh(p).lens_odds(n, n, round_limit=limit))
        open_cpu, _, _ = best_of(args.repeat, lambda p=policy: _fresh(p).lens_odds(n, n))
        rows.append((name, cpu, wall, open_cpu, odds))
        result[name] = {"all_lenses_seconds": round(cpu, 4), "wall_seconds": round(wall, 4),
                        "open_ended_seconds": round(open_cpu, 4), "best": odds.best,
                        "a_wins": {k: round(v.a_wins, 6) for k, v in odds.odds.items()}}

    # round 5 of the same conflict, after a lost Covert round: asked of the chain kept from round 1
    chain = _fresh(mind)
    chain.lens_odds(n, n, round_limit=limit)
    later = Effect(-20)
    c = time.process_time()
    again = chain.lens_odds(n - 3, n - 4, effect_a=later, round_limit=limit - 4)
    later_cpu = time.process_time() - c
    best_cpu, _, best_play = best_of(1, lambda: _fresh(mind).odds(n, n, lens_a="best", round_limit=limit))
    parts = breakdown(mind, n, limit)
    result.update(later_state_seconds=round(later_cpu, 4), later_best=again.best,
                  best_play_seconds=round(best_cpu, 3), best_play_first=best_play.first,
                  best_play_a_wins=round(best_play.a_wins, 6),
                  mind_breakdown={k: (round(v, 3) if isinstance(v, float) else v) for k, v in parts.items()})
    result["conflict_odds_one_pair"] = round(result["conflict_odds_one_pair"], 4)
    if args.json:
        print(json.dumps(result))
        return
    print(f"yardstick: conflict_odds, one memoryless pair     : {result['conflict_odds_one_pair'] * 1000:7.0f} ms")
    print(f"all {len(TARGETS_A)} Lenses, Pools {n}/{n}, {limit} rounds to go (target: under 150 ms):")
    for name, cpu, wall, open_cpu, odds in rows:
        print(f"  B {name:8s}: {cpu * 1000:7.0f} ms CPU ({wall * 1000:5.0f} ms wall); "
              f"no limit {open_cpu * 1000:5.0f} ms; best {odds.best} {odds.odds[odds.best].a_wins:.1%}")
    print(f"round 5 after a lost Covert round, from the kept chain: {later_cpu * 1000:7.1f} ms (best {again.best})")
    print(f"A at its best in every state (B mind)              : {best_cpu * 1000:7.0f} ms "
          f"(first {best_play.first}, {best_play.a_wins:.1%}; look_ahead's chain)")
    print(f"where the time goes (B mind, all Lenses): listing {parts['plan'] * 1000:.0f} ms, "
          f"walking {parts['solve'] * 1000:.0f} ms; {parts['states']:,} states, {parts['terms']:,} terms a round")
    met = all(cpu <= 0.15 for name, cpu, *_ in rows if name != "uniform")
    print("target: " + ("met" if met else "MISSED") + " (plain and mind; uniform is the worst case)")


if __name__ == "__main__":
    main()
