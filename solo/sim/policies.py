"""Bot players with a temperament, for ``solo simulate``: random, cautious, bold and explorer.

They answer the same :class:`~solo.decisions.Question` objects a person does,
reading only the machine-readable ``context`` the engine attaches (the game,
the scene, the conflict and the participant), never the prose. Each bot owns
its generator, so a run is fixed by its seed.

* **random** picks uniformly among the options, whatever they are.
* **cautious** keeps out of fights when the scene offers anything else, takes
  the Cautious Lens, flees (or gives up) once it is losing, spends Luck to
  turn a blow into 1 damage or to flip a failure, and never pushes below zero.
* **bold** picks the fight when there is one, takes the Aggressive Lens,
  escalates lost opposed rolls, pushes on below zero and never yields.
* **explorer** plays like a curious person (:mod:`solo.sim.explorer`): untried
  options first, no ending while the story is still open, the Lens the shown
  odds mark best.
"""

from __future__ import annotations

import random
import re

from ..decisions import Question
from ..minds.bots import RandomDecider
from ..rules.outcomes import OUT

POLICIES = ("random", "cautious", "bold", "explorer")
_NUMBER = re.compile(r"(-?\d+)\s*%")


def make_policy(name: str, rng: random.Random):
    """The bot called ``name`` (one of :data:`POLICIES`), drawing from ``rng``."""
    if name == "random":
        return RandomDecider(rng)
    if name == "cautious":
        return CautiousBot(rng)
    if name == "bold":
        return BoldBot(rng)
    if name == "explorer":
        from .explorer import ExplorerBot

        return ExplorerBot(rng)
    raise ValueError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")


class ReadingBot:
    """A bot that reads each question's context, answering by its kind (``on_KIND``); anything it has no
    opinion on is picked at random."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def decide(self, question: Question) -> str:
        if question.free_text:
            return question.default or "Bot"
        handler = getattr(self, f"on_{question.kind}", None)
        answer = handler(question) if handler is not None else None
        if answer is None or answer not in question.keys():
            return self.rng.choice(question.options).key
        return answer

    # -- shared helpers -------------------------------------------------------------
    def pick(self, keys: list[str]) -> str | None:
        return self.rng.choice(keys) if keys else None

    @staticmethod
    def fights(question: Question) -> tuple[list[str], list[str]]:
        """The choice keys that start an Extended Conflict, and the others."""
        game = question.context.get("game")
        scene_id = question.context.get("scene")
        if game is None or scene_id not in game.adventure.scenes:
            return [], question.keys()
        by_key = {c.key: c for c in game.adventure.scenes[scene_id].choices}
        fight: list[str] = []
        other: list[str] = []
        for key in question.keys():
            choice = by_key.get(key)
            action = choice.action if choice is not None else None
            (fight if action is not None and action.kind == "conflict" else other).append(key)
        return fight, other

    @staticmethod
    def losing(question: Question) -> bool:
        """In a conflict: our Pool is at half or less and worse, as a share, than the best opponent's."""
        conflict = question.context.get("conflict")
        me = question.context.get("participant")
        if conflict is None or me is None:
            return False
        mine = me.pool.current / max(1, me.pool.maximum)
        theirs = [o.pool.current / max(1, o.pool.maximum) for o in conflict.opponents(me)]
        return bool(theirs) and mine <= 0.5 and mine < max(theirs)

    @staticmethod
    def exit_key(question: Question) -> str | None:
        keys = question.keys()
        return "flee" if "flee" in keys else ("surrender" if "surrender" in keys else None)

    def on_exit_offer(self, question: Question) -> str | None:
        """An opponent yields or runs: let it (the outcome the adventure wrote for it), as players mostly do."""
        return question.default

    def on_who(self, question: Question) -> str | None:
        def value(option):
            if option.chance is not None:
                return option.chance.target
            m = _NUMBER.search(option.detail)
            return int(m.group(1)) if m else 0

        return max(question.options, key=value).key

    def on_target(self, question: Question) -> str | None:
        conflict = question.context.get("conflict")
        if conflict is None:
            return None
        return min(question.keys(), key=lambda k: (conflict.by_id[k].pool.current, k))

    def on_damage_pool(self, question: Question) -> str | None:
        return "conflict"


class CautiousBot(ReadingBot):
    def on_choice(self, question: Question) -> str | None:
        fight, other = self.fights(question)
        return self.pick(other or fight)

    def on_lens(self, question: Question) -> str | None:
        if self.losing(question):
            return self.exit_key(question)
        return "cautious" if "cautious" in question.keys() else "none"

    def on_clever_follow_up(self, question: Question) -> str | None:
        if self.losing(question):
            return self.exit_key(question)
        return "skill"

    def on_luck_flip(self, question: Question) -> str:
        return "yes"

    def on_luck_reduce(self, question: Question) -> str:
        return "yes"

    def on_push(self, question: Question) -> str:
        return "refresh" if "refresh" in question.keys() else OUT

    def on_escalate(self, question: Question) -> str:
        return "no"


class BoldBot(ReadingBot):
    def on_choice(self, question: Question) -> str | None:
        fight, other = self.fights(question)
        return self.pick(fight or other)

    def on_lens(self, question: Question) -> str:
        return "aggressive" if "aggressive" in question.keys() else "none"

    def on_clever_follow_up(self, question: Question) -> str:
        return "damage"

    def on_luck_flip(self, question: Question) -> str:
        return "yes"

    def on_luck_reduce(self, question: Question) -> str:
        return "no"

    def on_push(self, question: Question) -> str:
        keys = question.keys()
        return "push" if "push" in keys else ("refresh" if "refresh" in keys else OUT)

    def on_escalate(self, question: Question) -> str:
        return "yes"
