"""Open play: a game with no written adventure, driven by the oracle and the tables.

A starting situation comes from the tables and opens the first thread. Each
scene starts with what the player expects of it; the oracle then checks that
against the tension (as expected, altered or interrupted). The player decides
what to do through the same questions as in a written adventure: ask the
oracle, meet someone (an NPC met before, a name the player put on the NPC
list, someone tied to an open thread, or a stranger), make a skill roll, fight
or argue an Extended Conflict with stakes and a round limit that fit it, write
a note, close the scene. It is the same engine, so saves, undo, narration and
the journal work unchanged.

Nobody stated a setting, so the people met carry everyday gear (no blasters,
guns or armour), and a capable or formidable one is as good as its level at the
conflict it is drawn into: a fight against an ordinary person is one the
player can win (tests/test_open_play_fair.py measures it with the menu's odds).

Games saved before scenes had expectations replay as they were played: when
the recorded answers show the game did not ask the new questions, it does not
ask them (see :meth:`OpenGame._started_before_expectations`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...decisions import Option, Question
from ...npc.levels import level_named
from ...npc.model import NPC
from ...oracle.likelihood import LADDER
from ...rules.character import Character
from ...rules.conflict_types import ConflictType
from ...rules.luck import fall_due
from ...rules.outcomes import COMAE, OUT
from ...rules.participants import OBSTACLES, obstacle
from ...rules.rolls import DIFFICULTIES
from ...rules.rulebook import SKILLS, rules
from ..format.adventure import Action, Adventure, Scene, Where
from .engine import Game, scene_control
from .epilogue import epilogue
from .npcs import disposition_of, set_disposition
from .party import set_up_party
from .rolling import roll_chance

if TYPE_CHECKING:
    from ...oracle.state import OracleState
    from ...oracle.tables import TableResult

OPEN_ID = "open"
OPEN_END = "open_end"  # the ending of every open game
LIKELIHOODS = tuple(LADDER)  # all nine words, impossible to certain
MAX_SCENES = 500  # an open game is long, but never endless by accident
MAX_TEXT = 300  # characters kept of an expectation or a conflict's stakes
MEET_RETURNING = 5  # NPCs met before offered by name when meeting someone (the latest)
MEET_THREADS = 3  # open threads offered as a tie for someone new (the latest)
MEET_LISTED = 5  # people on the story's NPC list with no stat block yet (``npcs add``), offered by name
#: What people carry in open play, whose setting nobody stated: everyday things (docs/rulings.md).
EVERYDAY_WEAPONS = frozenset({"unarmed", "impromptu", "martial_arts", "dagger", "cudgel", "staff"})
EVERYDAY_STANDIN = "cudgel"  # what someone carries instead of a blaster, a gun, a sword or a bow
#: How long a conflict may run, as the player picks it (the round limit of docs/rules.md §5): key -> rounds, label.
ROUND_LIMITS = {"short": (3, "A short exchange"), "scene": (6, "As long as the scene allows"),
                "finish": (30, "To the finish")}
#: What a conflict is about when the player does not say, by the kind of conflict.
STAKES = {"physical": "Who is left standing", "chase": "Who gets away", "social": "Who gets their way",
          "static": "Getting past {name}", "other": "Who comes out ahead"}


def open_adventure() -> Adventure:
    """A stand-in adventure: metadata for saves and the journal, and one scene id for the state."""
    scene = Scene(id="open", title="Open play", text="", where=Where("<open play>", "scenes.open"), ending=False)
    return Adventure(id=OPEN_ID, title="Open play", start="open", scenes={"open": scene}, npcs={},
                     author="the oracle", party_max=6, pc="espen", content_hash="open", source=OPEN_ID,
                     introduction="No script tonight: the tables set the stage, the oracle answers what "
                                  "nobody wrote down, and the story goes where you take it.")


class OpenGame(Game):
    """A :class:`Game` whose scenes are made up as it goes."""

    spares_on_exit = True  # nobody writes what an NPC makes of being let go: it remembers being spared

    def __init__(self, **kw: Any) -> None:
        super().__init__(open_adventure(), **kw)  # its scenes are not walked through the flow machine
        self.scene_number = 0
        self.met: list[str] = []  # ids of NPCs met, in order
        self.legacy = False  # replaying a game saved before scenes had expectations: ask as it was asked
        self.stranger = ""  # the person the starting situation names ("a wounded traveller"), until met

    def play(self) -> str:
        if self.flow_state == "title":
            self.emit("title", adventure=OPEN_ID, title=self.adventure.title, author="",
                      introduction=self.adventure.introduction)
            set_up_party(self, self._party_given)
            self.flow_state = "party"
            situation = self.tables.roll("situation", self.rng, slots=self.state.oracle.slots())
            self.emit("situation", text=situation.text)
            self.legacy = self._started_before_expectations()
            thread = situation.text.rstrip(".") if self.legacy else first_thread(situation)
            self.stranger = part_text(situation, "stranger")
            self.state.oracle.add_thread(thread)
            if not self.legacy:
                self.emit("thread", text=thread, opened=True)
            self._new_scene()
        while not self.finished:
            self.turn()
        if self.state.ending == OPEN_END and not self.epilogue_done:
            epilogue(self)
        assert self.state.ending is not None
        return self.state.ending

    def _started_before_expectations(self) -> bool:
        """True when the decider replays a log recorded before open play asked what a scene is expected to be.

        A decider that replays a save may say which kind of question its next recorded answer was
        for (``upcoming()``); one that does not, or has nothing left to replay, means a new game.
        """
        upcoming = getattr(self.decider, "upcoming", None)
        kind = upcoming() if callable(upcoming) else None
        return kind is not None and kind != "scene_expectation"

    def _new_scene(self) -> None:
        from ...oracle import set_up_scene

        self.scene_number += 1
        for pc in self.state.pcs:  # as in a written adventure: Luck borrowed before falls due now (§2.8)
            fall_due(pc)
        self.state.scene = "open"
        self.state.visited["open"] = self.scene_number
        expected, wanted = "", ""
        if not self.legacy:
            wanted = self._expectation()
            self.state.oracle.context = wanted  # random events that name nobody follow the scene
            expected = f"*Expected:* {literal(wanted)}"
        self.emit("scene_entered", scene="open", title=f"Scene {self.scene_number}", text=expected,
                  slots=self.slots(), ending=False, visit=self.scene_number,
                  **({"expected": wanted} if wanted else {}))  # as the player wrote it, for the recap
        setup = set_up_scene(self.rng, self.tables, self.state.oracle)
        self.emit("scene_setup", **setup.to_dict())
        if self.scene_number >= MAX_SCENES:
            self._finish("the story ran its course")

    def _expectation(self) -> str:
        """What the player expects of the scene, before the oracle checks it (an empty answer takes the default)."""
        threads = self.state.oracle.threads
        alone = len(self.state.pcs) == 1  # one player says "I", a table "we"
        we, our = ("I", "I") if alone else ("We", "we")
        if self.scene_number == 1:
            default = f"{we} look into what is going on"
        elif threads:
            default = f"{we} follow up: {threads[-1]}"
        else:
            default = f"{we} pick up where {our} left off"
        text = self.decider.decide(Question(
            "scene_expectation", f"Scene {self.scene_number}: what do you expect to happen? "
                                 "(where you are, who is there, what you mean to do)", default=default))
        return bounded(text) or default

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
        way = "my" if len(self.state.party) <= 1 else "our"
        question = self.decider.decide(Question("oracle_question", "Your question (yes or no)?",
                                                default=f"Does it go {way} way?"))
        odds = self.ask("likelihood", f"How likely is a yes? (tension {self.state.oracle.tension})",
                        [Option(w, w.title(), chance=self.oracle_chance(w)) for w in LIKELIHOODS], default="even")
        self.ask_oracle(question, odds)

    def _open_meet(self) -> None:
        if self.legacy:
            self._meet_new(None)
            return
        options = [Option(nid, f"{self.state.npcs[nid].name} again", disposition_of(self.state.npcs[nid]))
                   for nid in self._returning()]
        listed = self._listed()
        options += listed_options(listed)
        if self.stranger:
            options.append(Option("opening", f"The {bare(self.stranger)} from the opening",
                                  "the one the story began with"))
        threads = self.state.oracle.threads[-MEET_THREADS:]
        options += [Option(f"thread{i}", f"Someone tied to: {t}", "new to the story")
                    for i, t in enumerate(threads, 1)]
        options.append(Option("stranger", "A stranger", "nothing to do with the story, yet"))
        who = self.ask("meet", "Whom do you meet?", options, default=options[0].key)
        if who == "stranger":
            self._meet_new(None)
        elif who == "opening":
            self._meet_new(self.state.oracle.threads[0] if self.state.oracle.threads else None, self.stranger)
            self.stranger = ""
        elif who.startswith("thread"):
            self._meet_new(threads[int(who.removeprefix("thread")) - 1])
        elif who.startswith(LISTED):
            self._meet_new(None, name=listed_name(who, listed))
        else:
            self._meet_again(who)

    def _returning(self) -> list[str]:
        """NPCs met before who can still turn up: not in comae, the latest first (then those the story
        brought in some other way, such as a Luck contact)."""
        known = list(reversed(self.met)) + [nid for nid in self.state.npcs if nid not in self.met]
        out = [nid for nid in known if self.state.npc_status.get(nid) != COMAE]
        return out[:MEET_RETURNING]

    def _listed(self) -> list[str]:
        """Names on the story's NPC list with nobody behind them yet (``npcs add Captain Orm``), the latest first."""
        have = {npc.name.casefold() for npc in self.state.npcs.values()}
        names = [n for n in reversed(self.state.oracle.npcs) if n.casefold() not in have]
        return list(dict.fromkeys(names))[:MEET_LISTED]

    def _meet_new(self, thread: str | None, who: str = "", *, name: str | None = None) -> None:
        """Someone new (``who`` the situation named, or anyone; ``name`` one the player put on the NPC list);
        tied to ``thread`` they come with a meaning pair saying how. Their role as shown says both, so the
        NPC list keeps them. Outside a legacy replay they carry everyday gear (:func:`everyday_gear`)."""
        from ...npc import generate_npc
        from ...oracle import meaning, npc_reaction

        level = self.ask("npc_level", "How capable are they?", [
            Option("common", "Someone ordinary", "Common"), Option("skilled", "Someone capable", "Skilled"),
            Option("master", "Someone formidable", "Master")], default="common")
        npc = generate_npc(self.rng, level, name=name)
        if not self.legacy:
            everyday_gear(npc)
        tie = meaning(self.rng, self.tables) if thread is not None else None
        nid = f"npc{len(self.met) + 1}"
        reaction = npc_reaction(self.rng, "neutral", tables=self.tables)
        disposition = reaction.disposition.title()
        set_disposition(npc, disposition)
        self.state.npcs[nid] = npc
        self.met.append(nid)
        if name is None:
            self.state.oracle.add_npc(npc.name)
        npc.role = shown_role(npc.role or "", who, thread)
        block = npc.code_block.to_dict() if npc.code_block else {}
        extra: dict[str, Any] = {}
        if thread is not None:
            extra = {"tied_to": thread, "tie": tie.to_dict() if tie else None}
        self.emit("npc_met", npc=nid, name=npc.name, level=level, role=npc.role or "",
                  reaction=reaction.reaction, disposition=disposition, code_block=block,
                  twist=reaction.twist.to_dict() if reaction.twist else None, **extra)

    def _meet_again(self, nid: str) -> None:
        """Someone met before: the reaction is rolled again from how they feel now, and may change it."""
        from ...oracle import npc_reaction

        npc = self.state.npcs[nid]
        before = disposition_of(npc)
        reaction = npc_reaction(self.rng, before.lower(), tables=self.tables)
        after = reaction.disposition.title()
        set_disposition(npc, after)
        self._to_front(nid)
        block = npc.code_block.to_dict() if npc.code_block else {}
        self.emit("npc_met", npc=nid, name=npc.name, level=npc.level, role=npc.role or "",
                  reaction=reaction.reaction, disposition=after, code_block=block,
                  twist=reaction.twist.to_dict() if reaction.twist else None, again=True)
        if after != before:
            self.emit("disposition", npc=nid, name=npc.name, before=before, after=after)

    def _to_front(self, nid: str) -> None:
        """The NPC just met or fought comes first in the menus (and counts as met from now on)."""
        if nid in self.met:
            self.met.remove(nid)
        self.met.append(nid)

    def _open_roll(self) -> None:
        pc = self._pick_pc("Who rolls?")
        # each option shows the chance the roll would have (a Normal roll without a Focus, until they are chosen)
        skill = self.ask("skill", "Which skill?", [Option(s, s, chance=roll_chance(self, pc, {"skill": s}))
                                                   for s in SKILLS])
        focuses = [f for f in rules().skills[skill].focuses if pc.has_focus(skill, f)]
        spec = {"skill": skill, "difficulty": self.ask("difficulty", "How hard is it?", [
            Option(w, w.title(), chance=roll_chance(self, pc, {"skill": skill, "difficulty": w}))
            for w in DIFFICULTIES], default="normal")}
        # a Routine roll succeeds without dice: no Focus could count, so none is asked (a group's evening; edition 3)
        if focuses and not (spec["difficulty"] == "routine" and self.edition >= 3):
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
            known = list(reversed(self.met))
            if not self.legacy:  # and whoever the story brought in some other way, such as a Luck contact
                known += [nid for nid in self.state.npcs if nid not in self.met]
            choices = [Option(nid, self.state.npcs[nid].name, disposition_of(self.state.npcs[nid]))
                       for nid in known if self.state.npc_status.get(nid) not in (COMAE, OUT)]
            listed = [] if self.legacy else self._listed()
            choices += listed_options(listed)
            choices.append(Option("new", "Someone new"))
            nid = self.ask("opponent", "Against whom?", choices)
            if nid == "new":
                self._meet_new(None)
            elif nid.startswith(LISTED):
                self._meet_new(None, name=listed_name(nid, listed))
            else:  # the opponent moves to the front of the menus
                self._to_front(nid)
            nid = self.met[-1]
            npc_ids = [nid]
            if not self.legacy:
                up_to_level(self.state.npcs[nid], ctype)
        if self.legacy:
            self.run_conflict(ctype, npc_ids, wall)
        else:
            if npc_ids:  # priced while the player names the stakes and the length (the longest covers the rest)
                longest = max(rounds for rounds, _ in ROUND_LIMITS.values())
                self.price_ahead([("open", {"type": key, "npcs": npc_ids, "rounds": longest})])
            stakes, rounds = self._terms(ctype, wall.name if wall else "")
            self.answered("open")
            self.run_conflict(ctype, npc_ids, wall, rounds=rounds, stakes=stakes)
        if not self.state.pcs:
            self._fallen()

    def _terms(self, ctype: ConflictType, obstacle_name: str) -> tuple[str, int]:
        """What the conflict is about, and how many rounds it may run before it ends in a stalemate.

        The round limit is the player's: a fight or a chase runs to the finish by default (it ends when
        someone drops or gets away); anything else, whose rounds are minutes or hours, defaults to as long
        as the scene allows, so two sides who keep failing reach a stalemate the story can use.
        """
        default = STAKES[stakes_kind(ctype)].format(name=obstacle_name or "it")
        stakes = bounded(self.decider.decide(Question(
            "stakes", "What is at stake? (what the winner gets)", default=default))) or default
        options = [Option(key, label, f"{rounds} rounds, then a stalemate")
                   for key, (rounds, label) in ROUND_LIMITS.items()]
        length = self.ask("round_limit", "How long can it run?", options, default=default_length(ctype))
        return stakes, ROUND_LIMITS[length][0]

    def _open_note(self) -> None:
        text = self.decider.decide(Question("note_text", "Your note:", default="(nothing)"))
        if not text.strip() or text.strip() == "(nothing)":  # Enter alone: nothing to keep
            self.emit("note", text="")  # the view says "Nothing noted."; the journal keeps no blank note
            return
        self.state.notes.append(text)
        self.emit("note", text=text)

    def _open_scene(self) -> None:
        went = scene_control(self.state.went, None)  # how its rolls and conflicts went: the answer Enter gives
        control = self.ask("control", "Were you in control of that scene?", [
            Option("yes", "Yes", "tension falls"), Option("no", "No", "tension rises"),
            Option("mixed", "Partly", "tension stays")], default={True: "yes", False: "no", None: "mixed"}[went])
        self.state.went = 0
        before = self.state.oracle.tension
        self.state.oracle.end_scene({"yes": True, "no": False, "mixed": None}[control])
        self.tension_moved(before)
        self._new_scene()

    def _open_end(self) -> None:
        """The players close the book, once they have said so: the question says what is still open (and a
        thread come to a head, if one has), and with a thread still open Enter plays on."""
        threads = self.state.oracle.threads
        left = (f"{len(threads)} thread{'s' if len(threads) != 1 else ''} still open" if threads
                else "every thread closed")
        hot = at_a_head(self.state.oracle)
        if hot:
            left += f", \u201c{hot}\u201d at a flashpoint"
        sure = self.ask("end_story", f"End the story here? ({left}; the epilogue follows)",
                        [Option("end", "Yes, end the story", "improvement rolls, and the game is over"),
                         Option("play_on", "No, play on")], default="play_on" if threads else "end")
        if sure == "end":
            self._finish(f"{self._players()} closed the book")

    def _players(self) -> str:
        """Who is at the table, as the story's last line names them: "You" for one player, else "the players"."""
        return "you" if len(self.state.party) <= 1 else "the players"

    def _finish(self, why: str) -> None:
        """The story ends; ``why`` says how ("you closed the book"), and the line sums the story up."""
        self.state.ending = OPEN_END
        threads = self.state.oracle.threads
        line = ending_title(why, self.scene_number, threads, self.met)
        self.emit("ending", scene=OPEN_END, title=line, outcome=ending_outcome(threads))

    def _pick_pc(self, prompt: str) -> Character:
        pcs = self.state.pcs
        if len(pcs) == 1:
            return pcs[0]
        name = self.ask("who", prompt, [Option(pc.name, pc.name) for pc in pcs])
        return next(pc for pc in pcs if pc.name == name)


def part_text(result: TableResult, table: str) -> str:
    """The text a table roll drew from ``table`` along the way ("a wounded traveller"), or ''."""
    for part in result.parts:
        if part.table == table:
            return part.text.strip()
        found = part_text(part, table)
        if found:
            return found
    return ""


def first_thread(situation: TableResult) -> str:
    """The thread a starting situation opens: its trouble ("An old debt is being called in"), or all of it."""
    text = (part_text(situation, "trouble") or situation.text).strip().rstrip(".")
    return text[:1].upper() + text[1:]


def bare(noun: str) -> str:
    """'a wounded traveller' -> 'wounded traveller'."""
    first, _, rest = noun.partition(" ")
    return rest if first.lower() in ("a", "an", "the") and rest else noun


def shown_role(role: str, who: str, thread: str | None) -> str:
    """An NPC's role as the story shows it: who the situation said they are, and the thread they are tied to."""
    text = f"the {bare(who)}, {article(role)}" if who and role else (f"the {bare(who)}" if who else role)
    if thread:
        text += f"; tied to \u201c{thread[:1].lower() + thread[1:]}\u201d"
    return text


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun.lower()


def literal(text: str) -> str:
    """A player's words as scene text, which is Markdown with {slots}: Markdown's marks are escaped and
    braces doubled, so what was typed is what shows."""
    escaped = re.sub(r"([\\`*_\[\]<>#|!~])", r"\\\1", text)
    return escaped.replace("{", "{{").replace("}", "}}")


def bounded(text: str) -> str:
    """Free text as kept: one line, trimmed, at most MAX_TEXT characters."""
    return " ".join(text.split())[:MAX_TEXT]


def stakes_kind(ctype: ConflictType) -> str:
    if ctype.static:
        return "static"
    if ctype.physical:
        return "physical"
    if not ctype.flight:
        return "chase"
    return "social" if ctype.social else "other"


def default_length(ctype: ConflictType) -> str:
    """The round limit offered first: to the finish for fights and chases, a scene's worth otherwise."""
    return "finish" if stakes_kind(ctype) in ("physical", "chase") else "scene"


LISTED = "listed"  # the answer keys of names on the story's NPC list: listed1, listed2 …


def listed_options(names: list[str]) -> list[Option]:
    """A menu's options for the names on the story's NPC list that nobody has met yet."""
    return [Option(f"{LISTED}{i}", name, "on the story's list, met now") for i, name in enumerate(names, 1)]


def listed_name(key: str, names: list[str]) -> str:
    """The name a ``listed…`` answer of :func:`listed_options` stands for."""
    return names[int(key.removeprefix(LISTED)) - 1]


def ending_outcome(threads: list[str]) -> str:
    """The ending's outcome, in a word or two beside its line: whether the story left anything open."""
    return "loose ends" if threads else "resolved"


def everyday_gear(npc: NPC) -> None:
    """Dress someone met in open play for an everyday scene (docs/rulings.md): a blaster, a gun, a sword or a
    bow becomes a cudgel, and nobody wears armour or carries a shield. Nothing is rolled, so the dice run on
    as they did."""
    if npc.weapon is not None and npc.weapon not in EVERYDAY_WEAPONS:
        npc.weapon = EVERYDAY_STANDIN
    npc.armour = None
    npc.shield = None


def conflict_skill(ctype: ConflictType) -> str:
    """The skill the opposing side rolls in a conflict of this kind."""
    return ctype.opposed_by[0] if ctype.opposed_by else ctype.skill


def up_to_level(npc: NPC, ctype: ConflictType) -> None:
    """A Skilled or Master NPC drawn into a conflict fights it at least at its level's main skill: someone
    'formidable' is formidable at what the story made them do, not at 5 % because their role is a clerk's."""
    if npc.level is None:
        return
    best = level_named(npc.level).skills[0]
    if best <= level_named("common").skills[0]:
        return
    skill = conflict_skill(ctype)
    if npc.skills.get(skill, 0) < best:
        npc.skills[skill] = best


def at_a_head(oracle: OracleState) -> str:
    """The open thread furthest along its track that has reached a flashpoint (5 of 10 or more), or ''."""
    from ...oracle.state import FLASHPOINTS

    reached = [(oracle.thread_progress(t), t) for t in oracle.threads if oracle.thread_progress(t) >= FLASHPOINTS[0]]
    return max(reached, key=lambda pt: pt[0])[1] if reached else ""


def ending_title(why: str, scenes: int, threads: list[str], met: list[str]) -> str:
    """The story's last line: how it ended, how long it ran, who was met, what is still open."""
    text = f"{why} after {scenes} scene{'' if scenes == 1 else 's'}"
    if met:
        text += f", {len(met)} {'person' if len(met) == 1 else 'people'} met"
    if threads:
        shown = "; ".join(t[:1].lower() + t[1:] for t in threads[-3:])
        more = f" and {len(threads) - 3} more" if len(threads) > 3 else ""
        text += f"; still open: {shown}{more}"
    else:
        text += "; every thread closed"
    return text[:1].upper() + text[1:]
