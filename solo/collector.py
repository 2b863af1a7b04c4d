"""How often Python's cycle collector runs, set once for the whole process.

The engine makes a great many short-lived objects (each conflict's questions and menus, a game state's
copies, a proof's keys) and leaves few reference cycles behind. At Python's default the collector walks the
young objects every 700 allocations and the older ones every ten of those walks: walking the young
objects every 10,000 allocations and the older ones every twenty walks made ``solo simulate vellan --runs
1000`` take 0.93 of the CPU (farm-bench, five pairs, 2026-12-04); cycles are still collected, only later, for
a few megabytes more (simulate's peak went from 45.6 to 47.4 MB). The test suite, whose processes hold far
more old objects, gains from freezing them instead (tests/conftest.py, ``pytest_collection_finish``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: gc.set_threshold's three numbers: allocations between young passes, then passes between older ones.
THRESHOLDS = (10_000, 20, 20)
#: ``solo prove``'s: Python's own. A proof holds thousands of states and the Lens chains of every fight, and how
#: far it can search is bounded by memory: with THRESHOLDS ``solo prove vellan`` took 0.973 of the CPU (three
#: pairs, 0.961-1.009) for a peak of 265 MB against 225 MB at these (2026-12-04).
SEARCH_THRESHOLDS = (700, 10, 10)


def tune() -> None:
    """Set the collector's thresholds; ``solo``'s entry point and the test suite call it before any work."""
    gc.set_threshold(*THRESHOLDS)


@contextmanager
def searching() -> Iterator[None]:
    """SEARCH_THRESHOLDS while a proof runs, the thresholds before it after (a test runs the command in its own
    process)."""
    before = gc.get_threshold()
    gc.set_threshold(*SEARCH_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
