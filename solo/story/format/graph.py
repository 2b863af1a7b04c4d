"""Whole-adventure checks: the scene graph, and names read but never written.

These run after every field has been checked on its own; they find problems
that only show when the adventure is seen as a whole (a scene nobody can
reach, a flag that is tested but never set).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ...errors import did_you_mean
from ..play.effects import EFFECTS
from .adventure import Action, Adventure, Branch, Choice, Effect, Scene, Where
from .expressions import Condition
from .problems import Collector
from .text import Block, TextError, blocks_of, parse_text


def branches_of(scene: Scene) -> Iterator[tuple[str, Branch, Choice]]:
    """Every branch leaving a scene, with the label of the way there (for maps too).

    A ``goto`` list is yielded once per route, as a branch to that route's scene
    labelled with its condition ("[if …]", or "[otherwise]" for the fallback).
    """
    for label, branch, choice in _written_branches(scene):
        if not branch.routes:
            yield label, branch, choice
            continue
        for route in branch.routes:
            when = f"if {route.condition.source}" if route.condition is not None else "otherwise"
            yield f"{label} [{when}]", replace(branch, goto=route.goto, routes=[]), choice


def _written_branches(scene: Scene) -> Iterator[tuple[str, Branch, Choice]]:
    """The branches as written (a shared response once per user, a goto list as one branch)."""
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


def _all_branches(adventure: Adventure) -> Iterator[Branch]:
    """Every branch as written, each shared response once (used or not)."""
    seen: set[int] = set()
    written = [b for scene in adventure.scenes.values() for _, b, _ in _written_branches(scene)]
    for branch in [*written, *adventure.responses.values()]:
        if id(branch) not in seen:
            seen.add(id(branch))
            yield branch


def all_effects(adventure: Adventure) -> Iterator[Effect]:
    for scene in adventure.scenes.values():
        yield from scene.on_enter_before
        yield from scene.on_enter
        for choice in scene.choices:
            yield from choice.effects
            yield from choice.retry_cost
    for branch in _all_branches(adventure):
        yield from branch.effects


def _texts(adventure: Adventure) -> Iterator[tuple[str, Where]]:
    """Every text an author wrote for the story, with the place of its key: titles and the introduction too."""
    if adventure.introduction:
        yield adventure.introduction, Where(adventure.meta_file, "adventure.introduction")
    for scene in adventure.scenes.values():
        yield scene.title, _at(scene.where, "title")
        yield scene.text, _at(scene.where, "text")
        for choice in scene.choices:
            yield choice.text, _at(choice.where, "text")
            if choice.hint:
                yield choice.hint, _at(choice.where, "hint")
    for branch in _all_branches(adventure):
        if branch.text and branch.where is not None:
            yield branch.text, _at(branch.where, "text")


def _at(where: Where, key: str) -> Where:
    return Where(where.file, f"{where.path}.{key}")


def all_conditions(adventure: Adventure) -> Iterator[tuple[Where, Condition]]:
    """Every condition, with the place of its ``if``: choices, effects, goto lists and text blocks."""
    for scene in adventure.scenes.values():
        for choice in scene.choices:
            if choice.condition is not None:
                yield _at(choice.where, "if"), choice.condition
        for i, (condition, _) in enumerate(scene.outcomes):
            if condition is not None:
                yield Where(scene.where.file, f"{scene.where.path}.outcome[{i}].if"), condition
    for e in all_effects(adventure):
        if e.condition is not None:
            yield _at(e.where, "if"), e.condition
    for branch in _all_branches(adventure):
        for route in branch.routes:
            if route.condition is not None:
                yield _at(route.where, "if"), route.condition
    for text, where in _texts(adventure):
        for block in _blocks(text):
            yield where, block.condition


def _blocks(text: str) -> list[Block]:
    try:
        return list(blocks_of(parse_text(text)))
    except TextError:
        return []  # reported (E008) when the text was read


#: The scene's field that leads out of it: misspelt (an E002 that names it), it leaves the scene's ways out unread.
_WAYS_OUT = "choices"


def _ways_out_misspelt(adventure: Adventure, c: Collector) -> set[str]:
    """The scenes whose choices were written under a misspelt name: E002 has said so ("unknown field 'choice' (did
    you mean 'choices'?)"), and a dead end there and every scene past it unreachable would be the same slip said three
    more times (a GM's run: one typo, four problems), as a misspelt ``goto`` is not (W101). So are the scenes with a
    choice whose ``goto`` is misspelt as a field ("unknown field 'go_to' (did you mean 'goto'?)"): the dead end its
    scene became was listed first, with the wrong fix (another GM's run)."""
    out = set()
    for p in c.problems:
        if p.code != "E002" or not p.path.startswith("scenes."):
            continue
        parts = p.path.split(".")
        if len(parts) == 3 and f"did you mean {_WAYS_OUT!r}" in p.message:
            out.add(parts[1])
        elif len(parts) == 4 and parts[2].startswith(f"{_WAYS_OUT}[") and "did you mean 'goto'" in p.message:
            out.add(parts[1])  # a choice's own way out misspelt (``go_to``): the dead end it leaves is the same slip
    return out & set(adventure.scenes)


def graph_problems(adventure: Adventure, c: Collector) -> None:
    """Add the whole-adventure problems to collector ``c``."""
    seen = reachable(adventure)
    unread = _ways_out_misspelt(adventure, c)
    # a scene the story reaches whose ways out are unread may lead anywhere: nothing can be called unreachable then,
    # nor the endings out of reach (one that the story never reaches leaves the rest as it is)
    open_ended = bool(unread & seen)
    for sid, scene in adventure.scenes.items():
        # with no start (missing or misspelt: an error of its own) every scene would be "unreachable": noise
        if sid not in seen and adventure.start in adventure.scenes and not open_ended:
            c.add(scene.where.file, scene.where.path, "W101", f"scene {sid!r} cannot be reached from the start")
    for sid in dead_ends(adventure):
        if sid in unread:
            continue
        scene = adventure.scenes[sid]
        c.add(scene.where.file, scene.where.path, "E009",
              f"scene {sid!r} is not an ending but no choice leads out of it (add a goto or set ending = true)")
    if adventure.start in adventure.scenes and not open_ended and not any(adventure.scenes[s].ending for s in seen):
        first = adventure.scenes[adventure.start]
        c.add(first.where.file, "adventure.start", "W105", "no ending can be reached from the start")
    used = {b.use for scene in adventure.scenes.values() for _, b, _ in _written_branches(scene) if b.use}
    for name, response in adventure.responses.items():
        if name not in used and response.where is not None:
            c.add(response.where.file, response.where.path, "W107", f"response {name!r} is never used")
    _name_problems(adventure, c)


def items_the_story_reads(adventure: Adventure) -> tuple[frozenset[str], bool]:
    """The items some condition tests (``has("crowbar")``), and whether any reads a Luck find at all
    (``used_luck("find")``): what a ``luck find`` can change in the story, said before the point is spent (a group's
    Vellan spent its last Luck on a crowbar at a padlock no choice ever asked one for)."""
    tested: set[str] = set()
    any_find = False
    for _where, cond in all_conditions(adventure):
        for fn, args in cond.calls():
            if fn == "has" and args and isinstance(args[0], str):
                tested.add(args[0].lower())
            if fn == "used_luck" and (not args or args[0] == "find"):
                any_find = True
    return frozenset(tested), any_find


def _name_problems(adventure: Adventure, c: Collector) -> None:
    """Flags, counters and items read but never set (or set but never read), with "did you mean"."""
    set_names: set[str] = set(adventure.flags) | set(adventure.counters)  # the state a game starts with
    given: set[str] = set(adventure.items)
    for e in all_effects(adventure):
        verb = EFFECTS[e.kind]  # what a verb does to the story's names is its own attribute, never its name
        if verb.writes is not None or verb.sets_name:
            set_names.add(e.args[e.kind])
        if verb.gives_item:
            given.add(e.args[e.kind])
    read_names: dict[str, Where] = {}
    tested_items: dict[str, Where] = {}
    for where, cond in all_conditions(adventure):
        for name in cond.names():
            read_names.setdefault(name, where)
        calls = cond.calls()
        found = ("used_luck", ("find",)) in calls  # an item the players may find with `luck find`
        for fn, args in calls:
            if fn in ("flag", "counter") and args and isinstance(args[0], str):
                read_names.setdefault(args[0], where)
            if fn == "has" and args and isinstance(args[0], str) and not found:
                tested_items.setdefault(args[0], where)
    for clock in adventure.clocks:  # shown on the status line: read by the players
        read_names.setdefault(clock.counter, clock.where or Where(adventure.meta_file, "adventure.clocks"))
    for text, where in _texts(adventure):
        for slot in _counter_slots(text):
            read_names.setdefault(slot, where)
    # a near name is offered only where it is the other half of the same slip: a name read and never set beside one
    # set and never read (a GM's run: "'knows_voss' is set but never read (did you mean 'knows_warehouse'?)", a flag
    # set and read as it should be, which the hint would have broken)
    set_only = [n for n in set_names if n not in read_names]
    read_only = [n for n in read_names if n not in set_names]
    for name, where in sorted(read_names.items()):
        if name not in set_names:
            # a name read and never set is wrong whatever else is read: any set name of like spelling may be meant (a
            # GM's run: "clue >= 2" beside a counter "clues" set and read elsewhere got no hint)
            near = did_you_mean(name, set_only) or did_you_mean(name, sorted(set_names))
            c.add(where.file, where.path, "W102", f"{name!r} is read but never set, so it is always false / 0{near}")
    reported = set(read_names)
    # a condition that could not be read (E004) reads names nobody knows: "set but never read" would be a guess
    unsure = any(p.code == "E004" for p in c.problems)
    for e in all_effects(adventure):
        name = e.args[e.kind]
        if EFFECTS[e.kind].sets_name and name not in reported and not unsure:
            # a retry cost nothing reads is shown to the player ("again: costs 1 hours") and costs nothing: said so,
            # for a GM read the warning as wrong beside the docs' own pattern (where a condition reads the counter)
            empty = ": as a retry cost it costs nothing, since no condition or text reads it" \
                if ".retry_cost[" in e.where.path else ""
            c.add(e.where.file, e.where.path, "W103",
                  f"{name!r} is set but never read{empty}{did_you_mean(name, read_only)}")
            reported.add(name)  # report each name once
    for name in [*adventure.flags, *adventure.counters]:
        if name not in reported and not unsure:
            kind = "flags" if name in adventure.flags else "counters"
            c.add(adventure.meta_file, f"adventure.{kind}", "W103",
                  f"{name!r} is set at the start but never read{did_you_mean(name, read_names)}")
            reported.add(name)
    for item, where in sorted(tested_items.items()):
        if item not in given:
            c.add(where.file, where.path, "W104",
                  f"item {item!r} is tested with has() but never given{did_you_mean(item, given)}")


def _counter_slots(text: str) -> list[str]:
    import re

    return re.findall(r"\{(?:counter|words)\.([A-Za-z0-9_]+)\}", text or "")


__all__ = ["branches_of", "edges", "reachable", "dead_ends", "graph_problems"]
