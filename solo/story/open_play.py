"""Open play: a game with no written adventure, driven by the oracle and the tables.

A starting situation comes from the tables; each scene is set up by the
oracle (as expected, altered or interrupted by the tension); the player
decides what to do through the same questions as in a written adventure:
ask the oracle, meet someone, make a skill roll, fight or argue an Extended
Conflict, write a note, close the scene. NPCs come from the generator. It is
the same engine, so saves, undo, narration and the journal work unchanged.
"""

from __future__ import annotations

from typing import Any

from ..decisions import Option, Question
from ..rules.character import Character
from ..rules.outcomes import COMAE, OUT
from ..rules.participants import OBSTACLES, obstacle
from ..rules.rolls import DIFFICULTIES
from ..rules.rulebook import SKILLS, rules
from .adventure import Action, Adventure, Scene, Where
from .engine import Game
from .epilogue import epilogue
from .npcs import disposition_of, set_disposition
from .party import set_up_party
from .rolling import roll_chance

OPEN_ID = "open"
OPEN_END = "open_end"  # the ending of every open game
LIKELIHOODS = ("very unlikely", "unlikely", "even", "likely", "very likely")
MAX_SCENES = 500  # an open game is long, but never endless by accident


def open_adventure() -> Adventure:
    """A stand-in adventure: metadata for saves and the journal, and one scene id for the state."""
    scene = Scene(id="open", title="Open play", text="", where=Where("<open play>", "scenes.open"), ending=False)
    return Adventure(id=OPEN_ID, title="Open play", start="open", scenes={"open": scene}, npcs={},
                     author="the oracle", party_max=6, pc="espen", content_hash="open", source=OPEN_ID,
                     introduction="No script tonight: the tables set the stage, the oracle answers what "
                                  "nobody wrote down, and the story goes where you take it.")


class OpenGame(Game):
    """A :class:`Game` whose scenes are made up as it goes."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(open_adventure(), **kw)  # its scenes are not walked through the flow machine
        self.scene_number = 0
        self.met: list[str] = []  # ids of NPCs met, in order

    def play(self) -> str:
        if self.flow_state == "title":
            self.emit("title", adventure=OPEN_ID, title=self.adventure.title, author="",
                      introduction=self.adventure.introduction)
            set_up_party(self, self._party_given)
            self.flow_state = "party"
            situation = self.tables.roll("situation", self.rng, slots=self.state.oracle.slots())
            self.state.oracle.add_thread(situation.text.rstrip("."))
            self.emit("situation", text=situation.text)
            self._new_scene()
        while not self.finished:
            self.turn()
        if self.state.ending == OPEN_END and not self.epilogue_done:
            epilogue(self)
        assert self.state.ending is not None
        return self.state.ending

    def _new_scene(self) -> None:
        from ..oracle import set_up_scene

        self.scene_number += 1
        self.state.scene = "open"
        self.state.visited["open"] = self.scene_number
        self.emit("scene_entered", scene="open", title=f"Scene {self.scene_number}", text="",
                  slots=self.slots(), ending=False, visit=self.scene_number)
        setup = set_up_scene(self.rng, self.tables, self.state.oracle)
        self.emit("scene_setup", **setup.to_dict())
        if self.scene_number >= MAX_SCENES:
            self._finish("the story ran its course")

    def turn(self) -> None:
        options = [
            Option("oracle", "Ask the oracle a yes/no question"),
            Option("meet", "Meet someone", "the oracle decides how they react"),
            Option("roll", "Make a skill roll"),
            Option("conflict", "Start an Extended Conflict", "a fight, a chase, an argument …"),
            Option("note", "Write a note in the journal"),
            Option("scene", "End this scene and start the next"),
            Option("end", "End the story here"),
        ]
        what = self.ask("open_action", "What happens now?", options)
        getattr(self, f"_open_{what}")()

    # -- the actions ------------------------------------------------------------------
    def _open_oracle(self) -> None:
        question = self.decider.decide(Question("oracle_question", "Your question (yes or no)?",
                                                default="Does it go our way?"))
        odds = self.ask("likelihood", "How likely is a yes?", [Option(w, w.title(), chance=self.oracle_chance(w))
                                                              for w in LIKELIHOODS],
                        default="even")
        self.ask_oracle(question, odds)

    def _open_meet(self) -> None:
        from ..npc import generate_npc
        from ..oracle import npc_reaction

        level = self.ask("npc_level", "Who is it?", [
            Option("common", "Someone ordinary", "Common"), Option("skilled", "Someone capable", "Skilled"),
            Option("master", "Someone formidable", "Master")], default="common")
        npc = generate_npc(self.rng, level)
        nid = f"npc{len(self.met) + 1}"
        reaction = npc_reaction(self.rng, "neutral", tables=self.tables)
        disposition = reaction.disposition.title()
        set_disposition(npc, disposition)
        self.state.npcs[nid] = npc
        self.met.append(nid)
        self.state.oracle.add_npc(npc.name)
        block = npc.code_block.to_dict() if npc.code_block else {}
        self.emit("npc_met", npc=nid, name=npc.name, level=level, role=npc.role or "",
                  reaction=reaction.reaction, disposition=disposition, code_block=block,
                  twist=reaction.twist.to_dict() if reaction.twist else None)

    def _open_roll(self) -> None:
        pc = self._pick_pc("Who rolls?")
        # each option shows the chance the roll would have (a Normal roll without a Focus, until they are chosen)
        skill = self.ask("skill", "Which skill?", [Option(s, s, chance=roll_chance(self, pc, {"skill": s}))
                                                   for s in SKILLS])
        focuses = [f for f in rules().skills[skill].focuses if pc.has_focus(skill, f)]
        spec = {"skill": skill, "difficulty": self.ask("difficulty", "How hard is it?", [
            Option(w, w.title(), chance=roll_chance(self, pc, {"skill": skill, "difficulty": w}))
            for w in DIFFICULTIES], default="normal")}
        if focuses:
            focus = self.ask("focus", "Does a Focus fit?", [
                Option("none", "No", chance=roll_chance(self, pc, spec))] + [
                Option(f, f"//{f}", chance=roll_chance(self, pc, {**spec, "focus": f})) for f in focuses],
                default="none")
            if focus != "none":
                spec["focus"] = focus
        self.state.active = self.state.party.index(pc)
        self.resolve(Action("roll", {**spec, "who": "active"}, {}, Where("<open play>", "roll")))

    def _open_conflict(self) -> None:
        ctypes = self.conflict_types
        key = self.ask("conflict_type", "What kind of conflict?", [Option(k, t.name) for k, t in ctypes.items()])
        ctype = ctypes[key]
        npc_ids: list[str] = []
        wall = None
        if ctype.static:
            diff = self.ask("difficulty", "How hard is the obstacle?", [Option(k, k.title()) for k in OBSTACLES],
                            default="normal")
            name = {"lockpicking": "the lock", "library": "the archive"}.get(key, f"the {ctype.name.lower()}")
            wall = obstacle(name, diff)
        else:
            choices = [Option(nid, self.state.npcs[nid].name, disposition_of(self.state.npcs[nid]))
                       for nid in self.met if self.state.npc_status.get(nid) not in (COMAE, OUT)]
            choices.append(Option("new", "Someone new"))
            nid = self.ask("opponent", "Against whom?", choices)
            if nid == "new":
                self._open_meet()
                nid = self.met[-1]
            npc_ids = [nid]
        self.run_conflict(ctype, npc_ids, wall)
        if not self.state.pcs:
            self._fallen()

    def _open_note(self) -> None:
        text = self.decider.decide(Question("note_text", "Your note:", default="(nothing)"))
        self.state.notes.append(text)
        self.emit("note", text=text)

    def _open_scene(self) -> None:
        control = self.ask("control", "Were you in control of that scene?", [
            Option("yes", "Yes", "tension falls"), Option("no", "No", "tension rises"),
            Option("mixed", "Partly", "tension stays")], default="mixed")
        before = self.state.oracle.tension
        self.state.oracle.end_scene({"yes": True, "no": False, "mixed": None}[control])
        if self.state.oracle.tension != before:
            self.emit("tension", before=before, after=self.state.oracle.tension)
        self._new_scene()

    def _open_end(self) -> None:
        self._finish("the players closed the book")

    def _finish(self, why: str) -> None:
        """The story ends; ``why`` says how, and is the ending's title ("The players closed the book")."""
        self.state.ending = OPEN_END
        self.emit("ending", scene=OPEN_END, title=why[:1].upper() + why[1:], outcome=why)

    def _pick_pc(self, prompt: str) -> Character:
        pcs = self.state.pcs
        if len(pcs) == 1:
            return pcs[0]
        name = self.ask("who", prompt, [Option(pc.name, pc.name) for pc in pcs])
        return next(pc for pc in pcs if pc.name == name)
