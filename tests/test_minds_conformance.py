"""Every Decider answers every question the conflict engine asks with one of its options.

The NPC mind, the greedy bot and the plain bots are driven through real
conflicts chosen so that every question kind comes up: several fighters a
side (whom to strike), Masters at zero (push), Luck on NPCs (flip, reduce),
spare weapons and items (Quick), Covert and Flamboyant (which skill, which
Pool), Clever (the follow-up), and chases where nobody may flee.
"""

from __future__ import annotations

import random

import pytest
from conftest import make_char

from solo.decisions import Option, Question
from solo.minds.bots import FirstDecider, GreedyDecider, RandomDecider
from solo.minds.npc import NPCMind
from solo.npc import generate_npc
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character

KINDS = {"lens", "clever_follow_up", "flamboyant_skill", "quick_action", "target", "damage_pool", "push",
         "luck_flip", "luck_reduce"}


class Checked:
    """Asserts each answer is a key of the question, and records the kinds asked."""

    def __init__(self, inner, seen: set):
        self.inner = inner
        self.seen = seen

    def decide(self, question):
        answer = self.inner.decide(question)
        assert answer in question.keys(), (question.kind, answer, question.keys())
        self.seen.add(question.kind)
        return answer


def _npc(seed, level, **kw):
    npc = generate_npc(random.Random(seed), level, **kw)
    npc.items = ["long sword", "Bandage"]
    npc.luck = 2
    return npc


def _make(kind: str, seed: int):
    rng = random.Random(seed)
    if kind == "mind":
        return lambda npc: NPCMind(npc, random.Random(seed)) if hasattr(npc, "leanings") else GreedyDecider()
    if kind == "greedy":
        return lambda npc: GreedyDecider(rng)
    if kind == "random":
        return lambda npc: RandomDecider(rng)
    return lambda npc: FirstDecider()


def _play(factory, seed: int, ctype_key: str, sizes=(2, 2), levels=("master", "skilled")) -> None:
    ctype = conflict_type(ctype_key)
    people = []
    for side, count in zip("ab", sizes):
        for i in range(count):
            npc = _npc(seed * 10 + i + (5 if side == "b" else 0), levels[i % len(levels)],
                       role="thug" if ctype.physical else "courtier")
            npc.name = f"{side}{i} {npc.name}"
            people.append(from_character(npc, side, ctype, decider=factory(npc), luck_allowed=True))
    Conflict(ctype, people, random.Random(seed), round_limit=30).run()


@pytest.mark.parametrize("kind", ["mind", "greedy", "random", "first"])
def test_every_decider_answers_every_question_with_a_valid_key(kind):
    seen: set = set()
    for seed in range(12):
        for ctype_key, sizes in (("combat", (2, 2)), ("combat", (1, 3)), ("combat", (3, 1)), ("social", (2, 1)),
                                 ("foot_chase", (1, 1)), ("combat", (1, 1))):
            base = _make(kind, seed)
            _play(lambda npc, base=base: Checked(base(npc), seen), seed, ctype_key, sizes)
    if kind == "mind":
        assert KINDS <= seen, KINDS - seen


def test_the_mind_answers_questions_outside_conflicts_too():
    npc = generate_npc(random.Random(1), "skilled")
    mind = NPCMind(npc, random.Random(1))
    q = Question("choice", "Which way?", (Option("north", "North"), Option("south", "South")))
    assert mind.decide(q) in q.keys()
    assert mind.decide(Question("name", "Name?")) == npc.name
    assert mind.decide(Question("choice", "?", (Option("a", "A"), Option("b", "B")), default="b")) == "b"


def test_a_plain_character_gets_a_neutral_mind():
    char = make_char("Plain", level="skilled", Combat=60)
    other = make_char("Other", Combat=50)
    ctype = conflict_type("combat")
    seen: set = set()
    mind = Checked(NPCMind(char, random.Random(2)), seen)
    a = from_character(char, "a", ctype, decider=mind)
    b = from_character(other, "b", ctype, decider=GreedyDecider())
    Conflict(ctype, [a, b], random.Random(2), round_limit=20).run()
    assert "lens" in seen
