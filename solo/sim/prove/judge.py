"""What the graph of a search says: endings reached, shortest ways, best chances, soft-locks, dead choices.

A state is soft-locked when no ending, and no fall of the party, can be
reached from it and the search saw everything that follows it; a state the
search did not get to expand is never called soft-locked, only unexplored.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from ...story.format.locate import Places
from ...story.play.engine import DEAD_END, FALLEN
from .search import ERROR, MAX_SWEEPS, Move, Node, words

if TYPE_CHECKING:
    from .search import Proof

#: Soft-locks listed one by one (grouped by cause, the shortest way into each); the count covers them all.
SHOWN_SOFT_LOCKS = 20


def judge(proof: Proof) -> None:
    nodes = proof.nodes
    parents = _reverse(nodes)
    ending_ids = [s.id for s in proof.adventure.endings()]
    for ending in ending_ids:
        targets = [n.id for n in nodes if n.end == ending]
        dist = _distances(parents, targets, len(nodes))
        proof.distances[ending] = dist
        goal = set(targets)
        value = _best_values(nodes, goal, dist) if goal else None
        once = _one_fight(nodes, value, goal, dist) if value else None
        proof.endings[ending] = {
            "reachable": bool(goal),
            "steps": dist[0] if nodes else None,
            "best_chance": min(1.0, value[0]) if value else 0.0,
            "estimated": (estimated := _rests_on_samples(nodes, value, goal, dist) if value else False),
            "error": min(1.0, _sampling_error(nodes, value, goal, dist)) if estimated and value else None,
            "fights_again": once is not None,
            "one_fight": once,
        }
    ends = [n.id for n in nodes if n.end in ending_ids or n.end == FALLEN]
    can_end = _marked(parents, ends, len(nodes))
    unknown = _marked(parents, [n.id for n in nodes if n.moves is None or n.cut], len(nodes))
    locked = [n for n in nodes if not can_end[n.id] and not unknown[n.id]]
    locked_ids = {n.id for n in locked}
    # A question (flip or keep, escalate or accept) is no place to be trapped in: asked where both answers lead into
    # a trap, it is the way in, and the trap is the scene its answers reach. Counted as one, a failed climb's flip in
    # the yard was a second soft-lock "in mill_yard", and the map coloured the yard a trap (a new GM's planted pit).
    trapped = [n for n in locked if not _asks(n)]
    proof.soft_lock_states = len(trapped)

    def way_in(n: Node) -> bool:  # the state it came from, past the questions on the way, is not trapped
        parent = n.parent
        while parent is not None and _asks(nodes[parent]) and parent in locked_ids:
            parent = nodes[parent].parent
        return parent is None or parent not in locked_ids

    entrances = [n for n in trapped if way_in(n)]
    entrances.sort(key=lambda n: (n.depth, n.rank))
    groups: dict[tuple, list[Node]] = {}
    for n in entrances:
        groups.setdefault(_cause(n), []).append(n)
    proof.soft_lock_groups = {cause: [n.id for n in members] for cause, members in groups.items()}
    proof.soft_locks = [_soft_lock(proof, members, parents)
                        for members in list(groups.values())[:SHOWN_SOFT_LOCKS]]
    moves = [m for n in nodes for m in (n.moves or [])]
    proof.sampled = sum(1 for m in moves if m.sampled and m.fighter is None)
    proof.styled = sum(1 for m in moves if m.fighter is not None)
    proof.exact_fights = sum(1 for m in moves if m.lens is not None and not m.sampled and m.fighter is None)
    proof.estimated_why = sorted({m.why for m in moves if m.sampled and m.fighter is None and m.why})
    # and where: "84 moves rest on conflicts the Lens chain cannot hold" named none, in an adventure of two fights
    at: dict[str, set[tuple[str, int]]] = {}
    for n in nodes:
        for m in n.moves or []:
            if not (m.sampled and m.fighter is None and m.why and n.scene is not None):
                continue
            if _asks(n):  # an escalation's fight: named by the choice whose lost roll it escalates, not "yes" = 1
                key = n.key[2] if isinstance(n.key, tuple) and len(n.key) > 2 else None
                choice = next((c for c in proof.adventure.scenes[n.scene].choices if c.key == key), None)
                if choice is not None:
                    at.setdefault(m.why, set()).add((n.scene, choice.number))
            elif m.answer.isdigit():
                at.setdefault(m.why, set()).add((n.scene, int(m.answer)))
    proof.estimated_at = {why: [f"{scene} choice {number}" for scene, number in sorted(places)]
                          for why, places in sorted(at.items())}
    places = Places()
    proof.unreachable = _unreachable(proof, places)
    proof.unfought = _unfought(proof, places)


def _reverse(nodes: list[Node]) -> list[list[int]]:
    parents: list[list[int]] = [[] for _ in nodes]
    for n in nodes:
        for m in n.moves or []:
            for a in m.arcs:
                if a.chance > 0:
                    parents[a.child].append(n.id)
    return parents


def _distances(parents: list[list[int]], targets: list[int], size: int) -> list[int | None]:
    """How many answers each state is from the nearest target, if the dice are kind (None: never)."""
    dist: list[int | None] = [None] * size
    queue = deque(targets)
    for t in targets:
        dist[t] = 0
    while queue:
        n = queue.popleft()
        d = dist[n]
        assert d is not None
        for p in parents[n]:
            if dist[p] is None:
                dist[p] = d + 1
                queue.append(p)
    return dist


def _marked(parents: list[list[int]], seeds: list[int], size: int) -> list[bool]:
    """The states from which one of ``seeds`` can be reached."""
    mark = [False] * size
    queue = deque(seeds)
    for s in seeds:
        mark[s] = True
    while queue:
        n = queue.popleft()
        for p in parents[n]:
            if not mark[p]:
                mark[p] = True
                queue.append(p)
    return mark


def _fights(move: Move) -> bool:
    """Whether a move fights its conflict (a Lens kept, or round by round as a bot), which would spend Pools."""
    return move.lens is not None or move.fighter is not None


def _best_values(nodes: list[Node], targets: set[int], dist: list[int | None], *,
                 exact_only: bool = False, fights: bool = True,
                 after_fight: list[float] | None = None) -> list[float]:
    """Each state's chance of reaching a target, choosing best everywhere: value iteration from below.

    States not searched count as never reaching it, so with an incomplete
    search this is a lower bound. ``dist``: each state's distance to the nearest target (:func:`_distances`).
    A sweep goes from the states nearest a target outwards, so a chance found is carried back along the
    shortest ways within the same sweep; the deepest first, as it went, carried it one state a sweep, and a
    long chain (a count that climbs, 6,000 states) took as many sweeps (17 s of 18 at 4,000 states). States
    that cannot reach a target keep 0 and are not swept at all. The order changes how soon the values settle,
    not what they settle to: the least fixed point of the same equations.

    ``fights`` False leaves out every move that fights a conflict; ``after_fight`` gives the values a fight's
    outcomes lead to instead of these (the best play of :func:`_one_fight`).
    """
    value = [1.0 if n.id in targets else 0.0 for n in nodes]
    order = sorted((n for n in nodes if n.moves and dist[n.id] is not None),
                   key=lambda n: (dist[n.id], -n.depth, n.rank))
    for _ in range(MAX_SWEEPS):
        change = 0.0
        for n in order:
            assert n.moves is not None
            best = max((sum(a.chance * (after_fight if after_fight is not None and _fights(m) else value)[a.child]
                            for a in m.arcs) for m in n.moves
                        if _allowed(m, exact_only=exact_only, fights=fights)),
                       default=0.0)
            if best > value[n.id]:
                change = max(change, best - value[n.id])
                value[n.id] = best
        if change < 1e-13:
            break
    for i in _surely(nodes, targets, dist, exact_only=exact_only, fights=fights, after_fight=after_fight):
        value[i] = 1.0
    return value


def _allowed(move: Move, *, exact_only: bool, fights: bool) -> bool:
    """Whether best play may take ``move`` in a working-out: only moves worked out exactly (``exact_only``), or
    none that fights (``fights`` False); :func:`_best_values` and :func:`_surely` ask the same."""
    return (not exact_only or (not move.sampled and move.fighter is None)) and (fights or not _fights(move))


def _surely(nodes: list[Node], targets: set[int], dist: list[int | None], *, exact_only: bool = False,
            fights: bool = True, after_fight: list[float] | None = None) -> set[int]:
    """The states from which best play reaches a target for certain, found on the graph alone, with no sums.

    Value iteration comes up to a chance from below and stops when a sweep changes it by less than 1e-13: a
    way that may be tried again (a lock picked until it gives) settles at 0.99999999999995, which read as
    "> 99.9 %" and 0.9999999999999982 in JSON where best play is certain. A state is sure when some move of it
    (as ``_best_values`` allows them) has every outcome in sure states and one of them nearer a target: the
    states whose best chance is exactly 1, as model checkers find them (the greatest such set, from all states
    down). A move counts only with all its outcomes known: its chances summing to 1, in a state the search did
    not cut short. A fight after a fight (``after_fight``) counts where every outcome's value there is 1.

    Each pass grows the states reached from the targets backwards, a state's parents looked at once it is
    reached (a pass over every state in turn carried a certainty back one state a pass: 22 s on a counter that
    climbs to 4,000, where the judging took 0.04 s).
    """
    def chosen(m: Move) -> bool:
        return _allowed(m, exact_only=exact_only, fights=fights) and abs(sum(a.chance for a in m.arcs) - 1.0) < 1e-9

    whole = {n.id: [m for m in n.moves or [] if chosen(m)] for n in nodes
             if n.moves and not n.cut and dist[n.id] is not None and n.id not in targets}
    elsewhere = after_fight is not None  # a fight's outcomes are valued by ``after_fight``, not on this graph
    parents: dict[int, list[int]] = {}
    for nid, ms in whole.items():
        for m in ms:
            if not (elsewhere and _fights(m)):
                for a in m.arcs:
                    if a.chance > 0:
                        parents.setdefault(a.child, []).append(nid)
    seeds = [nid for nid, ms in whole.items()
             if elsewhere and any(_fights(m) and all(after_fight[a.child] >= 1.0 for a in m.arcs if a.chance > 0)
                                  for m in ms)] if after_fight is not None else []
    sure = set(targets) | set(whole)
    while True:
        reached = set(targets) | set(seeds)
        queue = deque(reached)
        while queue:
            for p in parents.get(queue.popleft(), ()):
                if p in reached or p not in sure:
                    continue
                for m in whole[p]:
                    if elsewhere and _fights(m):
                        continue
                    kids = [a.child for a in m.arcs if a.chance > 0]
                    if all(c in sure for c in kids) and any(c in reached for c in kids):
                        reached.add(p)
                        queue.append(p)
                        break
        if reached == sure:
            return sure - set(targets)
        sure = reached


def _rests_on_samples(nodes: list[Node], value: list[float], targets: set[int], dist: list[int | None]) -> bool:
    """Whether best play's chance rests on a conflict estimated by playing it (sampled, or fought as a bot
    fights): it then reads as an estimate, never as a certainty (200 plays all won is not "100 %").

    Best play is worked out again with those moves left out: if it then does worse from the start, its chance
    came from them. (Following best play's own moves instead went wrong on a choice that loops back, which
    always matches its state's value, and on two exact moves that tie.)
    """
    if not nodes or value[0] <= 0.0:
        return False
    exact = _best_values(nodes, targets, dist, exact_only=True)
    return exact[0] < value[0] - 1e-12


def _sampling_error(nodes: list[Node], value: list[float], targets: set[int], dist: list[int | None]) -> float:
    """How far best play's chance may stray for the conflicts in it that were played, not worked out: at most this
    many standard errors' worth, one standard error of each played conflict's shares summed along best play's way.

    Best play's way is held fixed (at each state the move that gives its value). A move priced from n plays (400, or
    200 fought as a bot fights) moves the chance by its outcomes' values weighted by their shares, so its shares'
    sampling error moves it by one standard error of those values over n plays, as often as best play comes to that
    state (its expected visits: a lock tried again after each stalemate is visited more than once). Summed, not
    added in squares: one conflict read back in several states is one sample, not several that may cancel, and a sum
    of standard errors is never less than the standard error of a sum. A new GM's "about 6.5 %" rested on 200 plays
    of one argument, where the explorer bot reached that ending in 8.7 % of 2,000 runs: 6.5 % ± 1.7.

    Where moves tie, best play's way is the one that heads for the target (its nearest outcome the fewest answers
    from it, ``dist``): a choice that loops back ties with its state's own value, and taken first it had best play
    wait for ever, never meeting the conflict (error 0). A conflict whose every play led to an outcome worth the same
    has no spread of its own, yet 200 plays all won is no certainty: its share is then given the Agresti-Coull
    error of a share of 0 or 1 (two won and two lost added), against the whole way the unseen outcome could move
    the value.
    """
    from ...story.play.chances import SAMPLED_CONFLICTS, SAMPLED_STYLES

    chosen: dict[int, Move] = {}
    for n in nodes:
        if n.id in targets or not n.moves or value[n.id] <= 0.0:
            continue
        moves = [(sum(a.chance * value[a.child] for a in m.arcs), m) for m in n.moves
                 if _allowed(m, exact_only=False, fights=True)]
        if not moves:
            continue
        top = max(worth for worth, _ in moves)
        chosen[n.id] = min((m for worth, m in moves if worth >= top - 1e-9),
                           key=lambda m: min((d for a in m.arcs if a.chance > 0 and (d := dist[a.child]) is not None),
                                             default=len(nodes)))
    into: dict[int, list[tuple[int, float]]] = {}
    for i, m in chosen.items():
        for a in m.arcs:
            if a.chance > 0 and value[a.child] > 0.0:
                into.setdefault(a.child, []).append((i, a.chance))
    visits = dict.fromkeys(chosen, 0.0)
    order = sorted(chosen, key=lambda i: (nodes[i].depth, nodes[i].rank))
    for _ in range(MAX_SWEEPS):  # expected visits under best play, from the start: sweeps until they settle
        change = 0.0
        for i in order:
            seen = (1.0 if i == 0 else 0.0) + sum(visits.get(j, 0.0) * chance for j, chance in into.get(i, ()))
            change, visits[i] = max(change, abs(seen - visits[i])), seen
        if change < 1e-12:
            break
    error = 0.0
    for i, m in chosen.items():
        if not (m.sampled or m.fighter is not None) or not visits[i]:
            continue
        plays = SAMPLED_STYLES if m.fighter is not None else SAMPLED_CONFLICTS
        ended = [a for a in m.arcs if a.chance > 0]
        worths = {value[a.child] for a in ended}
        if len(worths) == 1:  # every play ended as well as any other: an unseen outcome's share, the whole way off
            share = 2 / (plays + 4)
            worth = worths.pop()
            reach = max(worth, 1.0 - worth)
            error += visits[i] * reach * (share * (1 - share) / (plays + 4)) ** 0.5
            continue
        mean = sum(a.chance * value[a.child] for a in ended)
        spread = sum(a.chance * value[a.child] ** 2 for a in ended) - mean * mean
        error += visits[i] * (max(0.0, spread) / plays) ** 0.5
    return error


def _one_fight(nodes: list[Node], value: list[float], targets: set[int], dist: list[int | None]) -> float | None:
    """Best play's chance allowing one fight at most on the way, where best play's own counts on fighting more than
    one conflict (else None): the search carries no conflict's damage (docs/proving.md), so a second fight is
    priced from the Pools the party had before the first, and the chance is then an upper bound (a fight tried
    again after fleeing it read 84.6 %, healed between tries or not, where the cautious bot won 14.5 % without
    healing).

    Best play is worked out again allowing one fight at most: after it, no move that fights. If that does worse
    from the start, the chance came from a second fight; and what it does is a chance play can have (its one
    fight is priced from the Pools the party really has), so the report gives it beside the bound.
    """
    if not nodes or value[0] <= 0.0:
        return None
    none_after = _best_values(nodes, targets, dist, fights=False)
    once = _best_values(nodes, targets, dist, after_fight=none_after)
    return min(1.0, once[0]) if once[0] < value[0] - 1e-12 else None


def nearest_move(node: Node, dist: list[int | None]) -> tuple[Move | None, int | None]:
    """The move a walkthrough takes at ``node`` towards the states ``dist`` measures from: the one with the fewest
    answers left to them, then the one likeliest to keep to that (a sure give-up before a fight that may go either
    way), then one whose chance is worked out before one estimated from plays (a bot's fight that stalemated in
    all its plays is no surer than giving up, and its replay rests on the dice), then a plain choice before a
    conflict given up or fled at once, and that before one fought (the same story choice, and a Lens prompt more,
    or a whole fight's: a walkthrough home read "fight, then Surrender" where "Turn back" went there as surely),
    the first on the menu among equals; with that fewest (None, None where no move gets there)."""
    def score(move: Move) -> tuple[float, float, bool, int]:
        near = [d for d in (dist[a.child] for a in move.arcs) if d is not None]
        if not near:
            return (float("inf"), 0.0, False, 0)
        best = min(near)
        return (float(best), -sum(a.chance for a in move.arcs if dist[a.child] == best), move.sampled,
                2 if _fights(move) else 1 if move.exit is not None else 0)

    if not node.moves:
        return None, None
    move = min(node.moves, key=score)
    first = score(move)[0]
    return (None, None) if first == float("inf") else (move, int(first))


def path_into(proof: Proof, ids: list[int], parents: list[list[int]] | None = None) -> list[dict[str, Any]]:
    """The shortest way into one of the states ``ids``, each step's scene, choice, answer and outcome, as the
    replay script takes it (:func:`nearest_move` at every state, as the walkthrough's decider chooses; of the
    move's outcomes the likeliest that keeps to the shortest way). A way in that gives up a conflict at once is
    told so, and not as the fight the same choice also offers."""
    nodes = proof.nodes
    dist = _distances(parents if parents is not None else _reverse(nodes), ids, len(nodes))
    steps: list[dict[str, Any]] = []
    node = nodes[0]
    while dist[node.id]:
        move, near = nearest_move(node, dist)
        assert move is not None  # every state with a distance has a move towards it
        arc = max((a for a in move.arcs if dist[a.child] == near), key=lambda a: a.chance)
        steps.append({"scene": node.scene, "choice": move.label, "answer": move.answer, "outcome": arc.outcome})
        node = nodes[arc.child]
    return steps


def _asks(node: Node) -> bool:
    """Whether the node is a question an outcome puts (flip or keep, escalate or accept), not a scene's menu."""
    return node.flip is not None or node.escalate


def _why(node: Node) -> str:
    return {DEAD_END: "no choice is offered", ERROR: node.error}.get(node.end or "", "no ending can be reached")


def _cause(node: Node) -> tuple:
    """What traps a soft-lock: its scene, why, and the conditions that keep the scene's other choices closed.

    States trapped the same way (they differ in what cannot free them) are one soft-lock in the report.
    """
    return (node.scene, _why(node), node.closed)


def _soft_lock(proof: Proof, members: list[Node], parents: list[list[int]]) -> dict[str, Any]:
    """A soft-lock as reported: the scene, why, the closed choices that trap it, how many states lead into
    it that way (``members``, the first the nearest), and the shortest path in (each step as the menu numbers it)."""
    node = members[0]
    assert node.scene is not None  # a soft-lock is a state in a scene
    choices = {c.number: c for c in proof.adventure.scenes[node.scene].choices}
    closed = [{"choice": str(number), "text": words(choices[number].text, proof.adventure), "if": source, "once": once,
               "taken": taken} for number, source, once, taken in node.closed]
    return {"scene": node.scene, "why": _why(node), "closed": closed, "entrances": len(members),
            "path": path_into(proof, [n.id for n in members], parents)}


def _unfought(proof: Proof, place: Places) -> list[dict[str, Any]]:
    """The conflicts met in some state with nobody left to fight the party (every opponent spent or gone): won
    with no round fought, so the branch for a win is told of a fight that did not happen. Kaldskard's hut did it:
    "the door bursts inward … whatever is left of the barrow-folk", then "No contest", then "The last of them
    falls across the threshold", for a party that had laid every wight among the barrows."""
    out = []
    for (sid, key), states in proof.no_contests.items():
        choice = next(c for c in proof.adventure.scenes[sid].choices if c.key == key)
        out.append({"scene": sid, "choice": choice.name or choice.key, "text": words(choice.text, proof.adventure),
                    **place(choice.where), "states": states})
    return out


def _unreachable(proof: Proof, place: Places) -> list[dict[str, Any]]:
    """The scenes never entered and the choices never offered, each with its file, line and TOML path as
    ``solo check`` points at them, and a choice with what keeps it off the menu as written (``if``): a new GM's
    planted mistake was listed with neither, the line nor the condition that shut it."""
    out: list[dict[str, Any]] = []
    for scene in proof.adventure.scenes.values():
        if scene.id not in proof.entered:
            out.append({"scene": scene.id, "choice": None, "text": words(scene.title, proof.adventure),
                        **place(scene.where)})
            continue
        for choice in scene.choices:
            if (scene.id, choice.key) not in proof.offered:
                out.append({"scene": scene.id, "choice": choice.name or choice.key,
                            "text": words(choice.text, proof.adventure), **place(choice.where),
                            "if": choice.written_condition(),
                            "once": choice.once,
                            "party_size": reads_party_size(proof.adventure, choice)})
    return out


def reads_party_size(adventure, choice) -> bool:
    """Whether the choice is written for another party than the one searched, and not offering it to this one is
    no finding (docs/proving.md): its condition asks how many travel (``party_size()``) in an adventure that
    several party sizes may play (with one size allowed it is a finding like any other), or how many come with
    empty hands (``unarmed()``: the players' characters bring their own weapons, a review's armed --pc)."""
    if choice.condition is None:
        return False
    called = {name for name, _ in choice.condition.calls()}
    return "unarmed" in called or (adventure.party_min < adventure.party_max and "party_size" in called)
