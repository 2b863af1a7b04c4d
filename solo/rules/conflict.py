"""The Extended Conflict engine (docs/rules.md §5 and §6).

A conflict moves through a fixed series of phases, each doing its work as it
is entered: set-up, then rounds of ``declaring`` (in initiative order),
``rolling``, ``resolving``, ``damaging`` (only when the round's winner deals
damage) and ``checking``, until one side is out or the round limit is reached
(``ended``). :data:`FLOW` writes the phases down as plain data; :meth:`Conflict.step`
takes one of them and :meth:`Conflict.run` takes them all. Every choice is a
:class:`~solo.decisions.Question` put to the participant's decider, every
step is an :class:`~solo.events.Event`, and every draw comes from the
conflict's generator, so the terminal, the NPC minds and the simulator all
run exactly this code. What each Lens does comes from :mod:`.lenses`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..decisions import (
    CLEVER_FOLLOW_UP,
    DAMAGE_POOL,
    EXIT_OFFER,
    FLAMBOYANT_SKILL,
    LENS,
    LUCK_FLIP,
    LUCK_REDUCE,
    PUSH,
    QUICK_ACTION,
    TARGET,
    Option,
    answers_from_record,
    asked,
)
from ..events import Chance, Event, Sink, wants_detail
from .character import Pool, push_cost, skill_target
from .conflict_types import ConflictType
from .conflict_view import ConflictView
from .dice import D100_BITS, DiceExpr, d100, draw_below
from .fiction import conflict_frame, fiction_of, hunts, participant_facts, pursuit_parts
from .lenses import (
    CLEVER_BONUS,
    LENS_TABLE,
    PLAIN,
    Damage,
    Lens,
    blow_amount,
    blow_effect,
    both_sides,
    round_effects,
    strikes,
)
from .luck import NEGATIVE_LUCK_FLOOR, debt_due, pay_back, refreshed, spend
from .outcomes import (
    ACTIVE,
    COMAE,
    EXITS,
    FLED,
    FLEE,
    MIRROR,
    OUT,
    STALEMATE,
    SURRENDER,
    SURRENDERED,
    ending_of,
)
from .participants import (
    UNARMED_FOCUS,
    Participant,
    flamboyant_skills,
    hear_flourishes,
    may_flourish,
    may_give_up,
    settle_sources,
    shown_pool,
)
from .rolls import CheckResult, flip_that_helps, judge, luck_left
from .rulebook import rules

SETUP, DECLARING, ROLLING, RESOLVING, DAMAGING, CHECKING, ENDED = (
    "setup", "declaring", "rolling", "resolving", "damaging", "checking", "ended")

@dataclass
class Declaration:
    lens: str = "none"
    exit: str | None = None  # FLEE or SURRENDER
    clever_choice: str | None = None  # "skill" or "damage", the round after Clever
    secondary: str | None = None  # Flamboyant's skill
    quick_action: str | None = None  # "leave", "weapon:<key>", "item:<name>"
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    chance: Chance | None = None  # the chance the declarer was shown for this round's roll
    leave_chance: Chance | None = None  # and for Quick's Move roll to get away


@dataclass
class ConflictResult:
    outcome: str  # from side "a"'s point of view
    rounds: int
    statuses: dict[str, str]
    pool_lost: dict[str, int]

    def for_side(self, side: str) -> str:
        return self.outcome if side == "a" else MIRROR[self.outcome]

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "rounds": self.rounds, "statuses": dict(self.statuses),
                "pool_lost": dict(self.pool_lost)}


class Conflict:
    """One Extended Conflict between side "a" (who started it) and side "b".

    Drive it with :meth:`run` (to the end) or :meth:`step` (one phase at a
    time, for a view that pauses). Deciders see it through :attr:`view`.
    """

    # where every conflict starts (class defaults: the simulator and the odds make many small conflicts)
    round = 0
    winner: Participant | None = None
    tied = False
    result: ConflictResult | None = None
    phase = SETUP
    _view: ConflictView | None = None
    #: What is worked out as the conflict starts and again whenever someone leaves (a social conflict's
    #: disposition: the first NPC still in, solo.npc.disposition.disposition_bonus), given the participants;
    #: None: nothing (the class's default; an instance given one keeps it)
    standing: Callable[[Sequence[Participant]], object] | None = None

    def __init__(
        self,
        ctype: ConflictType,
        participants: list[Participant],
        rng: random.Random,
        *,
        sink: Sink | None = None,
        round_limit: int | None = None,
        negative_luck: bool = False,
        death: bool = False,
        advisor: Callable[[ConflictView, Participant], dict[str, str]] | None = None,
        chance_ids: Iterator[int] | None = None,
        fiction: Mapping[str, Any] | None = None,
        standing: Callable[[Sequence[Participant]], object] | None = None,
    ):
        by_id: dict[str, Participant] = {}
        in_a = in_b = 0
        has_a = has_b = shields = lucky = deciding = owing = False
        for p in participants:  # one pass: the simulator builds many small conflicts
            if p.id in by_id:
                raise ValueError(f"participant ids must be unique: {[q.id for q in participants]}")
            by_id[p.id] = p
            if p.side == "a":
                has_a = True
                in_a += p.status == ACTIVE
            elif p.side == "b":
                has_b = True
                in_b += p.status == ACTIVE
            else:
                raise ValueError(f"a participant's side is 'a' or 'b', not {p.side!r}")
            shields = shields or p.shield is not None
            owing = owing or (p.char is not None and p.char.owed_failures > 0)
            if p.decider is not None:
                deciding = True
                lucky = lucky or p.luck_allowed
        if not (has_a and has_b):
            raise ValueError("a conflict needs participants on both sides 'a' and 'b'")
        if deciding:  # only a Lens chosen reads it: Social is no flourish against foes none of whom speaks
            hear_flourishes(participants)
        if round_limit is not None and round_limit < 1:
            raise ValueError("round_limit must be at least 1")
        self.ctype = ctype
        self.participants = participants
        self.by_id = by_id
        self._rng = rng
        self.sink = sink
        self.round_limit = round_limit
        self.negative_luck = negative_luck
        self.luck_floor = NEGATIVE_LUCK_FLOOR if negative_luck else 0
        self.death = death  # comae is death in this story (an adventure's comae = "death"): the push says so
        self.advisor = advisor  # the Lens advice shown to people: {lens: detail}
        self.fiction = fiction  # the story's word on the frame: settings, who pursues, whether they hear (announced)
        # Chances on the menus and the parts of every target, for sinks that show them to people
        self._detail = sink is not None and wants_detail(sink)
        self._chance_ids = chance_ids  # shared with a game; made when first wanted otherwise
        self.order: list[Participant] = []
        self.decl: dict[str, Declaration] = {}
        self.rolls: dict[str, CheckResult] = {}
        self._shields = ctype.physical and shields
        self._plain_rolls = not self._shields and not self._detail  # see _enter_rolling
        self._lucky = lucky
        self._deciding = deciding
        self._owing = owing  # someone has borrowed Luck due in this scene (docs/rules.md §2.8)
        self._in_a, self._in_b = in_a, in_b
        self._below = draw_below(rng)  # _below(n) + 1: the draw rng.randint(1, n) makes, cheaper
        # nothing decides or watches inside, no shield, no Luck due: run() may take the fused loop
        self._plain = (not deciding and sink is None and not self._shields and not owing
                       and len(participants) == 2)
        if standing is not None:
            self.standing = standing
            standing(participants)

    def fused(self) -> bool:
        """Whether :meth:`run` plays it in the fused loop: plain, and its dice a ``random.Random`` itself, whose
        ``getrandbits`` the loop draws its d100s from (a subclass may draw otherwise)."""
        return self._plain and type(self._rng) is random.Random

    @property
    def rng(self) -> random.Random:
        """The conflict's dice. Setting it sets the cheap draw made from it too, so every roll comes from the
        one generator (a conflict given new dice after it was made rolls only those)."""
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        self._below = draw_below(rng)

    # -- public driving API --------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == ENDED

    @property
    def view(self) -> ConflictView:
        """The read-only view deciders get (one per conflict, built when first wanted)."""
        view = self._view
        if view is None:
            view = self._view = ConflictView(self)
        return view

    def step(self) -> None:
        """Enter the next phase (the first row of :data:`FLOW` whose condition holds) and do its work."""
        for dest, condition, enter in FLOW[self.phase]:
            if condition is None or condition(self):
                self.phase = dest
                enter(self)
                return

    def run(self) -> ConflictResult:
        """Play the conflict to its end, one :meth:`step` at a time, and return the result.

        A plain conflict (two participants, no decider, no sink, no shield, no Luck due) not yet
        started is played by :meth:`_run_plain` instead: the same rules, the same draws, in one loop.
        """
        if self.phase == SETUP and self.fused():
            return self._run_plain()
        step = self.step
        while self.phase != ENDED:
            step()
        assert self.result is not None
        return self.result

    def side(self, side: str) -> list[Participant]:
        return [p for p in self.participants if p.side == side]

    def active(self, side: str | None = None) -> list[Participant]:
        return [p for p in self.participants if p.status == ACTIVE and (side is None or p.side == side)]

    def opponents(self, p: Participant) -> list[Participant]:
        side = p.side
        return [o for o in self.participants if o.side != side and o.status == ACTIVE]

    def _both_sides_in(self) -> bool:
        return self._in_a > 0 and self._in_b > 0

    def _leave(self, p: Participant, status: str) -> None:
        """Every change of a participant's status goes through here, keeping the side counts true."""
        if p.status == ACTIVE:
            if p.side == "a":
                self._in_a -= 1
            else:
                self._in_b -= 1
        p.status = status
        self.__dict__.pop("_by_side", None)  # who can take a surrender may have left (_exit_options)
        standing = self.standing
        if standing is not None:  # the disposition that counts may now be another NPC's
            standing(self.participants)

    # -- conditions (the branches of FLOW) -------------------------------------
    def side_gone(self) -> bool:
        return self._in_a <= 0 or self._in_b <= 0

    def deals_damage(self) -> bool:
        w = self.winner
        if w is None:
            return False
        d = self.decl[w.id]
        return d is _PLAIN or strikes(d.lens)

    def _last_round(self) -> bool:
        return self.round_limit is not None and self.round >= self.round_limit

    def is_over(self) -> bool:
        return self._in_a <= 0 or self._in_b <= 0 or self._last_round()

    # -- events and questions ----------------------------------------------------
    @property
    def _get_away(self) -> str:
        """Leaving on a Move roll, in words that fit the contest: out of an argument one walks (docs/rulings.md)."""
        return "walk out" if self.ctype.social else "get away"

    @property
    def _social(self) -> dict[str, bool]:
        """What an event about leaving says of the contest: one walking out of an argument is called back or held,
        not chased or caught, and the log says so (solo/ui/describe.py)."""
        return {"social": True} if self.ctype.social else {}

    def _emit(self, kind: str, /, **data: Any) -> None:
        assert self.sink is not None
        self.sink(Event(kind, {"round": self.round, **data}))

    def _ask(self, p: Participant, kind: str, prompt: str, options: Sequence[Option], *, default: str | None = None,
             **context: Any) -> str:
        view = self._view
        if view is None:
            view = self.view
        question = asked(kind, prompt, tuple(options), p.name, {"conflict": view, "participant": p, **context},
                         default)
        assert p.decider is not None
        if self._detail:
            for o in options:
                if o.chance is not None:
                    self._emit("chance", **o.chance.to_dict(), question=kind, option=o.key)
        return question.resolve(p.decider.decide(question))

    # -- chances shown to people ------------------------------------------------------
    def _chance(self, p: Participant, lens_key: str = "none", secondary: str | None = None,
                extra: Sequence[tuple[str, int]] = ()) -> Chance:
        """The chance of :meth:`lens_target`, numbered, for a menu to show."""
        target, mods = self._lens_target(p, lens_key, secondary, extra, True)
        return Chance.of(self._next_id(), p.id, self.lens_skill(p, lens_key, secondary), target, mods)

    def _leave_chance(self, p: Participant) -> Chance:
        target, mods = self.leave_target(p)
        return Chance.of(self._next_id(), p.id, "Move", target, mods)

    def _next_id(self) -> int:
        if self._chance_ids is None:
            self._chance_ids = itertools.count(1)
        return next(self._chance_ids)

    @staticmethod
    def _chosen(options: Sequence[Option], key: str) -> Chance | None:
        return next((o.chance for o in options if o.key == key), None)

    # -- declarations --------------------------------------------------------------
    def _enter_declaring(self) -> None:
        if self.round == 0:
            for p in self.participants:
                p.start_pool = p.pool.current
            if self.sink is not None:
                self._announce()
        self.round += 1
        self.rolls = {}
        self.winner = None
        self.order = order = self._initiative()
        sink = self.sink
        if sink is not None:
            self._emit("round_start", order=[p.id for p in order], round_limit=self.round_limit,
                       pools={p.id: p.pool.current for p in self.participants})
        decl = self.decl = {}
        for p in order:
            if p.status != ACTIVE:
                continue
            if p.decider is None:
                decl[p.id] = _PLAIN
                if sink is not None:
                    self._emit("declare", actor=p.id, lens="none", clever_choice=None, secondary=None,
                               quick_action=None)
                continue
            if not self._both_sides_in():
                break
            clever = p.clever_next
            decl[p.id] = d = self._declare(p)
            if d.exit and sink is not None:  # said before anyone answers it: the fiction's order (a plea, then
                asked = self._exit_asked(p)   # the answer), which the narration and the views keep
                self._emit("exit_offer", actor=p.id, exit=d.exit, asked=asked.id if asked is not None else None)
            if d.exit and not p.is_pc and not self._exit_stands(p, d.exit):
                p.clever_next = clever  # refused or caught: it declares again, with no way out
                decl[p.id] = d = self._declare(p)
            if d.exit:
                self._leave(p, FLED if d.exit == FLEE else SURRENDERED)
                if self.sink is not None:
                    self._emit("exit", actor=p.id, how=p.status, decided=self.side_gone(),
                               way=exit_way(self.ctype, p.status, hunts=self._hunts(p), static=self._faces_things(p)),
                               **self._social)
            elif self.sink is not None:
                self._emit("declare", actor=p.id, lens=d.lens, clever_choice=d.clever_choice,
                           secondary=d.secondary, quick_action=d.quick_action)

    def _announce(self) -> None:
        participants: list[dict[str, Any]] = [
            {"id": p.id, "name": p.name, "side": p.side, "pool": p.pool.current, "pool_max": p.pool.maximum,
             "target": p.base_target() + p.bonus, "obstacle": p.is_obstacle, "pc": p.is_pc,
             "lenses": p.uses_lenses, "pronoun": p.pronoun, "weapon": p.weapon.name if p.weapon else None,
             "armour": p.armour.name if p.armour else None, "pushing": p.pushing} for p in self.participants]
        if self._detail:  # what a person is shown: a plain roll's target taken apart, and each one's gear
            physical = self.ctype.physical
            for entry, p in zip(participants, self.participants):
                target, mods = self._lens_target(p, "none", None, (), True)
                entry.update(target=target, skill=p.skill_called(self.ctype), base=target - sum(v for _, v in mods),
                             modifiers=[list(m) for m in mods], strikes_with=_weapon_name(p, physical),
                             damage=blow_dice(p, physical), shield=p.shield.name if p.shield else None)
        frame: dict[str, Any] = {}
        if self._detail:  # what each one is, for the words (solo.rules.fiction); a sink that only counts skips it
            frame = conflict_frame(self.ctype, self.participants, round_limit=self.round_limit, given=self.fiction)
            for entry, p in zip(participants, self.participants):
                entry.update(participant_facts(p, frame))
        self._emit("conflict_start", type=self.ctype.key, type_name=self.ctype.name, round_limit=self.round_limit,
                   pool_name=self.ctype.pool_label, participants=participants, frame=frame)

    def _initiative(self) -> list[Participant]:
        """Falling current Pool; ties: higher skill, then PCs, then a d100 roll-off (docs/rules.md §5.1)."""
        ps = self.participants
        if len(ps) == 2 and ps[0].status == ACTIVE and ps[1].status == ACTIVE:
            active = ps
        else:
            active = [p for p in ps if p.status == ACTIVE]
        if len(active) == 2:
            return self._order_two(*active)
        keyed = [((-p.pool.current, -p.base_target(), 0 if p.is_pc else 1), p) for p in active]
        keyed.sort(key=lambda k: k[0])
        out: list[Participant] = []
        i = 0
        while i < len(keyed):
            j = i
            while j + 1 < len(keyed) and keyed[j + 1][0] == keyed[i][0]:
                j += 1
            group = [k[1] for k in keyed[i:j + 1]]
            out.extend(self._roll_off(group) if len(group) > 1 else group)
            i = j + 1
        return out

    def _order_two(self, x: Participant, y: Participant) -> list[Participant]:
        """:meth:`_initiative` of two, the common case, decided without building keys (the same order)."""
        px, py = x.pool.current, y.pool.current
        if px != py:
            return [x, y] if px > py else [y, x]
        tx = x._base if x._base is not None else x.base_target()
        ty = y._base if y._base is not None else y.base_target()
        if tx != ty:
            return [x, y] if tx > ty else [y, x]
        if x.is_pc != y.is_pc:
            return [x, y] if x.is_pc else [y, x]
        return self._roll_off([x, y])

    def _roll_off(self, group: list[Participant]) -> list[Participant]:
        """Order tied participants by a d100 roll-off, higher first; those who roll the same roll again.

        A roll-off that ties has settled nothing (docs/rulings.md, "An equal initiative roll-off").
        """
        below = self._below
        if len(group) == 2:  # the usual tie, settled without sorting: the two roll until they differ
            x, y = group
            while True:
                rx, ry = below(100) + 1, below(100) + 1
                if self.sink is not None:
                    self._emit("initiative_rolloff", rolls={x.id: rx, y.id: ry})
                if rx != ry:
                    return [x, y] if rx > ry else [y, x]
        rolls = {p.id: below(100) + 1 for p in group}
        if self.sink is not None:
            self._emit("initiative_rolloff", rolls=rolls)
        ranked = sorted(group, key=lambda p: -rolls[p.id])
        out: list[Participant] = []
        i = 0
        while i < len(ranked):
            j = i + 1
            while j < len(ranked) and rolls[ranked[j].id] == rolls[ranked[i].id]:
                j += 1
            out.extend(self._roll_off(ranked[i:j]) if j - i > 1 else ranked[i:j])
            i = j
        return out

    def _exit_asked(self, p: Participant) -> Participant | None:
        """The PC asked whether an NPC's exit stands (:meth:`_exit_stands`): the one it last exchanged blows
        with (struck or was struck by), if still in, else the first still in against it; None for a PC's own
        exit, or an NPC's with no PC to ask. In hot-seat play the player facing it answers, and gives chase."""
        if p.is_pc:
            return None
        pcs = [q for q in self.opponents(p) if q.is_pc and q.status == ACTIVE and q.decider is not None]
        return next((q for q in pcs if q.id == p.last_foe), pcs[0] if pcs else None)

    def _exit_stands(self, p: Participant, exit: str) -> bool:
        """An NPC yields or runs: the PCs facing it decide whether that ends it for the NPC (issue 31).

        The first PC still in against it is asked: a surrender may be accepted or refused (the NPC then
        fights on, with no way out for the rest of the conflict); a flight may be let go, or chased: the
        NPC then gets away only on Quick's Move roll (:meth:`leave_target`), and fights on if caught.
        Without a PC to ask (NPCs among themselves), the exit takes effect at once, as the rules say.
        """
        pc = self._exit_asked(p)
        if pc is None or self._hunts(p):
            return True
        who = p.name
        part = pursuit_parts(self.ctype, self.fiction).get(p.side)
        if exit == SURRENDER:
            word = "surrender" if self.ctype.physical else "give up"
            # a quarry that gives up is not "fought on": the chase goes on (a new player's chase after Aron); nor is
            # one hiding: the search goes on
            refuse, goes_on, ask = {
                "quarry": ("Refuse and keep up the chase", f"{who} runs on, with no way out", "keep up the chase"),
                "hider": ("Refuse and keep searching", f"the search for {who} goes on, with no way out",
                          "keep searching"),
            }.get(part or "", ("Refuse and fight on", f"{who} fights on, with no way out", "fight on"))
            options = [Option("accept", "Accept", f"{who} is out of the conflict"),
                       Option("refuse", refuse, goes_on)]
            prompt = f"{who} wants to {word}: accept, or {ask}?"
            default = "accept"
        else:
            target, _ = self.leave_target(p)
            them = _OBJECT_PRONOUNS.get(p.pronoun, "them")  # "Let her go" for one the story calls she
            chance = max(0, min(99, target))
            # one walking out of an argument is called back, not run after (docs/rulings.md)
            out, chase, gets, stays, tries = (
                ("the argument", f"call {them} back", "gets out", "stays in the argument", "walks out")
                if self.ctype.social else ("the conflict", "give chase", "gets away", "fights on", "tries to get away"))
            options = [Option("let_go", f"Let {them} go", f"{who} is out of {out}"),
                       Option("chase", chase[:1].upper() + chase[1:], f"{who} {gets} on a Move roll of {chance} % "
                                                                     f"or less, else {stays}")]
            prompt = f"{who} {tries}: let {them} go, or {chase}?"
            default = "let_go"
        answer = self._ask(pc, EXIT_OFFER, prompt, options, default=default, npc=p.id, exit=exit)
        p.exit_answer = answer
        if self.sink is not None:
            self._emit("exit_answer", actor=pc.id, npc=p.id, exit=exit, answer=answer, part=part, **self._social)
        if answer in ("accept", "let_go"):
            return True
        if answer == "chase":
            target, mods = self.leave_target(p)
            r = judge(d100(self.rng), target)
            if self.sink is not None:
                self._emit("leave_attempt", actor=p.id, target=target, roll=r.roll, success=r.success,
                           flipped=False, skill="Move", base=target - sum(v for _, v in mods),
                           modifiers=[list(m) for m in mods], face=r.roll, first_success=r.success, chance_id=None,
                           **self._social)
            if r.success:
                return True
        p.exits_closed = True
        return False

    def _hunts(self, p: Participant) -> bool:
        """Whether ``p`` is the one giving chase or keeping watch in a pursuit: its giving up or leaving is what the
        quarry or the hiders want, and stands at once (docs/rulings.md, "An NPC's exit is the PCs' to take"). The
        hiders in a sneak had been asked to give chase to the watcher who left his post (a fiction audit)."""
        return hunts(self.ctype, p.side, self.fiction)

    def _faces_things(self, p: Participant) -> bool:
        """Whether every foe of ``p`` still in the conflict is an obstacle: a sneak past the barrow-field has nobody
        to flee from or yield to, as a lock has not (a player's Kaldskard: "8. Flee · leave the conflict now" and
        "9. Give up · yield now" of a field of graves)."""
        foes = [o for o in self.participants if o.side != p.side and o.status == ACTIVE]
        return bool(foes) and all(o.is_obstacle for o in foes)

    def _exit_options(self, p: Participant) -> list[Option]:
        if p.exits_closed:
            return []
        # by side until a status changes (_leave): what it reads (who is there to take a surrender, the side's part)
        # is the same for every declaration between, and each one asked it again
        known = self.__dict__.setdefault("_by_side", {})
        side_key = (p.side, p.is_obstacle)
        ready = known.get(side_key)
        if ready is None:
            ready = known[side_key] = self._exits_now(p)
        return list(ready)

    def _exits_now(self, p: Participant) -> tuple[Option, ...]:
        ctype = self.ctype
        side, hunter = p.side, self._hunts(p)
        # a surrender to a foe still in the fight that can take it (once the clerk has run, the winch beside him
        # cannot: a review), or a hunter's stopping (participants.may_give_up)
        heard = may_give_up((o for o in self.participants if o.side != side and o.status == ACTIVE), hunter)
        static = ctype.static or self._faces_things(p)  # (exit_name and exit_way add the type's own too)
        key = (ctype.flight and not p.is_obstacle, static, ctype.physical, ctype.social, heard, hunter)
        got = _EXITS.get(key)
        if got is None:  # the options are frozen: made once for each kind of menu
            exits = []
            if key[0]:
                exits.append(Option(FLEE, exit_name(ctype, FLEE, hunts=hunter, static=static),
                                    "leave it now, no roll" if static or hunter
                                    else "leave the argument now, no roll" if ctype.social
                                    else "leave the conflict now, no roll"))
            if key[4]:
                # one gives up on a lock or an archive, or a hunt, and yields to someone ("Give up · yield now" of the
                # registry's ledgers read oddly: a player's run)
                exits.append(Option(SURRENDER, exit_name(ctype, SURRENDER, static=static),
                                    "stop trying now, no roll" if static or hunter else "yield now, no roll"))
            got = _EXITS[key] = tuple(exits)
        return got

    def _declare(self, p: Participant) -> Declaration:
        d = Declaration()
        exits = self._exit_options(p)
        shows = self._detail and p.is_pc  # a person decides for p, and a sink shows the chances
        # the Lens odds, for a person who reads them (not for an answer a replayed save already holds)
        advisor = self.advisor
        if advisor is not None and (not p.is_pc or answers_from_record(p.decider)):
            advisor = None
        if p.clever_next:
            p.clever_next = False
            edge = [("Clever", CLEVER_BONUS)]
            edges = getattr(advisor, "edges", None)  # each edge's odds, then Clever kept
            advice = edges(self.view, p) if edges is not None else {}
            edged = [Option("skill", f"Use what you saw: +{CLEVER_BONUS} % this round", advice.get("skill", ""),
                             chance=self._chance(p, extra=edge) if shows else None),
                      Option("damage", "Strike where it hurts: damage rolled twice, keep the higher",
                             advice.get("damage", ""), chance=self._chance(p) if shows else None)] + exits
            answer = self._ask(p, CLEVER_FOLLOW_UP, "how do you use what Clever showed you?", edged)
            if answer in EXITS:
                d.exit = answer
                return d
            d.clever_choice = answer
            if shows:
                d.chance = self._chosen(edged, answer)
            if answer == "skill":
                d.modifiers.extend(edge)
            p.last_lens = "none"
            return d
        options: Sequence[Option]
        if p.uses_lenses:
            advice = advisor(self.view, p) if advisor is not None else {}
            # what each Lens does, in words: only where a sink shows the menu to someone (a bot reads no words)
            hint = self.lens_hint if self._detail else None
            if hint is None and not advice and not shows:  # nobody reads more than the names: the same menu
                options = _BARE_LENSES[may_flourish(p)]
            else:
                options = [Option(key, lens.name,
                                  " · ".join(filter(None, (hint and hint(p, key), advice.get(key)))),
                                  chance=self._chance(p, key) if shows else None)
                           for key, lens in LENS_TABLE.items() if lens.rolls != "secondary" or may_flourish(p)]
            prompt = "choose a Lens"
        else:
            options = [Option("none", "Fight on" if self.ctype.physical else "Keep at it",
                              chance=self._chance(p) if shows else None)]
            prompt = "fight on, or yield?"
        answer = self._ask(p, LENS, prompt, (*options, *exits), earlier={k: v.lens for k, v in self.decl.items()})
        if answer in EXITS:
            d.exit = answer
            return d
        d.lens = answer
        if shows:
            d.chance = self._chosen(options, answer)
        p.last_lens = answer
        lens = LENS_TABLE[answer]
        if lens.rolls == "secondary":
            skills = self.flamboyant_skills(p)
            if shows:
                shown = [Option(s, s, "", chance=self._chance(p, answer, s)) for s in skills]
            else:  # the skills and their values: frozen options, made once for each
                values = p.character.skills
                shown = [_SKILL_OPTIONS.get((s, values[s])) or _skill_option(s, values[s]) for s in skills]
            d.secondary = self._ask(p, FLAMBOYANT_SKILL, "Which skill do you show off with?", shown)
            d.chance = self._chosen(shown, d.secondary) or d.chance
        elif lens.extra_action:
            extras = self.quick_options(p)
            if shows:
                extras = [self._quick_chance(p, o) for o in extras]
            d.quick_action = self._ask(p, QUICK_ACTION, "What is your extra action?", extras)
            if d.quick_action.startswith("weapon:"):
                p.weapon = rules().weapons[d.quick_action.split(":", 1)[1]]
                p.character.weapon = p.weapon.key
                p.invalidate()  # the new weapon may fit another Combat Focus (docs/rules.md §2.2)
                d.chance = self._chosen(extras, d.quick_action) or d.chance
            elif d.quick_action == "leave":
                d.leave_chance = self._chosen(extras, "leave")
        return d

    def _quick_chance(self, p: Participant, option: Option) -> Option:
        """Quick's extra action with the chance it brings: the Move roll to get away, or this round's
        roll with the other weapon in hand (it may fit another Combat Focus)."""
        if option.key == "leave":
            return replace(option, chance=self._leave_chance(p))
        if not option.key.startswith("weapon:"):
            return option
        held = p.weapon
        p.weapon = rules().weapons[option.key.split(":", 1)[1]]
        p.invalidate()
        try:
            chance = self._chance(p, "quick")
        finally:
            p.weapon = held
            p.invalidate()
        return replace(option, chance=chance)

    def leave_target(self, p: Participant) -> tuple[int, list[tuple[str, int]]]:
        """Quick's getaway: a Move roll with //Athletics or //Acrobatics (docs/rules.md §6), and its modifiers."""
        target, mods = skill_target(p.character, "Move", ("Athletics", "Acrobatics"))
        return target, [(m.name, m.value) for m in mods]

    def quick_options(self, p: Participant) -> list[Option]:
        """Quick's extra actions for ``p`` as things stand (the minds read them to judge Quick)."""
        ctype = self.ctype
        items = p.character.items
        # a Move roll to get away needs someone who could catch you: from a lock or an archive one walks away
        # (the exit options, no roll), and a lock "catching" the one who failed it read as nonsense
        # made when first asked (most conflicts never are), not in __init__: one more attribute there made the
        # engine 6 % slower (0.94, 9 interleaved blocks of benchmarks/history.py), most likely by taking the
        # instances' dicts past the keys CPython shares between instances of a class
        known = self.__dict__.setdefault("_pursued", {})
        pursued = known.get(p.side)
        if pursued is None:  # fixed for the fight: who is an obstacle does not change
            # (one who gives chase or keeps watch has nobody to get away from: a tracker was offered "Try to get
            # away", and told as fleeing when the roll came off: a review)
            pursued = known[p.side] = ctype.flight and any(
                not o.is_obstacle for o in self.participants if o.side != p.side) and not self._hunts(p)
        key = (pursued, ctype.physical, ctype.social, p.weapon.key if p.weapon is not None else None, *items)
        got = _QUICK.get(key)
        if got is None:  # all it reads (the rules' weapons are the process's): made once for each
            if len(_QUICK) >= 1024:
                _QUICK.clear()
            got = _QUICK[key] = tuple(self._quick_options(p, pursued))
        return list(got)

    def _quick_options(self, p: Participant, pursued: bool) -> list[Option]:
        options = [Option("leave", f"Try to {self._get_away} (a Move roll)")] if pursued else []
        if self.ctype.physical:
            for key, weapon in rules().weapons.items():
                if (p.weapon is None or weapon.key != p.weapon.key) and weapon.name in p.character.items:
                    options.append(Option(f"weapon:{key}", f"Switch to {weapon.name}", str(weapon.damage)))
        for item in p.character.items:
            if item not in rules_weapon_names():
                options.append(Option(f"item:{item}", f"Use {item}"))
        # Getting ready is always on offer: a fighter who could run need not (the exact odds of
        # keeping Quick assume one who stays, and the minds weigh staying against leaving).
        options.append(Option("ready", "Catch your breath and get ready"))
        return options

    # -- rolls -------------------------------------------------------------------
    def lens_target(self, p: Participant, lens_key: str = "none", secondary: str | None = None,
                    extra: Sequence[tuple[str, int]] = (), *, parts: bool = True) -> tuple[int, list[tuple[str, int]]]:
        """What ``p`` rolls against this round with ``lens_key``, and every modifier in it.

        The one place a conflict roll's target is made: the Lens menu, the
        odds advice and the roll itself all call it, so the chance a person
        is shown is the number the dice meet. The modifiers are everything
        added to the bare skill (see :meth:`lens_skill`): the Focus, hurt,
        armour, ``extra`` (Clever's edge), the standing bonus (an NPC's
        disposition), the Lens's shift, last round's carried effect and an
        opposing shield. ``secondary`` is Flamboyant's skill; without one,
        the best skill Flamboyant could show off with. With ``parts`` False
        (for a caller that wants only the number, often) the skill's own
        modifiers are in the target but not in the list.
        """
        return self._lens_target(p, lens_key, secondary, extra, parts)

    def lens_skill(self, p: Participant, lens_key: str = "none", secondary: str | None = None) -> str:
        """The name of the skill :meth:`lens_target` starts from (Cunning for Covert, and so on)."""
        rolled = self._rolled_skill(p, LENS_TABLE[lens_key], secondary)
        return rolled if rolled else p.skill_called(self.ctype)

    def _rolled_skill(self, p: Participant, lens: Lens, secondary: str | None) -> str | None:
        """The skill a Lens rolls instead of the conflict's, or None for the conflict's own."""
        if p.char is None or not lens.rolls:
            return None
        if lens.rolls != "secondary":
            return lens.rolls
        if secondary is None:
            others = self.flamboyant_skills(p)
            return others[0] if others else None
        return secondary

    def lens_hint(self, p: Participant, key: str) -> str:
        """The Lens menu's line for ``p`` in this conflict: worded by what the fiction allows (docs/rulings.md,
        "Flamboyant by the fiction"): the skills a flashy move fits here, Covert's Cunning where Cunning is
        already the skill, and a side Pool only where it is another Pool and a foe can take a blow to it."""
        lens = LENS_TABLE[key]
        last = self._last_round()  # nothing carries into a next round: a sharp GM says so (a new player's run)
        if lens.follow_up and last:
            return "no damage now, and its edge would come next round: this is the last"
        if not lens.rolls:
            return lens.hint
        if lens.rolls == "secondary":
            skills = flamboyant_skills(p)
            parts = [f"a flashy move fits {', '.join(skills)}" if skills else "roll another skill"]
        elif lens.rolls == p.skill:
            parts = [f"here {lens.rolls} is not a trick but the skill"]
        else:
            parts = [f"roll {lens.rolls}"]
        side = lens.side_pool
        aside = side is not None and side not in self.ctype.pools and any(o.takes_side_blows(side)
                                                                            for o in self.opponents(p))
        parts.append(f"hit the Pool or {side}" if aside else "hit the Pool")
        if lens.penalty_if_not_won and not last:
            # both sides of it: "-20 % next round unless won" read as one's own penalty, and a win that put it on the
            # foe came as a surprise (a new player's run)
            parts.append(both_sides(lens.penalty_on_hit, lens.penalty_if_not_won) if lens.penalty_on_hit
                         else f"{lens.penalty_if_not_won} % next round unless won")
        return "; ".join(parts)

    def flamboyant_skills(self, p: Participant) -> list[str]:
        """The skills ``p`` may show off with here, best first, a fitting Focus counted
        (:func:`~solo.rules.participants.flamboyant_skills`)."""
        return flamboyant_skills(p)

    def _lens_target(self, p: Participant, lens_key: str, secondary: str | None,
                     extra: Sequence[tuple[str, int]], detail: bool) -> tuple[int, list[tuple[str, int]]]:
        """:meth:`lens_target`; with ``detail`` False the skill's own modifiers (Focus, hurt, armour)
        are summed into the target but left out of the list, which is all the dice need."""
        lens = LENS_TABLE[lens_key]
        rolled = self._rolled_skill(p, lens, secondary) if lens.rolls else None
        if rolled is not None:  # Covert's Cunning, Flamboyant's skill, with a fitting Focus (docs/rules.md §6)
            if detail:
                base, skill_mods = p.rolled_target(lens, rolled)
                mods = [(m.name, m.value) for m in skill_mods]
                base -= sum(v for _, v in mods)
            else:
                base, mods = p.rolled_value(lens, rolled), []
        elif detail:
            base, mods = p.base_parts()
        else:
            base, mods = (p._base if p._base is not None else p.base_target()), []
        mods.extend(extra)
        named = p.bonus_parts
        if named:
            mods.extend(named)  # a +20 assist and a -20 disposition both named, though they cancel
        unnamed = p.bonus - sum(v for _, v in named) if named else p.bonus  # a bonus set without a reason
        if unnamed:
            mods.append(("situation", unnamed))
        if lens.skill_shift:
            mods.append((lens.name, lens.skill_shift))
        if p.carry:
            mods.append(("from last round", p.carry))
        if self._shields:
            shield = p.opposing_shield(self.opponents(p), True)
            if shield is not None:
                mods.append((shield.name, shield.penalty))
        return base + sum(v for _, v in mods), mods

    def _enter_rolling(self) -> None:
        below = self._below
        rolls = self.rolls
        decl = self.decl
        # no shield in the conflict and no one to show the parts to: a plain declaration rolls the base target
        plain_target = self._plain_rolls
        sink = self.sink
        for p in self.order:
            if p.status != ACTIVE:
                continue
            pid = p.id
            d = decl.get(pid)
            if d is None:
                d = decl[pid] = _PLAIN
            if d is _PLAIN and plain_target and not p.carry and not p.bonus:
                target = p._base if p._base is not None else p.base_target()
                mods: Sequence[tuple[str, int]] = ()
            else:
                target, mods = self._lens_target(p, d.lens, d.secondary, d.modifiers, self._detail)
            face = below(100) + 1  # a d100; judge() inlined: this loop is the hottest in auto-play
            result = CheckResult(target, face, face != 100 and face <= target, face == 100 or face % 11 == 0)
            rolls[pid] = result
            if sink is not None:
                self._emit_roll(p, d, result, mods)
        if self._detail:
            self._emit("round_rolled", rolls={k: r.roll for k, r in rolls.items()})
        if self._lucky:
            for p in self.order:
                if p.luck_allowed and p.decider is not None and p.id in rolls:
                    self._offer_flip(p)

    def _run_plain(self) -> ConflictResult:
        """:meth:`run` for a plain conflict: the phases of :data:`FLOW` fused into one loop over the rounds.

        Nobody decides, so every declaration is the plain roll (``_PLAIN``) and no round leaves
        a Lens effect (``round_effects`` is read only for deciders, as in :meth:`_enter_resolving`);
        nobody watches, so no event is made. The rules go through the same functions as the
        phases: the order by :meth:`_order_two` (:meth:`_initiative` of two), each target as
        :meth:`_enter_rolling` makes it (made again only after a blow that can move it), the
        d100s as ``Random._randbelow(100)`` draws them (:data:`~solo.rules.dice.D100_BITS`: the
        same numbers, one call fewer a die), the winner as in :meth:`_enter_resolving`, the blow by
        :meth:`_blow_parts`, :func:`blow_effect` and :func:`blow_amount`, a Pool at zero by
        :meth:`_at_zero`, the end by :meth:`_enter_ended`. tests/test_conflict_plain.py plays
        thousands of seeded conflicts both ways and requires the same results.
        """
        x, y = self.participants
        for p in (x, y):
            p.start_pool = p.pool.current
        below = self._below
        rng = self.rng
        bits = rng.getrandbits  # a d100 below: _randbelow(100) written out (see D100_BITS)
        plain = PLAIN.key
        last = self.round_limit or 0  # the round after which it stops (0: no limit)
        rounds = self.round
        label = self.ctype.pool_label
        struck = blow_effect(PLAIN.key)  # what a plain blow leaves on the side it struck (nothing, today)
        tx = ty = None  # each one's target, made again after anything that can move it
        bx = by = None  # the parts of each one's blow on the other
        self.decl = {x.id: _PLAIN, y.id: _PLAIN}
        w = first = second = None
        while True:
            rounds += 1
            if x.status != ACTIVE or y.status != ACTIVE:  # one side has nobody left (FLOW's side_gone)
                self.round = rounds
                self.order = self._initiative()
                break
            first, second = self._order_two(x, y)
            # a plain roll with no carry or bonus rolls the base target, as in _enter_rolling
            if tx is None:
                tx = x.base_target() if not (x.carry or x.bonus) else self._lens_target(x, plain, None, (), False)[0]
            if ty is None:
                ty = y.base_target() if not (y.carry or y.bonus) else self._lens_target(y, plain, None, (), False)[0]
            t1, t2 = (tx, ty) if first is x else (ty, tx)
            f1 = bits(D100_BITS)  # a d100 each, in the order of initiative: _randbelow(100) + 1
            while f1 >= 100:
                f1 = bits(D100_BITS)
            f1 += 1
            f2 = bits(D100_BITS)
            while f2 >= 100:
                f2 = bits(D100_BITS)
            f2 += 1
            s1 = f1 != 100 and f1 <= t1  # judge(): 100 always fails
            s2 = f2 != 100 and f2 <= t2
            # the highest success wins the round; equal successes tie; two failures: nobody wins
            w = first if s1 and (not s2 or f1 > f2) else second if s2 and (not s1 or f2 > f1) else None
            if w is not None:  # a plain roll that wins strikes (strikes(PLAIN))
                if w is x:
                    hit, parts = y, bx or self._blow_parts(x, y)
                    bx = parts
                else:
                    hit, parts = x, by or self._blow_parts(y, x)
                    by = parts
                dice, bonus, armour = parts
                amount = blow_amount(dice.total(rng, below), bonus, armour, PLAIN)
                pool = hit.pool
                before = pool.current
                pool.current -= amount
                if pool.current < 0 <= before:
                    hit.invalidate()  # the below-zero penalty may now apply
                if pool.current <= 0:
                    self._at_zero(hit, pool, label)
                if struck:
                    hit.carry += struck
                if struck or pool.current <= 0:  # its target may have moved (hurt, pushing, carry)
                    if hit is x:
                        tx = None
                    else:
                        ty = None
            if self._in_a <= 0 or self._in_b <= 0 or rounds == last:  # is_over
                self.round, self.order, self.winner = rounds, [first, second], w
                self.tied = s1 and s2 and f1 == f2
                break
        self.phase = ENDED
        self._enter_ended()
        assert self.result is not None
        return self.result

    def _blow_parts(self, w: Participant, target: Participant) -> tuple[DiceExpr, int, int]:
        """What ``w``'s blows on ``target``'s conflict Pool are made of: the dice, the bonus, the armour."""
        physical = self.ctype.physical
        return w.damage_dice(physical), w.damage_bonus(physical), target.armour_against(w, self.ctype)

    def _announced(self, p: Participant, shown: Chance | None, skill: str, option: str, target: int,
                   mods: Sequence[tuple[str, int]]) -> Chance | None:
        """The chance that announces a roll: the one ``p`` was shown, or, should the target have moved
        since (a shielded opponent left, a blow hurt), a new one shown now, before the dice fall."""
        if shown is None or not self._detail or shown.same_roll(target, mods):
            return shown
        chance = Chance.of(self._next_id(), p.id, skill, target, mods)
        self._emit("chance", **chance.to_dict(), question=None, option=option, changed=True)
        return chance

    def _emit_roll(self, p: Participant, d: Declaration, result: CheckResult, mods: Sequence[tuple[str, int]]) -> None:
        """The ``roll`` event: the target and its parts, the face, and the chance it was announced by.

        Should the target no longer be the one shown (a shielded opponent left
        after ``p`` declared), the new chance is shown first, so what the
        player last saw is always what is rolled.
        """
        target = result.target
        if not self._detail:  # a sink that only counts: the roll without its parts
            self._emit("roll", actor=p.id, target=target, roll=result.roll, success=result.success,
                       exceptional=result.exceptional, lens=d.lens, modifiers=mods)
            return
        skill = self.lens_skill(p, d.lens, d.secondary)
        chance = self._announced(p, d.chance, skill, d.lens, target, mods)
        physical = self.ctype.physical
        weapon = _weapon_name(p, physical)
        self._emit("roll", actor=p.id, skill=skill,
                   base=target - sum(v for _, v in mods), target=target, modifiers=[list(m) for m in mods],
                   roll=result.roll, face=result.roll, success=result.success, exceptional=result.exceptional,
                   lens=d.lens, chance_id=chance.id if chance is not None else None,
                   strikes_with=weapon, damage=blow_dice(p, physical))

    def _offer_flip(self, p: Participant) -> None:
        """Offer Luck when flipping would turn a lost round into a won or tied one."""
        if p.character.luck <= self.luck_floor:
            return
        result = self.rolls[p.id]
        best_other = max((r.roll or 0 for k, r in self.rolls.items()
                          if r.success and self.by_id[k].side != p.side), default=0)
        best_ally = max((r.roll or 0 for k, r in self.rolls.items()
                         if r.success and k != p.id and self.by_id[k].side == p.side), default=0)
        flipped = flip_that_helps(result, best_other=best_other, best_ally=best_ally)
        if flipped is None or result.roll is None or flipped.roll is None:  # conflict rolls are never automatic
            return
        if flipped.roll > best_other and debt_due(p.character):
            return  # the won round would go straight to repaying borrowed Luck
        effect = "win the round" if flipped.roll > best_other else "tie it (a stalemate)"
        left = luck_left(p.character.luck)
        answer = self._ask(p, LUCK_FLIP,
                           f"Spend a Luck Point to flip {result.roll:02d} into {flipped.roll:02d} and {effect}? "
                           f"You would have {left} left.",
                           [Option("yes", f"Flip to {flipped.roll:02d}", f"{left} left"),
                            Option("no", "Keep the roll", f"Luck stays {p.character.luck}")],
                           roll=result.roll, flipped=flipped.roll)
        if answer == "yes":
            spend(p.character, "flip", negative_luck=self.negative_luck)
            self.rolls[p.id] = flipped
            if self.sink is not None:
                self._emit("luck", actor=p.id, use="flip", before=result.roll, after=flipped.roll,
                           success=flipped.success, luck=p.character.luck)

    # -- resolution ------------------------------------------------------------------
    def _enter_resolving(self) -> None:
        rolls = self.rolls
        order = self.order
        while True:
            best = -1
            winners: list[Participant] = []
            for p in order:
                r = rolls.get(p.id)
                if r is None or not r.success:
                    continue
                roll = r.roll or 0  # conflict rolls are never automatic
                if roll > best:
                    best, winners = roll, [p]
                elif roll == best:
                    winners.append(p)
            if not (self._owing and len(winners) == 1):
                break
            top = winners[0]
            if top.char is None or not debt_due(top.char):
                break
            rolls[top.id] = self._repay(top, rolls[top.id])  # the round goes to the next best success, if any
        n = len(winners)
        w = self.winner = winners[0] if n == 1 else None
        self.tied = n > 1
        decl = self.decl
        for p in order if self._deciding else ():  # only deciders declare Lenses and carry effects
            d = decl.get(p.id)
            if d is None or (d is _PLAIN and not p.carry):
                continue
            effect = round_effects(d.lens, won=p is w)  # its own Lens's part; a blow adds its part when dealt
            p.carry = effect.carry
            if effect.follow_up:
                p.clever_next = True
        if self.sink is not None:
            damage = self.deals_damage()
            self._emit("round_result", winner=w.id if w else None, side=w.side if w else None,
                       stalemate=w is None, tie=self.tied, both_failed=not winners,
                       # who tied with the best success, and whether all of one side: allies who tie make a
                       # stalemate too (docs/rules.md §5.1), which is no match between the sides to tell
                       tied=[p.id for p in winners] if self.tied else [],
                       allies_tied=self.tied and len({p.side for p in winners}) == 1,
                       successes=sum(1 for r in rolls.values() if r.success),
                       exceptional=bool(w and rolls[w.id].exceptional),
                       # the other side's exceptional successes that lost to a higher one: the higher success
                       # wins all the same (an ally's double is no puzzle: the side won the round)
                       outdone=[k for k, r in rolls.items()
                                if w and self.by_id[k].side != w.side and r.success and r.exceptional],
                       lens=self.decl[w.id].lens if w else None, damage=damage,
                       # the winner strikes one of several: whom is chosen next (strike_target)
                       chooses=bool(w and damage and len(self._targets(w)) > 1),
                       rolls={k: r.roll for k, r in rolls.items()})
            if self._detail and self._deciding:
                self._announce_next_round()

    def _announce_next_round(self) -> None:
        """The effects this round's Lenses leave on the next, said as they arise (docs/rules.md §6); after the
        last round there is no next one to speak of."""
        if self._last_round():
            return
        for p in self.order:
            d = self.decl.get(p.id)
            if d is None or d is _PLAIN or p.status != ACTIVE:
                continue
            lens = LENS_TABLE[d.lens]
            if lens.follow_up and p.clever_next:
                self._emit("next_round", actor=p.id, effect="edge", value=CLEVER_BONUS, lens=d.lens, cause="clever",
                           by=None)
            elif lens.penalty_if_not_won and p.carry:
                # won by another of its own side: the side won, this roll did not (a group's run read "did not win
                # the round" of an exceptional success beside a teammate's higher one)
                w = self.winner
                ally = w.id if w is not None and w is not p and w.side == p.side else None
                self._emit("next_round", actor=p.id, effect="penalty", value=p.carry, lens=d.lens, cause="not_won",
                           by=ally)

    def _repay(self, p: Participant, result: CheckResult) -> CheckResult:
        """Borrowed Luck that is due takes this success: it becomes a failure, one point comes back (§2.8)."""
        char = p.character
        pay_back(char)
        if self.sink is not None:
            self._emit("luck", actor=p.id, use="pay_back", roll=result.roll, luck=char.luck)
        return replace(result, success=False, exceptional=False)

    # -- damage ----------------------------------------------------------------------
    def _targets(self, w: Participant) -> list[Participant]:
        """Whom the round's winner may strike: every foe still in."""
        return [o for o in self.participants if o.side != w.side and o.status == ACTIVE]

    def _enter_damaging(self) -> None:
        w = self.winner
        assert w is not None  # FLOW enters this phase only when the round has a winner
        d = self.decl[w.id]
        side = w.side  # as _targets has it, inline: this runs every round with a winner
        targets = [o for o in self.participants if o.side != side and o.status == ACTIVE]
        if not targets:
            return
        target = targets[0]
        if len(targets) > 1:
            if w.decider is not None:
                options = [Option(t.id, t.name, f"{self.ctype.pool_label} {t.pool.current}/{t.pool.maximum}")
                           for t in targets]
                # asked in the conflict's words: nobody is struck in an argument or a chase (a new player's run:
                # "Bo Lind — Whom do you strike?" at the outlaws' fire)
                ctype = self.ctype
                ask = ("Whom do you strike?" if ctype.physical else "Whom do you press?" if ctype.social
                       else "Whom do you go after?")
                target = self.by_id[self._ask(w, TARGET, ask, options)]
            else:
                target = min(targets, key=lambda t: (t.pool.current, t.id))
            if self.sink is not None:  # the moves of the round are told aimed at the one it strikes
                self._emit("strike_target", actor=w.id, target=target.id)
        pool_name = None  # None: the conflict Pool
        lens = LENS_TABLE[d.lens]
        side_pool = lens.side_pool
        if side_pool is not None:
            if w.decider is not None and target.takes_side_blows(side_pool):
                assert target.char is not None
                answer = self._ask(w, DAMAGE_POOL, "Which Pool do you hit?", [
                    Option("conflict", self.ctype.pool_label, f"{target.pool.current} left"),
                    Option(side_pool, side_pool, f"{target.char.pools[side_pool].current} left")])
                pool_name = None if answer == "conflict" else side_pool
        struck = blow_effect(d.lens)  # round_effects' other part: it stacks with a penalty of its own (§6)
        if struck:
            target.carry += struck
        w.last_foe, target.last_foe = target.id, w.id
        amount, detail = self._damage(w, d, lens, target, pool_name)
        if (amount > 1 and target.luck_allowed and target.decider is not None
                and target.character.luck > self.luck_floor):
            answer = self._ask(target, LUCK_REDUCE,
                               f"{w.name} deals {amount} damage. Spend a Luck Point to take only 1?",
                               [Option("yes", "Take 1 instead", f"leaves {luck_left(target.character.luck)}"),
                                Option("no", f"Take {amount}")], damage=amount)
            if answer == "yes":
                spend(target.character, "reduce_damage", negative_luck=self.negative_luck)
                if self.sink is not None:
                    self._emit("luck", actor=target.id, use="reduce_damage", before=amount, after=1,
                               luck=target.character.luck)
                amount = 1
                detail["reduced"] = True
        pool = target.pool if pool_name is None else target.character.pools[pool_name]
        before = pool.current
        pool.current -= amount
        if pool.current < 0 <= before:
            target.invalidate()  # the below-zero penalty may now apply
        if self.sink is not None:
            after = shown_pool(pool.current, target.pushing)  # unpushed Pools stop at 0
            # ``may_push``: the one hit may push on below zero (a PC, a Master NPC), so a blow past 0 is not yet said
            # to stop there (the push question may follow)
            self._emit("damage", actor=w.id, target=target.id, amount=amount, pool=pool_name or self.ctype.pool_label,
                       before=before, after=after, maximum=pool.maximum, lens=d.lens,
                       **({"may_push": True} if target.can_push else {}), **detail)
        if pool.current <= 0:
            self._at_zero(target, pool, pool_name or self.ctype.pool_label)
        if struck and self._detail and target.status == ACTIVE and not self._last_round():
            self._emit("next_round", actor=target.id, effect="penalty", value=struck, lens=d.lens,
                       cause="struck", by=w.id)

    def _damage(self, w: Participant, d: Declaration, lens: Lens, target: Participant,
                pool_name: str | None) -> tuple[int, dict[str, Any]]:
        """Damage in the ruled order: dice (twice keep higher), bonus, armour, halving."""
        physical = self.ctype.physical
        dice, bonus, armour = self._blow_parts(w, target)
        if pool_name is not None:  # a blow to POW or CHA passes armour by
            armour = 0
        first = dice.total(self.rng, self._below)
        second = None
        rolled = first
        if lens.damage is Damage.TWICE_KEEP_HIGHER or d.clever_choice == "damage":
            second = dice.total(self.rng, self._below)
            if second > rolled:
                rolled = second
        amount = blow_amount(rolled, bonus, armour, lens)
        halved = lens.damage is Damage.HALVED
        if self.sink is None:
            return amount, {}
        return amount, {"dice": str(dice), "first": first, "second": second, "rolled": rolled, "bonus": bonus,
                        "armour": armour, "halved": halved, "reduced": False,
                        "weapon": w.weapon.name if (physical and w.weapon) else None}

    def _at_zero(self, p: Participant, pool: Pool, pool_label: str) -> None:
        """A Pool at or below zero: comae for a pusher at full negative, else push, Luck or out.

        Ruling: a Pool that is not being pushed stops at zero. The overflow of
        the blow counts only if the character chooses to push, and pushing is
        not offered when the overflow alone would reach comae.
        """
        if p.pushing:
            if pool.current <= -pool.maximum:
                pool.current = -pool.maximum
                self._leave(p, COMAE)
                if self.sink is not None:
                    self._emit("comae", actor=p.id, pool=pool_label, decided=self.side_gone())
            return
        options = []
        if p.decider is not None:
            if p.can_push and pool.current > -pool.maximum:
                options.append(Option("push", f"Push on at {pool.current}", push_cost(pool.maximum, death=self.death)))
            if p.luck_allowed and p.character.luck > self.luck_floor:
                options.append(Option("refresh", "Spend a Luck Point: back to 1",
                                      f"leaves {luck_left(p.character.luck)}"))
        answer = OUT
        if options:
            options.append(Option(OUT, "Go down", "out of this conflict"))
            answer = self._ask(p, PUSH, f"your {pool_label} is spent: what now?", options,
                               pool=pool.current, maximum=pool.maximum)
        if answer == "push":
            p.pushing = True
            p.invalidate()
            if self.sink is not None:
                self._emit("push", actor=p.id, pool=pool_label, value=pool.current)
        elif answer == "refresh":
            before = pool.current
            refreshed(p.character, pool, negative_luck=self.negative_luck)
            p.invalidate()
            if self.sink is not None:
                self._emit("luck", actor=p.id, use="refreshed", before=before, after=1, luck=p.character.luck)
        else:
            pool.current = 0
            self._leave(p, OUT)
            if self.sink is not None:
                self._emit("out", actor=p.id, pool=pool_label, value=0, decided=self.side_gone())

    # -- end of round and end of conflict -------------------------------------------
    def _enter_checking(self) -> None:
        """The end of a round: Quick's extra actions resolve after the damage.

        Once one side has nobody left in, the conflict is decided (docs/rules.md §5.1):
        the actions still to come are not taken, so a Quick leave never turns a win
        into a stalemate.
        """
        for p in self.order if self._deciding else ():  # only deciders declare Quick
            if self._in_a <= 0 or self._in_b <= 0:
                break
            d = self.decl.get(p.id)
            if d is None or d is _PLAIN or d.quick_action is None or p.status != ACTIVE:
                continue
            if d.quick_action == "leave":
                target, mods = self.leave_target(p)
                chance = self._announced(p, d.leave_chance, "Move", "leave", target, mods)
                first = judge(self._below(100) + 1, target)
                r = self._offer_leave_flip(p, first)
                if r.success and debt_due(p.character):
                    r = self._repay(p, r)
                if self.sink is not None:
                    self._emit("leave_attempt", actor=p.id, target=target, roll=r.roll, success=r.success,
                               flipped=r.flipped, skill="Move", base=target - sum(v for _, v in mods),
                               modifiers=[list(m) for m in mods], face=first.roll, first_success=first.success,
                               chance_id=chance.id if chance is not None else None, **self._social)
                if r.success:
                    self._leave(p, FLED)
                    if self.sink is not None:
                        self._emit("exit", actor=p.id, how=FLED, decided=self.side_gone(),
                                   way=exit_way(self.ctype, FLED, static=self._faces_things(p)), **self._social)
            elif self.sink is not None:
                self._emit("extra_action", actor=p.id, action=d.quick_action)

    def _offer_leave_flip(self, p: Participant, result: CheckResult) -> CheckResult:
        """Luck on Quick's leave roll (docs/rules.md §2.8): offered when the flip turns a failure into a getaway."""
        if not (p.luck_allowed and p.decider is not None) or p.character.luck <= self.luck_floor:
            return result
        flipped = flip_that_helps(result)
        if flipped is None or result.roll is None or flipped.roll is None or debt_due(p.character):
            return result  # while borrowed Luck is due, the getaway would go straight to repaying it
        left = luck_left(p.character.luck)
        answer = self._ask(p, LUCK_FLIP,
                           f"Spend a Luck Point to flip {result.roll:02d} into {flipped.roll:02d} and "
                           f"{self._get_away}? You would have {left} left.",
                           [Option("yes", f"Flip to {flipped.roll:02d}", f"{left} left"),
                            Option("no", "Keep the roll", f"Luck stays {p.character.luck}")],
                           roll=result.roll, flipped=flipped.roll)
        if answer != "yes":
            return result
        spend(p.character, "flip", negative_luck=self.negative_luck)
        if self.sink is not None:
            self._emit("luck", actor=p.id, use="flip", before=result.roll, after=flipped.roll,
                       success=flipped.success, luck=p.character.luck)
        return flipped

    def _enter_ended(self) -> None:
        outcome = self._outcome()
        lost = {}
        settled: dict[str, dict[str, list[int]]] = {}
        for p in self.participants:
            lost[p.id] = p.start_pool - p.pool.current
            if p.char is not None and len(p.pool_sources) > 1:
                fell = settle_sources(p.char, p.pool_sources, p.pool.current)
                if p.is_pc and any(fell.values()):  # where its two Pools now stand, for the player to be told (a
                    # new player read "loses 6 BODY/POW: 9 left of 15" as 6 points, and found 14 gone from the sheet);
                    # not of Pools that fell by nothing ("fell for both Pools at once: BODY 12/12", a sneak given up)
                    settled[p.id] = {n: [p.char.pools[n].current, p.char.pools[n].maximum] for n in p.pool_sources}
        self.result = ConflictResult(outcome, self.round, {p.id: p.status for p in self.participants}, lost)
        if self.sink is not None:
            self._emit("conflict_end", outcome=outcome, rounds=self.round,
                       statuses=dict(self.result.statuses), pool_lost=lost, **self._social,
                       **({"settled": settled} if settled else {}))

    def _outcome(self) -> str:
        a_in, b_in = self._in_a > 0, self._in_b > 0
        if a_in == b_in:
            return STALEMATE
        finished = self.side("b") if a_in else self.side("a")
        return ending_of({p.status for p in finished}, not a_in)


_PLAIN = Declaration()


#: The object pronoun of each subject pronoun a participant has.
_OBJECT_PRONOUNS = {"he": "him", "she": "her", "they": "them", "it": "it"}


def exit_name(ctype: ConflictType, exit: str, *, hunts: bool = False, static: bool = False) -> str:
    """A way out of a conflict (FLEE, SURRENDER) as its menu names it, and ``solo duel --explain`` after it: against
    a lock or a cliff there is nobody to flee from, one walks away from it (the same exit), nor does anyone flee an
    argument, one walks out of it, as the NPCs do (a read-again's tutorial showed "Flee" under "if she never gives
    up or walks away"), nor does one who gives chase or keeps watch (``hunts``) flee what it hunts ("8. Flee" from a
    trail of footprints: a player's run); one surrenders a fight and gives up anything else. ``static``: the foes
    are all things (:meth:`Conflict._faces_things`), where the type is not a static one."""
    return EXIT_WORDS[exit_key(exit, static=ctype.static or static, social=ctype.social, physical=ctype.physical,
                               hunts=hunts)][0]


def exit_key(exit: str, *, static: bool, social: bool, physical: bool, hunts: bool = False) -> str:
    """The way out (a key of :data:`EXIT_WORDS`) that ``exit`` is in a conflict of this kind: a ConflictType's flags,
    or those ``conflict_start``'s frame carries (a view has no ConflictType), and whether the one leaving hunts."""
    if exit == FLEE:
        return "walk_away" if static or social or hunts else "flee"
    return "surrender" if physical and not static else "give_up"  # nobody takes a surrender at a barricade


def exit_way(ctype: ConflictType, how: str, *, hunts: bool = False, static: bool = False) -> str:
    """The way out of one who left by ``how`` (the status: FLED or SURRENDERED), as the ``exit`` event names it;
    ``static``: the foes are all things, where the type is not a static one."""
    return exit_key(FLEE if how == FLED else SURRENDER, static=ctype.static or static, social=ctype.social,
                    physical=ctype.physical, hunts=hunts)


#: Each way out: as its menu names it, after one name, after several ("the dockers walk away"), and counted after.
#: The ``exit`` event carries its key (``way``); the menu, the screen, the journal and ``solo duel`` say it from here,
#: so that what a menu offered is what is told ("8. Walk away", then "Edvin Lie walks away"; "surrendered" in a
#: sneak's table stood under ``--explain``'s "give up": a review).
EXIT_WORDS = {"flee": ("Flee", "flees", "flee", "fled"),
              "walk_away": ("Walk away", "walks away", "walk away", "walked away"),
              "surrender": ("Surrender", "surrenders", "surrender", "surrendered"),
              "give_up": ("Give up", "gives up", "give up", "gave up")}


def blow_dice(p: Participant, physical: bool) -> str:
    """``p``'s blow as the tables show it: its dice and what its #Gear adds ("1d6+3"), as every blow's line adds
    it ("1d6: 4, +3 gear"; a player's run read "Axe 1d6" on the table beside it)."""
    bonus = p.damage_bonus(physical)
    return f"{p.damage_dice(physical)}{f'+{bonus}' if bonus else ''}"


def _weapon_name(p: Participant, physical: bool) -> str | None:
    """What ``p`` strikes with, as the tables show it: its weapon; without one, what its fiction calls its own
    ("Teeth": a dog's table said "Unarmed 1d3" beside a scene of its teeth, a player's run), else "Unarmed"; None
    outside a fight."""
    if not physical or p.char is None or p.damage is not None:
        return None
    if p.weapon is not None and p.weapon.key != "unarmed":  # a weapon in hand (one drawn with Quick too), or a
        return p.weapon.name  # trained hand's (Martial arts 1d4, whose Focus is Unarmed too: a review)
    called = fiction_of(p).weapon_called  # its own: teeth, iron hands
    return called[:1].upper() + called[1:] if called else UNARMED_FOCUS



#: The phases of a conflict: phase -> (next phase, condition, work done on entering it), first match wins.
FLOW: dict[str, tuple[tuple[str, Callable[[Conflict], bool] | None, Callable[[Conflict], None]], ...]] = {
    SETUP: ((DECLARING, None, Conflict._enter_declaring),),
    DECLARING: ((ENDED, Conflict.side_gone, Conflict._enter_ended),
                (ROLLING, None, Conflict._enter_rolling)),
    ROLLING: ((RESOLVING, None, Conflict._enter_resolving),),
    RESOLVING: ((DAMAGING, Conflict.deals_damage, Conflict._enter_damaging),
                (CHECKING, None, Conflict._enter_checking)),
    DAMAGING: ((CHECKING, None, Conflict._enter_checking),),
    CHECKING: ((ENDED, Conflict.is_over, Conflict._enter_ended),
               (DECLARING, None, Conflict._enter_declaring)),
    ENDED: (),  # an ended conflict stays ended
}


def _skill_option(skill: str, value: int) -> Option:
    """Flamboyant's menu line for a skill, as a bot or a mind reads it (the skill and its value, no chance)."""
    if len(_SKILL_OPTIONS) >= 4096:
        _SKILL_OPTIONS.clear()
    got = _SKILL_OPTIONS[skill, value] = Option(skill, skill, f"{value} %")
    return got


_SKILL_OPTIONS: dict[tuple[str, int], Option] = {}
#: Exit options by (flight open to it, static, physical, social, a surrender heard, hunts); Quick's extra actions
#: by all they read
_EXITS: dict[tuple[bool, bool, bool, bool, bool, bool], tuple[Option, ...]] = {}
_QUICK: dict[tuple, tuple[Option, ...]] = {}


def rules_weapon_names() -> set[str]:
    return {w.name for w in rules().weapons.values()}

#: The Lens menu as a bot or a mind reads it (names only, no hint, no odds, no chance), without and with
#: Flamboyant: made once, as :meth:`Conflict._declare` would make it each time (the options are frozen).
_BARE_LENSES = {with_flourish: tuple(Option(key, lens.name) for key, lens in LENS_TABLE.items()
                                     if lens.rolls != "secondary" or with_flourish)
                for with_flourish in (False, True)}
