"""Conflicts per second through the real engine, against a bare loop of the same rules.

The match-up is the plainest there is: 50 % against 50 %, Pools 10 and 10,
1d6 damage (short swords), no Lenses, no narration, two Common NPCs in a combat. The bare
loop is what a 20-line script would do; the engine also keeps initiative,
events hooks, Luck and pushing checks, so the ratio is the price of being a
real engine. Target: the engine reaches at least a tenth of the bare loop.
Both sides start each conflict from the same fighters at full Pools: the bare
loop from two constants, the engine from two characters whose BODY is reset,
with new participants and a new Conflict every time. The initiative rule
(equal Pools and skills roll off with a d100 each) is part of the rules, so the
bare loop is timed with and without it.

With ``--count`` it prints, instead of rates, the Python bytecodes and calls
executed per conflict on each side: a measure a busy machine cannot disturb,
for comparing two versions of the engine where timings are noisy.

    python benchmarks/conflicts.py [--seconds 3] [--json] [--count]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time


def bare_loop(rng: random.Random, initiative: bool = False) -> int:
    """One conflict, rules inlined: highest success wins, ties and double failures stall, 00 fails.

    With ``initiative``, equal Pools (and equal skills) roll off with a d100 each, as the rules say;
    the order changes no odds, but the dice are rolled.
    """
    a = b = 10
    rounds = 0
    while a > 0 and b > 0:
        rounds += 1
        if initiative and a == b:
            rng.randint(1, 100), rng.randint(1, 100)
        x, y = rng.randint(1, 100), rng.randint(1, 100)
        sx = x if x <= 50 and x != 100 else -1
        sy = y if y <= 50 and y != 100 else -1
        if sx > sy:
            b -= rng.randint(1, 6)
        elif sy > sx:
            a -= rng.randint(1, 6)
    return rounds


def engine_conflict(rng: random.Random):
    from solo.rules.character import Character, Pool
    from solo.rules.conflict import Conflict
    from solo.rules.conflict_types import conflict_type
    from solo.rules.participants import from_character
    from solo.rules.rulebook import POOLS, SKILLS

    combat = conflict_type("combat")

    def npc(name):
        skills = {s: 5 for s in SKILLS}
        skills["Combat"] = 50
        return Character(name=name, skills=skills, pools={p: Pool(10, 10) for p in POOLS}, level="common",
                         weapon="short_sword")  # 1d6, like the bare loop

    first, second = npc("A"), npc("B")

    def one():
        # the same two fighters, back at full BODY for every conflict (as a simulator reuses its cast)
        first.pools["BODY"].current = second.pools["BODY"].current = 10
        a = from_character(first, "a", combat)
        b = from_character(second, "b", combat)
        return Conflict(combat, [a, b], rng).run()

    return one


def rate(fn, seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            fn()
        count += 200
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def work(fn, runs: int = 300) -> tuple[float, float]:
    """(bytecodes, Python calls) per call of ``fn``, counted by a tracer."""
    counts = [0, 0]

    def tracer(frame, event, arg):
        if event == "call":
            counts[1] += 1
            frame.f_trace_opcodes = True
        elif event == "opcode":
            counts[0] += 1
        return tracer

    sys.settrace(tracer)
    try:
        for _ in range(runs):
            fn()
    finally:
        sys.settrace(None)
    return counts[0] / runs, counts[1] / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent on each side (default 3)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--count", action="store_true", help="count bytecodes and calls instead of timing")
    args = parser.parse_args()
    rngs = [random.Random(1) for _ in range(3)]
    if args.count:
        engine = engine_conflict(rngs[2])
        engine()  # the first conflict loads the rules tables
        (e_ops, e_calls), (b_ops, b_calls) = work(engine), work(lambda: bare_loop(rngs[1], initiative=True))
        print(f"engine                     : {e_ops:>8,.0f} bytecodes {e_calls:>6,.0f} calls per conflict")
        print(f"bare loop with initiative  : {b_ops:>8,.0f} bytecodes {b_calls:>6,.0f} calls per conflict")
        return
    bare = rate(lambda: bare_loop(rngs[0]), args.seconds)
    bare_init = rate(lambda: bare_loop(rngs[1], initiative=True), args.seconds)
    engine = rate(engine_conflict(rngs[2]), args.seconds)
    ratio, ratio_init = engine / bare, engine / bare_init
    result = {"bare_per_second": round(bare), "bare_with_initiative_per_second": round(bare_init),
              "engine_per_second": round(engine), "ratio": round(ratio, 3),
              "ratio_with_initiative": round(ratio_init, 3), "target_ratio": 0.1}
    if args.json:
        print(json.dumps(result))
        return
    print(f"bare loop                  : {bare:>10,.0f} conflicts/s")
    print(f"bare loop with initiative  : {bare_init:>10,.0f} conflicts/s")
    print(f"engine                     : {engine:>10,.0f} conflicts/s")
    print(f"ratio to the bare loop     : {ratio:.3f}")
    print(f"ratio, initiative included : {ratio_init:.3f}   (target: at least 0.100)")


if __name__ == "__main__":
    main()
