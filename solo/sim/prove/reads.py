"""What decides the story: the state a search tells apart, read off the adventure's own conditions.

Two games whose conditions would all read the same values, in the same
scene, with the same once-only choices spent, the same party and the same
NPC dispositions and NPCs in comae, have the same futures as far as the story goes; the
search keeps one of them. Every name and function call any condition of the
adventure makes (choice, effect, route) is an *atom*, and the state's
key is the value of every atom still live (:mod:`.liveness`), so a function the condition language gains
later is told apart without this module knowing it.

A count that only grows (visits, choices taken, Luck uses, counters no
effect ever lowers) and that every condition only compares with a number is
kept exactly up to one past the largest number it is compared with, and
merged above it: those comparisons cannot tell the values apart. A count
compared with another count or used in arithmetic (``brass > iron``,
``knocks % 4 == 3``) is kept exactly, as is a counter some effect lowers:
merging those would make a false "never reached". Kept exactly, a count
that grows without end is bounded only by the state limit. Each PC's Luck counts
where a roll or a conflict lies ahead (a flip may turn a roll; a bot's fight spends it), or
where it is below zero. Everything else (Pools,
skills, weapons, NPC Pools and memory, notes, the oracle's lists) is not part
of the key: see docs/proving.md.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ...rules.outcomes import COMAE, OUT
from ...story.format.expressions import CALL_FAILS, Condition, parse_condition, value_function
from ...story.play.chances import spent_for_good
from ...story.play.conditions import disposition_read, pool_read
from ...story.play.npcs import disposition_of

if TYPE_CHECKING:
    from ...story.format.adventure import Adventure
    from ...story.play.engine import Game
    from .liveness import Shape

#: The atoms :meth:`Reads.values` reads straight off the state: a name, and these calls of one literal.
PLAIN_READS = ("name", "has", "visited", "visits", "chosen", "flag", "counter", "pool", "pool_max", "disposition")
#: The plain reads of a game's state that are the condition language's own functions (story/play/conditions.py).
_STATE_READS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("pool", pool_read), ("pool_max", lambda s, name: pool_read(s, name, True)), ("disposition", disposition_read))
#: Calls whose value only ever grows in a game: safe to merge above the cap.
GROWING_CALLS = frozenset({"visits", "visited", "chosen", "used_luck"})
#: The actions whose chances a PC's Luck moves (:attr:`Reads.luck_ahead`).
LUCK_READERS = frozenset({"roll", "opposed", "conflict"})
#: States whose shape (:class:`~.liveness.Shape`) is kept by their unreduced digest before the cache starts afresh.
MAX_SHAPES = 400_000
#: The deepest the walk over an adventure's objects goes (they nest a few levels; this is a guard).
MAX_WALK_DEPTH = 40


def conditions_of(adventure: Any) -> list[Condition]:
    """Every condition written anywhere in the adventure (or any part of it), found by walking its objects."""
    return list({id(c): c for c in _every(Condition, adventure)}.values())


def _every(kind: type, obj: Any) -> Iterator[Any]:
    """Every object of ``kind`` among ``obj``'s objects (dataclass fields, dict keys and values, members of
    lists, tuples and sets), in the order met, each container walked once."""
    seen: set[int] = set()

    def walk(o: Any, depth: int) -> Iterator[Any]:
        if isinstance(o, kind):
            yield o
            return
        if depth > MAX_WALK_DEPTH or id(o) in seen or isinstance(o, (str, int, float, bool)) or o is None:
            return
        seen.add(id(o))
        if dataclasses.is_dataclass(o) and not isinstance(o, type):
            for f in dataclasses.fields(o):
                yield from walk(getattr(o, f.name), depth + 1)
        elif isinstance(o, dict):
            for k, v in o.items():
                yield from walk(k, depth + 1)
                yield from walk(v, depth + 1)
        elif isinstance(o, (list, tuple, set, frozenset)):
            for v in o:
                yield from walk(v, depth + 1)

    return walk(obj, 0)


def _constant(node: tuple) -> float | None:
    """The number a node is when it is only a number (``3``, ``-3``), else None."""
    if node[0] == "num" and isinstance(node[1], (int, float)) and not isinstance(node[1], bool):
        return node[1]
    if node[0] == "neg":
        inner = _constant(node[1])
        return None if inner is None else -inner
    return None


def _is_atom(node: tuple) -> bool:
    return node[0] == "name" or (node[0] == "call" and node[1] not in ("min", "max"))


def _children(node: tuple) -> list[tuple]:
    out = []
    for part in node[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            out.append(part)
        elif isinstance(part, tuple):
            out += [p for p in part if isinstance(p, tuple) and p and isinstance(p[0], str)]
    return out


def _uses(node: tuple, out: dict[tuple, list[float | None]], use: float | None) -> None:
    """Each atom of ``node`` and how it is used: the constant it is compared with, 0 where only its truth
    counts, None for any other use (compared with another count, in ``+ - * / %``, an argument)."""
    kind = node[0]
    if _is_atom(node):
        out.setdefault(node, []).append(use)
        for arg in _children(node):  # a call's arguments are read as arguments
            _uses(arg, out, None)
        return
    if kind == "cmp":
        left, right = node[2], node[3]
        _uses(left, out, _constant(right))
        _uses(right, out, _constant(left))
        return
    truth = kind in ("and", "or", "not")
    for child in _children(node):
        _uses(child, out, 0 if truth else None)


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
    cap: int | None  # values above it are one state (it only grows and is only compared with numbers); None: exact

    @property
    def text(self) -> str:
        """How a person would write it: ``clues``, ``visits("registry")``."""
        if self.tree[0] == "name":
            return str(self.tree[1])
        args = ", ".join(repr(a[1]) if a[0] == "str" else str(a[1]) if a[0] in ("num", "bool") else "…"
                         for a in self.tree[2])
        return f"{self.tree[1]}({args})".replace("'", '"')


class Reads:
    """The atoms of an adventure's conditions, each with the cap above which its values merge (or none), and
    which of them a state can still read (dead-variable elimination, docs/proving.md).

    An atom is *live* at a state's menu when a condition the story ahead may still evaluate reads it before
    anything sets it again (:mod:`.liveness`: the scenes ahead, the conditions settled for good, the values
    overwritten first); a dead atom is left out of the state's key, as are the dispositions and comae of NPCs
    no scene ahead names. Two states that differ only in what nothing ahead can read have the same future.
    """

    def __init__(self, adventure: Adventure, *, reduce: bool | Iterable[str] = True):
        from .liveness import REDUCTIONS, Liveness

        #: The reductions of the key (:data:`~.liveness.REDUCTIONS`); none: every atom counts everywhere (a test
        #: compares the searches)
        self.reductions = (REDUCTIONS if reduce is True else frozenset() if reduce is False
                           else frozenset(reduce))
        unknown = self.reductions - REDUCTIONS
        if unknown:
            raise ValueError(f"unknown reductions {sorted(unknown)}: choose among {sorted(REDUCTIONS)}")
        self.reduce = bool(self.reductions)
        found: dict[tuple, list[float | None]] = {}
        in_scenes: set[int] = set()
        for scene in adventure.scenes.values():
            for condition in conditions_of(scene):
                in_scenes.add(id(condition))
                _uses(condition.tree, found, 0)
        everywhere: dict[tuple, list[float | None]] = {}
        for condition in conditions_of(_outside_scenes(adventure)):
            _uses(condition.tree, found, 0)
            if id(condition) not in in_scenes:
                _uses(condition.tree, everywhere, 0)
        # the engine reads how often a choice with a retry cost was taken (the cost falls due from the second time)
        retried: dict[int, tuple] = {}
        for sid, scene in adventure.scenes.items():
            for choice in scene.choices:
                if choice.retry_cost:
                    quoted = f"{sid}/{choice.name or choice.key}".replace("\\", "\\\\").replace('"', '\\"')
                    tree = parse_condition(f'chosen("{quoted}")').tree
                    found.setdefault(tree, []).append(0)
                    retried[id(choice)] = tree
        lowered = lowered_counters(adventure)
        self.atoms = [Atom(tree, _cap(uses) if _grows(tree, lowered) else None) for tree, uses in found.items()]
        index = {a.tree: i for i, a in enumerate(self.atoms)}
        self.ahead = scenes_ahead(adventure)
        if "ahead" not in self.reductions:
            every = frozenset(adventure.scenes)
            self.ahead = dict.fromkeys(adventure.scenes, every)
        #: The scenes from which a skill roll, an opposed roll or a conflict lies ahead: there a PC's Luck counts (a
        #: flip may turn a roll; a conflict fought as a bot fights it spends Luck, and an opposed roll escalates).
        spends = {sid for sid, scene in adventure.scenes.items()
                  if any(c.action is not None and c.action.kind in LUCK_READERS for c in scene.choices)}
        self.luck_ahead = {sid: bool(spends & ahead) for sid, ahead in self.ahead.items()}
        npc_ids = set(adventure.npcs)
        named = {sid: frozenset(_strings(scene) & npc_ids) for sid, scene in adventure.scenes.items()}
        named_anywhere = frozenset(_strings(_outside_scenes(adventure)) & npc_ids)
        always = 0
        for tree in everywhere:
            always |= 1 << index[tree]
        self.liveness = Liveness(adventure, [a.tree for a in self.atoms], conditions_of(adventure), self.ahead,
                                 self.reductions, always, named, named_anywhere,
                                 {cid: 1 << index[tree] for cid, tree in retried.items()}) if self.reduce else None
        #: How :meth:`values` reads each atom: the plain ones per kind as (position, name), the rest through
        #: the condition language's context as (position, read), and the capped ones as (position, cap).
        self._by_kind: dict[str, list[tuple[int, str]]] = {kind: [] for kind in PLAIN_READS}
        self._through: list[tuple[int, Callable[[Any], Any]]] = []
        for i, atom in enumerate(self.atoms):
            kind, arg = _plain_read(atom.tree)
            if kind is None:
                self._through.append((i, value_function(atom.tree)))
            else:
                self._by_kind[kind].append((i, arg))
        self._capped = [(i, atom.cap) for i, atom in enumerate(self.atoms) if atom.cap is not None]
        #: Distinct states before the reduction, as digests: what the search would tell apart without it.
        self.unreduced: set[bytes] = set()
        self._shapes: dict[bytes, Shape] = {}  # a state's digest before the reduction -> its shape

    def values(self, game: Game) -> tuple[Hashable, ...]:
        """Every atom's value in ``game`` (capped), as the engine's conditions read it. The plainest atoms (a
        name, ``has``, ``visited``, ``visits``, ``chosen``, ``flag``, ``counter``, ``pool``, ``pool_max``,
        ``disposition`` of a literal) are read straight off the state as
        :func:`~solo.story.play.conditions.context_of` reads them, kind by kind (each kind's atoms in one loop: a
        search reads them for every state it meets; through the context, the Pools and dispositions were most of
        this); the rest through it."""
        s = game.state
        out: list[Hashable] = [None] * len(self.atoms)
        counters, flags, visited, chosen = s.counters, s.flags, s.visited, s.chosen
        plain = self._by_kind
        for i, arg in plain["name"]:
            out[i] = counters[arg] if arg in counters else flags.get(arg, False)
        if plain["has"]:
            items = set(s.items)
            for i, arg in plain["has"]:
                out[i] = arg in items
        for i, arg in plain["visited"]:
            out[i] = visited.get(arg, 0) > 0
        for i, arg in plain["visits"]:
            out[i] = visited.get(arg, 0)
        for i, arg in plain["chosen"]:
            out[i] = chosen.get(arg, 0)
        for i, arg in plain["flag"]:
            out[i] = flags.get(arg, False)
        for i, arg in plain["counter"]:
            out[i] = counters.get(arg, 0)
        # the condition language's own functions, without the context built around them (most of this, before)
        for kind, read in _STATE_READS:
            for i, arg in plain[kind]:
                try:
                    out[i] = read(s, arg)
                except CALL_FAILS:  # as the call reads a function that fails on its argument
                    out[i] = 0
        if self._through:
            ctx = game.context()
            for i, read in self._through:
                try:
                    value = read(ctx)
                except (ValueError, TypeError, KeyError):
                    value = None
                out[i] = value if isinstance(value, Hashable) else repr(value)
        for i, cap in self._capped:
            value = out[i]
            if isinstance(value, int) and not isinstance(value, bool) and value > cap:
                out[i] = cap
        return tuple(out)

    def key(self, game: Game) -> bytes:
        """The state as far as the story ahead can tell, hashed: scene, what is settled ahead and the atoms
        still live there (:mod:`.liveness`), the party, the dispositions and comae of the NPCs the scenes ahead
        name. The digest of the same state without the reduction is counted in :attr:`unreduced`."""
        s = game.state
        values = self.values(game)
        dispositions = tuple(sorted((nid, disposition_of(npc)) for nid, npc in s.npcs.items()))
        # An NPC's status counts where a condition reads it (an atom) and where the engine does: one in comae
        # fights no more, nor one spent for good (out, and never recovering: chances.spent_for_good). Keying every
        # status would split states nothing tells apart.
        gone = tuple(sorted((nid, spent) for nid, status in s.npc_status.items()
                            if (spent := ("comae",) if status == COMAE else
                                spent_for_good(game, nid) if status == OUT else ())))
        luck = tuple(pc.luck for pc in s.party)
        party: tuple = (tuple(sorted(s.removed.items())), s.active, luck)
        full = digest((s.scene, values, tuple(sorted(s.taken)), party, dispositions, gone))
        self.unreduced.add(full)
        if self.liveness is None or (s.scene or "") not in self.ahead:
            return full  # no reduction, or not a scene of the adventure (an error's state)
        if not self.luck_ahead[s.scene or ""] and min(luck, default=0) >= 0:  # (a debt falls due in any roll)
            party = party[:2]
        shape = self._shapes.get(full)  # a state met before (by another way): its shape is known
        if shape is None:
            if len(self._shapes) >= MAX_SHAPES:
                self._shapes.clear()
            shape = self._shapes[full] = self.liveness.shape(s.scene or "", values)[0]
        npcs = shape.npcs
        return digest((s.scene, shape.ident, tuple(values[i] for i in shape.live), party,
                       tuple(d for d in dispositions if d[0] in npcs), tuple(n for n in gone if n[0] in npcs)))

    def live(self, game: Game) -> list[str]:
        """The atoms the key of ``game``'s state holds, by how a person writes them (for a report or a test)."""
        if self.liveness is None or (game.state.scene or "") not in self.ahead:
            return [a.text for a in self.atoms]
        shape, _ = self.liveness.shape(game.state.scene or "", self.values(game))
        return [self.atoms[i].text for i in shape.live]

    def describe(self, game: Game) -> dict[str, Any]:
        """The atoms' values by how a person writes them, for a report."""
        return {a.text: v for a, v in zip(self.atoms, self.values(game))}


def _plain_read(tree: tuple) -> tuple[str | None, str]:
    """How :meth:`Reads.values` reads an atom straight off the state: (kind, name), or (None, "") through the
    condition language's context."""
    if tree[0] == "name":
        return ("name", str(tree[1]))
    args: tuple = tree[2] if tree[0] == "call" and len(tree) > 2 else ()
    if tree[1] in PLAIN_READS[1:] and len(args) == 1 \
            and args[0][0] == "str":
        return (str(tree[1]), str(args[0][1]))
    return (None, "")


def digest(value: Hashable) -> bytes:
    """A state's key as 16 bytes: the index of a search holds these, not the values."""
    return hashlib.blake2b(repr(value).encode(), digest_size=16).digest()


def _outside_scenes(adventure: Adventure) -> dict[str, Any]:
    """The adventure's parts that belong to no scene (shared responses, templates …): read from anywhere."""
    return {f.name: getattr(adventure, f.name) for f in dataclasses.fields(adventure)
            if f.name not in ("scenes", "npcs")}


def _strings(obj: Any) -> set[str]:
    """Every string value in ``obj``'s objects (an NPC's id where an action, a list or an effect names it)."""
    return set(_every(str, obj))


def scenes_ahead(adventure: Adventure) -> dict[str, frozenset[str]]:
    """Each scene -> the scenes the story can go on to from it, itself included (every branch's ``goto``,
    route, outcome and escalation, as :func:`~solo.story.format.graph.edges` draws them)."""
    from ...story.format.graph import edges

    graph = {sid: {t for _, t in out if t in adventure.scenes} for sid, out in edges(adventure).items()}
    ahead: dict[str, frozenset[str]] = {}
    for sid in adventure.scenes:
        seen = {sid}
        todo = [sid]
        while todo:
            for t in graph.get(todo.pop(), ()):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        ahead[sid] = frozenset(seen)
    return ahead


def _cap(uses: list[float | None]) -> int | None:
    """One past the largest number a count is compared with, if every use compares it with a number.

    Above it, ``>``, ``>=``, ``==``, ``!=``, ``<`` and ``<=`` against those numbers all read the same.
    A count used any other way (against another count, in arithmetic) is kept exactly.
    """
    if any(u is None for u in uses):
        return None
    return math.floor(max(u for u in uses if u is not None)) + 1


def _grows(tree: tuple, lowered: set[str]) -> bool:
    if tree[0] == "name":
        return tree[1] not in lowered
    if tree[0] == "call" and tree[1] in GROWING_CALLS:
        return True
    if tree[0] == "call" and tree[1] == "counter":
        args = tree[2]
        return len(args) == 1 and args[0][0] == "str" and args[0][1] not in lowered
    return False
