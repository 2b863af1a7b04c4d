"""Exact odds for a participant keeping each Lens against its one foe, from a live conflict (issue 12).

The Lens chain (:mod:`solo.rules.lens_chain`) prices a one-against-one
conflict from any state: the two Pools and what the last round left on each
side. This module reads that state off a conflict as it stands and says who
the foe is to the chain:

* an NPC with a mind (:class:`~.npc.NPCMind`) that uses Lenses decides as its
  mind does, as a stochastic policy of the state (:meth:`NPCMind.lens_policy`);
  it sees the participant's Lens when the initiative lets it declare second,
  and the round at hand is priced with everything the mind remembers
  (:meth:`NPCMind.lens_spread`) or with what it already declared;
* a Common NPC, an obstacle or anyone who makes plain rolls rolls plain;
* a :class:`~.bots.LensKeeper` keeps its Lens (Clever with the +20 edge);
* anyone else (another person, a bot) is not a policy this module knows:
  :meth:`Foresight.exact` says so and the caller estimates instead.

Every target comes from the conflict's own ``lens_target`` (what the dice are
rolled against), less the Lens's shift and the carried effect, which the chain
adds itself. The chains are kept per match-up: a :class:`Foresight` lives as
long as one conflict, and a later question in it is mostly a look-up.

What the chain leaves out is listed in :mod:`solo.rules.lens_chain` and
:meth:`NPCMind.lens_policy`: Luck, pushing, blows to POW or CHA, and the
mind's memory of its own last Lens after the round at hand; and, unless
``Foresight(nerve=True)`` (``solo prove``, ``solo odds --npc``), the foe's
nerve: it never flees or gives up in the chain. With ``nerve=True`` a mind
whose morale can move is a :class:`~.npc.NervousPolicy` (its checks, its
ways out, Quick's getaway), at several times the cost.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ..rules.conflict_view import ConflictView
from ..rules.lens_chain import (
    FOLLOW_UPS,
    MAX_POOL,
    ChainOdds,
    Effect,
    LensChain,
    alike_in_play,
    best_of,
    fixed_policy,
    lens_targets,
)
from ..rules.lenses import LENS_TABLE, LENSES
from ..rules.odds import damage_distribution
from ..rules.outcomes import ACTIVE
from ..rules.participants import Participant
from .bots import LensKeeper
from .npc import NPCMind, reads_alike

#: Priced at once: up to this many Pools a side (their product, as far as the rounds left reach) against plain
#: rolls or a kept Lens, and up to MAX_MIND_POOL against a mind; beyond, the caller estimates (see
#: benchmarks/lens_odds.py for what these cost: the first menu of a conflict against a mind at Pools 20, cold,
#: about 0.1 s; every Lens against plain rolls at Pools 40, about 35 ms).
MAX_EXACT_POOL = 40
MAX_MIND_POOL = 20
#: Keeping Clever: Clever, then the +20 edge, then Clever … (what :class:`~.bots.LensKeeper` plays).
KEEP_CLEVER = fixed_policy("clever", "skill")


def keeping(lens: str):
    """The chain's A side for someone who keeps ``lens`` every round (Clever: with the +20 edge)."""
    return KEEP_CLEVER if lens == "clever" else lens


def foe_of(view: ConflictView, me: Participant) -> Participant | None:
    """The one foe of a one-against-one conflict (nobody else still in on either side), else None."""
    foes = view.opponents(me)
    if len(foes) != 1:
        return None
    if any(p is not me and p.side == me.side and p.status == ACTIVE for p in view.participants):
        return None
    return foes[0]


def side_targets(view: ConflictView, p: Participant, flamboyant: str | None = None) -> dict[str, int]:
    """``p``'s target this round for each Lens it may declare, before the Lens's shift and the carried effect.

    From the conflict's ``lens_target`` (the number the dice meet), so
    Focus, hurt, a standing bonus and shields are in it. ``flamboyant`` is
    the skill shown off (None: the best one the conflict would offer).
    """
    if not p.uses_lenses or p.char is None:
        keys: tuple[str, ...] = ("none",)
    else:
        keys = LENSES
    out = {}
    for key in keys:
        lens = LENS_TABLE[key]
        if lens.rolls == "secondary" and not _has_other_skill(p):
            continue
        target, _ = view.lens_target(p, key, flamboyant if lens.rolls == "secondary" else None, parts=False)
        out[key] = target - lens.skill_shift - p.carry
    return out


def _has_other_skill(p: Participant) -> bool:
    """Whether Flamboyant is on offer to ``p`` here: some skill a flashy move fits (the menu's own list)."""
    from ..rules.participants import may_flourish

    return may_flourish(p)


def initiative(me: Participant, foe: Participant) -> Callable[[int, int], float]:
    """The chance, at Pools (mine, the foe's), that the foe declares after me: the engine's initiative order.

    The larger Pool first; then the higher skill; then a PC before an NPC;
    then a roll-off (a half).
    """
    mine, theirs = me.base_target(), foe.base_target()

    def sees(pool_me: int, pool_foe: int) -> float:
        if pool_me != pool_foe:
            return 1.0 if pool_me > pool_foe else 0.0
        if mine != theirs:
            return 1.0 if mine > theirs else 0.0
        if me.is_pc != foe.is_pc:
            return 1.0 if me.is_pc else 0.0
        return 0.5

    return sees


def mind_of(p: Participant) -> NPCMind | None:
    """The NPC mind deciding for ``p``, if that is what decides (through a wrapper with a ``mind``, too)."""
    decider = p.decider
    if isinstance(decider, NPCMind):
        return decider
    inner = getattr(decider, "mind", None)
    return inner if isinstance(inner, NPCMind) else None


def nervous(p: Participant, view: ConflictView) -> NPCMind | None:
    """The mind of ``p`` when its nerve can move (not a mindless creature): the chain then holds its morale."""
    mind = mind_of(p)
    return mind if mind is not None and not mind.never_breaks(view) else None


def plain(p: Participant) -> bool:
    """Whether ``p`` rolls plain every round: an obstacle, or someone who uses no Lenses."""
    return p.decider is None or not p.uses_lenses


def kept_lens(p: Participant) -> str | None:
    """The Lens ``p`` keeps every round, when a :class:`~.bots.LensKeeper` decides for it."""
    decider = p.decider
    return decider.lens if isinstance(decider, LensKeeper) and p.uses_lenses else None


@dataclass(frozen=True)
class Exact:
    """The exact odds of keeping each Lens from the state at hand (or why there are none)."""

    odds: dict[str, ChainOdds]
    best: str | None
    why_not: str = ""  # when ``odds`` is empty: what the chain cannot hold here
    rounds_left: int | None = None
    surrenders: float = 0.0  # of the foe's ways out (``ChainOdds.b_exits``), the share that are surrenders


class Foresight:
    """Per conflict: the exact odds for a participant keeping each Lens against its one foe.

    ``exact(view, me)`` gives every Lens's :class:`~solo.rules.lens_chain.ChainOdds`
    from the true current state, or says why it cannot (not one against one,
    a pushing side, a foe that is not a known policy, Pools too large).
    Chains are built once per match-up (targets, dice, armour, the foe's
    morale …) and kept; a later state of the same conflict is a look-up.
    Two Lenses that cannot differ here (Covert and Flamboyant at the same
    target, which the foe answers alike) are priced once: ``twins=False``
    prices each on its own, as a check.
    """

    def __init__(self, *, max_pool: int = MAX_EXACT_POOL, max_mind: int = MAX_MIND_POOL, twins: bool = True,
                 shared: SharedChains | None = None, nerve: bool = False):
        self.max_pool, self.max_mind = max_pool, max_mind
        # a mind's morale in the chain (its checks, its ways out: NervousPolicy), for solo prove and solo odds;
        # False (the Lens menu's): held as it stands, never breaking, at a tenth of the cost (docs/design.md)
        self.nerve = nerve
        self.twins = twins  # price a Lens by its twin where the two cannot differ (see _twin); False: each alone
        self.shared = shared  # chains priced ahead, and kept for the next conflict of the same match-up
        self._chains: dict[tuple, dict[str, LensChain]] = {}

    def why_not(self, view: ConflictView, me: Participant) -> str:
        """Empty when the chain can price ``me``'s Lenses now, else the reason in a few words."""
        foe = foe_of(view, me)
        if foe is None:
            return "not one against one"
        if me.pushing or foe.pushing or me.pool.current < 1 or foe.pool.current < 1:
            return "a side is pushing on"
        if not plain(foe) and mind_of(foe) is None and kept_lens(foe) is None:
            return "the foe is no mind the odds know"
        if max(me.pool.current, foe.pool.current) > MAX_POOL or self.size(view, me, foe) > self.max_size(foe, view):
            return "Pools too large to price at once"
        return ""

    def max_size(self, foe: Participant, view: ConflictView | None = None) -> int:
        """The largest :meth:`size` priced at once: a mind's choices (or its nerve) make every state dearer."""
        simple = (plain(foe) and (view is None or not self.nerve or nervous(foe, view) is None)) or kept_lens(foe)
        return self.max_pool * self.max_pool if simple else self.max_mind * self.max_mind

    @staticmethod
    def size(view: ConflictView, me: Participant, foe: Participant) -> int:
        """How many pairs of Pools the chain may have to go through: each Pool as far as the rounds left can take it."""
        limit = view.round_limit
        left = None if limit is None else max(1, limit - max(view.round, 1) + 1)
        physical = view.ctype.physical

        def reach(p: Participant, hitter: Participant) -> int:
            if left is None:
                return p.pool.current
            most = max(v for v, _ in damage_distribution(str(hitter.damage_dice(physical)), "none",
                                                          hitter.damage_bonus(physical)))
            return min(p.pool.current, left * max(1, most))

        return reach(me, foe) * reach(foe, me)

    def exact(self, view: ConflictView, me: Participant, lenses: Iterable[str] | None = None, *,
              follow_up: bool = False, asked: bool = True, stop: Callable[[], bool] | None = None,
              first: str | None = None) -> Exact:
        """The odds of keeping each Lens (those in ``lenses``) from now; ``follow_up``: my Clever edge is due.

        Keeping Clever is Clever, then the +20 edge, then Clever again (and
        ``first`` is "clever", or "skill" when the edge is due).

        ``asked``: I am declaring now, so a foe that has not declared yet
        declares after me and knows my Lens; otherwise (before the first
        round) the initiative decides who declares first. ``stop``: asked
        before each pass of the walk that prices every Lens at once; when it
        says so, nothing is returned (a thinker that is no longer needed).
        ``first``: what I declare this round (an edge, with ``follow_up``)
        before keeping each Lens.
        """
        why = self.why_not(view, me)
        limit = view.round_limit
        left = None if limit is None else max(1, limit - max(view.round, 1) + 1)
        if why:
            return Exact({}, None, why, left)
        foe = foe_of(view, me)
        assert foe is not None
        chains = self._match(view, me, foe)
        decl = view.declared(foe.id)
        mind = mind_of(foe)
        keeps = None if plain(foe) else kept_lens(foe)
        nerved = nervous(foe, view) if keeps is None and self.nerve else None
        minded = mind is not None and (not plain(foe) or nerved is not None)  # the chain plays its mind
        mine = Effect(me.carry, follow_up)
        last = mind.remembered_lens(view) if mind is not None and not plain(foe) else None
        nerve = nerved.nerve_of(view, foe) if nerved is not None else None
        if decl is not None:  # it declared first: its Lens (its edge) this round is known, its nerve looked at
            theirs = Effect(foe.carry, decl.clever_choice is not None, last, nerve)
        else:
            theirs = Effect(foe.carry, foe.clever_next, last, nerve)
        wanted = [k for k in (lenses if lenses is not None else LENSES) if k in chains]
        answers: dict[str, object] = {}  # what the foe declares this round, against each Lens priced
        twins: dict[str, str] = {}
        to_price: dict[str, dict[str, tuple]] = {}  # by chain (a mind's chains are one): the Lenses it prices
        for lens in wanted:
            declared: object = None
            if decl is not None and minded and keeps is None:
                declared = decl.clever_choice or decl.lens
            elif mind is not None and keeps is None and minded and not follow_up:
                # this round as the mind would play it now, memory and all (its morale check first, when
                # its nerve can move); it declares after me (I am being asked), seeing my Lens. With my
                # edge due, the chain's policy answers each edge I may take.
                spread = nerved.declaration_spread if nerved is not None else mind.lens_spread
                chance = 1.0 if asked else initiative(me, foe)(me.pool.current, foe.pool.current)
                seen = spread(view, foe, lens)
                if chance >= 1.0:
                    declared = seen
                else:
                    blind = spread(view, foe, None)
                    declared = {k: chance * seen.get(k, 0.0) + (1.0 - chance) * blind.get(k, 0.0)
                                for k in sorted(set(seen) | set(blind))}
            twin = self._twin(lens, chains, answers, declared, minded)
            answers[lens] = declared
            if twin is not None:  # the same odds, and the same first choice under this Lens's name
                twins[lens] = twin
                continue
            to_price.setdefault(str(id(chains[lens])), {})[lens] = (keeping(lens), declared)
        priced: dict[str, ChainOdds] = {}
        for group in to_price.values():
            chain = chains[next(iter(group))]
            got = chain.kept_odds(me.pool.current, foe.pool.current, group, effect_a=mine, effect_b=theirs,
                                  round_limit=left, first_a=first, stop=stop)
            if not got:  # a thinker no longer needed: nothing priced
                return Exact({}, None, "stopped", left)
            priced.update(got)
        out: dict[str, ChainOdds] = {}
        for lens in wanted:
            if lens in twins:
                odds = priced[twins[lens]]
                out[lens] = replace(odds, first=lens if odds.first == twins[lens] else odds.first)
            else:
                out[lens] = priced[lens]
        best = best_of(out) if out else None
        surrenders = (nerved.surrenders(view, foe) or 0.0) if nerved is not None else 0.0
        return Exact(out, best, "", left, surrenders)

    def edges(self, view: ConflictView, me: Participant) -> Exact:
        """With my Clever edge due: the odds of taking each edge this round, then keeping Clever (Clever, its
        +20 edge, Clever …), by edge ("skill", "damage"); the better one is ``best``."""
        out: dict[str, ChainOdds] = {}
        left = None
        for edge in FOLLOW_UPS:
            exact = self.exact(view, me, ["clever"], follow_up=True, first=edge)
            left = exact.rounds_left
            if "clever" not in exact.odds:
                return Exact({}, None, exact.why_not or "no Clever to keep", left)
            out[edge] = replace(exact.odds["clever"], first=edge)
        best = best_of(out) if out else None
        return Exact(out, best, "", left, exact.surrenders)

    def _twin(self, lens: str, chains: dict[str, LensChain], answers: dict[str, object], declared: object,
              minded: bool) -> str | None:
        """A Lens already priced whose odds are ``lens``'s: kept at the same target, alike in play, and (against a
        mind) alike to the foe, who answers both alike this round. None: price it on its own."""
        if not self.twins:
            return None
        target = chains[lens].targets_a[lens]
        for done, answer in answers.items():
            if (chains[done].targets_a[done] == target and alike_in_play(done, lens)
                    and (not minded or reads_alike(done, lens)) and answer == declared):
                return done
        return None

    def key_for(self, view: ConflictView, me: Participant) -> tuple | None:
        """The match-up's key (everything its chains rest on, by value), or None where there are no exact odds."""
        if self.why_not(view, me):
            return None
        foe = foe_of(view, me)
        assert foe is not None
        return self._setup(view, me, foe)[0]

    def _setup(self, view: ConflictView, me: Participant, foe: Participant) -> tuple[tuple, Callable[[], dict]]:
        """The match-up's key, and how to build its chains: one per Lens I may keep (a mind answers my last Lens)."""
        physical = view.ctype.physical
        mind = mind_of(foe)
        foe_flamboyant = None
        if mind is not None and foe.char is not None and foe.uses_lenses:
            from .position import best_secondary

            foe_flamboyant = best_secondary(foe)
        mine = side_targets(view, me)
        theirs = side_targets(view, foe, foe_flamboyant)
        setting = dict(damage_a=str(me.damage_dice(physical)), damage_b=str(foe.damage_dice(physical)),
                       bonus_a=me.damage_bonus(physical), bonus_b=foe.damage_bonus(physical),
                       armour_a=me.armour_against(foe, view.ctype), armour_b=foe.armour_against(me, view.ctype))
        keeps = None if plain(foe) else kept_lens(foe)
        nerved = nervous(foe, view) if keeps is None and self.nerve else None
        uses_mind = mind is not None and (not plain(foe) or nerved is not None)
        policy = mind.policy_key(view, foe, nervous=nerved is not None) if mind is not None and uses_mind else None
        key = (me.id, foe.id, me.is_pc, foe.is_pc, tuple(mine.items()), tuple(theirs.items()),
               tuple(setting.items()), me.base_target(), foe.base_target(), me.pool.maximum, foe.pool.maximum,
               uses_mind, policy, keeps)

        def build() -> dict[str, LensChain]:
            if uses_mind:  # one chain for every Lens I keep: the mind reads the one I keep in my effect
                assert mind is not None
                policy_b = mind.nervous_policy(view, foe) if nerved is not None else mind.lens_policy(view, foe)
                one = LensChain(mine, theirs, policy_b=policy_b, sees=initiative(me, foe),
                                remembers=True, **setting)  # type: ignore[arg-type]
            else:  # plain rolls, or a Lens kept every round (Clever with its +20 edge)
                one = LensChain(mine, theirs, policy_b=keeps or "none", **setting)  # type: ignore[arg-type]
            return dict.fromkeys(mine, one)

        return key, build

    def _match(self, view: ConflictView, me: Participant, foe: Participant) -> dict[str, LensChain]:
        """The match-up's chains: kept by this Foresight, priced ahead in the shared store, or built now."""
        key, build = self._setup(view, me, foe)
        chains = self._chains.get(key)
        if chains is None and self.shared is not None:
            chains = self.shared.take(key)
        if chains is None:
            chains = build()
            if self.shared is not None:
                self.shared.keep(key, chains)
        if key not in self._chains and len(self._chains) > 8:  # a conflict has a few match-ups at most
            self._chains.clear()
        self._chains[key] = chains
        return chains

    def chains_for(self, key: tuple) -> dict[str, LensChain] | None:
        """The chains this Foresight holds for a match-up's key (see :meth:`key_for`)."""
        return self._chains.get(key)


class SharedChains:
    """Solved chains kept across conflicts and threads, by match-up (:meth:`Foresight.key_for`), the latest few.

    What a :class:`~solo.story.play.think_ahead.ThinkAhead` priced while the
    player read a scene waits here for the conflict that uses it; a conflict
    fought again finds its chains too. A chain is worked on by one thread at
    a time: a thinker claims a key (:meth:`claim`) before it builds that key's
    chains and hands them over when done (:meth:`release`); a Foresight that
    asks for a key being built waits for it (:meth:`take`). Keys held are
    never claimed, so nothing a conflict took is touched by a thinker again.
    The kept chains hold arrays of every state for every round to go (about
    15 MB for a match-up against a mind at Pools 20, 30 rounds), so only
    ``size`` match-ups are kept, about as many conflicts as a menu offers.
    """

    def __init__(self, size: int = 3, wait: float = 120.0):
        self.size, self.wait = size, wait
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple, dict[str, LensChain]] = OrderedDict()
        self._pending: dict[tuple, threading.Event] = {}

    def take(self, key: tuple) -> dict[str, LensChain] | None:
        """The chains kept for ``key`` (waiting while a thinker builds them), else None."""
        with self._lock:
            pending = self._pending.get(key)
        if pending is not None:
            pending.wait(self.wait)
        with self._lock:
            chains = self._kept.get(key)
            if chains is not None:
                self._kept.move_to_end(key)
            return chains

    def keep(self, key: tuple, chains: dict[str, LensChain]) -> None:
        with self._lock:
            self._keep(key, chains)

    def _keep(self, key: tuple, chains: dict[str, LensChain]) -> None:
        self._kept[key] = chains
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def claim(self, key: tuple) -> bool:
        """Whether the caller may build ``key``'s chains: nobody holds them or is building them. Then release it."""
        with self._lock:
            if key in self._kept or key in self._pending:
                return False
            self._pending[key] = threading.Event()
            return True

    def release(self, key: tuple, chains: dict[str, LensChain] | None) -> None:
        """Hand over the chains built for a claimed key (None: nothing to keep); whoever waits for it goes on."""
        with self._lock:  # in one hold: nobody sees the key neither pending nor kept
            event = self._pending.pop(key)
            if chains is not None:
                self._keep(key, chains)
        event.set()

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._kept


__all__ = ["Exact", "Foresight", "SharedChains", "foe_of", "initiative", "lens_targets", "mind_of", "plain",
           "side_targets"]
