"""NPCs as a game sees them: their disposition, what they remember, how they recover, the mind that plays them.

The disposition lives in the NPC's Code Block; effects, conditions, social
rolls, conflicts and open play all read and move it through here. How an
NPC gets its Pools back is the adventure's ``recovers`` field on the NPC.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...npc.disposition import disposition_of
from ...rules.escalation import recover
from ...rules.outcomes import COMAE

if TYPE_CHECKING:
    import random

    from ...decisions import Decider
    from ...events import Sink
    from ...npc.model import NPC
    from .engine import Game

#: How an adventure's NPC gets its Pools back (its ``recovers`` field): with a night's sleep, as the
#: PCs do (docs/rules.md §5.5), fully whenever the story moves to another scene, or never.
RECOVERY = ("night", "scene", "never")
RECOVERY_DEFAULT = "night"
#: Fields an adventure's NPC may have besides those of the NPC format (docs/npcs.md).
STORY_FIELDS = ("recovers", "seen", "known", "secret")


def npc_fields(data: dict) -> dict:
    """An adventure's NPC table without the fields that belong to the story, for :meth:`NPC.from_dict`."""
    return {k: v for k, v in data.items() if k not in STORY_FIELDS}


def recovers(game: Game, nid: str) -> str:
    """How the NPC recovers: as its adventure says, else with a night's sleep (open play's NPCs too)."""
    npc_def = game.adventure.npcs.get(nid)
    return npc_def.data.get("recovers", RECOVERY_DEFAULT) if npc_def is not None else RECOVERY_DEFAULT


def refill(game: Game, nid: str) -> None:
    """Every Pool of the NPC back to its maximum; an NPC in comae stays out of the scenario (§5.5)."""
    if game.state.npc_status.get(nid) == COMAE:
        return
    npc = game.state.npcs[nid]
    change = {}
    for name, pool in npc.pools.items():
        if pool.current != pool.maximum:
            change[name] = pool.maximum - pool.current
            pool.current = pool.maximum
    if change:
        game.emit("rest", actor=npc.name, npc=nid, change=change)


def rest_npcs(game: Game, days: int) -> None:
    """The PCs rest, and so does everyone who recovers with sleep (or between scenes): the rules of §5.5."""
    for nid, npc in game.state.npcs.items():
        if recovers(game, nid) == "never" or game.state.npc_status.get(nid) == COMAE:
            continue
        change = recover(npc, days=days, slept=True)
        if change:
            game.emit("rest", actor=npc.name, npc=nid, change=change)


def between_scenes(game: Game) -> None:
    """The story moves to another scene: NPCs that recover between scenes are fresh again."""
    for nid in game.state.npcs:
        if recovers(game, nid) == "scene":
            refill(game, nid)


def set_disposition(npc: NPC, value: str) -> None:
    """A mindless creature has no Code Block, so no disposition to move."""
    if npc.code_block is not None:
        npc.code_block = replace(npc.code_block, disposition=value)


def remember(game: Game, nid: str, deed: str) -> None:
    """The NPC remembers what the PCs did; enough regard either way moves its disposition a rung."""
    from ...minds.memory import NPCMemory

    s = game.state
    npc = s.npcs[nid]
    memory = NPCMemory.of_deeds(npc.name, s.memory.get(nid, []), disposition=disposition_of(npc))
    memory.records[npc.name].regard = s.regard.get(nid, 0.0)
    shift = memory.record(npc, deed)
    s.memory.setdefault(nid, []).append(deed)
    s.regard[nid] = shift.regard
    game.emit("memory", npc=nid, event=deed)
    if shift.after != shift.before:
        from .knowledge import called, learn

        set_disposition(npc, shift.after)
        learn(game, nid, "disposition")  # the players are told it
        game.emit("disposition", npc=nid, name=called(game, nid), before=shift.before, after=shift.after)


def default_mind(npc: NPC, rng: random.Random, *, memory: list[str] | None = None,
                 sink: Sink | None = None, edition: int | None = None) -> Decider | None:
    """The NPC's mind from its Code Block (solo.minds.npc), or plain rolls if minds are unavailable; ``edition``:
    the edition of play the game is played by (a mindless creature showed off before the 7th)."""
    try:
        from ...minds.npc import NPCMind
    except ImportError:  # pragma: no cover - only while the minds module is missing
        return None
    return NPCMind(npc, rng, memory=memory, sink=sink, mindless_flair=edition is not None and edition < 7,
                   old_lenses=edition is not None and edition < 8)
