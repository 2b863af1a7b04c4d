"""The one game state: everything a save needs besides the seed and the decisions.

It round-trips through plain JSON (``to_dict``/``from_dict``); a test guards
that round trip so no field is ever forgotten.
"""

from __future__ import annotations

import copy as _copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...rules.character import Character

if TYPE_CHECKING:
    from ...npc.model import NPC
    from ...oracle import OracleState

STATE_VERSION = 1


def _new_oracle() -> OracleState:
    from ...oracle import OracleState

    return OracleState()


@dataclass
class GameState:
    adventure: str
    party: list[Character] = field(default_factory=list)
    scene: str | None = None
    active: int = 0  # which PC acts when a scene does not ask
    flags: dict[str, bool] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    items: list[str] = field(default_factory=list)
    visited: dict[str, int] = field(default_factory=dict)
    taken: list[str] = field(default_factory=list)  # "scene/choice" of once-only choices taken
    chosen: dict[str, int] = field(default_factory=dict)  # "scene/name" -> times taken, for chosen()
    npcs: dict[str, NPC] = field(default_factory=dict)
    npc_status: dict[str, str] = field(default_factory=dict)
    # npc id -> the type of the conflict its status comes from ("social"): how the status reads (knowledge.py)
    npc_conflict: dict[str, str] = field(default_factory=dict)
    memory: dict[str, list[str]] = field(default_factory=dict)  # npc id -> what the PCs did to it
    regard: dict[str, float] = field(default_factory=dict)  # npc id -> regard not yet turned into a shift
    removed: dict[str, str] = field(default_factory=dict)  # PC name -> "comae" / "death"
    oracle: OracleState = field(default_factory=_new_oracle)
    ending: str | None = None
    notes: list[str] = field(default_factory=list)
    luck_used: dict[str, int] = field(default_factory=dict)  # "contact" / "find" -> times spent at the prompt
    # what the PCs know of each NPC whose knowledge changed in play (npc id -> facets, solo.story.play.knowledge);
    # an NPC not here is known as its adventure says at the start
    known: dict[str, list[str]] = field(default_factory=dict)
    clues: list[str] = field(default_factory=list)  # lines the story marked as learned (``learn``), in order
    # how the scene in play has gone for the PCs so far: +1 a success or a win, -1 a failure or a loss (the
    # tension at its end follows it, docs/oracle.md); not in a snapshot: a loaded game's replay rebuilds it
    went: int = 0

    @property
    def pcs(self) -> list[Character]:
        """PCs still in the scenario."""
        removed = self.removed
        return [pc for pc in self.party if pc.name not in removed] if removed else self.party[:]

    def active_pc(self) -> Character | None:
        pcs = self.pcs
        if not pcs:
            return None
        if self.active >= len(self.party) or self.party[self.active].name in self.removed:
            self.active = self.party.index(pcs[0])
        return self.party[self.active]

    def copy(self) -> GameState:
        """A copy that play can change without touching this one: deep in what play changes (containers,
        characters, NPCs, the oracle), sharing strings, numbers and frozen dataclasses, which nothing changes.

        ``solo prove`` copies a state at every step of its search; this is much quicker than ``deepcopy``.
        """
        return _copied(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "adventure": self.adventure,
            "party": [pc.to_dict() for pc in self.party],
            "scene": self.scene,
            "active": self.active,
            "flags": dict(sorted(self.flags.items())),
            "counters": dict(sorted(self.counters.items())),
            "items": list(self.items),
            "visited": dict(sorted(self.visited.items())),
            "taken": list(self.taken),
            "chosen": dict(sorted(self.chosen.items())),
            "npcs": {k: v.to_dict() for k, v in sorted(self.npcs.items())},
            "npc_status": dict(sorted(self.npc_status.items())),
            "npc_conflict": dict(sorted(self.npc_conflict.items())),
            "memory": {k: list(v) for k, v in sorted(self.memory.items())},
            "regard": dict(sorted(self.regard.items())),
            "removed": dict(self.removed),
            "oracle": self.oracle.to_dict(),
            "ending": self.ending,
            "notes": list(self.notes),
            "luck_used": dict(sorted(self.luck_used.items())),
            "known": {k: list(v) for k, v in sorted(self.known.items())},
            "clues": list(self.clues),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from a snapshot; raises ValueError (naming the field) if it is damaged."""
        from ...errors import ContentError
        from ...npc import NPC
        from ...oracle import OracleState

        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise ValueError(f"not a game state of version {STATE_VERSION}")
        try:
            state = cls(adventure=str(data["adventure"]))
            state.party = [Character.from_dict(pc) for pc in data["party"]]
            state.scene = data["scene"]
            state.active = int(data["active"])
            state.flags = {str(k): bool(v) for k, v in data["flags"].items()}
            state.counters = {str(k): int(v) for k, v in data["counters"].items()}
            state.items = [str(x) for x in data["items"]]
            state.visited = {str(k): int(v) for k, v in data["visited"].items()}
            state.taken = [str(x) for x in data["taken"]]
            state.chosen = {str(k): int(v) for k, v in data.get("chosen", {}).items()}  # saves before it had none
            state.npcs = {k: NPC.from_form(v) for k, v in data["npcs"].items()}
            state.npc_status = {str(k): str(v) for k, v in data["npc_status"].items()}
            # snapshots from before it was kept: a status read without the kind of conflict it came from
            state.npc_conflict = {str(k): str(v) for k, v in data.get("npc_conflict", {}).items()}
            state.memory = {str(k): [str(x) for x in v] for k, v in data["memory"].items()}
            state.regard = {str(k): float(v) for k, v in data.get("regard", {}).items()}
            state.removed = {str(k): str(v) for k, v in data["removed"].items()}
            if data["oracle"] is not None:
                state.oracle = OracleState.from_dict(data["oracle"])
            state.ending = data["ending"]
            state.notes = [str(x) for x in data["notes"]]
            state.luck_used = {str(k): int(v) for k, v in data.get("luck_used", {}).items()}
            # saves from before knowledge was kept: every NPC as its adventure starts it, no clues
            state.known = {str(k): [str(x) for x in v] for k, v in data.get("known", {}).items()}
            state.clues = [str(x) for x in data.get("clues", [])]
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"damaged game state: {exc!r}") from None
        except ContentError as exc:
            raise ValueError(f"damaged game state: {exc}") from None
        return state


#: The types a copy shares as they are, told by their exact type in the containers' loops (a call saved each).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _copied(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    plain = _PLAIN
    if isinstance(value, dict):
        return {k: v if type(v) in plain else _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in plain else _copied(v) for v in value]
    if isinstance(value, set):
        return {_copied(v) for v in value}
    if isinstance(value, (tuple, frozenset)):
        return value
    if isinstance(value, Character):  # the party and the NPCs: their own copy, container by container
        return value.duplicate()
    params = getattr(type(value), "__dataclass_params__", None)
    if params is not None and params.frozen:
        return value
    if hasattr(value, "__dict__"):
        new = _copy.copy(value)
        for name, v in vars(value).items():
            if not isinstance(v, (str, int, float, bool)) and v is not None:
                object.__setattr__(new, name, _copied(v))
        return new
    return _copy.deepcopy(value)
