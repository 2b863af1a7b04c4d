"""A fingerprint of the engine's behaviour: hashes of full event logs over many seeded games.

Refactors that must not change behaviour are checked with it: run it before,
run it after, and compare (``--compare BEFORE.json``). Each line hashes every
event (kind and data, as sorted JSON) of one seeded game of a bundled
adventure played by a bot, a seeded party game, or a seeded NPC duel with
narration, so any change in a roll, a decision, an event or a narrated line
shows up under the seed that made it.

    python benchmarks/fingerprint.py --out before.json
    python benchmarks/fingerprint.py --compare before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys


def _digest(events) -> str:
    h = hashlib.sha256()
    for e in events:
        h.update(json.dumps(e.to_dict(), sort_keys=True, default=str).encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def adventures(seeds: int) -> dict[str, str]:
    from solo.events import EventLog
    from solo.sim.simulate import Options, build_party, play_one, run_seed
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    out = {}
    for name, party_size in (("tutorial", None), ("vellan", None), ("vellan", 3)):
        adventure = load_adventure(find_adventure(name))
        party = build_party(adventure, Options(adventure=name, runs=1, party_size=party_size))
        for policy in ("random", "cautious", "bold"):
            for i in range(seeds):
                seed = run_seed(7, i)
                log = EventLog()
                result = play_one(adventure, party.members, seed, policy, sink=log)
                err = f"!{type(result.error).__name__}" if result.error else ""
                out[f"{name}/{party_size or 'pc'}/{policy}/{i}"] = f"{_digest(log.events)}:{result.ending}{err}"
    return out


#: solo duel's timing line, now ("20 conflicts played in 0.04 s.") and before ("588 conflicts/s"): not behaviour
_TIMING = re.compile(r"conflicts/s|^\d[\d,]* conflicts? played in [\d.]+ s\.$")


def duels(seeds: int) -> dict[str, str]:
    from click.testing import CliRunner

    from solo.cli import cli as main

    out = {}
    runner = CliRunner()
    cases = [
        ["--personality", "Aggressive", "--personality", "Sadistic"],
        ["--level", "master", "--motivation", "Faith"],
        ["--type", "social", "--role", "courtier", "-p", "Charming", "-p", "Extroverted"],
        ["--mindless", "--role", "draugr"],
        ["--type", "foot_chase", "--level", "master"],
        ["--type", "sneaking"],
    ]
    for c, args in enumerate(cases):
        for seed in range(seeds):
            r = runner.invoke(main, ["duel", *args, "--seed", str(seed), "--runs", "20", "--narrate", "--explain"])
            text = "\n".join(line for line in r.output.splitlines() if not _TIMING.search(line))
            out[f"duel/{c}/{seed}"] = hashlib.sha256(text.encode()).hexdigest()[:16] + f":{r.exit_code}"
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--out")
    ap.add_argument("--compare")
    args = ap.parse_args()
    random.seed(0)
    prints = {**adventures(args.seeds), **duels(max(1, args.seeds // 4))}
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(prints, fh, indent=0, sort_keys=True)
    if args.compare:
        with open(args.compare) as fh:
            before = json.load(fh)
        diff = sorted(k for k in before.keys() | prints.keys() if before.get(k) != prints.get(k))
        for k in diff[:20]:
            print(f"differs: {k}: {before.get(k)} -> {prints.get(k)}")
        print(f"{len(prints)} games, {len(diff)} differ")
        return 1 if diff else 0
    print(f"{len(prints)} games fingerprinted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
