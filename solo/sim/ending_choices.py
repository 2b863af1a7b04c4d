"""Which choices end the story, and which scenes are hubs, read off the scene graph.

The explorer bot (:mod:`solo.sim.explorer`) and ``solo check``'s W191 share
these answers, so the warning an author reads names exactly the choices the
bot holds back. Conditions and dice are ignored, as in every graph check: a
choice "ends the game" when every way on from it ends the game: every scene any
of its outcomes can lead to is *ending-bound* (an ending, or a scene whose every
way out is ending-bound) and no outcome stays in the scene (an oracle's "no"
with no ``goto``, a roll's failure that only tells something), so once it is
taken no road leads back into the rest of the story. A choice that only leads
back into its own scene ("Tread water and wait") ends nothing, even in an
ending-bound scene: it stays where it is.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..story.format.graph import all_conditions, branches_of

if TYPE_CHECKING:
    from ..story.format.adventure import Adventure, Branch, Choice, Scene


def choice_targets(scene: Scene) -> dict[str, frozenset[str]]:
    """choice key -> every scene its outcomes (and ``goto`` routes) can lead to; staying put is not a target."""
    out: dict[str, set[str]] = {c.key: set() for c in scene.choices}
    for _, branch, choice in branches_of(scene):
        if branch.goto:
            out[choice.key].add(branch.goto)
    return {k: frozenset(v) for k, v in out.items()}


def choice_stays(scene: Scene) -> frozenset[str]:
    """The keys of the choices some outcome of which stays in the scene: a branch with no ``goto`` (or a ``goto``
    list whose every route has a condition), or an outcome of the action that no branch answers."""
    from ..story.play.actions import ACTIONS

    def stays(branch: Branch | None) -> bool:
        return branch is None or (not branch.goto and all(r.condition is not None for r in branch.routes))

    out = set()
    for choice in scene.choices:
        action = choice.action
        if action is None:
            if stays(choice.goto):
                out.add(choice.key)
            continue
        verb = ACTIONS.get(action.kind)
        names = (*getattr(verb, "outcomes", ()), *getattr(verb, "optional", ()))
        written = list(action.branches.values())
        if action.escalation is not None:
            written += list(action.escalation.branches.values())
        if any(stays(b) for b in written) or any(action.branch(o) is None for o in names):
            out.add(choice.key)
    return frozenset(out)


def idle_choices(adventure: Adventure) -> dict[str, frozenset[str]]:
    """scene -> the keys of its choices that lead straight back to it with nothing changed: no action, no effect,
    no retry cost, every outcome back in the scene (a ``goto`` to itself, or none), a scene that does nothing on
    being entered (no ``on_enter``, no oracle set-up), and no condition anywhere counting how often the choice is
    taken or the scene entered (``chosen``, ``visits``). Taking one again is no progress: nothing it can open is
    not open already."""
    found: dict[str, set[str]] = {}
    for sid, scene in adventure.scenes.items():
        if scene.ending or scene.on_enter or scene.on_enter_before or scene.oracle_setup:
            continue
        for choice in scene.choices:
            branch = choice.goto
            if choice.action is not None or choice.effects or choice.retry_cost:
                continue
            if branch is not None and (branch.effects or {branch.goto, *(r.goto for r in branch.routes)} - {sid, None}):
                continue
            found.setdefault(sid, set()).add(choice.key)
    if not found:  # the conditions are read only for an adventure that has one (few have)
        return {}
    counted = _called_with(adventure, ("chosen", "visits"))
    if counted is None:
        return {}  # a name worked out in play: it may count any of them
    out = {}
    for sid, keys in found.items():
        names = {c.key: f"{sid}/{c.name or c.key}" for c in adventure.scenes[sid].choices}
        kept = frozenset(k for k in keys if names[k] not in counted["chosen"])
        if kept and sid not in counted["visits"]:
            out[sid] = kept
    return out


@dataclass(frozen=True)
class StoryShape:
    """The graph facts a player who knows where choices lead would use, computed once per adventure."""

    targets: dict[str, dict[str, frozenset[str]]]  # scene -> choice key -> scenes it can lead to
    successors: dict[str, frozenset[str]]  # scene -> every other scene one step away
    bound: frozenset[str]  # endings, and scenes whose every way out is ending-bound
    reach: dict[str, frozenset[str]]  # scene -> every scene reachable from it in one step or more
    endings: frozenset[str]
    stays: dict[str, frozenset[str]]  # scene -> the choices some outcome of which stays in it
    idle: dict[str, frozenset[str]]  # scene -> the choices that lead straight back to it with nothing changed
    read: tuple[str, ...] | None = None  # the flags and counters some condition reads, sorted (None: any)

    def ends_game(self, scene: str, key: str) -> bool:
        """Every way on from choice ``key`` of ``scene`` ends the game: whatever its outcome, it leads only into
        ending-bound scenes (none stays where it is), and not only back into ``scene`` (that ends nothing)."""
        to = self.targets.get(scene, {}).get(key, frozenset())
        return bool(to - {scene}) and to <= self.bound and key not in self.stays.get(scene, frozenset())

    def leaves(self, scene: str, key: str) -> bool:
        """Choice ``key`` moves on for good: no scene it leads to can lead back to ``scene``."""
        to = self.targets.get(scene, {}).get(key, frozenset())
        return bool(to) and not any(t == scene or scene in self.reach.get(t, ()) for t in to)

    def story_ahead(self, scene: str, key: str) -> int:
        """How many scenes that are not endings lie on the roads from choice ``key`` (itself included)."""
        to = self.targets.get(scene, {}).get(key, frozenset())
        ahead = set(to).union(*(self.reach.get(t, frozenset()) for t in to))
        return sum(1 for s in ahead if s not in self.endings)

    def on_a_loop(self, scene: str) -> bool:
        """The scene can be entered again after it is left (a place the story returns to)."""
        return scene in self.reach.get(scene, frozenset())


def story_shape(adventure: Adventure) -> StoryShape:
    """The adventure's shape, worked out once: kept for the last adventure shaped, since every run of ``solo
    simulate`` makes an explorer of its own (some 0.6 ms of Vellan's 2.7 ms a run, worked out afresh each time)."""
    if _SHAPED and _SHAPED[0][0] is adventure:
        return _SHAPED[0][1]
    shape = _shape_of(adventure)
    _SHAPED[:] = [(adventure, shape)]
    return shape


_SHAPED: list[tuple[Adventure, StoryShape]] = []


def _shape_of(adventure: Adventure) -> StoryShape:
    targets = {sid: choice_targets(scene) for sid, scene in adventure.scenes.items()}
    successors = {sid: frozenset(t for to in by_key.values() for t in to if t in adventure.scenes)
                  for sid, by_key in targets.items()}
    endings = frozenset(sid for sid, scene in adventure.scenes.items() if scene.ending)
    bound = set(endings)
    grew = True
    while grew:
        grew = False
        for sid, nxt in successors.items():
            if sid in bound:
                continue
            out = nxt - {sid}
            if out and out <= bound:
                bound.add(sid)
                grew = True
    reach = {sid: _reachable_from(sid, successors) for sid in adventure.scenes}
    stays = {sid: choice_stays(scene) for sid, scene in adventure.scenes.items()}
    return StoryShape(targets, successors, frozenset(bound), reach, endings, stays, idle_choices(adventure),
                      read_names(adventure))


def read_names(adventure: Adventure) -> tuple[str, ...] | None:
    """The flags and counters the adventure's conditions read (bare names, ``flag()``, ``counter()``): those a
    change of which can open or close something. None when a condition works a name out in play."""
    called = _called_with(adventure, ("flag", "counter"))
    if called is None:
        return None
    out = set(called["flag"]) | called["counter"]
    for _, condition in all_conditions(adventure):
        out |= condition.names()
    return tuple(sorted(out))


def _called_with(adventure: Adventure, functions: tuple[str, ...]) -> dict[str, set[str]] | None:
    """The names each of ``functions`` is called with in the adventure's conditions (``chosen("hall/1")``), or
    None where one is called with a name worked out in play (it may read any of them)."""
    out: dict[str, set[str]] = {fn: set() for fn in functions}
    for _, condition in all_conditions(adventure):
        for fn, args in condition.calls():
            if fn in out:
                if not (args and isinstance(args[0], str)):
                    return None
                out[fn].add(args[0])
    return out


def _reachable_from(start: str, successors: dict[str, frozenset[str]]) -> frozenset[str]:
    seen: set[str] = set()
    todo = deque(successors.get(start, ()))
    while todo:
        sid = todo.popleft()
        if sid not in seen:
            seen.add(sid)
            todo.extend(successors.get(sid, ()))
    return frozenset(seen)


@dataclass(frozen=True)
class EarlyEnding:
    """A choice that ends the game from a hub whose other choices lead on into more of the story."""

    scene: str
    choice: Choice
    index: int  # the choice's place in the scene, from 1
    onward: tuple[str, ...]  # the scenes the hub's other choices lead on to


def early_endings(adventure: Adventure, shape: StoryShape | None = None) -> list[EarlyEnding]:
    """Every choice that ends the game from a hub: a scene the story comes back to, with two or more
    choices that lead on to other scenes that are not ending-bound."""
    shape = shape or story_shape(adventure)
    out = []
    for sid, scene in adventure.scenes.items():
        if scene.ending or not shape.on_a_loop(sid):
            continue
        by_key = shape.targets[sid]
        onward_keys = [c.key for c in scene.choices if not shape.ends_game(sid, c.key)
                       and any(t != sid and t not in shape.bound for t in by_key[c.key])]
        onward = sorted({t for k in onward_keys for t in by_key[k] if t != sid and t not in shape.bound})
        if len(onward_keys) < 2 or len(onward) < 2:
            continue
        for i, choice in enumerate(scene.choices, 1):
            if shape.ends_game(sid, choice.key):
                out.append(EarlyEnding(sid, choice, i, tuple(onward)))
    return out
