"""How fast the Lens advice prices every Lens (solo/rules/lens_chain.py, lens_arrays.py, solo/story/play/advice.py).

The targets (issues 12 and 28): all the Lens odds against a mind, Pools 10, 12 and 20, round
limit 30, in under 150 ms for the first prompt of a conflict priced cold and under 10 ms for a
later one; an estimate for a group fight in under 300 ms. Each figure is the best of
``--repeat`` runs in process time (CPU seconds: another job on the machine slows the wall
clock, not this), every run from a fresh advisor with the odds engine's and the minds' caches
cleared, as a new conflict in a fresh process pays. ``import numpy``, which the exact odds
import on first need, is timed apart (in a fresh interpreter) and is not in the prompts' figures.

* ``mind``: the advice as a player sees it, against a Skilled NPC whose mind decides (a fixed
  Code Block, see ``NPC_FILE``): the first prompt of a conflict (round 1, Pools n/n, 30 rounds);
  the same with every Lens priced on its own (``Foresight(twins=False)``: Ada's Cunning is her
  best other skill, so Covert and Flamboyant roll the same target and are normally priced once);
  and a later one (round 5 after a lost Covert round), which the chains kept from the first
  answer;
* stand-in policies for B straight through :class:`~solo.rules.lens_chain.LensChain`, from light to
  heavy: ``plain`` (a Common NPC, a plain roll every round), ``mindlike`` (a softmax over Lenses
  within ``NEAR_BEST`` of a fixed stand-in score, as a mind draws) and ``uniform`` (every Lens at 1/7);
* ``group``: the estimate shown in a fight of two PCs against that NPC (the advisor's budget);
* ``ahead``: at the keyboard, the wait at the first prompt (wall clock) after the player spent
  ``--reading`` seconds on the scene while :class:`~solo.story.play.think_ahead.ThinkAhead` priced
  the conflict in the background (docs/design.md, "Lens odds, and what they cost").

CPU times on a shared machine vary by ±30 % from run to run; ``valgrind --tool=callgrind``
instruction counts are the steady measure. Every case is printed with its time and PASS or FAIL
against its target (150 ms a first prompt, 10 ms a later one, 300 ms for the estimate).
``--profile`` adds where the first prompt against the mind spends its time (cProfile, the
functions with the most time of their own, and the heaviest calls).

    python benchmarks/lens_odds.py [--pools 10 12 20] [--limit 30] [--repeat 5] [--reading 1] [--json] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import pstats
import random
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from solo.minds.npc import NEAR_BEST, TEMPERATURE
from solo.rules.lens_chain import LensChain, lens_targets

T = TypeVar("T")
TARGETS_B = lens_targets(50, covert=45, flamboyant=40)
PROMPT_TARGET = 0.15  # seconds: every Lens's exact odds at the first prompt of a conflict
LATER_TARGET = 0.01  # seconds: at a later prompt of the same conflict
ESTIMATE_TARGET = 0.3  # seconds: the estimate for a group fight

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


def numpy_import() -> float:
    """Process time of ``import numpy`` in a fresh interpreter (what the first priced conflict of a process pays)."""
    code = "import time; c = time.process_time(); import numpy; print(time.process_time() - c)"
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def best_of(repeat: int, fn: Callable[[], T]) -> tuple[float, T]:
    """The least process time of ``repeat`` runs of ``fn``, and what the last run gave."""
    cpu = math.inf
    for _ in range(max(1, repeat)):
        c = time.process_time()
        result = fn()
        cpu = min(cpu, time.process_time() - c)
    return cpu, result


def mind_prompts(pools: int, limit: int, repeat: int) -> dict:
    """The advice against a mind: the first prompt of a conflict, and a later one from the kept chains."""
    from solo.minds.foresight import MAX_EXACT_POOL, MAX_MIND_POOL, Foresight
    from solo.story.play.advice import LensAdvisor

    def first(twins: bool = True):
        _clear()
        conflict, pc, npc = _conflict(pools, limit)
        advisor = LensAdvisor()
        # the exact odds at any Pools (the game itself estimates beyond MAX_MIND_POOL: see "exact_in_play")
        advisor.foresight = Foresight(max_pool=max(MAX_EXACT_POOL, pools), max_mind=max(MAX_MIND_POOL, pools),
                                      twins=twins)
        words = advisor(conflict.view, pc)
        return conflict, pc, npc, advisor, words

    # Ada's Cunning is her best other skill, so Covert and Flamboyant roll the same target and the advice prices
    # them once (Foresight's twins); "alone" prices every Lens on its own, as a PC with a better other skill pays
    alone_cpu, _ = best_of(repeat, lambda: first(False))
    cpu, (conflict, pc, npc, advisor, words) = best_of(repeat, first)
    # round 5, after a lost Covert round: both sides hurt, Ada at −20 for this round
    conflict.round, pc.carry = 5, -20
    pc.pool.current, npc.pool.current = max(1, pools - 3), max(1, pools - 4)
    c = time.process_time()
    later = advisor(conflict.view, pc)
    later_cpu = time.process_time() - c
    chains = next(iter(advisor.foresight._chains.values()))
    states = sum(len(solved.plan.pairs) * solved.plan.grid.shape[0] * solved.plan.grid.shape[1]
                 for chain in {id(c): c for c in chains.values()}.values() for _, solved in chain._kept)
    return {"first_prompt_seconds": round(cpu, 4), "first_prompt_alone_seconds": round(alone_cpu, 4),
            "later_prompt_seconds": round(later_cpu, 4),
            "exact_in_play": pools <= MAX_MIND_POOL,
            "states": states, "first": words, "later": later}


def group_estimate(pools: int, limit: int, repeat: int) -> dict:
    """The estimate for a fight of two PCs (a weaker second one) against the NPC, within the advisor's budget."""
    from solo.story.play.advice import ESTIMATE_ROUNDS, ESTIMATE_RUNS, estimate, likely_best

    def once():
        _clear()
        conflict, pc, _ = _conflict(pools, limit, extra_pc=True)
        conflict.participants[1].char.skills["Combat"] = 35  # a weak ally, and the NPC's Pool twice theirs:
        conflict.participants[1].invalidate()  # the fight in the balance
        conflict.participants[-1].pool.current = conflict.participants[-1].pool.maximum = 2 * pools
        lens = likely_best(conflict.view, pc)
        return lens, estimate(conflict.view, pc, lens, runs=ESTIMATE_RUNS, budget=ESTIMATE_ROUNDS)

    cpu, (lens, est) = best_of(repeat, once)
    return {"seconds": round(cpu, 4), "runs": est.runs, "lens": lens, "words": est.words()}


def plain(own, other, mine, theirs):
    return "skill" if mine.follow_up else "none"


def uniform(own, other, mine, theirs):
    if mine.follow_up:
        return {"skill": 0.6, "damage": 0.4}
    return dict.fromkeys(TARGETS_B, 1 / len(TARGETS_B))


def mindlike(own, other, mine, theirs, size=20):
    """A softmax over Lenses within NEAR_BEST of stand-in scores, as a mind draws (numbers or arrays of Pools)."""
    import numpy as np

    if mine.follow_up:
        return {"skill": np.where(other > 6, 0.7, 0.3), "damage": np.where(other > 6, 0.3, 0.7)}
    scores = {"none": 0.0 * own, "aggressive": 0.4 * (1 - other / size) - 0.1, "cautious": 0.5 * (1 - own / size),
              "clever": np.where(own >= other, 0.2, -0.3), "covert": 0.25 if theirs.carry < 0 else -0.2,
              "flamboyant": -0.4, "quick": -1.0}
    best = np.maximum.reduce([np.broadcast_to(v, np.shape(own)) for v in scores.values()])
    near = {k: np.where(v >= best - NEAR_BEST, np.exp((v - best) / TEMPERATURE), 0.0) for k, v in scores.items()}
    total = sum(near.values())
    return {k: w / total for k, w in near.items()}


for _policy in (plain, uniform, mindlike):  # each answers a whole walk's Pools at once, as a mind's policy does
    _policy.over_grid = _policy  # type: ignore[attr-defined]


def stand_ins(pools: int, limit: int, repeat: int) -> dict:
    out = {}
    for name, policy in (("plain", plain), ("mindlike", mindlike), ("uniform", uniform)):
        def once(policy=policy):
            _clear()
            chain = LensChain(lens_targets(55, covert=50, flamboyant=45), TARGETS_B, damage_b="1d8", armour_a=1,
                              policy_b=policy)
            return chain.lens_odds(pools, pools, round_limit=limit)

        cpu, odds = best_of(repeat, once)
        out[name] = {"seconds": round(cpu, 4), "best": odds.best}
    return out


def profile_first_prompt(pools: int, limit: int, rows: int = 18) -> str:
    """cProfile of one first prompt against the mind: the functions by their own time, then by their calls'."""
    from solo.story.play.advice import LensAdvisor

    _clear()
    conflict, pc, _ = _conflict(pools, limit)
    advisor = LensAdvisor()
    profiler = cProfile.Profile()
    profiler.runcall(advisor, conflict.view, pc)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(rows)
    stats.sort_stats("cumulative").print_stats(rows)
    return out.getvalue()


def thought_ahead(pools: int, limit: int, readings: list[float]) -> dict:
    """At the keyboard: the wait at the first prompt after the player read the scene for a while (wall clock).

    A :class:`~solo.story.play.think_ahead.ThinkAhead` prices the conflict from
    copies (its own twin of the mind) while the main thread sleeps as a player
    reads; then the conflict's advisor asks. Each reading time starts cold.
    """
    from solo.minds.foresight import MAX_EXACT_POOL, MAX_MIND_POOL, Foresight
    from solo.story.play.advice import LensAdvisor
    from solo.story.play.think_ahead import ThinkAhead, first_menu

    def wide(shared=None):
        return Foresight(max_pool=max(MAX_EXACT_POOL, pools), max_mind=max(MAX_MIND_POOL, pools), shared=shared)

    out = {}
    for reading in readings:
        _clear()
        thinker = ThinkAhead()
        try:
            ahead, ahead_pc, _ = _conflict(pools, limit)  # what the thinker prices: copies, a twin of the mind
            live, pc, _ = _conflict(pools, limit)
            job = first_menu("fight", ahead.view, ahead_pc, thinker.store, wide)
            assert job is not None, "the benchmark's match-up has exact odds"
            thinker.offer([job])
            time.sleep(reading)  # the player reads the scene: the main thread waits, as on input()
            advisor = LensAdvisor(shared=thinker.store)
            advisor.foresight = wide(thinker.store)
            c = time.perf_counter()
            words = advisor(live.view, pc)
            out[str(reading)] = {"wait_seconds": round(time.perf_counter() - c, 4), "first": words}
        finally:
            thinker.close()
    return out


def verdicts(r: dict) -> list[tuple[str, float, float]]:
    """(case, seconds, target) for every case of one Pool size."""
    m = r["mind"]
    cases = [("against a mind, first prompt", m["first_prompt_seconds"], PROMPT_TARGET),
             ("  the same, each Lens alone", m["first_prompt_alone_seconds"], PROMPT_TARGET),
             ("against a mind, later prompt", m["later_prompt_seconds"], LATER_TARGET)]
    cases += [(f"stand-in B {name}", s["seconds"], PROMPT_TARGET) for name, s in r["stand_ins"].items()]
    cases.append(("group fight estimate", r["group"]["seconds"], ESTIMATE_TARGET))
    cases += [(f"read {float(t):.1f} s, then first prompt", w["wait_seconds"], PROMPT_TARGET)
              for t, w in r.get("ahead", {}).items()]
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pools", type=int, nargs="+", default=[10, 12, 20], help="both Pools (default 10 12 20)")
    parser.add_argument("--limit", type=int, default=30, help="rounds to go (default 30)")
    parser.add_argument("--repeat", type=int, default=5, help="take the best of this many (default 5)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", action="store_true", help="also profile the first prompt against the mind")
    parser.add_argument("--reading", type=float, nargs="*", default=[1.0],
                        help="seconds the player reads the scene while the thinker prices it (default 1; none: skip)")
    args = parser.parse_args()
    result: dict = {"round_limit": args.limit, "import_numpy_seconds": round(numpy_import(), 4),
                    "targets": {"mind_prompt": PROMPT_TARGET, "later_prompt": LATER_TARGET,
                                "group_estimate": ESTIMATE_TARGET}}
    import numpy  # noqa: F401 - imported here, outside every timed case
    for n in args.pools:
        r = result[f"pools_{n}"] = {"mind": mind_prompts(n, args.limit, args.repeat),
                                    "stand_ins": stand_ins(n, args.limit, args.repeat),
                                    "group": group_estimate(n, args.limit, args.repeat),
                                    "ahead": thought_ahead(n, args.limit, args.reading)}
        r["verdicts"] = {case: seconds <= target for case, seconds, target in verdicts(r)}
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    failed = 0
    print(f"import numpy (a fresh interpreter, once per process, not in the figures below): "
          f"{result['import_numpy_seconds'] * 1000:.0f} ms")
    for n in args.pools:
        r = result[f"pools_{n}"]
        m, g = r["mind"], r["group"]
        print(f"Pools {n}/{n}, {args.limit} rounds to go (targets: {PROMPT_TARGET * 1000:.0f} ms a first prompt, "
              f"{LATER_TARGET * 1000:.0f} ms a later one, {ESTIMATE_TARGET * 1000:.0f} ms an estimate)")
        in_play = "exact in play" if m["exact_in_play"] else "the game estimates here (MAX_MIND_POOL)"
        notes = {"against a mind, first prompt": f"{m['states']:,} states walked; {in_play}",
                 "group fight estimate": f"{g['runs']} conflicts, {g['lens']}: {g['words']}"}
        for case, seconds, target in verdicts(r):
            ok = seconds <= target
            failed += not ok
            print(f"  {case:30s}: {seconds * 1000:7.1f} ms  {'PASS' if ok else 'FAIL'}  {notes.get(case, '')}".rstrip())
        best = max(m["first"].items(), key=lambda kv: "best" in kv[1])
        print(f"  the first menu's best         : {best[0]}: {best[1]}")
    print(f"{failed} case(s) over target" if failed else "every case within its target")
    if args.profile:
        print(profile_first_prompt(args.pools[0], args.limit))


if __name__ == "__main__":
    main()
