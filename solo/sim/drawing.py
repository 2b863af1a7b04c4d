"""``solo map``: an adventure's scene graph as Mermaid or Graphviz DOT text.

Scenes are nodes, every way from one scene to another is an edge labelled
with its choice, its condition and, for rolls and conflicts, the outcome
(:func:`solo.story.format.graph.branches_of`); a choice that keeps the story in its
scene is a dotted loop back to it. Classes mark the start, the endings,
scenes nobody can reach, dead ends (no way out) and traps (ways out, but no
ending beyond them). With a simulation report each scene also shows the share
of runs that visited it, and scenes no run reached are marked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..paths import FileKind
from ..rules.outcomes import COMAE, FLED, OPPONENT_FLED, OPPONENT_SURRENDERED, STALEMATE, SURRENDERED
from ..story.format.adventure import FALLBACK, Adventure, Choice
from ..story.format.graph import branches_of, dead_ends, reachable

if TYPE_CHECKING:
    from ..rules.conflict_types import ConflictType

FORMATS = ("mermaid", "dot")
LABEL_WIDTH = 48

_STYLES = {
    # class: (mermaid classDef, dot attributes)
    "start": ("stroke-width:3px", 'penwidth=3'),
    "ending": ("fill:#d9f2d9,stroke:#2e7d32", 'style="rounded,filled", fillcolor="#d9f2d9", color="#2e7d32"'),
    "unreachable": ("fill:#eeeeee,stroke:#9e9e9e,stroke-dasharray:5 5,color:#757575",
                    'style="rounded,dashed", color="#9e9e9e", fontcolor="#757575"'),
    "deadend": ("fill:#f8d7da,stroke:#c62828", 'style="rounded,filled", fillcolor="#f8d7da", color="#c62828"'),
    "trap": ("fill:#ffe0b2,stroke:#ef6c00", 'style="rounded,filled", fillcolor="#ffe0b2", color="#ef6c00"'),
    "unvisited": ("stroke:#6a1b9a,stroke-dasharray:2 2", 'color="#6a1b9a", style="rounded,dotted"'),
    "softlock": ("fill:#ffcdd2,stroke:#b71c1c,stroke-width:3px",
                 'style="rounded,filled,bold", fillcolor="#ffcdd2", color="#b71c1c"'),
    "never": ("fill:#eeeeee,stroke:#424242,stroke-dasharray:1 3,color:#616161",
              'style="rounded,dotted", color="#424242", fontcolor="#616161"'),
}
LEGEND = {
    "start": "the first scene",
    "ending": "an ending",
    "unreachable": "no way from the start leads here",
    "deadend": "not an ending, and no choice leads out",
    "trap": "ways out, but none leads to an ending",
    "unvisited": "no simulated run came here",
    "softlock": "solo prove: a state here can reach no ending (a soft-lock)",
    "never": "solo prove: no reachable state enters it (conditions and dice counted)",
}


def can_end(adventure: Adventure) -> set[str]:
    """Scenes from which some path (ignoring conditions and dice) reaches an ending."""
    back: dict[str, set[str]] = {}
    for sid, scene in adventure.scenes.items():
        for _, branch, _ in branches_of(scene):
            if branch.goto:
                back.setdefault(branch.goto, set()).add(sid)
    done = {sid for sid, scene in adventure.scenes.items() if scene.ending}
    todo = list(done)
    while todo:
        for prev in back.get(todo.pop(), ()):
            if prev not in done:
                done.add(prev)
                todo.append(prev)
    return done


def scene_classes(adventure: Adventure, stats: dict | None = None,
                  proven: dict[str, set[str]] | None = None) -> dict[str, list[str]]:
    """scene id -> the marks it gets (start, ending, unreachable, deadend, trap, unvisited; with ``proven``, what
    ``solo prove`` found: ``softlock`` scenes a state is trapped in, and scenes ``never`` entered)."""
    seen = reachable(adventure)
    dead = set(dead_ends(adventure))
    ends = can_end(adventure)
    visited = _rates(stats)
    out: dict[str, list[str]] = {}
    for sid, scene in adventure.scenes.items():
        marks = []
        if sid == adventure.start:
            marks.append("start")
        if scene.ending:
            marks.append("ending")
        if sid not in seen:
            marks.append("unreachable")
        if sid in dead:
            marks.append("deadend")
        elif not scene.ending and sid not in ends and ends:
            marks.append("trap")
        if visited is not None and sid in seen and not visited.get(sid):
            marks.append("unvisited")
        for mark in ("softlock", "never"):
            if proven is not None and sid in proven.get(mark, ()):
                marks.append(mark)
        out[sid] = marks
    return out


#: The marks that colour a scene, the most telling first: a scene with several is drawn in the first one's colours
#: (an ending no run reached and no state enters was given three fills in Mermaid, the last drawn winning).
COLOURS = ("softlock", "unreachable", "never", "deadend", "trap", "unvisited", "ending")


def drawn(marks: list[str]) -> list[str]:
    """The marks a scene is drawn with: the most telling of its colours, and the start's bold outline."""
    colour = next((cls for cls in COLOURS if cls in marks), None)
    return [*([colour] if colour else []), *(["start"] if "start" in marks else [])]


class Edge(NamedTuple):
    source: str
    target: str
    label: str
    stays: bool = False  # a choice that keeps the story in its scene (no goto): drawn as a dotted self-loop


def edge_list(adventure: Adventure) -> list[Edge]:
    """Every way from a scene to another (or back to the same one), and every choice that stays put.

    The branches of one choice that lead to the same scene share an edge,
    labelled with the choice, its condition and its outcomes: ``Fight [if armed] [lost, fled]``;
    two choices with the same words but different conditions are two edges, told apart by them.
    A choice (or an outcome) with no ``goto`` keeps the story in its scene: a self-loop marked as staying.
    """
    from ..story.play.engine import conflict_types_of

    types = conflict_types_of(adventure)  # a type with no flight leaves flight off its marks
    out = []
    for sid, scene in adventure.scenes.items():
        grouped: dict[tuple[str | None, int], list[str]] = {}
        choices: dict[int, Choice] = {}
        for label, branch, choice in branches_of(scene):
            if branch.routes:  # a goto list as written: its routes come as branches of their own
                continue
            outcome = label[len(choice.text):].strip() if label.startswith(choice.text) else ""
            key = (branch.goto, id(choice))
            choices[id(choice)] = choice
            outcomes = grouped.setdefault(key, [])
            if outcome and outcome.strip("[]") not in outcomes:
                outcomes.append(outcome.strip("[]"))
        for choice in scene.choices:
            if choice.goto is None and choice.action is None:  # effects only: the scene goes on
                grouped.setdefault((None, id(choice)), [])
                choices[id(choice)] = choice
            for outcome, target in implied_outcomes(choice, types, adventure.npcs):
                if (target, id(choice)) in grouped:
                    grouped[(target, id(choice))].append(f"{outcome}*")
            # and a roll's escalation into a conflict, whose unwritten ends fall back as its own do (a GM's evening:
            # "[escalated: won, escalated: lost]" where the argument ended fled or surrendered in most runs)
            if choice.action is not None and choice.action.escalation is not None:
                for outcome, target in _implied(choice.action.escalation, types, adventure.npcs):
                    if (target, id(choice)) in grouped:
                        grouped[(target, id(choice))].append(f"escalated: {outcome}*")
        for (target, cid), outcomes in grouped.items():
            out.append(Edge(sid, target or sid, _edge_label(adventure, choices[cid], outcomes), stays=target is None))
    return out


def implied_outcomes(choice: Choice, types: Mapping[str, ConflictType],
                     npcs: Mapping[str, Any] | None = None) -> list[tuple[str, str | None]]:
    """The ways a choice's conflict can end that its author did not write, each with the scene its fallback takes
    it to (``stalemate`` and ``fled`` go where ``lost`` goes): a map marks them (``[lost, stalemate*]``) so that a
    round limit that sends every stalemate to the defeat scene shows (new-user run). Only the endings that are
    not a degree of the one they fall back on (an exceptional success is a success, a "yes, and" a yes, a
    party in comae has lost); a stalemate only with a round limit (read as the engine reads it: a conflict with no
    ``rounds`` written still stops at the default limit, so its stalemate is marked too), the opponents' flight or
    surrender only where there are opponents, and no flight on either side of a type without one (a new GM's map
    marked a foot chase's ``opponent_fled*``, which the engine never offers), nor where every opponent is mindless
    (``npcs``, the adventure's: a machine never yields nor runs, and a GM's map marked a winch's flight; nor can it
    take the party's surrender)."""
    return [] if choice.action is None else _implied(choice.action, types, npcs)


def _implied(action: Any, types: Mapping[str, ConflictType],
             npcs: Mapping[str, Any] | None = None) -> list[tuple[str, str | None]]:
    """:func:`implied_outcomes` of one action: a choice's own, or the conflict a roll escalates into."""
    from ..story.play.actions import ACTIONS, party_hunts

    if action.kind not in ACTIONS:
        return []
    verb = ACTIONS[action.kind]
    out: list[tuple[str, str | None]] = []
    for outcome in verb.optional:
        fallback = FALLBACK.get(outcome)
        # a degree of what it falls back on ("exceptional_success" of "success", "yes_and" of "yes") goes unmarked
        if outcome in action.branches or fallback is None or fallback in outcome.split("_") or outcome == COMAE:
            continue
        if outcome == STALEMATE and not verb.arg(action.spec, "rounds"):
            continue
        ctype = types.get(str(action.spec.get("type", "")))
        foes = [npcs.get(str(nid)) if npcs is not None else None for nid in action.spec.get("npcs") or ()]
        # only mindless NPCs against the party (an obstacle beside them may be given up on)
        mindless = bool(foes) and all(foe is not None and foe.data.get("mindless") is True for foe in foes) \
            and action.spec.get("obstacle") is None
        if outcome in (OPPONENT_FLED, OPPONENT_SURRENDERED) and (not foes or mindless):
            continue
        if outcome == SURRENDERED and mindless and not (ctype is not None and party_hunts(ctype, action.spec)):
            continue  # nobody there to take it (docs/rulings.md), unless the party gives chase and may just stop
        if outcome in (FLED, OPPONENT_FLED) and not getattr(ctype, "flight", True):
            continue  # a type with no flight (a chase, a sneak) for either side; an unknown one may have it
        branch = action.branch(outcome)
        if branch is not None and not branch.routes:
            out.append((outcome, branch.goto))
    return out


def _edge_label(adventure: Adventure, choice: Choice, outcomes: list[str]) -> str:
    """A choice's words, then its condition and its outcomes in brackets, short enough for a map."""
    extra = ""
    written = choice.written_condition()  # "once", not what it loads as
    if choice.once:
        extra += " [once]"
    if written:
        extra += f" [if {clipped(written, LABEL_WIDTH - 16)}]"
    if outcomes:
        extra += f" [{', '.join(outcomes)}]"
    return clipped(adventure.as_listed(choice.text), LABEL_WIDTH - 16 if extra else LABEL_WIDTH) + extra


def _rates(stats: dict | None) -> dict[str, float] | None:
    if stats is None:
        return None
    return {sid: float(entry.get("rate", 0)) for sid, entry in stats.get("scenes", {}).items()}


def _visited(stats: dict | None, sid: str) -> str:
    """How often the runs visited ``sid``, with its 95 % interval: a share of sampled runs says how sure it is (a
    GM's run: "visited 49.0%" of 200 runs, bare)."""
    from ..sampling import wilson

    assert stats is not None
    entry = stats.get("scenes", {}).get(sid, {})
    rate, runs = float(entry.get("rate", 0)), int(stats.get("runs") or 0)
    if "low" in entry:  # the report's own interval, from the runs counted
        low, high = float(entry["low"]), float(entry["high"])
    elif runs and "runs" in entry:  # a report from before scenes had one: worked out from the same count
        low, high = wilson(int(entry["runs"]), runs)
    else:
        return f"visited {rate:.1%}"
    return f"visited {rate:.1%} ({low:.0%}–{high:.0%})"


def clipped(text: str, width: int = LABEL_WIDTH) -> str:
    """``text`` on one line, cut to ``width`` with "…" where it is longer (the map's labels, coverage's texts)."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _node_text(adventure: Adventure, sid: str, rates: dict[str, float] | None,
               stats: dict | None = None) -> list[str]:
    scene = adventure.scenes[sid]
    title = adventure.as_listed(scene.title)
    lines = [clipped(title or sid)]
    if title != sid:
        lines.append(f"({sid})")
    if rates is not None:
        lines.append(_visited(stats, sid))
    return lines


def to_mermaid(adventure: Adventure, stats: dict | None = None, proven: dict[str, set[str]] | None = None) -> str:
    rates = _rates(stats)
    classes = scene_classes(adventure, stats, proven)
    ids = _ids(adventure)
    out = ["flowchart TD", f"%% {MAP_MARK.decode()} {_one_line(adventure.id)}"]
    for sid in adventure.scenes:
        text = "<br/>".join(_mermaid_text(t) for t in _node_text(adventure, sid, rates, stats))
        shape = ('(["', '"])') if adventure.scenes[sid].ending else ('["', '"]')
        out.append(f"    {ids[sid]}{shape[0]}{text}{shape[1]}")
    for edge in edge_list(adventure):
        arrow = "-.->" if edge.stays else "-->"
        out.append(f'    {ids[edge.source]} {arrow}|"{_mermaid_text(edge.label)}"| {ids[edge.target]}')
    shown_as = {sid: drawn(marks) for sid, marks in classes.items()}
    used = sorted({c for marks in shown_as.values() for c in marks})
    for cls in used:
        out.append(f"    classDef {cls} {_STYLES[cls][0]}")
    for cls in used:
        members = [ids[sid] for sid, marks in shown_as.items() if cls in marks]
        out.append(f"    class {','.join(members)} {cls}")
    return "\n".join(out) + "\n"


def to_dot(adventure: Adventure, stats: dict | None = None, proven: dict[str, set[str]] | None = None) -> str:
    rates = _rates(stats)
    classes = scene_classes(adventure, stats, proven)
    out = [f"digraph {_dot_string(adventure.id)} {{", f"    // {MAP_MARK.decode()} {_one_line(adventure.id)}",
           f"    label={_dot_string(adventure.title)}; labelloc=t;",
           "    rankdir=TB;",
           '    node [shape=box, style=rounded, fontname="Helvetica"];',
           '    edge [fontname="Helvetica", fontsize=10];']
    for sid in adventure.scenes:
        text = "\\n".join(_dot_escape(t) for t in _node_text(adventure, sid, rates, stats))
        attrs = [f'label="{text}"']
        marks = classes[sid]
        attrs.extend(_STYLES[cls][1] for cls in drawn(marks))  # every mark is listed in the tooltip
        if marks:
            attrs.append(f'tooltip="{", ".join(marks)}"')
        out.append(f"    {_dot_string(sid)} [{', '.join(attrs)}];")
    for edge in edge_list(adventure):
        style = ", style=dotted" if edge.stays else ""
        out.append(f'    {_dot_string(edge.source)} -> {_dot_string(edge.target)} '
                   f'[label="{_dot_escape(edge.label)}"{style}];')
    out.append("}")
    return "\n".join(out) + "\n"


#: The second line of every map, which tells ``solo map -o`` that a file it meets is one it drew.
MAP_MARK = b"drawn by solo map from the adventure"
MAP_FILE = FileKind("a map", marks=(MAP_MARK,))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render(adventure: Adventure, fmt: str = "mermaid", stats: dict | None = None,
           proven: dict[str, set[str]] | None = None) -> str:
    if fmt == "mermaid":
        return to_mermaid(adventure, stats, proven)
    if fmt == "dot":
        return to_dot(adventure, stats, proven)
    raise ValueError(f"unknown map format {fmt!r} (known: {', '.join(FORMATS)})")


def _ids(adventure: Adventure) -> dict[str, str]:
    """Mermaid-safe node ids, readable and unique."""
    out, used = {}, set()
    for sid in adventure.scenes:
        base = "s_" + (re.sub(r"[^A-Za-z0-9_]", "_", sid) or "scene")
        name, n = base, 2
        while name in used:
            name = f"{base}_{n}"
            n += 1
        used.add(name)
        out[sid] = name
    return out


def _mermaid_text(text: str) -> str:
    return (text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
            .replace("|", "#124;").replace("[", "#91;").replace("]", "#93;"))


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _dot_string(text: str) -> str:
    return f'"{_dot_escape(str(text))}"'
