"""A fingerprint of ``solo prove``'s findings: a hash of the whole Proof of each bundled adventure.

A change that must make the search faster without changing what it finds is
checked with it: run it before, run it after, and compare (``--compare
BEFORE.json``). Each adventure's line hashes every node of its Proof (its key,
scene, depth, way in, end, closed choices), every move (its words, note, Lens,
exit, fighter, why) and every arc (its chance as ``float.hex``, its child, its
outcome), the endings with their steps and best chances (``float.hex``), the
distances, soft-locks, unreachable choices and each ending's walkthrough.
Paths are written relative to the checkout, so two checkouts compare.

    python benchmarks/proof_hash.py --out before.json
    python benchmarks/proof_hash.py --compare before.json
    python benchmarks/proof_hash.py vellan --bots          # fought also as solo simulate's bots fight
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _float(x: object) -> str:
    return float.hex(x) if isinstance(x, float) else repr(x)


def dump(proof, seeds: int) -> str:
    """Everything the Proof holds, a line each, chances exactly."""
    from solo.sim.prove.walkthrough import walk

    out = []
    for n in proof.nodes:
        out.append(f"N {n.id} {n.key!r} {n.scene} {n.depth} {n.parent} {n.via} {n.end} {n.escalate} {n.error!r} "
                   f"{n.cut} {n.closed!r}")
        for m in n.moves or []:
            out.append(f" M {m.key} {m.answer} {m.label!r} {m.note!r} {m.sampled} {m.lens} {m.exit} {m.fighter} "
                       f"{m.why!r}")
            out.extend(f"  A {float.hex(a.chance)} {a.child} {a.outcome}" for a in m.arcs)
        if n.moves is None:
            out.append(" unexpanded")
    out.append(f"complete {proof.complete} frontier {proof.frontier} unreduced {proof.unreduced} "
               f"sampled {proof.sampled} exact {proof.exact_fights} styled {proof.styled} why {proof.estimated_why!r}")
    out.append(f"offered {sorted(proof.offered)!r} entered {sorted(proof.entered)!r}")
    out.extend(f"E {name} {e['reachable']} {e['steps']} {_float(e['best_chance'])}"
               for name, e in proof.endings.items())
    out.append(f"distances {proof.distances!r}")
    out.append(f"softlocks {proof.soft_lock_states} {proof.soft_locks!r} {proof.soft_lock_groups!r}")
    out.append(f"unreachable {proof.unreachable!r}")
    if seeds:
        out.extend(f"W {name} {walk(proof, name, seeds=seeds)!r}"
                   for name, e in proof.endings.items() if e["reachable"])
    return "\n".join(out).replace(str(ROOT), "ROOT")


def adventures() -> dict[str, Path]:
    found = {"tutorial": ROOT / "scenes" / "tutorial.toml"}
    found.update((p.stem, p) for p in sorted((ROOT / "tests" / "data" / "prove").glob("*.toml")))
    found["example"] = ROOT / "tests" / "data" / "example_adventure.toml"
    found["vellan"] = ROOT / "scenes" / "vellan"
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("only", nargs="*", help="these adventures only (tutorial, vellan, the names in tests/data/prove)")
    ap.add_argument("--bots", action="store_true", help="also fought as solo simulate's bots fight (solo prove's way)")
    ap.add_argument("--seeds", type=int, default=200, help="seeds tried for each walkthrough (0: none)")
    ap.add_argument("--out")
    ap.add_argument("--compare")
    args = ap.parse_args()
    from solo.sim.prove.search import prove
    from solo.story.format.loader import load_adventure

    fighters = None
    if args.bots:
        from solo.sim.policies import prove_fighters

        fighters = prove_fighters()
    prints = {}
    for name, path in adventures().items():
        if args.only and name not in args.only:
            continue
        cpu = time.process_time()
        proof = prove(load_adventure(path), fighters=fighters)
        prints[name] = hashlib.sha256(dump(proof, args.seeds).encode()).hexdigest()[:16]
        print(f"{name}: {prints[name]} ({len(proof.nodes)} states, {time.process_time() - cpu:.1f} s CPU)", flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(prints, indent=0, sort_keys=True), encoding="utf-8")
    if args.compare:
        before = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        diff = sorted(k for k in prints if before.get(k) != prints[k])
        for k in diff:
            print(f"differs: {k}: {before.get(k)} -> {prints[k]}")
        print(f"{len(prints)} proofs, {len(diff)} differ")
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
