"""The chances shown to a player before they pick a Lens (no other solo tool does this).

A :class:`LensAdvisor` lives for one conflict: story/play/engine.py hands a new one
to each :class:`~solo.rules.conflict.Conflict`, which asks it at every Lens
question of a PC and shows its words after each Lens's hint.

**One against one**, the numbers are exact (:class:`~solo.minds.foresight.Foresight`,
the Lens chain of :mod:`solo.rules.lens_chain`): for every Lens, the chance to
win if the player keeps it every round (Clever: Clever, then its +20 edge, and
again), from the true state of this round — the Pools as they are, a −20
carried from last round for this round only, an opponent's Clever edge due —
against the opponent as it really decides: an NPC with a mind by its own
considerations and weights, drawing among its near-best Lenses, seeing the
player's Lens when it declares second and remembering its own last one; a
Common NPC or an obstacle by plain rolls. The best Lens is marked. Where the
scene has a round limit, what is still undecided when it comes is shown (and
explained once per menu). Left out of the exact numbers: Luck, pushing on, an
NPC's nerve (morale that moves, so also the chance that it flees or gives up:
the chain's NPC fights to the end), blows sent to POW or CHA, Quick's extra
action.

**With allies or several opponents, or while someone is pushing on**, there is
no exact chain: the engine itself plays copies of the conflict as it stands
(the player keeping one Lens, everyone else deciding as they would, the NPC
minds as twins of the live ones) from a generator seeded by the state, within
a time budget. That buys about a hundred conflicts, a standard error of some
five points, so only one Lens gets the estimate: the best one by one round's
exact odds (what the NPC minds and the greedy bot weigh). It reads
"≈ 41 % ± 6 to win · from 60 tries" (± one standard error), with the shares in which the
opponents give up and in which they run (from an argument: walk away), which
the copies do play: each apart, for an adventure may branch on them otherwise
than on a win.

The advice draws nothing from the game's generator, so showing it never moves
the dice.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from typing import TYPE_CHECKING

from ...decisions import CLEVER_FOLLOW_UP, FLAMBOYANT_SKILL, LENS, QUICK_ACTION, Question
from ...minds.arena import restore, snapshot
from ...minds.bots import GreedyDecider, LensKeeper
from ...minds.foresight import Exact, Foresight, SharedChains, foe_of, mind_of
from ...rules.character import Pool, pronoun_forms
from ...rules.conflict import Conflict
from ...rules.lenses import LENS_TABLE
from ...rules.outcomes import DOWN, OPPONENT_FLED, OPPONENT_SURRENDERED, STALEMATE, WON
from ...sampling import share_error

if TYPE_CHECKING:
    from ...decisions import Decider
    from ...rules.conflict import Declaration
    from ...rules.conflict_view import ConflictView
    from ...rules.participants import Participant

#: What an estimate may spend at one question: rounds of play (a stand-in for time that every machine
#: counts alike, so the same question always gets the same words; about 0.25 s here), and at most so many conflicts.
ESTIMATE_ROUNDS = 400
ESTIMATE_RUNS = 400


#: Below this many conflicts played, an estimate says the count rather than a chance (one or two conflicts, each
#: longer than half the budget, are too few for a spread).
FEWEST_RUNS = 3


def percent(p: float) -> str:
    """A chance in whole percent, never rounded to a certainty it is not ("<1 %", ">99 %")."""
    if 0.0 < p < 0.005:
        return "<1 %"
    if 0.995 <= p < 1.0:
        return ">99 %"
    return f"{p * 100:.0f} %"


def sampled(count: int, runs: int) -> str:
    """A share of played copies with its spread: "≈ 41 % ± 5", or, where the spread would reach past 0 or 100,
    the range it covers ("≈ 96–100 %"; "≈ 0–1 %")."""
    p = count / runs
    spread = max(1, math.ceil(share_error(count / runs, runs) * 100))
    if p * 100 + spread > 100 or p * 100 - spread < 0:  # "≈ 100 % ± 4" reads past 100 %
        low, high = max(0, math.floor(p * 100 - spread)), min(100, math.ceil(p * 100 + spread))
        return f"≈ {low}–{high} %" if high > low else f"≈ {low} %"
    return f"≈ {percent(p)} ± {spread}"


class LensAdvisor:
    """The Lens advice for one conflict: ``advisor(view, participant) -> {lens: words}``.

    Keeps the exact chains between questions (a later round is mostly a
    look-up). ``budget`` (rounds of play, None: no limit) and ``runs`` bound an
    estimate; the estimate's generator is seeded by the state it starts from,
    so the same question gets the same words.
    """

    def __init__(self, *, budget: int | None = ESTIMATE_ROUNDS, runs: int = ESTIMATE_RUNS,
                 shared: SharedChains | None = None):
        self.foresight = Foresight(shared=shared)  # shared: chains priced ahead (story/play/think_ahead.py)
        self.budget = budget
        self.runs = runs
        self.told = False  # whether a menu has said what "to win" assumes

    def __call__(self, view: ConflictView, p: Participant) -> dict[str, str]:
        try:
            exact = self.foresight.exact(view, p)
        except ValueError:  # beyond what the exact odds handle: estimate instead
            exact = Exact({}, None, "beyond the exact odds")
        if exact.odds:
            # what the numbers assume, said on the conflict's first menu, and again on each where the foe's way
            # out would now be the party's win
            told, self.told = self.told, True
            foe = foe_of(view, p)
            again = foe is not None and fallen_beside(view, foe) is not None
            assumes = "" if told and not again else KEPT + nerve_assumed(view, p)
            return struck_pool_noted(view, p, exact_words(exact, assumes, first_round=view.round))
        if not view.opponents(p):
            return {}
        return struck_pool_noted(view, p, self.estimate_words(view, p))

    def edges(self, view: ConflictView, p: Participant) -> dict[str, str]:
        """With ``p``'s Clever edge due: for each edge ("skill", "damage"), the chance to win taking it now and
        keeping Clever after, exact one against one (else nothing: an estimate of one round's choice would be
        noise)."""
        try:
            exact = self.foresight.edges(view, p)
        except ValueError:
            return {}
        if not exact.odds:
            return {}
        # on a limit's last round there is no after: "0 % to win with Clever kept after, 100 % undecided when this
        # last round ends" (a player's run)
        after = "" if exact.rounds_left is not None and exact.rounds_left <= 1 else "with Clever kept after"
        return exact_words(exact, after, first_round=view.round)

    def estimate_words(self, view: ConflictView, p: Participant) -> dict[str, str]:
        lens = likely_best(view, p)
        est = estimate(view, p, lens, runs=self.runs, budget=self.budget)
        return {lens: est.words()} if est.runs else {}


def struck_pool_noted(view: ConflictView, p: Participant, words: dict[str, str]) -> dict[str, str]:
    """Where a Lens's won round lets ``p`` choose to hit another Pool (Flamboyant's CHA, Covert's POW, against
    someone who can take it), its chance says which Pool it counts blows to: the odds follow the conflict's Pool
    alone, and a player who sends blows elsewhere plays for something they do not price."""
    foes = view.opponents(p)
    out = dict(words)
    for lens, text in words.items():
        side = LENS_TABLE[lens].side_pool if lens in LENS_TABLE else None
        if side is not None and any(o.takes_side_blows(side) for o in foes):
            head, sep, tail = text.partition(" · ")
            out[lens] = f"{head}, blows to {view.ctype.pool_label}{sep}{tail}"
    return out


#: What the exact odds assume of the Lens they price: kept every round.
KEPT = "if kept every round"


def nerve_assumed(view: ConflictView, p: Participant) -> str:
    """What the exact odds assume of the foe's nerve, where it has one that can break: that it never does (the
    menu's chain holds its morale as it stands: docs/design.md). A GM read "Flamboyant: 44 % to win, 34 %
    undecided" beside ``solo odds``'s 19 % won and 35 % with Bram Tolk giving up or running, and could not tell
    which to balance by; play gives what solo odds does. Empty where the foe has no nerve to lose."""
    from ...minds.foresight import nervous

    foe = foe_of(view, p)
    if foe is None or foe.exits_closed or nervous(foe, view) is None:  # (its offer refused: it fights to the end)
        return ""
    they = foe.pronoun
    gives = f" and {they} never {said_of(they, 'give up')}"  # "she never gives up", "they never give up"
    if view.ctype.flight:  # (not in a chase: running is the contest itself, not a way out of it: the review)
        gives += f" or {said_of(they, 'walk away' if view.ctype.social else 'run')}"
    down = fallen_beside(view, foe)
    if down is not None:  # its way out now ends the conflict as the party's win (outcomes.ending_of): say so, or
        # "9 % to win" stood a round after "≈ 30–34 % to win" that counted it (a player's argument at Kaldskard)
        gives += f" (that would end it as your win, {down.name} being down)"
    return gives


def fallen_beside(view: ConflictView, foe: Participant) -> Participant | None:
    """One of ``foe``'s side already down (out or in comae), if any: then its leaving or giving up ends the conflict as
    a win for the other side, not as its flight or surrender (the rule of :func:`~solo.rules.outcomes.ending_of`)."""
    return next((q for q in view.participants if q.side == foe.side and q is not foe and q.status in DOWN), None)


def said_of(they: str, phrase: str) -> str:
    """A verb phrase after ``they`` as it agrees: "gives up" of "she", "give up" of "they"."""
    if they == "they":
        return phrase
    head, sep, rest = phrase.partition(" ")
    return f"{head}s{sep}{rest}"


def exact_words(exact: Exact, assumes: str = "", *, first_round: int = 1) -> dict[str, str]:
    """"62 % to win · best", with what is undecided at the round limit (explained at its first mention), and
    on the first line what the numbers assume, when given ("if kept every round")."""
    out: dict[str, str] = {}
    explained = False
    for lens, odds in exact.odds.items():
        words = f"{percent(odds.a_wins)} to win"
        if assumes and not out:
            words += f" {assumes}"
        if exact.rounds_left is not None and odds.undecided >= 0.005:
            words += f", {percent(odds.undecided)} undecided"
            if not explained:
                # the last round by its number, from the round the odds start at (``first_round``, the one being
                # declared; a conflict not yet begun starts at 1): "after 12 more rounds" at round 1 of 12 read
                # as 13 in all, and a scene's choice has no round of its own to count from
                last = max(first_round, 1) + exact.rounds_left - 1
                # at the last round itself, "undecided after round 5" on round 5's menu read as a round gone by
                words += " when this last round ends" if first_round >= 1 and last == first_round else \
                    f" after round {last}"
                explained = True
        if lens == exact.best:
            words += " · best"
        out[lens] = words
    return out


def likely_best(view: ConflictView, p: Participant) -> str:
    """The Lens with the best chance by one round's exact odds and best play after (what minds and bots weigh).

    In a limit's last round a Lens whose edge comes next round is left out: the values read the fight on without
    a limit, and a menu estimated "≈ 0–1 % to win · likely best" beside Clever's "no damage now, and its edge
    would come next round: this is the last" (a new GM's run)."""
    from ...minds.position import read_position

    try:
        values = read_position(view, p).values
    except (ValueError, KeyError, IndexError):
        return "none"
    offered = [k for k in LENS_TABLE if k in values]
    if view.last_round:
        offered = [k for k in offered if not LENS_TABLE[k].follow_up] or offered
    return max(offered, key=lambda k: values[k]) if offered else "none"


@dataclasses.dataclass(frozen=True)
class Estimate:
    """What copies of the conflict gave: wins, the opponents' exits (``fled`` of them flights, the rest given up)
    and stalemates out of ``runs``; ``leave`` is what their flight is called here ("walk away" from an argument)."""

    runs: int
    wins: int
    exits: int
    stalemates: int
    fled: int = 0
    leave: str = "run"
    they: str = "they"  # who gives up or runs: one opponent's own pronoun ("he runs"), else "they" (a group, or a
    # "they"): Knut, "he" everywhere else, read "42 % they give up, 58 % they run" (a new player's run)
    allies: bool = False  # others of the side fought in the copies as the greedy bot fights: Luck spent, pushing on

    @property
    def win(self) -> float:
        return self.wins / self.runs if self.runs else 0.0

    @property
    def error(self) -> float:
        """One standard error of :attr:`win` (at least that of one conflict in ``runs``)."""
        return share_error(self.win, self.runs) if self.runs else 1.0

    def words(self) -> str:
        if self.runs < FEWEST_RUNS:  # (one conflict gives no spread at all: it read "≈ 99–100 %")
            rest = ([f"they gave up in {self.exits}"] if self.exits else []) + (
                [f"{self.stalemates} undecided"] if self.stalemates else [])
            told = f" ({', '.join(rest)})" if rest else ""
            return f"won {self.wins} of {self.runs} tried{told}, too few to tell · likely best"
        gone = self.exits * 200 >= self.runs
        # their yielding or leaving ends it without a win: an adventure may take either otherwise (Kaldskard's
        # outlaws who walk away from the argument do not join you), so each is shown apart from the win
        # "to beat them outright", not "to win outright": "≈ 0 % to win outright" beside "60 % they give up, 40 % they
        # run" read as a fight that could not be won (a new player's Kaldskard, whose refused surrender then won it)
        win = f"to beat {pronoun_forms(self.they)['them']} outright" if gone else "to win"
        undecided = self.stalemates * 200 >= self.runs
        # every share is sampled, so every share carries its spread: "53 % they give up" beside "≈ 1 % ± 1" read as
        # if the one were exact and the other not (an audit of the numbers shown)
        text = f"{sampled(self.wins, self.runs)} {win}"
        if gone:
            gave_up = self.exits - self.fled
            ways = ([f"{sampled(gave_up, self.runs)} {self.they} {said_of(self.they, 'give up')}"] if gave_up
                    else []) + ([f"{sampled(self.fled, self.runs)} {self.they} {said_of(self.they, self.leave)}"]
                                if self.fled else [])
            if self.exits > self.wins:  # the likelier first: "≈ 0–1 % to win outright" first read as hopeless
                text = ", ".join([*ways, text])  # where they were sure to give up or run (a new player's run)
            else:
                text = ", ".join([text, *ways])
        if undecided:
            text += f", {sampled(self.stalemates, self.runs)} undecided"
        # how many were played: a share of fights played out, not odds worked out (a new player read "≈ 59 %",
        # then "≈ 10 %" a round later, as the same kind of number as the exact odds beside them)
        # its own item, after the shares (and what a Lens's blows count towards, struck_pool_noted)
        # what the tries assume of the rest of the party, which the exact odds never count (a hot-seat party read
        # "≈ 95–100 % to win" as the table's own chances, and lost)
        allies = ", the others as a bot plays them: Luck spent, pushing on" if self.allies else ""
        return f"{text} · from {self.runs} tries{allies} · likely best"


def estimate(view: ConflictView, p: Participant, lens: str, *, runs: int = ESTIMATE_RUNS,
             budget: int | None = ESTIMATE_ROUNDS, seed: str | None = None) -> Estimate:
    """Play copies of the conflict as it stands, ``p`` keeping ``lens``: up to ``runs``, within ``budget`` rounds.

    The budget counts rounds played, not seconds, so that a replayed game shows the same estimate on any machine.
    """
    what_if = WhatIf(view, p)
    rng = random.Random(seed if seed is not None else what_if.seed())
    spent = wins = exits = fled = stalls = n = 0
    while n < runs:
        outcome, rounds = what_if.play(lens, rng)
        n += 1
        spent += rounds
        wins += outcome == WON
        exits += outcome in (OPPONENT_FLED, OPPONENT_SURRENDERED)
        fled += outcome == OPPONENT_FLED
        stalls += outcome == STALEMATE
        if budget is not None and spent + spent / n > budget:  # one more conflict this long would go over it
            break
    foes = view.opponents(p)
    they = foes[0].pronoun if len(foes) == 1 and foes[0].pronoun in ("he", "she", "it") else "they"
    allies = any(q is not p and q.side == p.side and q.is_pc and q.active for q in view.participants)
    return Estimate(n, wins, exits, stalls, fled, "walk away" if view.ctype.social else "run", they, allies)


class _Replay:
    """A decider that first repeats what its participant already declared this round, then decides as ``inner``."""

    def __init__(self, decl: Declaration, inner: Decider | None):
        self.decl, self.inner = decl, inner
        self.done = False

    def decide(self, question: Question) -> str:
        if not self.done:
            d = self.decl
            answer = {LENS: d.lens, CLEVER_FOLLOW_UP: d.clever_choice, FLAMBOYANT_SKILL: d.secondary,
                      QUICK_ACTION: d.quick_action}.get(question.kind)
            if question.kind in (LENS, CLEVER_FOLLOW_UP):
                self.done = d.secondary is None and d.quick_action is None
            elif question.kind in (FLAMBOYANT_SKILL, QUICK_ACTION):
                self.done = True
            if answer is not None and answer in question.keys():
                return answer
        assert self.inner is not None
        return self.inner.decide(question)


class WhatIf:
    """Copies of a conflict as it stands now, for one participant to play on keeping a Lens.

    The characters are copied once; each :meth:`play` restores them and
    builds fresh participants, so nothing of the live conflict is touched.
    Those who already declared this round declare the same again; NPC minds
    play as twins of the live ones (:meth:`NPCMind.spawn`), other people as
    the greedy bot.
    """

    def __init__(self, view: ConflictView, me: Participant):
        self.view, self.me = view, me
        self.chars = {id(q.char): copy.deepcopy(q.char) for q in view.participants if q.char is not None}
        self.saved = {k: snapshot(c) for k, c in self.chars.items()}
        # the same characters in every copy: their Covert and Flamboyant targets are worked out once, and a
        # greedy player (who keeps nothing between conflicts but those) is one decider for every copy
        self.secondary: dict = {}
        self.greedy: dict[str, GreedyDecider] = {}

    def seed(self) -> str:
        view = self.view
        state = ",".join(f"{q.id}:{q.pool.current}:{q.carry}:{q.clever_next}:{q.status}" for q in view.participants)
        return f"lens-estimate:{view.round}:{self.me.id}:{state}"

    def play(self, lens: str, rng: random.Random) -> tuple[str, int]:
        """One copy played to its end, ``me`` keeping ``lens``: the outcome for ``me``'s side, and its rounds."""
        view = self.view
        copies = []
        for q in view.participants:
            char = self.chars.get(id(q.char))
            if char is not None:
                restore(char, self.saved[id(q.char)])
                source = q.pool_sources[0] if len(q.pool_sources) == 1 else None
                single = source is not None and q.char is not None and q.pool is q.char.pools.get(source)
                pool = char.pools[source] if single and source else Pool(q.pool.maximum, q.pool.current)
            else:
                pool = Pool(q.pool.maximum, q.pool.current)
            decl = view.declared(q.id)
            copies.append(dataclasses.replace(q, char=char, pool=pool, decider=self._decider(q, lens, rng, decl),
                                              clever_next=q.clever_next or (decl is not None
                                                                            and decl.clever_choice is not None),
                                              _base=None))
        conflict = Conflict(view.ctype, copies, rng, round_limit=view.round_limit, standing=view.standing)
        first = conflict.round = max(0, view.round - 1)  # it plays on from this round
        outcome = conflict.run().for_side(self.me.side)
        return outcome, conflict.round - first

    def _decider(self, q: Participant, lens: str, rng: random.Random, decl: Declaration | None) -> Decider | None:
        if q is self.me:
            return LensKeeper(lens)
        if q.decider is None:
            return None
        mind = mind_of(q)
        inner: Decider
        if mind is not None:
            inner = mind.spawn(random.Random(rng.random()), self.secondary)
        else:
            inner = self.greedy.get(q.id) or self.greedy.setdefault(q.id, GreedyDecider(secondary=self.secondary))
        return _Replay(decl, inner) if decl is not None else inner

