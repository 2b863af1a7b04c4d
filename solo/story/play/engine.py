"""The game engine: walks an adventure's scenes, asks its deciders, rolls, fights, narrates by events.

It never prints. Everything that happens is an :class:`~solo.events.Event`;
every choice is a :class:`~solo.decisions.Question` for the player's decider
(a person, a script or a bot) or for an NPC's mind. Given the same seed and
the same answers it plays the same game, which is what saves, undo, scripted
play and the simulator all rely on. The verbs a scene uses do their own work
(:mod:`solo.story.play.effects`, :mod:`solo.story.play.actions`); the game moves
between scenes through the adventure's flow machine (:mod:`solo.story.format.flow`).
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from ...decisions import PUSH, Decider, Option, Question, answers_from_record
from ...errors import SoloError
from ...events import Chance, Event, Sink, wants_detail
from ...npc.disposition import disposition_bonus
from ...rules.character import Character
from ...rules.conflict import Conflict
from ...rules.conflict_types import ConflictType, load_conflict_types
from ...rules.dice import new_rng
from ...rules.luck import fall_due
from ...rules.outcomes import COMAE, LOST, OUT, STALEMATE, WON
from ...rules.participants import Participant, from_character, shown_pool
from ..format.adventure import FALLBACK, Action, Adventure, Branch, Choice, Effect, Scene
from ..format.expressions import Context
from ..format.flow import move_trigger, refused
from ..format.retries import cost_words
from ..format.text import and_list, fill, pick, shown
from .actions import ACTIONS, ROUND_LIMIT_DEFAULT
from .conditions import context_of, empty_handed
from .conflict_roles import Roles, ask_roles, default_roles
from .effects import EFFECTS
from .epilogue import epilogue
from .knowledge import called, gone_for_good, learn, learn_names_in
from .npcs import between_scenes, default_mind
from .party import set_up_party
from .pools import line_up
from .state import GameState

if TYPE_CHECKING:
    import random

    from ...npc.model import NPC
    from ...oracle import OracleAnswer, TableSet
    from .think_ahead import ThinkAhead

FALLEN = "__fallen__"
DEAD_END = "__dead_end__"
#: The endings the engine reaches on its own, not scenes of the adventure: the title the game announces, the
#: outcome, and what a report shows in place of the id. Each title says what happened: the two shared one, and
#: a report listed "(whole party out) │ The end of the road" over "(no way on) │ The end of the road".
ENGINE_ENDINGS: dict[str, tuple[str, str | None, str]] = {
    FALLEN: ("The party has fallen", "fallen", "(whole party out)"),
    DEAD_END: ("A dead end", None, "(no way on)"),
}
#: Builds the Decider of an NPC in a game, in place of its own mind.
MindFactory = Callable[["NPC", "Game"], Decider | None]


class ChanceIds:
    """Numbers for the chances shown, 1, 2, 3 …, shared by a game and its conflicts; a plain object so that a
    cloned game can carry on from the same number (Python 3.14 no longer copies an ``itertools.count``)."""

    def __init__(self) -> None:
        self.next_id = 1

    def __iter__(self) -> ChanceIds:
        return self

    def __next__(self) -> int:
        n = self.next_id
        self.next_id += 1
        return n


#: Events that tell the players nothing (what an NPC remembers; the conflict's outcome, which its own last event
#: already told): a disposition move held back (Game.emit) is still held after them, so that the aftermath's move
#: and the branch's own effect just after the conflict's outcome are told as one.
_KEEPS_HOLDING = frozenset({"memory", "conflict_outcome"})


def plain_answer(question: Question) -> str:
    """The answer that changes the least: no Luck, no pushing, the default, the first option. A copy of a game
    priced ahead (:meth:`Game.paid_by`) and ``solo prove``'s probe games answer so."""
    keys = question.keys()
    if question.kind == "pc_source":  # the adventure's own character, else a random one: never a long creation
        return "pregen" if "pregen" in keys else "random"
    if question.free_text:
        return question.default or "Player"
    if "no" in keys and question.kind in ("luck_flip", "luck_reduce", "willpower_acted"):
        return "no"
    if question.kind == PUSH and OUT in keys:
        return OUT
    if question.default is not None and question.default in keys:
        return question.default
    return keys[0]


class _Plain:
    """A decider that gives :func:`plain_answer` to every question."""

    def decide(self, question: Question) -> str:
        return plain_answer(question)


_PLAIN = _Plain()


#: The edition of play a new game plays by. Each step changed what a save's answers mean, so a save keeps its own
#: (its ``edition`` option) and replays by it: 1, "Who tries it?" before a choice is paid for (docs/adventures.md,
#: "Who pays"); 2, a PC whom paying takes out is not the roller (one of those left is asked), a random PC is named
#: apart from the story's people, and ``luck contact`` reads a lower-case trade as a trade; 3, a Routine roll in open
#: play asks no Focus (it succeeds without a roll, so none could count); 4, a player's name another player at the
#: table already gave, and a new character's name the party already has, are asked again; 5, the improvement menu
#: offers no //Language the native tongue's 40 % already beats, and "Keep the rolls for later" comes right after the
#: skills, not last (the options after it are numbered otherwise); a ``heal`` gives a Pool below zero one point; and
#: a scene's blow that 1 would make as deadly asks no Luck to soften it; a scene whose cost takes the last PC ends
#: the game there (before, its menu was asked of nobody); a party that is a chase's quarry is asked no line-up; 6, a
#: night's ``rest`` lifts a Pool below zero by a point, as a day of rest does (before, only ``days`` did), and a Luck
#: Contact nobody named is never a smuggler; 7, a mindless creature never declares Flamboyant (it shows off to nobody);
#: 8, an NPC never declares a Lens that cannot win the round while another can, a mindless one never declares Clever,
#: #Gear adds nothing to empty hands (the gear table's Unarmed, Martial arts), and a character made at random is not
#: dealt //Gunnery while another Combat Focus is left; the engine refuses a Luck spend of a PC out of the conflict in
#: hand (the prompt had refused it before, so an earlier save may hold one).
EDITION = 8


def edition_of(options: Mapping[str, object]) -> int:
    """The edition a save's game was played by: its ``edition`` option, else 1 where it says ``who_first`` (saves of
    edition 1 wrote only that), else 0.

    A game of a later edition than this solo plays is refused (:class:`NewerEdition`): played on by the rules of an
    earlier one, its log would not replay as it was played, and its next save would name the earlier edition."""
    edition = options.get("edition")
    if isinstance(edition, int) and not isinstance(edition, bool) and edition >= 0:
        if edition > EDITION:
            raise NewerEdition(f"this game was played by a newer solo (play's edition {edition:,}; this one plays "
                               f"editions up to {EDITION}): update solo to go on with it")
        return edition
    return 1 if options.get("who_first") is True else 0


class NewerEdition(SoloError):
    """A save of an edition of play this solo does not know."""


class Game:
    """One play of an adventure.

    ``decider`` answers for the player characters (``Question.actor`` says
    which); NPC minds answer for NPCs. ``mind_factory(npc, game)`` may
    replace the NPC minds (the simulator does not, tests may).
    """

    #: What this game plays by where play changed in a way a save's answers depend on (:data:`EDITION`); a game
    #: loaded from a save goes on by the save's (:func:`edition_of`), so that its log replays as it was played.
    edition = EDITION
    #: The scene and choice being taken while its roller is asked (None otherwise): :meth:`paid_by` prices on it.
    paying: tuple[Scene, Choice] | None = None

    @property
    def who_first(self) -> bool:
        """"Who tries it?" is asked before a choice's retry cost and effects are paid, so that the one who rolls
        pays (:meth:`roller_first`); a game of edition 0 pays first, by whoever acted last."""
        return self.edition >= 1

    def __init__(
        self,
        adventure: Adventure,
        *,
        seed: int,
        decider: Decider,
        sink: Sink | None = None,
        party: list[Character] | None = None,
        mind_factory: MindFactory | None = None,
        advise: bool = False,
    ):
        from ...oracle import OracleState

        self.adventure = adventure
        self.seed = seed
        self.rng = new_rng(seed)
        self.decider = decider
        self.sink = sink
        self.advise = advise
        self.mind_factory = mind_factory
        self.state = GameState(adventure.id, oracle=OracleState(tension=adventure.tension,
                                                                threads=list(adventure.threads)),
                               flags=dict.fromkeys(adventure.flags, True), counters=dict(adventure.counters),
                               items=list(adventure.items))  # set once, at the start, never on a return
        self._party_given = [pc.copy() for pc in party] if party else None
        self.epilogue_done = False
        self.epilogue_finished = False  # its questions all answered (solo saves: "finished", not "improving")
        self._types: dict[str, ConflictType] | None = None
        self._tables: TableSet | None = None
        self.flow_state = "title"  # the state of this game in the adventure's flow machine
        self.chance_ids = ChanceIds()  # numbers the chances shown, in conflicts too
        self.shown: Chance | None = None  # the chance of the option last chosen, for the roll it announced
        self._shows = wants_detail(sink)  # someone reads the chances a choice list may show
        self.fighting: list[Participant] = []  # who takes part in the conflict under way (none between conflicts)
        self.think_ahead: ThinkAhead | None = None  # prices a menu's conflicts while a person reads it (solo play)

    def clone(self, state: GameState, *, decider: Decider, rng: random.Random | None = None,
              flow_state: str | None = None) -> Self:
        """This game played on from ``state`` (its own, shared with nothing) by ``decider``, with ``rng`` (this
        game's own generator if None) and at ``flow_state`` (this game's if None).

        Everything a game holds besides its state is set here, once: ``solo prove`` branches thousands of
        games off each other, and a piece of a game copied by hand elsewhere would be one a new field breaks.
        The chance shown last is dropped (it belonged to the other game's menu), the numbering of chances
        carries on from where it was, nothing thinks ahead for the copy.
        """
        g = copy.copy(self)
        g.state = state
        g.decider = decider
        if rng is not None:
            g.rng = rng
        if flow_state is not None:
            g.flow_state = flow_state
        g.shown = None
        g.chance_ids = copy.copy(self.chance_ids)
        g.think_ahead = None
        g.__dict__.pop("_context", None)  # read from the state it was made for
        if g.__dict__.pop("_held_disposition", None) is not None:  # an event the other game holds for its sink
            del g.emit
        return g

    # -- plumbing -------------------------------------------------------------------
    def scene_went(self, score: int) -> None:
        """A roll or a conflict of the scene in play went well for the PCs (+1), badly (-1) or neither (0)."""
        self.state.went += score

    def emit(self, kind: str, /, **data: Any) -> None:
        """Hand an event to the sink. An NPC's disposition moving twice in a row (a conflict's aftermath, then the
        branch's own effect) is one move, told once with the first rung and the last, and not at all where they
        are the same: "Signe Falk is now Unfriendly towards you." then "… now Neutral" read as a contradiction
        (the tutorial, a new player's run). It is held until the next other event, or question: while it is, this
        game's ``emit`` is :meth:`_emit_holding` (set on the instance, so that the common path costs nothing)."""
        if self.sink is not None:
            if kind == "disposition":
                self._held_disposition = dict(data)
                self.emit = self._emit_holding  # type: ignore[method-assign]
                return
            self.sink(Event(kind, data))

    def _emit_holding(self, kind: str, /, **data: Any) -> None:
        held = self._held_disposition
        if kind == "disposition" and held.get("npc") == data.get("npc"):
            held.update(after=data.get("after"), name=data.get("name", held.get("name")))
            return
        if kind in _KEEPS_HOLDING and self.sink is not None:  # records nobody reads out: the move may go on
            self.sink(Event(kind, data))
            return
        self.tell_held()
        self.emit(kind, **data)

    def tell_held(self) -> None:
        """Hand the sink the disposition move :meth:`emit` holds back, if any (a question, or the end of a test)."""
        held = self.__dict__.pop("_held_disposition", None)
        if held is None:
            return
        del self.emit  # the class's own again
        if held.get("before") != held.get("after") and self.sink is not None:
            self.sink(Event("disposition", held))

    def tension_moved(self, before: int) -> None:
        """Tell the oracle's tension where it moved from ``before``; nothing where it did not move (at the end of the
        track an effect moves nothing, and "falls to 9 of 9" would say it had)."""
        after = self.state.oracle.tension
        if after != before:
            self.emit("tension", before=before, after=after)

    def ask(self, kind: str, prompt: str, options: list[Option], *, actor: str | None = None,
            default: str | None = None, **context: Any) -> str:
        """Put a question to the players' decider; the chances its options show are events first."""
        question = Question(kind, prompt, tuple(options), actor=actor, context={"game": self, **context},
                            default=default)
        if "_held_disposition" in self.__dict__:
            self.tell_held()  # told before the question that follows it
        shown = False
        for o in options:
            if o.chance is not None:
                shown = True
                self.emit("chance", **o.chance.to_dict(), question=kind, option=o.key)
        answer = question.resolve(self.decider.decide(question))
        self.shown = None
        if shown:
            for o in options:
                if o.key == answer:
                    self.shown = o.chance
                    break
        return answer

    def chance(self, actor: str | None, skill: str, target: int, modifiers: Sequence[tuple[str, int]]) -> Chance:
        """A numbered chance for an option to show: ``target`` % from the bare ``skill`` and ``modifiers``."""
        return Chance.of(next(self.chance_ids), actor, skill, target, modifiers)

    def announced(self, actor: str | None, skill: str, target: int, modifiers: Sequence[tuple[str, int]],
                  option: str | None = None) -> int | None:
        """The id of the chance that announced the roll about to be made, if one was shown.

        It is the chance of the option just chosen, if it was for this roll (the same
        actor and skill). Should the target differ from it (something changed in
        between), the right chance is shown now, before the roll.
        """
        shown = self.shown
        if shown is None or shown.actor != actor or shown.skill != skill:
            return None
        self.shown = None
        if shown.same_roll(target, modifiers):
            return shown.id
        now = self.chance(actor, skill, target, modifiers)
        self.emit("chance", **now.to_dict(), question=None, option=option, changed=True)
        return now.id

    @property
    def finished(self) -> bool:
        return self.state.ending is not None

    @property
    def conflict_types(self) -> dict[str, ConflictType]:
        if self._types is None:
            self._types = conflict_types_of(self.adventure)
        return self._types

    @property
    def tables(self) -> TableSet:
        if self._tables is None:
            self._tables = _tables_for(tuple(self.adventure.tables_dirs))
        return self._tables

    # -- the game -------------------------------------------------------------------------
    def play(self) -> str:
        """Play until an ending; returns the ending's scene id (or a built-in end)."""
        if self.flow_state == "title":
            self.emit("title", adventure=self.adventure.id, title=self.adventure.title,
                      author=self.adventure.author, introduction=self.picked(self.adventure.introduction))
            self.trigger_event("begin")
        if self.flow_state == "party":
            set_up_party(self, self._party_given)
            for thread in self.adventure.threads:  # open from the start: said once, as a thread opened later is
                self.emit("thread", text=thread, opened=True)
            self.trigger_event(move_trigger(self.adventure.start))
        while not self.finished:
            self.turn()
        if self.state.ending not in (FALLEN, DEAD_END) and not self.epilogue_done and self.adventure.uses_pcs:
            epilogue(self)
        assert self.state.ending is not None
        return self.state.ending

    def trigger_event(self, name: str) -> None:
        """Fire a transition of the flow machine; an undeclared move raises MachineError.

        The game is the machine's model without joining it, so nothing is left behind
        in the machine when the game is dropped. The move is read from the machine's
        transitions as a table (:func:`solo.story.format.flow.moves_of`), then the machine's
        callback runs; a move fired from inside that callback waits until it is done,
        as the machine (queued) would have it wait.
        """
        queue = self.__dict__.get("_moving")
        if queue is not None:
            queue.append(name)
            return
        queue = [name]
        self._moving: list[str] | None = queue
        moves = self.adventure.moves
        try:
            while queue:
                trigger = queue.pop(0)
                state = moves.get((self.flow_state, trigger))
                if state is None:
                    raise refused(self.flow_state, trigger)
                self.flow_state = state
                self._after_move()
        finally:
            self._moving = None

    def _after_move(self) -> None:
        """The flow machine's callback once the game has moved."""
        if self.flow_state.startswith("@"):
            self._enter(self.adventure.scenes[self.flow_state[1:]])

    def _enter(self, scene: Scene) -> None:
        s = self.state
        previous = s.scene
        if previous and previous != scene.id:
            prev = self.adventure.scenes[previous]
            control = scene_control(s.went, prev.control)
            s.went = 0
            s.oracle.new_scene()
            if control is not None:
                before = s.oracle.tension
                s.oracle.end_scene(control)
                self.tension_moved(before)
        if previous != scene.id:  # a new scene: Luck borrowed before it falls due now (docs/rules.md §2.8)
            for pc in s.pcs:
                fall_due(pc)
        s.scene = scene.id
        s.oracle.context = shown(self.picked(scene.title))  # random events that name nobody follow it
        s.visited[scene.id] = s.visited.get(scene.id, 0) + 1
        present = [called(self, npc) for npc in scene.npcs if not gone_for_good(self, npc)]
        for name in present:
            s.oracle.add_npc(name)  # as the PCs know them: a name, or what they see
        for effect in scene.on_enter_before:  # on_enter.before: the text below already reads what they did
            self.apply(effect)
        title, text = self.picked(scene.title), self.picked(scene.text)
        learn_names_in(self, title + text)
        self.emit("scene_entered", scene=scene.id, title=title, text=text, slots=self.text_slots(),
                  ending=scene.ending, visit=s.visited[scene.id])
        if scene.oracle_setup:
            from ...oracle import set_up_scene

            oracle = s.oracle
            if scene.npcs_listed:  # who is here: an event of its set-up names nobody else
                oracle = oracle.among(present)
            setup = set_up_scene(self.rng, self.tables, oracle)
            self.emit("scene_setup", **setup.to_dict(), written=True)  # the expectation is the scene as written
        if previous != scene.id:
            between_scenes(self)  # NPCs that recover between scenes are fresh again
        for effect in scene.on_enter:
            self.apply(effect)
        if scene.ending:
            s.ending = scene.id
            # those who fell on the way (comae, or death where the adventure says so): the end says they did not see it
            # (where nobody is left, the ending reached is the fallen party's own: it tells their fate, and "in comae,
            # is not there to see it" under "You wake on the deck" read wrong: the review)
            fallen = [[name, fate] for name, fate in s.removed.items()] if s.pcs else []
            self.emit("ending", scene=scene.id, title=self.picked(scene.title),
                      outcome=scene.outcome_now(self.context()), **({"fallen": fallen} if fallen else {}),
                      **({"fate": scene.fate} if scene.fate else {}))
            if scene.fate:  # the party does not come out of it: the text told it, and no epilogue improves them
                for pc in s.pcs:
                    s.removed[pc.name] = scene.fate

    def slots(self) -> dict[str, object]:
        """Values for the slots of scene text: {pc}, {party}, {others}, {npc.ID}, {counter.NAME}, pronouns.

        ``party_size`` (for {you}, {each.NOUN} …) is there only for a party of other than one PC:
        a text filled without it reads as for one, as events written before it was kept do.
        """
        s = self.state
        pc = s.active_pc()
        pcs = s.pcs
        if not pcs and "fallen_party" in self.__dict__:  # told of the party a conflict took out (tell_of_fallen)
            pcs = self.fallen_party
            last = s.party[s.active] if s.active < len(s.party) else None
            pc = last if last in pcs else pcs[0]
        out: dict[str, object] = {"pc": pc.name if pc else "", "party": and_list([p.name for p in pcs]),
                                  "others": and_list([p.name for p in pcs if p is not pc]) if len(pcs) > 1 else "",
                                  "pronoun": pc.pronoun if pc else "they"}
        if len(pcs) != 1:
            out["party_size"] = len(pcs)
        out.update({f"npc.{k}": v.name for k, v in s.npcs.items()})
        out.update({f"counter.{k}": v for k, v in s.counters.items()})
        return out

    def text_slots(self) -> dict[str, object]:
        """:meth:`slots` for an event whose text someone may fill; none for a sink that only counts (the
        simulator's tally, ``detail = False``): it fills no text, and working them out was a tenth of a turn."""
        return self.slots() if self._shows else {}

    def picked(self, text: str) -> str:
        """The text with its ``{if}`` blocks decided by the state now; its slots are left for the renderer."""
        return pick(text, self.context()) if "{" in text else text

    def read_as_shown(self, text: str) -> str:
        """A line of the adventure's told whole, its ``{if}`` blocks decided by the state now and its slots filled
        (``{npc.knut}``, ``{pc}``), where someone reads it; as written for a sink that only counts (the simulator's
        tally), where working it out would be work for nothing. For a conflict's stakes, which the screen and the
        journal print as they come (a review: "At stake: Whether {npc.knut} lets you in")."""
        return fill(text, self.slots(), self.context()) if self._shows and "{" in text else text

    # -- a turn: offer choices, resolve one ------------------------------------------
    def available(self, scene: Scene) -> list[Choice]:
        ctx = self.context()
        out = []
        for choice in scene.choices:  # a once-only choice's condition says it (schema.once_only)
            if choice.condition is not None and not choice.condition.evaluate(ctx):
                continue
            out.append(choice)
        return out

    def context(self) -> Context:
        """What conditions read now. Its lookups read the state when called, so one is kept per state
        (made again only when the game's state is another object, as a probe's copy is)."""
        kept = self.__dict__.get("_context")
        if kept is None or kept[0] is not self.state:
            kept = self._context = (self.state, context_of(self.state))
        return kept[1]

    def turn(self) -> None:
        assert self.state.scene is not None  # the party has entered the first scene
        if not self.state.pcs and self.adventure.uses_pcs and self.edition >= 5:
            # whatever took the last of the party outside a branch (a scene's own cost, the cold at "Lost in the
            # white"), nobody is left to ask "What do you do?", which a hot-seat group was, and a choice went into the
            # journal made by nobody (a branch's cost ends it in follow())
            self._fallen()
            return
        scene = self.adventure.scenes[self.state.scene]
        choices = self.available(scene)
        if not choices:
            self.emit("dead_end", scene=scene.id)
            self.state.ending = DEAD_END
            return
        prompt = "What do you do?" if len(self.state.pcs) < 2 else "What does the party do?"
        # most menus fill nothing: their slots are worked out only for a label, a hint or stakes that have some
        slots = self.slots() if any(c.braces for c in choices) else {}
        shows = self._shows
        ctx = self.context()
        labels = {c.key: fill(c.text, slots, ctx) for c in choices}
        hints = {c.key: self._stake(scene, c, slots, ctx) if c.hint or c.retry_cost else "" for c in choices}
        self.learn_from_menu(choices)
        # a choice with effects changes the story before its conflict: priced as it starts, not ahead
        fights = [(c.key, c.action.spec) for c in choices if c.action is not None
                  and c.action.kind == "conflict" and not c.effects and not c.retry_cost]
        odds = self.conflict_odds(fights) if shows else {}  # what the first Lens menu will say, in the menu
        if shows:  # a conflict nobody would fight says so, for no Lens menu will come
            from .think_ahead import no_contest

            for key, spec in fights:
                words = no_contest(self, spec)
                if words:
                    odds[key] = words
        self.price_ahead(fights)
        stakes = {c.key: f"at stake: {fill(str(c.action.spec['stakes']), slots, ctx)}" for c in choices
                  if c.action is not None and c.action.kind == "conflict" and c.action.spec.get("stakes")}
        if shows:  # an opposed roll's chance to win, beside the roller's own chance (which is not it); a request's
            from .chances import opposed_win_words, request_words

            for c in choices:
                if c.action is not None and c.action.kind == "opposed" and not c.effects:
                    words = opposed_win_words(self, c.action)
                    if words:
                        odds[c.key] = words
                elif c.action is not None and c.action.kind == "request" and not c.effects:
                    odds[c.key] = request_words(self, c.action)
        options = []
        for c in choices:
            k = c.key
            detail = " · ".join(w for w in (odds.get(k), stakes.get(k), hints[k]) if w)
            if shows:
                options.append(Option(k, labels[k], detail, chance=self._choice_chance(c), number=c.number))
                continue
            # with no chance on it an option is its words: one frozen Option for each, made once (menus recur)
            made = (k, labels[k], detail, c.number)
            option = _OPTIONS.get(made)
            if option is None:
                if len(_OPTIONS) >= 4096:
                    _OPTIONS.clear()
                option = _OPTIONS[made] = Option(k, labels[k], detail, number=c.number)
            options.append(option)
        answer = self.ask("choice", prompt, options, scene=scene.id)
        self.answered(answer)
        choice = next(c for c in choices if c.key == answer)
        self.emit("choice", scene=scene.id, key=choice.key, name=choice.name, text=labels[choice.key],
                  **({"hint": hints[choice.key]} if hints[choice.key] else {}))
        action = self.take(scene, choice)
        if action is not None and not self.state.pcs and self.adventure.uses_pcs:
            self._fallen()  # its cost took the last PC out: nobody is left to try it (the review: asked of nobody)
            return
        branch = self.resolve(action) if action is not None else choice.goto
        if not self.finished:
            self.follow(branch)

    @property
    def shows_chances(self) -> bool:
        """Whether someone reads the chances a menu shows (the sink wants the detail)."""
        return self._shows

    def conflict_odds(self, conflicts: list[tuple[str, dict]]) -> dict[str, str]:
        """For each (answer, conflict spec) a player reads in a menu, the chance the conflict's first Lens menu
        will show for its best Lens ("Cautious every round: 44 % to win", or an estimate "Cautious every round:
        ≈ 41 % ± 6 to win · from 60 tries"), worked out now by the conflict's own advisor on the conflict as it
        would start (:func:`~solo.story.play.think_ahead.conflict_as_it_starts`). Nothing for a replayed answer (nobody
        reads it), without advice, or for a party (it says who takes part first)."""
        if not conflicts or not self.advise or answers_from_record(self.decider):
            return {}
        from .think_ahead import best_lens_words

        store = self.think_ahead.store if self.think_ahead is not None else None
        out = {}
        for key, spec in conflicts:
            try:
                words = best_lens_words(self, spec, store)
            except Exception:  # noqa: BLE001 - an aid: the conflict itself meets any such error, and says it
                words = None
            if words:
                out[key] = words
        return out

    def price_ahead(self, conflicts: list[tuple[str, dict]]) -> None:
        """The question about to be asked may start these conflicts ((answer, conflict spec)): where a
        thinker is at work (a person reads the question), it prices their first Lens menus meanwhile."""
        thinker = self.think_ahead if self.advise else None
        if thinker is not None and not answers_from_record(self.decider):  # a replayed answer: nobody reads
            from .think_ahead import conflict_jobs

            thinker.offer(conflict_jobs(self, conflicts, thinker))

    def answered(self, answer: str) -> None:
        """The question :meth:`price_ahead` was told of has its answer: the other answers' conflicts are dropped."""
        if self.think_ahead is not None and self.advise:
            self.think_ahead.narrow(answer)

    def learn_from_menu(self, choices: list[Choice]) -> None:
        """What a menu shows the players of the NPCs (:mod:`.knowledge`): a name its labels, hints or stakes
        name, and the disposition of whoever a Social roll is offered against (its chance shows it, under what
        the players call them)."""
        for c in choices:
            if c.braces:
                learn_names_in(self, self.picked(c.text) + self.picked(c.hint))
            action = c.action
            if action is None:
                continue
            if action.kind == "conflict" and "{" in str(action.spec.get("stakes", "")):
                learn_names_in(self, self.picked(str(action.spec["stakes"])))
            elif action.kind == "opposed" and action.spec.get("skill") == "Social" and "npc" in action.spec:
                learn(self, action.spec["npc"], "disposition")

    def take(self, scene: Scene, choice: Choice, *, best: bool = False) -> Action | None:
        """``choice`` taken, up to its action: the one who will roll it made the active PC (asked, or with ``best``
        the best at it, as ``solo prove``'s best play sends), then the choice paid for by them
        (:meth:`pay_for`); the action as it is then resolved. A game saved before it was so (:attr:`who_first`
        False) pays first, by whoever acted last, as its log was played. Play and ``solo prove`` both take a
        choice here."""
        first = choice.action
        # an older game pays first; and where nothing is paid, who rolls is asked as the action is resolved, as
        # ever: nothing comes between
        pays = bool(choice.effects or choice.retry_cost and self.taken(scene, choice))
        if first is None or not pays or not self.who_first:
            self.pay_for(scene, choice)
            return first
        # "Who tries it?" shows each one's chance on the game as the roll will meet it, paid by them
        self.paying = (scene, choice)
        try:
            action = self.roller_first(first, best)
        finally:
            self.paying = None
        picked = self.state.active_pc()
        self.pay_for(scene, choice)
        if self.edition >= 2 and picked is not None and picked.name in self.state.removed and self.state.pcs:
            # the cost took out the one who was to try it: one of those left tries it, asked now (or the best)
            action = self.roller_first(first, best)
        return action

    def taken(self, scene: Scene, choice: Choice) -> int:
        """How often ``choice`` has been taken (what ``chosen("scene/choice")`` reads)."""
        return self.state.chosen.get(f"{scene.id}/{choice.name or choice.key}", 0)

    def paid_by(self, name: str) -> Game:
        """This game as the choice being taken (:attr:`paying`) leaves it when PC ``name`` tries it: a copy, paid
        by them, its questions answered as they stand (no Luck, no pushing on: the chance a cost that asks them
        would leave is the one the roll shows again, announced as it is rolled), its dice its own, nothing told.
        "Who tries it?" shows each PC's chance on it (the review: a disposition shifted by the choice itself)."""
        assert self.paying is not None
        scene, choice = self.paying
        copy = self.clone(self.state.copy(), decider=_PLAIN, rng=random.Random(f"paid-by:{self.seed}"))
        copy.sink, copy.paying = None, None
        copy.__dict__.pop("emit", None)
        copy.state.active = next(i for i, pc in enumerate(copy.state.party) if pc.name == name)
        copy.pay_for(scene, choice)
        return copy

    def pay_for(self, scene: Scene, choice: Choice) -> None:
        """A choice taken: counted, and its retry cost (from the second time on) and its effects applied, all
        before its action is resolved (``solo prove`` prices the action on a game paid so)."""
        name, chosen = f"{scene.id}/{choice.name or choice.key}", self.state.chosen  # (every turn: one key made)
        times = chosen[name] = chosen.get(name, 0) + 1
        if times > 1:
            for effect in choice.retry_cost:
                self.apply(effect)
        for effect in choice.effects:
            self.apply(effect)

    def _stake(self, scene: Scene, choice: Choice, slots: dict[str, object], ctx: Context) -> str:
        """What the menu says beside a choice: the author's ``hint``, and its ``retry_cost`` once it was taken."""
        words = [fill(choice.hint, slots, ctx)] if choice.hint else []
        if choice.retry_cost and self.taken(scene, choice):
            words.append(cost_words(choice.retry_cost))
        return " · ".join(words)

    def _choice_chance(self, choice: Choice) -> Chance | None:
        """The chance of the roll a choice makes, when it is known as the choice is offered.

        Only for a ``roll`` or ``opposed`` choice with nothing done before the roll (no
        effects) and no one to ask who rolls: otherwise the question that follows shows it.
        """
        action = choice.action
        if action is not None and action.kind == "oracle" and not choice.effects:  # the oracle's chance of a yes
            from dataclasses import replace

            from .actions import ACTIONS

            # said as a yes's, which may be the bad outcome: a new player read "20 %" beside "the oracle decides
            # whether the ice gives way" as the chance of crossing
            return replace(self.oracle_chance(str(ACTIONS["oracle"].arg(action.spec, "odds"))), outcome="for a yes")
        if action is None or action.kind not in ("roll", "opposed") or choice.effects:
            return None
        from .rolling import roll_chance, roller

        spec = action.spec
        npc = self.state.npcs.get(spec["npc"]) if action.kind == "opposed" and "npc" in spec else None
        pc = roller(self, spec, npc=npc)
        return roll_chance(self, pc, spec, npc=npc) if pc is not None else None

    def follow(self, branch: Branch | None) -> None:
        if branch is None:
            return
        if branch.text:
            text = self.picked(branch.text)
            learn_names_in(self, text)
            self.emit("branch_text", text=text, slots=self.text_slots())
        for effect in branch.effects:
            self.apply(effect)
        if self.finished:
            return
        target = branch.target(self.context())
        if not self.state.pcs and self.adventure.uses_pcs:
            # nobody left to play on. A conflict that took the whole party out (the only one to set the flag, the
            # party then empty) may end at the ending its branch names, which tells how it ended (its ``comae`` or
            # ``lost`` written as "Beaten" read "The party has fallen": a GM's run); any other way (a cost, a fall)
            # ends as fallen, and so does a branch into a scene that would have to be played
            fell_fighting = "fallen_party" in self.__dict__  # set by conflict_aftermath (tell_of_fallen)
            ending = self.adventure.scenes.get(target or "") if fell_fighting else None
            if ending is None or not ending.ending:
                self._fallen()
                return
        if target:
            self.trigger_event(move_trigger(target))

    def _fallen(self) -> None:
        title, outcome, _ = ENGINE_ENDINGS[FALLEN]
        self.emit("ending", scene=FALLEN, title=title, outcome=outcome)
        self.state.ending = FALLEN

    # -- the verbs ---------------------------------------------------------------------
    def apply(self, effect: Effect) -> None:
        """Apply one effect, if its ``if`` holds now (after the effects before it)."""
        if effect.condition is not None and not effect.condition.evaluate(self.context()):
            return
        EFFECTS[effect.kind].apply(self, effect.args)

    def resolve(self, action: Action) -> Branch | None:
        return ACTIONS[action.kind].resolve(self, action)

    def roller_first(self, action: Action, best: bool = False) -> Action:
        """The choice's action with its roller made the active PC now, before the choice is paid for
        (:meth:`~solo.story.play.actions.ActionVerb.roller_first`)."""
        return ACTIONS[action.kind].roller_first(self, action, best)

    def pcs_for(self, who: str) -> list[Character]:
        """The PCs an effect's ``who`` names: "all" still in the scenario, else the active one."""
        if who == "all":
            return list(self.state.pcs)
        pc = self.state.active_pc()
        return [pc] if pc else []

    def remove_pc(self, pc: Character, how: str) -> None:
        """The PC leaves the scenario, in comae or dead as the adventure says."""
        if pc.name in self.state.removed:
            return
        fate = "death" if self.adventure.deadly else COMAE
        self.state.removed[pc.name] = fate
        self.emit("pc_removed", actor=pc.name, fate=fate, cause=how)

    def run_conflict(self, ctype: ConflictType, npc_ids: list[str], obstacle_participant: Participant | None = None,
                     *, rounds: int = ROUND_LIMIT_DEFAULT, stakes: str = "", vehicle: str | None = None,
                     settings: tuple[str, ...] = (), pursuer: str = "a", heard: bool | None = None,
                     opening: str | None = None, closing: Mapping[str, str] | None = None,
                     ends_told: Sequence[str] = ()) -> str:
        """Every PC still in the story against these NPCs (or an obstacle); returns the party's outcome.

        The written adventure and open play both fight through here: the PCs
        get the first opposing NPC's disposition in social conflicts, NPCs their
        minds, and afterwards NPC statuses are remembered and PCs in comae leave.
        A party first says who takes part, who assists and who sits out (one of
        them drives a ``vehicle``: :mod:`solo.story.play.conflict_roles`). Someone
        whose conflict Pool is already spent takes part only by pushing on
        (:func:`solo.story.play.pools.line_up`); a side left with nobody loses
        without a fight.
        """
        s = self.state
        told = {"settings": list(settings)} if settings else {}  # the narration's words for where it happens
        # as given: an adventure's are told whole by the verb that read them (ConflictVerb.resolve), a player's
        # typed words in open play are shown as typed
        self.emit("conflict_stakes", type=ctype.key, stakes=stakes, **told)
        roles = ask_roles(self, ctype, vehicle, pursuer)  # a lone PC is not asked, nor a party run down
        if roles.driver is not None:
            s.active = next(i for i, pc in enumerate(s.party) if pc.name == roles.driver)
        participants, npcs, in_comae = self.conflict_sides(ctype, npc_ids, obstacle_participant,
                                                           pc_decider=self.decider, mind=self._mind, roles=roles)
        taking_part = line_up(self, ctype, participants, tuple(in_comae))
        in_it = {p.name for p in taking_part}
        # help given to one who then stayed out goes to nobody, and is said (a group's run: Ada's +20 for Cy vanished
        # when Cy, spent, sat it out)
        for name in roles.taking_part:
            helpers = roles.helpers(name)
            if helpers and name not in in_it:
                self.emit("assist_idle", assisted=name, helpers=list(helpers))
        fighting = {nid for nid, p in npcs.items() if any(p is q for q in taking_part)}
        for nid in npcs.keys() - fighting:
            s.npc_status[nid] = OUT  # spent, it sat this one out
            s.npc_conflict[nid] = ctype.key
        sides = {p.side for p in taking_part}
        if sides != {"a", "b"}:
            outcome = WON if "a" in sides else LOST if "b" in sides else STALEMATE
            self.emit("no_contest", type=ctype.key, outcome=outcome)
            self.emit("conflict_outcome", type=ctype.key, outcome=outcome, rounds=0)
            self.scene_went(OUTCOME_WENT.get(outcome, 0))
            return outcome
        for nid in fighting:  # the conflict names whoever it sets against the PCs
            learn(self, nid, "name")
        standing = self.disposition_bonus(ctype, taking_part, npcs)
        advisor = None
        if self.advise:
            from .advice import LensAdvisor

            # one per conflict: it keeps its exact chains between the rounds (priced ahead, where a thinker did)
            advisor = LensAdvisor(shared=self.think_ahead.store if self.think_ahead is not None else None)
        fiction = {"settings": list(settings), "pursuer": pursuer, "heard": heard,  # the frame's words (rules/fiction)
                   "opening": opening, "closing": dict(closing or {}), "told": list(ends_told)}
        self.fighting = taking_part
        try:
            result = Conflict(ctype, taking_part, self.rng, sink=self.sink, round_limit=rounds,
                              negative_luck=self.adventure.negative_luck, death=self.adventure.deadly,
                              advisor=advisor, chance_ids=self.chance_ids, fiction=fiction, standing=standing).run()
        finally:
            self.fighting = []
        self.conflict_aftermath(npcs, fighting, taking_part, ctype)
        self.remember_exit_answers(npcs)
        self.emit("conflict_outcome", type=ctype.key, outcome=result.outcome, rounds=result.rounds)
        self.scene_went(OUTCOME_WENT.get(result.outcome, 0))
        return result.outcome

    def pools_shown(self, pc: Character) -> list[tuple[str, int, int]]:
        """A PC's Pools as the conflict display shows them at this moment, (name, value, maximum) in the rulebook's
        order: the Pool a conflict is fought with as its bars show it (:func:`shown_pool`: 0 while the push question
        waits after a blow past zero), and two Pools a conflict averages into one (a chase's BODY/POW) as that one
        Pool, "BODY/POW 4/11", in the first one's place: the character's own two are only set where it ended, once
        it is over (the status line had read BODY 12/12 POW 10/10 beside bars at 4/11). The rest as they stand."""
        from ...rules.rulebook import POOLS

        fought = next((p for p in self.fighting if p.char is pc), None)
        sources = fought.pool_sources if fought is not None else ()
        out = []
        for name in POOLS:
            if name not in pc.pools:
                continue
            if fought is not None and name in sources:
                if name == sources[0]:
                    out.append(("/".join(sources), shown_pool(fought.pool.current, fought.pushing),
                                fought.pool.maximum))
                continue
            out.append((name, pc.pools[name].current, pc.pools[name].maximum))
        return out

    #: Whether an NPC remembers being spared when the PCs accept its surrender or let it run. A written
    #: adventure says that itself where it wants it (the tutorial's ``opponent_surrendered`` scene); open play,
    #: with nobody writing, remembers it here.
    spares_on_exit = False

    def remember_exit_answers(self, npcs: dict[str, Participant]) -> None:
        """What the PCs answered an NPC that yielded or ran (``exit_offer``): a refusal or a chase is
        remembered (``refused``, ``chased``); an accepted exit is ``spared`` where :attr:`spares_on_exit`."""
        from .npcs import remember

        deeds = {"refuse": "refused", "chase": "chased"}
        if self.spares_on_exit:
            deeds.update(accept="spared", let_go="spared")
        for nid, p in npcs.items():
            deed = deeds.get(p.exit_answer or "")
            if deed is not None and nid in self.state.npcs:
                remember(self, nid, deed)

    def conflict_aftermath(self, npcs: dict[str, Participant], fighting: set[str],
                           taking_part: list[Participant], ctype: ConflictType) -> None:
        """What a conflict leaves behind: each NPC that fought keeps its end status (out, fled, surrendered,
        comae) and the kind of conflict it comes from, and a PC who ended in comae leaves the scenario. ``solo
        prove`` applies the same aftermath."""
        s = self.state
        for nid in fighting:
            s.npc_status[nid] = npcs[nid].status
            s.npc_conflict[nid] = ctype.key  # how the status reads, and which Pool it spent (chances.spent_for_good)
            name = called(self, nid)
            if gone_for_good(self, nid) and name in s.oracle.npcs:
                s.oracle.remove_npc(name)
        by_char = {id(p.char): p for p in taking_part if p.char is not None}
        fell = []
        for pc in list(s.pcs):
            fought = by_char.get(id(pc))
            if fought is not None and fought.status == COMAE:
                self.remove_pc(pc, COMAE)
                fell.append(pc)
        if not s.pcs and fell:  # the conflict took the whole party out: its branch may still name their ending (follow)
            self.tell_of_fallen(fell)

    def tell_of_fallen(self, fell: list[Character]) -> None:
        """The text told after a conflict took the whole party out (its branch, the ending it leads to) speaks of
        those who fell in it: {pc}, {party}, {you}, ``party_size()`` and ``unarmed()`` read them, not the nobody
        left in the story (the review: "The snow covers you.  wakes in the mud;  is beaten." of two PCs in comae).
        Nothing is played after it, so nothing else reads them."""
        self.fallen_party = fell
        ctx = self.context()
        told = {"party_size": lambda: len(fell), "unarmed": lambda: empty_handed(fell)}
        self._context = (self.state, Context(names=ctx.names, functions={**ctx.functions, **told}))

    def conflict_sides(self, ctype: ConflictType, npc_ids: list[str], obstacle_participant: Participant | None = None,
                       *, pc_decider: Decider | None, mind: Callable[[str, NPC], Decider | None],
                       copies: bool = False, roles: Roles | None = None, vehicle: str | None = None,
                       ) -> tuple[list[Participant], dict[str, Participant], list[str]]:
        """Who a conflict would set against whom: the PCs still in the story who take part on side a (with
        what their assistants add), then each NPC not in comae on side b (under its id where its name is
        taken), then the obstacle.

        ``roles`` is the party's line-up (:func:`solo.story.play.conflict_roles.ask_roles`); without one, as
        nobody was asked, :func:`~solo.story.play.conflict_roles.default_roles` (everyone, or with a ``vehicle``
        the best driver). Returns the participants, the NPCs' by id, and the names of those in comae.
        ``copies`` builds them from copies of the characters, for a look ahead that must leave the game as
        it is (``solo prove``): duplicates, every container new and nothing checked again (a character in play was
        checked when it was read; ``solo prove`` fights a conflict hundreds of times to price it, and reading each
        side's file form afresh was a twelfth of that).
        """
        s = self.state
        if roles is None:
            roles = default_roles(s.pcs, ctype, vehicle)
        participants = []
        for pc in s.pcs:
            if pc.name in roles.taking_part:
                p = from_character(pc.duplicate() if copies else pc, "a", ctype, decider=pc_decider)
                p.add_bonus(roles.bonus_for(pc.name), f"{and_list(roles.helpers(pc.name))} "
                                                      f"{'assists' if len(roles.helpers(pc.name)) == 1 else 'assist'}")
                participants.append(p)
        npcs: dict[str, Participant] = {}
        in_comae = []
        for nid in npc_ids:
            npc = s.npcs[nid]
            if s.npc_status.get(nid) == COMAE:
                in_comae.append(npc.name)
                continue
            if copies:
                npc = npc.duplicate()
            pid = npc.name if npc.name not in {p.id for p in participants} else nid
            npcs[nid] = from_character(npc, "b", ctype, decider=mind(nid, npc), pid=pid)
            participants.append(npcs[nid])
        if self.edition < 8:  # #Gear added to the gear table's Unarmed and Martial arts until play's edition 8
            for p in participants:
                p.gear_on_fists = True
        if obstacle_participant is not None:
            participants.append(obstacle_participant)
        return participants, npcs, in_comae

    def disposition_bonus(self, ctype: ConflictType, taking_part: list[Participant],
                          npcs: Mapping[str, Participant]) -> Callable[[Sequence[Participant]], object] | None:
        """In a social conflict the PCs get the disposition of the first NPC still taking part (+/- to their
        rolls; :func:`solo.npc.disposition.disposition_bonus`), put on as the conflict starts and worked out again
        whenever someone leaves: what this returns is the conflict's ``standing`` (None: not a social conflict).
        The players learn the disposition of each NPC whose disposition comes to count (a bonus or penalty on every
        roll says it)."""
        if not ctype.social or not npcs:
            return None
        ids = {id(p): nid for nid, p in npcs.items()}

        def standing(participants: Sequence[Participant]) -> Participant | None:
            first = disposition_bonus(ctype, participants, "a")
            nid = ids.get(id(first))  # a copy the odds play is not one of these: it teaches nobody anything
            if nid is not None:
                learn(self, nid, "disposition")
            return first

        return standing  # the conflict puts it on as it starts

    def _mind(self, nid: str, npc: NPC) -> Decider | None:
        if self.mind_factory is not None:
            return self.mind_factory(npc, self)
        return default_mind(npc, self.rng, memory=self.state.memory.get(nid), sink=self.sink, edition=self.edition)

    # -- table-side tools that do not change the story -----------------------------------
    def ask_oracle(self, question: str, odds: str = "even", rng: random.Random | None = None,
                   told: Collection[str] = ()) -> OracleAnswer:
        """``? question`` at a prompt: answered with the given generator (default: the game's). ``told``: the
        answers the story tells itself (an adventure's ``yes_but`` branch): for those, no price or twist is drawn
        from the tables beside it, which the story would never pay (a new player's "The price: It makes a promise
        you will have to keep" above a written cost that was another). The dice are drawn all the same."""
        from ...oracle import ask

        word, target, parts = _oracle_parts(odds, self.state.oracle.tension)
        chance_id = self.announced(None, word, target, parts)  # a menu may have shown it (open play's likelihoods)
        answer = ask(rng or self.rng, question, odds, state=self.state.oracle, tables=self.tables)
        said = answer.to_dict()
        falls_to = FALLBACK.get(answer.key)
        if falls_to is not None and answer.key not in told and falls_to in told:
            # the story has no words of its own for a "no, but" and tells it as its "no": so does the line, where
            # "No, but you find a clue pointing somewhere else" stood above a door nobody opened (a player's Vellan)
            said["answer"] = falls_to.replace("_", ", ")
            said["near"] = False
            said["interpretation"] = said["reading"] = None
        if answer.key in told:
            said["interpretation"] = said["reading"] = None
        self.emit("oracle", **said, skill=word, modifiers=parts, chance_id=chance_id)
        return answer

    def oracle_chance(self, odds: str) -> Chance:
        """The chance of a yes for a likelihood word at the current tension, taken apart, for an option."""
        word, target, parts = _oracle_parts(odds, self.state.oracle.tension)
        return self.chance(None, word, target, parts)


#: How a conflict's outcome (side a's) counts for the scene's control: a win or an opponent gone for, a loss or
#: leaving against, a stalemate neither.
OUTCOME_WENT = {"won": 1, "opponent_fled": 1, "opponent_surrendered": 1,
                "lost": -1, "fled": -1, "surrendered": -1, "comae": -1}


def scene_control(went: int, authored: str | None) -> bool | None:
    """Whether the PCs were in control of a scene that ends (True: tension falls, False: it rises, None: it stays),
    by the Mythic habit: by how it went for them, its rolls and conflicts (``went``: one point for each that
    went well, one against for each that went badly); where they came out even or nothing was rolled, by the
    author's ``control`` ("pcs", "npcs", or none)."""
    if went:
        return went > 0
    return None if not authored else authored == "pcs"


def _oracle_parts(odds: str, tension: int) -> tuple[str, int, list[tuple[str, int]]]:
    """The oracle's chance of a yes taken apart: the likelihood (named), the chance, and what moved it
    from the likelihood's base: the tension, and the bounds that keep it from certainty (1–99)."""
    from ...oracle import chance_of_yes, likelihood
    from ...oracle.likelihood import TENSION_NEUTRAL, TENSION_STEP

    like = likelihood(odds)
    chance = chance_of_yes(like, tension)
    shift = TENSION_STEP * (tension - TENSION_NEUTRAL)
    # "Even 50 · low tension (1 of 9) -20": which way the tension leans, with the status line's scale ("tension 1/9
    # -20" left a new player to guess why a tension took 20 off; "tension 4 -5" read oddly)
    parts = [(f"{'high' if shift > 0 else 'low'} tension ({tension} of 9)", shift)] if shift else []
    bound = chance - like.base - shift
    if bound:
        parts.append(("never impossible" if bound > 0 else "never certain", bound))  # raised to 1, or held at 99
    return like.word.title(), chance, parts


_TABLES: dict[tuple[tuple[str, ...], str], TableSet] = {}


def _tables_for(dirs: tuple[str, ...]) -> TableSet:
    """Random tables per set of folders, read once per process (the simulator plays thousands of games).

    Tables are read-only once loaded; the key includes SOLO_TABLES so a changed
    environment is read afresh.
    """
    from ...oracle import load_tables

    key = (dirs, os.environ.get("SOLO_TABLES", ""))
    if key not in _TABLES:
        _TABLES[key] = load_tables(list(dirs))
    return _TABLES[key]


_TYPES: dict[tuple, dict[str, ConflictType]] = {}


def conflict_types_of(adventure: Adventure) -> dict[str, ConflictType]:
    """The conflict types an adventure's conflicts are of: the bundled ones and those of its own folders."""
    return _types_for(tuple(adventure.tables_dirs))


def _types_for(dirs: tuple[str, ...]) -> dict[str, ConflictType]:
    """Conflict types per set of folders, read once per process while their ``conflicts.toml`` files stay
    the same (a changed file, by time or size, is read afresh). The types are frozen; nothing changes the dict.

    The simulator starts a game per run: reading and parsing the TOML for each was a tenth of a Vellan run.
    """
    stamps = []
    for folder in dirs:
        try:
            st = os.stat(os.path.join(folder, "conflicts.toml"))
        except OSError:
            continue
        stamps.append((folder, st.st_mtime_ns, st.st_size))
    key = (dirs, tuple(stamps))
    if key not in _TYPES:
        if len(_TYPES) > 64:
            _TYPES.clear()
        _TYPES[key] = load_conflict_types(list(dirs))
    return _TYPES[key]


#: Menu options without a chance, by what they hold (see :meth:`Game.turn`).
_OPTIONS: dict[tuple, Option] = {}
