"""How long ``solo prove`` takes on the bundled full adventure (issue 29's target: complete in under 30 s).

Runs the search as ``solo prove`` runs it (each conflict also fought the way the bots fight it) at the
default state limit (or ``--max-states``), then the seed search for every
ending's walkthrough, and prints the wall-clock and CPU time of each part, the states searched,
whether the search was complete, and each ending's steps, best chance and seed. The machine's
load shows in the gap between wall-clock and CPU time; the target is read on CPU time.

    python benchmarks/prove.py [ADVENTURE] [--max-states N] [--seeds N] [--json] [--plain]

``--plain`` searches as the test suite does (no bots' ways of fighting). ``--against TREE --repeat N`` compares
this tree's search with another checkout's (``git worktree add --detach TREE COMMIT``): N runs of each,
alternated in fresh processes so the machine's load falls on both alike, then each side's median CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("adventure", nargs="?", default="vellan")
    parser.add_argument("--max-states", type=int, default=None)
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--plain", action="store_true", help="no bots' ways of fighting (as the test suite proves)")
    parser.add_argument("--against", type=Path, help="another checkout to compare this one with")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side with --against")
    args = parser.parse_args()
    if args.against is not None:
        compare(args)
        return

    from solo.sim.policies import prove_fighters
    from solo.sim.prove.search import DEFAULT_MAX_STATES, prove
    from solo.sim.prove.walkthrough import DEFAULT_SEEDS, walk
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    adventure = load_adventure(find_adventure(args.adventure))
    wall, cpu = time.perf_counter(), time.process_time()
    proof = prove(adventure, max_states=args.max_states or DEFAULT_MAX_STATES,
                  fighters=None if args.plain else prove_fighters())
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


def compare(args: argparse.Namespace) -> None:
    """This tree's search against ``args.against``'s, alternated run by run; the medians of search CPU time."""
    here = Path(__file__).resolve().parent.parent
    command = [sys.executable, str(Path(__file__).resolve()), args.adventure, "--json", "--seeds", "0"]
    if args.max_states:
        command += ["--max-states", str(args.max_states)]
    if args.plain:
        command.append("--plain")
    cpu: dict[str, list[float]] = {"this": [], "against": []}
    found: dict[str, set[str]] = {"this": set(), "against": set()}
    for _ in range(args.repeat):
        for side, tree in (("against", args.against.resolve()), ("this", here)):
            env = {**os.environ, "PYTHONPATH": str(tree)}
            out = json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
            cpu[side].append(out["search_cpu_s"])
            found[side].add(json.dumps({k: out[k] for k in ("states", "complete", "not_searched", "endings")},
                                       sort_keys=True))
            print(f"{side}: search {out['search_cpu_s']} s CPU", flush=True)
    for side, times in cpu.items():
        print(f"{side}: median {statistics.median(times):.2f} s CPU over {len(times)} runs")
    print("same findings (states, endings, steps, best chances to 4 places)" if found["this"] == found["against"]
          else "the findings differ")


if __name__ == "__main__":
    main()
