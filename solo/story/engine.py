"""The game engine: walks an adventure's scenes, asks its deciders, rolls, fights, narrates by events.

It never prints. Everything that happens is an :class:`~solo.events.Event`;
every choice is a :class:`~solo.decisions.Question` for the player's decider
(a person, a script or a bot) or for an NPC's mind. Given the same seed and
the same answers it plays the same game, which is what saves, undo, scripted
play and the simulator all rely on.
"""

from __future__ import annotations

from collections.abc import Callable

from ..decisions import Decider, Option, Question
from ..events import Event, Sink
from ..npc.disposition import disposition_modifier, normalise_disposition, shift_disposition
from ..rules.character import Character, Modifier, Situation, skill_target
from ..rules.conflict import Conflict
from ..rules.conflict_types import load_conflict_types
from ..rules.dice import new_rng, parse
from ..rules.escalation import may_escalate, recover
from ..rules.luck import NEGATIVE_LUCK_FLOOR, pay_back, spend
from ..rules.medicine import new_day
from ..rules.participants import from_character, obstacle
from ..rules.rolls import difficulty_modifier, flip_that_helps, resolve_opposed, roll_check
from ..rules.rulebook import rules
from .adventure import Action, Adventure, Branch, Choice, Effect, Scene
from .expressions import Context
from .flow import flow_machine, move_trigger
from .state import GameState
from .text import fill

ROUND_LIMIT_DEFAULT = 30
FALLEN = "__fallen__"
DEAD_END = "__dead_end__"


class EngineError(Exception):
    """A bug or an impossible state in the engine itself (never a user mistake)."""


class Game:
    """One play of an adventure.

    ``decider`` answers for the player characters (``Question.actor`` says
    which); NPC minds answer for NPCs. ``mind_factory(npc, game)`` may
    replace the NPC minds (the simulator does not, tests may).
    """

    def __init__(
        self,
        adventure: Adventure,
        *,
        seed: int,
        decider: Decider,
        sink: Sink | None = None,
        party: list[Character] | None = None,
        mind_factory: Callable | None = None,
        advise: bool = False,
    ):
        from ..oracle import OracleState

        self.adventure = adventure
        self.seed = seed
        self.rng = new_rng(seed)
        self.decider = decider
        self.sink = sink
        self.advise = advise
        self.mind_factory = mind_factory
        self.state = GameState(adventure.id, oracle=OracleState(tension=adventure.tension,
                                                                threads=list(adventure.threads)))
        self._party_given = [pc.copy() for pc in party] if party else None
        self.epilogue_done = False
        self._types = None
        self._tables = None
        self.flow_state = "title"
        self.machine = flow_machine(adventure)
        self.machine.add_model(self, initial="title")

    # -- plumbing -------------------------------------------------------------------
    def emit(self, kind: str, /, **data) -> None:
        if self.sink is not None:
            self.sink(Event(kind, data))

    def ask(self, kind: str, prompt: str, options: list[Option], *, actor: str | None = None,
            default: str | None = None, **context) -> str:
        question = Question(kind, prompt, tuple(options), actor=actor, context={"game": self, **context},
                            default=default)
        answer = self.decider.decide(question)
        if answer not in question.keys():
            answer = question.resolve(answer)
        return answer

    @property
    def finished(self) -> bool:
        return self.state.ending is not None

    @property
    def conflict_types(self):
        if self._types is None:
            self._types = load_conflict_types(self.adventure.tables_dirs)
        return self._types

    @property
    def tables(self):
        if self._tables is None:
            self._tables = _tables_for(tuple(self.adventure.tables_dirs))
        return self._tables

    def close(self) -> None:
        """Leave the shared flow machine (games are many, the machine is one)."""
        if self in self.machine.models:
            self.machine.remove_model(self)

    # -- the game -------------------------------------------------------------------------
    def play(self) -> str:
        """Play until an ending; returns the ending's scene id (or a built-in end)."""
        if self.flow_state == "title":
            self.emit("title", adventure=self.adventure.id, title=self.adventure.title,
                      author=self.adventure.author, introduction=self.adventure.introduction)
            self.trigger_event("begin")
        if self.flow_state == "party":
            self._set_up_party()
            self.trigger_event(move_trigger(self.adventure.start))
        while not self.finished:
            self.turn()
        if self.state.ending not in (FALLEN, DEAD_END) and not self.epilogue_done:
            self.epilogue()
        return self.state.ending

    def epilogue(self) -> None:
        """The end of the scenario: Luck comes back (unless it ended negative) and each PC improves.

        A PC earns one improvement roll, two if they acted by their Willpower
        Focuses more often than not (the players judge that), and spends them at
        once or keeps them for later (RULES.md §2.8, §2.9).
        """
        from ..rules.improvement import (
            NEW_FOCUS_COST,
            NEW_SKILL_COST,
            NEW_TAG_COST,
            end_session,
            improve_skill,
            learn_focus,
            learn_skill,
            learn_tag,
        )
        from ..rules.luck import end_scenario

        self.epilogue_done = True
        t = rules()
        for pc in self.state.pcs:
            before = pc.luck
            end_scenario(pc)
            wp = pc.willpower
            focus = " and ".join(f"{e.get('verb', '').lower()} your {e.get('who', '').lower()}".strip()
                                 for e in (wp.get("person", {}), wp.get("circle", {})) if e) or "those Focuses"
            acted = self.ask("willpower_acted", f"did you act by your Willpower Focuses ({focus}) more often than not?",
                             [Option("yes", "Yes", "two improvement rolls"), Option("no", "No", "one improvement roll")],
                             actor=pc.name)
            earned = end_session(pc, acted_by_willpower=acted == "yes")
            self.emit("session_end", actor=pc.name, earned=earned, luck_before=before, luck=pc.luck)
            while pc.improvement_rolls > 0:
                options = [Option(f"improve:{sk}", f"Improve {sk}", f"{pc.skills[sk]} % + 1d4+1")
                           for sk in t.skills if pc.skills[sk] > t.untrained]
                if pc.improvement_rolls >= NEW_SKILL_COST:
                    options += [Option(f"learn:{sk}", f"Learn {sk}", f"costs {NEW_SKILL_COST} rolls, starts at 10 %")
                                for sk in t.skills if pc.skills[sk] <= t.untrained]
                if pc.improvement_rolls >= NEW_FOCUS_COST:
                    options += [Option(f"focus:{sk}//{f}", f"Learn the Focus {sk} //{f}", f"costs {NEW_FOCUS_COST} rolls")
                                for sk in t.skills if pc.skills[sk] > t.untrained
                                for f in t.skills[sk].focuses if not pc.has_focus(sk, f) and sk != "Willpower"]
                if pc.improvement_rolls >= NEW_TAG_COST:
                    options += [Option(f"tag:{tag}", f"Gain the Tag #{tag}", f"costs {NEW_TAG_COST} rolls")
                                for tag in t.tags if tag not in pc.tags]
                options.append(Option("keep", "Keep the rolls for later", "a new Focus costs 4, a new Tag 5"))
                rolls = pc.improvement_rolls
                choice = self.ask("improve", f"{rolls} improvement roll{'s' if rolls != 1 else ''} to spend: spend one now?",
                                  options, actor=pc.name, default="keep")
                if choice == "keep":
                    break
                kind, what = choice.split(":", 1)
                if kind == "focus":
                    skill, focus = what.split("//", 1)
                    learn_focus(pc, skill, focus, t)
                    self.emit("improvement", actor=pc.name, skill=f"{skill} //{focus}", before=None,
                              after=pc.skills[skill] + pc.focuses[what])
                    continue
                if kind == "tag":
                    learn_tag(pc, what, t)
                    self.emit("improvement", actor=pc.name, skill=f"#{what}", before=None, after=None)
                    continue
                before_value = pc.skills[what]
                if kind == "improve":
                    improve_skill(pc, what, self.rng, t)
                else:
                    learn_skill(pc, what, t)
                self.emit("improvement", actor=pc.name, skill=what, before=before_value, after=pc.skills[what])

    def _set_up_party(self) -> None:
        from ..npc import NPC

        if self._party_given:
            party = self._party_given
        else:
            party = self._make_party()
        self.state.party = party
        for pc in party:
            if self.adventure.negative_luck is False and pc.luck < 0:
                pc.luck = 0
        for nid, npc_def in self.adventure.npcs.items():
            self.state.npcs[nid] = NPC.from_dict(npc_def.data, file=npc_def.where.file, rng=self.rng)
        self.state.oracle.pcs = [pc.name for pc in party]
        self.emit("party", members=[pc.to_dict() for pc in party])

    def _make_party(self) -> list[Character]:
        """Ask how many players sit at the table, then each one's name and character (hot-seat)."""
        low, high = self.adventure.party_min, self.adventure.party_max
        size = low
        if high > low:
            size = int(self.ask("party_size", "How many players are at the table?",
                                [Option(str(n), f"{n} player{'s' if n > 1 else ''}") for n in range(low, high + 1)],
                                default=str(low)))
        party: list[Character] = []
        for seat in range(1, size + 1):
            player = None
            if size > 1:
                player = self.decider.decide(Question("player", f"Player {seat}, what is your name?",
                                                      default=f"Player {seat}"))
            pc = self._make_pc(player, taken={p.name for p in party})
            pc.player = player
            names = {p.name for p in party}
            base, n = pc.name, 2
            while pc.name in names:
                pc.name = f"{base} {n}"
                n += 1
            party.append(pc)
        return party

    def _make_pc(self, player: str | None = None, *, taken: set[str] = frozenset()) -> Character:
        from ..rules.creation import pregenerated
        from .creation import create_character

        options = []
        pregen = pregenerated(self.adventure.pc) if self.adventure.pc else None
        if pregen is not None and pregen.name not in taken:
            options.append(Option("pregen", f"Play {pregen.name}", "a ready-made character"))
        options += [Option("new", "Make a new character"), Option("random", "A random character")]
        how = self.ask("pc_source", "Who will you play?", options, actor=player)
        if how == "pregen":
            return pregen
        if how == "random":
            from ..rules.creation import build_character, random_choices

            return build_character(random_choices(self.rng))
        return create_character(self.decider, self.rng, player=player)

    def _after_move(self) -> None:
        if self.flow_state.startswith("@"):
            self._enter(self.adventure.scenes[self.flow_state[1:]])

    def _enter(self, scene: Scene) -> None:
        s = self.state
        previous = s.scene
        if previous and previous != scene.id:
            prev = self.adventure.scenes[previous]
            if prev.control:
                before = s.oracle.tension
                s.oracle.end_scene(prev.control == "pcs")
                if s.oracle.tension != before:
                    self.emit("tension", before=before, after=s.oracle.tension)
        s.scene = scene.id
        s.visited[scene.id] = s.visited.get(scene.id, 0) + 1
        for npc in scene.npcs:
            s.oracle.add_npc(s.npcs[npc].name)
        self.emit("scene_entered", scene=scene.id, title=scene.title, text=scene.text, slots=self.slots(),
                  ending=scene.ending, visit=s.visited[scene.id])
        if scene.oracle_setup:
            from ..oracle import set_up_scene

            setup = set_up_scene(self.rng, self.tables, s.oracle)
            self.emit("scene_setup", **setup.to_dict())
        for effect in scene.on_enter:
            self.apply(effect)
        if scene.ending:
            s.ending = scene.id
            self.emit("ending", scene=scene.id, title=scene.title, outcome=scene.outcome or scene.id)

    def slots(self) -> dict:
        """Values for the slots of scene text: {pc}, {party}, {npc.ID}, {counter.NAME}, pronouns."""
        s = self.state
        pc = s.active_pc()
        out = {"pc": pc.name if pc else "", "party": _join([p.name for p in s.pcs]),
               "pronoun": pc.pronoun if pc else "they"}
        out.update({f"npc.{k}": v.name for k, v in s.npcs.items()})
        out.update({f"counter.{k}": v for k, v in s.counters.items()})
        return out

    def trigger_event(self, name: str) -> None:
        """Fire a transition of the flow machine; an undeclared move raises MachineError."""
        self.machine.events[name].trigger(self)

    # -- a turn: offer choices, resolve one ------------------------------------------
    def available(self, scene: Scene) -> list[Choice]:
        ctx = self.context()
        out = []
        for choice in scene.choices:
            if choice.once and f"{scene.id}/{choice.key}" in self.state.taken:
                continue
            if choice.condition is not None and not choice.condition.evaluate(ctx):
                continue
            out.append(choice)
        return out

    def turn(self) -> None:
        scene = self.adventure.scenes[self.state.scene]
        choices = self.available(scene)
        if not choices:
            self.emit("dead_end", scene=scene.id)
            self.state.ending = DEAD_END
            return
        prompt = "What do you do?" if len(self.state.pcs) < 2 else "What does the party do?"
        slots = self.slots()
        answer = self.ask("choice", prompt, [Option(c.key, fill(c.text, slots)) for c in choices], scene=scene.id)
        choice = next(c for c in choices if c.key == answer)
        self.emit("choice", scene=scene.id, key=choice.key, text=fill(choice.text, slots))
        if choice.once:
            self.state.taken.append(f"{scene.id}/{choice.key}")
        for effect in choice.effects:
            self.apply(effect)
        branch = self.resolve(choice.action) if choice.action is not None else choice.goto
        if not self.finished:
            self.follow(branch)

    def follow(self, branch: Branch | None) -> None:
        if branch is None:
            return
        if branch.text:
            self.emit("branch_text", text=branch.text, slots=self.slots())
        for effect in branch.effects:
            self.apply(effect)
        if self.finished:
            return
        if not self.state.pcs:
            self._fallen()
            return
        if branch.goto:
            self.trigger_event(move_trigger(branch.goto))

    def _fallen(self) -> None:
        self.emit("ending", scene=FALLEN, title="The end of the road", outcome="fallen")
        self.state.ending = FALLEN

    # -- conditions ------------------------------------------------------------------------
    def context(self) -> Context:
        s = self.state

        def name(n):
            if n in s.counters:
                return s.counters[n]
            return s.flags.get(n, False)

        def best_skill(skill, focus=None):
            return max((skill_target(pc, skill, focus)[0] for pc in s.pcs), default=0)

        def pool(p, maximum=False):
            pc = s.active_pc()
            if pc is None:
                return 0
            return pc.pools[p].maximum if maximum else pc.pools[p].current

        def disposition(nid):
            npc = s.npcs.get(nid)
            if npc is None:
                return 0
            return disposition_modifier(_disposition_of(npc))

        functions = {
            "has": lambda item: item in s.items,
            "visited": lambda sid: s.visited.get(sid, 0) > 0,
            "visits": lambda sid: s.visited.get(sid, 0),
            "flag": lambda n: s.flags.get(n, False),
            "counter": lambda n: s.counters.get(n, 0),
            "skill": best_skill,
            "pool": lambda p: pool(p),
            "pool_max": lambda p: pool(p, True),
            "luck": lambda: s.active_pc().luck if s.active_pc() else 0,
            "tag": lambda t: any(t in pc.tags for pc in s.pcs),
            "disposition": disposition,
            "npc_status": lambda nid: s.npc_status.get(nid, ""),
            "tension": lambda: s.oracle.tension,
            "party_size": lambda: len(s.pcs),
        }
        return Context(names=name, functions=functions)

    # -- effects ------------------------------------------------------------------------------
    def apply(self, effect: Effect) -> None:
        s = self.state
        a = effect.args
        k = effect.kind
        if k == "set":
            s.flags[a["set"]] = True
        elif k == "clear":
            s.flags[a["clear"]] = False
        elif k == "add":
            s.counters[a["add"]] = s.counters.get(a["add"], 0) + a.get("by", 1)
        elif k == "counter":
            s.counters[a["counter"]] = a["value"]
        elif k == "give":
            if a["give"] not in s.items:
                s.items.append(a["give"])
                self.emit("item", item=a["give"], gained=True)
        elif k == "take":
            if a["take"] in s.items:
                s.items.remove(a["take"])
                self.emit("item", item=a["take"], gained=False)
        elif k in ("damage", "heal"):
            amount = a.get("amount", 1)
            for pc in self._who(a.get("who", "active")):
                value = parse(amount).total(self.rng) if isinstance(amount, str) else amount
                pool = pc.pools[a[k]]
                before = pool.current
                if k == "damage":
                    pool.current = max(-pool.maximum, pool.current - value)
                else:
                    pool.current = min(pool.maximum, pool.current + value)
                self.emit("pool_change", actor=pc.name, pool=a[k], before=before, after=pool.current,
                          maximum=pool.maximum, cause=k)
                if pool.current <= -pool.maximum:
                    self._remove_pc(pc, "comae")
        elif k == "luck":
            for pc in self._who(a.get("who", "active")):
                before = pc.luck
                floor = NEGATIVE_LUCK_FLOOR if self.adventure.negative_luck else 0
                pc.luck = max(floor, min(pc.luck_max, pc.luck + a["luck"]))
                self.emit("luck_change", actor=pc.name, before=before, after=pc.luck)
        elif k == "disposition":
            npc = s.npcs[a["disposition"]]
            before = _disposition_of(npc)
            if "to" in a:
                after = normalise_disposition(str(a["to"]))
            else:
                after = shift_disposition(before, a["shift"])
            _set_disposition(npc, after)
            self.emit("disposition", npc=a["disposition"], name=npc.name, before=before, after=after)
        elif k == "memory":
            self._remember(a["memory"], a["event"])
        elif k == "tension":
            before = s.oracle.tension
            s.oracle.tension = max(1, min(9, before + a["tension"]))
            self.emit("tension", before=before, after=s.oracle.tension)
        elif k == "thread":
            s.oracle.add_thread(a["thread"])
            self.emit("thread", text=a["thread"], opened=True)
        elif k == "close_thread":
            if a["close_thread"] in s.oracle.threads:
                s.oracle.close_thread(a["close_thread"])
            self.emit("thread", text=a["close_thread"], opened=False)
        elif k == "note":
            s.notes.append(a["note"])
            self.emit("note", text=a["note"])
        elif k == "rest":
            for pc in s.pcs:
                change = recover(pc, days=a.get("days", 1) if a["rest"] == "days" else 0, slept=True)
                new_day(pc)  # Medicine may be tried again
                if change:
                    self.emit("rest", actor=pc.name, change=change)
        elif k == "treat":  # after a successful Science //Medicine roll (RULES.md §2.2)
            from ..rules.medicine import MedicineError, treat

            for pc in self._who("active"):
                before = pc.pools[a["treat"]].current
                try:
                    gained = treat(pc, a["treat"], self.rng)
                except MedicineError as exc:
                    self.emit("treatment", actor=pc.name, pool=a["treat"], gained=0, refused=str(exc))
                    continue
                self.emit("treatment", actor=pc.name, pool=a["treat"], gained=gained, before=before,
                          after=pc.pools[a["treat"]].current)
        else:  # the loader only lets known kinds through
            raise EngineError(f"unknown effect {k!r}")

    def _remember(self, nid: str, deed: str) -> None:
        """The NPC remembers what the PCs did; enough regard either way moves its disposition a rung."""
        from ..minds.memory import NPCMemory

        s = self.state
        npc = s.npcs[nid]
        memory = NPCMemory.of_deeds(npc.name, s.memory.get(nid, []), disposition=_disposition_of(npc))
        memory.record_of(npc.name).regard = s.regard.get(nid, 0.0)
        shift = memory.record(npc, deed)
        s.memory.setdefault(nid, []).append(deed)
        s.regard[nid] = shift.regard
        self.emit("memory", npc=nid, event=deed)
        if shift.after != shift.before:
            _set_disposition(npc, shift.after)
            self.emit("disposition", npc=nid, name=npc.name, before=shift.before, after=shift.after)

    def _who(self, who: str) -> list[Character]:
        if who == "all":
            return list(self.state.pcs)
        pc = self.state.active_pc()
        return [pc] if pc else []

    def _remove_pc(self, pc: Character, how: str) -> None:
        if pc.name in self.state.removed:
            return
        fate = "death" if self.adventure.comae == "death" else "comae"
        self.state.removed[pc.name] = fate
        self.emit("pc_removed", actor=pc.name, fate=fate, cause=how)

    # -- actions ---------------------------------------------------------------------------
    def resolve(self, action: Action) -> Branch | None:
        return getattr(self, f"_do_{action.kind}")(action)

    def _choose_pc(self, action: Action, skill: str, focus) -> Character:
        pcs = self.state.pcs
        who = action.spec.get("who", "choose")
        if len(pcs) == 1:
            pc = pcs[0]
        elif who == "best":
            pc = max(pcs, key=lambda p: skill_target(p, skill, focus)[0])
        elif who == "active":
            pc = self.state.active_pc()
        else:
            answer = self.ask("who", f"Who tries it? ({skill})", [
                Option(p.name, p.name, f"{skill} {skill_target(p, skill, focus)[0]} %") for p in pcs])
            pc = next(p for p in pcs if p.name == answer)
        self.state.active = self.state.party.index(pc)  # branch text and "active" effects follow who acted
        return pc

    def _target(self, pc: Character, spec: dict, *, npc=None) -> tuple[int, list[Modifier], bool]:
        skill, focus = spec["skill"], spec.get("focus")
        extra = []
        routine = False
        if "difficulty" in spec:
            mod = difficulty_modifier(str(spec["difficulty"]))
            if mod is None:
                routine = True
            elif mod:
                extra.append(Modifier(str(spec["difficulty"]).title(), mod))
        if spec.get("modifier"):
            extra.append(Modifier("situation", spec["modifier"]))
        if npc is not None and skill == "Social":
            disp = _disposition_of(npc)
            if disposition_modifier(disp):
                extra.append(Modifier(f"{npc.name} is {disp}", disposition_modifier(disp)))
        among = set(spec.get("among", []))
        situation = Situation(upper_class="upper_class" in among, criminal="criminals" in among,
                              borderline_access="borderline_access" in among,
                              status_known="aware_of_status" in among) if among else None
        target, mods = skill_target(pc, skill, focus, situation=situation, extra=extra)
        return target, mods, routine

    def _offer_flip(self, pc: Character, result, *, beats: int = 0):
        """Offer Luck when a flip would turn the roll (``beats``: the opposing success to beat, ties lost)."""
        if pc.luck <= (NEGATIVE_LUCK_FLOOR if self.adventure.negative_luck else 0):
            return result
        flipped = flip_that_helps(result, best_other=beats, tie_loses=True)
        if flipped is None:
            return result
        answer = self.ask("luck_flip", f"Spend a Luck Point to flip {result.roll:02d} into {flipped.roll:02d}?",
                          [Option("yes", f"Flip to {flipped.roll:02d}", f"Luck {pc.luck} left"),
                           Option("no", "Keep the roll")], actor=pc.name)
        if answer != "yes":
            return result
        spend(pc, "flip", negative_luck=self.adventure.negative_luck)
        self.emit("luck", actor=pc.name, use="flip", before=result.roll, after=flipped.roll, luck=pc.luck)
        return flipped

    def _repay(self, pc: Character, result):
        """Borrowed Luck comes back: a success may be turned into a failure to repay it."""
        if not result.success or pc.owed_failures <= 0 or result.automatic:
            return result
        answer = self.ask("pay_back", f"{pc.name} owes fate a failure. Turn this success into one?",
                          [Option("yes", "Pay it back now"), Option("no", "Not this time")], actor=pc.name)
        if answer == "yes":
            pay_back(pc)
            self.emit("luck", actor=pc.name, use="pay_back", luck=pc.luck)
            from dataclasses import replace

            return replace(result, success=False)
        return result

    def _do_roll(self, action: Action) -> Branch | None:
        spec = action.spec
        pc = self._choose_pc(action, spec["skill"], spec.get("focus"))
        target, mods, routine = self._target(pc, spec)
        result = roll_check(self.rng, target, routine=routine)
        self.emit("skill_roll", actor=pc.name, skill=spec["skill"], focus=spec.get("focus"), target=target,
                  modifiers=[(m.name, m.value) for m in mods], roll=result.roll, success=result.success,
                  exceptional=result.exceptional, automatic=result.automatic)
        result = self._offer_flip(pc, result)
        result = self._repay(pc, result)
        if result.success:
            outcome = "exceptional_success" if result.exceptional else "success"
        else:
            outcome = "exceptional_failure" if result.exceptional else "failure"
        self.emit("roll_outcome", actor=pc.name, outcome=outcome)
        return action.branch(outcome)

    def _do_opposed(self, action: Action) -> Branch | None:
        spec = action.spec
        npc = self.state.npcs.get(spec["npc"]) if "npc" in spec else None
        pc = self._choose_pc(action, spec["skill"], spec.get("focus"))
        target, mods, routine = self._target(pc, spec, npc=npc)
        if npc is not None:
            their_skill = spec.get("npc_skill", spec["skill"])
            their_target = skill_target(npc, their_skill, spec.get("npc_focus"))[0]
            their_name = npc.name
        else:
            their_skill = spec["skill"]
            their_target = spec["against"]
            their_name = "the opposition"
        mine = roll_check(self.rng, target, routine=routine)
        theirs = roll_check(self.rng, their_target)
        self.emit("opposed_roll", actor=pc.name, skill=spec["skill"], target=target,
                  modifiers=[(m.name, m.value) for m in mods], roll=mine.roll, success=mine.success,
                  exceptional=mine.exceptional, opponent=their_name, opponent_skill=their_skill,
                  opponent_target=their_target, opponent_roll=theirs.roll, opponent_success=theirs.success)
        result = resolve_opposed(mine, theirs, defender="b")
        if result.winner == "b" or (result.winner is None and not mine.success):
            flipped = self._offer_flip(pc, mine, beats=(theirs.roll or 101) if theirs.success else 0)
            if flipped is not mine:
                result = resolve_opposed(flipped, theirs, defender="b")
        outcome = {"a": "win", "b": "lose", None: "fail"}[result.winner]
        self.emit("opposed_outcome", actor=pc.name, outcome=outcome, tie=result.tie, opponent=their_name)
        if action.escalation is not None and may_escalate(result, "a"):
            answer = self.ask("escalate", f"You lost the roll against {their_name}. Escalate to an Extended Conflict?",
                              [Option("yes", "Escalate", action.escalation.spec.get("type", "")),
                               Option("no", "Accept the loss")], actor=pc.name)
            if answer == "yes":
                self.emit("escalate", actor=pc.name, type=action.escalation.spec["type"], opponent=their_name)
                return self._do_conflict(action.escalation)
        return action.branch(outcome)

    def _do_conflict(self, action: Action) -> Branch | None:
        spec = action.spec
        obstacle_spec = None
        if "obstacle" in spec:
            o = spec["obstacle"]
            obstacle_spec = obstacle(o.get("name", "The obstacle"), str(o.get("difficulty", "normal")),
                                     challenge=o.get("challenge"), pool=o.get("pool"))
        outcome = self.run_conflict(self.conflict_types[spec["type"]], spec.get("npcs", []), obstacle_spec,
                                    rounds=spec.get("rounds", ROUND_LIMIT_DEFAULT), stakes=spec.get("stakes", ""))
        return action.branch(outcome)

    def run_conflict(self, ctype, npc_ids: list[str], obstacle_participant=None, *,
                     rounds: int = ROUND_LIMIT_DEFAULT, stakes: str = "") -> str:
        """Every PC still in the story against these NPCs (or an obstacle); returns the party's outcome.

        The written adventure and open play both fight through here: the PCs
        get the first NPC's disposition in social conflicts, NPCs their minds,
        and afterwards NPC statuses are remembered and PCs in comae leave.
        """
        npcs = [(nid, self.state.npcs[nid]) for nid in npc_ids if self.state.npc_status.get(nid) != "comae"]
        participants = []
        for pc in self.state.pcs:
            p = from_character(pc, "a", ctype, decider=self.decider)
            if ctype.social and npcs:
                disp = _disposition_of(npcs[0][1])
                if disposition_modifier(disp):
                    p.bonus, p.bonus_reason = disposition_modifier(disp), f"{npcs[0][1].name} is {disp}"
            participants.append(p)
        for nid, npc in npcs:
            pid = npc.name if npc.name not in {p.id for p in participants} else nid
            participants.append(from_character(npc, "b", ctype, decider=self._mind(nid, npc), pid=pid))
        if obstacle_participant is not None:
            participants.append(obstacle_participant)
        if not any(p.side == "b" for p in participants):
            return "won"
        self.emit("conflict_stakes", type=ctype.key, stakes=stakes)
        advisor = None
        if self.advise:
            from .advice import lens_advice

            advisor = lens_advice
        result = Conflict(ctype, participants, self.rng, sink=self.sink, round_limit=rounds,
                          negative_luck=self.adventure.negative_luck, advisor=advisor).run()
        by_char = {id(p.char): p for p in participants if p.char is not None}
        for nid, npc in npcs:
            self.state.npc_status[nid] = by_char[id(npc)].status
        for pc in list(self.state.pcs):
            p = by_char.get(id(pc))
            if p is not None and p.status == "comae":
                self._remove_pc(pc, "comae")
        self.emit("conflict_outcome", type=ctype.key, outcome=result.outcome, rounds=result.rounds)
        return result.outcome

    def _mind(self, nid: str, npc):
        if self.mind_factory is not None:
            return self.mind_factory(npc, self)
        return default_mind(npc, self.rng, memory=self.state.memory.get(nid), sink=self.sink)

    def _do_oracle(self, action: Action) -> Branch | None:
        from ..oracle import ask

        spec = action.spec
        answer = ask(self.rng, spec["question"], spec.get("odds", "even"), state=self.state.oracle,
                     tables=self.tables)
        self.emit("oracle", **answer.to_dict())
        key = answer.grade.replace(", ", "_")
        return action.branch(key)

    def _do_request(self, action: Action) -> Branch | None:
        """#Contact and #Lab: the first request in a scenario is granted, each later one at half the chance."""
        from ..rules.character import request_chance
        from ..rules.dice import d100

        tag = action.spec["tag"]
        holders = [pc for pc in self.state.pcs if tag in pc.tags]
        if not holders:
            self.emit("request", tag=tag, actor=None, chance=0, roll=None, granted=False)
            return action.branch("refused")
        pc = max(holders, key=lambda p: request_chance(p.requests.get(tag, 0)))
        chance = request_chance(pc.requests.get(tag, 0))
        pc.requests[tag] = pc.requests.get(tag, 0) + 1
        roll = None if chance >= 100 else d100(self.rng)
        granted = roll is None or roll <= chance
        self.emit("request", tag=tag, actor=pc.name, chance=chance, roll=roll, granted=granted)
        return action.branch("granted" if granted else "refused")

    def _do_table(self, action: Action) -> Branch | None:
        result = self.tables.roll(action.spec["name"], self.rng, slots=self.state.oracle.slots())
        self.emit("table", **result.to_dict())
        return action.branch("then")

    # -- table-side tools that do not change the story -----------------------------------
    def ask_oracle(self, question: str, odds: str = "even", rng=None):
        """``? question`` at a prompt: answered with the given generator (default: the game's)."""
        from ..oracle import ask

        answer = ask(rng or self.rng, question, odds, state=self.state.oracle, tables=self.tables)
        self.emit("oracle", **answer.to_dict())
        return answer


_TABLES: dict[tuple, object] = {}


def _tables_for(dirs: tuple[str, ...]):
    """Random tables per set of folders, read once per process (the simulator plays thousands of games).

    Tables are read-only once loaded; the key includes SOLO_TABLES so a changed
    environment is read afresh.
    """
    import os

    from ..oracle import load_tables

    key = (dirs, os.environ.get("SOLO_TABLES", ""))
    if key not in _TABLES:
        _TABLES[key] = load_tables(list(dirs))
    return _TABLES[key]


def default_mind(npc, rng, *, memory=None, sink=None):
    """The NPC's mind from its Code Block (solo.minds.npc), or plain rolls if minds are unavailable."""
    try:
        from ..minds.npc import NPCMind
    except ImportError:  # pragma: no cover - only while the minds module is missing
        return None
    return NPCMind(npc, rng, memory=memory, sink=sink)


def _disposition_of(npc) -> str:
    block = getattr(npc, "code_block", None)
    disp = getattr(block, "disposition", None) if block is not None else None
    return normalise_disposition(disp or "Neutral")


def _set_disposition(npc, value: str) -> None:
    block = getattr(npc, "code_block", None)
    if block is None:
        return
    from dataclasses import replace

    try:
        npc.code_block = replace(block, disposition=value)
    except TypeError:
        block.disposition = value


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
