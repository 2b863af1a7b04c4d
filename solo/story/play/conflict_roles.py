"""Who of a party takes part in an Extended Conflict, who assists, who sits out, and who drives.

A party of several PCs need not throw everyone at every conflict: the one
who knows the archives searches them while the others fetch boxes, and one
drives the van while the others hold on. Before the conflict the party says
so, through the ordinary questions (``lineup``, ``part``, ``assist`` and
``who`` for a driver), so a person, a script or a bot answers them alike.
The answer is a :class:`Roles`, which :meth:`solo.story.play.engine.Game.conflict_sides`
turns into participants; the odds a player is shown are made from those same
participants, assistance included.

Ruling (docs/rulings.md, "Who takes part"): an assisting PC adds +20 % to one
participant's rolls for the whole conflict (two or more assistants on one
participant add at most +40 %); the assistant does not roll, declares no
Lens and takes no blow. Assistants and those who sit out share the party's
outcome: the branch the conflict picks happens to the whole party as ever,
but only those who took part were hurt in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...decisions import Option
from ...rules.fiction import pursuit_parts
from ...rules.participants import from_character

if TYPE_CHECKING:
    from ...events import Chance
    from ...rules.character import Character
    from ...rules.conflict_types import ConflictType
    from .engine import Game

#: What one assisting PC adds to the rolls of the participant they assist, and the most assistance adds.
ASSIST_BONUS = 20
MAX_ASSIST = 40
#: The answers of the ``lineup`` and ``part`` questions.
EVERYONE, CHOOSE = "all", "choose"
TAKE_PART, ASSIST, SIT_OUT = "in", "assist", "out"


@dataclass(frozen=True)
class Roles:
    """The party's answer: who rolls in the conflict, and whom each assistant helps (by PC name)."""

    taking_part: tuple[str, ...]
    assists: tuple[tuple[str, str], ...] = ()  # (assistant, the participant helped)
    driver: str | None = None  # with a vehicle: the one participant, at the wheel

    def helpers(self, name: str) -> list[str]:
        return [a for a, whom in self.assists if whom == name]

    def bonus_for(self, name: str) -> int:
        """What assistance adds to ``name``'s rolls: :data:`ASSIST_BONUS` an assistant, at most :data:`MAX_ASSIST`."""
        return min(MAX_ASSIST, ASSIST_BONUS * len(self.helpers(name)))

    def to_dict(self, party: Sequence[str]) -> dict[str, object]:
        helping = {a for a, _ in self.assists}
        return {"taking_part": list(self.taking_part), "assists": {a: whom for a, whom in self.assists},
                "sitting_out": [n for n in party if n not in self.taking_part and n not in helping],
                "driver": self.driver}


def everyone(pcs: Sequence[Character]) -> Roles:
    return Roles(tuple(pc.name for pc in pcs))


def default_roles(pcs: Sequence[Character], ctype: ConflictType, vehicle: str | None) -> Roles:
    """The line-up when nobody is asked (a look ahead such as ``solo prove``): everyone takes part, or with a
    vehicle the best at the conflict's skill drives and the others assist the driver."""
    if not vehicle or len(pcs) < 2:
        return everyone(pcs)
    driver = max(pcs, key=lambda pc: _target(pc, ctype)).name
    return Roles((driver,), tuple((pc.name, driver) for pc in pcs if pc.name != driver), driver)


def ask_roles(game: Game, ctype: ConflictType, vehicle: str | None = None, pursuer: str = "a") -> Roles:
    """Ask the party who takes part (nobody is asked when one PC is playing) and say so in a ``conflict_roles``
    event; with a ``vehicle`` one PC drives and the others only assist or ride along. A party run down on foot
    (the quarry of a chase, ``pursuer`` "b") is not asked, from play's edition 5: the hunt comes for each of them,
    and a hot-seat group's PC at BODY -11 "sat out" the dead's chase to the river, safe."""
    pcs = game.state.pcs
    if len(pcs) < 2:
        return everyone(pcs)
    if not vehicle and game.edition >= 5 and pursuit_parts(ctype, {"pursuer": pursuer}).get("a") == "quarry":
        return everyone(pcs)
    what = ctype.name
    driver = None
    if vehicle:
        driver = game.ask("who", f"Who drives {vehicle}?",
                          [Option(pc.name, pc.name, chance=_base_chance(game, pc, ctype)) for pc in pcs])
        taking = [driver]
    elif game.ask("lineup", f"Who takes part? ({what})",
                  [Option(EVERYONE, "Everyone takes part"),
                   Option(CHOOSE, "Say who takes part, who assists and who sits out")], default=EVERYONE) == EVERYONE:
        roles = everyone(pcs)
        game.emit("conflict_roles", type=ctype.key, **roles.to_dict([pc.name for pc in pcs]))
        return roles
    else:
        taking = []
    helping = []
    drafted = None
    for i, pc in enumerate(pcs):
        if pc.name == driver:
            continue
        if not taking and i == len(pcs) - 1:  # somebody has to: the last one asked takes part, and is told why
            taking.append(pc.name)  # (a hot-seat group's run: Bo's player was never asked, with no word of it)
            drafted = pc.name
            continue
        options = [] if vehicle else [Option(TAKE_PART, "Take part", chance=_base_chance(game, pc, ctype))]
        options.append(Option(ASSIST, f"Assist {driver}" if driver else "Assist",
                              f"+{ASSIST_BONUS} % to {'the driver' if driver else 'a participant'}'s rolls; "
                              "no roll, no harm"))
        options.append(Option(SIT_OUT, "Ride along" if vehicle else "Sit it out", "no roll, no harm, no help"))
        answer = game.ask("part", f"What do you do? ({what})", options, actor=pc.name)
        if answer == TAKE_PART:
            taking.append(pc.name)
        elif answer == ASSIST:
            helping.append(pc.name)
    assists = []
    by_name = {pc.name: pc for pc in pcs}
    for name in helping:
        if len(taking) == 1:
            assists.append((name, taking[0]))
            continue
        whom = game.ask("assist", f"Whom does {name} assist?",
                        [Option(n, n, chance=_base_chance(game, by_name[n], ctype)) for n in taking], actor=name)
        assists.append((name, whom))
    roles = Roles(tuple(n for n in (pc.name for pc in pcs) if n in taking), tuple(assists), driver)
    game.emit("conflict_roles", type=ctype.key, **roles.to_dict([pc.name for pc in pcs]),
              **({"drafted": drafted} if drafted else {}))
    return roles


def _target(pc: Character, ctype: ConflictType) -> int:
    """The PC's conflict skill as the conflict will roll it before any Lens (the participant's own number)."""
    return from_character(pc, "a", ctype).base_target()


def _base_chance(game: Game, pc: Character, ctype: ConflictType) -> Chance:
    """:func:`_target` as a menu shows it, numbered by ``game`` and taken apart where a Focus or a wound moves it, as
    the Lens menu's are ("50 % = Cunning 30 · //Lockpicking +20": "Cunning 50 %" read as the bare skill, a group's
    evening)."""
    p = from_character(pc, "a", ctype)
    _, parts = p.base_parts()
    return game.chance(pc.name, ctype.skill, p.base_target(), parts)
