"""An NPC's Code Block boiled down to the numbers a mind weighs.

The tables give each entry its own lean; this module says how they add up,
in one place, so every mind (and the tests) combine them the same way:

* personality leans: the two entries' numbers are summed (−2..2), so a double
  entry or two entries pulling the same way count for more;
* motivation: with two motivations the risk numbers are averaged and their
  ``resolve`` and ``lean`` are added at half weight each; ``on_break`` lists
  the first motivation's reactions, then the second's new ones;
* mood (recent event): added to ``warmth`` and taken from ``cruelty``;
* disposition: its ``surrender_shift`` moves ``surrender_bias`` (kept in 0..1);
* mindless: the ``[mindless]`` numbers replace all of the above.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .codeblock import CodeBlock
from .tables import LEAN_LENS, LEANS, CodeBlockTables, Drive, codeblocks


@dataclass(frozen=True)
class Leanings:
    lean: dict[str, float]  # every key of tables.LEANS; "resolve" includes the motivation's
    risk_tolerance: float
    flee_threshold: float
    surrender_bias: float
    on_break: tuple[str, ...]
    mood: float
    mindless: bool = False

    @functools.cached_property
    def nature(self) -> tuple:
        """What a mind's Lens scores read of these leanings, by value (two NPCs of one nature score alike)."""
        return tuple(sorted(self.lean.items())), self.risk_tolerance, self.mindless

    def lens_lean(self) -> dict[str, float]:
        """Lens name (aggressive, cautious …) → the lean pulling towards it."""
        return {lens: self.lean[key] for key, lens in LEAN_LENS.items()}

    @property
    def yields(self) -> bool:
        """Whether anything can make this NPC flee or surrender."""
        return not self.mindless and self.flee_threshold > 0


#: Leanings by what they are made of (the Code Block's entries, mindless, and the tables, held to be sure they
#: are the same ones): a mind asks at every conflict, a duel thousands of times. Shared: read only.
_MADE: dict[tuple, tuple[CodeBlockTables, Leanings]] = {}
_MADE_MAX = 1024


def leanings(code_block: CodeBlock | None, *, mindless: bool = False,
             tables: CodeBlockTables | None = None) -> Leanings:
    """The numbers a mind reads of a Code Block (mindless: a creature's), worked out once for each (kept in
    :data:`_MADE`; a Code Block's disposition may move, so it is keyed by its entries, not by the object)."""
    t = tables or codeblocks()
    cb = code_block
    key = (mindless, None if cb is None else (cb.personality, tuple(cb.motivation), cb.event, cb.disposition))
    try:
        made = _MADE.get(key)
    except TypeError:  # an entry that is not a value (a hand-made Code Block with lists): worked out afresh
        return _leanings(code_block, mindless=mindless, t=t)
    if made is not None and made[0] is t:
        return made[1]
    lean = _leanings(code_block, mindless=mindless, t=t)
    if len(_MADE) >= _MADE_MAX:
        _MADE.clear()
    _MADE[key] = (t, lean)
    return lean


def _leanings(code_block: CodeBlock | None, *, mindless: bool, t: CodeBlockTables) -> Leanings:
    if mindless or code_block is None:
        if not mindless:
            raise ValueError("an NPC without a Code Block must be mindless")
        return _from_drives({k: 0.0 for k in LEANS}, [t.mindless], 0.0, 0.0, mindless=True)
    lean = {k: 0.0 for k in LEANS}
    for trait in code_block.personality:
        for key, value in t.trait(trait.table, trait.name).lean.items():
            lean[key] += value
    mood = t.mood_positive if code_block.event.positive else t.mood_negative
    lean["warmth"] += mood
    lean["cruelty"] -= mood
    drives = [t.motivation(name) for name in code_block.motivation]
    shift = t.disposition(code_block.disposition).surrender_shift
    return _from_drives(lean, drives, mood, shift)


def _from_drives(lean: dict[str, float], drives: list[Drive], mood: float, shift: float,
                 *, mindless: bool = False) -> Leanings:
    weight = 1.0 / len(drives)
    on_break: list[str] = []
    for drive in drives:
        lean["resolve"] += drive.resolve * weight
        for key, value in drive.lean.items():
            lean[key] += value * weight
        on_break += [b for b in drive.on_break if b not in on_break]

    def mean(attr: str) -> float:
        return sum(getattr(dr, attr) for dr in drives) * weight

    return Leanings(
        lean={k: round(v, 6) for k, v in lean.items()},
        risk_tolerance=round(mean("risk_tolerance"), 6),
        flee_threshold=round(mean("flee_threshold"), 6),
        surrender_bias=round(min(1.0, max(0.0, mean("surrender_bias") + shift)), 6),
        on_break=tuple(on_break), mood=mood, mindless=mindless,
    )
