"""Science //Medicine as first aid (docs/rules.md §2.2): one try per Pool per day."""

from __future__ import annotations

import random

from ..errors import SoloError
from .character import Character
from .dice import d


class MedicineError(SoloError):
    pass


def treat(patient: Character, pool: str, rng: random.Random) -> int:
    """Apply a successful Medicine roll: 1d4 to a Pool above zero, 1 point at or below zero.

    Never above the Pool's maximum. Returns the points restored.
    """
    if pool in patient.medicine_tried:
        raise MedicineError(f"{patient.name}'s {pool} was already treated today")
    patient.medicine_tried.append(pool)
    target = patient.pools[pool]
    gain = d(rng, 4) if target.current > 0 else 1
    gain = max(0, min(gain, target.maximum - target.current))
    target.current += gain
    return gain


def mark_tried(patient: Character, pool: str) -> None:
    """A failed Medicine roll still uses the day's try for that Pool."""
    if pool in patient.medicine_tried:
        raise MedicineError(f"{patient.name}'s {pool} was already treated today")
    patient.medicine_tried.append(pool)


def new_day(patient: Character) -> None:
    patient.medicine_tried.clear()
