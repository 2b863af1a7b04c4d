"""A walkthrough that really plays: the answers ``solo play --script`` reads, and a seed under which they work.

The graph says how few choices an ending takes if the dice are kind; this
module finds dice that are. It plays the real engine, seed after seed, with
a decider that takes, at every choice, a move that keeps the ending nearest
(and escalates or not, and flips a roll with Luck or not, the same way),
keeps the best Lens in a conflict, spends no other Luck (a move fought as a
bot spends what that bot spends) and answers the prompts around the story
(the character, the epilogue) as a player at the keyboard would. Every answer is written
down as the menu numbers it. The first seed that reaches the ending in the
fewest choices wins; failing that, the first that reaches it at all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...decisions import CLEVER_FOLLOW_UP, DAMAGE_POOL, FLAMBOYANT_SKILL, LENS, QUICK_ACTION, TARGET, Decider, Question
from ...story.play.engine import DEAD_END, Game, plain_answer
from .judge import nearest_move  # the soft-lock's path in the report takes the moves a walkthrough takes
from .search import ERROR

if TYPE_CHECKING:
    from ...rules.character import Character
    from .search import Move, Node, Proof

#: Seeds tried for each ending before saying none was found.
DEFAULT_SEEDS = 200
#: The questions of the scenario's end (the Willpower Focuses acted by, the improvement rolls): answered as a player who
#: keeps the rolls would, so that a walkthrough kept as a regression test changes no character it is played with.
_AFTER_THE_STORY = frozenset({"willpower_acted", "improve"})
#: Answers a walkthrough may give before it counts as lost in a loop.
MAX_ANSWERS = 5_000
#: A seed whose walk comes back to one state this often is dropped: the dice, or Pools the search does not carry
#: (a fighter spent by the fights before), keep it in a loop. A new GM's guard fight, tried again after each loss,
#: played 307 games of some 650 choices each (45 s of a 73 s proof) before a seed got through; at a 2 % chance a
#: try, forty tries get through more often than not, and the next seed tries again.
MAX_VISITS = 40
_CONFLICT_KINDS = frozenset({LENS, CLEVER_FOLLOW_UP, FLAMBOYANT_SKILL, QUICK_ACTION, TARGET, DAMAGE_POOL})


class OffPath(Exception):
    """The game went where the search never looked: this seed will not do."""


class TooLong(OffPath):
    """The walkthrough ran past MAX_ANSWERS answers."""


class Reached(Exception):
    """The game stands at the state the walk was for (a soft-lock's way in): the answers so far lead there."""


@dataclass
class Walkthrough:
    ending: str
    answers: list[str]  # the script, a line each, as the menus number them
    seed: int | None
    choices: int  # how many story choices it takes
    shortest: bool  # as few choices as the graph says the ending needs
    with_pc: bool  # played with the characters given by --pc (the script needs them too)
    #: The way there needs more than MAX_ANSWERS answers with no dice on it to blame: no script, and no
    #: other seed would do better (``answers`` is empty, ``seed`` None).
    too_long: bool = False


class _Walker:
    """The decider of a walkthrough: the graph's nearest way to the ending at every choice."""

    def __init__(self, proof: Proof, dist: list[int | None], *, budget: int | None = None,
                 targets: frozenset[int] = frozenset()):
        self.proof = proof
        self.dist = dist
        #: With a budget, a seed is dropped at the first choice from which the target is further than the
        #: choices left: the dice have left every shortest way, and this seed cannot give the shortest walk.
        self.budget = budget
        self.targets = targets  # stop (Reached) on coming to one of these states
        self.answers: list[str] = []
        self.choices = 0
        self.node: Node | None = None  # the state of the last choice, for the escalate question after it
        self.move: Move | None = None
        self.lens = "none"
        self.exit: str | None = None  # the party leaves the conflict of the last choice at once (flee, surrender)
        self.fighter: Decider | None = None  # fights the conflict of the last choice (a move fought as a bot)
        self.dice = False  # some move on the way had more than one outcome: another seed may go another way
        #: What the fights so far cost the Pools, which the search does not carry: (PC, Pool) -> points.
        self.cost: dict[tuple[str, str], int] = {}
        self.before: dict[tuple[str, str], int] | None = None  # the Pools at the last choice, as the search has them
        self.visits: dict[int, int] = {}  # how often the walk stood at each state (MAX_VISITS)

    def decide(self, question: Question) -> str:
        if len(self.answers) >= MAX_ANSWERS:
            raise TooLong(f"more than {MAX_ANSWERS} answers")
        kind = question.kind
        if kind == "choice":
            node = self._state(question.context["game"])
            if node.id in self.targets:
                if self.cost:  # a trap is claimed only of a game as the search has it, not one read with a cost
                    raise OffPath("a bruised game stands for the trap")
                raise Reached
            self.visits[node.id] = seen = self.visits.get(node.id, 0) + 1
            if seen > MAX_VISITS:
                raise OffPath("the walk keeps coming back to one state")
            near = self.dist[node.id]
            if self.budget is not None and (near is None or self.choices + near > self.budget):
                raise OffPath("the dice left every shortest way")
            answer = self._choose(node)
            if answer not in question.keys():
                raise OffPath("the search's way is not on this menu")
            self.choices += 1
        elif kind == "escalate":
            answer = self._escalate()
        elif kind == "luck_flip" and "outcomes" in question.context and self.fighter is None:
            answer = self._flip(*question.context["outcomes"])
        elif kind in _AFTER_THE_STORY:  # the epilogue, not the last fight's bot (which spent the rolls: a GM's run)
            answer = plain_answer(question)
        elif self.fighter is not None and kind != "who":  # the conflict, and its Luck, as the fighter plays it
            answer = self.fighter.decide(question)
        elif kind == "who":
            answer = max(question.options, key=lambda o: o.chance.target if o.chance is not None else 101).key
        elif kind in _CONFLICT_KINDS:
            from ...minds.bots import LensKeeper

            keys = question.keys()
            answer = self.exit if self.exit in keys else LensKeeper(self.lens).decide(question)
        else:
            answer = plain_answer(question)
        self.answers.append(question.menu_answer(answer))
        return answer

    def _state(self, game: Game) -> Node:
        """The search's state of ``game`` at a choice. The search carries no conflict's cost to the Pools
        (docs/proving.md), so after a fight that cost one, the game's Pools are lower than the search's, and the
        state is read with that cost added back: the cost known so far, or, failing that, what the Pools lost since
        the choice before (where only the fight took it), or none. Read so, a walk through a bruising argument stays
        on the searched graph; a walk that cannot be read so is dropped (OffPath), as before. The game still offers
        its choices by its real Pools: a way the search takes that its menu lacks drops the seed too, and no trap is
        claimed of a game read with a cost. Whatever the reading, a walkthrough is one that really played there."""
        real = {(pc.name, name): pool.current for pc in game.state.party for name, pool in pc.pools.items()}
        tries = [self.cost]
        if self.before is not None:
            tries.append({k: self.before[k] - real[k] for k in real if k in self.before and self.before[k] != real[k]})
        tries.append({})
        for cost in [c for i, c in enumerate(tries) if c not in tries[:i]]:
            nid = self.proof.index.get(self._key_with(game, cost))
            if nid is None:
                continue
            node = self.proof.nodes[nid]
            self.cost = cost
            self.before = {k: v + cost.get(k, 0) for k, v in real.items()}
            return node
        raise OffPath("a state the search did not reach")

    def _key_with(self, game: Game, cost: dict[tuple[str, str], int]) -> object:
        """The state's key with ``cost`` added back to the Pools (the game is left as it was)."""
        if not cost:
            return self.proof.reads.key(game)
        pools = {(pc.name, name): pool for pc in game.state.party for name, pool in pc.pools.items()}
        for k, amount in cost.items():
            pools[k].current += amount
        try:
            return self.proof.reads.key(game)
        finally:
            for k, amount in cost.items():
                pools[k].current -= amount

    def _best(self, node: Node) -> Move:
        if not node.moves:
            raise OffPath("a state the search did not expand")
        move, _ = nearest_move(node, self.dist)
        if move is None:
            raise OffPath("the ending cannot be reached from here")
        return move

    def _fight(self, move: Move) -> None:
        fighters = self.proof.fighters or {}
        self.fighter = fighters[move.fighter](random.Random(len(self.answers))) if move.fighter in fighters else None

    def _choose(self, node: Node) -> str:
        move = self._best(node)
        self.node, self.move = node, move
        self._fight(move)
        self.lens, self.exit = move.lens or "none", move.exit
        self.dice = self.dice or _chancy(move)
        return move.key

    def _escalate(self) -> str:
        if self.node is None or self.move is None:
            return "no"
        found = self.proof.index.get(("escalate", self.node.key, self.move.key))
        if found is None:
            return "no"
        move = self._best(self.proof.nodes[found])
        self._fight(move)
        self.lens, self.exit = move.lens or "none", move.exit
        self.dice = self.dice or _chancy(move)
        return move.key

    def _flip(self, kept: str, flipped: str) -> str:
        """Flip a roll or keep it, as the graph's nearest way to the ending does (keep where the search has no
        such question: a flip it does not weigh, such as one borrowed on credit)."""
        if self.node is None or self.move is None:
            return "no"
        found = self.proof.index.get(("flip", self.node.key, self.move.key, kept, flipped))
        if found is None:
            return "no"
        return self._best(self.proof.nodes[found]).key


def _chancy(move: Move) -> bool:
    """Whether the dice may take ``move`` elsewhere than its one sure outcome."""
    return move.sampled or len(move.arcs) != 1 or move.arcs[0].chance < 1 - 1e-12


def walk(proof: Proof, ending: str, *, seeds: int = DEFAULT_SEEDS, first_seed: int = 1,
         party: list[Character] | None = None) -> Walkthrough | None:
    """The walkthrough to ``ending`` under the first good seed of ``seeds`` tried, or None if none got there."""
    want = proof.endings[ending].get("steps")
    if want is None:
        return None
    return _search(proof, ending, proof.distances[ending], want, frozenset(), seeds, first_seed, party)


def walk_to(proof: Proof, node_ids: list[int], *, seeds: int = DEFAULT_SEEDS, first_seed: int = 1,
            party: list[Character] | None = None) -> Walkthrough | None:
    """A script that plays into one of the states ``node_ids`` (a soft-lock's ways in) and stops there.

    Its :attr:`Walkthrough.ending` is the scene of the state reached; ``solo play --script FILE --partial``
    plays it and saves the game at the trap.
    """
    from .judge import _distances, _reverse

    dist = _distances(_reverse(proof.nodes), node_ids, len(proof.nodes))
    want = dist[0] if proof.nodes else None
    if want is None:
        return None
    return _search(proof, None, dist, want, frozenset(node_ids), seeds, first_seed, party)


def _search(proof: Proof, ending: str | None, dist: list[int | None], want: int, targets: frozenset[int],
            seeds: int, first_seed: int, party: list[Character] | None) -> Walkthrough | None:
    """Seeds tried twice over: first each dropped at the first roll that leaves every shortest way (cheap: most
    stop after a few choices), then, if none kept to one, each played on for the first that gets there."""
    for budget in (want, None):
        for seed in range(first_seed, first_seed + seeds):
            walker = _Walker(proof, dist, budget=budget, targets=targets)
            game = Game(proof.adventure, seed=seed, decider=walker, party=party)
            reached: str | None
            try:
                reached = game.play()
            except Reached:
                reached = game.state.scene
            except TooLong:
                if not walker.dice:  # the same answers under any seed: retrying cannot shorten it
                    return Walkthrough(ending or "", [], None, walker.choices, False, party is not None,
                                       too_long=True)
                continue
            except OffPath:
                continue
            except Exception:  # noqa: BLE001 - the engine fails where the search found it failing: that trap
                if not any(proof.nodes[t].end == ERROR for t in targets):
                    raise
                reached = game.state.scene
            else:
                if targets:  # a trap with no choice on offer: the game ends there (DEAD_END)
                    if proof.index.get(("end", reached, game.state.scene if reached == DEAD_END else None)) \
                            not in targets:
                        continue
                    reached = game.state.scene
                elif reached != ending:
                    continue
            return Walkthrough(reached or "", walker.answers, seed, walker.choices, walker.choices <= want,
                               party is not None)
    return None


def trap_walks(proof: Proof, *, seeds: int = DEFAULT_SEEDS, party: list[Character] | None = None) -> None:
    """Give each soft-lock shown the script (``script``, ``seed``) that plays into it: its shortest way in as
    ``solo play --script FILE --partial`` replays it (no seed found, or ``seeds`` 0: an empty script, seed None)."""
    for lock, ids in zip(proof.soft_locks, proof.soft_lock_groups.values()):
        found = walk_to(proof, ids, seeds=seeds, party=party) if seeds else None
        lock["seed"] = found.seed if found is not None else None
        lock["script"] = found.answers if found is not None else []
