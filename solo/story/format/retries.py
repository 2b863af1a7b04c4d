"""What taking a choice again costs (``retry_cost``), in the words shown beside it before it is taken.

A failed roll that can be tried again for free is no decision at all; an
author makes the second try cost something with the effects that already
exist: time (a counter), tension, a Pool or Luck. The costs are ordinary
effects, applied by the game as any other; this module only says which
effects are costs and how the menu words them, so the hint and the effect
come from the same data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..play.effects import EFFECTS

if TYPE_CHECKING:
    from .adventure import Effect

#: The effects a ``retry_cost`` may hold: each takes something the party would rather keep.
COSTS = ("add", "tension", "damage", "luck")


def cost_words(costs: Sequence[Effect]) -> str:
    """``"again: costs 1 tension, 1d3 POW"``: the retry cost as the menu shows it ("" for none)."""
    words = [w for w in (_one(e) for e in costs) if w]
    return f"again: costs {', '.join(words)}" if words else ""


def not_a_cost(effect: Effect) -> str | None:
    """Why an effect of a ``retry_cost`` would help rather than cost, or None."""
    if effect.kind == "luck" and int(effect.args["luck"]) >= 0:
        return "a retry costs Luck with a negative number, e.g. { luck = -1 }"
    if effect.kind == "tension" and int(effect.args["tension"]) <= 0:
        return "a retry costs tension with a positive number, e.g. { tension = 1 }"
    return None


def _one(effect: Effect) -> str:
    verb = EFFECTS[effect.kind]
    args = effect.args
    if effect.kind == "add":  # time, or whatever the counter counts: its name is the unit ("hours")
        by = verb.arg(args, "by")
        unit = str(args["add"]).replace("_", " ")
        if abs(by) == 1:
            from ...narration.text import english

            unit = english().singular_noun(unit) or unit  # "1 hour"; a name that is no plural stays
        return f"{by} {unit}"
    if effect.kind == "tension":
        return f"{args['tension']} tension"
    if effect.kind == "damage":
        return f"{verb.arg(args, 'amount')} {args['damage']}" + (" each" if verb.arg(args, "who") == "all" else "")
    if effect.kind == "luck":
        amount = abs(int(args["luck"]))
        return f"{amount} Luck Point{'s' if amount != 1 else ''}" + (" each" if verb.arg(args, "who") == "all" else "")
    return ""
