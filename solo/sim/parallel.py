"""Sharing runs out: chunks of runs played in this process or in worker processes, tallied in order.

Run ``i`` plays with seed :func:`~solo.sim.one_run.run_seed` ``(base, i)``,
whatever the number of processes. Each worker loads the adventure again from
its path unless it was forked with it, so only plain data crosses between
processes, and the parent adds the chunks' tallies in run order.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from .one_run import play_one, run_seed
from .options import Options
from .party import Party, build_party
from .tally import Tally

if TYPE_CHECKING:
    from ..story.format.adventure import Adventure

_WORKER_CACHE: dict[tuple, tuple[Adventure, Party]] = {}


def prime(options: Options, adventure: Adventure, party: Party) -> None:
    """Hand this process's adventure and party to the chunks (forked workers inherit them too)."""
    _WORKER_CACHE.clear()
    _WORKER_CACHE[_cache_key(options)] = (adventure, party)


def _cache_key(options: Options) -> tuple:
    return (options.adventure, options.party, options.party_size)


def _prepared(options: Options) -> tuple[Adventure, Party]:
    key = _cache_key(options)
    if key not in _WORKER_CACHE:
        from ..story.format.loader import load_adventure

        adventure = load_adventure(options.adventure)
        prime(options, adventure, build_party(adventure, options))
    return _WORKER_CACHE[key]


def run_chunk(options: Options, start: int, count: int) -> Tally:
    """Runs ``start`` .. ``start + count - 1``, tallied."""
    adventure, party = _prepared(options)
    tally = Tally(coverage=options.coverage)
    for index in range(start, start + count):
        tally.begin(None)
        result = play_one(adventure, party.members, run_seed(options.seed, index), options.policy, sink=tally,
                          max_turns=options.max_turns)
        tally.add_run(result, index, options.max_examples)
    return tally


def _worker(task: tuple[dict, int, int]) -> dict:
    options, start, count = task
    return run_chunk(Options(**{**options, "party": tuple(options["party"])}), start, count).to_dict()


MIN_PIECE = 20  # runs: a piece shipped to a worker costs a little; the last ones stay this small


def chunks(runs: int, jobs: int) -> list[tuple[int, int]]:
    """(start, count) pieces: small enough to share out evenly and to move a progress bar.

    On one process they are even. On several, each piece is a share of the runs still left
    (a quarter of each job's part, at most 500, at least :data:`MIN_PIECE`), so pieces shrink
    towards the end and the workers finish together: with even pieces a worker could be left
    playing a whole last piece alone (a tenth of the time of 4,000 Vellan runs on two).
    """
    if jobs <= 1:
        size = max(1, min(500, math.ceil(runs / 8)))
        return [(start, min(size, runs - start)) for start in range(0, runs, size)]
    out: list[tuple[int, int]] = []
    start = 0
    while start < runs:
        left = runs - start
        size = min(left, max(MIN_PIECE, min(500, math.ceil(left / (jobs * 4)))))
        out.append((start, size))
        start += size
    return out


def run_all(options: Options, jobs: int, progress: Callable[[int, int], None] | None = None,
            on_pool_ready: Callable[[], None] | None = None) -> Tally:
    """Every run of ``options`` on ``jobs`` processes, tallied (call :func:`prime` first)."""
    pieces = chunks(options.runs, jobs)
    total = Tally()
    done = 0
    if jobs == 1 or len(pieces) == 1:
        if on_pool_ready:
            on_pool_ready()
        for first, count in pieces:
            total.merge(run_chunk(options, first, count), options.max_examples)
            done += count
            if progress:
                progress(done, options.runs)
        return total
    import gc
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    plain = options.to_dict()
    # forked workers then share the parent's objects instead of copying them on collection; a caller that froze its
    # own already (the test suite freezes what it collected) is left as it was: thawing would thaw its objects too
    freezing = not gc.get_freeze_count()
    if freezing:
        gc.freeze()
    try:
        pool = ctx.Pool(min(jobs, len(pieces)))
    finally:
        if freezing:
            gc.unfreeze()
    with pool:
        if on_pool_ready:
            on_pool_ready()
        for (_, count), data in zip(pieces, pool.imap(_worker, [(plain, f, c) for f, c in pieces])):
            total.merge(Tally.from_dict(data), options.max_examples)
            done += count
            if progress:
                progress(done, options.runs)
    return total
