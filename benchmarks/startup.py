"""Start-up time of ``solo`` against a bare ``python -c "import click"`` (issue 2).

Targets: ``solo --help`` within 1.5x and ``solo roll d100`` within 2x of the bare
click import. Every command runs as a fresh subprocess of the same interpreter;
the runs are interleaved (one of each per round) so drift in machine load hits
all commands alike, and the median of each is reported.

It measures what a user runs: the ``solo`` console script installed next to
``sys.executable`` when there is one, else ``python -m solo``.

    python benchmarks/startup.py [--runs N] [--json]

Always exits 0: this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGETS = {"help": 1.5, "roll": 2.0}


def solo_command() -> tuple[list[str], str]:
    """The command a user types, and how it was found."""
    script = Path(sys.executable).with_name("solo")
    if script.is_file():
        return [str(script)], f"console script {script}"
    return [sys.executable, "-m", "solo"], f"{sys.executable} -m solo (no console script next to the interpreter)"


def time_once(argv: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-500:]}")
    return elapsed


def measure(commands: dict[str, list[str]], runs: int, warmup: int = 2) -> dict[str, list[float]]:
    for argv in commands.values():
        for _ in range(warmup):  # fill the OS file cache and write any .pyc files
            time_once(argv)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(time_once(argv))
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs per command (at least 15; default 21)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    runs = max(15, args.runs)

    solo, how = solo_command()
    commands = {
        "click": [sys.executable, "-c", "import click"],
        "help": solo + ["--help"],
        "roll": solo + ["roll", "d100"],
    }
    if solo[0] != sys.executable:  # also show python -m solo, for comparison
        commands["python -m solo --help"] = [sys.executable, "-m", "solo", "--help"]
    try:
        times = measure(commands, runs)
    except Exception as exc:  # noqa: BLE001 - a measurement never fails the build
        print(f"startup benchmark could not run: {exc}", file=sys.stderr)
        return 0

    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["click"]
    report = {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "solo": how,
        "runs": runs,
        "median_ms": {name: round(m * 1000, 2) for name, m in medians.items()},
        "min_ms": {name: round(min(v) * 1000, 2) for name, v in times.items()},
        "ratio_to_click": {name: round(m / base, 3) for name, m in medians.items()},
        "targets": {name: {"max_ratio": limit, "ratio": round(medians[name] / base, 3),
                           "met": medians[name] / base <= limit} for name, limit in TARGETS.items()},
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0

    labels = {"click": 'python -c "import click"', "help": "solo --help", "roll": "solo roll d100"}
    print(f"Start-up times, median of {runs} runs each (Python {report['python']}; solo = {how})")
    for name in commands:
        ratio = medians[name] / base
        line = f"  {labels.get(name, name):<28} {medians[name] * 1000:8.1f} ms"
        line += f"   (min {min(times[name]) * 1000:6.1f} ms)"
        line += f"   {ratio:5.2f}x click"
        if name in TARGETS:
            verdict = "met" if ratio <= TARGETS[name] else "MISSED"
            line += f"   target <= {TARGETS[name]}x: {verdict}"
        print(line)
    if not all(t["met"] for t in report["targets"].values()):
        print("A target was missed; see what is imported with: python -X importtime -m solo --help")
    return 0


if __name__ == "__main__":
    sys.exit(main())
