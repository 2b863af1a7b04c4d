"""What decides the story: the state a search tells apart, read off the adventure's own conditions.

Two games whose conditions would all read the same values, in the same
scene, with the same once-only choices spent, the same party and the same
NPC dispositions, have the same futures as far as the story goes; the
search keeps one of them. Every name and function call any condition of the
adventure makes (choice, effect, route, text) is an *atom*, and the state's
key is the value of every atom, so a function the condition language gains
later is told apart without this module knowing it.

Counts that only grow (visits, choices taken, Luck uses, counters no effect
ever lowers) are kept exactly up to one past the largest number any
condition names and merged above it: a condition that compares such a count
with a number cannot tell those values apart. A counter some effect lowers
is kept exactly. Everything else (Pools, Luck, skills, NPC Pools and memory,
notes, the oracle's lists) is not part of the key: see docs/proving.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from .expressions import Condition, _eval
from .npcs import disposition_of

if TYPE_CHECKING:
    from .adventure import Adventure
    from .engine import Game

#: Calls whose value only ever grows in a game: safe to merge above the cap.
GROWING_CALLS = frozenset({"visits", "visited", "chosen", "used_luck"})
#: The deepest the walk over an adventure's objects goes (they nest a few levels; this is a guard).
MAX_WALK_DEPTH = 40


def conditions_of(adventure: Adventure) -> list[Condition]:
    """Every condition written anywhere in the adventure, found by walking its objects."""
    found: dict[int, Condition] = {}
    seen: set[int] = set()

    def walk(obj: Any, depth: int) -> None:
        if depth > MAX_WALK_DEPTH or id(obj) in seen:
            return
        if isinstance(obj, Condition):
            found[id(obj)] = obj
            return
        if isinstance(obj, (str, int, float, bool)) or obj is None:
            return
        seen.add(id(obj))
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            for f in dataclasses.fields(obj):
                walk(getattr(obj, f.name), depth + 1)
        elif isinstance(obj, dict):
            for v in obj.values():
                walk(v, depth + 1)
        elif isinstance(obj, (list, tuple, set, frozenset)):
            for v in obj:
                walk(v, depth + 1)

    walk(adventure, 0)
    return list(found.values())


def _atoms(tree: tuple, out: dict[tuple, None]) -> None:
    kind = tree[0]
    if kind == "name" or (kind == "call" and tree[1] not in ("min", "max")):
        out[tree] = None
        return
    for part in tree[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            _atoms(part, out)
        elif isinstance(part, tuple):
            for p in part:
                if isinstance(p, tuple) and p and isinstance(p[0], str):
                    _atoms(p, out)


def _numbers(tree: tuple) -> list[int]:
    out = []
    if tree[0] == "num" and isinstance(tree[1], (int, float)):
        out.append(int(tree[1]))
    for part in tree[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            out += _numbers(part)
        elif isinstance(part, tuple):
            for p in part:
                if isinstance(p, tuple) and p and isinstance(p[0], str):
                    out += _numbers(p)
    return out


def lowered_counters(adventure: Adventure) -> set[str]:
    """Counters some ``add`` effect lowers: their values are kept exactly."""
    out: set[str] = set()
    seen: set[int] = set()

    def walk(obj: Any) -> None:
        if id(obj) in seen or isinstance(obj, (str, int, float, bool)) or obj is None:
            return
        seen.add(id(obj))
        kind = getattr(obj, "kind", None)
        args = getattr(obj, "args", None)
        if kind == "add" and isinstance(args, dict):
            by = args.get("by", 1)
            if not isinstance(by, int) or by < 0:
                out.add(str(args.get("add")))
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            for f in dataclasses.fields(obj):
                walk(getattr(obj, f.name))
        elif isinstance(obj, dict):
            for v in obj.values():
                walk(v)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                walk(v)

    walk(adventure)
    return out


@dataclasses.dataclass(frozen=True)
class Atom:
    tree: tuple
    grows: bool  # only ever grows: merged above the cap

    @property
    def text(self) -> str:
        """How a person would write it: ``clues``, ``visits("registry")``."""
        if self.tree[0] == "name":
            return str(self.tree[1])
        args = ", ".join(repr(a[1]) if a[0] == "str" else str(a[1]) if a[0] in ("num", "bool") else "…"
                         for a in self.tree[2])
        return f"{self.tree[1]}({args})".replace("'", '"')


class Reads:
    """The atoms of an adventure's conditions and the cap above which growing counts merge."""

    def __init__(self, adventure: Adventure):
        found: dict[tuple, None] = {}
        numbers = [0]
        for condition in conditions_of(adventure):
            _atoms(condition.tree, found)
            numbers += _numbers(condition.tree)
        lowered = lowered_counters(adventure)
        self.cap = max(abs(n) for n in numbers) + 1
        self.atoms = [Atom(t, _grows(t, lowered)) for t in found]

    def values(self, game: Game) -> tuple[Hashable, ...]:
        ctx = game.context()
        out: list[Hashable] = []
        for atom in self.atoms:
            try:
                value = _eval(atom.tree, ctx)
            except (ValueError, TypeError, KeyError):
                value = None
            if atom.grows and isinstance(value, int) and not isinstance(value, bool) and value > self.cap:
                value = self.cap
            out.append(value if isinstance(value, Hashable) else repr(value))
        return tuple(out)

    def key(self, game: Game) -> tuple[Hashable, ...]:
        """The state as far as the story can tell: scene, atoms, spent choices, party, dispositions."""
        s = game.state
        dispositions = tuple(sorted((nid, disposition_of(npc)) for nid, npc in s.npcs.items()))
        return (s.scene, self.values(game), tuple(sorted(s.taken)), tuple(sorted(s.removed)), s.active,
                dispositions)

    def describe(self, game: Game) -> dict[str, Any]:
        """The atoms' values by how a person writes them, for a report."""
        return {a.text: v for a, v in zip(self.atoms, self.values(game))}


def _grows(tree: tuple, lowered: set[str]) -> bool:
    if tree[0] == "name":
        return tree[1] not in lowered
    if tree[0] == "call" and tree[1] in GROWING_CALLS:
        return True
    if tree[0] == "call" and tree[1] == "counter":
        args = tree[2]
        return len(args) == 1 and args[0][0] == "str" and args[0][1] not in lowered
    return False
