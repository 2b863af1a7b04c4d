"""Social Disposition as a ladder (docs/rules.md §7.2), so memory can move an NPC along it.

Encounters shift an NPC's attitude one step at a time; clamping at the ends
means a string of favours tops out at Affectionate instead of overflowing.
"""

from __future__ import annotations

from .tables import CodeBlockTables, codeblocks


def disposition_names(tables: CodeBlockTables | None = None) -> list[str]:
    """Best to worst: Affectionate … Malicious."""
    return [disp.name for disp in (tables or codeblocks()).dispositions]


def normalise_disposition(name: str, tables: CodeBlockTables | None = None) -> str:
    """The table's own spelling, accepting any case and aliases ("indifferent" → Neutral).

    Raises KeyError with a one-line message for an unknown name.
    """
    return (tables or codeblocks()).disposition(name).name


def disposition_modifier(name: str, tables: CodeBlockTables | None = None) -> int:
    """What the disposition adds to a PC's skill in social conflicts with the NPC."""
    return (tables or codeblocks()).disposition(name).modifier


def disposition_step(name: str, tables: CodeBlockTables | None = None) -> int:
    """Steps above (+) or below (−) the neutral rung: Affectionate +2 … Malicious −2."""
    t = tables or codeblocks()
    names = disposition_names(t)
    return names.index(t.default_disposition.name) - names.index(t.disposition(name).name)


def shift_disposition(name: str, steps: int, tables: CodeBlockTables | None = None) -> str:
    """Move ``steps`` rungs warmer (positive) or colder (negative), stopping at the ends."""
    t = tables or codeblocks()
    names = disposition_names(t)
    index = names.index(t.disposition(name).name) - steps
    return names[max(0, min(len(names) - 1, index))]


def warmer(name: str, tables: CodeBlockTables | None = None) -> str:
    return shift_disposition(name, 1, tables)


def colder(name: str, tables: CodeBlockTables | None = None) -> str:
    return shift_disposition(name, -1, tables)
