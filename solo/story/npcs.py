"""NPCs as a game sees them: their disposition, what they remember, the mind that plays them.

The disposition lives in the NPC's Code Block; effects, conditions, social
rolls, conflicts and open play all read and move it through here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..npc.disposition import normalise_disposition

if TYPE_CHECKING:
    import random

    from ..decisions import Decider
    from ..events import Sink
    from ..npc.model import NPC
    from .engine import Game


def disposition_of(npc: NPC) -> str:
    block = npc.code_block
    return normalise_disposition((block.disposition if block is not None else None) or "Neutral")


def set_disposition(npc: NPC, value: str) -> None:
    """A mindless creature has no Code Block, so no disposition to move."""
    if npc.code_block is not None:
        npc.code_block = replace(npc.code_block, disposition=value)


def remember(game: Game, nid: str, deed: str) -> None:
    """The NPC remembers what the PCs did; enough regard either way moves its disposition a rung."""
    from ..minds.memory import NPCMemory

    s = game.state
    npc = s.npcs[nid]
    memory = NPCMemory.of_deeds(npc.name, s.memory.get(nid, []), disposition=disposition_of(npc))
    memory.records[npc.name].regard = s.regard.get(nid, 0.0)
    shift = memory.record(npc, deed)
    s.memory.setdefault(nid, []).append(deed)
    s.regard[nid] = shift.regard
    game.emit("memory", npc=nid, event=deed)
    if shift.after != shift.before:
        set_disposition(npc, shift.after)
        game.emit("disposition", npc=nid, name=npc.name, before=shift.before, after=shift.after)


def default_mind(npc: NPC, rng: random.Random, *, memory: list[str] | None = None,
                 sink: Sink | None = None) -> Decider | None:
    """The NPC's mind from its Code Block (solo.minds.npc), or plain rolls if minds are unavailable."""
    try:
        from ..minds.npc import NPCMind
    except ImportError:  # pragma: no cover - only while the minds module is missing
        return None
    return NPCMind(npc, rng, memory=memory, sink=sink)
