"""Conflicts per second through the real engine, against a bare loop of the same rules.

The match-up is the plainest there is: 50 % against 50 %, Pools 10 and 10,
1d6 damage (short swords), no Lenses, no narration, two Common NPCs in a combat. The bare
loop is what a 20-line script would do; the engine also keeps initiative,
events hooks, Luck and pushing checks, so the ratio is the price of being a
real engine. Target: the engine reaches at least a quarter of the bare loop (median of the
blocks' ratios, initiative dice included on both sides).
Both sides start each conflict from the same fighters at full Pools: the bare
loop from two constants, the engine from two characters whose BODY is reset,
with new participants and a new Conflict every time. The initiative rule
(equal Pools and skills roll off with a d100 each) is part of the rules, so the
bare loop is timed with and without it.

The three sides run in short blocks in turn (``interleave.py``), so a machine that
slows down half way slows all of them; the figures are the median of the blocks and
their spread, and the ratio is taken block by block.

With ``--count`` it prints, instead of rates, the Python bytecodes and calls
executed per conflict on each side: a measure a busy machine cannot disturb,
for comparing two versions of the engine where timings are noisy.

    python benchmarks/conflicts.py [--block 0.25] [--rounds 12] [--json] [--count]
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from interleave import Spread, interleave, rate_block, ratios

TARGET = 0.25  # the engine's conflicts/s against the bare loop's, initiative dice included


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
    parser.add_argument("--block", type=float, default=0.25, help="seconds of one block of one side (default 0.25)")
    parser.add_argument("--rounds", type=int, default=12, help="blocks of each side, in turn (default 12)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--count", action="store_true", help="count bytecodes and calls instead of timing")
    args = parser.parse_args()
    rngs = [random.Random(1) for _ in range(3)]
    engine = engine_conflict(rngs[2])
    engine()  # the first conflict loads the rules tables
    if args.count:
        (e_ops, e_calls), (b_ops, b_calls) = work(engine), work(lambda: bare_loop(rngs[1], initiative=True))
        print(f"engine                     : {e_ops:>8,.0f} bytecodes {e_calls:>6,.0f} calls per conflict")
        print(f"bare loop with initiative  : {b_ops:>8,.0f} bytecodes {b_calls:>6,.0f} calls per conflict")
        return
    rates = interleave({
        "bare": lambda: rate_block(lambda: bare_loop(rngs[0]), args.block),
        "bare_init": lambda: rate_block(lambda: bare_loop(rngs[1], initiative=True), args.block),
        "engine": lambda: rate_block(engine, args.block),
    }, args.rounds)
    speeds = {name: Spread.of(values) for name, values in rates.items()}
    ratio, ratio_init = ratios(rates, "engine", "bare"), ratios(rates, "engine", "bare_init")
    if args.json:
        print(json.dumps({"per_second": {name: s.as_dict(0) for name, s in speeds.items()},
                          "ratio": ratio.as_dict(), "ratio_with_initiative": ratio_init.as_dict(),
                          "target_ratio": TARGET}))
        return
    print(f"{args.rounds} rounds of {args.block} s blocks, the sides in turn; conflicts/s, median and spread:")
    print(f"bare loop                  : {speeds['bare'].text()}")
    print(f"bare loop with initiative  : {speeds['bare_init'].text()}")
    print(f"engine                     : {speeds['engine'].text()}")
    print("engine / bare loop, block by block:")
    print(f"  without initiative       : {ratio.text('.3f')}")
    print(f"  with initiative          : {ratio_init.text('.3f')}")
    verdict = "ok" if ratio_init.median >= TARGET else "MISSED"
    print(f"[{verdict}] median ratio to the bare loop with initiative (the same dice) >= {TARGET}")


if __name__ == "__main__":
    main()
