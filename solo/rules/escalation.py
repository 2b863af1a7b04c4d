"""Escalation (docs/rules.md §4) and recovery after a conflict (§5.5).

Whoever loses an opposed roll may turn it into an Extended Conflict when the
scene allows; the conflict type is the one whose skill (and Focus) fits the
roll that was lost.
"""

from __future__ import annotations

from ..errors import SoloError
from .character import Character
from .conflict_types import ConflictType, bundled_conflict_types
from .rolls import OpposedResult


class EscalationError(SoloError):
    pass


def fitting_type(skill: str, focus: str | None = None,
                 types: dict[str, ConflictType] | None = None) -> ConflictType:
    """The conflict type for a roll of ``skill`` (//``focus``): a Focus match first, then the skill.

    Static types (locks, archives) never come out of an opposed roll.
    """
    types = types if types is not None else bundled_conflict_types()
    candidates = [t for t in types.values() if not t.static]
    if focus:
        for t in candidates:
            if t.skill == skill and focus in t.focuses:
                return t
            if t.opposed_by and t.opposed_by[0] == skill and focus in t.opposed_by[1]:
                return t
    for t in candidates:
        if t.skill == skill:
            return t
    for t in candidates:
        if t.opposed_by and t.opposed_by[0] == skill:
            return t
    raise EscalationError(f"no conflict type is fought with {skill}; name one explicitly")


def may_escalate(result: OpposedResult, side: str) -> bool:
    """Only the side that lost may escalate; a double failure leaves things as they were."""
    return result.loser_may_escalate and result.loser == side


def recover(char: Character, *, days: int = 0, slept: bool = False) -> dict[str, int]:
    """Pools below zero climb 1 a day up to zero; a night's sleep refills the others.

    Ruling: a Pool at exactly zero counts with those above zero (sleep refills
    it); a Pool that started below zero only climbs, even if it reaches zero
    during these days. Returns the change per Pool.
    """
    change = {}
    for name, pool in char.pools.items():
        before = pool.current
        if pool.current < 0:
            pool.current = min(0, pool.current + days)
        elif slept:
            pool.current = pool.maximum
        if pool.current != before:
            change[name] = pool.current - before
    return change
