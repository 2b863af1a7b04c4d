"""Duels: one NPC mind against one player character, many times over (``solo duel``).

A GM tunes a Code Block by watching it fight: how often it goes
Aggressive, when it runs, how long fights last. This module plays the
conflicts through the real engine with a :class:`~solo.minds.npc.NPCMind`
on one side and a :class:`~solo.minds.bots.GreedyDecider` on the other,
and tallies what the NPC chose and how it ended. It prints nothing; the
command formats the tallies.

The NPC takes side "a", so outcomes are read from its side as the engine
gives them (including ``comae``, which the mirror view would hide). Between
conflicts both characters get their Pools, Luck and weapon back, so every
run starts fresh while the NPC's generator and the dice run on.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..decisions import LENS, TARGET, Question
from ..events import EventLog
from ..npc.disposition import disposition_bonus
from ..rules.conflict import Conflict
from ..rules.conflict_types import ConflictType
from ..rules.lenses import LENSES
from ..rules.outcomes import (
    COMAE,
    FLED,
    LOST,
    OPPONENT_FLED,
    OPPONENT_SURRENDERED,
    STALEMATE,
    SURRENDERED,
    WON,
)
from ..rules.participants import from_character
from ..sampling import mean_error
from .bots import GreedyDecider
from .memory import NPCMemory
from .npc import NPCMind

OUTCOME_KEYS = (WON, LOST, FLED, SURRENDERED, COMAE, STALEMATE)
DEFAULT_ROUND_LIMIT = 30


@dataclass
class DuelStats:
    """What the NPC did over ``runs`` conflicts."""

    runs: int = 0
    lenses: Counter = field(default_factory=lambda: Counter({k: 0 for k in LENSES}))
    outcomes: Counter = field(default_factory=lambda: Counter({k: 0 for k in OUTCOME_KEYS}))
    rounds: int = 0
    rounds_squared: int = 0  # for the mean's standard error
    pc_gave_up: int = 0  # the PC fled or surrendered: counted as "won" for the NPC
    breaks: Counter = field(default_factory=Counter)  # how its nerve broke: flee, beg, bargain …
    reasons: Counter = field(default_factory=Counter)  # (Lens, consideration) behind each Lens choice
    first: list = field(default_factory=list)  # every event of the first conflict (with explain)
    # each conflict's own Lens counts, summed as the clustered ± of a Lens's share needs them (sampling.add_cluster)
    lens_sums: dict = field(default_factory=dict)

    @property
    def mean_rounds(self) -> float:
        return self.rounds / self.runs if self.runs else 0.0

    @property
    def rounds_error(self) -> float:
        """One standard error of :attr:`mean_rounds` (0 with fewer than two conflicts)."""
        return mean_error(self.rounds, self.rounds_squared, self.runs)

    def lens_errors(self) -> dict[str, float]:
        """One standard error of each Lens's share of the Lenses declared, conflict by conflict."""
        from ..sampling import cluster_errors

        return cluster_errors(self.lenses, self.lens_sums)

    def count_conflict(self, declared: Counter) -> None:
        """Fold one conflict's Lens counts into the sums the shares' ± are worked out from."""
        from ..sampling import add_cluster

        add_cluster(self.lens_sums, declared)

    def share(self, *outcomes: str) -> float:
        return sum(self.outcomes[o] for o in outcomes) / self.runs if self.runs else 0.0

    def to_dict(self) -> dict:
        return {
            "runs": self.runs,
            "lenses": {k: self.lenses[k] for k in LENSES},
            "lens_errors": {k: round(v, 6) for k, v in self.lens_errors().items()},
            "outcomes": {k: self.outcomes[k] for k in OUTCOME_KEYS},
            "mean_rounds": round(self.mean_rounds, 3),
            "rounds_error": round(self.rounds_error, 3),
            "pc_gave_up": self.pc_gave_up,
            "breaks": dict(sorted(self.breaks.items())),
        }


class _Tally:
    """Wraps a mind to count the Lenses it declares (answers to ``lens`` only, not exits)."""

    def __init__(self, mind: NPCMind, stats: DuelStats, explain: bool):
        self.mind = mind
        self.stats = stats
        self.explain = explain
        self.here: Counter = Counter()  # the conflict in hand's own Lens counts

    def decide(self, question: Question) -> str:
        answer = self.mind.decide(question)
        if question.kind == LENS and answer in self.stats.lenses:
            self.stats.lenses[answer] += 1
            self.here[answer] += 1
            if self.explain and self.mind.last is not None:
                self.stats.reasons[(answer, self.mind.last.consideration)] += 1
        return answer


def snapshot(char) -> tuple:
    """What a conflict changes on a character (Pools, Luck, debts, weapon), to put back after a trial run."""
    return ({k: (p.maximum, p.current) for k, p in char.pools.items()}, char.luck, char.owed_failures, char.weapon)


def restore(char, snap: tuple) -> None:
    pools, luck, owed, weapon = snap
    for k, (maximum, current) in pools.items():
        char.pools[k].maximum = maximum
        char.pools[k].current = current
    char.luck, char.owed_failures, char.weapon = luck, owed, weapon


def duel_seeds(seed: int | None) -> tuple[random.Random, random.Random]:
    """The dice's generator and the NPC mind's own, both from one seed (None: fresh entropy)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    return random.Random(seed), random.Random(f"npc-mind:{seed}")


def run_duels(npc, pc, ctype: ConflictType, *, runs: int, seed: int | None = None,
              round_limit: int = DEFAULT_ROUND_LIMIT, explain: bool = False, memory: NPCMemory | None = None,
              pc_decider=None) -> DuelStats:
    """Play ``runs`` conflicts of ``ctype``, NPC (side a) against PC (side b), and tally them.

    With ``explain`` the mind's reasons are counted and every event of the
    first conflict (the engine's and the mind's) is kept in ``first``.
    """
    if runs < 1:
        raise ValueError("a duel needs at least one run")
    if ctype.static:
        raise ValueError(f"{ctype.name} is fought against an obstacle, not a person; pick an opposed type")
    dice, mind_rng = duel_seeds(seed)
    stats = DuelStats()
    log = EventLog()
    mind = NPCMind(npc, mind_rng, memory=memory, explain=False, sink=log if explain else None)
    tally = _Tally(mind, stats, explain)
    bot = pc_decider if pc_decider is not None else GreedyDecider()
    npc_snap, pc_snap = snapshot(npc), snapshot(pc)
    npc_id, pc_id = npc.name, pc.name if pc.name != npc.name else f"{pc.name} (PC)"
    lenses = npc.uses_lenses if hasattr(npc, "uses_lenses") else None
    for run in range(runs):
        restore(npc, npc_snap)
        restore(pc, pc_snap)
        a = from_character(npc, "a", ctype, decider=tally, pid=npc_id, uses_lenses=lenses)
        b = from_character(pc, "b", ctype, decider=bot, pid=pc_id)
        disposition_bonus(ctype, (a, b), "b")  # the PC rolls with the NPC's disposition, as in the game
        sink = log if explain and run == 0 else None
        result = Conflict(ctype, [a, b], dice, sink=sink, round_limit=round_limit).run()
        outcome = result.outcome
        if outcome in (OPPONENT_FLED, OPPONENT_SURRENDERED):
            stats.pc_gave_up += 1
            outcome = WON
        stats.outcomes[outcome] += 1
        stats.rounds += result.rounds
        stats.rounds_squared += result.rounds * result.rounds
        stats.runs += 1
        stats.count_conflict(tally.here)
        tally.here.clear()
        morale = mind.morale
        if morale is not None and morale.reaction and outcome in (FLED, SURRENDERED):
            stats.breaks[morale.reaction] += 1
        if explain and run == 0:
            stats.first = list(log.events)
            mind.sink = None  # later conflicts: reasons are still counted, events no longer kept
    restore(npc, npc_snap)
    restore(pc, pc_snap)
    return stats


# -- an NPC from the duel's flags ------------------------------------------------------

def role_for(ctype: ConflictType, *, mindless: bool = False) -> str:
    """A role that fights this kind of conflict: main skill first, then any of its three skills."""
    from ..npc.roles import roles

    table = [r for r in roles().values() if r.mindless == mindless]
    for wanted in (lambda r: r.skills[0][0] == ctype.skill, lambda r: any(s == ctype.skill for s, _ in r.skills)):
        for role in table:
            if wanted(role):
                return role.key
    return table[0].key if table else "thug"


def parse_trait(name: str):
    """A personality entry by name: the Personality table first, then the Dark Triad.

    Names in both tables (Aggressive, Moody, Lying, Manipulative) mean the
    Personality one unless written ``dark:Name`` (or ``Name (Dark Triad)``).
    """
    from ..npc.codeblock import Trait
    from ..npc.levels import NPCError
    from ..npc.tables import codeblocks

    t = codeblocks()
    text = name.strip()
    tables: tuple[str, ...] = ("personality", "dark_triad")
    lowered = text.lower()
    for prefix in ("dark:", "dark_triad:", "darktriad:"):
        if lowered.startswith(prefix):
            text, tables = text[len(prefix):].strip(), ("dark_triad",)
            break
    else:
        if lowered.endswith("(dark triad)"):
            text, tables = text[: -len("(dark triad)")].strip(), ("dark_triad",)
    for table in tables:
        try:
            return Trait(t.trait(table, text).name, table)
        except KeyError:
            continue
    from ..errors import did_you_mean

    known = [name for table in tables for name in t.trait_table(table)]
    where = "Dark Triad" if tables == ("dark_triad",) else "Personality or Dark Triad"
    raise NPCError(f"unknown {where} entry {text!r}{did_you_mean(text.title(), known)}; "
                   f"known: {', '.join(dict.fromkeys(known))}")


def parse_event(text: str, rng: random.Random):
    """A Recent Event from ``Topic+``, ``Topic-``, ``Topic:positive`` / ``Topic:negative`` or ``random``."""
    from ..npc.codeblock import RecentEvent, roll_event
    from ..npc.levels import NPCError
    from ..npc.tables import codeblocks

    raw = text.strip()
    if raw.lower() == "random":
        return roll_event(rng)
    if raw.endswith(("+", "-", "−")):
        topic, positive = raw[:-1], raw.endswith("+")
    elif ":" in raw:
        topic, _, sign = raw.partition(":")
        if sign.strip().lower() not in ("positive", "negative", "+", "-"):
            raise NPCError(f"--event {text!r}: the sign after ':' is positive or negative")
        positive = sign.strip().lower() in ("positive", "+")
    else:
        raise NPCError(f"--event {text!r}: write a topic and a sign, e.g. Money+ or Love-")
    try:
        entry = codeblocks().event(topic.strip())
    except KeyError as exc:
        raise NPCError(exc.args[0]) from None
    return RecentEvent(entry.topic, positive, entry.examples(positive)[0])


def duel_npc(rng: random.Random, ctype: ConflictType, *, base=None, level: str = "skilled", role: str | None = None,
             personality=(), motivation=(), event: str | None = None, disposition: str | None = None,
             mindless: bool = False):
    """The NPC a duel pits: ``base`` (from a file) or a generated one, with the given Code Block parts.

    Parts not given keep the base's, or are rolled with ``rng`` (a single
    ``personality`` gets a rolled second one). Raises NPCError (a SoloError)
    for anything unknown, with a one-line message.
    """
    from dataclasses import replace

    from ..npc import generate_npc
    from ..npc.codeblock import roll_code_block
    from ..npc.levels import NPCError
    from ..npc.tables import codeblocks

    if mindless and (personality or motivation or event or disposition):
        raise NPCError("a mindless creature has no Code Block: drop --personality, --motivation, --event and "
                       "--disposition, or --mindless")
    if len(personality) > 2:
        raise NPCError("an NPC has two personality entries; give --personality at most twice")
    if len(motivation) > 2:
        raise NPCError("an NPC has one or two motivations; give --motivation at most twice")
    if base is not None:
        npc = base
        if mindless:
            npc.mindless, npc.code_block = True, None
    else:
        npc = generate_npc(rng, level, role=role or role_for(ctype, mindless=mindless), mindless=mindless)
    if npc.mindless:
        return npc
    t = codeblocks()
    cb = npc.code_block or roll_code_block(rng)
    traits = [parse_trait(p) for p in personality]
    if len(traits) == 1:
        traits.append(cb.personality[1])
    if traits:
        cb = replace(cb, personality=(traits[0], traits[1]))
    if motivation:
        names = []
        for m in motivation:
            try:
                name = t.motivation(m).name
            except KeyError as exc:
                raise NPCError(exc.args[0]) from None
            if name in names:
                raise NPCError(f"--motivation {name!r} is given twice")
            names.append(name)
        cb = replace(cb, motivation=tuple(names))
    if event:
        cb = replace(cb, event=parse_event(event, rng))
    if disposition:
        try:
            cb = replace(cb, disposition=t.disposition(disposition).name)
        except KeyError as exc:
            raise NPCError(exc.args[0]) from None
    npc.code_block = cb
    return npc


# -- skirmishes: a party against a band, many times over ----------------------------------

@dataclass
class SkirmishStats:
    """What a band of NPC minds did over ``runs`` group fights against a party.

    ``weakest``/``choices``: target choices that fell on the weakest foe offered (the least conflict Pool
    left; ties count for every one of them), and all target choices; ``chance`` sums, over the choices, the
    share a blind pick would give the weakest (ties / offered), so ``weakest / chance`` is how many times
    more often than chance the band went for the weakest. ``followed``/``followed_chances``: of the choices
    made while the foe the band struck last still stood, those that struck it again (a swarm). ``exits``
    counts how each NPC left the fight (fled, surrendered, out, comae, or "in" when it stood to the end) and
    ``breaks`` the reaction behind each flight or surrender (flee, bargain, beg …); ``outcomes`` the party's result.
    """

    runs: int = 0
    choices: int = 0
    weakest: int = 0
    chance: float = 0.0
    followed_chances: int = 0
    followed: int = 0
    exits: Counter = field(default_factory=Counter)
    breaks: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)

    @property
    def weakest_share(self) -> float:
        return self.weakest / self.choices if self.choices else 0.0

    @property
    def chance_share(self) -> float:
        return self.chance / self.choices if self.choices else 0.0

    def gave_up(self) -> float:
        """The share of the band's members that fled or surrendered (bargained, begged) rather than fight on."""
        total = sum(self.exits.values())
        return (self.exits[FLED] + self.exits[SURRENDERED]) / total if total else 0.0

    def to_dict(self) -> dict:
        return {"runs": self.runs, "choices": self.choices, "weakest": self.weakest,
                "weakest_share": round(self.weakest_share, 4), "chance_share": round(self.chance_share, 4),
                "followed_chances": self.followed_chances, "followed": self.followed,
                "exits": dict(sorted(self.exits.items())),
                "breaks": dict(sorted(self.breaks.items())), "gave_up": round(self.gave_up(), 4),
                "outcomes": dict(sorted(self.outcomes.items()))}


class _Watch:
    """Wraps one band member's mind: at each target question, notes whom it picks and who was weakest."""

    def __init__(self, mind: NPCMind, stats: SkirmishStats, last: list):
        self.mind, self.stats, self.last = mind, stats, last

    def decide(self, question: Question) -> str:
        answer = self.mind.decide(question)
        if question.kind == TARGET:
            conflict = question.context.get("conflict")
            offered = [conflict.by_id[k] for k in question.keys() if conflict is not None and k in conflict.by_id]
            if len(offered) > 1:
                low = min(p.pool.current for p in offered)
                weakest = {p.id for p in offered if p.pool.current == low}
                self.stats.choices += 1
                self.stats.weakest += answer in weakest
                self.stats.chance += len(weakest) / len(offered)
                if self.last and self.last[-1] in question.keys():  # the band's last foe is still standing
                    self.stats.followed_chances += 1
                    self.stats.followed += answer == self.last[-1]
            self.last.append(answer)
        return answer


def run_skirmishes(make_band, party, ctype: ConflictType, *, runs: int, seed: int = 1,
                   round_limit: int = DEFAULT_ROUND_LIMIT, pc_decider=None) -> SkirmishStats:
    """Play ``runs`` group fights of ``ctype``: the characters of ``party`` (side a, played by the greedy bot or
    ``pc_decider``) against a fresh band from ``make_band(rng)`` (a list of NPCs, side b, each with its own
    mind), and tally whom the band strikes and how its members leave the fight. The party's Pools are put
    back between fights; the seed fixes every fight."""
    if runs < 1:
        raise ValueError("a skirmish needs at least one run")
    stats = SkirmishStats()
    snaps = [snapshot(c) for c in party]
    for run in range(runs):
        dice = random.Random(f"skirmish:{seed}:{run}")
        band = make_band(random.Random(f"band:{seed}:{run}"))
        for c, snap in zip(party, snaps):
            restore(c, snap)
        struck: list[str] = []  # whom the band struck, in order
        bot = pc_decider if pc_decider is not None else GreedyDecider(random.Random(f"party:{seed}:{run}"))
        people = [from_character(c, "a", ctype, decider=bot) for c in party]
        minds = []
        for i, npc in enumerate(band):
            mind = NPCMind(npc, random.Random(f"mind:{seed}:{run}:{i}"))
            minds.append(mind)
            watch = _Watch(mind, stats, struck)
            people.append(from_character(npc, "b", ctype, decider=watch, pid=f"{npc.name} #{i + 1}"))
        result = Conflict(ctype, people, dice, round_limit=round_limit).run()
        stats.runs += 1
        stats.outcomes[result.outcome] += 1
        for p, mind in zip(people[len(party):], minds):
            stats.exits[p.status] += 1
            morale = mind.morale
            if p.status in (FLED, SURRENDERED) and morale is not None and morale.reaction:
                stats.breaks[morale.reaction] += 1
    for c, snap in zip(party, snaps):
        restore(c, snap)
    return stats
