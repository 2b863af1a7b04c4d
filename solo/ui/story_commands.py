"""In-game commands that show or change the state of the story (threads, NPCs, dice, tables, meaning).

Each is registered with :mod:`solo.ui.table_commands`. What they show is read
from the game's own state (the oracle's threads and NPCs, the party, the
items), never from a copy, so a list is exactly what the next random event
will draw from. What changes the story (a thread added or closed, an NPC
named, the status line turned on) is recorded in the save and replayed.

Dice, tables and meaning words rolled at the prompt come from a generator of
their own, seeded from the game's seed and the command's place in the save's
log (:func:`side_seed`): the game's dice are untouched, and a loaded game or
an undo shows the very same results again.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .describe import track_text, weight_mark
from .sheet import gear_names
from .table_commands import TableCommand, register
from .view import say

if TYPE_CHECKING:
    from ..decisions import Question
    from ..oracle.tables import TableSet
    from ..story.play.engine import Game
    from .session import Session


def _cannot(session: Session, problem: str) -> None:
    """Said at the keyboard (the prompt comes back); a script stops there, as for a wrong answer."""
    session._cannot(problem)


def as_sentence(text: str) -> str:
    """A refusal as a sentence of its own: its first letter a capital, a full stop at its end."""
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def _game(session: Session) -> Game:
    if session.game is None:
        raise RuntimeError("no game is being played")
    return session.game


def _line(session: Session, text: str, style: str = "") -> None:
    say(session.console, text, style=style)  # wrapped at words: a long list is not cut mid-word


def _emit_roll(session: Session, table: str, text: str, **data: Any) -> None:
    """A roll made at the prompt goes out as a ``table`` event: the view and the journal show it."""
    _game(session).emit("table", table=table, text=text, by="player", **data)


# -- the generator of table-side rolls ------------------------------------------------


def side_seed(game_seed: int, word: str, position: int) -> int:
    """The seed of a table-side roll: the game's seed, the command and how far the save's log had got.

    ``solo roll EXPR --seed N`` with this number rolls the same dice as ``roll EXPR`` did in the game.
    """
    digest = hashlib.blake2b(f"{game_seed}:{word}:{position}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # a non-negative 63-bit number


def _side_rng(session: Session, word: str) -> random.Random:
    from ..rules.dice import new_rng

    position = len(session.recorder.log) if session.recorder is not None else 0
    return new_rng(side_seed(session.seed, word, position))


# -- threads ----------------------------------------------------------------------------


THREAD_VERBS = "threads progress N [POINTS] \u00b7 threads discover N \u00b7 threads add TEXT \u00b7 threads close N"
WEIGHT_NOTE = ("\u00d72, \u00d73: the oracle picks it two or three times as often "
               "(threads add N again counts it once more, up to \u00d73)")


def threads_text(game: Game) -> str:
    oracle = game.state.oracle
    if not oracle.threads:
        return "No open threads. Add one with: threads add TEXT"
    lines = ["Open threads:"]
    for i, text in enumerate(oracle.threads, 1):
        lines.append(f"  {i}. {text}{weight_mark(oracle.thread_weight(text))} \u00b7 "
                     f"{track_text(oracle.thread_progress(text))}")
    if oracle.thread_weights:
        lines.append(WEIGHT_NOTE)
    lines.append(THREAD_VERBS)
    return "\n".join(lines)


def _thread_to_add(game: Game, text: str) -> list[str]:
    """A new thread's words, or an open thread written again (by its number or its words, in any case)."""
    from ..oracle.session_file import known_entry
    from ..oracle.state import MAX_WEIGHT

    oracle = game.state.oracle
    if text.isdigit() and 1 <= int(text) <= len(oracle.threads):
        text = oracle.threads[int(text) - 1]
    text = known_entry(oracle.threads, text)
    if oracle.thread_weight(text) >= MAX_WEIGHT:
        raise ValueError(f"\u201c{text}\u201d already counts {MAX_WEIGHT} times, the most a thread can")
    return [text]


def _open_thread(game: Game, text: str) -> list[str]:
    return [game.state.oracle.threads[game.state.oracle.thread_number(text) - 1]]


def _add_thread(session: Session, text: str) -> None:
    game = _game(session)
    weight = game.state.oracle.add_thread(text, again=True)  # ValueError past the most: the save does not fit
    game.emit("thread", text=text, opened=True, by="player", **({"weight": weight} if weight > 1 else {}))


def _close_thread(session: Session, text: str) -> None:
    game = _game(session)
    game.state.oracle.close_thread(text)  # ValueError if it is not open: on a replay, the save does not fit
    game.emit("thread", text=text, opened=False, by="player")


def _progress_of(game: Game, text: str) -> list[str]:
    """``N [POINTS]``: the thread (by number or the start of its words) and the points, 1 by default."""
    from ..oracle.state import MAX_STEP, TRACK

    which, points = text, 1
    head, _, last = text.rpartition(" ")
    if head.strip() and last.lstrip("+").isdigit():
        which, points = head.strip(), int(last.lstrip("+"))
    if not 1 <= points <= MAX_STEP:
        raise ValueError(f"progress is 1 to {MAX_STEP} points at a time (1 a step, 2 a big one, 3 a breakthrough)")
    thread = _open_thread(game, which)[0]
    if game.state.oracle.thread_progress(thread) >= TRACK:
        raise ValueError(f"\u201c{thread}\u201d is at the end of its track: settle it, then close it")
    return [thread, str(points)]


def _add_progress(session: Session, text: str, points: str = "1") -> None:
    game = _game(session)
    oracle = game.state.oracle
    step = oracle.add_progress(text, int(points))
    game.emit("thread_progress", **step.to_dict(), number=oracle.threads.index(text) + 1, by="player")


def _to_discover(game: Game, text: str) -> list[str]:
    thread = _open_thread(game, text)[0]
    if thread in game.state.oracle.searched:
        who = "your character has" if len(game.state.party) <= 1 else "the party has"
        raise ValueError(f"{who} already looked into \u201c{thread}\u201d in this scene: look again in the next one")
    return [thread]


def _discover(session: Session, text: str) -> None:
    """A discovery check with the table-side dice: the game's own are untouched, and a replay rolls it again."""
    from ..oracle.threads import discover

    game = _game(session)
    found = discover(_side_rng(session, "discover"), game.state.oracle, text, game.tables)
    game.emit("discovery", **found.to_dict(), by="player")


@dataclass(frozen=True)
class _ListCommand:
    """A list of the story's that the player reads (the word alone) and changes (``word VERB TEXT``).

    Each verb finds what it acts on (``ValueError`` says why nothing fits), as the arguments
    of its act, and then acts; the save keeps what was found, not what was typed, so a replay
    acts on the same entry.
    """

    word: str
    listing: Callable[[Game], str]
    verbs: dict[str, tuple[Callable[[Game, str], list[str]], Callable[..., None]]]
    usage: str

    def run(self, session: Session, rest: str, question: Question) -> None:
        verb, _, text = rest.partition(" ")
        verb, text = verb.lower(), text.strip()
        game = _game(session)
        if not verb:
            _line(session, self.listing(game))
            return
        if verb not in self.verbs or not text:
            _cannot(session, self.usage)
            return
        find, act = self.verbs[verb]
        try:
            found = find(game, text)
        except ValueError as exc:
            _cannot(session, f"{as_sentence(str(exc))}\n{self.listing(game)}")  # the list on a line of its own
            return
        act(session, *found)
        session.record(self.word, verb, *found)

    def replay(self, session: Session, args: list[Any]) -> None:
        verb = str(args[0])
        if verb not in self.verbs or len(args) < 2:
            raise ValueError(f"unknown {self.word} entry {verb!r}")
        self.verbs[verb][1](session, *(str(a) for a in args[1:]))


THREADS = _ListCommand("threads", threads_text,
                       {"add": (_thread_to_add, _add_thread), "close": (_open_thread, _close_thread),
                        "progress": (_progress_of, _add_progress), "discover": (_to_discover, _discover)},
                       "Type 'threads' to list them, 'threads add TEXT' to open one (or to make one count again), "
                       "'threads progress N' to move one on, 'threads discover N' to look for a lead, "
                       "'threads close N' to close one.")


# -- NPCs --------------------------------------------------------------------------------


def npcs_text(game: Game) -> str:
    """Everyone the story has in play, in the order they came in, as much as the PCs know of them: a name (else
    what was seen of them), role, disposition and secret once learned (:mod:`solo.story.play.knowledge`), their state,
    and what they remember the PCs doing; names the player added themselves are marked as theirs, and a name
    that counts more than once when the oracle picks someone shows how many times (×2)."""
    from ..story.play.knowledge import called

    state = game.state
    by_label = {called(game, nid): nid for nid in state.npcs}
    if not state.oracle.npcs:
        return "Nobody met yet. Name someone yourself with: npcs add NAME"
    lines = ["People in the story:"]
    for label in state.oracle.npcs:
        mark = weight_mark(state.oracle.npc_weight(label))
        if label not in by_label:
            lines.append(f"  {label}{mark} (named by you)")
            continue
        lines.append(f"  {npc_card(game, by_label[label], mark)}")
    return "\n".join(lines)


def npc_card(game: Game, nid: str, mark: str = "") -> str:
    """One NPC as the PCs know them: "Knut Dahl (dockside enforcer, unfriendly); you know: …; remembers: …",
    or only "a big man in a docker's coat" before they have learned more; ``mark``: their weight on the
    oracle's list (" ×2"), after the name."""
    from ..minds.memory import DEEDS
    from ..story.play.knowledge import called, facets_of, secret_of, status_words
    from ..story.play.npcs import disposition_of

    state = game.state
    npc = state.npcs[nid]
    known = facets_of(game, nid)
    about = [npc.role[:1].lower() + npc.role[1:]] if npc.role and "role" in known else []  # "keeper of the Anchor"
    if npc.code_block is None:
        about.append("mindless")  # to be seen at once: nothing behind its eyes to have a disposition
    elif "disposition" in known:
        about.append(disposition_of(npc).lower())
    status = status_words(game, nid)  # "lost an argument", not a bare "out"
    if status:
        about.append(status)
    line = called(game, nid) + mark + (f" ({', '.join(about)})" if about else "")
    secret = secret_of(game, nid) if "secret" in known else ""
    if secret:
        line += f"; you know: {secret.rstrip('.')}"
    deeds = state.memory.get(nid, [])
    if deeds:
        counted = {deed: deeds.count(deed) for deed in deeds}
        remembered = [(DEEDS[d].told(npc.pronoun) if d in DEEDS else d.replace("_", " "))
                      + (f" (×{n})" if n > 1 else "") for d, n in counted.items()]
        line += f"; remembers: {'; '.join(remembered)}"
    return line


def _npc_to_add(game: Game, name: str) -> list[str]:
    """A new name, or someone on the list written again (their name in any case)."""
    from ..oracle.session_file import known_entry
    from ..oracle.state import MAX_WEIGHT

    oracle = game.state.oracle
    name = known_entry(oracle.npcs, name)
    if oracle.npc_weight(name) >= MAX_WEIGHT:
        raise ValueError(f"{name} already counts {MAX_WEIGHT} times, the most anyone can")
    return [name]


def _npc_in_play(game: Game, name: str) -> list[str]:
    known = game.state.oracle.npcs
    found = ([n for n in known if n.lower() == name.lower()]
             or [n for n in known if n.lower().startswith(name.lower())])
    if len(found) != 1:
        raise ValueError(f"\u201c{name}\u201d {'fits more than one person' if found else 'is nobody in the story'}")
    return found


def _add_npc(session: Session, name: str) -> None:
    game = _game(session)
    weight = game.state.oracle.add_npc(name, again=True)
    game.emit("cast", name=name, added=True, by="player", **({"weight": weight} if weight > 1 else {}))


def _drop_npc(session: Session, name: str) -> None:
    game = _game(session)
    game.state.oracle.remove_npc(name)
    game.emit("cast", name=name, added=False, by="player")


NPCS = _ListCommand("npcs", npcs_text, {"add": (_npc_to_add, _add_npc), "drop": (_npc_in_play, _drop_npc)},
                    "Type 'npcs' to list them, 'npcs add NAME' to bring someone in (again: they count again, "
                    "up to 3 times), 'npcs drop NAME' to take someone out of the oracle's list.")


# -- items and clues -----------------------------------------------------------------------


def items_text(game: Game) -> str:
    """What the party carries (the story's items, then each character's own and the gear on the sheet) and the notes.

    An adventure's flags and counters stay out: they are the story's bookkeeping, written for
    conditions, and have no words of their own for the player.
    """
    state = game.state
    lines = [f"Carried: {', '.join(state.items)}." if state.items else "Carried: nothing the story has given you."]
    for pc in state.pcs:
        if pc.items:
            lines.append(f"{pc.name} has: {', '.join(pc.items)}.")
        gear = gear_names(pc)
        if gear:
            lines.append(f"{pc.name}'s gear: {', '.join(gear)}.")
    lines += _notes(game)
    return "\n".join(lines)


def clues_text(game: Game) -> str:
    """What the PCs have learned, as the story marked it (``learn``, in the order learned), then the notes."""
    clues = game.state.clues
    lines = ["What you have learned:", *(f"  - {clue}" for clue in clues)] if clues else \
        ["No clues yet: what the story marks as learned is kept here."]
    lines += _notes(game)
    return "\n".join(lines)


def _notes(game: Game) -> list[str]:
    notes = game.state.notes
    return ["Your notes:", *(f"  - {note}" for note in notes)] if notes else []


def _items(session: Session, rest: str, question: Question) -> None:
    _line(session, items_text(_game(session)))


def _clues(session: Session, rest: str, question: Question) -> None:
    _line(session, clues_text(_game(session)))


# -- the status line -------------------------------------------------------------------------


def status_text(session: Session) -> str:
    """Where the story stands, on one line: scene, tension, day (an adventure's ``day`` counter), the
    adventure's clocks (``[adventure] clocks``), Luck and the Pools of each character still in it."""
    from ..story.format.text import shown
    from ..story.play.open_play import OPEN_ID

    game = _game(session)
    state = game.state
    scene = session.adventure.scenes.get(state.scene or "")
    if session.adventure.id == OPEN_ID:
        where = f"scene {state.visited.get('open', 1)}"
    else:
        where = shown(scene.title, game.context()) if scene is not None else "the beginning"
    parts = [where, f"tension {state.oracle.tension}/9"]
    clocks = session.adventure.clocks
    if "day" in state.counters and not any(c.counter == "day" for c in clocks):
        parts.append(f"day {state.counters['day']}")
    parts += [c.shown(state.counters.get(c.counter, 0)) for c in clocks]
    for pc in state.pcs:
        pools = " ".join(f"{name} {value}/{maximum}" for name, value, maximum in game.pools_shown(pc))
        parts.append(f"{pc.name}: Luck {pc.luck}, {pools}")
    return "[" + " · ".join(parts) + "]"


def _set_status(session: Session, on: bool) -> None:
    session.view.status_line = (lambda: status_text(session)) if on else None
    session.view.status_due = on  # turned on: the line comes before the question asked again


def _status(session: Session, rest: str, question: Question) -> None:
    word = rest.lower()
    if word not in ("", "on", "off"):
        _cannot(session, "Type 'status' to see the status line before each question, 'status off' to hide it.")
        return
    on = word != "off"  # 'status' alone shows it (and keeps it on): only 'status off' hides it
    _set_status(session, on)
    session.record("status", "on" if on else "off")
    if on:  # the line itself comes next, before the question is asked again
        _line(session, "The status line is on: it comes before each decision ('status off' hides it).",
              style="dim")
    else:
        _line(session, "The status line is off.", style="dim")


def _replay_status(session: Session, args: list[Any]) -> None:
    if args[0] not in ("on", "off"):
        raise ValueError(f"unknown status entry {args[0]!r}")
    _set_status(session, args[0] == "on")


# -- dice, tables and meaning ------------------------------------------------------------------


def _roll(session: Session, rest: str, question: Question) -> None:
    from ..rules.dice import DiceError, parse

    if not rest:
        _cannot(session, "Roll what? e.g. roll 3d6+2, roll d100")
        return
    try:
        parse(rest)
    except DiceError as exc:
        _cannot(session, str(exc))
        return
    _do_roll(session, rest)
    session.record("roll", rest)


def _do_roll(session: Session, text: str) -> None:
    from ..rules.dice import parse

    expr = parse(text)
    rolled = expr.roll(_side_rng(session, "roll"))
    _emit_roll(session, "dice", f"Dice: {rolled.line()}", expression=str(expr), total=rolled.total)


def _table(session: Session, rest: str, question: Question) -> None:
    from ..oracle.tables import UnknownTable

    game = _game(session)
    typed = " ".join(rest.split())
    if typed.lower() in ("", "list"):
        _line(session, table_list(game.tables))
        return
    try:
        name = game.tables.find(typed).name
    except UnknownTable as exc:
        _cannot(session, str(exc).replace("see 'solo table list'", "type 'table list' to see them all"))
        return
    _do_table(session, name)
    session.record("table", name)  # by its name: a replay finds the same table whatever its title becomes


def table_list(tables: TableSet) -> str:
    """The tables as a player reads them: by title ("Reading: yes, but"), in the order of their titles, and how
    to roll one. A title or a name after 'table' rolls it (:meth:`TableSet.find`), so no name made for a file
    ("read_yes_but") needs showing; Tab after 'table' still offers the names."""
    from ..oracle.tables import spoken_key

    titles = sorted((t.title for t in tables.tables()), key=str.casefold)
    example = f", e.g. table {spoken_key(titles[0])}" if titles else ""
    return "Tables: " + "; ".join(titles) + f". Roll one with: table and its title{example}."


def _do_table(session: Session, name: str) -> None:
    game = _game(session)
    table = game.tables.get(name)
    result = game.tables.roll(name, _side_rng(session, "table"), slots=game.state.oracle.slots())
    _emit_roll(session, name, result.line(table.title, table.total_weight),
               roll=result.roll, out_of=result.out_of, row=result.row)


MEANING_KINDS = ("", "describe")


def _meaning(session: Session, rest: str, question: Question) -> None:
    kind = rest.lower()
    if kind not in MEANING_KINDS:
        _cannot(session, "Type 'meaning' for an action and a subject, 'meaning describe' for an adverb and an "
                "adjective (themed tables: table character, table location, table object, table character_action).")
        return
    _do_meaning(session, kind)
    session.record("meaning", kind)


def _do_meaning(session: Session, kind: str) -> None:
    from ..oracle.random_events import description, meaning_words

    rng = _side_rng(session, "meaning")
    tables = _game(session).tables
    if kind == "describe":
        pair = description(rng, tables)
        _emit_roll(session, "description", f"Description: {pair}", **pair.to_dict())
    else:
        words = meaning_words(rng, tables)
        _emit_roll(session, "meaning", f"Meaning: {words}", **words.to_dict())


register(TableCommand("threads", "threads        the open threads and their progress; threads add TEXT, threads "
                                 "progress N, threads discover N, threads close N",
                      THREADS.run, THREADS.replay))
register(TableCommand("npcs", "npcs           the people in the story; npcs add NAME (again: counts again), "
                              "npcs drop NAME",
                      NPCS.run, NPCS.replay))
register(TableCommand("items", "items          what the party carries, and your notes", _items))
register(TableCommand("clues", "clues          what you have learned, and your notes", _clues))
register(TableCommand("status", "status         scene, tension, Luck and Pools, now and before each question "
                                "('status off' hides it)", _status, _replay_status))
register(TableCommand("roll", "roll EXPR      roll dice: roll 3d6+2, roll d100", _roll,
                      lambda s, a: _do_roll(s, str(a[0]))))
register(TableCommand("table", "table TITLE    roll on a random table, by its title or its name (table list: "
                               "their titles)", _table,
                      lambda s, a: _do_table(s, str(a[0]))))
register(TableCommand("meaning", "meaning        an action and a subject to interpret; meaning describe: two "
                      "describing words", _meaning, lambda s, a: _do_meaning(s, str(a[0]) if a else "")))
