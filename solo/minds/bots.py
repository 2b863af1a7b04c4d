"""Bot players for auto-play and tests: they answer through the same interface as people."""

from __future__ import annotations

import random

from .base import Question


class RandomDecider:
    """Picks uniformly among the options; free text gets a fixed word."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def decide(self, question: Question) -> str:
        if question.free_text:
            return question.default or "Bot"
        return self.rng.choice(question.options).key


class FirstDecider:
    """Always the default or the first option: the most predictable player."""

    def decide(self, question: Question) -> str:
        if question.default is not None:
            return question.default
        if question.free_text:
            return "Bot"
        return question.options[0].key
