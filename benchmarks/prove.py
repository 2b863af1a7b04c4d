"""How long ``solo prove`` takes on the bundled full adventure (issue 29's target: complete in under 30 s).

Runs the search as ``solo prove`` runs it (each conflict also fought the way the bots fight it) at the
default state limit (or ``--max-states``), then the seed search for every
ending's walkthrough, and prints the wall-clock and CPU time of each part, the states searched,
whether the search was complete, and each ending's steps, best chance and seed. The machine's
load shows in the gap between wall-clock and CPU time; the target is read on CPU time.

    python benchmarks/prove.py [ADVENTURE] [--max-states N] [--seeds N] [--json]
"""

from __future__ import annotations

import argparse
import json
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("adventure", nargs="?", default="vellan")
    parser.add_argument("--max-states", type=int, default=None)
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from solo.sim.policies import prove_fighters
    from solo.sim.prove.search import DEFAULT_MAX_STATES, prove
    from solo.sim.prove.walkthrough import DEFAULT_SEEDS, walk
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure(args.adventure))
    wall, cpu = time.perf_counter(), time.process_time()
    proof = prove(adventure, max_states=args.max_states or DEFAULT_MAX_STATES, fighters=prove_fighters())
    search = (time.perf_counter() - wall, time.process_time() - cpu)
    wall, cpu = time.perf_counter(), time.process_time()
    walks = {name: walk(proof, name, seeds=args.seeds if args.seeds is not None else DEFAULT_SEEDS)
             for name, found in proof.endings.items() if found["reachable"]}
    seeds = (time.perf_counter() - wall, time.process_time() - cpu)
    result = {
        "adventure": adventure.id,
        "states": len(proof.nodes),
        "states_unreduced": max(proof.unreduced, len(proof.nodes)),  # distinct states met before the reduction
        "complete": proof.complete,
        "not_searched": proof.frontier,
        "estimated_moves": proof.sampled,  # moves resting on conflicts against NPCs, played rather than worked out
        "search_wall_s": round(search[0], 2), "search_cpu_s": round(search[1], 2),
        "walkthroughs_wall_s": round(seeds[0], 2), "walkthroughs_cpu_s": round(seeds[1], 2),
        "total_cpu_s": round(search[1] + seeds[1], 2),
        "target_met": search[1] + seeds[1] < 30 and proof.complete,  # a search that stopped proves nothing
        "endings": {name: {"steps": found["steps"], "best_chance": round(found["best_chance"], 4),
                           "seed": w.seed if (w := walks.get(name)) is not None else None}
                    for name, found in proof.endings.items()},
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
