"""Bot players for auto-play and tests: they answer through the same interface as people."""

from __future__ import annotations

import random

from ..decisions import (
    CLEVER_FOLLOW_UP,
    DAMAGE_POOL,
    FLAMBOYANT_SKILL,
    LENS,
    LUCK_FLIP,
    LUCK_REDUCE,
    PUSH,
    QUICK_ACTION,
    TARGET,
    Question,
)
from ..rules.conflict_view import ConflictView
from ..rules.outcomes import OUT
from ..rules.participants import Participant


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


class GreedyDecider:
    """A sensible stand-in player: the best exact odds, never yields, strikes the weakest.

    Each round it takes whichever of no Lens, Aggressive or Cautious gives
    the best chance to win (one round ahead, best play after, from the odds
    engine's tables); it never flees or surrenders, spends Luck when Luck
    turns a round, pushes on only when pushing still wins more often than
    not, and answers anything else with the default or the first option
    (or a random one, given a generator), so the adventure simulator can
    reuse it outside conflicts.
    """

    def __init__(self, rng: random.Random | None = None, *, yields: bool = False,
                 secondary: dict[tuple[str, bool, str | None], tuple[int | None, int | None]] | None = None):
        self.rng = rng
        self.yields = yields
        # Covert/Flamboyant targets by (participant, hurt, skill): one conflict's, or shared by the copies of one
        self._secondary = secondary if secondary is not None else {}

    def decide(self, question: Question) -> str:
        keys = question.keys()
        ctx = question.context
        conflict, me = ctx.get("conflict"), ctx.get("participant")
        kind = question.kind
        if conflict is not None and me is not None and keys:
            if kind == LENS:
                return self._lens(keys, conflict, me)
            if kind == CLEVER_FOLLOW_UP:
                return "skill" if "skill" in keys else keys[0]
            if kind == TARGET:
                return min(keys, key=lambda k: (conflict.by_id[k].pool.current, k) if k in conflict.by_id else (0, k))
            if kind == DAMAGE_POOL:
                return "conflict" if "conflict" in keys else keys[0]
            if kind == FLAMBOYANT_SKILL:
                return max(keys, key=lambda k: me.char.skills.get(k, 0) if me.char is not None else 0)
            if kind == QUICK_ACTION:
                return "ready" if "ready" in keys else next((k for k in keys if k != "leave"), keys[0])
            if kind == PUSH:
                if "refresh" in keys:
                    return "refresh"
                from .position import push_chance

                return "push" if "push" in keys and push_chance(conflict, me) >= 0.5 else OUT
            if kind in (LUCK_FLIP, LUCK_REDUCE):
                return "yes" if "yes" in keys else keys[0]
        if question.default is not None:
            return question.default
        if question.free_text:
            return "Bot"
        if self.rng is not None:
            return self.rng.choice(question.options).key
        return keys[0]

    def _lens(self, keys: list[str], conflict: ConflictView, me: Participant) -> str:
        from .position import read_position
        from .valuation import best_basic

        if len(keys) == 1:
            return keys[0]
        pos = read_position(conflict, me, secondary=self._secondary)
        if self.yields and pos.win() < 0.05:
            for exit_ in ("surrender", "flee"):
                if exit_ in keys:
                    return exit_
        return best_basic(pos.values, keys)


class LensKeeper:
    """A player who keeps one Lens every round, as the exact odds assume (``solo duel --pc-lens``, the advice).

    It declares ``lens`` every round and never yields; after Clever it takes
    the +20 edge. It spends no Luck and goes down rather than push on (the
    odds count neither), strikes the conflict Pool with Covert and
    Flamboyant, shows off with the best skill the conflict offers, and with
    Quick gets ready, uses an item or switches weapon before it tries to get
    away (the only action offered, in a fight with nothing to hand). It
    strikes the weakest foe.
    """

    def __init__(self, lens: str):
        self.lens = lens

    def decide(self, question: Question) -> str:
        keys = question.keys()
        kind = question.kind
        ctx = question.context
        conflict, me = ctx.get("conflict"), ctx.get("participant")
        if kind == LENS:
            return self.lens if self.lens in keys else keys[0]
        if kind == CLEVER_FOLLOW_UP:
            return "skill" if "skill" in keys else keys[0]
        if kind == FLAMBOYANT_SKILL and conflict is not None and me is not None:
            best = conflict.lens_skill(me, "flamboyant") if hasattr(conflict, "lens_skill") else None
            if best in keys:
                return best
            return max(keys, key=lambda k: me.char.skills.get(k, 0) if me.char is not None else 0)
        if kind == QUICK_ACTION:
            for wanted in ("ready", "item:", "weapon:"):
                found = next((k for k in keys if k.startswith(wanted)), None)
                if found is not None:
                    return found
            return keys[0]
        if kind == DAMAGE_POOL:
            return "conflict" if "conflict" in keys else keys[0]
        if kind == TARGET and conflict is not None:
            return min(keys, key=lambda k: (conflict.by_id[k].pool.current, k) if k in conflict.by_id else (0, k))
        if kind in (LUCK_FLIP, LUCK_REDUCE):
            return "no" if "no" in keys else keys[0]
        if kind == PUSH:
            return OUT if OUT in keys else keys[0]
        if question.default is not None:
            return question.default
        return keys[0] if keys else "Bot"
