"""How a choice's action can turn out, with the chance of each outcome, and how to make it so.

Each outcome is a :class:`Plan`: its chance, its name, and what the probe
game does in place of the dice to end up there (who rolled, which branch,
what a conflict left behind). Targets come from the engine's own functions
(:func:`~solo.story.play.rolling.roll_target`, :func:`~solo.story.play.rolling.roller`,
:func:`~solo.rules.rolls.judge`, :func:`~solo.rules.rolls.resolve_opposed`,
the oracle's grades, the exact conflict odds of
:class:`~solo.minds.foresight.Foresight`), so the chance shown is the chance
the game rolls against. A conflict against one NPC is priced by the Lens chain
with the NPC's nerve in it (its morale checks, and its flight or surrender when
it breaks); a conflict the chain cannot hold (a group, an NPC that may push on
below zero, strike a Pool the chain does not track or switch weapons) is played
with the engine instead, its chances estimates and flagged so, with the reason.
A roll (skill or opposed) that a Luck flip could turn is the player's to decide:
its outcome carries the outcome the flip would give (:attr:`Plan.flip`), and the
search asks flip or keep. What it all leaves out (the Pools a conflict costs,
borrowed Luck) is said in docs/proving.md.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from ...rules.escalation import may_escalate
from ...rules.lenses import SIDE_POOLS
from ...rules.luck import debt_due, spend
from ...rules.outcomes import (
    ACTIVE,
    COMAE,
    FLED,
    LOST,
    OPPONENT_FLED,
    OPPONENT_SURRENDERED,
    OUT,
    STALEMATE,
    SURRENDERED,
    WON,
)
from ...rules.rolls import flip_that_helps, judge, opposed_flip_beats, resolve_opposed
from .rolling import OPPOSED_OUTCOMES, check_outcome

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...decisions import Decider
    from ...minds.foresight import Exact
    from ...rules.character import Character
    from ..format.adventure import Action, Branch
    from .engine import Game

#: Conflicts the exact odds cannot price (more than two sides, a spent Pool) are played this many times.
SAMPLED_CONFLICTS = 400
#: A conflict fought as a bot fights it is played this many times (a bot that weighs the exact odds every round
#: costs some milliseconds a round: 400 of each would make a search of the example adventure ten times longer).
SAMPLED_STYLES = 200
#: The seed of those sampled conflicts: the same adventure gives the same report.
SAMPLE_SEED = 14


@dataclass
class Plan:
    """One outcome of a choice's action: its chance and how the probe game arrives there."""

    chance: float
    outcome: str  # the action's outcome ("success", "win", "won", "yes_but" …)
    roller: str | None = None  # the PC who rolls (they become the active PC, as in the engine)
    escalation: bool = False  # a lost opposed roll that the player may escalate
    escalated: bool = False  # the outcome of the conflict it escalated to
    sampled: bool = False  # the chance was estimated by playing, not computed
    real: bool = False  # resolved by the engine's own dice (an action with no chance model)
    lens: str | None = None  # the Lens the best play keeps in the conflict
    requests: str | None = None  # the Tag a request spends
    #: A conflict's aftermath: each NPC that fought and its end status (in, out, fled, surrendered, comae);
    #: None when nobody fought (no action, or a side with nobody in it).
    statuses: tuple[tuple[str, str], ...] | None = None
    comae: tuple[str, ...] = ()  # the PCs who ended the conflict in comae (they leave the story)
    exit: str | None = None  # the party flees or gives up at once: a choice of the player, not a chance
    #: A roll's outcome that a Luck flip would turn into this one (a skill roll's, an opposed roll's): the roller
    #: decides, flip or keep.
    flip: str | None = None
    luck: bool = False  # the roller spent a Luck Point on a flip to get here
    #: Each PC's Luck after a conflict fought as a bot fights (it spends Luck on blows and flips), carried on.
    luck_left: tuple[tuple[str, int], ...] = ()

    def apply(self, game: Game, action: Action) -> Branch | None:
        s = game.state
        if self.roller is not None:
            for i, pc in enumerate(s.party):
                if pc.name == self.roller:
                    s.active = i
                    if self.requests:
                        pc.requests[self.requests] = pc.requests.get(self.requests, 0) + 1
                    if self.luck:
                        spend(pc, "flip")
        if self.real:
            from .engine import Game as RealGame

            return RealGame.resolve(game, action)
        if self.escalated:
            assert action.escalation is not None
            action = action.escalation
        if self.statuses is not None:
            self._aftermath(game, action.spec)
        if self.luck_left:
            left = dict(self.luck_left)
            for pc in s.party:
                pc.luck = left.get(pc.name, pc.luck)
        return action.branch(self.outcome)

    def _aftermath(self, game: Game, spec: dict) -> None:
        """What the conflict leaves behind, through the engine's own :meth:`Game.conflict_aftermath`."""
        assert self.statuses is not None
        from .actions import conflict_type_of

        ctype = conflict_type_of(game, spec)
        parts, npcs, _ = game.conflict_sides(ctype, [nid for nid, _ in self.statuses], None, pc_decider=None,
                                             mind=lambda nid, npc: None)
        for nid, status in self.statuses:
            if nid in npcs:
                npcs[nid].status = status
        for p in parts:
            if p.is_pc and p.char is not None and p.char.name in self.comae:
                p.status = COMAE
        game.conflict_aftermath(npcs, set(npcs), parts, ctype)


@dataclass
class Outcomes:
    """The plans of one choice's action, and what the chance rests on."""

    plans: list[Plan]
    note: str = ""  # e.g. "estimated from 400 conflicts"
    lens: str | None = None
    extra: dict[str, float] = field(default_factory=dict)
    exits: list[Plan] = field(default_factory=list)  # fleeing or giving up at once, each a move of its own
    #: The same conflict fought round by round the way each fighter given to the search fights (its Lens each
    #: round, Luck on its blows, when it gives up): each a move of its own, so best play is at least as good.
    styles: list[Outcomes] = field(default_factory=list)
    fighter: str | None = None  # the fighter these outcomes are fought by (None: keeping one Lens)
    why: str = ""  # why a conflict's chances are estimated, not worked out (a group fight …)
    #: A conflict with nobody on one side: its outcome then (won: nobody to fight the party), else None
    no_contest: str | None = None

    def every_plan(self) -> list[Plan]:
        """Every outcome it may have, one list: its plans, the party's exits, each fighter's ways (:attr:`styles`)."""
        return [*self.plans, *self.exits, *(plan for style in self.styles for plan in style.plans)]


#: Fighters the search may fight a conflict as: a name -> a decider made from a generator (``solo simulate``'s
#: bots, given by the caller: the story layer does not know them).
Fighters = dict[str, "Callable[[random.Random], Decider]"]


def outcomes(game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
    """The outcomes of ``action`` taken now, each with its chance (they sum to 1); for a conflict, also as each
    of ``fighters`` fights it (:attr:`Outcomes.styles`). Each verb owns its chances (``ActionVerb.chances``,
    beside its ``resolve``): a verb without them fails the registry test instead of falling back to dice."""
    from .actions import ACTIONS

    return ACTIONS[action.kind].chances(game, action, fighters)


def real_dice(kind: str) -> Outcomes:
    """The outcome of a verb with no chance model (a table roll): played with the engine's own dice."""
    return Outcomes([Plan(1.0, "drawn", real=True)], note=f"{kind}: played with the engine's own dice")


def escalation_outcomes(game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
    """The conflict a lost opposed roll escalates to: its outcomes, on the escalation's branches."""
    assert action.escalation is not None
    found = conflict_chances(game, action.escalation.spec, fighters)
    roller = _roller(game, action.spec)
    for plan in [*found.plans, *(p for style in found.styles for p in style.plans)]:
        plan.escalated = True
        plan.roller = roller
    return found


# -- rolls -----------------------------------------------------------------------------------------
def _roller(game: Game, spec: dict, npc=None) -> str | None:
    """The PC who rolls: the engine's own pick, or (asked) the best at it, as best play would choose."""
    from .rolling import roll_target, roller

    pc = roller(game, spec, npc=npc)
    if pc is None:
        pcs = game.state.pcs
        if not pcs:
            return None
        pc = max(pcs, key=lambda p: roll_target(p, spec, npc=npc)[0])
    return pc.name


def _pc(game: Game, name: str | None) -> Character | None:
    return next((p for p in game.state.party if p.name == name), None)


@lru_cache(maxsize=4096)
def roll_faces(target: int) -> tuple[tuple[str, int], ...]:
    """How many of the d100's faces give each outcome of a skill roll against ``target`` (:func:`flip_faces`,
    the flips set aside)."""
    counts: Counter[str] = Counter()
    for outcome, _, n in flip_faces(target):
        counts[outcome] += n
    return tuple(sorted(counts.items()))


@lru_cache(maxsize=4096)
def flip_faces(target: int) -> tuple[tuple[str, str | None, int], ...]:
    """How many of the d100's faces give each outcome against ``target``, and the outcome a Luck flip would turn
    it into where the engine offers one (:func:`~solo.rules.rolls.flip_that_helps`: a failure whose swapped
    digits succeed), else None."""
    counts: Counter[tuple[str, str | None]] = Counter()
    for face in range(1, 101):
        result = judge(face, target)
        flipped = flip_that_helps(result)
        counts[(check_outcome(result), check_outcome(flipped) if flipped is not None else None)] += 1
    return tuple((o, f, n) for (o, f), n in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")))


def may_flip(game: Game, pc: Character) -> bool:
    """Whether the engine would offer ``pc`` a flip the search weighs: a Luck Point of its own to spend (prove
    never borrows Luck) and no borrowed Luck due, as :func:`~solo.story.play.rolling.offer_flip` asks."""
    return pc.luck > 0 and not debt_due(pc)


def roll_chances(game: Game, action: Action) -> Outcomes:
    from .rolling import roll_target

    spec = action.spec
    name = _roller(game, spec)
    pc = _pc(game, name)
    if pc is None:
        return Outcomes([Plan(1.0, "failure")], note="nobody left to roll")
    target, _, routine = roll_target(pc, spec)
    if routine:
        return Outcomes([Plan(1.0, "success", roller=name)], note="routine: no dice")
    flips = may_flip(game, pc)
    faces = flip_faces(target) if flips else [(outcome, None, n) for outcome, n in roll_faces(target)]
    return Outcomes([Plan(n / 100, outcome, roller=name, flip=flip) for outcome, flip, n in faces],
                    note=f"{pc.name} rolls against {target} %" + (f", {pc.luck} Luck to flip with" if flips else ""))


@lru_cache(maxsize=4096)
def opposed_faces(mine: int, theirs: int) -> tuple[tuple[str, bool, int], ...]:
    """Every pair of faces of an opposed roll, counted by outcome and by whether the PC may escalate
    (:func:`opposed_flip_faces`, the flips set aside)."""
    counts: Counter[tuple[str, bool]] = Counter()
    for outcome, escalates, _, n in opposed_flip_faces(mine, theirs):
        counts[(outcome, escalates)] += n
    return tuple((o, e, n) for (o, e), n in sorted(counts.items()))


@lru_cache(maxsize=4096)
def opposed_flip_faces(mine: int, theirs: int) -> tuple[tuple[str, bool, str | None, int], ...]:
    """:func:`opposed_faces` with, for each pair, the outcome a Luck flip would turn it into where the engine
    offers one (a lost or failed roll whose swapped digits win, as :meth:`Opposed.resolve` asks), else None."""
    ours = [judge(f, mine) for f in range(1, 101)]
    their = [judge(f, theirs) for f in range(1, 101)]
    counts: Counter[tuple[str, bool, str | None]] = Counter()
    for a in ours:
        for b in their:
            result = resolve_opposed(a, b, defender="b")
            outcome = OPPOSED_OUTCOMES[result.winner]
            turned = None
            beats = opposed_flip_beats(result)
            flipped = flip_that_helps(a, best_other=beats, tie_loses=True) if beats is not None else None
            if flipped is not None:
                turned = OPPOSED_OUTCOMES[resolve_opposed(flipped, b, defender="b").winner]
            counts[(outcome, outcome == "lose" and may_escalate(result, "a"), turned)] += 1
    return tuple((o, e, t, n) for (o, e, t), n in sorted(counts.items(), key=lambda kv: (kv[0][:2], kv[0][2] or "")))


def _opposed_numbers(spec: dict, pc: Character, npc) -> tuple[int, bool, str, int]:
    """An opposed roll's numbers as :meth:`Opposed.resolve` makes them: the PC's target and whether it is routine,
    the other side's skill and target (from the verb itself)."""
    from .actions import ACTIONS, Opposed
    from .rolling import roll_target

    target, _, routine = roll_target(pc, spec, npc=npc)
    verb = ACTIONS["opposed"]
    assert isinstance(verb, Opposed)
    skill, theirs, _ = verb.theirs(spec, npc)
    return target, routine, skill, theirs


def opposed_chances(game: Game, action: Action) -> Outcomes:
    spec = action.spec
    npc = game.state.npcs.get(spec["npc"]) if "npc" in spec else None
    name = _roller(game, spec, npc)
    pc = _pc(game, name)
    if pc is None:
        return Outcomes([Plan(1.0, "lose")], note="nobody left to roll")
    target, routine, _, theirs = _opposed_numbers(spec, pc, npc)
    if routine:  # an automatic success scores above any roll of theirs (as resolve_opposed has it): a sure win
        return Outcomes([Plan(1.0, "win", roller=name)], note=f"{pc.name} succeeds without a roll")
    flips = may_flip(game, pc)
    faces = (opposed_flip_faces(target, theirs) if flips
             else [(o, e, None, n) for o, e, n in opposed_faces(target, theirs)])
    plans = [Plan(n / 10_000, outcome, roller=name, escalation=escalate and action.escalation is not None,
                  flip=turned) for outcome, escalate, turned, n in faces]
    return Outcomes(plans, note=f"{pc.name} at {target} % against {theirs} %"
                                + (f", {pc.luck} Luck to flip with" if flips else ""))


def opposed_win_words(game: Game, action: Action) -> str | None:
    """What an opposed roll's menu line says beside the roller's chance: the chance to win it, worked out from the
    same targets the roll will use ("to win: 46 % (against Willpower 50)"), Luck set aside as the chance beside
    it sets it aside. "50 % = Social 30 · //Influence +20" alone read as a 50 % chance to win (a new GM's run).
    None where nobody is left to roll, where who rolls is asked next ("Who tries it?" shows each one's chance, and
    the best one's "to win" stood over a menu where another might roll: the review), or where the roll is routine
    (a sure win, said where it is rolled)."""
    from .rolling import roller

    spec = action.spec
    npc = game.state.npcs.get(spec["npc"]) if "npc" in spec else None
    pc = roller(game, spec, npc=npc)
    return None if pc is None else win_words(spec, pc, npc)


def win_words(spec: dict, pc: Character, npc) -> str | None:
    """``pc``'s chance to win an opposed roll, as the menu and "Who tries it?" both say it (None: routine)."""
    target, routine, skill, theirs = _opposed_numbers(spec, pc, npc)
    if routine:
        return None
    from .advice import percent  # the menu's own way with a chance: never "100 %" for what is not certain

    wins = sum(n for outcome, _, n in opposed_faces(target, theirs) if outcome == "win") / 10_000
    return f"to win: {percent(wins)} (against {skill} {theirs})"


# -- the oracle and requests ----------------------------------------------------------------------
def oracle_chances(game: Game, action: Action) -> Outcomes:
    from ...oracle import oracle_odds
    from ...oracle.answer import grade_key
    from .actions import ACTIONS

    odds = oracle_odds(ACTIONS["oracle"].arg(action.spec, "odds"), game.state.oracle.tension)
    return Outcomes([Plan(n / 100, grade_key(grade)) for grade, n in odds.faces.items() if n],
                    note=f"the oracle at {odds.chance} %")


def request_chances(game: Game, action: Action) -> Outcomes:
    from .actions import Request

    tag = action.spec["tag"]
    asked = Request.asker(game, tag)  # who asks and at what chance, as resolve has it
    if asked is None:
        return Outcomes([Plan(1.0, "refused")], note=f"nobody has #{tag}")
    pc, chance = asked
    plans = [Plan(chance / 100, "granted", roller=pc.name, requests=tag),
             Plan(1 - chance / 100, "refused", roller=pc.name, requests=tag)]
    return Outcomes([p for p in plans if p.chance > 0], note=f"#{tag} at {chance} %")


def request_words(game: Game, action: Action) -> str:
    """A request's chance as its menu line shows it, from the asker the request itself takes: "Sig Aas asks
    (#Contact): 50 %", or that nobody can ("nobody has #Contact: refused"), where the menu had said nothing and
    the choice then ended Vellan (a new player's run)."""
    from .actions import Request

    tag = action.spec["tag"]
    asked = Request.asker(game, tag)
    if asked is None:
        # and where that leads, when it is the end (a new player's Vellan still took "refused" as a chance to try,
        # and the story ended there with no roll made)
        refused = action.branch("refused")
        scene = game.adventure.scenes.get(refused.goto) if refused is not None and refused.goto else None
        ends = scene is not None and scene.ending and refused is not None and not refused.routes
        return f"nobody has #{tag}: sure to be refused" + (", which ends the story" if ends else "")
    pc, chance = asked
    return f"{pc.name} asks (#{tag}): {chance} %"


# -- conflicts ------------------------------------------------------------------------------------
def conflict_chances(game: Game, spec: dict, fighters: Fighters | None = None) -> Outcomes:
    """Every way the conflict can end, with what it leaves behind, and the party's own ways out.

    Against an obstacle: the exact odds, won, lost or a stalemate. Against NPCs, whose minds may flee, give up
    or push on into comae (which the exact odds leave out), the conflict is played with the engine and each
    ending counted: an estimate, and the report says so.
    """
    from .actions import ACTIONS, conflict_type_of

    verb = ACTIONS["conflict"]
    ctype = conflict_type_of(game, spec)
    rounds = verb.arg(spec, "rounds")
    npc_ids = [n for n in verb.arg(spec, "npcs") if game.state.npc_status.get(n) != COMAE
               and not set(spent_for_good(game, n)) & set(ctype.pools)]
    pcs = game.state.pcs
    if not pcs:
        return Outcomes([Plan(1.0, LOST)], note="nobody left to fight")
    signature = _signature(game, spec, npc_ids, ctype)
    found = _PRICED.get(signature)
    if found is None:
        if len(_PRICED) >= MAX_PRICED:
            _PRICED.clear()
        found = _PRICED[signature] = _price(game, ctype, spec, npc_ids, rounds)
    found = copy.deepcopy(found)
    if fighters and (found.exits or found.lens is not None):  # a real contest (not one side with nobody in it)
        luck = ",".join(f"{pc.name}={pc.luck}" for pc in pcs)  # the bots spend it: their fights are priced by it
        styled = f"{signature}|{luck}|{','.join(sorted(fighters))}"
        styles = _STYLED.get(styled)
        if styles is None:
            if len(_STYLED) >= MAX_PRICED:
                _STYLED.clear()
            styles = _STYLED[styled] = [_styled(game, ctype, spec, npc_ids, rounds, name, fighter)
                                        for name, fighter in sorted(fighters.items())]
        found.styles = copy.deepcopy(styles)
    return found


def spent_for_good(game: Game, nid: str) -> tuple[str, ...]:
    """The Pools the NPC has spent for good (none: ()): out of its last conflict, those that conflict was fought
    with, where nothing gives them back (``recovers = "never"``, no ``recover`` effect names it) and it cannot push
    on into the next fight (not a Master). It takes part in no conflict fought with one of them again: the search
    keeps no NPC's Pools, and priced such an NPC fresh (Kaldskard's hut fought two barrow-wights the party had laid,
    where play has nobody come through the door). One beaten in an argument still fights with its fists."""
    from .npcs import recovers

    s = game.state
    if s.npc_status.get(nid) != OUT or recovers(game, nid) != "never" or nid in game.adventure.recovered:
        return ()
    npc = s.npcs.get(nid)
    ctype = game.conflict_types.get(s.npc_conflict.get(nid, ""))
    return ctype.pools if npc is not None and not npc.can_push and ctype is not None else ()


def _styled(game: Game, ctype, spec: dict, npc_ids: list[str], rounds: int, name: str,
            fighter: Callable[[random.Random], Decider]) -> Outcomes:
    """The conflict fought SAMPLED_STYLES times as ``fighter`` fights it: how each ended."""
    counts = _sampled(game, ctype, spec, npc_ids, rounds, "none", fighter=fighter, times=SAMPLED_STYLES)
    total = sum(counts.values())
    return Outcomes([Plan(n / total, outcome, sampled=True, statuses=statuses, comae=comae, luck_left=luck)
                     for (outcome, statuses, comae, luck), n in sorted(counts.items())],
                    note=f"estimated from {total} conflicts fought as the {name} bot fights", fighter=name)


#: Conflicts already priced, by everything their odds rest on (see :func:`_signature`), and their ways of being
#: fought as the bots fight (by that and the PCs' Luck, which the bots spend).
_PRICED: dict[str, Outcomes] = {}
_STYLED: dict[str, list[Outcomes]] = {}
MAX_PRICED = 2_000


def _signature(game: Game, spec: dict, npc_ids: list[str], ctype) -> str:
    """The conflict as written, and the fighters as they stand: characters, NPCs, their memories.

    A PC's Pool that the conflict neither fights with nor lets a blow reach (BODY in a quarrel or at a lock) is
    read in it only for whether it is below zero, when every skill takes the hurt penalty: it counts by that
    alone, so that the same quarrel after a scratch is the one priced before it (a search meets it both ways,
    and Vellan's is priced some ten times over). Where a vehicle fights, every Pool counts as it stands. A PC's
    Luck counts only where it is below zero (a debt the fight repays): the Lens kept by best play spends none
    (:class:`~solo.minds.bots.LensKeeper`); a bot's fights, which spend it, add it to this key.
    """
    import json

    s = game.state
    pcs = [pc.to_dict() for pc in s.pcs]
    for form in pcs:
        if form.get("luck", 0) >= 0:  # (borrowed Luck falls due in the fight: a debt counts)
            form.pop("luck", None)
    if spec.get("vehicle") is None:
        fought = frozenset(ctype.pools) | frozenset(SIDE_POOLS)
        for form in pcs:
            form["pools"] = {name: pool if name in fought else {"below zero": pool["current"] < 0}
                             for name, pool in form["pools"].items()}
    sides = {"spec": spec, "pcs": pcs,
             "npcs": [(nid, s.npcs[nid].to_dict(), s.memory.get(nid, [])) for nid in npc_ids]}
    return json.dumps(sides, sort_keys=True, default=str)


def _price(game: Game, ctype, spec: dict, npc_ids: list[str], rounds: int) -> Outcomes:
    from .actions import obstacle_of

    parts, _, _ = _participants(game, ctype, spec, npc_ids, "none", random.Random(SAMPLE_SEED))
    if {p.side for p in parts} != {"a", "b"}:  # a side with nobody in it: no fight, as in the engine
        ended = WON if any(p.side == "a" for p in parts) else LOST
        return Outcomes([Plan(1.0, ended)], note="no contest: one side has nobody to fight", no_contest=ended)
    exits = _exits(ctype, npc_ids, heard=_party_may_give_up(ctype, spec, parts))
    exact, why = _exact(game, ctype, spec, npc_ids, rounds)
    if exact is not None and not why and (npc_ids or obstacle_of(spec) is not None):
        # an obstacle neither flees nor gives up; one NPC's nerve is in the chain; nobody pushes on here
        assert exact.best is not None
        lens = exact.best
        odds = exact.odds[lens]
        gone = odds.b_exits
        chances = {WON: odds.a_wins, LOST: odds.b_wins, STALEMATE: odds.never_ends,
                   OPPONENT_FLED: gone * (1.0 - exact.surrenders), OPPONENT_SURRENDERED: gone * exact.surrenders}
        npc_status = {WON: OUT, LOST: ACTIVE, STALEMATE: ACTIVE, OPPONENT_FLED: FLED,
                      OPPONENT_SURRENDERED: SURRENDERED}
        total = sum(p for p in chances.values() if p > TINY)
        plans = [Plan(p / total, o, lens=lens, statuses=tuple((nid, npc_status[o]) for nid in npc_ids))
                 for o, p in chances.items() if p > TINY]
        against = "the NPC's nerve in the chain" if npc_ids else "an obstacle"
        return Outcomes(plans, lens=lens, note=f"exact odds ({against}), keeping {lens}", exits=exits)
    lens = exact.best if exact is not None and exact.best is not None else "none"
    counts = _sampled(game, ctype, spec, npc_ids, rounds, lens)
    total = sum(counts.values())
    plans = [Plan(n / total, outcome, sampled=True, lens=lens, statuses=statuses, comae=comae)
             for (outcome, statuses, comae, _), n in sorted(counts.items())]
    return Outcomes(plans, lens=lens, exits=exits, why=why,
                    note=f"estimated from {total} conflicts played with the engine, keeping {lens} ({why})")


#: A conflict's ending less likely than this (float dust in the chain's sums) is not a branch of the search.
TINY = 1e-9


def _party_may_give_up(ctype, spec: dict, parts: list) -> bool:
    """Whether the Lens menu will offer the party a surrender as the conflict starts: the rule the conflict asks
    (:func:`~solo.rules.participants.may_give_up`), of the foes who will take part (a spent one that cannot push on
    sits out, as ``line_up`` has it: a clerk talked down before does not take the party's surrender to the winch)."""
    from ...rules.participants import may_give_up
    from .actions import party_hunts

    return may_give_up([p for p in parts if p.side == "b" and (p.pool.current > 0 or p.can_push)],
                       party_hunts(ctype, spec))


def _exits(ctype, npc_ids: list[str], *, heard: bool) -> list[Plan]:
    """Giving up (where some foe can take a surrender: ``heard``, as the Lens menu offers it) and, where the
    conflict allows flight, fleeing, in the first round: no roll, the NPCs stay in."""
    from ...rules.outcomes import FLED, FLEE, SURRENDER, SURRENDERED

    statuses = tuple((nid, ACTIVE) for nid in npc_ids)
    ways = ([(SURRENDER, SURRENDERED)] if heard else []) + ([(FLEE, FLED)] if ctype.flight else [])
    return [Plan(1.0, outcome, exit=key, statuses=statuses) for key, outcome in ways]


def _participants(game: Game, ctype, spec: dict, npc_ids: list[str], lens: str, rng: random.Random,
                  fighter: Callable[[random.Random], Decider] | None = None):
    """The sides as the game lines them up (:meth:`Game.conflict_sides`, on copies), PCs keeping ``lens``, NPCs
    with their minds, and the PCs' disposition bonus in a social conflict. Spent Pools are not modelled.
    Returns the participants, the NPCs' by id, and the conflict's ``standing`` (:meth:`Game.disposition_bonus`)."""
    from ...minds.bots import LensKeeper
    from .actions import obstacle_of
    from .npcs import default_mind

    memory = game.state.memory
    decider = fighter(rng) if fighter is not None else LensKeeper(lens)
    parts, npcs, _ = game.conflict_sides(ctype, npc_ids, obstacle_of(spec), pc_decider=decider,
                                         mind=lambda nid, npc: default_mind(npc, rng, memory=memory.get(nid),
                                                                           edition=game.edition),
                                         copies=True, vehicle=spec.get("vehicle"))
    return parts, npcs, game.disposition_bonus(ctype, parts, npcs)


def _exact(game: Game, ctype, spec: dict, npc_ids: list[str], rounds: int) -> tuple[Exact | None, str]:
    """The exact odds of one against one, the NPC's nerve in the chain (every Lens kept, and the best), and what
    the chain leaves out of this fight ("" when nothing: the odds are the game's), or (None, why not)."""
    from ...minds.foresight import Foresight
    from ...rules.conflict import Conflict

    rng = random.Random(SAMPLE_SEED)
    parts, _, standing = _participants(game, ctype, spec, npc_ids, "none", rng)
    if len(parts) != 2 or {p.side for p in parts} != {"a", "b"}:
        return None, "a group fight" if len(parts) > 2 else "no contest"
    conflict = Conflict(ctype, parts, rng, round_limit=rounds, standing=standing)
    try:
        exact = Foresight(nerve=True).exact(conflict.view, parts[0], None, asked=False)
    except (ValueError, KeyError) as exc:
        return None, str(exc)
    if not exact.odds or exact.best is None:
        return None, exact.why_not or "no exact odds"
    return exact, left_out(conflict.view, parts[0], parts[1])


def left_out(view, pc, foe) -> str:
    """What the Lens chain leaves out of this one-against-one fight, as its foe decides in it ("" when nothing):
    pushing on below zero, a blow sent to a Pool the chain does not track, a weapon switched with Quick."""
    from ...minds.foresight import mind_of
    from ...minds.npc import side_pool_choice

    if foe.can_push:
        return "it may push on below zero"
    mind = mind_of(foe)
    if mind is None or not foe.uses_lenses or foe.char is None:
        return ""
    if any(k.startswith("weapon:") for k in mind.quick_actions(view, foe).values()):
        return "it may switch weapons with Quick"
    for side in SIDE_POOLS:
        if (pc.takes_side_blows(side)
                and side_pool_choice(foe, pc, view.ctype, ["conflict", side]) != "conflict"):
            return f"its blows may go to {side}, which the chain does not track"
    return ""


#: How a sampled conflict ended: the outcome, each NPC's end status, the PCs in comae, and (fought as a bot fights,
#: which spends Luck) each PC's Luck left.
Ending = tuple[str, tuple[tuple[str, str], ...], tuple[str, ...], tuple[tuple[str, int], ...]]


def _sampled(game: Game, ctype, spec: dict, npc_ids: list[str], rounds: int, lens: str,
             fighter: Callable[[random.Random], Decider] | None = None, times: int = SAMPLED_CONFLICTS
             ) -> Counter[Ending]:
    """The conflict played SAMPLED_CONFLICTS times with the engine, the PCs keeping ``lens`` (or fighting as
    ``fighter`` does): how each ended."""
    from ...rules.conflict import Conflict

    rng = random.Random(SAMPLE_SEED)
    counts: Counter[Ending] = Counter()
    for _ in range(times):
        parts, npcs, standing = _participants(game, ctype, spec, npc_ids, lens, rng, fighter)
        result = Conflict(ctype, parts, rng, round_limit=rounds, standing=standing).run()
        statuses = tuple(sorted((nid, p.status) for nid, p in npcs.items()))
        comae = tuple(sorted(p.char.name for p in parts if p.is_pc and p.char is not None and p.status == COMAE))
        luck = tuple(sorted((p.char.name, p.char.luck) for p in parts if p.is_pc and p.char is not None)) \
            if fighter is not None else ()
        counts[(result.outcome, statuses, comae, luck)] += 1
    return counts
