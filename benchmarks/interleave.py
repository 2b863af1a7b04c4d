"""Interleaved timing shared by the benchmarks: two (or more) sides in short blocks, in turn.

A machine shared with other work drifts: timing one side for three seconds and then
the other for three lets that drift land on one side only. Here every side runs one
short block in turn (A B A B …, the order reversed every other round so neither side
always goes first), so drift lands on both alike. Each block gives a rate; a round
gives the ratio of two sides' rates in it. We quote the median, and the spread as the
lowest and highest value (and the quartiles when there are enough blocks).

Not a benchmark of its own: ``conflicts.py``, ``simulate.py`` and ``history.py`` import it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Spread:
    """Median, lowest, highest and the quartiles of a list of figures."""

    median: float
    low: float
    high: float
    q1: float
    q3: float
    count: int

    @classmethod
    def of(cls, values: list[float]) -> Spread:
        ordered = sorted(values)
        if len(ordered) >= 4:
            q1, _, q3 = statistics.quantiles(ordered, n=4)
        else:
            q1, q3 = ordered[0], ordered[-1]
        return cls(statistics.median(ordered), ordered[0], ordered[-1], q1, q3, len(ordered))

    def text(self, fmt: str = ",.0f") -> str:
        return (f"{self.median:{fmt}} (min {self.low:{fmt}}, quartiles {self.q1:{fmt}}–{self.q3:{fmt}}, "
                f"max {self.high:{fmt}}, {self.count} blocks)")

    def as_dict(self, digits: int = 3) -> dict[str, float]:
        return {"median": round(self.median, digits), "min": round(self.low, digits), "q1": round(self.q1, digits),
                "q3": round(self.q3, digits), "max": round(self.high, digits), "blocks": self.count}


def rate_block(fn: Callable[[], object], seconds: float, batch: int = 50) -> float:
    """Calls of ``fn`` per second over one block of about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(batch):
            fn()
        count += batch
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def interleave(sides: dict[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Run each side's block once a round, in turn, ``rounds`` times; each block returns a rate.

    The order is reversed every other round (A B, B A, A B …), so a slow patch of the
    machine does not always fall on the same side of a pair.
    """
    names = list(sides)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for i in range(rounds):
        for name in names if i % 2 == 0 else reversed(names):
            rates[name].append(sides[name]())
    return rates


def ratios(rates: dict[str, list[float]], top: str, bottom: str) -> Spread:
    """The ratio top/bottom round by round (blocks run next to each other), as a spread."""
    return Spread.of([a / b for a, b in zip(rates[top], rates[bottom])])
