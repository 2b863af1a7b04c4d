"""``solo simulate``: auto-play an adventure many times with bot players and count what happens.

Every run is a real :class:`~solo.story.play.engine.Game` with a bot
(:mod:`solo.sim.policies`) answering for the party and the NPCs' own minds
answering for them (:mod:`solo.sim.one_run`). The event sink narrates
nothing: it only adds numbers into a :class:`~solo.sim.tally.Tally`, so
memory stays flat however many runs there are. The runs are shared out in
chunks over processes (:mod:`solo.sim.parallel`) with the same seeds whatever
their number, and the sum becomes a report (:mod:`solo.sim.report`). A run
that raises, or goes on past the turn cap, is an error that keeps its seed
and its answers, so it can be replayed with ``solo play --seed S --script FILE``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..sampling import wilson
from .one_run import TurnLimit, play_one, run_seed
from .options import Options, SimulationError
from .parallel import chunks, prime, run_all, run_chunk
from .party import build_party
from .report import build_report, median_of
from .tally import Tally


def simulate(options: Options, *, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
             errors_dir: str | Path | None = None, on_pool_ready: Callable[[], None] | None = None) -> dict[str, Any]:
    """Play ``options.runs`` games and return the report (a JSON-able dict).

    ``progress(done, total)`` is called after every chunk. ``errors_dir`` is
    where the answers of failing runs are written (default: ``simulate-errors``
    in the saves folder, :func:`solo.sim.report.errors_folder`). ``on_pool_ready`` is called once the
    worker processes exist (start a progress bar's thread only after that).
    """
    from ..story.format.loader import load_adventure
    from .policies import POLICIES

    if options.runs < 1:
        raise SimulationError("--runs must be at least 1")
    if jobs < 1:
        raise SimulationError("--jobs must be at least 1")
    if options.policy not in POLICIES:
        raise SimulationError(f"unknown policy {options.policy!r} (known: {', '.join(POLICIES)})")
    adventure = load_adventure(options.adventure)
    party = build_party(adventure, options)
    start = time.perf_counter()
    prime(options, adventure, party)  # forked workers inherit the loaded adventure; spawned ones load it again
    total = run_all(options, jobs, progress, on_pool_ready)
    elapsed = time.perf_counter() - start
    return build_report(total, adventure, options, party, jobs=jobs, seconds=elapsed, errors_dir=errors_dir)


__all__ = ["Options", "SimulationError", "Tally", "TurnLimit", "build_party", "chunks", "median_of", "play_one",
           "run_chunk", "run_seed", "simulate", "wilson"]
