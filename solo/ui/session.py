"""A play session at the terminal: the engine, the view, the journal, saves, undo and quitting.

The session records every decision; saving writes that log, loading replays
it, and undo replays it minus the last decision. Table-side commands typed at
any prompt (sheet, help, save, quit, undo, ``? question``, note, recap) are
handled here and never reach the engine as answers.
"""

from __future__ import annotations

import contextlib
import re
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from rich.console import Console, Group

from ..decisions import LUCK_FLIP, LUCK_REDUCE, MAX_ANSWER, PUSH, Decider, Question, clean_typed
from ..errors import OutputGone, SoloError
from ..events import NARRATED, Event, Sink
from ..paths import resume_command, short_path
from ..rules.character import Character
from ..saves import LogEntry, Recorder, Replayer, SaveData, SaveWriteError, write_save
from ..story.format.adventure import Adventure, Scene
from ..story.format.text import shown
from ..story.play.engine import EDITION, Game
from ..terminal_text import one_line
from .describe import upper_first
from .event_stream import EventStream, EventStreamError
from .journal import Journal
from .prompt import PIPED_TRIES, TerminalDecider
from .script import Script, ScriptRefused
from .view import TerminalView, say, say_copyable, tell

if TYPE_CHECKING:
    from ..narration import Cast, Narrator, Templates
    from ..story.format.expressions import Context

HELP = """\
Answer with the number of an option (or the start of its words). At any prompt you can also type:
  sheet [NAME]   your character sheet, Pools and Luck
  ? QUESTION     ask the oracle a yes/no question; add a likelihood in brackets: ? Is it locked? (likely)
  note TEXT      write a note into the journal (kept beside the save; solo journal shows it)
  luck contact   spend a Luck Point: a Contact turns up (a trade in lower case, a Name, or the tables choose)
  luck find ITEM spend a Luck Point: you find a small useful item WHO
  recap          the story so far, briefly
  undo           step back one decision (the dice it rolled stay spent: the same choice again rolls anew)
  save           save now (the game also saves itself at every scene and conflict round)
  quit           save the game and its journal and stop; it prints the command that resumes it, whole
  help           this text"""


_NO_PC = "This adventure has no player character (pc = false): no character sheet, no Luck."


def _help(uses_pcs: bool, party: Sequence[str] = ()) -> str:
    """The help text, with the registered table commands before ``help`` itself; an adventure with
    pc = false has no sheet and no Luck to offer. In a party game the Luck line shows how to name who spends
    it, with one of the party's own names; alone, nobody else could."""
    from .table_commands import commands

    who = f" (put a name first to say who: luck {_named(party, party[1])} find rope)" if len(party) > 1 else ""
    lines = HELP.replace(" WHO", who).splitlines()
    extra = [f"  {c.help}" for c in commands().values() if c.help and (uses_pcs or not c.needs_pcs)]
    lines[-1:-1] = extra
    if uses_pcs:
        return "\n".join(lines)
    return "\n".join(line for line in lines if not line.lstrip().startswith(("sheet", "luck")))


def _named(party: Sequence[str], name: str) -> str:
    """The shortest start of ``name``, in whole words, that the Luck command's own lookup (the first PC whose name
    starts with it) finds ``name`` by: "signe", or "sig berg" beside a Signe; the whole name where no start does."""
    from ..story.play.luck import LUCK_COMMANDS

    words = name.lower().split()
    for n in range(1, len(words) + 1):
        start = " ".join(words[:n])
        if not any(w in LUCK_COMMANDS for w in words[:n]) and \
                next((p for p in party if p.lower().startswith(start)), None) == name:
            return start
    return name.lower()


_COMMAND_WIDTH = 15  # the help text's command column ("luck find ITEM" and a space)


def help_table(text: str) -> Group:
    """The help text with the commands in a column of their own, so a long description wraps under itself,
    not under the commands. Plain text throughout: nothing in it (a save's path) is read as markup."""
    from rich.table import Table
    from rich.text import Text

    intro, *lines = text.splitlines()
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for line in lines:
        command, description = line[2:2 + _COMMAND_WIDTH].rstrip(), line[2 + _COMMAND_WIDTH:].strip()
        grid.add_row(Text("  " + command), Text(description))
    return Group(Text(intro), grid)


class Quit(Exception):
    pass


class Undo(Exception):
    pass


class _GameOptions(TypedDict):
    seed: int
    decider: Decider
    sink: Sink
    party: list[Character] | None
    advise: bool


#: Questions that weigh a character's own Luck: a ``luck`` command for that character waits until they are answered.
LUCK_QUESTIONS = frozenset({LUCK_FLIP, LUCK_REDUCE, PUSH})


class Session:
    def __init__(
        self,
        adventure: Adventure,
        *,
        seed: int,
        console: Console,
        reader: Callable[[str], str],
        save_path: Path,
        transcript: Path | None = None,
        party: list[Character] | None = None,
        log: list[LogEntry] | None = None,
        advise: bool = True,
        echo_answers: bool = False,
        explain: bool = False,
        game_class: Callable[..., Game] = Game,  # Game, or a subclass that builds its own adventure (OpenGame)
        characters_dir: Path | None = None,
        character_files: dict[str, Path] | None = None,
        events: EventStream | None = None,
        script: Script | None = None,
        partial: bool = False,
        roster_layout: str | None = None,
        edition: int | None = None,
    ) -> None:
        self.script = script  # --script: strict, each answer must fit; running out early is an error …
        self.partial = partial  # … unless --partial says the script is meant to stop before the end
        self.events = events  # --events: every event as a JSON line
        self._held: list[Event] = []  # the chances shown with the question a replay stops at
        # the questions a replay answered since its last event: the choice the question it stops at belongs to
        self._chain: list[tuple[Question, str]] = []
        self.characters_dir = characters_dir
        self.roster_layout = roster_layout  # kept in every save: --load finds the roster the game began with
        # what the game plays by where play changed under saves (Game.edition): an older save's game goes on by its
        # own, as its log was played, and says so in every save
        self.edition = EDITION if edition is None else edition
        self.character_files = dict(character_files or {})  # PC name -> the file it was loaded from
        self.explain = explain
        self.game_class = game_class
        self.adventure = adventure
        self.seed = seed
        self.console = console
        self.reader = reader
        self.save_path = save_path
        self.transcript = transcript
        self.party = party
        self.prefix = list(log or [])
        self.advise = advise
        self.echo = echo_answers
        self.game: Game | None = None
        self.recorder: Recorder | None = None
        self.templates: Templates | None = None
        self.replaying = False
        self.banner: str | None = None
        self.save_problem: str | None = None  # why the last save failed, while saves are failing
        self.saved_answers: int | None = _answers(self.prefix) if log is not None else None  # decisions on disk
        # the journal is kept beside the save, unless --transcript asked for the story alone in that very file
        self.journal_path: Path | None = journal_path(save_path)
        if transcript is not None and _same_file(transcript, self.journal_path):
            self.journal_path = None
        self.journal_problem: str | None = None  # why the last journal write failed, while they fail
        self.started = _started(save_path) if log is not None else _today()  # the date of the first session
        self.read_only = False  # rebuilding a journal from a save: replay, write nothing

    # -- the outer loop: play, and start over (replaying) after an undo ---------------
    def run(self) -> int:
        if self.prefix:
            self.banner = f"Resumed from {self.save_path}."
        if self.events is not None:
            try:
                self.events.note("stream", adventure=self.adventure.id, seed=self.seed, resumed=bool(self.prefix))
            except EventStreamError as exc:
                self.events = None
                say(self.console, f"{exc}; the game goes on without writing events.", style="red", soft_wrap=True)
        previous = _hangup_stops()
        try:
            while True:
                try:
                    outcome = self._play_once()
                except KeyboardInterrupt:
                    # a hang-up that landed while the game was already stopping (a closed window ends the input and
                    # hangs up at once), before its save held the signals off: the game is saved again, whole
                    with contextlib.suppress(OSError):  # (the screen may be gone with the window)
                        return self._stopped()
                    return 130
                if outcome != "undo":
                    return outcome
                if self.events is not None:
                    try:
                        self.events.note("undo", answers=_answers(self.prefix))
                    except EventStreamError:
                        self.events = None
        finally:
            _restore_handlers(previous)

    def _play_once(self) -> int | Literal["undo"]:
        self.view = TerminalView(self.console, explain=self.explain)
        self.journal = Journal()
        self._start_narration()
        live = self.live = TerminalDecider(self.console, reader=self._read, meta=self._table_side,
                                           player_of=self._player_of, before=self.view.before_question,
                                           refused=self._refused if self.script else None,
                                           tries=PIPED_TRIES if self.echo and self.script is None else None)
        self.replaying = bool(self.prefix)
        if self.replaying:
            self.view.mute()
        elif self.banner:  # an undo back to the very first question: nothing to replay, say it at once
            self.view.unmute(self.banner)
            self.banner = None
        self._chain = []
        self._lent: set[str] = set()  # whom the story lent a weapon (:meth:`_keep_characters`), again in a replay
        replayer = Replayer(self.prefix, live, on_meta=self._replay_meta, on_live=self._go_live,
                            on_answer=self._replayed)
        recorder = self.recorder = Recorder(replayer, [])
        options = _GameOptions(seed=self.seed, decider=recorder, sink=self._present, party=self.party,
                               advise=self.advise)
        if self.game_class is Game:
            game = self.game = Game(self.adventure, **options)
        else:
            game = self.game = self.game_class(**options)
        game.edition = self.edition
        recorder.dice = game.rng
        try:
            ending = game.play()
        except Undo:
            self.prefix = _undone(recorder)
            self.banner = "Stepped back one decision."
            return "undo"
        except Quit:
            if self._stop_unsaved(""):
                return 2
            say_copyable(self.console, "Saved. Resume with:", resume_command(self.save_path))
            return 0
        except ScriptRefused as exc:  # the lines after it were written for other questions: feed them to none
            refused = str(exc).rstrip(".")
            if self._stop_unsaved(f"{refused}. "):
                return 2
            say_copyable(self.console, f"{refused}. The script stops here; the game is saved. Resume with:",
                         resume_command(self.save_path), style="red")
            return 3
        except EOFError:
            if self._stop_unsaved("\nInput ended. "):
                return 2
            if self.script is not None and not self.partial:
                say_copyable(self.console, f"\n{self.script.name}: the script ended after {self.script.answers} "
                             f"answer{'s' if self.script.answers != 1 else ''}, before the game did; the game is "
                             "saved. Resume with:", resume_command(self.save_path),
                             "(--partial: a script meant to stop early)", style="red")
                return 4
            say_copyable(self.console, "\nInput ended; the game is saved. Resume with:", resume_command(self.save_path))
            return 0
        except KeyboardInterrupt:
            return self._stopped()
        except OutputGone as gone:  # the screen is gone (a closed pipe, a full disk): keep the game, say it elsewhere
            problem = self._try_save(stopping=True)
            gone.note = (f"the game is saved; resume it with {resume_command(self.save_path)}" if problem is None
                         else self._not_saved(problem))
            raise
        except SoloError as exc:  # e.g. a save that no longer fits its adventure
            from ..saves import SaveMismatch, backup_hint

            where = f"{self.save_path}: " if isinstance(exc, SaveMismatch) else ""
            # the save one step back may still replay (a bad-input audit: the replay's failure never named it)
            hint = backup_hint(self.save_path) if isinstance(exc, SaveMismatch) else ""
            say(self.console, one_line(f"{where}{exc}" + (f".{hint}" if hint else "")), style="red", soft_wrap=True)
            return 2
        except Exception as exc:  # a bug in solo: keep the game, keep the evidence, say exactly what was kept
            import traceback

            from ..paths import write_atomic

            details = traceback.format_exc()
            problem = self._try_save(stopping=True)
            saved = f"your game is saved at {self.save_path}" if problem is None else self._not_saved(problem)
            report = self.save_path.with_name(self.save_path.stem + ".error.txt")
            try:
                report.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(report, details)
                kept = f"the details are in {report}"
            except OSError as err:
                kept = f"the details could not be written to {report} ({err.strerror or err})"
            say(self.console, f"solo hit an internal error ({type(exc).__name__}); {saved}; {kept}. "
                "Please report it.", style="red", soft_wrap=True)
            return 1
        finally:
            self._write_transcript()
        problem = self._try_save()
        if self.replaying:  # the whole log was a finished game: nothing new happened
            self.view.unmute("This game is already over; here is how it ended.")
            say(self.console, f"Start a new one with: {new_game_command(self.adventure, self.save_path.parent)}",
                style="dim", soft_wrap=True)
            if problem:
                say(self.console, self._not_saved(problem), style="red", soft_wrap=True)
            return 2 if problem else 0
        context = self.game.context() if self.game is not None else None
        over = f"The game is over ({ending_name(self.adventure, ending, context)})"
        if problem:
            say(self.console, f"{over}. {self._not_saved(problem)}", style="red", soft_wrap=True)
        else:
            tell(self.console, f"{over} and saved at {self.save_path}.", style="dim")  # the path kept whole
        self._keep_characters()
        left = self.script.unused() if self.script is not None and not problem else None
        if left is not None and self.script is not None:
            say(self.console, f"{self.script.name}:{left}: the game ended before this line; the script was "
                "written for another game (or the choices before went another way).", style="red", soft_wrap=True)
            return 3
        return 2 if problem else 0

    def _keep_characters(self) -> None:
        """After the scenario the characters (improved, Luck restored) are written back for the next one: one
        that came from a file or from the roster over its own file, a ready-made or new one to a new file; then
        one command plays them all again (:func:`take_on_hint`)."""
        if self.characters_dir is None or self.game is None:
            return
        from ..characters import played_scenarios, save_new_character, update_character

        roster = getattr(self.game, "roster", None)  # the roster the game offered, and what was taken from it
        chosen: dict[str, Path] = roster.chosen if roster is not None else {}
        kept: list[tuple[Character, Path]] = []
        for pc in self.game.state.pcs:
            if pc.name in self._lent:  # the adventure's weapon stays in it, as its items do (docs/characters.md)
                pc = pc.duplicate()
                pc.weapon = None
            own = self._own_file(pc.name, chosen)
            try:
                # another game (or an edit) may have changed the file since this one began: writing this game's
                # character over it would undo that game's improvements without a word (a group's evening: Kjell's
                # Combat 52 went back to 50 when an older save of his was finished)
                if own is not None and update_character(pc, own, begun=self._begun_as(pc.name, own, roster)):
                    path = own
                elif own is not None:
                    path = save_new_character(pc, self.characters_dir, scenarios=max(1, played_scenarios(own)))
                    say(self.console, f"{short_path(own)} has changed since this game began (another game or an "
                        f"edit), so it is left as it is; this game's {pc.name} is written to {short_path(path)} "
                        "instead.", style="yellow", soft_wrap=True)
                else:  # a pregenerated or new character gets a file of its own, never someone else's
                    path = save_new_character(pc, self.characters_dir, scenarios=1)
            except OSError as exc:
                say(self.console, f"Could not write {own or self.characters_dir}: {exc.strerror or exc}",
                    style="red", soft_wrap=True)
                continue
            except SoloError as exc:  # no free file name for this character in the folder
                say(self.console, f"{pc.name} was not written: {exc}", style="red", soft_wrap=True)
                continue
            kept.append((pc, path))
        self._mark_the_dead(chosen)
        if kept:
            lead, command = take_on_hint(self.game.adventure, kept)
            say_copyable(self.console, lead, command)

    def _mark_the_dead(self, chosen: dict[str, Path]) -> None:
        """A roster character who died in this game (comae where the adventure says death, or an ending whose fate
        is death) has it written in its own file, so the roster offers it to no later game (a hot-seat group's next
        game offered "Alma Berg", who had died in Kaldskard). A ready-made or new character who died has no file."""
        from ..characters import in_folder, mark_fallen

        assert self.game is not None and self.characters_dir is not None
        for name, fate in self.game.state.removed.items():
            own = self._own_file(name, chosen)
            if fate != "death" or own is None or not in_folder(own, self.characters_dir):
                continue  # a character given as a file of its own, outside the roster, is no roster's to mark
            try:
                if mark_fallen(own, self.game.adventure.title):
                    say(self.console, f"{name} died in {self.game.adventure.title}: {short_path(own)} says so, and "
                        "the roster will not offer them again.", style="dim", soft_wrap=True)
            except OSError as exc:
                say(self.console, f"Could not write {own}: {exc.strerror or exc}", style="red", soft_wrap=True)

    def _own_file(self, name: str, chosen: dict[str, Path]) -> Path | None:
        """The file the character ``name`` came from: the one the game was given (``--pc``, ``--party``), else the
        roster file chosen for it, where that lies in this game's roster; None for a ready-made or new one."""
        from ..characters import in_folder

        own = self.character_files.get(name)
        if own is None and name in chosen and self.characters_dir is not None \
                and in_folder(chosen[name], self.characters_dir):
            own = chosen[name]
        return own

    def _begun_as(self, name: str, path: Path, roster: object) -> Character | None:
        """The character this game began with, whose file is ``path``: the one the game was given (``--pc``,
        ``--party``: kept in the save) or the roster entry chosen; None where the game does not know."""
        begun = next((pc for pc in self.party or () if pc.name == name), None)
        if begun is None and roster is not None:
            entry = next((e for e in getattr(roster, "entries", ()) if _same_file(e.path, path)), None)
            begun = entry.load() if entry is not None else None
        return begun

    def _cannot(self, problem: str) -> None:
        """A table-side command that cannot be done: at the keyboard it is said and the prompt comes back;
        a script stops there (exit 3), as for an answer that fits no option."""
        self._refused(problem)
        tell(self.console, problem, style="red")

    def _refused(self, problem: str) -> None:
        """A script's answer fits no option: stop, naming the script's file and line."""
        if self.script is not None:
            raise ScriptRefused(self.script.where(), problem)

    @property
    def _game(self) -> Game:
        """The game in play: table-side commands and replayed notes only arrive while there is one."""
        if self.game is None:
            raise RuntimeError("no game is being played")
        return self.game

    @property
    def _recorder(self) -> Recorder:
        if self.recorder is None:
            raise RuntimeError("no game is being played")
        return self.recorder

    # -- events -----------------------------------------------------------------------
    def _present(self, event: Event) -> None:
        if self.replaying and event.kind != "chance":  # what follows an event is a new choice's questions
            self._chain = []
        if event.kind == "wield" and not event.get("kept"):  # handed a weapon by the story: lent, not given
            self._lent.add(event["actor"])
        narration = self._narrate(event)
        self.view.render(event, narration)
        self.journal.render(event, narration)
        if self.events is not None:
            if not self.replaying:
                self._stream(event)
            elif event.kind == "chance":  # a replay's events are in the stream already, but the
                self._held.append(event)  # question it stops at is asked anew: keep its chances
            else:
                self._held = []
        if not self.replaying and event.kind in ("scene_entered", "round_start"):
            self._autosave()

    def _start_narration(self) -> None:
        """A fresh narrator per play-through, built when the first event it tells arrives (the templates
        are not needed for the first screen: start-up stays quick)."""
        self.narrator: Narrator | None = None
        self.cast: Cast | None = None
        self.fighting = False  # between a conflict's start and its end: its own cast, told by its events

    def _narrator(self, kind: str) -> Narrator | None:
        """The play-through's narrator, its own generator from the seed, so a replay tells the same story.
        Before the first event it has a handler for there is nothing to tell: a new narrator holds nothing."""
        if self.narrator is None:
            if kind not in NARRATED:
                return None
            from ..narration import Narrator, load_templates, narration_rng

            if self.templates is None:
                extra = [(self.adventure.source, self.adventure.templates)] if self.adventure.templates else []
                self.templates = load_templates(extra_data=extra)
            self.narrator = Narrator(self.templates, narration_rng(self.seed))
            self.cast = self._story_cast()
        return self.narrator

    def _story_cast(self) -> Cast:
        """Who the story's own lines (a blow a scene deals, Luck spent outside a conflict) are about: the party,
        known by their characters (a line for Espen says "he", not the "they" of someone nobody described)."""
        from ..narration import Cast

        return Cast({pc.name: pc for pc in self.game.state.party} if self.game is not None else {})

    def _narrate(self, event: Event) -> list[str]:
        narrator = self._narrator(event.kind)
        if narrator is None:
            return []
        if event.kind == "conflict_start":
            from ..narration import Cast

            self.cast = Cast({})  # the event says who is who (solo.rules.fiction): nothing is looked up by name
            self.fighting = True
        if event.kind == "escalate":
            event = Event("escalate", {**event.data, "target": event.get("opponent")})
        assert self.cast is not None
        if event.kind == "scene_entered" and not self.fighting:
            self.cast = self._story_cast()  # outside a conflict: the party as it is now (one may have joined)
        lines = narrator.narrate(event, self.cast)
        if event.kind == "conflict_end":
            self.cast = self._story_cast()  # told: the story's lines again (a PC who sat the conflict out is known)
            self.fighting = False
        return lines

    def _replayed(self, question: Question, answer: str) -> None:
        if self.replaying:
            self._chain.append((question, answer))

    def _go_live(self) -> None:
        self.replaying = False
        for event in self._held:
            self._stream(event)
        self._held = []
        self.view.unmute(self.banner)
        self.banner = None
        if self._chain:  # an undo or a resume lands among a choice's questions: the answers that led here
            say(self.console, answered_so_far(self._chain), style="dim", soft_wrap=True)
            self._chain = []

    def _stream(self, event: Event) -> None:
        """Write ``event`` to the --events file; if that fails, say so once and play on without it."""
        if self.events is None:
            return
        try:
            self.events(event)
        except EventStreamError as exc:
            self.events = None
            say(self.console, f"{exc}; the game goes on without writing events.", style="red", soft_wrap=True)

    def _player_of(self, name: str) -> str | None:
        """Whose turn a question is, at a hot-seat table; nobody's alone: a character's file remembers the player of
        its last group game, and "Ola  Astrid Berg declares" followed her into a game played alone (a player's run)."""
        party = self.game.state.party if self.game else []
        if len(party) < 2:
            return None
        for pc in party:
            if pc.name == name:
                return pc.player
        return None

    # -- input --------------------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        line = clean_typed(self.reader(prompt))
        if self.echo:  # an answer too long to take is not printed back whole (the prompt refuses it)
            say(self.console, f"{prompt}{line if len(line) <= MAX_ANSWER else line[:40] + '…'}")
        return line

    def _table_side(self, line: str, question: Question) -> bool:
        """A table-side command typed at a prompt: the question is then asked again, the status line before it
        again (what the command printed may have pushed it off the screen), unlike a question that only follows
        another of the same decision."""
        handled = self._meta(line, question)
        if handled:
            self.view.status_due = True
        return handled

    def _meta(self, line: str, question: Question) -> bool:
        word, _, rest = line.partition(" ")
        word = word.lower()
        if line.startswith("?"):
            self._oracle(line[1:].strip())
            return True
        if word == "help":
            party = [pc.name for pc in self._game.state.pcs]
            # (the resume command is printed whole, on a line of its own, when the game stops: in the table's
            # column it wrapped mid-path, and could not be copied as printed: a player's run)
            self.console.print(help_table(_help(self.adventure.uses_pcs, party)))
            return True
        if word == "sheet":
            self._sheet(rest.strip())
            return True
        if word == "save":
            problem = self._try_save()
            if problem:
                say(self.console, self._not_saved(problem), style="red", soft_wrap=True)
            else:
                say(self.console, f"Saved to {self.save_path}.")
            return True
        if word == "quit":
            raise Quit()
        if word == "undo":
            if not any(e[0] == "a" for e in self._recorder.log):
                self._cannot("Nothing to undo yet.")
                return True
            raise Undo()
        if word == "note" and rest.strip():
            self._recorder.meta("note", rest.strip())
            self._do_note(rest.strip())
            return True
        if word == "note":  # an empty note is no note: nothing is kept, the question stays
            say(self.console, "Nothing noted.", style="dim")
            return True
        if word == "recap":
            self._recap()
            return True
        if word == "luck":
            self._luck(rest.strip(), question)
            return True
        from .table_commands import commands

        command = commands().get(word)
        if command is None:
            return False
        if command.needs_pcs and not self.adventure.uses_pcs:
            self._cannot(_NO_PC)
            return True
        command.run(self, rest.strip(), question)
        return True

    def record(self, word: str, *args: str) -> None:
        """Keep a table command in the save, to be replayed (through its ``replay``) when the game loads."""
        self._recorder.meta(word, *args)

    def _luck(self, args: str, question: Question) -> None:
        """``luck [CHARACTER] contact [ROLE or NAME]`` or ``luck [CHARACTER] find ITEM``: the story does the rest."""
        from ..story.play.luck import LUCK_COMMANDS, LuckRefused

        words = args.split()
        at = next((i for i, w in enumerate(words) if w.lower() in LUCK_COMMANDS), None)
        party = self._game.state.pcs
        if not party:
            self._cannot(_NO_PC if not self.adventure.uses_pcs else "No characters yet: nobody has Luck to spend.")
            return
        if at is None:
            luck = ", ".join(f"{pc.name} {pc.luck}" for pc in party)
            usage = (f"Luck: {luck}. Spend one with 'luck contact [ROLE or NAME]' (a Contact turns up) "
                     "or 'luck find ITEM' (a small useful item turns up)"
                     + ("; put a character's name first to say who spends it." if len(party) > 1 else "."))
            if words:  # 'luck' alone asks; 'luck WORDS' without contact or find asked for something else
                self._cannot(f"'luck {args}' names no Luck command. {usage}")
            else:
                tell(self.console, usage)
            return
        who, command, text = " ".join(words[:at]), words[at].lower(), " ".join(words[at + 1:])
        if who:
            pc = next((p for p in party if p.name.lower().startswith(who.lower())), None)
        else:  # whoever the prompt is for, else whoever acted last
            pc = next((p for p in party if p.name == question.actor), None) or self._game.state.active_pc()
        if pc is None:
            self._cannot(f"No character called {who!r}; the party is {', '.join(p.name for p in party)}.")
            return
        from ..story.play.luck import out_of_the_conflict

        refused = out_of_the_conflict(self._game, pc)
        if refused is not None:  # asked before the point is offered; use_luck refuses by the same rule
            self._cannot(refused)
            return
        if question.kind in LUCK_QUESTIONS and pc.name == question.actor:
            # its own Luck is what the question weighs: spent beside it, the question's "1 Luck left" and "Luck
            # stays 2" no longer hold (found re-shown after two Contacts had spent it all)
            self._cannot(f"First answer this question: it is about {pc.name}'s Luck too. Then 'luck {args}'.")
            return
        if not self._spend_asked(pc, command, text):
            say(self.console, f"Nothing spent: {pc.name} keeps {pc.luck} Luck.")
            return
        try:
            self._use_luck(pc.name, command, text)
        except LuckRefused as exc:
            self._cannot(str(exc))
            return
        self._recorder.meta("luck", command, pc.name, text)

    def _spend_asked(self, pc: Character, command: str, text: str) -> bool:
        """A Luck Point is spent only once the player says so (issue 31, point 5): what it buys and what would be
        left are shown first. A use that will be refused anyway (no Luck to spend, an item the party already
        carries) is not asked about: the refusal says why."""
        from ..decisions import Option
        from ..narration.text import with_article_if_one
        from ..rules.luck import can_spend
        from ..rules.rolls import luck_left
        from ..story.play.luck import LuckRefused, clean_name, contact_wanted

        if not can_spend(pc, negative_luck=self.adventure.negative_luck) or (
                command == "find" and text.strip().lower() in self._game.state.items):
            return True
        try:
            if command == "find":
                clean_name(text, "the item you find, e.g. luck find rope")
            else:  # the question says how the words are read, as the Contact will be brought in (one reading)
                contact = contact_wanted(self._game, text)
        except LuckRefused:
            return True
        what = f"finding {with_article_if_one(text.strip())}" if command == "find" else contact.words()
        unread = ""
        # (open play's conditions are the table's own); the adventure is asked, never the class the game was made
        # by: play makes its games through a maker, and a test of "is Game" had kept the warning from every game
        from ..story.play.open_play import OPEN_ID

        if command == "find" and self.adventure.id != OPEN_ID:
            from ..story.format.graph import items_the_story_reads

            tested, any_find = items_the_story_reads(self.adventure)
            if not any_find and clean_name(text, "").lower() not in tested:  # as the item will be named
                unread = " Nothing in this story asks for it: what it does is for the table to agree."
        question = Question("luck_spend", f"Spend a Luck Point on {what}?{unread} You would have "
                            f"{luck_left(pc.luck)} left.",
                            (Option("yes", "Spend it"), Option("no", "Keep it", f"Luck stays {pc.luck}")),
                            # Enter keeps the point where nothing in the story asks for the thing (a new player
                            # spent one at "Nothing in this story asks for it", Enter offered for Spend it)
                            actor=pc.name, default="no" if unread else "yes")
        return self.live.decide(question) == "yes"

    def _use_luck(self, name: str, command: str, text: str) -> None:
        from ..story.play.luck import use_luck

        use_luck(self._game, self._party_member(name), command, text)

    def _party_member(self, name: str) -> Character:
        """The party's character of that name, as a save's log recorded it (a ValueError where none is)."""
        found = next((p for p in self._game.state.party if p.name == name), None)
        if found is None:
            raise ValueError(f"nobody in the party is called {name[:40]!r}")
        return found

    def _spend_luck(self, name: str, use: str) -> None:
        """A save from before ``luck`` changed the game: the point was spent and nothing else happened."""
        from ..rules.luck import spend

        pc = self._party_member(name)
        spend(pc, use, negative_luck=self.adventure.negative_luck)
        self._game.emit("luck", actor=pc.name, use=use, luck=pc.luck)

    def _oracle(self, text: str) -> None:
        from ..oracle import OracleError
        from ..oracle.likelihood import bare_odds, trailing_odds

        text, written = trailing_odds(text)
        if written is None:  # "? Is the door locked? likely", as solo oracle takes it
            text, written = bare_odds(text)
        odds = written or "even"
        if not text:
            self._cannot("Ask a question after the '?', e.g. ? Is the door locked? (likely)")
            return
        try:
            self._game.ask_oracle(text, odds)
        except (OracleError, ValueError) as exc:
            self._cannot(str(exc))
            return
        self._recorder.meta("oracle", text, odds)

    def _replay_meta(self, entry: LogEntry) -> None:
        from ..saves import SaveMismatch
        from ..story.play.luck import LuckRefused

        try:
            self._replay_one_meta(entry)
        except (LuckRefused, SoloError, ValueError, TypeError, KeyError, IndexError, StopIteration) as exc:
            shown = " ".join(str(x) for x in entry[1:])[:80]
            reason = str(exc) or type(exc).__name__  # (a bare exception said "()")
            raise SaveMismatch(f"the recorded '{shown}' cannot be replayed ({reason})") from None

    def _replay_one_meta(self, entry: LogEntry) -> None:
        from .table_commands import commands

        command = commands().get(str(entry[1])) if len(entry) > 1 else None
        if command is not None and command.replay is not None:
            command.replay(self, list(entry[2:]))
            self._recorder.meta(*entry[1:])
            return
        if entry[1] not in ("oracle", "note", "luck", "undo") or len(entry) < 3:
            raise ValueError("not a command solo records")
        if entry[1] == "undo":  # the dice drawn before that undo stay spent, as they were in play
            from ..rules.dice import MAX_SPENT_WORDS, spend_words

            if not re.fullmatch(r"\d{1,7}", str(entry[2])):  # (MAX_SPENT_WORDS below bounds its value)
                raise ValueError(f"an undo records a number of dice words, not {str(entry[2])[:20]!r}")
            words = int(entry[2])
            if not 0 <= words <= MAX_SPENT_WORDS:
                raise ValueError(f"an undo cannot have spent {words} dice words")
            spend_words(self._game.rng, words)
        elif entry[1] == "oracle":
            self._game.ask_oracle(entry[2], entry[3] if len(entry) > 3 else "even")
        elif entry[1] == "note":
            self._do_note(entry[2])
        elif entry[1] == "luck" and len(entry) > 4:
            self._use_luck(entry[3], entry[2], entry[4])
        elif entry[1] == "luck":
            self._spend_luck(entry[3], entry[2])
        self._recorder.meta(*entry[1:])

    def _do_note(self, text: str) -> None:
        self._game.state.notes.append(text)
        self._game.emit("note", text=text)

    def _sheet(self, name: str) -> None:
        from .sheet import character_card

        party = self._game.state.party
        if not party:
            self._cannot(_NO_PC if not self.adventure.uses_pcs else "No characters yet.")
            return
        chosen = [pc for pc in party if not name or pc.name.lower().startswith(name.lower())]
        if not chosen:
            self._cannot(f"No character called {name!r}; the party is {', '.join(p.name for p in party)}.")
            return
        for pc in chosen:
            self.console.print(character_card(pc, self._game.pools_shown(pc)))
        if self._game.state.items:
            say(self.console, "Carried: " + ", ".join(self._game.state.items))

    def _recap(self) -> None:
        """The story so far, latest last: each scene's title once, and under it what came of its rolls,
        conflicts and choices, the notes and the oracle's answers, in order; the scene under way last (the
        journal keeps them as plain text, from the events; :meth:`Journal.recap` leaves out the scenes only
        passed through). An entry too long for a line goes on under itself, below its scene's title."""
        from .view import between_words, plain

        lines = self.journal.recap()
        if not lines:
            tell(self.console, "Nothing has happened yet.")
        for line in lines:
            if not line.startswith("  "):  # a scene's title, the end
                tell(self.console, line)
                continue
            wrapped = between_words(plain(line.strip()), max(20, self.console.width - 4)).plain.split("\n")
            self.console.print(plain("\n".join(["  " + wrapped[0], *("    " + rest for rest in wrapped[1:])])),
                               soft_wrap=True)

    # -- saving ---------------------------------------------------------------------------
    def _save(self) -> None:
        if self.game is None or self.recorder is None:
            return
        scene = self.adventure.scenes.get(self.game.state.scene or "")
        data = save_data(self.adventure, self.seed, self.party, advise=self.advise, started=self.started,
                         roster=self.roster_layout, character_files=self.character_files, edition=self.edition)
        data.log = list(self.recorder.log)
        if self.game.state.party or not self.adventure.uses_pcs:
            data.snapshot = self.game.state.to_dict()
            if self.game.epilogue_done and not self.game.epilogue_finished:  # at its end, the improvements asked
                data.snapshot["improving"] = True  # (solo saves said "finished" of it: a new player's run)
        data.label = self._label(scene)
        write_save(self.save_path, data)

    def _try_save(self, *, stopping: bool = False) -> str | None:
        """Save now: None if the save was written, else why not (the file keeps the last save that worked).

        While a loaded game is still being replayed the file already holds all of it and more, so it
        is left as it is: an error or Ctrl-C during the replay must not cut a save short. ``stopping``: the
        game stops after this save, and no signal cuts it short (a closed window ends the input, then hangs up
        while the game saves: a new player's answers were lost with it).
        """
        if self.replaying or self.read_only:
            return None
        try:
            if stopping:
                with _signals_held():
                    self._save()
            else:
                self._save()
        except SaveWriteError as exc:
            self.save_problem = str(exc)
            return self.save_problem
        self.save_problem = None
        if self.recorder is not None:
            self.saved_answers = _answers(self.recorder.log)
        self._keep_journal()
        return None

    def journal_meta(self) -> dict[str, object]:
        """The journal's front matter: what a note vault indexes it by."""
        state = self.game.state if self.game is not None else None
        party = [pc.name for pc in state.party] if state is not None else []
        if not party and self.party:
            party = [pc.name for pc in self.party]
        ending = state.ending if state is not None else None
        context = self.game.context() if self.game is not None and ending else None
        return {"adventure": self.adventure.id, "title": self.adventure.title, "characters": party,
                "date": self.started, "seed": self.seed,
                "ending": ending_name(self.adventure, ending, context) if ending else None}

    def _keep_journal(self) -> None:
        """Rewrite the journal beside the save, whole (the replay rebuilt what came before); a failure is
        said once, as the game goes on, and so is the first write that works again."""
        if self.journal_path is None:
            return
        failing = self.journal_problem
        try:
            self.journal.write(self.journal_path, self.journal_meta())
        except (OSError, UnicodeError) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            self.journal_problem = f"cannot write the journal {self.journal_path}: {detail}"
            if not failing:
                say(self.console, f"{self.journal_problem}; the game itself is saved.", style="red", soft_wrap=True)
            return
        self.journal_problem = None
        if failing:
            say(self.console, f"The journal is written again to {self.journal_path}.", style="green",
                soft_wrap=True)

    def rebuild_journal(self) -> tuple[str, int]:
        """The whole journal of the saved game, rebuilt by replaying it with nothing written (a save from
        before solo kept journals has none beside it), and the replay's exit status: 0 if all of it replayed.
        What the replay says goes to this session's console, which the caller may keep out of sight."""
        self.read_only = True
        self.reader = _no_more_answers
        code = self.run()
        return self.journal.document(self.journal_meta()), code

    def _autosave(self) -> None:
        """The save at each scene and round; a failure is said once, and so is the first save that works again."""
        failing = self.save_problem
        problem = self._try_save()
        if problem and not failing:
            say(self.console, f"{self._not_saved(problem)} Play goes on: solo tries again at every scene and round "
                "('save' tries now).", style="red", soft_wrap=True)
        elif failing and not problem:
            say(self.console, f"Saved again to {self.save_path}.", style="green", soft_wrap=True)

    def _stopped(self) -> int:
        """Ctrl-C, a hang-up or a kill: saved, and said so (exit status 130)."""
        if not self._stop_unsaved("\nStopped. "):
            say_copyable(self.console, "\nStopped; the game is saved. Resume with:", resume_command(self.save_path))
        return 130

    def _stop_unsaved(self, lead: str) -> bool:
        """Save as the game stops; if that fails, say what the file holds instead and return True."""
        problem = self._try_save(stopping=True)
        if problem:
            say(self.console, f"{lead}{self._not_saved(problem)}", style="red", soft_wrap=True)
        return problem is not None

    def _not_saved(self, problem: str) -> str:
        """What is on disk after a failed save, exactly: nothing of this game, or the last save that worked."""
        if self.saved_answers is None:
            return f"The game is NOT saved ({problem}); nothing of this game was written to {self.save_path}."
        now = _answers(self.recorder.log) if self.recorder is not None else 0
        return (f"The game is NOT saved ({problem}); {self.save_path} holds the last save that worked, "
                f"after {self.saved_answers} decision{'s' if self.saved_answers != 1 else ''} "
                f"(this game has {now}).")

    def _label(self, scene: Scene | None) -> str:
        """Where the game stands, for 'solo saves'."""
        if scene is None:
            return save_data(self.adventure, self.seed, None, advise=self.advise).label
        if scene.id == "open":  # open play numbers its scenes
            return f"{self.adventure.title}: scene {self._game.state.visited.get('open', 1)}"
        return f"{self.adventure.title}: {shown(scene.title, self._game.context())}"

    def _write_transcript(self) -> None:
        if self.transcript is not None:
            try:
                self.journal.write(self.transcript)
            except OSError as exc:
                say(self.console, f"Could not write the transcript {self.transcript}: {exc.strerror or exc}",
                    style="red", soft_wrap=True)


def ending_name(adventure: Adventure, ending: str | None, context: Context | None = None) -> str:
    """The ending a game reached as the player reads it: its title and its outcome ("The gate; outcome: won").

    Two endings may share a title; their outcomes (the scene's ``outcome``, else its id, as the
    engine reports it) tell them apart. With the game's ``context`` a title's ``{if}`` blocks read
    as in the game, without one as :func:`~solo.story.format.text.shown` reads them.
    """
    from ..story.play.engine import DEAD_END, ENGINE_ENDINGS
    from .describe import outcome_beside

    scene = adventure.scenes.get(ending or "")
    if scene is not None:
        title = shown(scene.title, context)
        words = outcome_beside(title, scene.outcome or scene.id)  # "In time; outcome: in time" said it twice
        return f"{title}; outcome: {words}" if words else title
    from ..story.play.open_play import OPEN_END

    if ending == OPEN_END:
        return "the story's end"
    title, outcome, _ = ENGINE_ENDINGS.get(ending or "", ENGINE_ENDINGS[DEAD_END])
    words = outcome_beside(title, outcome) if outcome else ""  # not "the party has fallen; outcome: fallen"
    return title.lower() + (f"; outcome: {words}" if words else "")


def journal_path(save_path: Path) -> Path:
    """The journal kept beside a save: its name with ``.md`` instead of ``.json``, in the save's own folder."""
    stem = save_path.name.removesuffix(".json")
    return save_path.with_name(f"{stem or save_path.name}.md")


def _same_file(one: Path, other: Path | None) -> bool:
    if other is None:
        return False
    try:
        return one.resolve() == other.resolve()
    except (OSError, RuntimeError):
        return one == other


def answered_so_far(chain: list[tuple[Question, str]]) -> str:
    """The questions already answered on the way to the one a replay stops at, and their answers, on one
    line: "So far: What happens now? Make a skill roll · Which skill? Athletics · How hard is it? Normal". A
    prompt that is no question ("choose a Lens") is set off from its answer: "Choose a Lens: Flamboyant"."""
    parts = []
    for question, answer in chain:
        label = next((o.label for o in question.options if o.key == answer), answer)
        prompt = question.prompt.strip()
        if prompt and prompt[-1].isalnum():  # "choose a Lens": a question mark or a stop says it already
            prompt += ":"
        parts.append(f"{upper_first(prompt)} {label}" if prompt else str(label))
    return "So far: " + " · ".join(parts)


def take_on_hint(adventure: Adventure, kept: list[tuple[Character, Path]]) -> tuple[str, str]:
    """What to say once the characters are written back, and the one command that plays them again: this
    adventure, as :func:`new_game_command` starts it afresh (the program named as in the resume hint), with the
    one character's file after ``--pc``, or a party's files after ``--party`` on the one line a table types.
    ``kept``: each character and the file it was written to."""
    from ..rules.character import pronoun_forms
    from ..story.format.text import and_list

    files = [shlex.quote(str(path.absolute())) for _, path in kept]
    if len(kept) == 1:
        pc = kept[0][0]
        them = pronoun_forms(pc.pronoun)["them"]  # Espen is "he" in the story: "him" here
        return f"{pc.name} is saved. Take {them} on with:", f"{new_game_command(adventure)} --pc {files[0]}"
    names = and_list([pc.name for pc, _ in kept])
    return (f"{names} are saved. Take them on together with:",
            f"{new_game_command(adventure)} --party {' '.join(files)}")


def new_game_command(adventure: Adventure, saves: Path | None = None) -> str:
    """The command that starts ``adventure`` afresh, runnable as printed from a new shell as the resume hint is:
    by its name where that name finds this adventure (a bundled one, or one in the user's folders), else by its
    whole path (a name finds only what lies in those folders); with ``--saves`` where ``saves`` is not the
    folder a new game saves to by default (a game loaded from another folder starts its successor there)."""
    return _new_game(adventure) + _saves_option(saves)


def _saves_option(saves: Path | None) -> str:
    from ..paths import default_saves

    if saves is None:
        return ""
    try:
        if saves.resolve() == default_saves().resolve():
            return ""
    except (OSError, RuntimeError):
        pass
    return f" --saves {shlex.quote(str(saves.absolute()))}"


def _new_game(adventure: Adventure) -> str:
    from ..paths import solo_program
    from ..story.format.library import available
    from ..story.play.open_play import OPEN_ID

    if adventure.id == OPEN_ID:
        return f"{solo_program()} play --open"
    if not adventure.source:  # made in memory (by a test or a tool): its name is all there is
        return f"{solo_program()} play {shlex.quote(adventure.id)}"
    source = Path(adventure.source).resolve()
    name = next((name for name, path in available().items() if path.resolve() == source), None)
    return f"{solo_program()} play {shlex.quote(name or str(source))}"


def absolute_source(source: str) -> str:
    """A save's record of where its adventure was read from: the whole path (open play's name as it is)."""
    from ..story.play.open_play import OPEN_ID

    return source if source == OPEN_ID or not source else str(Path(source).resolve())


def save_data(adventure: Adventure, seed: int, party: list[Character] | None, *, advise: bool,
              started: str | None = None, roster: str | None = None,
              character_files: Mapping[str, Path] | None = None, edition: int | None = None) -> SaveData:
    """What a save of ``adventure`` holds before anything is played: the game's seed, the party it was
    given and its options. A session adds the log, the state and where the game stands; a new game's
    slot is created with this (see ``solo play``), so two games started at once never share a file."""
    data = SaveData(
        # where it was read from, whole: a path as typed named nothing from another folder (a bad-input audit)
        adventure_id=adventure.id, adventure_source=absolute_source(adventure.source),
        adventure_hash=adventure.content_hash,
        seed=seed, party=[pc.to_dict() for pc in party] if party else None,
        label=f"{adventure.title}: the beginning",
        # pc = false is written down so that 'solo saves' can tell "no player character" from "no party yet"
        options={"advise": advise} if adventure.uses_pcs else {"advise": advise, "pc": False},
    )
    data.options["started"] = started or _today()  # the journal's date: the first session's, kept across resumes
    # what the game plays by (Game.edition, engine.edition_of): a save replays by its own; ``who_first`` too, which
    # is all a save of edition 1 said
    data.options["edition"] = EDITION if edition is None else edition
    data.options["who_first"] = data.options["edition"] >= 1
    if roster is not None:  # where the game's roster lies from its save (solo.characters.ROSTER_LAYOUTS)
        data.options["roster"] = roster
    if character_files:  # the files --pc and --party read: a resumed game writes its characters back over them
        data.options["character_files"] = {name: str(path.resolve()) for name, path in character_files.items()}
    return data


def _today() -> str:
    from datetime import date

    return date.today().isoformat()


def _started(save_path: Path) -> str:
    """The date of a saved game's first session: written in the save since solo keeps journals; for an older
    save, the day it was last written (the earliest date solo can still know)."""
    from datetime import date

    from ..saves import SaveError, read_save

    try:
        started = read_save(save_path).options.get("started")
    except SaveError:
        started = None
    if isinstance(started, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", started):
        return started
    try:
        return date.fromtimestamp(save_path.stat().st_mtime).isoformat()
    except (OSError, ValueError, OverflowError):
        return _today()


def _no_more_answers(prompt: str) -> str:
    raise EOFError


def _answers(log: list[LogEntry]) -> int:
    return sum(1 for entry in log if entry[0] == "a")


def _undone(recorder: Recorder) -> list[LogEntry]:
    """The log an undo replays: every decision but the last, then a note of the dice drawn since that
    decision was made. Replaying the note draws them again and throws them away, so the choice made
    anew meets the dice that come after them: an undo never shows the player a die to choose by."""
    from ..rules.dice import MAX_SPENT_WORDS, words_between

    log = _without_last_answer(recorder.log)
    if recorder.dice is None or recorder.answered is None:
        return log
    spent = words_between(recorder.answered, recorder.dice.getstate())
    if spent is None:  # not found within the bound (no stretch of play draws that many): spend the bound
        spent = MAX_SPENT_WORDS
    return [*log, ["m", "undo", str(spent)]] if spent else log


def _without_last_answer(log: list[LogEntry]) -> list[LogEntry]:
    for i in range(len(log) - 1, -1, -1):
        if log[i][0] == "a":
            return log[:i]
    return []


def _hangup_stops() -> dict[int, Any]:
    """A closed terminal (SIGHUP) or a polite kill (SIGTERM) stops the game as Ctrl-C does: saved, its lock given
    back. Without this a hostile review's game lost the five answers given since the last save and left its lock
    file behind. The handlers the process had are returned, to be put back."""
    return _set_handlers(("SIGHUP", "SIGTERM"), _interrupt)


def _set_handlers(names: tuple[str, ...], handler: Any) -> dict[int, Any]:
    """Give the signals ``names`` (those this system has) ``handler``; the handlers they had, to be put back. Not
    on the main thread (a test's, a server's), the signals are left alone."""
    import signal

    previous: dict[int, Any] = {}
    for name in names:
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            previous[number] = signal.signal(number, handler)
        except (ValueError, OSError):
            break
    return previous


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """While a stopping game saves, Ctrl-C, a hang-up and a polite kill wait, then count for nothing: the game is
    stopping already. A closed terminal window ends the input and hangs up at once, and the hang-up's
    KeyboardInterrupt had cut short the very save the end of the input began (a new player's run)."""
    import signal

    previous = _set_handlers(("SIGINT", "SIGHUP", "SIGTERM"), signal.SIG_IGN)
    try:
        yield
    finally:
        _restore_handlers(previous)


def _interrupt(signum: int, frame: object) -> None:
    """A hang-up or a kill stops the game once: the ones that follow it (a closed window's shell passes its own
    hang-up on) are ignored while the game saves and stops."""
    import signal

    _set_handlers(("SIGHUP", "SIGTERM"), signal.SIG_IGN)
    raise KeyboardInterrupt


def _restore_handlers(previous: dict[int, Any]) -> None:
    import signal

    for number, handler in previous.items():
        signal.signal(number, handler)
