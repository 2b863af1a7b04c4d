"""Morale: when an NPC's nerve goes, and what it does then (issue 4, docs/rules.md §7.3).

A mind does not re-decide "fight or run" from scratch every round: that
makes NPCs flicker between bravado and panic. Instead morale is a small
state machine — steady, shaken, broken — that moves only on *triggers*
(its Pool falling below half for the first time, falling to its
motivation's flee line while losing, an ally going down, being
outnumbered, the fight turning hopeless, and every new wound while shaken).
Each trigger is a check against the NPC's nerve; a failed check moves one
step down. Climbing back from shaken needs a clearly better position than
the one that shook it (hysteresis), and broken is final for the conflict.

What a broken NPC does comes from its Code Block's ``on_break`` list; the
flavour (begging, bargaining, calling for help) is kept for the narration,
while the engine only knows fleeing and surrendering.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..npc.leanings import Leanings

STEADY, SHAKEN, BROKEN = "steady", "shaken", "broken"
#: Not a state: the clue of a shake that comes before the first roll, from the odds alone (``ODDS_ALONE``).
DAUNTED = "daunted"
#: Not a trigger that fires a check: the "trigger" of a shaken NPC's recovery, the fight turning its way (RECOVER_AT).
RECOVERED = "winning"
#: The triggers that can fire before anything has happened in a conflict.
ODDS_ALONE = frozenset({"outnumbered", "hopeless"})

#: How hard each trigger presses on the nerve (added to the danger, 1 − win chance).
SEVERITY = {
    "half": 0.2,          # own Pool below half for the first time
    "flee_line": 0.3,     # own Pool at or below the motivation's flee threshold while losing
    "wounded": 0.15,      # hurt again while shaken
    "ally_out": 0.3,      # each ally that goes down, runs or gives up
    "outnumbered": 0.25,  # per extra opponent beyond one each, when the odds in numbers get worse
    "hopeless": 0.15,     # the exact odds fall below 10 %
}
#: Nerve = BASE + resolve·R − self_preservation·S + risk_tolerance·T (see docs/npcs.md).
NERVE_BASE, NERVE_RESOLVE, NERVE_SELF, NERVE_RISK = 1.1, 0.7, 0.5, 0.4
SHAKEN_PRESSURE = 0.2  # a shaken NPC feels every trigger more
SPREAD = 0.12          # how soft the line between holding and failing is
RECOVER_AT = 0.65      # a shaken NPC steadies only when its win chance climbs this high
LOSING = 0.5           # below this win chance the NPC counts as losing (for the flee line)
HOPELESS = 0.1

#: What each on_break reaction is, mechanically.
MECHANIC = {"flee": "flee", "call_for_help": "flee", "surrender": "surrender", "beg": "surrender",
            "bargain": "surrender", "fight_on": None}

#: Clues for the narration: what a GM could say instead of a number (our own words).
CLUES = {
    STEADY: "holds its ground",
    SHAKEN: "gives ground, eyes flicking towards the way out",
    BROKEN: "has lost its nerve",
    "flee": "turns to get away",
    "call_for_help": "shouts for help and falls back",
    # an offer the other side may refuse ("fights on, with no way out"): the clue does not tell it as settled before
    # the player is asked (a new player read "Hallstein gives way." and then a question whether to accept it)
    "surrender": "lowers its guard and offers to yield",
    "beg": "drops to its knees, pleading",
    "bargain": "offers a deal to end it",
    "fight_on": "fights on like a cornered animal",
}
#: Shaken by the odds alone before the first roll (numbers, or a fight it can hardly win): nothing has happened yet
#: to falter at, in a fight or an argument (a reading of Kaldskard: "Hallstein falters, and starts looking for a way
#: out of the argument" before a word was said, then argued ten rounds unmoved).
DAUNTED_WORDS = "eyes the odds, and does not like them"
#: The same in an argument, which one leaves by walking away, not by running or shouting for help.
SOCIAL_CLUES = {**CLUES,
                SHAKEN: "falters, and starts looking for a way out of the argument",
                "flee": "makes to leave",
                "call_for_help": "looks round for someone to take its side, then makes to leave",
                "surrender": "offers to concede",
                "beg": "asks to let the matter drop",
                "fight_on": "digs in, with nothing left to lose"}
#: Calling for help, where its friends stand all about it (on its side in the fight): it falls back on them.
AMONG_FRIENDS = "falls back among its friends"
#: The same in a pursuit, by the NPC's part in it (solo.rules.fiction.PARTS). Where one side hides and the other
#: keeps watch, a watcher never sees the ones sneaking past (it has nobody to give ground to or get away from: its
#: nerve shows in how it keeps the watch), and a hider's shows in its hiding place. In a chase, on foot or at the
#: wheel, nobody stands their ground: a chaser's nerve shows in how hard it keeps after its quarry, a quarry's in
#: how it runs.
PART_CLUES = {
    "seeker": {**CLUES,
               STEADY: "keeps up its watch",
               SHAKEN: "starts at every sound and keeps to the light",
               "flee": "abandons its post for somewhere better lit",
               "call_for_help": "calls out to nobody in particular, then goes to fetch the others",
               "surrender": "stops searching, muttering that there is nothing there",
               "beg": "mutters a prayer at the shadows",
               "bargain": "calls into the dark: whoever is there may go, and no questions asked",
               "fight_on": "grits its teeth and searches all the harder"},
    "hider": {**CLUES,
              STEADY: "keeps still",
              SHAKEN: "shifts in its hiding place, breathing too fast",
              "flee": "breaks cover and runs",
              "call_for_help": "breaks cover, calling for help",
              "surrender": "calls out from hiding, offering to give up",  # an offer (the question follows)
              "beg": "pleads from its hiding place to be let go",
              "bargain": "calls out from cover, offering a deal",
              "fight_on": "stays put, ready to lash out if found"},
    "pursuer": {**CLUES,
                STEADY: "keeps after its quarry",
                SHAKEN: "starts to lag, as if no longer sure of catching up",
                BROKEN: "has lost heart for the chase",
                "flee": "gives up the chase and turns back",
                "call_for_help": "shouts for someone to head the quarry off, and drops back",
                "surrender": "pulls up, done with the chase",
                "beg": "pulls up and wants no more of it",
                "bargain": "calls out an offer instead of closing in",
                "fight_on": "keeps after its quarry with nothing left to lose"},
    "quarry": {**CLUES,
               STEADY: "keeps up the pace",
               SHAKEN: "looks back more often than ahead",
               "flee": "breaks away down a side way",
               "call_for_help": "shouts for help over its shoulder",
               "surrender": "slows, ready to give up",  # an offer, as the question after it asks (not "stops")
               "beg": "slows, begging to be let go",
               "bargain": "calls back, offering a deal",
               "fight_on": "flees on like a hunted animal"},
}
#: Calling for help in a pursuit, with its friends in the conflict too: it keeps close to them.
PART_AMONG_FRIENDS = {"seeker": "keeps close to the others on watch",
                      "hider": "edges closer to its friends in the dark",
                      "pursuer": "drops back to let its friends take up the chase",
                      "quarry": "keeps close to its friends as they run"}


#: The breaks of one that does not speak (a dog with a Code Block, a beast): no shout, no offer, no plea in words
#: (a reading of fights: Vellan's cannery dog "shouts for help and falls back", a yard dog "offers to yield").
WORDLESS = {"call_for_help": "howls for its own kind and falls back",
            "surrender": "drops low and backs away, done with the fight",
            "beg": "cringes low, whining",
            "bargain": "backs off a step, growling, as if to let it end there"}


def clue(key: str, *, social: bool, friends_here: bool, part: str | None = None, speaks: bool = True) -> str:
    """The clue for a morale state or a break reaction as the conflict has it: an argument's words in a social
    conflict, its part's in a pursuit (``part``, solo.rules.fiction.PARTS: a watcher's, a hider's, a chaser's or
    a quarry's); a call for help only where no friend of the NPC's is in the fight with it. ``DAUNTED`` is a
    shake before the first roll: a pursuit's part shows it as any shake."""
    if key == DAUNTED:
        if part not in PART_CLUES:
            return DAUNTED_WORDS
        key = SHAKEN
    if social:
        return SOCIAL_CLUES[key]
    if part in PART_CLUES:
        if key == "call_for_help" and friends_here:
            return PART_AMONG_FRIENDS[part]
        return PART_CLUES[part][key]
    if key == "call_for_help" and friends_here:
        return AMONG_FRIENDS
    if not speaks and key in WORDLESS:
        return WORDLESS[key]
    return CLUES[key]


@dataclass(frozen=True)
class Check:
    """One morale check: why it happened, how likely failing was, and where it left the NPC."""

    triggers: tuple[str, ...]
    chance: float  # chance to fail
    failed: bool
    before: str
    after: str

    def to_dict(self) -> dict:
        return {"triggers": list(self.triggers), "chance": round(self.chance, 3), "failed": self.failed,
                "before": self.before, "after": self.after}


def nerve(lean: Leanings) -> float:
    """How much pressure the NPC takes before a check is more likely to fail than hold."""
    return (NERVE_BASE + NERVE_RESOLVE * lean.lean["resolve"] - NERVE_SELF * lean.lean["self_preservation"]
            + NERVE_RISK * lean.risk_tolerance)


@dataclass
class Morale:
    """Per-conflict morale of one NPC. Call :meth:`observe` at each of its declarations."""

    lean: Leanings
    state: str = STEADY
    fired: set = field(default_factory=set)
    seen_out: set = field(default_factory=set)
    worst_ratio: float = 1.0
    last_pool: int | None = None
    reaction: str | None = None  # set when broken: flee, surrender, beg, bargain, call_for_help, fight_on
    checks: list = field(default_factory=list)

    def copy(self) -> Morale:
        """A twin to change apart: its own sets and checks, the same (frozen) leanings, which a deep copy would
        take apart dictionary by dictionary for every what-if conflict the Lens advice plays."""
        return replace(self, fired=set(self.fired), seen_out=set(self.seen_out), checks=list(self.checks))

    @property
    def never_breaks(self) -> bool:
        return self.lean.mindless

    def observe(self, *, pool: int, maximum: int, win: float, allies_out: set, opponents: int, side: int,
                rng: random.Random) -> Check | None:
        """Look at the fight, fire the triggers that apply, and check once if any did."""
        if self.never_breaks or self.state == BROKEN:
            self.last_pool = pool
            return None
        triggers = []
        frac = pool / maximum if maximum > 0 else 0.0
        if frac < 0.5 and "half" not in self.fired:
            self.fired.add("half")
            triggers.append("half")
        line = self.lean.flee_threshold
        if line > 0 and frac <= line and win < LOSING and "flee_line" not in self.fired:
            self.fired.add("flee_line")
            triggers.append("flee_line")
        if self.state == SHAKEN and self.last_pool is not None and pool < self.last_pool:
            triggers.append("wounded")
        new_out = allies_out - self.seen_out
        if new_out:
            self.seen_out |= new_out
            triggers.extend("ally_out" for _ in new_out)
        ratio = opponents / side if side else float(opponents)
        if ratio > 1.0 and ratio > self.worst_ratio:
            triggers.append("outnumbered")
            extra = ratio - max(1.0, self.worst_ratio)
            self.worst_ratio = ratio
        else:
            extra = 0.0
        if win < HOPELESS and "hopeless" not in self.fired:
            self.fired.add("hopeless")
            triggers.append("hopeless")
        self.last_pool = pool
        if not triggers:
            if self.state == SHAKEN and win >= RECOVER_AT:
                # said, as the shake was: the screen told its nerve failing, and the narration keeps it shaken (no
                # unruffled bearing, no taunt) until this (a review: a recovery with no event left it so for good)
                self.state = STEADY
                check = Check((RECOVERED,), 0.0, False, SHAKEN, STEADY)
                self.checks.append(check)
                return check
            return None
        severity = sum(SEVERITY[t] for t in triggers if t != "outnumbered") + SEVERITY["outnumbered"] * extra
        pressure = severity + (1.0 - win) + (SHAKEN_PRESSURE if self.state == SHAKEN else 0.0)
        chance = _logistic((pressure - nerve(self.lean)) / SPREAD)
        failed = rng.random() < chance
        before = self.state
        if failed:
            at_line = line > 0 and frac <= line and win < LOSING
            self.state = BROKEN if (self.state == SHAKEN or at_line) else SHAKEN
        check = Check(tuple(triggers), chance, failed, before, self.state)
        self.checks.append(check)
        return check

    def choose_reaction(self, *, can_flee: bool, rng: random.Random, surrender_bias: float | None = None) -> str:
        """What a broken NPC does, from its on_break list; a surrender or a flight underneath.

        When the list holds both kinds, the Code Block's surrender bias
        (disposition and memory included) splits between yielding and
        running; the first reaction of the chosen kind in ``on_break`` gives
        the flavour. Where running is impossible (a chase is itself the
        flight) it yields.
        """
        breaks = self.lean.on_break
        if all(b == "fight_on" for b in breaks):
            self.reaction = "fight_on"
            return self.reaction
        kinds: set[str] = {m for b in breaks if (m := MECHANIC.get(b))}
        if not can_flee:
            kinds.discard("flee")
        if len(kinds) == 2:
            bias = self.lean.surrender_bias if surrender_bias is None else surrender_bias
            kind = "surrender" if rng.random() < bias else "flee"
        else:
            kind = kinds.pop() if kinds else "surrender"
        for reaction in breaks:
            if MECHANIC.get(reaction) == kind:
                self.reaction = reaction
                return reaction
        self.reaction = kind
        return kind


def _logistic(x: float) -> float:
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class Nerve(NamedTuple):
    """One NPC's morale as the Lens chain holds it, one against one (``Effect.nerve``): what
    :meth:`Morale.observe` reads of its past. ``hurt``: a blow took Pool off it since it last looked (kept only
    while shaken, the one state it matters in)."""

    state: str = STEADY
    half: bool = False
    flee_line: bool = False
    hopeless: bool = False
    hurt: bool = False
    leaving: bool = False  # its Quick tried to get away this round: the Move roll at the round's end is to come

    @classmethod
    def of(cls, morale: Morale, pool: int) -> Nerve:
        """The nerve of a live :class:`Morale` whose NPC's Pool is now ``pool``."""
        fired = morale.fired
        hurt = morale.state == SHAKEN and morale.last_pool is not None and pool < morale.last_pool
        return cls(morale.state, "half" in fired, "flee_line" in fired, "hopeless" in fired, hurt)


_STATES = (STEADY, SHAKEN, BROKEN)


def nerve_checks(lean: Leanings, nerve_now: Nerve, frac, win) -> list[tuple[Nerve, Any]]:
    """:meth:`Morale.observe` one against one (no allies, not outnumbered), as chances: each nerve it may leave,
    with its chance, at one state or over arrays of them (``frac``: its Pool over its maximum; ``win``: its
    best chance, :meth:`~.position.Position.win`). The same triggers, sums and logistic as ``observe``, so the
    chances are those of its draw; a state BROKEN is a check just failed (it then leaves, or fights on).
    """
    import numpy as np

    frac, win = np.asarray(frac, dtype=float), np.asarray(win, dtype=float)
    if lean.mindless or nerve_now.state == BROKEN:
        return [(nerve_now._replace(hurt=False), np.ones(np.broadcast(frac, win).shape))]
    shaken = nerve_now.state == SHAKEN
    line = lean.flee_threshold
    half = (frac < 0.5) & (not nerve_now.half)
    at_line = (frac <= line) & (win < LOSING) if line > 0 else np.zeros(frac.shape, dtype=bool)
    flee = at_line & (not nerve_now.flee_line)
    wounded = shaken and nerve_now.hurt
    hopeless = (win < HOPELESS) & (not nerve_now.hopeless)
    fired = half | flee | hopeless | wounded
    # observe's sum, in its order: a trigger that did not fire adds 0.0, which leaves the sum's bits alone
    severity = (np.where(half, SEVERITY["half"], 0.0) + np.where(flee, SEVERITY["flee_line"], 0.0)
                + (SEVERITY["wounded"] if wounded else 0.0) + np.where(hopeless, SEVERITY["hopeless"], 0.0))
    pressure = severity + (1.0 - win) + (SHAKEN_PRESSURE if shaken else 0.0)
    x = (pressure - nerve(lean)) / SPREAD
    chance = np.where(x > 40, 1.0, np.where(x < -40, 0.0, 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))))
    flags = (nerve_now.half | half).astype(int) + 2 * (nerve_now.flee_line | flee) + 4 * (nerve_now.hopeless | hopeless)
    now = _STATES.index(nerve_now.state)
    steadies = shaken & (win >= RECOVER_AT)  # no trigger and a clearly better position: steady again
    held = np.where(fired, now, np.where(steadies, 0, now))
    failed = np.where(shaken | at_line, 2, 1)
    out = by_code(((flags + 8 * held, np.where(fired, 1.0 - chance, 1.0)),
                   (flags + 8 * failed, np.where(fired, chance, 0.0))))
    # broken, it never looks again: what had fired no longer counts (one nerve, not one for each past)
    return [(Nerve(BROKEN) if c // 8 == 2 else Nerve(_STATES[c // 8], bool(c & 1), bool(c & 2), bool(c & 4)), p)
            for c, p in out.items()]


def by_code(pairs) -> dict[int, Any]:
    """Each nerve a check may leave (a code: its flags and state), in increasing order within each of ``pairs``
    (``(codes, chances)`` arrays of one shape), with its chance where it is left and 0 elsewhere; a code that is
    nowhere left with a chance above 0 is not listed. All the codes of a pair at once: a walk asks this over
    every Pool of thousands of states."""
    import numpy as np

    out: dict[int, Any] = {}
    for code, p in pairs:
        codes = np.flatnonzero(np.bincount(code.ravel(), minlength=1))
        got = np.where(code == codes.reshape(-1, *(1,) * code.ndim), p, 0.0)
        taken = [bool(t) for t in np.any((got > 0.0).reshape(len(codes), -1), axis=1)]
        for i, c in enumerate(codes.tolist()):
            if taken[i]:
                out[c] = out[c] + got[i] if c in out else got[i]
    return out


def reaction_split(lean: Leanings, *, can_flee: bool, surrender_bias: float | None = None) -> float | None:
    """What :meth:`Morale.choose_reaction` makes of a break, as a chance: the share of surrenders among the
    ways out (the rest run), or None when it fights on."""
    breaks = lean.on_break
    if all(b == "fight_on" for b in breaks):
        return None
    kinds = {m for b in breaks if (m := MECHANIC.get(b))}
    if not can_flee:
        kinds.discard("flee")
    if len(kinds) == 2:
        return lean.surrender_bias if surrender_bias is None else surrender_bias
    return 0.0 if kinds == {"flee"} else 1.0
