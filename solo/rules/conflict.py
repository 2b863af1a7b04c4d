"""The Extended Conflict engine (RULES.md §5 and §6).

A conflict is a state machine built with ``transitions``: set-up, then rounds
of declarations (in initiative order), rolls, resolution, damage and an end
check, until one side is out or the round limit is reached. Every choice is a
:class:`~solo.decisions.Question` put to the participant's decider, every
step is an :class:`~solo.events.Event`, and every draw comes from the
conflict's generator, so the terminal, the NPC minds and the simulator all
run exactly this code.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from transitions import Machine

from ..decisions import Option, Question
from ..events import Event, Sink
from .character import Pool, skill_target
from .conflict_types import ConflictType
from .dice import d100
from .luck import NEGATIVE_LUCK_FLOOR, refreshed, spend
from .participants import ACTIVE, Participant, settle_combined
from .rolls import CheckResult, flip_that_helps, judge
from .rulebook import rules

LENSES = ("none", "aggressive", "cautious", "clever", "covert", "flamboyant", "quick")
LENS_SKILL = {"aggressive": -20, "cautious": 20, "quick": -20}
NEXT_ROUND_PENALTY = -20
CLEVER_BONUS = 20
OUTCOMES = ("won", "lost", "fled", "surrendered", "opponent_fled", "opponent_surrendered", "comae", "stalemate")
MIRROR = {
    "won": "lost", "lost": "won", "fled": "opponent_fled", "opponent_fled": "fled",
    "surrendered": "opponent_surrendered", "opponent_surrendered": "surrendered",
    "comae": "won", "stalemate": "stalemate",
}
LENS_NAMES = {
    "none": "No Lens", "aggressive": "Aggressive", "cautious": "Cautious", "clever": "Clever",
    "covert": "Covert", "flamboyant": "Flamboyant", "quick": "Quick",
}
LENS_HINTS = {
    "none": "a plain roll",
    "aggressive": "-20 %, damage twice, keep the higher",
    "cautious": "+20 %, half damage",
    "clever": "no damage now, an edge next round",
    "covert": "roll Cunning; hit the Pool or POW",
    "flamboyant": "roll another skill; hit the Pool or CHA",
    "quick": "-20 %, plus one extra action",
}

STATES = [
    "setup",
    {"name": "declaring", "on_enter": "_enter_declaring"},
    {"name": "rolling", "on_enter": "_enter_rolling"},
    {"name": "resolving", "on_enter": "_enter_resolving"},
    {"name": "damaging", "on_enter": "_enter_damaging"},
    {"name": "checking", "on_enter": "_enter_checking"},
    {"name": "ended", "on_enter": "_enter_ended"},
]


def _build_machine() -> Machine:
    """One machine for every conflict (``model=None``; conflicts join with ``add_model``).

    Each phase does its work on entering its state; ``advance`` moves on, and
    the named conditions choose between the branches.
    """
    m = Machine(model=None, states=STATES, initial="setup", auto_transitions=False,
                queued=True, send_event=False, model_attribute="phase")
    m.add_transition("advance", "setup", "declaring")
    m.add_transition("advance", "declaring", "ended", conditions="side_gone")
    m.add_transition("advance", "declaring", "rolling")
    m.add_transition("advance", "rolling", "resolving")
    m.add_transition("advance", "resolving", "damaging", conditions="deals_damage")
    m.add_transition("advance", "resolving", "checking")
    m.add_transition("advance", "damaging", "checking")
    m.add_transition("advance", "checking", "ended", conditions="is_over")
    m.add_transition("advance", "checking", "declaring")
    return m


_MACHINE: Machine | None = None
_FLOW: dict[str, list[tuple]] | None = None
_ENTER: dict[str, str] = {st["name"]: st["on_enter"] for st in STATES if isinstance(st, dict)}


def machine() -> Machine:
    global _MACHINE
    if _MACHINE is None:
        _MACHINE = _build_machine()
    return _MACHINE


def flow() -> dict[str, list[tuple]]:
    """The ``advance`` transitions of the machine as a table: state -> [(dest, conditions)].

    :meth:`Conflict.run` walks this table instead of firing the trigger: the
    same states, conditions and callbacks in the same order, without the
    library's dispatch (about 5 µs a trigger, more than a whole round costs).
    A test checks that both drivers play identical conflicts.
    """
    global _FLOW
    if _FLOW is None:
        table: dict[str, list[tuple]] = {}
        for source, transitions in machine().events["advance"].transitions.items():
            rows = []
            for t in transitions:
                if len(t.conditions) > 1 or any(not c.target for c in t.conditions):
                    raise NotImplementedError("the table driver handles one positive condition per transition")
                condition = getattr(Conflict, t.conditions[0].func) if t.conditions else None
                rows.append((t.dest, condition, getattr(Conflict, _ENTER[t.dest])))
            table[source] = rows
        _FLOW = table
    return _FLOW


@dataclass
class Declaration:
    lens: str = "none"
    exit: str | None = None  # "flee" or "surrender"
    clever_choice: str | None = None  # "skill" or "damage", the round after Clever
    secondary: str | None = None  # Flamboyant's skill
    quick_action: str | None = None  # "leave", "weapon:<key>", "item:<name>"
    modifiers: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class ConflictResult:
    outcome: str  # from side "a"'s point of view
    rounds: int
    statuses: dict[str, str]
    pool_lost: dict[str, int]

    def for_side(self, side: str) -> str:
        return self.outcome if side == "a" else MIRROR[self.outcome]

    def to_dict(self) -> dict:
        return {"outcome": self.outcome, "rounds": self.rounds, "statuses": dict(self.statuses),
                "pool_lost": dict(self.pool_lost)}


class Conflict:
    """One Extended Conflict between side "a" (who started it) and side "b".

    Drive it with :meth:`run` (to the end) or :meth:`step` (one phase at a
    time through the ``transitions`` machine, for a view that pauses).
    """

    def __init__(
        self,
        ctype: ConflictType,
        participants: list[Participant],
        rng: random.Random,
        *,
        sink: Sink | None = None,
        round_limit: int | None = None,
        negative_luck: bool = False,
        advisor=None,
    ):
        by_id: dict[str, Participant] = {}
        in_a = in_b = 0
        shields = lucky = deciding = False
        for p in participants:  # one pass: the simulator builds many small conflicts
            if p.id in by_id:
                raise ValueError(f"participant ids must be unique: {[q.id for q in participants]}")
            by_id[p.id] = p
            if p.side == "a":
                in_a += p.status == ACTIVE
            elif p.side == "b":
                in_b += p.status == ACTIVE
            else:
                raise ValueError(f"a participant's side is 'a' or 'b', not {p.side!r}")
            shields = shields or p.shield is not None
            if p.decider is not None:
                deciding = True
                lucky = lucky or p.luck_allowed
        if not any(p.side == "a" for p in participants) or not any(p.side == "b" for p in participants):
            raise ValueError("a conflict needs participants on both sides 'a' and 'b'")
        if round_limit is not None and round_limit < 1:
            raise ValueError("round_limit must be at least 1")
        self.ctype = ctype
        self.participants = participants
        self.by_id = by_id
        self.rng = rng
        self.sink = sink
        self.round_limit = round_limit
        self.negative_luck = negative_luck
        self.luck_floor = NEGATIVE_LUCK_FLOOR if negative_luck else 0
        self.advisor = advisor  # callable(conflict, participant) -> {lens: detail}, for people
        self.round = 0
        self.order: list[Participant] = []
        self.decl: dict[str, Declaration] = {}
        self.rolls: dict[str, CheckResult] = {}
        self.winner: Participant | None = None
        self.tied = False
        self.result: ConflictResult | None = None
        self.phase = "setup"
        self._in_machine = False
        self._shields = ctype.physical and shields
        self._lucky = lucky
        self._deciding = deciding
        self._in_a, self._in_b = in_a, in_b

    # -- public driving API --------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == "ended"

    def step(self) -> None:
        """Advance one phase through the ``transitions`` machine."""
        m = machine()
        if not self._in_machine:
            m.add_model(self, initial=self.phase)
            self._in_machine = True
        if self.phase != "ended":
            self.advance()
        if self.phase == "ended":
            m.remove_model(self)
            self._in_machine = False

    def run(self) -> ConflictResult:
        """Play the conflict to its end (walking the machine's table) and return the result."""
        table = flow()
        phase = self.phase
        while phase != "ended":
            for dest, condition, enter in table[phase]:
                if condition is None or condition(self):
                    break
            self.phase = phase = dest
            enter(self)
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

    # -- conditions (named predicates for the machine) -------------------------
    def side_gone(self) -> bool:
        return self._in_a <= 0 or self._in_b <= 0

    def deals_damage(self) -> bool:
        return self.winner is not None and self.decl[self.winner.id].lens != "clever"

    def is_over(self) -> bool:
        return (self._in_a <= 0 or self._in_b <= 0
                or (self.round_limit is not None and self.round >= self.round_limit))

    # -- events and questions ----------------------------------------------------
    def _emit(self, kind: str, /, **data) -> None:
        self.sink(Event(kind, {"round": self.round, **data}))

    def _ask(self, p: Participant, kind: str, prompt: str, options: list[Option], **context) -> str:
        question = Question(kind, prompt, tuple(options), actor=p.name,
                            context={"conflict": self, "participant": p, **context})
        answer = p.decider.decide(question)
        if answer not in question.keys():
            answer = question.resolve(answer)
        return answer

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
        if self.sink is not None:
            self._emit("round_start", order=[p.id for p in order],
                       pools={p.id: p.pool.current for p in self.participants})
        decl = self.decl = {}
        for p in order:
            if p.status != ACTIVE:
                continue
            if p.decider is None:
                decl[p.id] = _PLAIN
                if self.sink is not None:
                    self._emit("declare", actor=p.id, lens="none", clever_choice=None, secondary=None,
                               quick_action=None)
                continue
            if not self._both_sides_in():
                break
            decl[p.id] = d = self._declare(p)
            if d.exit:
                self._leave(p, "fled" if d.exit == "flee" else "surrendered")
                if self.sink is not None:
                    self._emit("exit", actor=p.id, how=p.status)
            elif self.sink is not None:
                self._emit("declare", actor=p.id, lens=d.lens, clever_choice=d.clever_choice,
                           secondary=d.secondary, quick_action=d.quick_action)

    def _announce(self) -> None:
        self._emit(
            "conflict_start", type=self.ctype.key, type_name=self.ctype.name, round_limit=self.round_limit,
            pool_name=self.ctype.pool_label,
            participants=[{"id": p.id, "name": p.name, "side": p.side, "pool": p.pool.current,
                           "pool_max": p.pool.maximum, "target": p.base_target() + p.bonus,
                           "obstacle": p.is_obstacle, "pc": p.is_pc, "lenses": p.uses_lenses,
                           "pronoun": p.pronoun,
                           "weapon": p.weapon.name if p.weapon else None,
                           "armour": p.armour.name if p.armour else None} for p in self.participants],
        )

    def _initiative(self) -> list[Participant]:
        """Falling current Pool; ties: higher skill, then PCs, then a d100 roll-off (RULES.md §5.1)."""
        active = [p for p in self.participants if p.status == ACTIVE]
        if len(active) == 2:  # the common case, decided without building keys (same order as below)
            x, y = active
            px, py = x.pool.current, y.pool.current
            if px != py:
                return [x, y] if px > py else [y, x]
            tx = x._base if x._base is not None else x.base_target()
            ty = y._base if y._base is not None else y.base_target()
            if tx != ty:
                return [x, y] if tx > ty else [y, x]
            if x.is_pc != y.is_pc:
                return [x, y] if x.is_pc else [y, x]
            randint = self.rng.randint
            rx, ry = randint(1, 100), randint(1, 100)
            if self.sink is not None:
                self._emit("initiative_rolloff", rolls={x.id: rx, y.id: ry})
            return [x, y] if rx >= ry else [y, x]
        keyed = [((-p.pool.current, -p.base_target(), 0 if p.is_pc else 1), p) for p in active]
        keyed.sort(key=lambda k: k[0])
        out: list[Participant] = []
        i = 0
        while i < len(keyed):
            j = i
            while j + 1 < len(keyed) and keyed[j + 1][0] == keyed[i][0]:
                j += 1
            group = [k[1] for k in keyed[i:j + 1]]
            if len(group) > 1:
                rolls = {p.id: d100(self.rng) for p in group}
                group.sort(key=lambda p: -rolls[p.id])
                if self.sink is not None:
                    self._emit("initiative_rolloff", rolls=rolls)
            out.extend(group)
            i = j + 1
        return out

    def _exit_options(self, p: Participant) -> list[Option]:
        exits = []
        if self.ctype.flight and not p.is_obstacle:
            exits.append(Option("flee", "Flee", "leave the conflict now, no roll"))
        exits.append(Option("surrender", "Surrender" if self.ctype.physical else "Give up", "yield now, no roll"))
        return exits

    def _declare(self, p: Participant) -> Declaration:
        d = Declaration()
        exits = self._exit_options(p)
        if p.clever_next:
            p.clever_next = False
            options = [Option("skill", f"Use what you saw: +{CLEVER_BONUS} % this round"),
                       Option("damage", "Strike where it hurts: damage rolled twice, keep the higher")] + exits
            answer = self._ask(p, "clever_follow_up", "how do you use what Clever showed you?", options)
            if answer in ("flee", "surrender"):
                d.exit = answer
                return d
            d.clever_choice = answer
            if answer == "skill":
                d.modifiers.append(("Clever", CLEVER_BONUS))
            p.last_lens = "none"
            return d
        if p.uses_lenses:
            advice = self.advisor(self, p) if self.advisor is not None and p.is_pc else {}
            options = [Option(lens, LENS_NAMES[lens], LENS_HINTS[lens] + (f" · {advice[lens]}" if lens in advice else ""))
                       for lens in LENSES]
            prompt = "choose a Lens"
        else:
            options = [Option("none", "Fight on" if self.ctype.physical else "Keep at it")]
            prompt = "fight on, or yield?"
        answer = self._ask(p, "lens", prompt, options + exits, earlier={k: v.lens for k, v in self.decl.items()})
        if answer in ("flee", "surrender"):
            d.exit = answer
            return d
        d.lens = answer
        p.last_lens = answer
        if answer == "flamboyant":
            skills = sorted((s for s in p.char.skills if s != p.skill), key=lambda s: -p.char.skills[s])
            d.secondary = self._ask(p, "flamboyant_skill", "Which skill do you show off with?",
                                    [Option(s, s, f"{p.char.skills[s]} %") for s in skills])
        elif answer == "quick":
            d.quick_action = self._ask(p, "quick_action", "What is your extra action?", self._quick_options(p))
            if d.quick_action.startswith("weapon:"):
                p.weapon = rules().weapons[d.quick_action.split(":", 1)[1]]
                p.char.weapon = p.weapon.key
        return d

    def _quick_options(self, p: Participant) -> list[Option]:
        options = [Option("leave", "Try to get away (a Move roll)")] if self.ctype.flight else []
        if self.ctype.physical:
            for key, weapon in rules().weapons.items():
                if (p.weapon is None or weapon.key != p.weapon.key) and weapon.name in p.char.items:
                    options.append(Option(f"weapon:{key}", f"Switch to {weapon.name}", str(weapon.damage)))
        for item in p.char.items:
            if item not in rules_weapon_names():
                options.append(Option(f"item:{item}", f"Use {item}"))
        if not options:
            options.append(Option("ready", "Catch your breath and get ready"))
        return options

    # -- rolls -------------------------------------------------------------------
    def _target_for(self, p: Participant, d: Declaration) -> tuple[int, list[tuple[str, int]]]:
        if d is _PLAIN and not p.carry and not self._shields and not p.bonus:
            return p.base_target(), []
        mods: list[tuple[str, int]] = list(d.modifiers)
        if p.bonus:
            mods.append((p.bonus_reason or "situation", p.bonus))
        if d.lens in LENS_SKILL:
            mods.append((d.lens.title(), LENS_SKILL[d.lens]))
        if p.carry:
            mods.append(("last round", p.carry))
        if self._shields:
            kind = p.weapon.kind if p.weapon is not None else "melee"
            for o in self.opponents(p):
                if o.shield is not None and kind in o.shield.against:
                    mods.append((o.shield.name, o.shield.penalty))
                    break
        if d.lens == "covert" and p.char is not None:
            base = skill_target(p.char, "Cunning", ())[0]
        elif d.lens == "flamboyant" and p.char is not None and d.secondary:
            base = skill_target(p.char, d.secondary, ())[0]
        else:
            base = p.base_target()
        return base + sum(v for _, v in mods), mods

    def _enter_rolling(self) -> None:
        randint = self.rng.randint
        rolls = self.rolls
        decl = self.decl
        for p in self.order:
            if p.status != ACTIVE:
                continue
            d = decl.get(p.id)
            if d is None:
                d = decl[p.id] = _PLAIN
            if d is _PLAIN and not p.carry and not self._shields and not p.bonus:
                target = p._base if p._base is not None else p.base_target()
                mods = ()
            else:
                target, mods = self._target_for(p, d)
            face = randint(1, 100)  # judge() inlined: this loop is the hottest in auto-play
            result = CheckResult(target, face, face != 100 and face <= target, face == 100 or face % 11 == 0)
            rolls[p.id] = result
            if self.sink is not None:
                self._emit("roll", actor=p.id, target=target, roll=result.roll, success=result.success,
                           exceptional=result.exceptional, lens=d.lens, modifiers=mods)
        if self._lucky:
            for p in self.order:
                if p.luck_allowed and p.decider is not None and p.id in rolls:
                    self._offer_flip(p)

    def _offer_flip(self, p: Participant) -> None:
        """Offer Luck when flipping would turn a lost round into a won or tied one."""
        if p.char.luck <= self.luck_floor:
            return
        result = self.rolls[p.id]
        best_other = max((r.roll for k, r in self.rolls.items()
                          if r.success and self.by_id[k].side != p.side), default=0)
        best_ally = max((r.roll for k, r in self.rolls.items()
                         if r.success and k != p.id and self.by_id[k].side == p.side), default=0)
        flipped = flip_that_helps(result, best_other=best_other, best_ally=best_ally)
        if flipped is None:
            return
        effect = "win the round" if flipped.roll > best_other else "tie it (a stalemate)"
        answer = self._ask(p, "luck_flip", f"Spend a Luck Point to flip {result.roll:02d} into {flipped.roll:02d} and {effect}?",
                           [Option("yes", f"Flip to {flipped.roll:02d}", f"Luck {p.char.luck} left"),
                            Option("no", "Keep the roll")], roll=result.roll, flipped=flipped.roll)
        if answer == "yes":
            spend(p.char, "flip", negative_luck=self.negative_luck)
            self.rolls[p.id] = flipped
            if self.sink is not None:
                self._emit("luck", actor=p.id, use="flip", before=result.roll, after=flipped.roll,
                           success=flipped.success, luck=p.char.luck)

    # -- resolution ------------------------------------------------------------------
    def _enter_resolving(self) -> None:
        best = -1
        winners: list[Participant] = []
        rolls = self.rolls
        for p in self.order:
            r = rolls.get(p.id)
            if r is None or not r.success:
                continue
            if r.roll > best:
                best, winners = r.roll, [p]
            elif r.roll == best:
                winners.append(p)
        w = self.winner = winners[0] if len(winners) == 1 else None
        self.tied = len(winners) > 1
        decl = self.decl
        for p in self.order if self._deciding else ():  # only deciders declare Lenses and carry effects
            d = decl.get(p.id)
            if d is None or (d is _PLAIN and not p.carry):
                continue
            lens = d.lens
            p.carry = 0
            if lens == "clever":
                p.clever_next = True
            elif (lens == "covert" or lens == "flamboyant") and p is not w:
                p.carry = NEXT_ROUND_PENALTY
        if self.sink is not None:
            self._emit("round_result", winner=w.id if w else None, side=w.side if w else None,
                       stalemate=w is None, tie=self.tied, both_failed=not winners,
                       exceptional=bool(w and rolls[w.id].exceptional),
                       lens=self.decl[w.id].lens if w else None,
                       rolls={k: r.roll for k, r in rolls.items()})

    # -- damage ----------------------------------------------------------------------
    def _enter_damaging(self) -> None:
        w = self.winner
        d = self.decl[w.id]
        side = w.side
        targets = [o for o in self.participants if o.side != side and o.status == ACTIVE]
        if not targets:
            return
        target = targets[0]
        if len(targets) > 1:
            if w.decider is not None:
                options = [Option(t.id, t.name, f"{self.ctype.pool_label} {t.pool.current}/{t.pool.maximum}")
                           for t in targets]
                target = self.by_id[self._ask(w, "target", "Whom do you strike?", options)]
            else:
                target = min(targets, key=lambda t: (t.pool.current, t.id))
        pool_name = None  # None: the conflict Pool
        if d is not _PLAIN and (d.lens == "covert" or d.lens == "flamboyant"):
            side_pool = "POW" if d.lens == "covert" else "CHA"
            if w.decider is not None and target.char is not None and side_pool not in target.pool_sources:
                answer = self._ask(w, "damage_pool", "Which Pool do you hit?", [
                    Option("conflict", self.ctype.pool_label, f"{target.pool.current} left"),
                    Option(side_pool, side_pool, f"{target.char.pools[side_pool].current} left")])
                pool_name = None if answer == "conflict" else side_pool
            target.carry += NEXT_ROUND_PENALTY  # stacks with a penalty of its own (RULES.md §6)
        amount, detail = self._damage(w, d, target, pool_name)
        if amount > 1 and target.luck_allowed and target.decider is not None and target.char.luck > self.luck_floor:
            answer = self._ask(target, "luck_reduce",
                               f"{w.name} deals {amount} damage. Spend a Luck Point to take only 1?",
                               [Option("yes", "Take 1 instead", f"Luck {target.char.luck} left"),
                                Option("no", f"Take {amount}")], damage=amount)
            if answer == "yes":
                spend(target.char, "reduce_damage", negative_luck=self.negative_luck)
                if self.sink is not None:
                    self._emit("luck", actor=target.id, use="reduce_damage", before=amount, after=1,
                               luck=target.char.luck)
                amount = 1
                detail["reduced"] = True
        pool = target.pool if pool_name is None else target.char.pools[pool_name]
        before = pool.current
        pool.current -= amount
        if pool.current < 0 <= before:
            target.invalidate()  # the below-zero penalty may now apply
        if self.sink is not None:
            after = pool.current if (target.pushing or pool.current >= 0) else 0  # unpushed Pools stop at 0
            self._emit("damage", actor=w.id, target=target.id, amount=amount, pool=pool_name or self.ctype.pool_label,
                       before=before, after=after, maximum=pool.maximum, lens=d.lens, **detail)
        if pool.current <= 0:
            self._at_zero(target, pool, pool_name or self.ctype.pool_label)

    def _damage(self, w: Participant, d: Declaration, target: Participant, pool_name) -> tuple[int, dict]:
        """Damage in the ruled order: dice (twice keep higher), bonus, armour, Cautious halving."""
        physical = self.ctype.physical
        dice = w.damage_dice(physical)
        first = dice.total(self.rng)
        second = None
        rolled = first
        if d is not _PLAIN and (d.lens == "aggressive" or d.clever_choice == "damage"):
            second = dice.total(self.rng)
            if second > rolled:
                rolled = second
        bonus = w.damage_bonus(physical)
        armour = 0
        if physical and pool_name is None and target.armour is not None and "BODY" in self.ctype.pools:
            armour = target.armour.points_against(w.weapon)
        amount = rolled + bonus - armour
        if amount < 0:
            amount = 0
        halved = d.lens == "cautious"
        if halved:
            amount = (amount + 1) // 2
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
                self._leave(p, "comae")
                if self.sink is not None:
                    self._emit("comae", actor=p.id, pool=pool_label)
            return
        options = []
        if p.decider is not None:
            if p.can_push and pool.current > -pool.maximum:
                options.append(Option("push", f"Push on at {pool.current}", "every skill -20 % while below zero"))
            if p.luck_allowed and p.char.luck > self.luck_floor:
                options.append(Option("refresh", "Spend a Luck Point: back to 1", f"Luck {p.char.luck} left"))
        answer = "out"
        if options:
            options.append(Option("out", "Go down", "out of this conflict"))
            answer = self._ask(p, "push", f"your {pool_label} is spent: what now?", options,
                               pool=pool.current, maximum=pool.maximum)
        if answer == "push":
            p.pushing = True
            p.invalidate()
            if self.sink is not None:
                self._emit("push", actor=p.id, pool=pool_label, value=pool.current)
        elif answer == "refresh":
            before = pool.current
            refreshed(p.char, pool, negative_luck=self.negative_luck)
            p.invalidate()
            if self.sink is not None:
                self._emit("luck", actor=p.id, use="refreshed", before=before, after=1, luck=p.char.luck)
        else:
            pool.current = 0
            self._leave(p, "out")
            if self.sink is not None:
                self._emit("out", actor=p.id, pool=pool_label, value=0)

    # -- end of round and end of conflict -------------------------------------------
    def _enter_checking(self) -> None:
        """The end of a round: Quick's extra actions resolve after the damage."""
        for p in self.order if self._deciding else ():  # only deciders declare Quick
            d = self.decl.get(p.id)
            if d is None or d is _PLAIN or d.quick_action is None or p.status != ACTIVE:
                continue
            if d.quick_action == "leave":
                target = skill_target(p.char, "Move", ("Athletics", "Acrobatics"))[0]
                r = judge(d100(self.rng), target)
                if self.sink is not None:
                    self._emit("leave_attempt", actor=p.id, target=target, roll=r.roll, success=r.success)
                if r.success:
                    self._leave(p, "fled")
                    if self.sink is not None:
                        self._emit("exit", actor=p.id, how="fled")
            elif self.sink is not None:
                self._emit("extra_action", actor=p.id, action=d.quick_action)

    def _enter_ended(self) -> None:
        outcome = self._outcome()
        lost = {}
        for p in self.participants:
            lost[p.id] = p.start_pool - p.pool.current
            if p.char is not None and len(p.pool_sources) > 1:
                settle_combined(p.char, p.pool_sources, lost[p.id])
        self.result = ConflictResult(outcome, self.round, {p.id: p.status for p in self.participants}, lost)
        if self.sink is not None:
            self._emit("conflict_end", outcome=outcome, rounds=self.round,
                       statuses=dict(self.result.statuses), pool_lost=lost)

    def _outcome(self) -> str:
        a_in = any(p.status == ACTIVE for p in self.participants if p.side == "a")
        b_in = any(p.status == ACTIVE for p in self.participants if p.side == "b")
        if a_in == b_in:
            return "stalemate"
        finished = self.side("b") if a_in else self.side("a")
        statuses = {p.status for p in finished}
        if a_in:
            if statuses & {"out", "comae"}:
                return "won"
            return "opponent_surrendered" if "surrendered" in statuses else "opponent_fled"
        if statuses == {"comae"}:
            return "comae"
        if statuses & {"out", "comae"}:
            return "lost"
        return "surrendered" if "surrendered" in statuses else "fled"


_PLAIN = Declaration()


def rules_weapon_names() -> set[str]:
    return {w.name for w in rules().weapons.values()}
