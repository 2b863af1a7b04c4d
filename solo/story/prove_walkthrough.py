"""A walkthrough that really plays: the answers ``solo play --script`` reads, and a seed under which they work.

The graph says how few choices an ending takes if the dice are kind; this
module finds dice that are. It plays the real engine, seed after seed, with
a decider that takes, at every choice, a move that keeps the ending nearest
(and escalates or not the same way), keeps the best Lens in a conflict,
spends no Luck and answers the prompts around the story (the character,
the epilogue) as a player at the keyboard would. Every answer is written
down as the menu numbers it. The first seed that reaches the ending in the
fewest choices wins; failing that, the first that reaches it at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..decisions import CLEVER_FOLLOW_UP, DAMAGE_POOL, FLAMBOYANT_SKILL, LENS, QUICK_ACTION, TARGET, Question
from .engine import Game
from .prove_probe import plain_answer

if TYPE_CHECKING:
    from ..rules.character import Character
    from .prove_search import Move, Node, Proof

#: Seeds tried for each ending before saying none was found.
DEFAULT_SEEDS = 200
#: Answers a walkthrough may give before it counts as lost in a loop.
MAX_ANSWERS = 5_000
_CONFLICT_KINDS = frozenset({LENS, CLEVER_FOLLOW_UP, FLAMBOYANT_SKILL, QUICK_ACTION, TARGET, DAMAGE_POOL})


class OffPath(Exception):
    """The game went where the search never looked: this seed will not do."""


class TooLong(OffPath):
    """The walkthrough ran past MAX_ANSWERS answers."""


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

    def __init__(self, proof: Proof, ending: str):
        self.proof = proof
        self.dist = proof.distances[ending]
        self.answers: list[str] = []
        self.choices = 0
        self.node: Node | None = None  # the state of the last choice, for the escalate question after it
        self.move: Move | None = None
        self.lens = "none"
        self.exit: str | None = None  # the party leaves the conflict of the last choice at once (flee, surrender)
        self.dice = False  # some move on the way had more than one outcome: another seed may go another way

    def decide(self, question: Question) -> str:
        if len(self.answers) >= MAX_ANSWERS:
            raise TooLong(f"more than {MAX_ANSWERS} answers")
        kind = question.kind
        if kind == "choice":
            answer = self._choose(self._node(self.proof.reads.key(question.context["game"])))
            self.choices += 1
        elif kind == "escalate":
            answer = self._escalate()
        elif kind == "who":
            answer = max(question.options, key=lambda o: o.chance.target if o.chance is not None else 101).key
        elif kind in _CONFLICT_KINDS:
            from ..minds.bots import LensKeeper

            keys = question.keys()
            answer = self.exit if self.exit in keys else LensKeeper(self.lens).decide(question)
        else:
            answer = plain_answer(question)
        self.answers.append(question.menu_answer(answer))
        return answer

    def _node(self, key: object) -> Node:
        nid = self.proof.index.get(key)
        if nid is None:
            raise OffPath("a state the search did not reach")
        return self.proof.nodes[nid]

    def _best(self, node: Node) -> Move:
        def score(move: Move) -> tuple[float, float]:
            near = [d for d in (self.dist[a.child] for a in move.arcs) if d is not None]
            if not near:
                return (float("inf"), 0.0)
            best = min(near)
            return (float(best), -sum(a.chance for a in move.arcs if self.dist[a.child] == best))

        if not node.moves:
            raise OffPath("a state the search did not expand")
        move = min(node.moves, key=score)
        if score(move)[0] == float("inf"):
            raise OffPath("the ending cannot be reached from here")
        return move

    def _choose(self, node: Node) -> str:
        move = self._best(node)
        self.node, self.move = node, move
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
        self.lens, self.exit = move.lens or "none", move.exit
        self.dice = self.dice or _chancy(move)
        return move.key


def _chancy(move: Move) -> bool:
    """Whether the dice may take ``move`` elsewhere than its one sure outcome."""
    return move.sampled or len(move.arcs) != 1 or move.arcs[0].chance < 1 - 1e-12


def walk(proof: Proof, ending: str, *, seeds: int = DEFAULT_SEEDS, first_seed: int = 1,
         party: list[Character] | None = None) -> Walkthrough | None:
    """The walkthrough to ``ending`` under the first good seed of ``seeds`` tried, or None if none got there."""
    want = proof.endings[ending].get("steps")
    if want is None:
        return None
    fallback: Walkthrough | None = None
    for seed in range(first_seed, first_seed + seeds):
        walker = _Walker(proof, ending)
        game = Game(proof.adventure, seed=seed, decider=walker, party=party)
        try:
            reached = game.play()
        except TooLong:
            if not walker.dice:  # the same answers under any seed: retrying cannot shorten it
                return Walkthrough(ending, [], None, walker.choices, False, party is not None, too_long=True)
            continue
        except OffPath:
            continue
        if reached != ending:
            continue
        found = Walkthrough(ending, walker.answers, seed, walker.choices, walker.choices <= want, party is not None)
        if found.shortest:
            return found
        if fallback is None:
            fallback = found
    return fallback
