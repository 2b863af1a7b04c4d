"""Start-up time of ``solo`` against a bare ``python -c "import click"`` (issues 2 and 17).

Targets: ``solo --help`` within 1.5x and ``solo roll d100`` within 2x of the bare
click import; ``solo play tutorial`` shows its first prompt within 3x of a bare
``python -c "import click, rich.console"``. Every command runs as a fresh subprocess
of the same interpreter; the runs are interleaved (one of each per round) so drift
in machine load hits all commands alike, and the median of each is reported.

The play run is timed the way a player meets it: at a terminal (a pseudo-terminal,
so solo plays interactively), from the start of the process until the prompt
``> `` appears; the process is then killed. Its saves go to a temporary folder
that is removed afterwards, and it runs in that folder. Where there is no
pseudo-terminal (Windows) the play run is left out.

The commands run with bytecode writing on (``PYTHONDONTWRITEBYTECODE`` is cleared), as
on a user's machine from the second run on.

It measures what a user runs: the ``solo`` console script installed next to
``sys.executable`` when there is one, else ``python -m solo``.

    python benchmarks/startup.py [--runs N] [--json]

Always exits 0: this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {"help": 1.5, "roll": 2.0, "play": 3.0}
BASELINES = {"help": "click", "roll": "click", "play": "click_rich"}  # what each target is a multiple of
PROMPT = b"> "  # the first prompt of a game
PLAY_TIMEOUT = 60.0  # seconds without the prompt before the play run is given up


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


def time_to_prompt(argv: list[str]) -> float:
    """Seconds from starting ``argv`` at a pseudo-terminal until it prints the first prompt."""
    import pty
    import select
    import signal

    folder = tempfile.mkdtemp(prefix="solo-startup-")
    try:
        start = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child: a fresh game whose saves (and characters) land in the temporary folder
            try:
                os.chdir(folder)
                os.environ["SOLO_SAVES"] = os.path.join(folder, "saves")
                os.environ.pop("SOLO_HOME", None)
                os.execv(argv[0], argv)
            finally:
                os._exit(127)
        seen = b""
        try:
            while PROMPT not in seen:
                ready, _, _ = select.select([fd], [], [], PLAY_TIMEOUT)
                if not ready:
                    raise RuntimeError(f"no prompt from {' '.join(argv)} within {PLAY_TIMEOUT:.0f} s")
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise RuntimeError(f"{' '.join(argv)} ended before its first prompt: "
                                       f"{seen.decode(errors='replace')[-300:]}")
                seen += chunk
            return time.perf_counter() - start
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(fd)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_once(name: str, argv: list[str]) -> float:
    return time_to_prompt(argv) if name == "play" else time_once(argv)


def measure(commands: dict[str, list[str]], runs: int, warmup: int = 2) -> dict[str, list[float]]:
    for name, argv in commands.items():
        for _ in range(warmup):  # fill the OS file cache and write any .pyc files
            run_once(name, argv)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(run_once(name, argv))
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs per command (at least 15; default 21)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--play-only", action="store_true", help="time only solo play against click and rich")
    args = parser.parse_args(argv)
    runs = max(15, args.runs)
    # A user's second run finds the .pyc files the first one wrote; with this variable set (as in
    # some containers and CI images) every run would compile the modules afresh, and we would time
    # the compiler. The warm-up runs write them.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

    solo, how = solo_command()
    commands = {
        "click": [sys.executable, "-c", "import click"],
        "click_rich": [sys.executable, "-c", "import click, rich.console"],
        "help": solo + ["--help"],
        "roll": solo + ["roll", "d100"],
        "play": solo + ["play", "tutorial"],
    }
    try:
        import pty  # noqa: F401 - only to learn whether the play run can be timed here
    except ImportError:
        del commands["play"]
    if args.play_only:
        commands = {name: argv for name, argv in commands.items() if name in ("click_rich", "play")}
    if solo[0] != sys.executable and not args.play_only:  # also show python -m solo, for comparison
        commands["python -m solo --help"] = [sys.executable, "-m", "solo", "--help"]
    try:
        times = measure(commands, runs)
    except Exception as exc:  # noqa: BLE001 - a measurement never fails the build
        print(f"startup benchmark could not run: {exc}", file=sys.stderr)
        return 0

    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians.get("click", medians["click_rich"])
    targets = {name: limit for name, limit in TARGETS.items() if name in medians}

    def ratio(name: str) -> float:
        return medians[name] / medians[BASELINES.get(name, "click" if "click" in medians else "click_rich")]

    report = {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "solo": how,
        "runs": runs,
        "median_ms": {name: round(m * 1000, 2) for name, m in medians.items()},
        "min_ms": {name: round(min(v) * 1000, 2) for name, v in times.items()},
        "ratio_to_click": {name: round(m / base, 3) for name, m in medians.items()},
        "targets": {name: {"max_ratio": limit, "of": BASELINES[name], "ratio": round(ratio(name), 3),
                           "met": ratio(name) <= limit} for name, limit in targets.items()},
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0

    labels = {"click": 'python -c "import click"', "click_rich": 'python -c "import click, rich.console"',
              "help": "solo --help", "roll": "solo roll d100", "play": "solo play tutorial, to its prompt"}
    print(f"Start-up times, median of {runs} runs each (Python {report['python']}; solo = {how})")
    for name in commands:
        line = f"  {labels.get(name, name):<36} {medians[name] * 1000:8.1f} ms"
        line += f"   (min {min(times[name]) * 1000:6.1f} ms)"
        if name in targets:
            verdict = "met" if ratio(name) <= targets[name] else "MISSED"
            line += f"   {ratio(name):5.2f}x {BASELINES[name]}   target <= {targets[name]}x: {verdict}"
        print(line)
    if not all(t["met"] for t in report["targets"].values()):
        print("A target was missed; see what is imported with: python -X importtime -m solo play tutorial")
    return 0


if __name__ == "__main__":
    sys.exit(main())
