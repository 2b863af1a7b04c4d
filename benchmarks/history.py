"""This checkout against a named commit, in one interleaved run: is today slower than then?

    python benchmarks/history.py 2340d10                      # the default cases
    python benchmarks/history.py 2340d10 --case cloak --rounds 9
    python benchmarks/history.py main~5 --case vellan --runs vellan=1000

The commit is checked out with ``git worktree add --detach`` into a temporary folder
(removed at the end). Two long-lived worker processes are started with the same
Python, one with ``PYTHONPATH`` on that folder and one on this checkout, so each
imports its own ``solo`` (the installed packages are shared: a commit needing a
package this environment lacks cannot be timed this way). Each worker warms up on
every case first (imports, tables, machines); then, round by round, each case is timed
in one worker and then the other, the order swapped every other round, so drift of a
shared machine lands on both sides. The figure of a case is its ratio now/then,
round by round: its median, lowest, highest and quartiles.

Cases (``--case``, repeatable; default cloak, vellan and conflicts):

* ``cloak``: ``solo simulate`` on ``benchmarks/data/cloak.toml`` (a Cloak-of-Darkness-sized
  adventure in the format every build since 2026-11-30 reads), runs per second;
* ``vellan``: ``solo simulate vellan``, each side its own bundled Vellan (as a user
  of each version would run it), runs per second;
* ``tutorial``: the same with the tutorial;
* ``conflicts``: conflicts per second of ``engine_conflict`` from each side's own
  ``benchmarks/conflicts.py``.

Each round of a simulation case uses a new seed (the same on both sides). Targets
printed with ``--targets`` are issue 30's: cloak at least 1.2x, vellan at least 1.0x.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from interleave import Spread

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_RUNS = {"cloak": 1000, "vellan": 500, "tutorial": 1000, "conflicts": 2000}
TARGETS = {"cloak": 1.2, "vellan": 1.0}

# A worker: reads one JSON command a line, answers with one JSON line. It imports solo
# from its PYTHONPATH, so the same text times either version.
_WORKER = r"""
import json, random, sys, time
root = sys.argv[1]
sys.path.insert(0, root + "/benchmarks")
from solo.sim.simulate import Options, simulate
try:  # where the adventure library lives in this version (story/ was split into format/ and play/)
    from solo.story.format.library import find_adventure
except ImportError:
    from solo.story.library import find_adventure
engines = {}
for line in sys.stdin:
    cmd = json.loads(line)
    case, runs, seed = cmd["case"], cmd["runs"], cmd["seed"]
    if case == "conflicts":
        if seed not in engines:
            from conflicts import engine_conflict
            engines[seed] = engine_conflict(random.Random(seed))
        one = engines[seed]
        start = time.perf_counter()
        for _ in range(runs):
            one()
        seconds = time.perf_counter() - start
    else:
        path = cmd["path"] or str(find_adventure(case))
        start = time.perf_counter()
        report = simulate(Options(path, runs, seed=seed), jobs=1)
        seconds = time.perf_counter() - start
        if report["error_count"]:
            print(f"{case}: {report['error_count']} runs failed", file=sys.stderr)
    print(json.dumps({"per_second": runs / seconds}), flush=True)
"""


class Worker:
    """One long-lived Python process importing solo from ``root``."""

    def __init__(self, root: Path):
        env = dict(os.environ, PYTHONPATH=str(root))
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER, str(root)], env=env, cwd=str(root),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def time(self, case: str, runs: int, seed: int) -> float:
        path = str(HERE / "data" / "cloak.toml") if case == "cloak" else None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"case": case, "runs": runs, "seed": seed, "path": path}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the worker for {case} stopped (see the error above)")
        return float(json.loads(line)["per_second"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def checkout(commit: str, where: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--quiet", "--detach", str(where), commit], check=True)


def remove(where: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], check=False)


def compare(old_root: Path, cases: list[str], runs: dict[str, int], rounds: int) -> dict[str, dict]:
    old, new = Worker(old_root), Worker(ROOT)
    try:
        for case in cases:  # warm-up: imports, tables, machines, the first conflict
            for worker in (old, new):
                worker.time(case, max(1, runs[case] // 20), 10_000)
        rates: dict[str, dict[str, list[float]]] = {case: {"then": [], "now": []} for case in cases}
        for i in range(rounds):
            for case in cases:
                order = [("then", old), ("now", new)]
                for side, worker in order if i % 2 == 0 else reversed(order):
                    rates[case][side].append(worker.time(case, runs[case], i + 1))
    finally:
        old.close()
        new.close()
    return {case: {"then": Spread.of(r["then"]), "now": Spread.of(r["now"]),
                   "ratio": Spread.of([a / b for a, b in zip(r["now"], r["then"])])} for case, r in rates.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commit", help="the commit to compare against (anything git names: 2340d10, main~3 …)")
    ap.add_argument("--case", action="append", choices=sorted(DEFAULT_RUNS), help="what to time (repeatable)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds, each side once a round (default 5)")
    ap.add_argument("--runs", action="append", default=[], metavar="CASE=N",
                    help=f"runs (or conflicts) per block, e.g. cloak=2000 (defaults {DEFAULT_RUNS})")
    ap.add_argument("--targets", action="store_true", help="judge issue 30's targets (exit 1 when one is missed)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cases = args.case or ["cloak", "vellan", "conflicts"]
    runs = dict(DEFAULT_RUNS)
    for item in args.runs:
        name, _, number = item.partition("=")
        runs[name] = int(number)
    with tempfile.TemporaryDirectory(prefix="solo-history-") as tmp:
        where = Path(tmp) / "then"
        checkout(args.commit, where)
        try:
            figures = compare(where, cases, runs, args.rounds)
        finally:
            remove(where)
    missed = [case for case in figures if case in TARGETS and figures[case]["ratio"].median < TARGETS[case]]
    if args.json:
        print(json.dumps({case: {k: v.as_dict() for k, v in f.items()} | {"runs": runs[case]}
                          for case, f in figures.items()}, indent=1))
    else:
        print(f"this checkout against {args.commit}: {args.rounds} rounds, the two in turn; "
              "median (min, quartiles, max)")
        for case, f in figures.items():
            unit = "conflicts/s" if case == "conflicts" else "runs/s"
            print(f"{case} ({runs[case]:,} a block)")
            print(f"  then {f['then'].text(',.1f')} {unit}")
            print(f"  now  {f['now'].text(',.1f')} {unit}")
            target = f"   (target >= {TARGETS[case]})" if case in TARGETS else ""
            print(f"  now/then {f['ratio'].text('.3f')}{target}")
    return 1 if args.targets and missed else 0


if __name__ == "__main__":
    sys.exit(main())
