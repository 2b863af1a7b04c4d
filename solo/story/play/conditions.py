"""What an adventure's conditions read in a game: flags, counters, items, visits, skills, NPCs.

The names of :data:`solo.story.format.expressions.FUNCTIONS` get their meaning here,
from the game state at the moment a choice is offered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...npc.disposition import disposition_modifier
from ...rules.character import skill_target
from ..format.expressions import Context
from .npcs import disposition_of
from .state import GameState


def pool_read(s: GameState, name: str, maximum: bool = False) -> int:
    """``pool(name)`` (``pool_max``): the active PC's Pool, 0 without one (a Pool it has not raises, as a wrong
    argument does; the call reads it as 0). solo prove reads it straight off each state too (prove/reads.py)."""
    pc = s.active_pc()
    if pc is None:
        return 0
    return pc.pools[name].maximum if maximum else pc.pools[name].current


def disposition_read(s: GameState, nid: str) -> int:
    """``disposition(nid)``: the NPC's disposition modifier, 0 for one not in the game."""
    npc = s.npcs.get(nid)
    if npc is None:
        return 0
    return disposition_modifier(disposition_of(npc))


def context_of(s: GameState) -> Context:
    """What a condition reads: names, and the functions of the condition language."""

    def name(n):
        if n in s.counters:
            return s.counters[n]
        return s.flags.get(n, False)

    def best_skill(skill, focus=None):
        return max((skill_target(pc, skill, focus)[0] for pc in s.pcs), default=0)

    def luck():
        pc = s.active_pc()
        return pc.luck if pc is not None else 0

    functions: dict[str, Callable[..., Any]] = {
        "has": lambda item: item in s.items,
        "visited": lambda sid: s.visited.get(sid, 0) > 0,
        "visits": lambda sid: s.visited.get(sid, 0),
        "chosen": lambda name: s.chosen.get(name, 0),
        "flag": lambda n: s.flags.get(n, False),
        "counter": lambda n: s.counters.get(n, 0),
        "skill": best_skill,
        "pool": lambda p: pool_read(s, p),
        "pool_max": lambda p: pool_read(s, p, True),
        "luck": luck,
        "tag": lambda t: any(t in pc.tags for pc in s.pcs),
        "disposition": lambda nid: disposition_read(s, nid),
        "npc_status": lambda nid: s.npc_status.get(nid, ""),
        "used_luck": lambda use: s.luck_used.get(use, 0),
        "tension": lambda: s.oracle.tension,
        "party_size": lambda: len(s.pcs),
        "fallen": lambda: len(s.removed),
        "unarmed": lambda: empty_handed(s.pcs),
    }
    return Context(names=name, functions=functions)


def holds_no_weapon(pc) -> bool:
    """Whether ``pc``'s hands are empty: no weapon, or the gear table's "unarmed" (Martial arts is a weapon of its
    own). One rule for the ``wield`` effect, which arms only such hands, and for ``unarmed()``, which counts them."""
    return pc.weapon in (None, "unarmed")


def empty_handed(pcs) -> int:
    """How many of ``pcs`` hold no weapon (``unarmed()``)."""
    return sum(1 for pc in pcs if holds_no_weapon(pc))
