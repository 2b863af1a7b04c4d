"""How fast and how lean ``solo simulate`` is on a real adventure.

Measures, on the adventure given (default: the bundled ``vellan``, else the tutorial):

* 1,000 runs on one core (target: under 10 s);
* 4× the runs on one core (target: at most 4.4× the time, i.e. linear);
* ``--jobs 2`` against ``--jobs 1`` on the 4× runs (target: at least 1.6× faster);

The three timings (1×, 4×, 4× with two jobs) run in turn, ``--repeat`` rounds
(``interleave.py``), and each target is judged on the median of the rounds' ratios,
with the spread printed beside it: a busy machine widens the spread, not one side.
* peak memory (``ru_maxrss`` of a fresh process per size) at 10,000 runs against 1,000
  (target: at most 1.2×: the tally is counters, not a list of runs).

With ``--profile`` it also prints the hottest functions of 300 runs (cProfile), which is
how to find where the engine spends its time without editing it.

    python benchmarks/simulate.py [ADVENTURE] [--policy random] [--runs 1000] [--repeat 3] [--json] [--profile]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from interleave import Spread, interleave

_MEMORY_PROBE = """
import json, resource, sys
from solo.sim.simulate import Options, simulate
path, runs, policy = sys.argv[1], int(sys.argv[2]), sys.argv[3]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
report = simulate(Options(path, runs, seed=1, policy=policy), jobs=1)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before_kb": before, "peak_kb": after, "runs": report["runs"]}))
"""


def _adventure(spec: str | None) -> str:
    from solo.story.format.library import available, find_adventure

    if spec is None:
        spec = "vellan" if "vellan" in available() else "tutorial"
    return str(find_adventure(spec))


def _children_cpu() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(path: str, runs: int, policy: str, jobs: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process and its workers) of one simulation.

    CPU time of one process is blind to other processes, so the linearity check uses
    it; a speed-up can only be seen on the wall clock.
    """
    from solo.sim.simulate import Options, simulate

    wall, cpu = time.perf_counter(), time.process_time() + _children_cpu()
    report = simulate(Options(path, runs, seed=1, policy=policy), jobs=jobs)
    wall, cpu = time.perf_counter() - wall, time.process_time() + _children_cpu() - cpu
    if report["error_count"]:
        print(f"  note: {report['error_count']} runs failed (see solo simulate)", file=sys.stderr)
    return wall, cpu


def _peak_kb(path: str, runs: int, policy: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, path, str(runs), policy],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _profile(path: str, policy: str, runs: int = 300) -> str:
    import cProfile
    import io
    import pstats

    from solo.sim.simulate import Options, simulate

    simulate(Options(path, 20, seed=2, policy=policy), jobs=1)  # warm caches
    prof = cProfile.Profile()
    prof.enable()
    simulate(Options(path, runs, seed=1, policy=policy), jobs=1)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(30)
    return buf.getvalue()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("adventure", nargs="?", help="a name or a path (default: vellan, else tutorial)")
    ap.add_argument("--policy", default="random", choices=["random", "cautious", "bold"])
    ap.add_argument("--runs", type=int, default=1000, help="the base number of runs (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds of the three timings, in turn (default 3)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true", help="also print cProfile's hottest functions")
    args = ap.parse_args(argv)
    path = _adventure(args.adventure)
    n = args.runs

    load_before = os.getloadavg()[0]
    _timed(path, 20, args.policy, 1)  # imports, tables and machines: paid once, not measured
    _timed(path, 20, args.policy, 2)
    walls: dict[str, list[float]] = {"1x": [], "4x": [], "4x_jobs2": []}
    cpus: dict[str, list[float]] = {"1x": [], "4x": [], "4x_jobs2": []}

    def side(name: str, runs: int, jobs: int):
        def block() -> float:
            wall, cpu = _timed(path, runs, args.policy, jobs)
            walls[name].append(wall)
            cpus[name].append(cpu)
            return runs / wall
        return block

    interleave({"1x": side("1x", n, 1), "4x": side("4x", 4 * n, 1), "4x_jobs2": side("4x_jobs2", 4 * n, 2)},
               args.repeat)
    rate1 = Spread.of([n / w for w in walls["1x"]])
    speedup = Spread.of([a / b for a, b in zip(walls["4x"], walls["4x_jobs2"])])
    linear = Spread.of([a / b for a, b in zip(cpus["4x"], cpus["1x"])])
    overhead = Spread.of([a / b for a, b in zip(cpus["4x_jobs2"], cpus["4x"])])
    t1, t4, t4j2 = (statistics.median(walls[k]) for k in ("1x", "4x", "4x_jobs2"))
    c1 = statistics.median(cpus["1x"])
    small = _peak_kb(path, n, args.policy)
    large = _peak_kb(path, 10 * n, args.policy)
    figures = {
        "adventure": path, "policy": args.policy, "cpus": os.cpu_count(), "repeat": args.repeat,
        "runs": n, "seconds_1x": round(t1, 3), "cpu_seconds_1x": round(c1, 3), "runs_per_second": rate1.as_dict(1),
        "seconds_4x": round(t4, 3), "ratio_4x": linear.as_dict(), "seconds_4x_jobs2": round(t4j2, 3),
        "speedup_jobs2": speedup.as_dict(), "parallel_cpu_overhead": overhead.as_dict(),
        "peak_kb_1x": small["peak_kb"], "peak_kb_10x": large["peak_kb"],
        "memory_ratio_10x": round(large["peak_kb"] / small["peak_kb"], 3),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    checks = {
        f"{n} runs on one core < 10 s (median)": t1 < 10,
        f"{4 * n} runs <= 4.4x the time of {n} (CPU time, median of rounds)": linear.median <= 4.4,
        "--jobs 2 >= 1.6x faster than --jobs 1 (median of rounds)": speedup.median >= 1.6,
        f"peak memory at {10 * n} runs <= 1.2x that at {n}": large["peak_kb"] / small["peak_kb"] <= 1.2,
    }
    figures["targets"] = checks
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(f"solo simulate on {path} (policy {args.policy}, {os.cpu_count()} CPUs)")
        print(f"  {args.repeat} rounds, the three sizes in turn; median (min, quartiles, max)")
        print(f"  {n:>6} runs, 1 process   {t1:7.2f} s   {rate1.text(',.1f')} runs/s")
        print(f"  {4 * n:>6} runs, 1 process   {t4:7.2f} s   CPU time {linear.text('.2f')}x that of {n}")
        print(f"  {4 * n:>6} runs, 2 processes {t4j2:7.2f} s   {speedup.text('.2f')}x faster")
        print(f"         CPU of all processes: {overhead.text('.2f')}x the work of one process")
        print(f"  peak memory: {small['peak_kb'] / 1024:.1f} MB at {n} runs, {large['peak_kb'] / 1024:.1f} MB at "
              f"{10 * n} runs ({large['peak_kb'] / small['peak_kb']:.2f}x)")
        print(f"  load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after "
              f"(other work on the machine slows the wall-clock figures, the speed-up most)")
        for name, ok in checks.items():
            print(f"  [{'ok' if ok else 'MISSED'}] {name}")
    if args.profile:
        print(_profile(path, args.policy))
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
