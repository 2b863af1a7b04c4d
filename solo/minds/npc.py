"""NPC minds: a Code Block turned into choices in an Extended Conflict (issue 4).

An :class:`NPCMind` is a Decider like the terminal or a bot: the conflict
engine asks it questions and it answers with option keys. It decides by
*utility scoring*: every option gets a score that is the sum of named
considerations — the exact chance to win with each Lens, the Code Block's
leans, how hurt it and its foe are, carried bonuses and penalties, the
opponent's last Lens, numbers, armour, morale, habit — and then it picks at
random among the near-best options (a softmax with the NPC's own generator),
so a mind is characterful but not a lookup table, and the same seed always
replays the same choices.

Why utility scoring rather than rules ("if hurt, be Cautious"): a Code Block
has four tags pulling in different directions, and sums of weighted pulls
let a Sadistic coward and a Correct fanatic both come out of the same code,
with the weights in one table (``WEIGHTS``, documented in docs/npcs.md).

Each decision keeps its *reason* — the consideration that did most to lift
the chosen option above the others — and is published as an
``npc_decision`` event when the mind has a sink, so a GM (``--explain``) or
the narration can say why the NPC did what it did. Morale and memory live
in :mod:`.morale` and :mod:`.memory`.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

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
from ..events import Event, Sink, wants_detail
from ..npc.disposition import disposition_step
from ..npc.leanings import Leanings, leanings
from ..npc.tables import LEAN_LENS
from ..rules.character import pronoun_forms
from ..rules.conflict_view import ConflictView
from ..rules.lens_chain import EXIT, FOLLOW_UPS, Effect, alike_in_play
from ..rules.lenses import CLEVER_BONUS, LENS_TABLE, LENSES, NEXT_ROUND
from ..rules.outcomes import ACTIVE, OUT
from ..rules.participants import Participant
from .memory import NPCMemory
from .morale import (
    BROKEN,
    DAUNTED,
    MECHANIC,
    ODDS_ALONE,
    SHAKEN,
    STEADY,
    Morale,
    Nerve,
    clue,
    nerve_checks,
    reaction_split,
)
from .position import (
    Position,
    best_secondary,
    matchup_of,
    mean_damage,
    push_chance,
    quick_extras,
    read_position,
    secondary_reading,
    threat,
)
from .valuation import BASIC, Evaluator, Matchup, evaluator

LENS_SET = frozenset(LENSES)

#: The weights of every consideration (docs/npcs.md, "How NPCs think").
WEIGHTS = {
    "odds": 8.0,          # per unit of win chance below the best Lens's, × (1 − 0.6 × risk tolerance)
    "temperament": 0.35,  # per unit of the Code Block's lean towards a Lens (−2 … 2)
    "press": 0.5,         # winning: press a hurt opponent (Aggressive), × (1 + cruelty + aggression/2)
    "guard": 0.5,         # hurt: guard (Cautious), × (1 + self-preservation + caution/2 − risk)
    "gamble": 1.0,        # losing: swing for it (Aggressive, Covert, Flamboyant), × risk tolerance
    "secure": 0.3,        # far ahead: make the win safe (Cautious), × (1 − risk tolerance)
    "counter": 0.2,       # answer the opponent's Lens
    "outnumbered": 0.3,   # per extra foe: Cautious, × (1 + self-preservation)
    "armour": 0.05,       # per Armour Point on the foe: Aggressive (and Covert, which can go round it)
    "shaken": 0.35,       # shaken morale: Cautious up, Aggressive down
    "cornered": 0.6,      # broken but fights on: Aggressive
    "inertia": 0.15,      # the Lens it used last round
    "surprise": 0.2,      # first round: Covert, × its cunning or self-preservation
    "rapport": 0.15,      # social conflicts: per disposition step, no dirty tricks on friends
    # a Lens whose roll cannot win the round (its target at or below 0), while another can: far below any sum the
    # others reach, so it is never drawn (the draw takes only options within NEAR_BEST of the best)
    "futile": 10.0,
}
FLAIR = {"social": 2.0, "physical": 0.6, "other": 1.0}  # Flamboyant's lean by conflict kind
TEMPERATURE = 0.25  # softmax temperature over the near-best options
NEAR_BEST = 0.5    # only options within this of the best are drawn from
COUNTER = {"cautious": "clever", "aggressive": "cautious", "clever": "cautious", "covert": "cautious",
           "flamboyant": "cautious", "quick": "aggressive"}
LENS_WORDS = {"none": "keeps it simple", "aggressive": "hits hard", "cautious": "plays safe",
              "clever": "studies {its} foe", "covert": "tries a trick", "flamboyant": "shows off",
              "quick": "acts fast"}
NEUTRAL = Leanings(lean={k: 0.0 for k in ("aggression", "caution", "cunning", "flair", "curiosity", "haste",
                                          "self_preservation", "resolve", "cruelty", "warmth")},
                   risk_tolerance=0.5, flee_threshold=0.35, surrender_bias=0.5, on_break=("surrender", "flee"),
                   mood=0.0)


@dataclass(frozen=True)
class Situation:
    """What the Lens considerations look at, read from a live conflict or set by hand (odds policies)."""

    values: dict  # Lens -> chance to win (see valuation.Evaluator.lens_values)
    win: float  # the best chance, adjusted for numbers
    own_frac: float = 1.0
    opp_frac: float = 1.0
    opp_lens: str = "none"
    opp_off_balance: bool = False  # the opponent carries a −20 into this round
    ratio: float = 1.0  # opponents per member of its side
    armour_op: int = 0
    morale: str = "steady"
    last_lens: str | None = None
    first_round: bool = False
    kind: str = "physical"  # physical, social or other (Flamboyant's weight)
    rapport: int = 0  # disposition step towards PC opponents in a social conflict
    futile: frozenset = frozenset()  # Lenses that cannot win this round, where another offered one can


def _kind(ctype) -> str:
    return "social" if ctype.social else "physical" if ctype.physical else "other"


def mind_can_declare(lenses: list[str], lean: Leanings, *, mindless_flair: bool = False,
                     mindless_study: bool = False) -> list[str]:
    """The offered Lenses this mind may declare: a mindless creature shows off to nobody (Flamboyant is for an
    audience) and studies nobody (Clever's round spent watching for a weakness is a thought; seed 001's draugr only
    deals the most damage it can), so it declares neither (docs/rulings.md); ``mindless_flair``, ``mindless_study``:
    it may, as in a game saved before play's edition 7 and 8 (docs/saves.md)."""
    if not lean.mindless:
        return lenses
    return [k for k in lenses if not (k == "flamboyant" and not mindless_flair or k == "clever" and not mindless_study)]


def temperament_scores(lean: Leanings, lenses, kind: str) -> dict[str, float]:
    """The ``temperament`` consideration: the Code Block's lean towards each Lens, Flamboyant by conflict kind."""
    flair = FLAIR[kind]
    return {k: WEIGHTS["temperament"] * v * (flair if k == "flamboyant" else 1.0)
            for k, v in lean.lens_lean().items() if k in lenses}


def _top(values):
    """The largest of some numbers, or elementwise of arrays (a policy worked out over many states at once)."""
    values = list(values)
    for v in values:  # plain floats (a live mind's every decision): no array among them, nothing to look up
        if type(v) is not float:
            break
    else:
        return max(values)
    if any(hasattr(v, "shape") for v in values):
        import numpy as np

        return functools.reduce(np.maximum, values)
    return max(values)


def _where(holds, scores: dict[str, float]) -> dict | None:
    """A consideration that counts only where ``holds``: the scores, or None; over arrays, 0 where it does not."""
    if not hasattr(holds, "shape"):
        return scores if holds else None
    import numpy as np

    if not np.any(holds):
        return None
    return {k: np.where(holds, v, 0.0) for k, v in scores.items()}


def lens_considerations(lean: Leanings, lenses, sit: Situation,
                        temperament: dict[str, float] | None = None) -> dict[str, dict[str, float]]:
    """Every consideration's score for every Lens in ``lenses``: {consideration: {Lens: score}}.

    Pure and deterministic, so tests, ``--explain`` and odds policies all
    see the same numbers; the weights are :data:`WEIGHTS`. ``temperament``:
    :func:`temperament_scores` worked out once for a policy that asks
    thousands of states of one nature. The situation's numbers that vary
    from state to state (the values, ``win``, the Pools left, ``opp_off_balance``)
    may be numpy arrays over many states: every score is then an array, a
    consideration that holds nowhere is left out and one that holds in some
    states scores 0 in the others, so each state's sums are those of the
    same function asked for that state alone.
    """
    W = WEIGHTS
    L = lean.lean
    vals = sit.values
    best = _top(vals[k] for k in lenses if k in vals)
    w_odds = W["odds"] * (1.0 - 0.6 * lean.risk_tolerance)  # the motivation says how much the odds count
    parts: dict[str, dict[str, float]] = {"odds": {k: w_odds * (vals[k] - best) for k in lenses if k in vals}}
    parts["temperament"] = (temperament_scores(lean, lenses, sit.kind) if temperament is None
                            else dict(temperament))
    win, rt, sp = sit.win, lean.risk_tolerance, L["self_preservation"]
    situation: dict[str, dict | None] = {}
    situation["press"] = _where((win >= 0.5) & (sit.opp_frac < 1.0), {
        "aggressive": W["press"] * (1 - sit.opp_frac) * max(0.0, 1 + L["cruelty"] + 0.5 * L["aggression"])})
    situation["guard"] = _where(sit.own_frac < 1.0, {
        "cautious": W["guard"] * (1 - sit.own_frac) * max(0.0, 1 + sp + 0.5 * L["caution"] - rt)})
    g = W["gamble"] * (0.4 - win) * max(0.0, rt + 0.5 * max(0.0, L["resolve"]))
    situation["gamble"] = _where(win < 0.4, {"aggressive": g, "covert": g, "flamboyant": g})
    situation["secure"] = _where(win > 0.8, {"cautious": W["secure"] * (1 - rt) * (win - 0.8) / 0.2})
    counter: dict = {}
    if sit.opp_lens in COUNTER:
        counter[COUNTER[sit.opp_lens]] = W["counter"]
    off = _where(sit.opp_off_balance, {"aggressive": W["counter"]})
    if off is not None:
        counter["aggressive"] = counter.get("aggressive", 0.0) + off["aggressive"]
    if counter:
        situation["counter"] = counter
    if sit.ratio > 1.0 and not lean.mindless:
        situation["outnumbered"] = {"cautious": W["outnumbered"] * (sit.ratio - 1) * (1 + max(0.0, sp))}
    if sit.armour_op > 0:
        arm = W["armour"] * sit.armour_op
        situation["armour"] = _where(win < 0.9, {"aggressive": arm, "covert": arm})
    if sit.morale == SHAKEN:
        situation["shaken"] = {"cautious": W["shaken"] * (1 + max(0.0, sp)), "aggressive": -0.5 * W["shaken"]}
    elif sit.morale == BROKEN:
        situation["cornered"] = {"aggressive": W["cornered"]}
    if sit.last_lens in LENS_SET:
        situation["inertia"] = {sit.last_lens: W["inertia"]}
    if sit.first_round and not lean.mindless:
        s = W["surprise"] * max(0.0, L["cunning"], sp)
        if s:
            situation["surprise"] = {"covert": s}
    if sit.futile:
        situation["futile"] = {k: -W["futile"] for k in sit.futile}
    if sit.rapport:
        situation["rapport"] = {"covert": -W["rapport"] * sit.rapport, "aggressive": -W["rapport"] * sit.rapport}
    for key, scores in situation.items():
        if scores is not None:
            parts[key] = {k: v for k, v in scores.items() if k in lenses}
    return parts


def near_weights(totals: dict[str, float]) -> list[tuple[str, Any]]:
    """The options a mind draws from, those within NEAR_BEST of the best, with their softmax weights.

    The weights are not normalised (the draw scales its random number by
    their sum). One function for the draw (:meth:`NPCMind._pick`) and for
    the policies that price it (:meth:`NPCMind.lens_policy`), so the two
    cannot drift apart. Over arrays of totals (many states at once) every
    option is listed, weighing 0 where it is not near the best.
    """
    best = _top(totals.values())
    if type(best) is not float and hasattr(best, "shape"):
        import numpy as np

        return [(k, np.where(v >= best - NEAR_BEST, np.exp((v - best) / TEMPERATURE), 0.0)) for k, v in totals.items()]
    near = [(k, v) for k, v in totals.items() if v >= best - NEAR_BEST]
    if len(near) == 1:
        return [(near[0][0], 1.0)]
    return [(k, math.exp((v - best) / TEMPERATURE)) for k, v in near]


def totals_of(parts: dict[str, dict[str, float]], options, digits: int | None = None) -> dict[str, float]:
    """Each option's total over the considerations, summed in their order (what ``sum`` over them gives)."""
    acc: dict[str, float] = dict.fromkeys(options, 0.0)
    for scores in parts.values():
        for k, v in scores.items():
            if k in acc:
                acc[k] += v
    return acc if digits is None else {k: _rounded(v, digits) for k, v in acc.items()}


def _rounded(v, digits: int):
    """``round(v, digits)``, elementwise for an array (numpy's rounding, which may differ in the last bit)."""
    if hasattr(v, "shape"):
        import numpy as np

        return np.round(v, digits)
    return round(v, digits)


def choice_chances(totals: dict[str, float]) -> dict[str, float]:
    """{option: the chance the mind's draw picks it} for these scores (arrays of chances over arrays of scores)."""
    if any(hasattr(v, "shape") for v in totals.values()):
        import numpy as np

        # near_weights' arithmetic on the options stacked (the sum over them in their order)
        keys = list(totals)
        scores = np.stack(np.broadcast_arrays(*(np.asarray(totals[k], dtype=float) for k in keys)))
        best = np.max(scores, axis=0)
        weights = np.where(scores >= best - NEAR_BEST, np.exp((scores - best) / TEMPERATURE), 0.0)
        chances = weights / np.sum(weights, axis=0)
        return dict(zip(keys, chances))
    near = near_weights(totals)
    total = sum(w for _, w in near)
    return {k: w / total for k, w in near}


def clever_considerations(lean: Leanings, value: dict[str, float], opp_frac: float) -> dict[str, dict[str, float]]:
    """The scores of Clever's two edges: ``value`` is each edge's chance to win, ``opp_frac`` the foe's Pool left
    (arrays over many states, as :func:`lens_considerations` takes them)."""
    best = _top(value.values())
    L = lean.lean
    return {
        "odds": {k: WEIGHTS["odds"] * (v - best) for k, v in value.items()},
        "temperament": {"damage": WEIGHTS["temperament"] * L["aggression"],
                        "skill": WEIGHTS["temperament"] * L["caution"]},
        "press": {"damage": WEIGHTS["press"] * (1 - opp_frac) * max(0.0, 1 + L["cruelty"])},
    }


#: temperament_scores by (nature, Lenses, kind): what it reads of the leanings is their nature (_Reading.temperament)
_TEMPERAMENTS: dict[tuple, dict[str, float]] = {}


@dataclass(frozen=True)
class _Reading:
    """What a mind's Lens policy holds fixed for one conflict: the match-up as it stands, its nature and nerve.

    ``seen`` keeps the spreads already worked out (the seven chains of one
    match-up ask many of the same states).
    """

    lean: Leanings
    morale: str
    lenses: tuple[str, ...]  # what it may declare (Quick only with an extra action other than leaving)
    ev: Evaluator
    covert: int | None
    flamboyant: int | None
    side_pool: bool
    own_max: int
    op_max: int
    armour_op: int
    kind: str
    rapport: int
    foe_lenses: bool  # whether the foe uses Lenses (its last Lens is then worth answering)
    ratio: float = 1.0  # opponents per member of its side (the chain's one against one: 1)
    own_shift: int = 0  # what its Pool index holds beyond the Pool itself (a side pushing on: its maximum)
    op_shift: int = 0
    hopeless: bool = False  # it may declare a Lens that cannot win the round, as before play's edition 8
    seen: dict = field(default_factory=dict, compare=False)

    @property
    def temperament(self) -> dict[str, float]:
        """:func:`temperament_scores` for its nature, Lenses and kind of conflict, worked out once for each
        (:data:`_TEMPERAMENTS`: a live mind makes a reading at every declaration). Read only."""
        key = (self.lean.nature, self.lenses, self.kind)
        got = _TEMPERAMENTS.get(key)
        if got is None:
            if len(_TEMPERAMENTS) >= 1024:
                _TEMPERAMENTS.clear()
            got = _TEMPERAMENTS[key] = temperament_scores(self.lean, self.lenses, self.kind)
        return got

    def values(self, own, other, **kwargs) -> dict:
        """Each Lens's value (:meth:`~.valuation.Evaluator.lens_values`) in one state, or over arrays of Pools."""
        if hasattr(own, "shape"):
            grid = self.ev.lens_value_grid(**kwargs)
            return {k: v[own, other] for k, v in grid.items()}
        return self.ev.lens_values(own, other, **kwargs)

    def key(self) -> tuple:
        """Everything the policy reads, by value: two minds of one nature in one match-up price alike."""
        return reading_key(self.lean, self.morale, self.lenses, self.ev, self.covert, self.flamboyant,
                           self.side_pool, self.own_max, self.op_max, self.armour_op, self.kind, self.rapport,
                           self.foe_lenses, self.ratio, self.own_shift, self.op_shift, self.hopeless)


def reading_key(lean: Leanings, morale: str, lenses: tuple[str, ...], ev: Evaluator, *rest) -> tuple:
    """:meth:`_Reading.key` from a reading's fields (all but ``seen``, in their order), without making the
    reading: a live mind looks its scores up by it at every declaration and makes a reading only when they are
    not kept yet (a frozen reading of sixteen fields costs more to make than the look-up)."""
    return (lean.nature, morale, lenses, ev.m, *rest)


class MindState(NamedTuple):
    """One state as a mind's Lens choice reads it: its Pool and its foe's (as indices: how far from out, a side
    pushing on counting its spent Pool too; numbers, or arrays for many states), what the last round left on
    each, what the foe declared first this round (None: it declares first), the foe's last Lens, its own last
    Lens and whether this is the first round."""

    own: Any
    other: Any
    mine: Effect = Effect()
    theirs: Effect = Effect()
    seen: str | None = None
    foe_last: str = "none"
    last_lens: str | None = None
    first_round: bool = False


def _share(index, shift: int, size: int):
    """How much of its Pool a side has left, from its Pool index (0 when it is pushing on)."""
    if not size:
        return 0.0
    if hasattr(index, "shape"):
        import numpy as np

        return np.maximum(0.0, (index - shift) / size)
    return max(0.0, (index - shift) / size)


def situation_at(r: _Reading, s: MindState) -> Situation:
    """What the Lens considerations look at in one state (or arrays of states), from what the reading holds fixed.

    The one place a :class:`Situation` is made: the live draw (:meth:`NPCMind._lens`),
    the Lens chain's policy (:class:`MindPolicy`) and :meth:`NPCMind.odds_policy`
    all read it, and differ only in how they choose from the scores (a draw
    among the near-best, or the best). The foe's declaration, when it was
    made first, is what it does this round (a Clever edge: a plain roll, the
    "skill" one at +20); else its last Lens is the best guess, and a follow-up
    due reads as a plain roll at +20 (:func:`~solo.rules.lenses.round_effects`
    says when one is due).
    """
    if s.seen is not None:  # declared before it: it knows
        opp_lens = sit_lens = "none" if s.seen in FOLLOW_UPS else s.seen
        carry_op = s.theirs.carry + (CLEVER_BONUS if s.seen == FOLLOW_UPS[0] else 0)
    else:
        sit_lens = s.foe_last if r.foe_lenses else "none"
        opp_lens = "none" if LENS_TABLE[sit_lens].follow_up else sit_lens
        carry_op = s.theirs.carry + (NEXT_ROUND if s.theirs.follow_up else 0)
    vals = r.values(s.own, s.other, carry_me=s.mine.carry, carry_op=carry_op, opp_lens=opp_lens, covert=r.covert,
                    flamboyant=r.flamboyant, side_pool=r.side_pool)
    offered = [vals[k] for k in r.lenses if k in vals]
    best = _top(offered) if offered else vals["none"]
    ratio = r.ratio  # against several foes the one-against-one chance to the power of the odds in numbers
    if ratio > 1.0:
        win = best ** ratio
    elif ratio < 1.0:  # float dust can put a sure win a hair above 1: no complex powers
        win = 1.0 - _larger(0.0, 1.0 - best) ** (1.0 / ratio)
    else:
        win = best
    # a Lens whose roll cannot succeed (Aggressive's -20 on a skill of 5) never wins the round: a sharp GM does
    # not have the NPC swing with it while another Lens could (a GM-less table's smuggler, Combat 5 and
    # Cunning //Sleight 90, declared Aggressive four rounds in five and lost 82 % of her fights)
    futile = frozenset() if r.hopeless else r.ev.hopeless(
        r.lenses, carry_me=s.mine.carry, carry_op=carry_op, opp_lens=opp_lens, covert=r.covert,
        flamboyant=r.flamboyant, side_pool=r.side_pool)
    return Situation(values=vals, win=win, own_frac=_share(s.own, r.own_shift, r.own_max),
                     opp_frac=_share(s.other, r.op_shift, r.op_max), opp_lens=sit_lens,
                     opp_off_balance=s.theirs.carry < 0, ratio=ratio, armour_op=r.armour_op, morale=r.morale,
                     last_lens=s.last_lens, first_round=s.first_round, kind=r.kind, rapport=r.rapport,
                     futile=futile)


def _larger(x, y):
    return _top([x, y])


def lens_choice(r: _Reading, s: MindState, *, best: bool = False):
    """The mind's Lens choice in a state: the chance of each Lens its draw picks (arrays over arrays of states),
    or with ``best`` the one Lens with the highest total (the draw's likeliest; ties: the first offered)."""
    parts = lens_considerations(r.lean, r.lenses, situation_at(r, s), r.temperament)
    if best:
        totals = totals_of(parts, r.lenses)
        return max(r.lenses, key=lambda k: totals[k])
    return choice_chances(totals_of(parts, r.lenses, digits=6))


def _spread_at(r: _Reading, own, other, mine: Effect, theirs: Effect, seen: str | None, foe_last: str,
               last_lens: str | None, first_round: bool) -> dict:
    """The chance of each Lens (each edge, when its follow-up is due) in one state, as the live mind scores it.

    ``seen``: what the foe declared this round before it (None: it declares
    first and reads the foe's last Lens, ``foe_last``). The same arguments as
    :func:`~.position.read_position` gives the evaluator, and the same
    considerations as :meth:`NPCMind._lens` and :meth:`NPCMind._clever`,
    summed in the same order. The considerations but ``inertia`` are worked
    out once for every Lens it may have used last (only that one differs),
    and the spread once for each of those: a Lens chain asks thousands of
    states, so this is the minds' hot path. ``own`` and ``other`` may be
    arrays of Pools (every state of a walk with these effects at once): the
    chances are then arrays, each state's those of the same call for that
    state alone (:meth:`MindPolicy.over_grid`).
    """
    at = (own.tobytes(), other.tobytes(), own.shape) if hasattr(own, "shape") else (own, other)
    if mine.follow_up:
        edge_key = ("edge", at, mine.carry, theirs.carry, seen)
        got = r.seen.get(edge_key)
        if got is None:
            opp_frac = other / r.op_max if r.op_max else 0.0
            opp = ("none" if seen in FOLLOW_UPS else seen) if seen is not None else "none"
            vals = r.values(own, other, carry_me=mine.carry + CLEVER_BONUS, carry_op=theirs.carry, opp_lens=opp)
            parts = clever_considerations(r.lean, {"skill": vals["none"], "damage": vals["aggressive"]}, opp_frac)
            got = r.seen[edge_key] = choice_chances(totals_of(parts, FOLLOW_UPS))
        return got
    if len(r.lenses) <= 1:
        return {r.lenses[0] if r.lenses else "none": 1.0}
    base_key = (at, mine.carry, theirs, seen, foe_last, first_round)
    base = r.seen.get(base_key)
    if base is None:
        base = r.seen[base_key] = _lens_parts_at(r, own, other, mine.carry, theirs, seen, foe_last, first_round,
                                                 other / r.op_max if r.op_max else 0.0)
    got = base.spreads.get(last_lens)
    if got is None:
        got = base.spreads[last_lens] = base.spread(last_lens)
    return got


_AFTER_INERTIA = ("surprise", "rapport")  # the considerations lens_considerations lists after "inertia"


class _LensParts:
    """Every consideration of a Lens decision in one state but ``inertia``, and the spread for each last Lens.

    Each total is summed as :func:`lens_considerations` lists them: those
    before ``inertia``, then ``inertia`` (on the Lens used last), then those
    after; rounded to six places as the live draw rounds them.
    """

    __slots__ = ("before", "after", "rounded", "spreads")

    def __init__(self, before: dict[str, float], after: list[dict[str, float]]):
        self.before, self.after = before, after
        self.rounded = {k: _rounded(self._total(k, v), 6) for k, v in before.items()}
        self.spreads: dict[str | None, dict[str, float]] = {}

    def _total(self, k: str, v: float) -> float:
        for scores in self.after:
            if k in scores:
                v = v + scores[k]  # never in place: over arrays ``v`` is ``before``'s own, read again by spread()
        return v

    def spread(self, last_lens: str | None) -> dict[str, float]:
        totals = self.rounded
        if last_lens in totals:
            totals = dict(totals)
            totals[last_lens] = _rounded(self._total(last_lens, self.before[last_lens] + WEIGHTS["inertia"]), 6)
        return choice_chances(totals)


def _lens_parts_at(r: _Reading, own, other, carry: int, theirs: Effect, seen: str | None, foe_last: str,
                   first_round: bool, opp_frac) -> _LensParts:
    """Every consideration of a Lens decision but ``inertia``: the sums of those before it, and those after."""
    sit = situation_at(r, MindState(own, other, Effect(carry), theirs, seen, foe_last, None, first_round))
    parts = lens_considerations(r.lean, r.lenses, sit, r.temperament)
    before = totals_of({k: v for k, v in parts.items() if k not in _AFTER_INERTIA}, r.lenses)
    return _LensParts(before, [parts[k] for k in _AFTER_INERTIA if k in parts])


class MindPolicy:
    """An NPC mind's Lens choice as a policy of the Lens chain's state (:meth:`NPCMind.lens_policy`).

    Called with one state, it gives that state's chances; ``over_grid`` gives
    them for arrays of Pools at once, from the same function
    (:func:`_spread_at`), so a walk asks it once per pair of effects.
    """

    def __init__(self, reading: _Reading, keeps: str):
        self.reading, self.keeps = reading, keeps

    def _foe_last(self, theirs: Effect) -> str:
        return foe_last_lens(theirs.last if theirs.last in LENS_SET else self.keeps, theirs)

    def __call__(self, own: int, other: int, mine: Effect, theirs: Effect, seen: str | None = None) -> dict:
        return _spread_at(self.reading, own, other, mine, theirs, seen, self._foe_last(theirs), mine.last, False)

    def over_grid(self, own, other, mine: Effect, theirs: Effect, seen: str | None = None) -> dict:
        return _spread_at(self.reading, own, other, mine, theirs, seen, self._foe_last(theirs), mine.last, False)


def _pool_blows(me: Participant, target: Participant | None, ctype, keys: list[str]) -> tuple[str, dict[str, float]]:
    """The Pool a mind's blow goes to among ``keys`` ("conflict" or a side Pool), and the blows each would take."""
    physical = ctype.physical
    blows = {}
    for key in keys:
        if target is None or target.char is None:
            blows[key] = 0.0
            continue
        if key == "conflict":
            armour = target.armour_against(me, ctype)
            left = target.pool.current
        else:
            armour = 0
            left = target.char.pools[key].current
        per_blow = max(0.25, mean_damage(me, physical, armour))
        blows[key] = max(0.0, left) / per_blow
    # The side Pool only when clearly nearer: every other blow still lands on the conflict Pool.
    choice = "conflict" if "conflict" in keys else keys[0]
    for key in keys:
        if key != "conflict" and blows[key] + 1.0 <= blows.get(choice, 0.0):
            choice = key
    return choice, blows


def side_pool_choice(me: Participant, target: Participant, ctype, keys: list[str]) -> str:
    """Where a mind's Covert or Flamboyant blow on ``target`` goes now (:meth:`NPCMind._damage_pool`'s choice)."""
    return _pool_blows(me, target, ctype, keys)[0]


def quick_choice(lean: Leanings, morale: str, conflict: ConflictView, me: Participant,
                 keys: list[str]) -> tuple[str, dict[str, float], dict[str, str]]:
    """Quick's extra action a mind takes among ``keys`` with this morale: (its choice, each one's score, why).

    Shaken or broken, a mind with a nerve looks for a way out; otherwise a
    better weapon, an item, or it gets ready. The one function for the live
    answer (:meth:`NPCMind._quick`) and for the chain's nerve (a getaway).
    """
    from ..rules.rulebook import rules

    physical = conflict.ctype.physical
    now = mean_damage(me, physical)
    scores, why = {}, {}
    for key in keys:
        if key == "leave":
            wants = morale in (SHAKEN, BROKEN) and not lean.mindless
            scores[key] = (0.6 + lean.lean["self_preservation"]) if wants else -1.0
            why[key] = "looks for a way out" if wants else ""
        elif key.startswith("weapon:"):
            weapon = rules().weapons.get(key.split(":", 1)[1])
            gain = (sum(v * p for v, p in weapon.damage.distribution().items()) - now) if weapon else 0.0
            scores[key] = 0.2 * gain
            why[key] = f"switches to a better weapon ({weapon.name})" if weapon and gain > 0 else ""
        elif key.startswith("item:"):
            scores[key] = 0.1
            why[key] = f"uses {key.split(':', 1)[1]}"
        else:
            scores[key] = 0.0
            why[key] = "catches its breath"
    choice = max(scores, key=lambda k: (scores[k], k == "ready"))
    return choice, scores, why


class NervousPolicy(MindPolicy):
    """:class:`MindPolicy` with the mind's nerve in the chain's state (``Effect.nerve``, a :class:`~.morale.Nerve`).

    At each of its declarations it looks at the fight first, as
    :meth:`NPCMind._lens` and :meth:`NPCMind._clever` do: the morale check of
    :func:`~.morale.nerve_checks` (its win chance from the same values its
    Lens choice reads), then, broken, it leaves (:data:`~solo.rules.lens_chain.EXIT`;
    ``surrenders`` is the share that yields rather than runs) or, fighting on,
    declares as a broken mind; otherwise it declares with the morale the
    check left. Each choice carries the nerve it leaves. ``readings``: its
    reading with each morale (their policies differ only there).
    """

    def __init__(self, readings: dict[str, _Reading], keeps: str, surrenders: float | None,
                 leaves: frozenset[str] = frozenset(), getaway: float = 0.0):
        super().__init__(readings[STEADY], keeps)
        self.readings, self.surrenders = readings, surrenders
        self.leaves, self.getaway = leaves, getaway  # with which morale its Quick tries to get away; the chance

    def leaving(self, nerve: Nerve) -> float:
        """The chance it gets away at the end of the round, before anything else (Quick's try): at the round
        limit too."""
        return self.getaway if nerve.leaving else 0.0

    @staticmethod
    def hurt(nerve: Nerve) -> Nerve:
        """The nerve after a blow took Pool off the mind: it counts while shaken (the ``wounded`` trigger)."""
        return nerve._replace(hurt=True) if nerve.state == SHAKEN and not nerve.hurt else nerve

    def __call__(self, own: int, other: int, mine: Effect, theirs: Effect, seen: str | None = None) -> dict:
        import numpy as np

        got = self.over_grid(np.array([[own]]), np.array([[other]]), mine, theirs, seen)
        return {k: float(np.asarray(p).reshape(-1)[0]) for k, p in got.items() if np.asarray(p).reshape(-1)[0] > 0}

    def over_grid(self, own, other, mine: Effect, theirs: Effect, seen: str | None = None) -> dict:
        nerve = mine.nerve
        if not isinstance(nerve, Nerve):
            raise ValueError("a nervous policy reads its nerve in its effect")
        foe_last = self._foe_last(theirs)
        return declaration_chances(self.readings, self.surrenders, own, other, mine, theirs, seen, foe_last,
                                   mine.last, False, self.leaves, self.getaway)


def declaration_chances(readings: dict[str, _Reading], surrenders: float | None, own, other, mine: Effect,
                        theirs: Effect, seen: str | None, foe_last: str, last_lens: str | None,
                        first_round: bool, leaves: frozenset[str] = frozenset(), getaway: float = 0.0) -> dict:
    """A mind's declaration with its nerve (``mine.nerve``): the morale check first, then its Lens (its edge)
    with the morale left, or its way out. {(choice, nerve left): chance, EXIT: chance}, over arrays of Pools or
    at one pair of them (chances as arrays of shape ``own``'s). A nerve ``leaving`` (its Quick tried to get away
    last round) first gets away with the chance ``getaway``; Quick declared with a morale in ``leaves`` leaves
    its nerve leaving."""
    import numpy as np

    nerve = mine.nerve
    assert isinstance(nerve, Nerve)
    out: dict = {}
    stays = 1.0
    if nerve.leaving:  # last round's Quick getaway, rolled at the end of that round: gone, or here as before
        out[EXIT] = np.full(np.shape(own), getaway)
        stays = 1.0 - getaway
        nerve = nerve._replace(leaving=False)
    r = readings[nerve.state]

    def add(key, p) -> None:
        if key[0] == "quick" and key[1].state in leaves:
            key = (key[0], key[1]._replace(leaving=True))
        p = p * stays if stays != 1.0 else p
        out[key] = out[key] + p if key in out else p

    if nerve.state == BROKEN or r.lean.mindless:
        calm = nerve._replace(hurt=False)
        for k, p in _spread_at(r, own, other, mine, theirs, seen, foe_last, last_lens, first_round).items():
            add((k, calm), p)
        return out
    for left, p in _checks_at(r, own, other, mine, theirs, seen, foe_last, first_round, nerve):
        if left.state == BROKEN and surrenders is not None:
            p = p * stays if stays != 1.0 else p
            out[EXIT] = out[EXIT] + p if EXIT in out else p
            continue
        spread = _spread_at(readings[left.state], own, other, mine, theirs, seen, foe_last, last_lens, first_round)
        for k, q in spread.items():
            add((k, left), p * q)
    return out


def _checks_at(r: _Reading, own, other, mine: Effect, theirs: Effect, seen: str | None, foe_last: str,
               first_round: bool, nerve: Nerve) -> list:
    """The morale check of :func:`declaration_chances` in one state (or arrays of them): each nerve it may
    leave, with its chance (:func:`~.morale.nerve_checks`).

    Over arrays of Pools it is kept in the reading's ``seen``, by everything
    it reads (the Pools, the carried effects and follow-ups, what it saw or
    its foe's last Lens, the nerve): the Lens it used last, which a chain
    holds in its state, changes its Lens but not its check, so a walk asks
    the same check for each of them. What the check looks at (its share of
    its Pool, its chance to win) is kept apart, by all that but the nerve:
    a walk asks it for every nerve the chain holds. The chances kept are
    read only.
    """
    if hasattr(own, "shape"):
        state = (own.tobytes(), other.tobytes(), own.shape, mine.carry, mine.follow_up, theirs.carry,
                 theirs.follow_up, seen, foe_last, first_round)
        key = ("check", *state, nerve)
        got = r.seen.get(key)
        if got is None:
            looks = r.seen.get(("looks", *state))
            if looks is None:
                looks = r.seen["looks", *state] = _looks(r, own, other, mine, theirs, seen, foe_last, first_round)
                for a in looks:
                    a.flags.writeable = False
            got = r.seen[key] = nerve_checks(r.lean, nerve, *looks)
            for _, p in got:
                p.flags.writeable = False
        return got
    return nerve_checks(r.lean, nerve, *_looks(r, own, other, mine, theirs, seen, foe_last, first_round))


def _looks(r: _Reading, own, other, mine: Effect, theirs: Effect, seen: str | None, foe_last: str,
           first_round: bool) -> tuple:
    """What a mind's morale check looks at in a state: its share of its Pool and its chance to win."""
    import numpy as np

    sit = situation_at(r, MindState(own, other, mine, theirs, seen, foe_last, None, first_round))
    # the win its check reads: its best Lens on offer (at its Clever edge, the best of every value: _clever)
    win = _top(sit.values.values()) if mine.follow_up else sit.win
    frac = own / r.own_max if r.own_max else np.zeros(np.shape(own))
    return np.asarray(frac, dtype=float), np.asarray(win, dtype=float)


def _checks(r: _Reading, own, other, mine: Effect, theirs: Effect, seen: str | None, foe_last: str,
            first_round: bool, nerve: Nerve) -> list:
    """:func:`_checks_at` with nothing kept (the plain way its tests hold it to)."""
    return nerve_checks(r.lean, nerve, *_looks(r, own, other, mine, theirs, seen, foe_last, first_round))


def reads_alike(lens_1: str, lens_2: str) -> bool:
    """Whether a mind answers two Lenses of its foe alike, declared or kept: the same counter, and alike in play.

    What a mind reads of its foe's Lens is the Lens it counters
    (:data:`COUNTER`) and what the Lens does to the round (its shift, damage
    and what it leaves: :func:`~solo.rules.lens_chain.alike_in_play`), never
    what it rolls; so a foe keeping either at the same target meets the same
    choices, and the Lens chain prices the one by the other.
    """
    return COUNTER.get(lens_1) == COUNTER.get(lens_2) and alike_in_play(lens_1, lens_2)


def foe_last_lens(keeps: str, theirs: Effect) -> str:
    """The Lens a foe that keeps ``keeps`` every round used last round (after Clever's follow-up: none)."""
    if LENS_TABLE[keeps].follow_up:
        return keeps if theirs.follow_up else "none"
    return keeps


class Decision:
    """One answer of a mind, with what tipped it: its reason in words, the consideration behind it, the scores.

    The why is text, made only where something renders it (docs/design.md):
    a decision may carry it worked out, or ``why``, a function that works it
    out (reason, consideration, scores) from what it holds when first read,
    so a mind whose decisions nobody reads (a duel's thousand runs, a
    simulation, a what-if twin) never builds a sentence. Such a function
    reads nothing that moves after the decision (:meth:`NPCMind._lens` takes
    what it needs of the live conflict with it).
    """

    __slots__ = ("actor", "question", "choice", "round", "_why")

    def __init__(self, actor: str, question: str, choice: str, reason: str = "", consideration: str = "",
                 scores: dict | None = None, round: int = 0, *,
                 why: Callable[[], tuple[str, str, dict]] | None = None):
        self.actor, self.question, self.choice, self.round = actor, question, choice, round
        self._why: tuple[str, str, dict] | Callable[[], tuple[str, str, dict]] = (
            why if why is not None else (reason, consideration, scores if scores is not None else {}))

    def _explained(self) -> tuple[str, str, dict]:
        why = self._why
        if callable(why):
            why = self._why = why()
        return why

    @property
    def reason(self) -> str:
        return self._explained()[0]

    @property
    def consideration(self) -> str:
        return self._explained()[1]

    @property
    def scores(self) -> dict:
        return self._explained()[2]

    def to_dict(self) -> dict:
        return {"actor": self.actor, "question": self.question, "choice": self.choice, "reason": self.reason,
                "consideration": self.consideration, "scores": dict(self.scores), "round": self.round}

    def __repr__(self) -> str:
        return f"Decision({', '.join(f'{k}={v!r}' for k, v in self.to_dict().items())})"


#: The live Lens choice's scores by (reading key, state): read only, shared by every mind in the process.
_SCORED: dict[tuple, tuple[dict[str, dict[str, float]], dict[str, float]]] = {}
_SCORED_MAX = 4_000  # about 5 KB an entry: at most some 20 MB, cleared whole when full


@dataclass
class _Fight:
    """What a mind keeps during one conflict."""

    conflict: ConflictView
    lean: Leanings
    morale: Morale
    last_lens: str | None = None
    last_target: str | None = None
    secondary: dict = field(default_factory=dict)
    announced_break: bool = False
    readings: dict = field(default_factory=dict)  # lens_policy's readings of the match-up, by what they hold


class NPCMind:
    """The Decider for one NPC (an :class:`~solo.npc.NPC`; a plain character gets neutral leanings).

    ``rng`` is the NPC's own generator (draws for its softmax and morale
    checks). ``memory`` lets past deeds of the PCs colour it: an
    :class:`NPCMemory`, or a plain list of deed names ("spared", "lied_to" …)
    for this NPC; ``explain`` keeps every :class:`Decision` in
    :attr:`log`; ``sink`` receives ``npc_decision``, ``npc_morale`` and
    ``npc_break`` events.
    """

    def __init__(self, npc, rng: random.Random, *, memory: NPCMemory | list[str] | None = None, explain: bool = False,
                 sink: Sink | None = None, mindless_flair: bool = False, old_lenses: bool = False):
        self.npc = npc
        self.mindless_flair = mindless_flair  # a mindless one may show off, as before play's edition 7
        # as before play's edition 8: a Lens that cannot win the round may be declared, and a mindless one may study
        self.old_lenses = old_lenses
        self.rng = rng
        if memory is not None and not isinstance(memory, NPCMemory):
            # An adventure's state may keep just this NPC's deeds as a list of names.
            cb = getattr(npc, "code_block", None)
            memory = NPCMemory.of_deeds(npc.name, memory, disposition=cb.disposition if cb is not None else "Neutral")
        self.memory = memory
        self.explain = explain
        self.sink = sink
        self.log: list[Decision] = []
        self.last: Decision | None = None
        self._fight: _Fight | None = None
        self._adopt: _Fight | None = None  # a twin's starting point (spawn), taken by the first conflict
        self._secondary: dict | None = None  # Covert/Flamboyant targets shared by a what-if's twins (spawn)

    # -- leanings --------------------------------------------------------------
    def leanings(self, *, facing_pcs: bool = True) -> Leanings:
        """The Code Block's numbers, with the remembered disposition and deeds when facing the PCs."""
        npc = self.npc
        if not hasattr(npc, "leanings"):
            return NEUTRAL
        cb = getattr(npc, "code_block", None)
        if npc.mindless or cb is None or self.memory is None or not facing_pcs or npc.name not in self.memory:
            return npc.leanings()
        cb = replace(cb, disposition=self.memory.disposition(npc.name, cb.disposition))
        lean = leanings(cb, mindless=npc.mindless)
        infl = self.memory.influence(npc.name)
        if infl.neutral:
            return lean
        values = dict(lean.lean)
        values["cruelty"] += infl.cruelty
        values["resolve"] += infl.resolve
        on_break = lean.on_break
        if not infl.bargains:  # lied to once: it will not trust a deal again
            on_break = tuple(b for b in on_break if b != "bargain") or ("surrender",)
        return replace(lean, lean=values, on_break=on_break,
                       surrender_bias=min(1.0, max(0.0, lean.surrender_bias + infl.surrender)))

    def spawn(self, rng: random.Random, secondary: dict | None = None) -> NPCMind:
        """A twin for a what-if copy of the conflict at hand (the Lens advice's estimates).

        Same NPC and memory, where it stands in the current conflict (morale,
        its last Lens and target) carried into the first conflict it is asked
        in, its own generator, no sink: the live mind is not touched.
        ``secondary``: the Covert and Flamboyant targets kept for the copies of
        one conflict (the same characters in every copy), shared by the twins.
        """
        twin = NPCMind(self.npc, rng, memory=self.memory, mindless_flair=self.mindless_flair,
                       old_lenses=self.old_lenses)
        twin._secondary = secondary
        fight = self._fight
        if fight is not None:
            kept = secondary if secondary is not None else {}
            kept.update(fight.secondary)
            twin._adopt = replace(fight, morale=fight.morale.copy(), secondary=kept, readings={})
        return twin

    @property
    def morale(self) -> Morale | None:
        """The morale of the current (or last) conflict; None before the first question."""
        return self._fight.morale if self._fight is not None else None

    def disposition(self) -> str:
        cb = getattr(self.npc, "code_block", None)
        base = cb.disposition if cb is not None else "Neutral"
        return self.memory.disposition(self.npc.name, base) if self.memory is not None else base

    def odds_policy(self, matchup: Matchup, *, pool_max_me: int | None = None, pool_max_op: int | None = None,
                    kind: str = "physical") -> Callable[[int, int], str]:
        """This mind as a state-dependent Lens policy for :func:`~solo.rules.odds.conflict_odds`.

        At each pair of Pools it gives the Lens among none/aggressive/cautious
        (the ones the exact odds handle) that its considerations score best —
        the mode of its choice, without the softmax draw, morale or memory of
        earlier rounds, which a Markov chain cannot carry. So a GM can ask
        "how often does *this* NPC win?" exactly.
        """
        reading = _Reading(self.leanings(), STEADY, BASIC,
                           evaluator(matchup), None, None, False, pool_max_me or matchup.size_me,
                           pool_max_op or matchup.size_op, matchup.armour_op, kind, 0, False)
        cache: dict[tuple[int, int], str] = {}

        def policy(own: int, other: int) -> str:
            key = (own, other)
            lens = cache.get(key)
            if lens is None:
                lens = cache[key] = lens_choice(reading, MindState(own, other), best=True)
            return lens

        return policy

    def morale_in(self, conflict: ConflictView) -> str:
        """Its morale in this conflict (steady before its first question)."""
        return self._fight_for(conflict).morale.state

    def _reading(self, conflict: ConflictView, me: Participant, morale: str | None = None) -> _Reading:
        """What :meth:`lens_policy` holds fixed: the match-up with its one foe as it stands now, nature, morale
        (``morale``: another than its own now).

        Kept on the conflict's record while nothing it holds has changed, so policies share their spreads.
        """
        reading = self._make_reading(conflict, me)
        if morale is not None and morale != reading.morale:
            reading = replace(reading, morale=morale, seen={})
        fight = self._fight_for(conflict)
        kept = fight.readings.get(reading.key())
        if kept is None:
            if len(fight.readings) > 8:
                fight.readings.clear()
            kept = fight.readings[reading.key()] = reading
        return kept

    def _make_reading(self, conflict: ConflictView, me: Participant, pos: Position | None = None,
                      lenses: list[str] | None = None) -> _Reading:
        """What its Lens choice holds fixed now. For a Lens policy (no ``pos``): one foe, or a ValueError. In
        play (``pos``, the position read for this declaration): its main foe among them all, outnumbered or not,
        the Lenses offered."""
        return _Reading(*self._reading_fields(conflict, me, pos, lenses))

    def _reading_fields(self, conflict: ConflictView, me: Participant, pos: Position | None = None,
                        lenses: list[str] | None = None) -> tuple:
        """:meth:`_make_reading`'s fields (all but ``seen``, in their order), the reading not made. In play the
        position read for this declaration holds its main foe, the match-up, and the Covert and Flamboyant
        targets already (:func:`~solo.minds.position.read_position`, by the same rules)."""
        opponents = pos.opponents if pos is not None else conflict.opponents(me)
        if pos is None and len(opponents) != 1:
            raise ValueError("a Lens policy is for one foe; with allies or several foes the state is more than Pools")
        fight = self._fight_for(conflict)
        ctype = conflict.ctype
        if pos is not None:
            main, ev, armour_op = pos.main, pos.evaluator, pos.armour_op
            covert, flamboyant, side_pool = pos.covert, pos.flamboyant, pos.side_pool
        else:
            main, physical = opponents[0], ctype.physical
            shield_me = me.shield_penalty(tuple(opponents), physical)
            m = matchup_of(me, main, ctype, shield_me=shield_me)
            ev, armour_op = evaluator(m), m.armour_op
            covert, flamboyant, side_pool = secondary_reading(me, main, shield_me, armour_op, physical,
                                                              fight.secondary)
        if lenses is None:
            lenses = (mind_can_declare([k for k in LENSES], fight.lean, mindless_flair=self.mindless_flair,
                                       mindless_study=self.old_lenses)
                      if me.uses_lenses else ["none"])
            if "quick" in lenses and not quick_extras(conflict, me):
                lenses.remove("quick")
        step = 0
        if ctype.social and any(p.is_pc for p in opponents):
            step = disposition_step(self.disposition())
        return (fight.lean, fight.morale.state, tuple(lenses), ev, covert, flamboyant, side_pool, me.pool.maximum,
                main.pool.maximum, armour_op, _kind(ctype), step, main.uses_lenses,
                pos.ratio if pos is not None else 1.0, me.pool.maximum if me.pushing else 0,
                main.pool.maximum if main.pushing else 0, self.old_lenses)

    def never_breaks(self, conflict: ConflictView) -> bool:
        """Whether its morale can never move in this conflict (a mindless creature)."""
        return self._fight_for(conflict).morale.never_breaks

    def nerve_of(self, conflict: ConflictView, me: Participant) -> Nerve | None:
        """Its morale now, as the Lens chain holds it (None: it never breaks)."""
        morale = self._fight_for(conflict).morale
        return None if morale.never_breaks else Nerve.of(morale, me.pool.current)

    def surrenders(self, conflict: ConflictView, me: Participant) -> float | None:
        """When its nerve breaks from here: the share of its ways out that are surrenders (the rest flights), or
        None when it fights on (its Code Block says so, or the PCs refused its surrender: no way out left)."""
        fight = self._fight_for(conflict)
        if me.exits_closed:
            return None
        morale = fight.morale
        if morale.reaction is not None:  # broken already: what it chose stands
            mechanic = MECHANIC.get(morale.reaction)
            return None if mechanic is None else 1.0 if mechanic == "surrender" else 0.0
        return reaction_split(fight.lean, can_flee=conflict.ctype.flight)

    def nervous_policy(self, conflict: ConflictView, me: Participant, *, keeps: str = "none") -> NervousPolicy:
        """:meth:`lens_policy` with its nerve in the chain's state: its morale checks, and its ways out when it
        breaks (:class:`NervousPolicy`)."""
        readings = {m: self._reading(conflict, me, m) for m in (STEADY, SHAKEN, BROKEN)}
        leaves, getaway = self.getaway(conflict, me)
        return NervousPolicy(readings, keeps, self.surrenders(conflict, me), leaves, getaway)

    def quick_actions(self, conflict: ConflictView, me: Participant) -> dict[str, str]:
        """Quick's extra action it would take with each morale (steady, shaken, broken), as things stand."""
        lean = self._fight_for(conflict).lean
        keys = [o.key for o in conflict.quick_options(me)]
        return {m: quick_choice(lean, m, conflict, me, keys)[0] for m in (STEADY, SHAKEN, BROKEN)}

    def getaway(self, conflict: ConflictView, me: Participant) -> tuple[frozenset[str], float]:
        """With which morales its Quick is a try to get away, and the chance that Move roll succeeds."""
        from ..rules.rolls import success_chance

        leaves = frozenset(m for m, k in self.quick_actions(conflict, me).items() if k == "leave")
        if not leaves:
            return leaves, 0.0
        target, _ = conflict.leave_target(me)
        return leaves, success_chance(target)

    def declaration_spread(self, conflict: ConflictView, me: Participant, seen: str | None = None) -> dict:
        """:meth:`lens_spread` with its morale check first: {(choice, nerve left): chance, EXIT: chance}, what its
        declaration this round may be, as it stands now (memory and all)."""
        nerve = self.nerve_of(conflict, me)
        assert nerve is not None
        main = conflict.opponents(me)[0]
        decl = conflict.declared(main.id)
        if seen is None and decl is not None:
            seen = decl.clever_choice or decl.lens
        fight = self._fight_for(conflict)
        readings = {m: self._reading(conflict, me, m) for m in (STEADY, SHAKEN, BROKEN)}
        leaves, getaway = self.getaway(conflict, me)
        return declaration_chances(readings, self.surrenders(conflict, me), me.pool.current, main.pool.current,
                                   Effect(me.carry, me.clever_next, None, nerve),
                                   Effect(main.carry, main.clever_next), seen, main.last_lens, fight.last_lens,
                                   conflict.round <= 1, leaves, getaway)

    def lens_policy(self, conflict: ConflictView, me: Participant, *, keeps: str = "none") -> MindPolicy:
        """This mind's Lens choice as a policy of the state the Lens chain holds, for one foe that keeps ``keeps``.

        For :class:`~solo.rules.lens_chain.LensChain`, with this NPC as side B:
        at (own Pool, foe's Pool, own effect, foe's effect, what the foe
        declared first or None) it gives the chance of each Lens (of each edge
        when its Clever follow-up is due), from the same considerations and the
        same weights (:func:`near_weights`) as its draw, with the match-up, its
        nature and its morale as they are now. The foe's last Lens, which the
        mind answers when it declares first, is the Lens the foe's effect says
        it keeps (``Effect.last``: a chain pricing every Lens at once), else
        ``keeps`` (none after Clever's follow-up). It draws nothing from its
        generator. It answers arrays of Pools too (``over_grid``).

        The Lens the mind declared last (``inertia``) is the effect's ``last``:
        a chain that remembers it (``LensChain(remembers=True)``) holds it, and
        without it the habit counts for nothing. What the chain's state cannot
        hold is left out: the first round's ``surprise``, morale that moves
        (checks, breaking: here it never flees or gives up), pushing, other
        participants. :meth:`lens_spread` prices the round at hand as the mind
        stands now.
        """
        return MindPolicy(self._reading(conflict, me), keeps)

    def policy_key(self, conflict: ConflictView, me: Participant, *, nervous: bool = False) -> tuple:
        """What :meth:`lens_policy` reads of this mind and the match-up, by value (see :class:`_Reading`).

        Two minds with equal keys have the same policy, so the Lens odds priced
        against one hold against the other (a copy priced while the player read
        the scene, a conflict fought again). ``nervous``: of :meth:`nervous_policy`,
        whose morale is in the chain's state, not in the key (its readings are
        keyed at steady); its nerve and every way out are: the flee line, the
        share of surrenders, and with which morales Quick is a try to get away
        and how likely that Move roll is.
        """
        if not nervous:
            return self._reading(conflict, me).key()
        lean = self._fight_for(conflict).lean
        return (*self._reading(conflict, me, STEADY).key(), "nerve", lean.flee_threshold,
                self.surrenders(conflict, me), *self.getaway(conflict, me))

    def remembered_lens(self, conflict: ConflictView) -> str | None:
        """The Lens the mind last declared in this conflict (what ``inertia`` pulls towards), None before any."""
        fight = self._fight
        return fight.last_lens if fight is not None and fight.conflict is conflict else None

    def lens_spread(self, conflict: ConflictView, me: Participant, seen: str | None = None, *,
                    follow_up: bool | None = None) -> dict[str, float]:
        """The chance of each Lens (each edge, when due) the mind declares this round, from the live conflict.

        ``seen``: what its foe will have declared before it (the question at
        hand is the foe's); None reads the foe's declaration if it made one,
        else its last Lens. Unlike :meth:`lens_policy` this counts what the
        mind remembers (its last Lens, the first round); it still draws nothing
        and makes no morale check, so a mind about to break is priced as it
        stands. ``follow_up``: its Clever edge is due (default: as the
        participant says; the engine clears that as it asks for the edge).
        """
        r = self._reading(conflict, me)
        main = conflict.opponents(me)[0]
        decl = conflict.declared(main.id)
        if seen is None and decl is not None:
            seen = decl.clever_choice or decl.lens
        mine = Effect(me.carry, me.clever_next if follow_up is None else follow_up)
        theirs = Effect(main.carry, main.clever_next)
        fight = self._fight_for(conflict)
        return _spread_at(r, me.pool.current, main.pool.current, mine, theirs, seen, main.last_lens,
                          fight.last_lens, conflict.round <= 1)

    # -- the Decider interface -----------------------------------------------------
    def decide(self, question: Question) -> str:
        ctx = question.context
        conflict, me = ctx.get("conflict"), ctx.get("participant")
        if conflict is None or me is None or not question.options:
            return self._fallback(question)
        handler = _HANDLERS.get(question.kind)
        if handler is None or (handler in _NEEDS_FOE and not conflict.opponents(me)):
            return self._fallback(question)
        fight = self._fight_for(conflict)
        decision = handler(self, question, conflict, me, fight)
        self._publish(decision)
        return decision.choice

    def _fallback(self, question: Question) -> str:
        if question.default is not None:
            return question.default
        if question.free_text:
            return getattr(self.npc, "name", "NPC")
        return question.options[0].key

    def _fight_for(self, conflict: ConflictView) -> _Fight:
        fight = self._fight
        if fight is None and self._adopt is not None:
            fight = self._fight = replace(self._adopt, conflict=conflict)
            self._adopt = None
        if fight is None or fight.conflict is not conflict:
            facing_pcs = any(p.is_pc for p in conflict.participants)
            lean = self.leanings(facing_pcs=facing_pcs)
            fight = self._fight = _Fight(conflict, lean, Morale(lean),
                                         secondary=self._secondary if self._secondary is not None else {})
        return fight

    def _publish(self, d: Decision) -> None:
        self.last = d
        if self.explain:
            d.to_dict()  # its why worked out now, as it stands: the log is read later
            self.log.append(d)
        sink = self.sink
        if sink is not None and wants_detail(sink):
            sink(Event("npc_decision", d.to_dict()))

    @property
    def tells(self) -> bool:
        """Whether its sink reads words (a game's view, a journal, --explain) rather than only counting (the
        simulator's tally) or being gone (a duel's later runs): a decision's reason and a break's clue are made for
        the first kind only (events.wants_detail)."""
        return wants_detail(self.sink)

    def _emit(self, kind: str, **data) -> None:
        sink = self.sink
        if sink is not None and wants_detail(sink):
            sink(Event(kind, data))

    # -- shared steps --------------------------------------------------------------
    def _read(self, conflict: ConflictView, me: Participant, fight: _Fight) -> Position:
        return read_position(conflict, me, secondary=fight.secondary)

    def _check_morale(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight, pos: Position,
                      lenses: list[str] | None) -> None:
        allies_out = {p.id for p in conflict.participants
                      if p.side == me.side and p is not me and p.status != ACTIVE}
        check = fight.morale.observe(pool=me.pool.current, maximum=me.pool.maximum, win=pos.win(lenses),
                                     allies_out=allies_out, opponents=len(pos.opponents), side=len(pos.allies),
                                     rng=self.rng)
        if check is not None and self.tells:  # (its clue is words: made only where something reads them)
            before_any_roll = conflict.round <= 1 and check.after == SHAKEN and ODDS_ALONE.issuperset(check.triggers)
            self._emit("npc_morale", actor=me.id, round=conflict.round, **check.to_dict(),
                       clue=_clue(DAUNTED if before_any_roll else check.after, conflict, me))

    def _exit_if_broken(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision | None:
        morale = fight.morale
        if morale.state != BROKEN:
            return None
        keys = q.keys()
        if morale.reaction is None:
            can_flee = "flee" in keys
            bias = fight.lean.surrender_bias
            morale.choose_reaction(can_flee=can_flee, rng=self.rng, surrender_bias=bias)
        reaction = morale.reaction
        mechanic = MECHANIC.get(reaction) if reaction is not None else None
        if reaction is None or mechanic is None:  # fights on
            if reaction == "fight_on" and not fight.announced_break:
                # said, as every break is: the morale check's "has lost its nerve" is left to the break's clue on
                # screen and in the journal (describe.morale_clue_shown), so one that digs in must have one too
                fight.announced_break = True
                if self.tells:
                    self._emit("npc_break", actor=me.id, round=conflict.round, reaction=reaction, exit=None,
                               reason=_broke(self.npc, reaction, conflict.ctype.social, conflict.hunts(me)),
                               clue=_clue(reaction, conflict, me),
                               triggers=list(morale.checks[-1].triggers) if morale.checks else [])
            return None
        if mechanic not in keys:
            mechanic = "surrender" if "surrender" in keys else None
            if mechanic is None:
                return None
        # out of an argument one walks, as the screen says of it (describe.exit_words), and calls on nobody to fight;
        # the reason is words, made only where something reads them (the closure holds no mind, no participant)
        npc, social, hunter, chosen = self.npc, conflict.ctype.social, conflict.hunts(me), mechanic

        def why() -> tuple[str, str, dict]:
            return _broke(npc, reaction, social, hunter), "morale", {chosen: 1.0}

        if not fight.announced_break:
            fight.announced_break = True
            if self.tells:
                self._emit("npc_break", actor=me.id, round=conflict.round, reaction=reaction, exit=mechanic,
                           reason=_broke(npc, reaction, social, hunter), clue=_clue(reaction, conflict, me),
                           triggers=list(morale.checks[-1].triggers) if morale.checks else [])
        return Decision(me.id, q.kind, mechanic, round=conflict.round, why=why)

    def _pick(self, totals: dict[str, float]) -> str:
        """Softmax over the options within NEAR_BEST of the best (:func:`near_weights`), with the NPC's generator."""
        near = near_weights(totals)
        if len(near) == 1:
            return near[0][0]
        x = self.rng.random() * sum(w for _, w in near)
        for k, w in near:
            x -= w
            if x < 0:
                return k
        return near[-1][0]

    # -- the Lens --------------------------------------------------------------------
    def _lens(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        lenses = mind_can_declare([o.key for o in q.options if o.key in LENS_SET], fight.lean,
                                  mindless_flair=self.mindless_flair, mindless_study=self.old_lenses)
        if "quick" in lenses and not quick_extras(conflict, me):
            lenses.remove("quick")  # its only extra action would be an attempt to leave: that is what flee is for
        pos = self._read(conflict, me, fight)
        self._check_morale(q, conflict, me, fight, pos, lenses)
        leave = self._exit_if_broken(q, conflict, me, fight)
        if leave is not None:
            return leave
        if len(lenses) <= 1:
            choice = lenses[0] if lenses else q.options[0].key
            reason = "plain rolls: no Lenses at its level" if not me.uses_lenses else "its only choice"
            fight.last_lens = choice
            return Decision(me.id, q.kind, choice, reason, "level", {choice: 0.0}, conflict.round)
        parts, totals = self._lens_parts(lenses, conflict, me, fight, pos)
        choice = self._pick(totals)
        fight.last_lens = choice
        facts = _LensFacts.of(self, parts, conflict, me, pos)
        npc, strongest = self.npc, NPCMind._strongest

        # read only when something renders it (Decision); it holds neither the mind nor a participant (whose
        # decider is the mind): a mind keeps its last decision, and a cycle would keep a what-if twin's whole
        # conflict alive until the cyclic collector came by
        def why() -> tuple[str, str, dict]:
            key, reason = _reason(npc, choice, strongest(choice, lenses, parts), facts)
            return reason, key, {k: round(v, 3) for k, v in totals.items()}

        return Decision(me.id, q.kind, choice, round=conflict.round, why=why)

    def _lens_parts(self, lenses: list[str], conflict: ConflictView, me: Participant, fight: _Fight,
                    pos: Position) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
        """Every consideration's score for every offered Lens, from the live conflict (:func:`situation_at`),
        and each Lens's total (read only: they are shared).

        Both are a pure function of the reading's key and the state, kept in :data:`_SCORED`: the same
        match-up meets the same states conflict after conflict (a duel's runs, a simulation, a proof).
        """
        main = pos.main
        decl = conflict.declared(main.id)
        fields = self._reading_fields(conflict, me, pos, lenses)
        state = MindState(pos.a, pos.b, Effect(me.carry), Effect(main.carry, main.clever_next),
                          (decl.clever_choice or decl.lens) if decl is not None else None, main.last_lens,
                          fight.last_lens, conflict.round <= 1)
        key = (reading_key(*fields), state)
        scored = _SCORED.get(key)
        if scored is None:
            reading = _Reading(*fields)
            parts = lens_considerations(fight.lean, lenses, situation_at(reading, state), reading.temperament)
            totals = {k: round(sum(p.get(k, 0.0) for p in parts.values()), 6) for k in lenses}
            if len(_SCORED) >= _SCORED_MAX:
                _SCORED.clear()
            scored = _SCORED[key] = (parts, totals)
        return scored

    @staticmethod
    def _opponent_lens(conflict: ConflictView, main: Participant) -> str:
        decl = conflict.declared(main.id)
        if decl is not None:
            return decl.lens
        return main.last_lens if main.uses_lenses else "none"

    @staticmethod
    def _strongest(choice, options, parts) -> str | None:
        """The consideration that lifted ``choice`` most above the average option (None: nothing did).

        Only considerations that pull *towards* the choice count (and the
        odds, when the choice has the best of them), so a Lens picked because
        every other one was disliked reads as a whim, not as a liking.
        """
        best_key, best_gain = None, 1e-9
        n = len(options)
        for key, scores in parts.items():
            own = scores.get(choice, 0.0)
            if key != "odds" and own <= 0.0:
                continue  # a reason must pull towards the choice, not merely hold the others back more
            gain = own - sum(scores.get(o, 0.0) for o in options) / n
            if gain > best_gain:
                best_key, best_gain = key, gain
        return best_key

    # -- Clever's follow-up ------------------------------------------------------------
    def _clever(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        pos = self._read(conflict, me, fight)
        self._check_morale(q, conflict, me, fight, pos, None)
        leave = self._exit_if_broken(q, conflict, me, fight)
        if leave is not None:
            return leave
        keys = [k for k in q.keys() if k in ("skill", "damage")]
        if len(keys) < 2:
            return Decision(me.id, q.kind, keys[0] if keys else q.options[0].key, "its only choice", "level", {},
                            conflict.round)
        main = pos.main
        opp_lens = self._opponent_lens(conflict, main) if conflict.declared(main.id) is not None else "none"
        vals = pos.evaluator.lens_values(pos.a, pos.b, carry_me=me.carry + CLEVER_BONUS,
                                          carry_op=main.carry, opp_lens=opp_lens)
        # "damage" (rolled twice, no shift) is priced as Aggressive, the edge cancelling its shift
        value = {"skill": vals["none"], "damage": vals["aggressive"]}
        opp_frac = max(0.0, main.pool.current / main.pool.maximum) if main.pool.maximum else 0.0
        parts = clever_considerations(fight.lean, value, opp_frac)
        totals = {k: sum(p.get(k, 0.0) for p in parts.values()) for k in keys}
        choice = self._pick(totals)
        key = self._strongest(choice, keys, parts) or "chance"
        text = {
            "odds": f"{value[choice]:.0%} to win this way, the better use of what it saw",
            "temperament": f"{_traits(self.npc, 'aggression' if choice == 'damage' else 'caution')}: "
                           + ("goes for the weak spot" if choice == "damage" else "makes the opening count"),
            "press": f"presses the wounded: {main.name} at {main.pool.current}/{main.pool.maximum}",
        }.get(key, "near-equal options, picked on a whim")
        return Decision(me.id, q.kind, choice, text, key, {k: round(v, 3) for k, v in totals.items()},
                        conflict.round)

    # -- Flamboyant's skill, Quick's action, the Pool hit --------------------------------
    def _flamboyant(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        keys = q.keys()
        best = best_secondary(me) if me.char is not None else None
        choice = best if best in keys else keys[0]
        value = me.rolled_target(LENS_TABLE["flamboyant"], choice)[0] if me.char is not None else 0
        return Decision(me.id, q.kind, choice, f"its best other skill ({choice} {value} %)", "skill",
                        {choice: float(value)}, conflict.round)

    def _quick(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        choice, scores, why = quick_choice(fight.lean, fight.morale.state, conflict, me, q.keys())
        return Decision(me.id, q.kind, choice, why[choice] or "nothing better to do", "action",
                        {k: round(v, 3) for k, v in scores.items()}, conflict.round)

    def _damage_pool(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        """Hit the Pool that puts the target out in fewer blows (armour covers BODY only).

        Either Pool at zero takes the target out, so a Covert blow to a low
        POW can end a fight sooner than a blow that armour blunts.
        """
        keys = q.keys()
        target = self._last_struck(conflict, me, fight)
        physical = conflict.ctype.physical
        choice, blows = _pool_blows(me, target, conflict.ctype, keys)
        if choice == "conflict":
            reason = "the conflict Pool is the quicker way to put it down"
        else:
            reason = f"{choice} is nearer empty" + (" and armour does not cover it" if physical else "")
        return Decision(me.id, q.kind, choice, reason, "blows", {k: -round(v, 3) for k, v in blows.items()},
                        conflict.round)

    @staticmethod
    def _last_struck(conflict: ConflictView, me: Participant, fight: _Fight) -> Participant | None:
        """The target of the blow being dealt now: the target question, when there was one, came just before."""
        opponents = conflict.opponents(me)
        if len(opponents) == 1:
            return opponents[0]
        chosen = conflict.by_id.get(fight.last_target) if fight.last_target else None
        return chosen if chosen is not None else (opponents[0] if opponents else None)

    # -- whom to strike ------------------------------------------------------------------
    def _target(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        keys = q.keys()
        targets = [conflict.by_id[k] for k in keys if k in conflict.by_id]
        physical = conflict.ctype.physical
        lean = fight.lean
        if not targets:
            return Decision(me.id, q.kind, keys[0], "the only one in reach", "level", {}, conflict.round)

        def armour_of(t: Participant) -> int:
            return t.armour_against(me, conflict.ctype)

        if lean.mindless:
            # the most damage where it counts (seed 001's draugr): the foe its blows drop soonest, its armour
            # counted; so a band of them piles on the same wounded, unarmoured foe until it falls (a swarm)
            def blows(t: Participant) -> float:
                return max(0, t.pool.current) / max(0.25, mean_damage(me, physical, armour_of(t)))

            t = min(targets, key=lambda t: (math.ceil(blows(t) - 1e-9), t.pool.current, armour_of(t), t.id))
            choice = t.id
            reason = f"goes for the weakest: {t.name} at {t.pool.current}" + (
                f", armour {armour_of(t)}" if armour_of(t) else "")
            scores = {x.id: -round(blows(x), 3) for x in targets}
            fight.last_target = choice
            return Decision(me.id, q.kind, choice, reason, "weakest", scores, conflict.round)
        L = lean.lean
        threats = {t.id: threat(t, physical) for t in targets}
        top = max(threats.values()) or 1.0
        parts: dict[str, dict[str, float]] = {"finish": {}, "wounded": {}, "armour": {}, "strongest": {}, "inertia": {}}
        for t in targets:
            frac = max(0.0, t.pool.current / t.pool.maximum) if t.pool.maximum else 0.0
            hit = mean_damage(me, physical, armour_of(t))
            parts["finish"][t.id] = 0.6 if hit >= t.pool.current else 0.0
            parts["wounded"][t.id] = 0.5 * (1 - frac) * max(0.0, 1 + L["cruelty"])
            parts["armour"][t.id] = -0.1 * armour_of(t)
            rel = threats[t.id] / top
            parts["strongest"][t.id] = (-0.6 * L["self_preservation"] + 0.3 * max(0.0, L["aggression"])) * rel
            if t.id == fight.last_target:
                parts["inertia"][t.id] = WEIGHTS["inertia"]
        totals = {t.id: sum(p.get(t.id, 0.0) for p in parts.values()) for t in targets}
        choice = self._pick(totals)
        key = self._strongest(choice, list(totals), parts) or "chance"
        t = conflict.by_id[choice]
        text = {
            "finish": f"one more blow should put {t.name} down",
            "wounded": f"goes for the wounded: {t.name} at {t.pool.current}/{t.pool.maximum}",
            "armour": f"{t.name} has the least armour",
            "strongest": (f"keeps clear of the most dangerous foe, strikes {t.name}"
                          if L["self_preservation"] > 0 else f"takes on the biggest threat, {t.name}"),
            "inertia": f"keeps after {t.name}",
        }.get(key, f"strikes {t.name}")
        fight.last_target = choice
        return Decision(me.id, q.kind, choice, text, key, {k: round(v, 3) for k, v in totals.items()},
                        conflict.round)

    # -- pushing on, Luck ------------------------------------------------------------------
    def _push(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        keys = q.keys()
        lean = fight.lean
        if lean.mindless:
            choice = "refresh" if "refresh" in keys else "push" if "push" in keys else OUT
            return Decision(me.id, q.kind, choice, "knows no pain and no fear", "mindless", {choice: 1.0},
                            conflict.round)
        if fight.morale.state == BROKEN and OUT in keys:
            return Decision(me.id, q.kind, OUT, round=conflict.round,
                            why=_said_later(self.npc, "{its} nerve is gone: {it} go{es} down", "morale", {OUT: 1.0}))
        if "refresh" in keys and lean.lean["resolve"] >= 0:
            return Decision(me.id, q.kind, "refresh", round=conflict.round,
                            why=_said_later(self.npc, "spends {its} luck to stay in", "luck", {"refresh": 1.0}))
        if "push" not in keys:
            return Decision(me.id, q.kind, OUT, "cannot push on", "level", {OUT: 0.0}, conflict.round)
        win = push_chance(conflict, me)
        L = lean.lean
        parts = {
            "odds": {"push": 2.0 * (win - 0.3)},
            "resolve": {"push": 0.8 * L["resolve"] + 0.6 * lean.risk_tolerance},
            "self_preservation": {OUT: 0.6 * L["self_preservation"] + 0.4 * (1 - lean.risk_tolerance)},
            "cruelty": {"push": 0.3 * max(0.0, L["cruelty"])},
        }
        totals = {k: sum(p.get(k, 0.0) for p in parts.values()) for k in ("push", OUT)}
        choice = self._pick(totals)
        key = self._strongest(choice, ["push", OUT], parts) or "chance"
        template = {
            "odds": f"{win:.0%} to win pushing on" if choice == "push" else f"only {win:.0%} pushing on",
            "resolve": "will not give in",
            "self_preservation": "values {its} life more than this fight",
            "cruelty": "wants to see {its} foe suffer first",
        }.get(key, "near-equal options, picked on a whim")
        return Decision(me.id, q.kind, choice, round=conflict.round,
                        why=_said_later(self.npc, template, key, {k: round(v, 3) for k, v in totals.items()}))

    def _luck(self, q: Question, conflict: ConflictView, me: Participant, fight: _Fight) -> Decision:
        keys = q.keys()
        if q.kind == LUCK_REDUCE:
            amount = q.context.get("damage", 0)
            want = amount >= 3 or amount >= me.pool.current
        else:
            want = True
        choice = "yes" if want and "yes" in keys else ("no" if "no" in keys else keys[0])
        template = "a Luck Point well spent" if choice == "yes" else "saves {its} luck for worse"
        return Decision(me.id, q.kind, choice, round=conflict.round,
                        why=_said_later(self.npc, template, "luck", {choice: 1.0}))


#: What an NPC does when its nerve breaks, after "he", "she" or "it" and after "they" (or a tally's "flee 38"):
#: ``--explain``'s reason, the NPC card's "when clearly losing" and ``solo duel``'s tallies say it from here.
BREAK_WORDS = {"flee": ("runs", "run"), "surrender": ("surrenders", "surrender"), "beg": ("begs", "beg"),
               "bargain": ("bargains", "bargain"), "call_for_help": ("calls for help", "call for help"),
               "fight_on": ("fights on", "fight on")}
#: The same in an argument, which one leaves by walking out and where nobody is called to fight.
SOCIAL_BREAK_WORDS = {**BREAK_WORDS, "flee": ("walks away", "walk away"), "surrender": ("concedes", "concede"),
                      "beg": ("asks to let it drop", "ask to let it drop"), "fight_on": ("digs in", "dig in"),
                      "call_for_help": ("looks for support, then walks away", "look for support, then walk away")}


#: The same for the side that gives chase or keeps watch (rules.fiction.hunts): it does not run from its quarry, it
#: stops and walks away, as its Lens menu's "Walk away" says (``solo duel --explain`` read "its nerve broke: it runs"
#: of a tracker giving up the chase).
HUNT_BREAK_WORDS = {**BREAK_WORDS, "flee": ("walks away", "walk away"),
                    "call_for_help": ("calls for help, then walks away", "call for help, then walk away")}


def _broke(npc, reaction: str, social: bool, hunts: bool) -> str:
    """``--explain``'s reason for a break, by the NPC's own pronoun ("her nerve broke: she runs"): out of an argument
    it walks, and so does one that gives chase or keeps watch (its part in the pursuit, as the Lens menu words its
    way out)."""
    plural = pronoun_forms(getattr(npc, "pronoun", None) or "it")["they"] == "they"
    words = break_words(reaction, social=social, hunts=hunts, plural=plural)
    return f"{said_of(npc, '{its} nerve broke: {it}')} {words}"


def break_words(reaction: str, *, social: bool = False, hunts: bool = False, plural: bool = False) -> str:
    """``reaction`` (a key of BREAK_WORDS) in words: "runs", "walk away" (``plural``: after "they", or a tally);
    ``hunts``: said of the side that gives chase or keeps watch."""
    table = SOCIAL_BREAK_WORDS if social else HUNT_BREAK_WORDS if hunts else BREAK_WORDS
    return table[reaction][1 if plural else 0]


def _traits(npc, lean_key: str) -> str:
    """The Code Block entries behind a lean, e.g. "Aggressive, Sadistic"; "mindless" for creatures."""
    if getattr(npc, "mindless", False):
        return "mindless"
    cb = getattr(npc, "code_block", None)
    if cb is None:
        return "by habit"
    from ..npc.tables import codeblocks

    t = codeblocks()
    names = [tr.name for tr in cb.personality if t.trait(tr.table, tr.name).lean.get(lean_key, 0.0) > 0]
    if not names:
        names = [m for m in cb.motivation if t.motivation(m).lean.get(lean_key, 0.0) > 0]
    return ", ".join(dict.fromkeys(names)) or "by habit"


_LEAN_OF = {lens: lean for lean, lens in LEAN_LENS.items()}  # Lens -> the leaning that favours it


class _LensFacts(NamedTuple):
    """What the sentence for a Lens decision reads of the live conflict, taken when the mind decides (the
    sentence is made later, if ever: :class:`Decision`): numbers and names, no participant."""

    values: dict[str, float]  # the position's (read only)
    win: float | None  # its best chance, adjusted for numbers (only with ``gamble`` or ``secure``)
    opponents: int
    allies: int
    armour_op: int
    main_name: str
    main_current: int
    main_maximum: int
    main_carry: int
    own_current: int
    own_maximum: int
    opp_lens: str | None  # the foe's Lens as it answers it (only with a ``counter`` consideration)
    disposition: str | None  # towards the PCs (only with a ``rapport`` consideration)

    @classmethod
    def of(cls, mind: NPCMind, parts: dict, conflict: ConflictView, me: Participant, pos: Position) -> _LensFacts:
        main = pos.main
        return cls(pos.values, pos.win() if "gamble" in parts or "secure" in parts else None, len(pos.opponents),
                   len(pos.allies), pos.armour_op, main.name, main.pool.current, main.pool.maximum, main.carry,
                   me.pool.current, me.pool.maximum,
                   NPCMind._opponent_lens(conflict, main) if "counter" in parts else None,
                   mind.disposition() if "rapport" in parts else None)


def _said_later(npc, template: str, consideration: str, scores: dict) -> Callable[[], tuple[str, str, dict]]:
    """A :class:`Decision`'s ``why`` that says ``template`` of ``npc`` (:func:`said_of`) only when something reads
    it: a push or a Luck Point decided in a simulation builds no sentence."""
    return lambda: (said_of(npc, template), consideration, scores)


def said_of(npc, template: str) -> str:
    """``template`` (constant words only, never a name: its braces are read) said of ``npc`` by its own pronoun:
    ``{it}``, ``{its}``, ``{itself}``, ``{is}`` and a verb's ending ``{s}``/``{es}``, which "they" drops. A "she"
    NPC's --explain read "plays safe: it is Reserved", "it guards itself" (a GM-less table's evening)."""
    forms = pronoun_forms(getattr(npc, "pronoun", None) or "it")
    plural = forms["they"] == "they"
    return template.format_map({"it": forms["they"], "its": forms["their"],
                                "itself": "themselves" if plural else forms["themself"],
                                "is": "are" if plural else "is", "s": "" if plural else "s",
                                "es": "" if plural else "es"})


def _reason(npc, choice: str, key: str | None, facts: _LensFacts) -> tuple[str, str]:
    """The strongest consideration behind a Lens (``key``, from :meth:`NPCMind._strongest`), and a short sentence
    for it (``npc``: whose Code Block names its temperament)."""
    if key is None:
        return "chance", f"{said_of(npc, LENS_WORDS.get(choice, choice))}: near-equal options, picked on a whim"
    return key, _lens_reason(npc, key, choice, facts)


def _lens_reason(npc, key: str, choice: str, f: _LensFacts) -> str:
    words = said_of(npc, LENS_WORDS.get(choice, choice))
    if key == "odds":
        return f"{words}: {f.values.get(choice, 0.0):.0%} to win this way, the best odds"
    if key == "temperament":
        if choice == "none":
            return said_of(npc, "keeps it simple: nothing in {its} nature pulls {it} elsewhere")
        return f"{words}: {said_of(npc, '{it} {is}')} {_traits(npc, _LEAN_OF[choice])}"
    if key == "press":
        return f"{words}: presses {f.main_name}, hurt at {f.main_current}/{f.main_maximum}"
    if key == "guard":
        return f"{words}: hurt ({f.own_current}/{f.own_maximum}), {said_of(npc, '{it} guard{s} {itself}')}"
    if key == "gamble":
        return f"{words}: losing ({f.win or 0.0:.0%}), {said_of(npc, '{it} swing{s} for a lucky break')}"
    if key == "secure":
        return f"{words}: well ahead ({f.win or 0.0:.0%}), {said_of(npc, '{it} make{s} the win safe')}"
    if key == "counter":
        if f.main_carry < 0 and choice == "aggressive":
            return f"{words}: {f.main_name} is off balance ({f.main_carry} %)"
        return f"{words}: answers {f.main_name}'s {(f.opp_lens or 'none').title()}"
    if key == "outnumbered":
        return f"{words}: outnumbered {f.opponents} to {f.allies}"
    if key == "armour":
        return f"{words}: {f.main_name}'s armour soaks {f.armour_op} points"
    if key == "shaken":
        return f"{words}: {said_of(npc, 'shaken, {it} keep{s} {its} distance')}"
    if key == "cornered":
        return f"{words}: {said_of(npc, 'broken but cornered, {it} lash{es} out')}"
    if key == "inertia":
        return f"{words}: {said_of(npc, 'sticks with what {it} did last round')}"
    if key == "surprise":
        return f"{words}: opens with a trick before they see it coming"
    if key == "rapport":
        disposition = f.disposition or "Neutral"
        fair = disposition_step(disposition) > 0
        return f"{words}: {disposition} towards them, " + said_of(npc, "{it} play{s} fair" if fair
                                                                     else "{it} fight{s} dirty")
    return words


_HANDLERS = {
    LENS: NPCMind._lens,
    CLEVER_FOLLOW_UP: NPCMind._clever,
    FLAMBOYANT_SKILL: NPCMind._flamboyant,
    QUICK_ACTION: NPCMind._quick,
    DAMAGE_POOL: NPCMind._damage_pool,
    TARGET: NPCMind._target,
    PUSH: NPCMind._push,
    LUCK_FLIP: NPCMind._luck,
    LUCK_REDUCE: NPCMind._luck,
}
_NEEDS_FOE = {NPCMind._lens, NPCMind._clever}


def _clue(key: str, conflict: ConflictView, me: Participant) -> str:
    """The words a GM could say for ``me``'s morale state or break (solo.minds.morale.clue), fitting the
    conflict: an argument's, a watcher's or a hider's, and a call for help only with no friend of its still in
    the fight."""
    from ..rules.fiction import fiction_of

    friends_here = any(p.side == me.side and p is not me and p.status == ACTIVE for p in conflict.participants)
    return clue(key, social=conflict.ctype.social, friends_here=friends_here, part=conflict.part(me),
                speaks=bool(fiction_of(me).speaks))
