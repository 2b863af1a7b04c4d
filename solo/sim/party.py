"""The characters a simulation plays: named files, the adventure's pregenerated one, or generated ones.

The same party starts every run (the engine copies it), and it must be one
that ``solo play --pc`` can rebuild, so that a failing run can be replayed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .options import Options, SimulationError

if TYPE_CHECKING:
    from ..rules.character import Character
    from ..story.format.adventure import Adventure

SLOT_SEED = 1000  # generated party member i is built from random.Random(SLOT_SEED + i)


@dataclass
class Party:
    members: list[Character]
    pc_specs: list[str] | None  # what `solo play --pc` takes to play the same characters (None: write files)
    how: str  # "pregen", "files", "generated", or "none" for an adventure with pc = false


def build_party(adventure: Adventure, options: Options) -> Party:
    """The characters every run starts with (copied by the engine, so runs never share state)."""
    from ..characters import current_roster, load_character
    from ..errors import SoloError
    from ..rules.creation import build_character, pregenerated, random_choices

    if not adventure.uses_pcs:  # a story with no player character: the engine takes no party
        return Party([], [], "none")
    if options.party:
        members = []
        for spec in options.party:
            try:
                members.append(load_character(spec, roster=current_roster()))  # a roster's name, as solo play finds it
            except SoloError as exc:
                raise SimulationError(str(exc)) from None
        names = [m.name for m in members]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise SimulationError(f"party members need different names: {', '.join(dupes)} twice")
        specs = [str(Path(spec).resolve()) if Path(spec).exists() else spec for spec in options.party]
        return _fits(adventure, Party(members, specs, "files"))
    if options.party_size is None and adventure.pc:
        try:
            return Party([pregenerated(adventure.pc)], [adventure.pc], "pregen")
        except SoloError as exc:
            raise SimulationError(f"the adventure's pregenerated character: {exc}") from None
    size = options.party_size or 1
    if not 1 <= size <= 6:
        raise SimulationError(f"a party has 1 to 6 characters, not {size}")
    members, taken = [], set()
    for slot in range(size):
        char = build_character(random_choices(random.Random(SLOT_SEED + slot)))
        name, n = char.name, 2
        while char.name in taken:
            char.name = f"{name} {n}"
            n += 1
        taken.add(char.name)
        members.append(char)
    return _fits(adventure, Party(members, None, "generated"))


def _fits(adventure: Adventure, party: Party) -> Party:
    if len(party.members) > adventure.party_max:
        raise SimulationError(adventure.party_misfit(len(party.members)) or "")
    return party
