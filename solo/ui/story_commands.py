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

from .table_commands import TableCommand, register
from .view import say

if TYPE_CHECKING:
    from ..decisions import Question
    from ..story.engine import Game
    from .session import Session


def _cannot(session: Session, problem: str) -> None:
    """Said at the keyboard (the prompt comes back); a script stops there, as for a wrong answer."""
    session._cannot(problem)


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


def threads_text(game: Game) -> str:
    threads = game.state.oracle.threads
    if not threads:
        return "No open threads. Add one with: threads add TEXT"
    lines = ["Open threads (close one with: threads close N):"]
    lines += [f"  {i}. {text}" for i, text in enumerate(threads, 1)]
    return "\n".join(lines)


def _new_thread(game: Game, text: str) -> str:
    if text in game.state.oracle.threads:
        raise ValueError(f"{text!r} is already an open thread")
    return text


def _open_thread(game: Game, text: str) -> str:
    return game.state.oracle.threads[game.state.oracle.thread_number(text) - 1]


def _add_thread(game: Game, text: str) -> None:
    game.state.oracle.add_thread(text)
    game.emit("thread", text=text, opened=True, by="player")


def _close_thread(game: Game, text: str) -> None:
    game.state.oracle.close_thread(text)  # ValueError if it is not open: on a replay, the save does not fit
    game.emit("thread", text=text, opened=False, by="player")


@dataclass(frozen=True)
class _ListCommand:
    """A list of the story's that the player reads (the word alone) and changes (``word VERB TEXT``).

    Each verb finds what it acts on (``ValueError`` says why nothing fits) and then acts; the save
    keeps what was found, not what was typed, so a replay acts on the same entry.
    """

    word: str
    listing: Callable[[Game], str]
    verbs: dict[str, tuple[Callable[[Game, str], str], Callable[[Game, str], None]]]
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
            entry = find(game, text)
        except ValueError as exc:
            _cannot(session, f"{exc}. {self.listing(game)}")
            return
        act(game, entry)
        session.record(self.word, verb, entry)

    def replay(self, session: Session, args: list[Any]) -> None:
        verb, entry = str(args[0]), str(args[1])
        if verb not in self.verbs:
            raise ValueError(f"unknown {self.word} entry {verb!r}")
        self.verbs[verb][1](_game(session), entry)


THREADS = _ListCommand("threads", threads_text,
                       {"add": (_new_thread, _add_thread), "close": (_open_thread, _close_thread)},
                       "Type 'threads' to list them, 'threads add TEXT' to open one, 'threads close N' to close one.")


# -- NPCs --------------------------------------------------------------------------------


def npcs_text(game: Game) -> str:
    """Everyone the story has in play, in the order they came in, as much as the PCs know of them: a name (else
    what was seen of them), role, disposition and secret once learned (:mod:`solo.story.knowledge`), their state,
    and what they remember the PCs doing; names the player added themselves are marked as theirs."""
    from ..story.knowledge import called

    state = game.state
    by_label = {called(game, nid): nid for nid in state.npcs}
    if not state.oracle.npcs:
        return "Nobody met yet. Name someone yourself with: npcs add NAME"
    lines = ["People in the story:"]
    for label in state.oracle.npcs:
        if label not in by_label:
            lines.append(f"  {label} (named by you)")
            continue
        lines.append(f"  {npc_card(game, by_label[label])}")
    return "\n".join(lines)


def npc_card(game: Game, nid: str) -> str:
    """One NPC as the PCs know them: "Knut Dahl (dockside enforcer, unfriendly); you know: …; remembers: …",
    or only "a big man in a docker's coat" before they have learned more."""
    from ..minds.memory import DEEDS
    from ..rules.outcomes import ACTIVE
    from ..story.knowledge import called, facets_of, secret_of
    from ..story.npcs import disposition_of

    state = game.state
    npc = state.npcs[nid]
    known = facets_of(game, nid)
    about = [npc.role[:1].lower() + npc.role[1:]] if npc.role and "role" in known else []  # "keeper of the Anchor"
    if npc.code_block is None:
        about.append("mindless")  # to be seen at once: nothing behind its eyes to have a disposition
    elif "disposition" in known:
        about.append(disposition_of(npc).lower())
    status = state.npc_status.get(nid)
    if status and status != ACTIVE:
        about.append(status)
    line = called(game, nid) + (f" ({', '.join(about)})" if about else "")
    secret = secret_of(game, nid) if "secret" in known else ""
    if secret:
        line += f"; you know: {secret.rstrip('.')}"
    deeds = state.memory.get(nid, [])
    if deeds:
        counted = {deed: deeds.count(deed) for deed in deeds}
        remembered = [(DEEDS[d].description if d in DEEDS else d.replace("_", " "))
                      + (f" (×{n})" if n > 1 else "") for d, n in counted.items()]
        line += f"; remembers: {'; '.join(remembered)}"
    return line


def _new_npc(game: Game, name: str) -> str:
    if name in game.state.oracle.npcs:
        raise ValueError(f"{name} is already in the story")
    return name


def _npc_in_play(game: Game, name: str) -> str:
    known = game.state.oracle.npcs
    found = ([n for n in known if n.lower() == name.lower()]
             or [n for n in known if n.lower().startswith(name.lower())])
    if len(found) != 1:
        raise ValueError(f"{name!r} {'fits more than one person' if found else 'is nobody in the story'}")
    return found[0]


def _add_npc(game: Game, name: str) -> None:
    game.state.oracle.add_npc(name)
    game.emit("cast", name=name, added=True, by="player")


def _drop_npc(game: Game, name: str) -> None:
    game.state.oracle.remove_npc(name)
    game.emit("cast", name=name, added=False, by="player")


NPCS = _ListCommand("npcs", npcs_text, {"add": (_new_npc, _add_npc), "drop": (_npc_in_play, _drop_npc)},
                    "Type 'npcs' to list them, 'npcs add NAME' to bring someone in, "
                    "'npcs drop NAME' to take someone out of the oracle's list.")


# -- items and clues -----------------------------------------------------------------------


def items_text(game: Game) -> str:
    """What the party carries (the story's items, then each character's own) and the player's notes.

    An adventure's flags and counters stay out: they are the story's bookkeeping, written for
    conditions, and have no words of their own for the player.
    """
    state = game.state
    lines = [f"Carried: {', '.join(state.items)}." if state.items else "Carried: nothing the story has given you."]
    for pc in state.pcs:
        if pc.items:
            lines.append(f"{pc.name} has: {', '.join(pc.items)}.")
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
    from ..rules.rulebook import POOLS
    from ..story.open_play import OPEN_ID
    from ..story.text import shown

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
        pools = " ".join(f"{p} {pc.pools[p].current}/{pc.pools[p].maximum}" for p in POOLS if p in pc.pools)
        parts.append(f"{pc.name}: Luck {pc.luck}, {pools}")
    return "[" + " · ".join(parts) + "]"


def _set_status(session: Session, on: bool) -> None:
    session.view.status_line = (lambda: status_text(session)) if on else None


def _status(session: Session, rest: str, question: Question) -> None:
    word = rest.lower()
    if word not in ("", "on", "off"):
        _cannot(session, "Type 'status' to see the status line before each question, 'status off' to hide it.")
        return
    on = word != "off"  # 'status' alone shows it (and keeps it on): only 'status off' hides it
    _set_status(session, on)
    session.record("status", "on" if on else "off")
    if on:
        _line(session, "The status line is on: it comes before each question ('status off' hides it).",
              style="dim")
        _line(session, status_text(session), style="dim")
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
    from .describe import dice_line

    expr = parse(text)
    rolled = expr.roll(_side_rng(session, "roll"))
    _emit_roll(session, "dice", f"Dice: {dice_line(expr, rolled)}", expression=str(expr), total=rolled.total)


def _table(session: Session, rest: str, question: Question) -> None:
    from ..oracle.tables import UnknownTable

    game = _game(session)
    name = rest.split()[0].lower() if rest else ""
    if name in ("", "list"):
        _line(session, "Tables: " + ", ".join(game.tables.names()) + ". Roll one with: table NAME")
        return
    try:
        game.tables.get(name)
    except UnknownTable as exc:
        _cannot(session, str(exc).replace("see 'solo table list'", "type 'table list' to see them all"))
        return
    _do_table(session, name)
    session.record("table", name)


def _do_table(session: Session, name: str) -> None:
    game = _game(session)
    table = game.tables.get(name)
    result = game.tables.roll(name, _side_rng(session, "table"), slots=game.state.oracle.slots())
    _emit_roll(session, name, f"{table.title} ({result.roll} on 1-{result.out_of}): {result.text}",
               roll=result.roll, out_of=result.out_of, row=result.row)


MEANING_KINDS = ("", "describe")


def _meaning(session: Session, rest: str, question: Question) -> None:
    kind = rest.lower()
    if kind not in MEANING_KINDS:
        _cannot(session, "Type 'meaning' for an action and a subject, 'meaning describe' for an adverb and an "
                "adjective (themed tables: table character, table location, table object).")
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


register(TableCommand("threads", "threads        the open threads; threads add TEXT, threads close N",
                      THREADS.run, THREADS.replay))
register(TableCommand("npcs", "npcs           the people in the story; npcs add NAME, npcs drop NAME",
                      NPCS.run, NPCS.replay))
register(TableCommand("items", "items          what the party carries, and your notes", _items))
register(TableCommand("clues", "clues          what you have learned, and your notes", _clues))
register(TableCommand("status", "status         scene, tension, Luck and Pools, now and before each question "
                                "('status off' hides it)", _status, _replay_status))
register(TableCommand("roll", "roll EXPR      roll dice: roll 3d6+2, roll d100", _roll,
                      lambda s, a: _do_roll(s, str(a[0]))))
register(TableCommand("table", "table NAME     roll on a random table (table list: their names)", _table,
                      lambda s, a: _do_table(s, str(a[0]))))
register(TableCommand("meaning", "meaning        an action and a subject to interpret; meaning describe: two "
                      "describing words", _meaning, lambda s, a: _do_meaning(s, str(a[0]) if a else "")))
