"""``solo prove``'s search: every state an adventure can reach, and what follows from the graph.

The ``prove_*`` modules drive the real engine one choice at a time
(:mod:`solo.sim.prove.probe`), with the exact odds of every roll
(:mod:`solo.story.play.chances`); docs/proving.md says what they find and
how far to trust it.

Nodes are states as :mod:`solo.sim.prove.reads` tells them apart, or the
question a lost opposed roll puts (escalate or not); a *move* is a choice
(or that answer) and leads to each outcome of its action with its exact
chance. From the graph: which endings are reached, how many choices the shortest
way takes, the best chance of each ending (the best choice at every state,
the odds at every roll), the states no ending can be reached from, and the
choices and scenes no state offers.
"""

from __future__ import annotations

import heapq
from collections import Counter, deque
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...rules.outcomes import WON
from ...story.play.chances import Outcomes, Plan, escalation_outcomes, outcomes
from ...story.play.engine import DEAD_END
from ...story.play.rolling import flip_label
from .limits import DEFAULT_MAX_STATES
from .probe import Packer, ProbeGame, fork, start, step
from .reads import Reads

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...rules.character import Character
    from ...story.format.adventure import Action, Adventure, Choice, Scene
    from ...story.play.chances import Fighters

    #: Told how the search goes (states searched, states found), every PROGRESS_EVERY states.
    Progress = Callable[[int, int], None]

#: States searched between two calls of a progress callback.
PROGRESS_EVERY = 50
#: While some ending is not reached yet, every this many-th state searched is the waiting one nearest to such an
#: ending by the scene graph (:meth:`_Search._toward_ending`); the others go as :meth:`_Search._next` says. 0: never.
TOWARD_ENDING_EVERY = 4
#: Rounds of value iteration for the best chances (a loop converges geometrically; this is a guard).
MAX_SWEEPS = 5_000
ERROR = "__error__"


@dataclass(slots=True)
class Arc:
    chance: float
    child: int
    outcome: str | None  # the action's outcome, None for a plain goto


@dataclass(slots=True)
class Move:
    key: str  # the choice's key, or "yes"/"no" at the escalate question
    answer: str  # what a script types at the menu: its number there
    label: str  # the choice's words, for a person
    arcs: list[Arc] = field(default_factory=list)
    note: str = ""  # what the chances rest on
    sampled: bool = False
    lens: str | None = None
    exit: str | None = None  # the party flees or gives up at once in the choice's conflict ("flee", "surrender")
    fighter: str | None = None  # the conflict is fought round by round as this fighter fights (not one Lens kept)
    why: str = ""  # why its conflict's chances are estimated (sampled), not worked out by the Lens chain


def exit_words(game: ProbeGame, spec: dict, exit: str) -> str:
    """How a move that leaves its conflict at once is told in a report: by the name its Lens menu gives that way out
    ("then walk away at once" from an argument or a lock, "then surrender at once" of a fight; a review found every
    one told as fleeing or giving up)."""
    from ...rules.conflict import exit_name
    from ...story.play.actions import conflict_type_of, party_hunts

    ctype = conflict_type_of(game, spec)
    things = bool(spec.get("obstacle")) and not spec.get("npcs")  # against things only, as its menu says (the review)
    return (f"then {exit_name(ctype, exit, hunts=party_hunts(ctype, spec), static=things).lower()} "
            "at once")


def fought_as(name: str) -> str:
    """How a move fought as a fighter is told in a report."""
    return f"fought as solo simulate's {name} bot fights"


@dataclass(slots=True)
class Node:
    id: int
    key: Hashable
    scene: str | None
    depth: int
    parent: int | None = None
    via: tuple[int, str | None] | None = None  # (index of the parent's move, outcome) that first led here
    moves: list[Move] | None = None  # None: not expanded (the search stopped first)
    end: str | None = None  # an ending's scene, FALLEN, DEAD_END or ERROR
    escalate: bool = False  # the question after a lost opposed roll
    #: The question after a roll a Luck flip would turn: (the outcome kept, the flipped one, whether a kept loss
    #: may still be escalated).
    flip: tuple[str, str, bool] | None = None
    error: str = ""
    cut: bool = False  # some outcome led past the state limit: what follows is not all known
    #: The scene's choices not on offer here, each as (menu number, condition): what may trap a soft-lock.
    closed: tuple[tuple[int, str, bool, bool], ...] = ()  # each choice shut: (number, its if as written,
    # once-only, taken already)
    #: Its place in the breadth-first walk of :func:`shortest_tree`: what breaks ties between states where the
    #: order the search found them in must not (it changes with the search's order, the graph does not)
    rank: int = 0


#: Noted for an action whose outcomes the search does not weigh (a table's draw, by the engine's own dice).
ANY_OUTCOME = "*"


@dataclass
class Proof:
    """What the search found (see :mod:`solo.sim.prove.report` for how it is told)."""

    adventure: Adventure
    reads: Reads
    nodes: list[Node]
    index: dict[Hashable, int]
    complete: bool
    offered: set[tuple[str, str]]
    entered: set[str]
    party: list[Character] | None
    fighters: Fighters | None = None
    endings: dict[str, dict[str, Any]] = field(default_factory=dict)
    soft_locks: list[dict[str, Any]] = field(default_factory=list)
    soft_lock_states: int = 0
    #: Each soft-lock's cause (scene, why, closed choices) -> the states that enter it so, shallowest first.
    soft_lock_groups: dict[tuple, list[int]] = field(default_factory=dict)
    unreachable: list[dict[str, Any]] = field(default_factory=list)
    unfought: list[dict[str, Any]] = field(default_factory=list)  # the conflicts of no_contests, as reported
    distances: dict[str, list[int | None]] = field(default_factory=dict)
    frontier: int = 0  # states found but not searched
    unreduced: int = 0  # distinct states among those found before dead-variable elimination merged them
    sampled: int = 0  # moves keeping a Lens whose chances were estimated by playing (the chain cannot hold them)
    exact_fights: int = 0  # moves keeping a Lens in a conflict priced exactly by the Lens chain
    styled: int = 0  # moves fought as a bot fights, estimated by playing
    estimated_why: list[str] = field(default_factory=list)  # why those conflicts are estimated, each reason once
    #: where they are, by reason: "mill_yard choice 2", as the menu numbers the choice there
    estimated_at: dict[str, list[str]] = field(default_factory=dict)
    seconds: float = 0.0  # the search, from loading the adventure's first state to the judged graph
    walk_seconds: float = 0.0  # the seed search for the walkthroughs and the soft-locks' replays
    party_size: int = 0  # how many player characters the searched games have
    #: (scene, choice key, escalated) -> the outcomes its action had a chance of in some searched state (a flip's
    #: included): what never had one explains an ending never reached (report.blocked_ways)
    outcomes: dict[tuple[str, str, bool], set[str]] = field(default_factory=dict)
    #: (scene, choice key) -> the states in which its conflict has nobody to fight the party (every opponent spent
    #: or gone): the branch for a win is then told of a fight nobody fought (docs/proving.md)
    no_contests: dict[tuple[str, str], int] = field(default_factory=dict)


class _Search:
    def __init__(self, adventure: Adventure, party: list[Character] | None, max_states: int,
                 progress: Progress | None = None, reduce: bool | Iterable[str] = True,
                 fighters: Fighters | None = None):
        self.adventure = adventure
        self.fighters = fighters
        self.progress = progress
        self.reads = Reads(adventure, reduce=reduce)
        self.max_states = max_states
        self.nodes: list[Node] = []
        self.index: dict[Hashable, int] = {}
        self.waiting: dict[str | None, list[tuple[int, int]]] = {}  # per scene: (depth, node), shallowest first
        self.queue: list[tuple[int, int, int, str | None]] = []  # a scene's head: (times searched, depth, node, scene)
        self.games: dict[int, tuple[str, bytes]] = {}  # the nodes not searched yet: their games, packed
        self.packer: Packer | None = None
        self.searched: Counter[str | None] = Counter()
        self.full = False
        self.offered: set[tuple[str, str]] = set()
        self.entered: set[str] = set()
        self.outcomes: dict[tuple[str, str, bool], set[str]] = {}
        self.no_contests: dict[tuple[str, str], int] = {}
        self.party = party
        self.party_size = 0
        self.unreached = {s.id for s in adventure.endings()}  # ending scenes no state found has reached
        self.to_go: dict[str, int] = {}  # scene -> steps in the scene graph to the nearest of them
        #: the waiting nodes, nearest such ending first: (steps, depth, node)
        self.toward: list[tuple[int, int, int]] = []
        self.picks = 0
        self._aim()

    def key(self, game: ProbeGame) -> Hashable:
        if game.finished:
            ending = game.state.ending
            return ("end", ending, game.state.scene if ending == DEAD_END else None)
        return self.reads.key(game)

    def node_for(self, key: Hashable, game: ProbeGame | None, parent: Node | None, via: tuple[int, str | None] | None,
                 *, escalate: bool = False, flip: tuple[str, str, bool] | None = None,
                 error: str = "") -> int | None:
        """The node of ``key``, made (and queued) if new; None when the search is full."""
        if key in self.index:
            return self.index[key]
        if len(self.nodes) >= self.max_states:
            self.full = True
            return None
        scene = game.state.scene if game is not None else parent.scene if parent is not None else None
        node = Node(len(self.nodes), key, scene, parent.depth + 1 if parent else 0,
                    parent.id if parent else None, via, escalate=escalate, flip=flip, error=error)
        if error:
            node.end, node.moves = ERROR, []
        elif game is not None and game.finished:
            node.end, node.moves = game.state.ending, []
            if node.end == DEAD_END and scene:  # the choices that shut it in, as a searched soft-lock names them (a
                # GM's evening: "in cove: no choice is offered" came with "closed": [], the one thing to fix)
                node.closed = self._closed(self.adventure.scenes[scene], game)
        self.nodes.append(node)
        self.index[key] = node.id
        if node.end in self.unreached:
            self.unreached.discard(node.end)
            self._aim()
        if scene:
            self.entered.add(scene)
        if node.moves is None:
            assert game is not None
            if self.packer is None:
                self.packer = Packer(game)
            self.games[node.id] = self.packer.pack(game)
            self._wait(node)
        return node.id

    def _wait(self, node: Node) -> None:
        """Queue ``node`` in its scene; the scene's shallowest node stands for it in :attr:`queue`.

        Every push and pop costs O(log n): an entry of :attr:`queue` whose scene has since been searched, or
        whose head has changed, is stale and skipped when it comes up (:meth:`_next`).
        """
        heap = self.waiting.setdefault(node.scene, [])
        heapq.heappush(heap, (node.depth, node.id))
        if heap[0] == (node.depth, node.id):
            heapq.heappush(self.queue, (self.searched[node.scene], node.depth, node.id, node.scene))
        steps = self.to_go.get(node.scene or "")
        if steps is not None:
            heapq.heappush(self.toward, (steps, node.depth, node.id))

    def _aim(self) -> None:
        """Steps from each scene to the nearest ending not reached yet, and the waiting nodes ordered by them."""
        self.to_go = _steps_to(self.adventure, self.unreached) if self.unreached else {}
        self.toward = [(self.to_go[n.scene or ""], n.depth, n.id) for n in (self.nodes[i] for i in self.games)
                       if (n.scene or "") in self.to_go]
        heapq.heapify(self.toward)

    def _next(self) -> int | None:
        """The node to search next (None: nothing waits): mostly the shallowest one waiting in the scene searched
        least, so that a limited search reaches every part of the story; while an ending is not reached, every
        :data:`TOWARD_ENDING_EVERY`-th the one nearest to such an ending, so that it reaches every ending soon
        (Vellan's last, ending_escaped, at about 1,050 states instead of 4,400)."""
        self.picks += 1
        if TOWARD_ENDING_EVERY and self.picks % TOWARD_ENDING_EVERY == 0:
            nid = self._toward_ending()
            if nid is not None:
                return nid
        while self.queue:
            count, depth, nid, scene = heapq.heappop(self.queue)
            heap = self.waiting.get(scene)
            if not heap or heap[0] != (depth, nid) or self.searched[scene] != count:
                continue  # stale: the scene was searched since, or a shallower node came first
            heapq.heappop(heap)
            self._took(scene)
            return nid
        return None

    def _toward_ending(self) -> int | None:
        """The waiting node nearest to an ending not reached yet: in scenes, then to the start as it was found. It is
        not counted among its scene's searches: the scene-by-scene order goes on as it would have without it
        (counting it lowered Vellan's lower bounds at the default limit and lengthened one walkthrough)."""
        while self.toward:
            _, _, nid = heapq.heappop(self.toward)
            if nid in self.games:
                scene = self.nodes[nid].scene
                heap = self.waiting[scene]
                if heap[0][1] == nid:
                    heapq.heappop(heap)
                self._took(scene, count=False)
                return nid
        return None

    def _took(self, scene: str | None, count: bool = True) -> None:
        """A node of ``scene`` is being searched: count it (if ``count``), and put the scene's new head (the
        shallowest node still waiting there; one searched already, taken toward an ending, is dropped) in the
        queue."""
        if count:
            self.searched[scene] += 1
        heap = self.waiting[scene]
        while heap and heap[0][1] not in self.games:
            heapq.heappop(heap)
        if heap:
            head = heap[0]
            heapq.heappush(self.queue, (self.searched[scene], head[0], head[1], scene))

    def run(self) -> None:
        try:
            root = start(self.adventure, self.party)
            self.party_size = len(root.state.pcs)
            self.node_for(self.key(root), root, None, None)
        except Exception as exc:  # noqa: BLE001 - a broken adventure is reported, not a crash of prove
            self.node_for(("error", repr(exc)), None, None, None, error=f"{type(exc).__name__}: {exc}")
        tick = 0
        while not self.full:
            nid = self._next()
            if nid is None:
                break
            tick += 1
            if self.progress is not None and tick % PROGRESS_EVERY == 0:
                self.progress(tick, len(self.nodes))
            node = self.nodes[nid]
            assert self.packer is not None
            game = self.packer.unpack(self.games.pop(nid))
            if node.escalate:
                self.expand_escalation(node, game)
            elif node.flip is not None:
                self.expand_flip(node, game)
            else:
                self.expand(node, game)

    def _arc(self, node: Node, move_index: int, game: ProbeGame, key: str, plan: Plan | None) -> Arc | None:
        outcome = plan.outcome if plan is not None else None
        try:
            child = step(game, key, plan)
        except Exception as exc:  # noqa: BLE001 - the engine failed on this path: a state of its own
            error = f"{type(exc).__name__}: {exc}"
            cid = self.node_for(("error", node.key, key, outcome), None, node, (move_index, outcome), error=error)
        else:
            cid = self.node_for(self.key(child), child, node, (move_index, outcome))
        if cid is None:
            node.cut = True
            return None
        return Arc(plan.chance if plan is not None else 1.0, cid, outcome)

    @staticmethod
    def _closed(scene: Any, game: ProbeGame,
                offered: Sequence[Any] | None = None) -> tuple[tuple[int, str, bool, bool], ...]:
        """Each choice of ``scene`` not on offer now: its number, its ``if`` as written, once-only, and taken."""
        keys = {c.key for c in (game.available(scene) if offered is None else offered)}
        chosen = game.state.chosen
        return tuple((c.number, c.written_condition(), c.once,
                      c.once and chosen.get(f"{scene.id}/{c.name or c.key}", 0) > 0)
                     for c in scene.choices if c.key not in keys)

    def expand(self, node: Node, game: ProbeGame) -> None:
        assert game.state.scene is not None
        scene = self.adventure.scenes[game.state.scene]
        node.moves = []
        offered = game.available(scene)
        node.closed = self._closed(scene, game, offered)
        for position, choice in enumerate(offered, 1):
            self.offered.add((scene.id, choice.key))
            number = str(choice.number or position)  # the menu's own number: a scene keeps its gaps
            move = Move(choice.key, number, words(choice.text, self.adventure))
            i = len(node.moves)
            node.moves.append(move)
            plans: list[Plan | None] = [None]
            exits: list[Plan] = []
            styles: list[Outcomes] = []
            if choice.action is not None:
                found = outcomes(*paid(game, scene, choice), self.fighters)
                plans, exits, styles = list(found.plans), found.exits, found.styles
                if found.no_contest == WON:
                    self.no_contests[scene.id, choice.key] = self.no_contests.get((scene.id, choice.key), 0) + 1
                self._seen(scene.id, choice.key, False, found.every_plan())
                move.note, move.lens = found.note, found.lens
                move.sampled = any(p.sampled for p in found.plans)
                move.why = found.why
            for plan in plans:
                if plan is not None and plan.flip is not None:  # the roller may spend Luck to turn it
                    asked = ("flip", node.key, choice.key, flip_label(plan.outcome, plan.escalation), plan.flip)
                    arc = self._question(node, asked, game, i, plan.chance, plan.outcome,
                                         flip=(plan.outcome, plan.flip, plan.escalation))
                elif plan is not None and plan.escalation:
                    arc = self._question(node, ("escalate", node.key, choice.key), game, i, plan.chance,
                                         plan.outcome, escalate=True)
                else:
                    arc = self._arc(node, i, game, choice.key, plan)
                if arc is not None:
                    _add(move, arc)
            for style in styles:  # the conflict fought round by round as a fighter fights it: a move of its own
                self._style_move(node, game, choice.key, number, words(choice.text, self.adventure), style)
            for plan in exits:  # the party's own way out of the conflict: a move of its own, no chance
                assert choice.action is not None  # (only a conflict has the party's ways out)
                leaving = exit_words(game, choice.action.spec, plan.exit or "")
                way = Move(choice.key, number, f"{words(choice.text, self.adventure)} ({leaving})",
                           note="the party's choice: no roll", exit=plan.exit)
                node.moves.append(way)
                arc = self._arc(node, len(node.moves) - 1, game, choice.key, plan)
                if arc is not None:
                    _add(way, arc)

    def _seen(self, scene: str, key: str, escalated: bool, plans: list[Plan]) -> None:
        """Note the outcomes an action had a chance of here (and those a Luck flip would give); an action the search
        leaves to the engine's own dice (a table's draw) is noted as any outcome (:data:`ANY_OUTCOME`)."""
        seen = self.outcomes.setdefault((scene, key, escalated), set())
        for plan in plans:
            if plan.real:
                seen.add(ANY_OUTCOME)
            elif plan.chance > 0:
                seen.add(plan.outcome)
                if plan.flip is not None:
                    seen.add(plan.flip)

    def _question(self, node: Node, key: tuple, game: ProbeGame, move_index: int, chance: float, outcome: str,
                  **kind: Any) -> Arc | None:
        """The arc into the question an outcome puts (escalate or not, flip or keep), a node of its own that holds
        the game at the choice; None, and ``node`` cut, when the search is full."""
        cid = self.node_for(key, game, node, (move_index, outcome), **kind)
        node.cut = node.cut or cid is None
        return Arc(chance, cid, outcome) if cid is not None else None

    def _asked(self, node: Node, game: ProbeGame) -> tuple[Choice, ProbeGame, Action, str | None]:
        """The choice a question node asks about (its key: (kind, the state of the choice, the choice, …)), the
        game and the action as the choice's action meets it (:func:`paid`), and the PC who rolled (every
        outcome's roller)."""
        assert isinstance(node.key, tuple)
        scene = self.adventure.scenes[game.state.scene or ""]
        choice = next(c for c in scene.choices if c.key == node.key[2])
        priced, action = paid(game, scene, choice)
        return choice, priced, action, next((p.roller for p in outcomes(priced, action).plans), None)

    def _style_move(self, node: Node, game: ProbeGame, key: str, number: str, words: str, style: Outcomes) -> None:
        assert node.moves is not None and style.fighter is not None
        way = Move(key, number, f"{words} ({fought_as(style.fighter)})", note=style.note, sampled=True,
                   fighter=style.fighter)
        node.moves.append(way)
        for plan in style.plans:
            arc = self._arc(node, len(node.moves) - 1, game, key, plan)
            if arc is not None:
                _add(way, arc)

    def expand_escalation(self, node: Node, game: ProbeGame) -> None:
        """Escalate (a conflict, its own chances) or accept the lost roll: both answers of the question."""
        choice, priced, action, roller = self._asked(node, game)
        choice_key = choice.key
        node.moves = []
        accept = Move("no", "2", "Accept the loss")
        escalate = Move("yes", "1", "Escalate to an Extended Conflict")
        node.moves += [escalate, accept]
        arc = self._arc(node, 1, game, choice_key, Plan(1.0, "lose", roller=roller))
        if arc is not None:
            _add(accept, arc)
        found = escalation_outcomes(priced, action, self.fighters)
        self._seen(game.state.scene or "", choice_key, True, found.every_plan())
        escalate.note, escalate.lens = found.note, found.lens
        escalate.sampled = any(p.sampled for p in found.plans)
        escalate.why = found.why
        for plan in found.plans:
            arc = self._arc(node, 0, game, choice_key, plan)
            if arc is not None:
                _add(escalate, arc)
        for style in found.styles:
            self._style_move(node, game, choice_key, "1", "Escalate to an Extended Conflict", style)
            node.moves[-1].key = "yes"

    def expand_flip(self, node: Node, game: ProbeGame) -> None:
        """Flip the dice (a Luck Point, the flipped outcome) or keep the roll: both answers of the question, in the
        order the engine's menu puts them. A kept loss that may be escalated goes on to that question."""
        assert node.flip is not None and isinstance(node.key, tuple)
        choice, _, _, roller = self._asked(node, game)
        choice_key = choice.key
        kept, flipped, escalates = node.flip
        flip, keep = Move("yes", "1", "Spend a Luck Point to flip the dice"), Move("no", "2", "Keep the roll")
        node.moves = [flip, keep]
        arc = self._arc(node, 0, game, choice_key, Plan(1.0, flipped, roller=roller, luck=True))
        if arc is not None:
            _add(flip, arc)
        if escalates:  # kept, the loss may still be escalated: that question, as from the choice itself
            arc = self._question(node, ("escalate", node.key[1], choice_key), game, 1, 1.0, kept, escalate=True)
        else:
            arc = self._arc(node, 1, game, choice_key, Plan(1.0, kept, roller=roller))
        if arc is not None:
            _add(keep, arc)


def paid(game: ProbeGame, scene: Scene, choice: Choice) -> tuple[ProbeGame, Action]:
    """The game as the choice's action meets it, and the action: the engine makes the roller the active PC
    (:meth:`~solo.story.play.engine.Game.roller_first`; the best at it, as best play picks), then counts the
    choice and applies its retry cost and its effects (:meth:`~solo.story.play.engine.Game.pay_for`), which may
    move what the action rests on (a Luck Point given or taken before a roll, a disposition before a quarrel).
    On a copy, played as a step plays it; the game itself where the choice has neither effects nor a retry
    cost."""
    action = choice.action
    assert action is not None
    if not choice.effects and not choice.retry_cost:
        return game, action
    copy = fork(game)
    action = copy.take(scene, choice, best=True)
    assert action is not None
    return copy, action


def _steps_to(adventure: Adventure, targets: set[str]) -> dict[str, int]:
    """Each scene from which one of the ``targets`` can be reached in the scene graph (every ``goto``, route,
    outcome and escalation, as :func:`~solo.story.format.graph.edges` draws them) -> the fewest steps to one."""
    from ...story.format.graph import edges

    into: dict[str, set[str]] = {}
    for sid, out in edges(adventure).items():
        for _, target in out:
            into.setdefault(target, set()).add(sid)
    steps = dict.fromkeys(targets, 0)
    layer = sorted(targets)
    while layer:
        nxt = []
        for sid in layer:
            for before in sorted(into.get(sid, ())):
                if before not in steps:
                    steps[before] = steps[sid] + 1
                    nxt.append(before)
        layer = nxt
    return steps


def shortest_tree(nodes: list[Node]) -> None:
    """Each node's parent and depth on a shortest way from the start, through the graph as found, and its
    :attr:`~Node.rank` in that walk.

    The search does not go breadth first (it goes first where it has been least, to reach every scene within
    the state limit, and now and then toward an ending not reached yet), so the ways it first found are not
    always the shortest, and the order it numbered the states in is its own; this puts the shortest ways in
    their place, and ranks the states by the graph alone.
    """
    if not nodes:
        return
    seen = {0}
    nodes[0].parent, nodes[0].via, nodes[0].depth = None, None, 0
    queue = deque([0])
    rank = 0
    while queue:
        n = nodes[queue.popleft()]
        n.rank = rank
        rank += 1
        for i, move in enumerate(n.moves or []):
            for arc in move.arcs:
                if arc.child not in seen:
                    seen.add(arc.child)
                    child = nodes[arc.child]
                    child.parent, child.via, child.depth = n.id, (i, arc.outcome), n.depth + 1
                    queue.append(arc.child)


def _add(move: Move, arc: Arc) -> None:
    """Outcomes that lead to the same state are one arc, named by all of them ("won or opponent_fled")."""
    for a in move.arcs:
        if a.child == arc.child:
            a.chance += arc.chance
            if arc.outcome and arc.outcome not in (a.outcome or "").split(" or "):
                a.outcome = f"{a.outcome} or {arc.outcome}" if a.outcome else arc.outcome
            return
    move.arcs.append(arc)


def words(text: str, adventure: Adventure) -> str:
    """A choice's words or a scene's title as the report says them, as the map and solo simulate show them, on one
    line: no one state picks an ``{if}`` block's side, so each shows its first, an NPC's slot reads as the name in
    its file (:meth:`~solo.story.format.adventure.Adventure.as_listed`), and other slots stay as written ("{words.case}
    pieces"); the markup itself ("{if knows_sister}her brother's{else}…{end}") helps no reader."""
    return adventure.as_listed(" ".join(text.split()))


def prove(adventure: Adventure, party: list[Character] | None = None, *,
          max_states: int = DEFAULT_MAX_STATES, progress: Progress | None = None,
          reduce: bool | Iterable[str] = True,
          fighters: Fighters | None = None) -> Proof:
    """Search ``adventure`` played by ``party`` (the adventure's own character when None) and judge the graph.

    ``reduce`` False keeps in every state what nothing ahead can read (no dead-variable elimination): the same
    findings from more states, for a test to compare; a set of :data:`~.liveness.REDUCTIONS` makes only those.
    ``fighters`` (name -> a decider made from a generator: ``solo simulate``'s bots, as
    :func:`solo.sim.policies.prove_fighters` gives them) add, to every conflict, the moves of fighting it as each
    of them does, so that best play is at least as good as theirs."""
    import time

    from .judge import judge

    began = time.perf_counter()
    search = _Search(adventure, party, max_states, progress, reduce, fighters)
    search.run()
    proof = Proof(adventure, search.reads, search.nodes, search.index, not search.full, search.offered,
                  search.entered, party, frontier=sum(1 for n in search.nodes if n.moves is None),
                  unreduced=len(search.reads.unreduced) + sum(1 for n in search.nodes if not isinstance(n.key, bytes)),
                  fighters=fighters, party_size=search.party_size, outcomes=search.outcomes,
                  no_contests=search.no_contests)
    shortest_tree(proof.nodes)
    judge(proof)
    proof.seconds = time.perf_counter() - began
    return proof
