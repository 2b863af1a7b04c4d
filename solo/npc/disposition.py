"""Social Disposition as a ladder (docs/rules.md §7.2), so memory can move an NPC along it.

Encounters shift an NPC's attitude one step at a time; clamping at the ends
means a string of favours tops out at Affectionate instead of overflowing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..rules.outcomes import ACTIVE
from .tables import CodeBlockTables, codeblocks

if TYPE_CHECKING:
    from ..rules.conflict_types import ConflictType
    from ..rules.participants import Participant


def disposition_names(tables: CodeBlockTables | None = None) -> list[str]:
    """Best to worst: Affectionate … Malicious."""
    return [disp.name for disp in (tables or codeblocks()).dispositions]


def normalise_disposition(name: str, tables: CodeBlockTables | None = None) -> str:
    """The table's own spelling, accepting any case and aliases ("indifferent" → Neutral).

    Raises KeyError with a one-line message for an unknown name.
    """
    return (tables or codeblocks()).disposition(name).name


def disposition_of(npc: object) -> str:
    """An NPC's disposition towards the PCs by the table's name; one with no Code Block (a mindless creature) or
    none written is Neutral."""
    block = getattr(npc, "code_block", None)
    return normalise_disposition((block.disposition if block is not None else None) or "Neutral")


def disposition_bonus(ctype: ConflictType, participants: Sequence[Participant], side: str) -> Participant | None:
    """In a social conflict every one on ``side`` (the PCs) rolls with the disposition of the first NPC still taking
    part against them (rules §7.2, docs/rulings.md "Disposition in social conflicts"): "Oskar Brann is Unfriendly
    −20". Called as the conflict starts and again whenever someone leaves it (the conflict's ``standing``), so
    when the first NPC runs, gives up or is out, the next one's disposition counts from then on. The game's menus,
    rolls and odds, ``solo odds`` and ``solo duel`` all read it from here. Returns the NPC whose disposition counts
    (None: not a social conflict, or nobody left against ``side``)."""
    if not ctype.social:
        return None
    first = next((q for q in participants if q.side != side and q.status == ACTIVE and q.char is not None
                  and not q.is_pc), None)
    reason, modifier = None, 0
    if first is not None:
        disp = disposition_of(first.char)
        # against several, whose it is and why (a hot-seat party read "Torgny is Unfriendly -20" on every roll and
        # wondered where Friendly Hallstein had gone): the first of them still in it speaks for them
        several = sum(q.side != side and q.status == ACTIVE and q.char is not None and not q.is_pc
                      for q in participants) > 1
        reason = f"{first.name}, who speaks for them, is {disp}" if several else f"{first.name} is {disp}"
        modifier = disposition_modifier(disp)
    for p in participants:
        if p.side == side:
            p.set_standing(modifier, reason)
    return first


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
