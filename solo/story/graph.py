"""Whole-adventure checks: the scene graph, and names read but never written.

These run after every field has been checked on its own; they find problems
that only show when the adventure is seen as a whole (a scene nobody can
reach, a flag that is tested but never set).
"""

from __future__ import annotations

from collections.abc import Iterator

from .adventure import Action, Adventure, Branch, Choice, Effect, Scene, Where
from .effects import EFFECTS
from .expressions import Condition
from .problems import Collector


def branches_of(scene: Scene) -> Iterator[tuple[str, Branch, Choice]]:
    """Every branch leaving a scene, with the label of the way there (for maps too)."""
    for choice in scene.choices:
        if choice.goto is not None:
            yield choice.text, choice.goto, choice
        if choice.action is not None:
            yield from _action_branches(choice.text, choice.action, choice)


def _action_branches(label: str, action: Action, choice: Choice) -> Iterator[tuple[str, Branch, Choice]]:
    for outcome, branch in action.branches.items():
        yield f"{label} [{outcome}]", branch, choice
    if action.escalation is not None:
        for outcome, branch in action.escalation.branches.items():
            yield f"{label} [escalated: {outcome}]", branch, choice


def edges(adventure: Adventure) -> dict[str, list[tuple[str, str]]]:
    """scene -> [(label, target)] for every branch that goes somewhere."""
    out: dict[str, list[tuple[str, str]]] = {}
    for sid, scene in adventure.scenes.items():
        out[sid] = [(label, b.goto) for label, b, _ in branches_of(scene) if b.goto]
    return out


def reachable(adventure: Adventure) -> set[str]:
    graph = edges(adventure)
    seen = set()
    todo = [adventure.start] if adventure.start in adventure.scenes else []
    while todo:
        sid = todo.pop()
        if sid in seen:
            continue
        seen.add(sid)
        todo.extend(t for _, t in graph.get(sid, []) if t not in seen and t in adventure.scenes)
    return seen


def dead_ends(adventure: Adventure) -> list[str]:
    """Scenes that are not endings and have no way out to another scene."""
    graph = edges(adventure)
    return [sid for sid, scene in adventure.scenes.items()
            if not scene.ending and not any(t != sid for _, t in graph.get(sid, []))]


def all_effects(adventure: Adventure) -> Iterator[Effect]:
    for scene in adventure.scenes.values():
        yield from scene.on_enter
        for choice in scene.choices:
            yield from choice.effects
        for _, branch, _ in branches_of(scene):
            yield from branch.effects


def _all_conditions(adventure: Adventure) -> Iterator[tuple[Where, Condition]]:
    for scene in adventure.scenes.values():
        for choice in scene.choices:
            if choice.condition is not None:
                yield choice.where, choice.condition


def graph_problems(adventure: Adventure, c: Collector) -> None:
    """Add the whole-adventure problems to collector ``c``."""
    seen = reachable(adventure)
    for sid, scene in adventure.scenes.items():
        if sid not in seen:
            c.add(scene.where.file, scene.where.path, "W101", f"scene {sid!r} cannot be reached from the start")
    for sid in dead_ends(adventure):
        scene = adventure.scenes[sid]
        c.add(scene.where.file, scene.where.path, "E009",
              f"scene {sid!r} is not an ending but no choice leads out of it (add a goto or set ending = true)")
    if adventure.start in adventure.scenes and not any(adventure.scenes[s].ending for s in seen):
        first = adventure.scenes[adventure.start]
        c.add(first.where.file, "adventure.start", "W105", "no ending can be reached from the start")
    set_names: set[str] = set()
    given: set[str] = set()
    for e in all_effects(adventure):
        verb = EFFECTS[e.kind]  # what a verb does to the story's names is its own attribute, never its name
        if verb.writes is not None or verb.sets_name:
            set_names.add(e.args[e.kind])
        if verb.gives_item:
            given.add(e.args[e.kind])
    read_names: dict[str, Where] = {}
    tested_items: dict[str, Where] = {}
    for where, cond in _all_conditions(adventure):
        for name in cond.names():
            read_names.setdefault(name, where)
        calls = cond.calls()
        found = ("used_luck", ("find",)) in calls  # an item the players may find with `luck find`
        for fn, args in calls:
            if fn in ("flag", "counter") and args and isinstance(args[0], str):
                read_names.setdefault(args[0], where)
            if fn == "has" and args and isinstance(args[0], str) and not found:
                tested_items.setdefault(args[0], where)
    for scene in adventure.scenes.values():
        texts = [(scene.text, scene.where)] + [(c.text, c.where) for c in scene.choices]
        texts += [(b.text, b.where or scene.where) for _, b, _ in branches_of(scene) if b.text]
        for text, where in texts:
            for slot in _counter_slots(text):
                read_names.setdefault(slot, where)
    for name, where in sorted(read_names.items()):
        if name not in set_names:
            c.add(where.file, where.path, "W102", f"{name!r} is read but never set (it is always false / 0)")
    for e in all_effects(adventure):
        if EFFECTS[e.kind].sets_name and e.args[e.kind] not in read_names:
            c.add(e.where.file, e.where.path, "W103", f"{e.args[e.kind]!r} is set but never read")
            read_names[e.args[e.kind]] = e.where  # report each name once
    for item, where in sorted(tested_items.items()):
        if item not in given:
            c.add(where.file, where.path, "W104", f"item {item!r} is tested with has() but never given")


def _counter_slots(text: str) -> list[str]:
    import re

    return re.findall(r"\{counter\.([A-Za-z0-9_]+)\}", text or "")


__all__ = ["branches_of", "edges", "reachable", "dead_ends", "graph_problems"]
