"""What the story ahead of a state can still read: the analysis behind prove's reduced state key.

Two games at the same menu have the same future when every condition that can still be evaluated reads
the same values in both. :mod:`.reads` tells states apart by the values of the adventure's *atoms* (the
names and calls its conditions read); this module says which atoms still count, and for which state:

* **Scenes ahead.** Only the scenes the story can still get to are read: the scene graph followed from the
  state's scene (every ``goto``, route, outcome and escalation), as :func:`~.reads.scenes_ahead` has it.
* **Settled conditions** (``settled``). Some values only move one way: a flag no effect ahead clears stays
  set, ``visited("dunes")`` stays true, ``chosen("tavern/1")`` and a counter no effect ahead lowers never
  fall, an item no effect ahead takes stays carried, a counter no effect ahead changes stays as it is
  (effects *ahead*: those of the scenes still reachable). A condition that such values decide for good
  (``not visited("dunes") and day == 2`` once the dunes were visited, or on the third day when nothing
  ahead sets ``day`` back to 2) is *settled*: it reads nothing any more, a choice it keeps closed is never
  offered again, and the scenes only such choices lead to drop out of the scenes ahead. Each condition is
  partially evaluated: ``heard_of_hut or has("sketch")`` with ``heard_of_hut`` set for good reads nothing.
* **Overwritten values** (``overwritten``). A value every way ahead sets before anything reads it (``hours``
  on the walk home, when each way to the lodgings sets it to 0) is dead now: a backward liveness analysis
  over the scenes ahead, each effect that surely runs (no ``if``, or one settled true) and sets a flag, a
  counter or an item killing what it sets, every condition reading its atoms.

The key of a state then holds its scene, which conditions ahead are settled and how (a settled condition
stands for its constant, the rest for what is left of them), and the values of the atoms live at its menu.
Two states with the same key run the same program from the same values: the same future, so a search may
keep one of them (docs/proving.md). Each analysis is sound alone and can be switched off for a test to
compare (:data:`REDUCTIONS`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import operator
from array import array
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ...story.format.expressions import Condition, Context, _compiled

if TYPE_CHECKING:
    from ...story.format.adventure import Adventure, Branch, Choice, Effect, Scene

#: The reductions prove's state key makes, each switchable (``prove(reduce=...)``): the scenes the story can
#: still get to, conditions settled for good, and values overwritten before anything reads them.
REDUCTIONS = frozenset({"ahead", "settled", "overwritten"})
#: Conditions worked out per scene and value before the cache starts afresh (memory stays bounded).
MAX_CACHED = 400_000
INF = math.inf

#: How an atom's value can move from now on: None (any way), ("fixed", v), or ("range", lo, hi) for a number.
Domain = tuple | None
#: A partially evaluated condition: ("#", value) when settled, else the tree that is left.
DET = "#"


def is_atom(node: tuple) -> bool:
    return node[0] == "name" or (node[0] == "call" and node[1] not in ("min", "max"))


def atoms_in(node: tuple) -> Iterator[tuple]:
    """Every atom of a tree (a call's arguments too)."""
    if is_atom(node):
        yield node
    for part in node[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            yield from atoms_in(part)
        elif isinstance(part, tuple):
            for p in part:
                if isinstance(p, tuple) and p and isinstance(p[0], str):
                    yield from atoms_in(p)


def _arg(tree: tuple) -> str | None:
    """The one literal text argument of a call (``has("rope")`` -> "rope"), else None."""
    args: tuple = tree[2] if len(tree) > 2 else ()
    if len(args) == 1 and args[0][0] == "str":
        return str(args[0][1])
    return None


@dataclasses.dataclass
class Ahead:
    """What the effects of a set of scenes can do: the counters raised, lowered and set (to which values), the
    flags set and cleared, the items given and taken. From these a value's :data:`Domain` follows."""

    scenes: frozenset[str]
    raised: set[str] = dataclasses.field(default_factory=set)
    lowered: set[str] = dataclasses.field(default_factory=set)
    set_to: dict[str, set[int]] = dataclasses.field(default_factory=dict)
    flags_set: set[str] = dataclasses.field(default_factory=set)
    flags_cleared: set[str] = dataclasses.field(default_factory=set)
    given: set[str] = dataclasses.field(default_factory=set)
    taken: set[str] = dataclasses.field(default_factory=set)
    unknown: bool = False  # an effect whose target is not a plain name (nothing is settled then)

    def add(self, effect: Effect) -> None:
        kind, a = effect.kind, effect.args
        if kind == "set":
            self.flags_set.add(str(a.get("set")))
        elif kind == "clear":
            self.flags_cleared.add(str(a.get("clear")))
        elif kind == "add":
            by = a.get("by", 1)
            if not isinstance(by, int) or isinstance(by, bool):
                self.raised.add(str(a.get("add")))
                self.lowered.add(str(a.get("add")))
            elif by > 0:
                self.raised.add(str(a.get("add")))
            elif by < 0:
                self.lowered.add(str(a.get("add")))
        elif kind == "counter":
            value = a.get("value")
            if isinstance(value, int) and not isinstance(value, bool):
                self.set_to.setdefault(str(a.get("counter")), set()).add(value)
            else:
                self.raised.add(str(a.get("counter")))
                self.lowered.add(str(a.get("counter")))
        elif kind == "give":
            self.given.add(str(a.get("give")))
        elif kind == "take":
            self.taken.add(str(a.get("take")))
        elif _writes(kind):
            self.unknown = True  # a verb that writes a name in a way not modelled here: settle nothing


def _writes(kind: str) -> bool:
    """Whether the effect verb ``kind`` writes a flag, a counter or an item (the registry says so by attribute)."""
    from ...story.play.effects import EFFECTS

    verb = EFFECTS.get(kind)
    return verb is not None and (verb.writes is not None or verb.gives_item)


class Kinds:
    """What each atom is, as far as settling goes: a counter, a flag, a name nothing writes, a visit or choice
    count, an item, or something else (a Pool, a disposition, a status: never settled)."""

    def __init__(self, adventure: Adventure, effects: list[Effect]):
        counters = set(adventure.counters)
        flags = set(adventure.flags)
        for e in effects:
            if e.kind in ("add", "counter"):
                counters.add(str(e.args.get(e.kind)))
            elif e.kind in ("set", "clear"):
                flags.add(str(e.args.get(e.kind)))
        self.counters, self.flags = counters, flags

    def of(self, tree: tuple) -> tuple[str, str]:
        if tree[0] == "name":
            return self._name(str(tree[1]))
        fn, arg = tree[1], _arg(tree)
        if arg is None:
            return ("other", "")
        if fn == "flag":
            return ("flag", arg) if arg not in self.counters else ("other", "")
        if fn == "counter":
            return ("counter", arg) if arg not in self.flags else ("other", "")
        if fn in ("visited", "visits", "chosen", "used_luck"):
            return (fn, arg)
        if fn == "has":
            return ("item", arg)
        return ("other", "")

    def _name(self, name: str) -> tuple[str, str]:
        if name in self.counters and name in self.flags:
            return ("other", "")
        if name in self.counters:
            return ("counter", name)
        if name in self.flags:
            return ("flag", name)
        return ("fixed", name)  # read, never written: it keeps its value


def domain(kind: tuple[str, str], value: Any, ahead: Ahead) -> Domain:
    """How an atom of ``kind``, ``value`` now, can move while the story stays within ``ahead``'s scenes."""
    what, name = kind
    if what == "fixed":
        return ("fixed", value)
    if ahead.unknown:
        return None
    if what == "counter":
        if not isinstance(value, (int, bool)):
            return None
        sets = ahead.set_to.get(name, set())
        if name not in ahead.raised and name not in ahead.lowered and not sets:
            return ("fixed", value)
        now = int(value)
        lo = -INF if name in ahead.lowered else min(now, *sets) if sets else now
        hi = INF if name in ahead.raised else max(now, *sets) if sets else now
        return ("range", lo, hi)
    if what == "flag":
        if value is True and name not in ahead.flags_cleared:
            return ("fixed", True)
        if value is False and name not in ahead.flags_set:
            return ("fixed", False)
        return None
    if what == "item":
        if value is True and name not in ahead.taken:
            return ("fixed", True)
        if value is False and name not in ahead.given:
            return ("fixed", False)
        return None
    if what in ("visited", "visits", "chosen"):
        scene = name.split("/", 1)[0] if what == "chosen" else name
        if scene not in ahead.scenes:
            return ("fixed", value)  # a scene the story cannot get to again: never entered, never chosen in
        if what == "visited":
            return ("fixed", True) if value is True else None
        return ("range", value, INF) if isinstance(value, int) else None
    if what == "used_luck":
        return ("range", value, INF) if isinstance(value, int) else None
    return None


def _const(value: Any) -> tuple | None:
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("num", value)
    if isinstance(value, str):
        return ("str", value)
    return None


_NO_CONTEXT = Context(names=lambda name: None, functions={})


def _value(node: tuple) -> Any:
    return _compiled(node)(_NO_CONTEXT)  # a tree of constants reads no context


def _truth(node: tuple, domains: dict[tuple, Domain]) -> bool | None:
    """Whether a residual is surely true, surely false, or either (None)."""
    if node[0] == DET:
        return bool(node[1])
    if is_atom(node):
        d = domains.get(node)
        if d is not None and d[0] == "range":
            if d[1] > 0 or d[2] < 0:
                return True
            if d[1] == 0 and d[2] == 0:
                return False
    return None


_ORDER = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
          "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _compare_range(op: str, lo: float, hi: float, c: Any) -> bool | None:
    """``x op c`` for every x in [lo, hi]: True, False, or None when it depends."""
    if isinstance(c, bool) or not isinstance(c, (int, float)):
        return None
    if op == "==":
        return False if c < lo or c > hi else (True if lo == hi == c else None)
    if op == "!=":
        return True if c < lo or c > hi else (False if lo == hi == c else None)
    at_lo, at_hi = _ORDER[op](lo, c), _ORDER[op](hi, c)  # each op is monotone in x
    return at_lo if at_lo == at_hi else None


def peval(node: tuple, domains: dict[tuple, Domain]) -> tuple:
    """``node`` evaluated as far as the domains settle it: ("#", value) for good, else the tree left."""
    kind = node[0]
    if kind in ("num", "str", "bool"):
        return (DET, node[1])
    if is_atom(node):
        d = domains.get(node)
        if d is not None and d[0] == "fixed" and _const(d[1]) is not None:
            return (DET, d[1])
        return node
    if kind == "not":
        inner = peval(node[1], domains)
        t = _truth(inner, domains)
        return (DET, not t) if t is not None else ("not", inner)
    if kind in ("and", "or"):
        left, right = peval(node[1], domains), peval(node[2], domains)
        lt, rt = _truth(left, domains), _truth(right, domains)
        if kind == "and":
            if lt is False or rt is False:
                return (DET, False)
            if lt is True and rt is True:
                return (DET, True)
        else:
            if lt is True or rt is True:
                return (DET, True)
            if lt is False and rt is False:
                return (DET, False)
        return (kind, _plain(left), _plain(right))
    if kind == "cmp":
        op = node[1]
        left, right = peval(node[2], domains), peval(node[3], domains)
        if left[0] == DET and right[0] == DET:
            return (DET, _value(("cmp", op, _plain(left), _plain(right))))
        for atom, const, o in ((left, right, op), (right, left, _FLIP[op])):
            if const[0] == DET and is_atom(atom):
                d = domains.get(atom)
                if d is not None and d[0] == "range":
                    sure = _compare_range(o, d[1], d[2], const[1])
                    if sure is not None:
                        return (DET, sure)
        return ("cmp", op, _plain(left), _plain(right))
    parts = []
    settled = True
    for part in node[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            p = peval(part, domains)
            settled = settled and p[0] == DET
            parts.append(_plain(p))
        elif isinstance(part, tuple):
            ps = [peval(p, domains) for p in part]
            settled = settled and all(p[0] == DET for p in ps)
            parts.append(tuple(_plain(p) for p in ps))
        else:
            parts.append(part)
    rebuilt = (kind, *parts)
    if settled and kind in ("neg", "arith", "call"):
        return (DET, _value(rebuilt))
    return rebuilt


def _plain(node: tuple) -> tuple:
    """A residual as a tree the evaluator reads (a settled part as its constant)."""
    if node[0] == DET:
        return _const(node[1]) or ("num", 0)
    return node


# -- the flow of a game through its scenes, for the liveness analysis --------------------------------------------
@dataclasses.dataclass
class Op:
    """An effect in the flow: its condition (index, or None) and the atoms it surely sets (a bit mask)."""

    cond: int | None
    kills: int


@dataclasses.dataclass
class Way:
    """A branch: its effects, then its routes ((condition index or None, scene) in order) or its one goto."""

    ops: list[Op]
    routes: list[tuple[int | None, str]]


@dataclasses.dataclass
class Offer:
    """A choice: its condition, what taking it again costs (conditions read, never surely run), the effects it
    runs, its ways on, and whether the story may stay in the scene after it."""

    cond: int | None
    retry_reads: list[int]
    chosen_atom: int  # bit mask of the choice's own chosen() count when a retry cost reads it, else 0
    ops: list[Op]
    ways: list[Way]
    stays: bool


@dataclasses.dataclass
class Place:
    ending: bool
    entry: list[Op]
    offers: list[Offer]


@dataclasses.dataclass
class Shape:
    """What follows from a state's scene and its settled conditions: the scenes still ahead, the atoms live at
    the menu (their positions), the NPCs those scenes name, and an id for the scenes ahead and how their
    conditions are settled (what the key holds of them). Its parts are shared between the shapes that agree."""

    ahead: frozenset[str]
    live: tuple[int, ...]
    npcs: frozenset[str]
    ident: int = 0


class Liveness:
    """The analysis for one adventure: its flow (:class:`Place` per scene), each scene's conditions and what
    the effects ahead of it can do, and the caches that make a state's :class:`Shape` cheap to find again.

    ``atoms`` are :class:`~.reads.Reads`' atom trees (their positions are the bits of the masks);
    ``conditions`` every condition of the adventure, whose position is its index here.
    """

    def __init__(self, adventure: Adventure, atoms: list[tuple], conditions: list[Condition],
                 ahead: dict[str, frozenset[str]], reductions: frozenset[str], always: int,
                 named: dict[str, frozenset[str]], named_anywhere: frozenset[str],
                 retry_atoms: dict[int, int]):
        from .reads import _every, _outside_scenes, conditions_of

        self.adventure = adventure
        self.settles = "settled" in reductions
        self.kills = "overwritten" in reductions
        self.index = {t: i for i, t in enumerate(atoms)}
        self.conditions = conditions
        self.cond_index = {id(c): i for i, c in enumerate(conditions)}
        self.cond_atoms = [tuple(sorted({self.index[a] for a in atoms_in(c.tree) if a in self.index}))
                           for c in conditions]
        everything = list(_every(_effect_type(), adventure))
        self.kinds = Kinds(adventure, everything)
        self.atom_kinds = [self.kinds.of(t) for t in atoms]
        by_kind: dict[tuple[str, str], int] = {}
        for i, k in enumerate(self.atom_kinds):
            by_kind[k] = by_kind.get(k, 0) | (1 << i)
        self.by_kind = by_kind
        self.always = always  # atoms read outside every scene: live everywhere
        self.named, self.named_anywhere = named, named_anywhere
        self.retry_atoms = retry_atoms  # id(choice) -> its chosen() atom's bit
        outside = [e for e in _every(_effect_type(), _outside_scenes(adventure))]
        self.scene_conds: dict[str, tuple[int, ...]] = {}
        self.scene_effects: dict[str, list[Effect]] = {}
        for sid, scene in adventure.scenes.items():
            self.scene_conds[sid] = tuple(sorted({self.cond_index[id(c)] for c in conditions_of(scene)
                                                  if id(c) in self.cond_index}))
            self.scene_effects[sid] = list(_every(_effect_type(), scene))
        self.ahead_scenes = ahead
        self.summaries: dict[str, Ahead] = {}
        for sid, scenes in ahead.items():
            summary = Ahead(scenes)
            for t in scenes:
                for e in self.scene_effects[t]:
                    summary.add(e)
            for e in outside:
                summary.add(e)
            self.summaries[sid] = summary
        self.ahead_conds = {sid: tuple(sorted({c for t in scenes for c in self.scene_conds[t]}))
                            for sid, scenes in ahead.items()}
        self.places = {sid: self._place(scene) for sid, scene in adventure.scenes.items()}
        #: every condition each scene's flow names (its choices', effects' and routes'): what its equations read
        self.place_conds = {sid: _conds_of_place(place) for sid, place in self.places.items()}
        #: residual trees by id, and the atoms each reads (a bit mask); id 0 and 1: settled false and true
        self.residuals: list[tuple] = [(DET, False), (DET, True)]
        self.residual_ids: dict[tuple, int] = {(DET, False): 0, (DET, True): 1}
        self.residual_masks: list[int] = [0, 0]
        #: (scene, condition) -> {the values it reads: its residual's id}; :attr:`_readers` holds the same tables
        self._worked: dict[tuple[str, int], dict[Any, int]] = {}
        self._worked_size = 0  # entries in all of them (the cache starts afresh past MAX_CACHED)
        #: scene -> each condition ahead with its reader and its table of :attr:`_worked`
        self._readers: dict[str, list[tuple[int, Callable[[tuple], Any], dict[Any, int]]]] = {}
        #: (scene, the scenes ahead) -> the conditions of those scenes, and the repr the ident digests
        self._told: dict[tuple[str, frozenset[str]], tuple[list[int], bytes]] = {}
        self._flows: dict[tuple, tuple | None] = {}  # (scene, its conditions' residuals) -> its equations
        self._shapes: dict[tuple, Shape] = {}
        self._idents: dict[bytes, int] = {}  # a digest of the scene, the scenes ahead and their settled conditions
        self._shared: dict[Any, Any] = {}

    # -- building the flow ---------------------------------------------------------------------------------
    def _cond(self, condition: Condition | None) -> int | None:
        return None if condition is None else self.cond_index.get(id(condition))

    def _op(self, effect: Effect) -> Op:
        kills = 0
        if self.kills:
            a = effect.args
            if effect.kind in ("set", "clear"):
                kills = self.by_kind.get(("flag", str(a.get(effect.kind))), 0)
            elif effect.kind == "counter" and isinstance(a.get("value"), int):
                kills = self.by_kind.get(("counter", str(a.get("counter"))), 0)
            elif effect.kind in ("give", "take"):
                kills = self.by_kind.get(("item", str(a.get(effect.kind))), 0)
        return Op(self._cond(effect.condition), kills)

    def _way(self, branch: Branch) -> Way:
        ops = [self._op(e) for e in branch.effects]
        if branch.routes:
            return Way(ops, [(self._cond(r.condition), r.goto) for r in branch.routes if r.goto in self.places_ids])
        return Way(ops, [(None, branch.goto)] if branch.goto in self.places_ids else [])

    @property
    def places_ids(self) -> dict[str, Scene]:
        return self.adventure.scenes

    def _offer(self, choice: Choice) -> Offer:
        ways: list[Way] = []
        stays = choice.goto is None and choice.action is None
        if choice.goto is not None:
            ways.append(self._way(choice.goto))
        if choice.action is not None:
            stays = True  # an outcome with no branch of its own stays in the scene
            action = choice.action
            for branch in action.branches.values():
                ways.append(self._way(branch))
            if action.escalation is not None:
                for branch in action.escalation.branches.values():
                    ways.append(self._way(branch))
        retry_reads = [c for c in (self._cond(e.condition) for e in choice.retry_cost) if c is not None]
        return Offer(self._cond(choice.condition), retry_reads, self.retry_atoms.get(id(choice), 0),
                     [self._op(e) for e in choice.effects], ways, stays)

    def _place(self, scene: Scene) -> Place:
        entry = [self._op(e) for e in (*scene.on_enter_before, *scene.on_enter)]
        return Place(scene.ending, entry, [self._offer(c) for c in scene.choices])

    # -- a state ---------------------------------------------------------------------------------------------
    def shape(self, scene: str, values: tuple) -> tuple[Shape, tuple[int, ...]]:
        """The :class:`Shape` of a state at ``scene``'s menu whose atoms read ``values``, and its settled
        conditions (a residual id for each condition of the scenes ahead, in :attr:`ahead_conds` order)."""
        readers = self._readers.get(scene)
        if readers is None:
            readers = self._readers[scene] = [
                (ci, _reader(self.cond_atoms[ci]), self._worked.setdefault((scene, ci), {}))
                for ci in self.ahead_conds[scene]]
        found_ids = []
        # each condition's residual, worked out once per scene and values it reads: a table per scene and condition,
        # read with the values alone (a search looks up every condition ahead for every new state)
        for ci, read, worked in readers:
            seen = read(values)
            rid = worked.get(seen)
            found_ids.append(rid if rid is not None else self._residual(scene, ci, values, worked, seen))
        dets = tuple(found_ids)
        memo = (scene, hashlib.blake2b(array("I", dets).tobytes(), digest_size=16).digest())  # small to keep
        found = self._shapes.get(memo)
        if found is None:
            if len(self._shapes) >= MAX_CACHED:
                self._shapes.clear()
            found = self._shapes[memo] = self._work_out(scene, dict(zip(self.ahead_conds[scene], dets)))
        return found, dets

    def _residual(self, scene: str, ci: int, values: tuple, worked: dict[Any, int], seen: Any) -> int:
        """Condition ``ci``'s residual at ``scene`` for ``values``, kept in ``worked`` (its table in
        :attr:`_worked`) under ``seen``, what it reads of them."""
        atoms = self.cond_atoms[ci]
        tree = self.conditions[ci].tree
        if self.settles:
            summary = self.summaries[scene]
            domains = {self._trees[a]: domain(self.atom_kinds[a], values[a], summary) for a in atoms}
            tree = peval(tree, domains)
            if tree[0] == DET:
                tree = (DET, bool(tree[1]))
        rid = self._intern(tree)
        if self._worked_size >= MAX_CACHED:
            for table in self._worked.values():  # emptied in place: the readers hold them
                table.clear()
            self._worked_size = 0
        worked[seen] = rid
        self._worked_size += 1
        return rid

    def _intern(self, tree: tuple) -> int:
        rid = self.residual_ids.get(tree)
        if rid is None:
            rid = self.residual_ids[tree] = len(self.residuals)
            self.residuals.append(tree)
            mask = 0
            for a in atoms_in(tree):
                i = self.index.get(a)
                if i is not None:
                    mask |= 1 << i
            self.residual_masks.append(mask)
        return rid

    @property
    def _trees(self) -> list[tuple]:
        trees = self.__dict__.get("_tree_list")
        if trees is None:
            trees = self.__dict__["_tree_list"] = [t for t, _ in sorted(self.index.items(), key=lambda x: x[1])]
        return trees

    def _work_out(self, scene: str, dets: dict[int, int]) -> Shape:
        """The scenes still ahead (through the choices not closed for good, along the routes not settled false),
        then the atoms live at the menu of ``scene``: a backward analysis to a fixed point over those scenes.

        Each scene's part of the analysis is compiled once per way its own conditions are settled
        (:meth:`_compiled_flow`): what its menu reads whatever comes after, and through which bits each scene it
        leads to passes what that scene reads on entry. The fixed point is then a few mask operations a scene."""

        def rid(ci: int) -> int:
            r = dets.get(ci)
            return r if r is not None else self._intern(self.conditions[ci].tree)  # not met on the scene's walk

        flows: dict[str, tuple | None] = {}
        todo = [scene]
        while todo:
            t = todo.pop()
            if t in flows:
                continue
            f = flows[t] = self._compiled_flow(t, rid)
            if f is not None:
                todo.extend(w for w, _ in f[1] if w not in flows)
        live = self.always if flows[scene] is None else self._least_fixed_point(scene, flows)
        ahead = self._share(frozenset(flows))
        known = self._told.get((scene, ahead))
        if known is None:  # the same for every state whose scenes ahead these are
            known = self._told[(scene, ahead)] = (sorted({c for t in ahead for c in self.scene_conds[t]}),
                                                  repr((scene, sorted(ahead))).encode())
        conds, where = known
        told = where + array("I", (rid(c) or 0 for c in conds)).tobytes()
        ident = self._idents.setdefault(hashlib.blake2b(told, digest_size=16).digest(), len(self._idents))
        npcs = self._share(frozenset(self.named_anywhere.union(*(self.named[t] for t in ahead))))
        return Shape(ahead, self._share(tuple(i for i in range(live.bit_length()) if live >> i & 1)), npcs, ident)

    def _compiled_flow(self, t: str, rid: Callable[[int], int]) -> tuple | None:
        """Scene ``t``'s equations, its conditions settled as ``rid`` says: None for an ending (nothing after it
        reads), else ``(reads, ((scene, through), ...), kills, gens)``: its menu reads ``reads`` and, from each
        scene it leads to, what that scene reads on entry masked by ``through``; entering it reads its menu's
        reads less ``kills``, plus ``gens``.

        Every effect's kill-then-read folds into one (kills, gens) pair, and an OR distributes over the masks, so
        the menu's reads are ``reads | OR(entry[w] & through_w)``. What a choice that stays in the scene carries
        back to its own menu is left out: it adds nothing to the least fixed point (a subset of the menu itself).
        Cached by the scene and the residual of each condition the scene's flow names: everything it reads."""
        place = self.places[t]
        if place.ending:
            return None
        memo = (t, tuple([rid(ci) for ci in self.place_conds[t]]))
        found = self._flows.get(memo)
        if found is not None:
            return found
        masks = self.residual_masks

        def fold(ops: list[Op]) -> tuple[int, int]:
            """The effects as one (kills, gens), applied last first; an effect that never runs left out."""
            kills = gens = 0
            for op in reversed(ops):
                r = None if op.cond is None else rid(op.cond)
                if r == 0:
                    continue
                if r is None or r == 1:
                    kills, gens = kills | op.kills, gens & ~op.kills
                else:
                    gens |= masks[r]
            return kills, gens

        reads = self.always
        through: dict[str, int] = {}
        for offer in place.offers:
            r = None if offer.cond is None else rid(offer.cond)
            if r == 0:
                continue
            if r is not None:
                reads |= masks[r]
            offer_kills, offer_gens = fold(offer.ops)
            out = 0
            for way in offer.ways:
                way_kills, way_gens = fold(way.ops)
                route_reads = 0
                passes = ~(way_kills | offer_kills)
                for ci, target in way.routes:
                    rr = None if ci is None else rid(ci)
                    if rr == 0:
                        continue
                    through[target] = through.get(target, 0) | passes
                    if rr is None or rr == 1:
                        break
                    route_reads |= masks[rr]
                out |= (route_reads & ~way_kills) | way_gens
            extra = offer.chosen_atom
            for ci in offer.retry_reads:
                extra |= masks[rid(ci)]
            reads |= (out & ~offer_kills) | offer_gens | extra
        entry_kills, entry_gens = fold(place.entry)
        found = (reads, tuple(through.items()), entry_kills, entry_gens)
        if len(self._flows) >= MAX_CACHED:
            self._flows.clear()
        self._flows[memo] = found
        return found

    @staticmethod
    def _least_fixed_point(scene: str, flows: dict[str, tuple | None]) -> int:
        """The atoms live at ``scene``'s menu: the least solution of the scenes' equations
        (:meth:`_compiled_flow`), found from nothing live by chaotic iteration (the equations are monotone)."""
        menu = dict.fromkeys(flows, 0)
        entry = dict.fromkeys(flows, 0)
        users: dict[str, list[str]] = {}
        for t, f in flows.items():
            if f is not None:
                for w, _ in f[1]:
                    users.setdefault(w, []).append(t)
        pending = [t for t, f in flows.items() if f is not None]
        queued = set(pending)
        while pending:
            t = pending.pop()
            queued.discard(t)
            reads, through, kills, gens = flows[t]  # type: ignore[misc]
            m = reads
            for w, mask in through:
                m |= entry[w] & mask
            menu[t] = m
            e = (m & ~kills) | gens
            if e != entry[t]:
                entry[t] = e
                for u in users.get(t, ()):
                    if u not in queued:
                        queued.add(u)
                        pending.append(u)
        return menu[scene]

    def _share(self, value: Any) -> Any:
        """One copy of each equal part of the shapes (the scenes ahead, the live atoms, the NPCs)."""
        return self._shared.setdefault(value, value)


def _reader(atoms: tuple[int, ...]) -> Callable[[tuple], Any]:
    """What a condition reads of a state's values (its atoms' positions), as a key for :meth:`Liveness._residual`'s
    cache: ``itemgetter``, a tuple for two atoms or more, the value itself for one, () for none."""
    return operator.itemgetter(*atoms) if atoms else _nothing


def _nothing(values: tuple) -> tuple:
    return ()


def _conds_of_place(place: Place) -> tuple[int, ...]:
    """The indices of the conditions a scene's flow names, in a fixed order (each once)."""
    found: list[int | None] = [op.cond for op in place.entry]
    for offer in place.offers:
        found += [offer.cond, *offer.retry_reads, *(op.cond for op in offer.ops)]
        for way in offer.ways:
            found += [op.cond for op in way.ops]
            found += [ci for ci, _ in way.routes]
    return tuple(dict.fromkeys(ci for ci in found if ci is not None))


def _effect_type() -> type:
    from ...story.format.adventure import Effect

    return Effect

