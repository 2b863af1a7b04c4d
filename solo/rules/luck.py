"""Luck Points (docs/rules.md §2.8): what spending one does to a character.

The engine asks before spending; these functions only change the character
and say whether the spend was allowed.
"""

from __future__ import annotations

from ..errors import SoloError
from .character import Character, Pool

NEGATIVE_LUCK_FLOOR = -2
USES = ("flip", "reduce_damage", "timely_appearance", "look_what_i_found", "refreshed")


class LuckError(SoloError):
    """A Luck Point that cannot be spent."""


def can_spend(char: Character, *, negative_luck: bool = False) -> bool:
    floor = NEGATIVE_LUCK_FLOOR if negative_luck else 0
    return char.luck > floor


def spend(char: Character, use: str, *, negative_luck: bool = False) -> bool:
    """Spend one point for ``use``. Returns True if the point was borrowed (negative Luck).

    A borrowed point is owed: it falls due when the next scene begins (:func:`fall_due`).
    """
    if use not in USES:
        raise ValueError(f"unknown Luck use {use!r}")
    if not can_spend(char, negative_luck=negative_luck):
        if char.luck <= 0 and not negative_luck:
            raise LuckError(f"{char.name} has no Luck Points left.")
        raise LuckError(f"{char.name} cannot borrow more Luck (the floor is {NEGATIVE_LUCK_FLOOR}).")
    char.luck -= 1
    return char.luck < 0


def fall_due(char: Character) -> int:
    """A new scene begins: every point of Luck owed (Luck below zero) falls due in it.

    docs/rules.md §2.8: borrowing obliges the character to fail a successful roll in
    the next scene. Points borrowed during this scene wait for the next one; points
    still unpaid when this scene ends fall due again in the next. Returns how many are due.
    """
    char.owed_failures = max(0, -char.luck)
    return char.owed_failures


def debt_due(char: Character) -> bool:
    """Whether the character's next success is taken to pay back borrowed Luck."""
    return char.owed_failures > 0 and char.luck < 0


def pay_back(char: Character) -> None:
    """A success turned into a failure repays one point of the Luck that is due."""
    if not debt_due(char):
        raise LuckError(f"{char.name} owes no Luck in this scene.")
    char.owed_failures -= 1
    char.luck += 1


def refreshed(char: Character, pool: str | Pool, *, negative_luck: bool = False) -> None:
    """Spend one point to bring a Pool back to 1 (only useful when it is below 1).

    ``pool`` names one of the character's Pools, or is a conflict Pool itself
    (the average of two, in a chase by car or sneaking).
    """
    target = char.pools[pool] if isinstance(pool, str) else pool
    if target.current >= 1:
        raise LuckError(f"{char.name}'s Pool is at {target.current}; Refreshed only helps a Pool below 1.")
    spend(char, "refreshed", negative_luck=negative_luck)
    target.current = 1


def end_scenario(char: Character) -> dict[str, int]:
    """Luck is restored at the end of a scenario, unless it ended negative; requests reset; and every Pool is
    back to its maximum, for the days between one scenario and the next are rest (docs/rulings.md, "Pools
    between scenarios"): a character kept in the roster does not walk into the next adventure with last
    night's wounds. Returns the change per Pool."""
    if char.luck >= 0:
        char.luck = char.luck_max
    char.requests.clear()
    change = {}
    for name, pool in char.pools.items():
        if pool.current != pool.maximum:
            change[name] = pool.maximum - pool.current
            pool.current = pool.maximum
    return change
