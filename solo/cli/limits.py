"""The bounds on the numbers a command reads, and the option type that holds them.

Every count, round limit and seed on the command line is read by :class:`Whole`,
which refuses a value outside its range at once, before any work starts, with the
range in the message. docs/limits.md lists these bounds with every other limit
solo keeps (tests/hostile/test_limits.py holds the two to each other).
"""

from __future__ import annotations

import re
from typing import Any

import click

#: Games ``solo simulate`` plays in one call (about an hour of the tutorial on one core).
MAX_SIMULATE_RUNS = 100_000
#: Conflicts ``solo duel`` fights in one call (a few minutes with a thinking NPC).
MAX_DUEL_RUNS = 100_000
#: Processes ``solo simulate --jobs`` asks for; more than the CPUs here are cut to their number, with a note.
MAX_JOBS = 1024
#: Scene choices one simulated game may make before it counts as a loop (``--max-turns``).
MAX_TURNS = 100_000
#: A seed: a whole number from 0 to 2**63 - 1, which a save and a replay command hold as they are.
MAX_SEED = 2**63 - 1
#: A conflict's round limit (``--rounds`` of odds and duel): the limit an adventure's conflict may have too
#: (solo/story/play/actions.py MAX_ROUNDS; a test holds the two equal).
MAX_ROUNDS = 200
#: Pools times Pools times rounds that ``solo odds`` prices (about 5 s with every Lens); more is refused.
MAX_ODDS_WORK = 250_000
#: What solving ``solo odds`` without a round limit costs, in rounds walked.
UNLIMITED_ROUNDS = 10
#: The same against a thinking NPC (``--npc``), whose choice is worked out in every state.
MAX_MIND_WORK = 30_000
#: A skill value or target in ``solo odds`` (a character's skills are 0-200).
MAX_TARGET = 200
#: Armour Points in ``solo odds``.
MAX_ARMOUR = 100
#: Digits read of a number typed on the command line (a seed has at most 19).
MAX_DIGITS = 20


class Whole(click.IntRange):
    """A whole number from ``low`` to ``high``, refused with the range in the message (``--runs``, ``--seed`` …);
    ``--help`` shows the range as click shows an ``IntRange``'s.

    The text is looked at before it is turned into a number, so a value of a million digits costs
    nothing to refuse.
    """

    name = "integer"

    def __init__(self, low: int, high: int, *, in_help: bool = True, over: str = "") -> None:
        super().__init__(low, high)
        self.low, self.high, self.in_help = low, high, in_help
        self.over = over  # why no more is taken, said after the range of a number above it

    def _describe_range(self) -> str:
        return f"{self.low:,} to {self.high:,}" if self.in_help else ""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip().replace("_", "")
            shown = text if len(text) <= 24 else text[:24] + "…"
            if not re.fullmatch(r"[+-]?[0-9]+", text):  # linear in the text; no number is built
                self.fail(f"{shown!r} is not a whole number from {self.low:,} to {self.high:,}", param, ctx)
            if len(text) > MAX_DIGITS:
                self.fail(f"{shown} ({len(text):,} digits) is out of range: a whole number from {self.low:,} to "
                          f"{self.high:,}", param, ctx)
            number = int(text)
        if not self.low <= number <= self.high:
            why = f" ({self.over})" if self.over and number > self.high else ""
            self.fail(f"{number:,} is out of range: a whole number from {self.low:,} to {self.high:,}{why}", param,
                      ctx)
        return number

    def __repr__(self) -> str:
        return f"Whole({self.low}, {self.high})"


SEED = Whole(0, MAX_SEED, in_help=False)  # any seed a person types fits: no need to say
#: The tension track's range, as solo/oracle/likelihood.py sets it (not imported here: that loads the oracle;
#: a test holds the two equal).
TENSION = Whole(1, 9)
