"""Shared test helpers: dice that fall as a test says, and deciders that answer by kind."""

from __future__ import annotations

import random

import pytest

from solo.rules.character import Character, Pool
from solo.rules.tables import POOLS, SKILLS


class LoadedDice(random.Random):
    """A generator whose randint returns the given faces in order; anything else is an error."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        if not self.faces:
            raise AssertionError(f"the test ran out of loaded dice (asked for {a}..{b})")
        face = self.faces.pop(0)
        assert a <= face <= b, f"loaded face {face} is not in {a}..{b}"
        return face


class Answers:
    """Answers questions by kind from lists (or a fixed value); records every question."""

    def __init__(self, **by_kind):
        self.by_kind = {k: (list(v) if isinstance(v, list) else v) for k, v in by_kind.items()}
        self.asked = []

    def decide(self, question):
        self.asked.append(question)
        answer = self.by_kind.get(question.kind)
        if answer is None:
            raise AssertionError(f"unexpected question {question.kind}: {question.prompt}")
        if isinstance(answer, list):
            if not answer:
                raise AssertionError(f"no answers left for {question.kind}")
            return answer.pop(0)
        return answer

    def kinds(self):
        return [q.kind for q in self.asked]


def make_char(name="X", *, level=None, pools=10, focuses=None, tags=(), luck=None, **skills) -> Character:
    values = {s: 5 for s in SKILLS}
    values.update(skills)
    if isinstance(pools, dict):
        pool_map = {p: Pool(v, v) for p, v in pools.items()}
    else:
        pool_map = {p: Pool(pools, pools) for p in POOLS}
    char = Character(name=name, skills=values, pools=pool_map, focuses=dict(focuses or {}), tags=list(tags),
                     level=level)
    char.luck = char.luck_max if luck is None else luck
    return char


@pytest.fixture
def loaded():
    return LoadedDice
