"""``solo oracle``: ask the GM emulator a yes/no question at any table."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import UserError
from .limits import SEED, TENSION
from .scene import held_session, keep_session, look_alike, open_session, session_line, session_options, session_shell

if TYPE_CHECKING:
    from ..oracle import OracleAnswer, OracleOdds
    from ..oracle.session_file import OracleSession


@click.command("oracle")
@click.argument("question", nargs=-1)
@click.option("--odds", "--likelihood", "-o", "odds", metavar="WORD",
              help="How likely is yes: impossible, very unlikely, unlikely, somewhat unlikely, even, "
                   "somewhat likely, likely, very likely, certain; or easy/normal/hard/very hard/routine; or 1-99. "
                   "Default: even, or the likelihood at the question's end, after its mark, as in play: "
                   "\"Is it locked? (likely)\" (brackets may be left out).")
@click.option("--tension", "-t", type=TENSION, metavar="N",
              help="The tension track, 1-9 (default 5, or the session's): higher tilts towards yes and raises "
                   "random events. With --session it is kept.")
@click.option("--npc", "npcs", multiple=True, metavar="NAME",
              help="An NPC in play (repeatable). Without --session, a random event names only the NPCs and threads "
                   "given; with --session, they are added to its lists, and events may name anyone on them.")
@click.option("--thread", "threads", multiple=True, metavar="TEXT",
              help="An open thread in play (repeatable; with --session, added to it).")
@session_options
@click.option("--tables", "folders", multiple=True, metavar="DIR",
              help="A folder of your own tables, searched before the bundled ones (repeatable; also SOLO_TABLES).")
@click.option("--seed", type=SEED, help="Seed the dice, for an answer you can repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def command(question: tuple[str, ...], odds: str | None, tension: int | None, npcs: tuple[str, ...],
            threads: tuple[str, ...], session_name: str | None, saves_dir: Path | None, folders: tuple[str, ...],
            seed: int | None, as_json: bool) -> None:
    """Ask the oracle QUESTION; phrase it so that "yes" is the eventful answer.

    It shows the exact chance of yes and of a random event, then rolls a
    d100 under the chance. Doubles give "yes, and" / "no, and"; a roll
    within 10 of the chance gives "yes, but" / "no, but".

    \b
    Examples:
      solo oracle "Is the back door locked?" --odds likely
      solo oracle Does anyone notice us --odds "very unlikely" --tension 7
      solo oracle "Is the guard awake?" --npc "Nora Dahl" --json
      solo oracle "Is the courier still in town?" --session heist
    """
    from ..decisions import clean_typed, too_long
    from ..errors import SoloError
    from ..oracle import OracleState, ask, check_tension, load_tables, oracle_odds
    from ..oracle.likelihood import OracleError, bare_odds, likelihood, nearest_word, trailing_odds
    from ..rules.dice import new_rng

    # as a question typed at the game's prompt is taken: its control characters shown, never acted on (a bell rang,
    # a line break split the answer), its lines one line, its length bounded (a GM-less table's run)
    text = " ".join(clean_typed(" ".join(question)).split())
    long = too_long(text)
    if long:
        raise UserError(f"the question is too long: {long.replace('an answer', 'a question')}")
    # "Is the door locked? (very likely)", as the game's prompt takes it: it was echoed back and asked at even odds
    # (a new player's run); brackets that hold no likelihood stay part of the question
    asked, written = trailing_odds(text)
    if written is None:
        asked, written = bare_odds(text)
    try:
        meant = likelihood(written) if written is not None else None
    except (OracleError, ValueError) as exc:
        # "(likly)": a likelihood misspelt, not words of the question (a group's run: it was asked at even odds)
        if nearest_word(str(written)) is not None:
            raise UserError(f"the question ends in ({written}): {exc}") from None
        meant = None
    if meant is not None:
        try:
            differs = odds is not None and likelihood(odds).base != meant.base  # "(likely)" and 70 agree
        except (OracleError, ValueError) as exc:
            raise UserError(str(exc)) from None
        if differs:
            raise UserError(f"the question ends in ({written}) and --odds says {odds}: give one of them")
        text, odds = asked, written
    odds = odds or "even"
    if not text:  # as at the game's prompt: an answer needs a question to be an answer to
        raise click.UsageError('Ask a question, e.g. solo oracle "Is the door locked?" --odds likely')
    changing = tension is not None or bool(npcs or threads)
    # a session only read is read once, unlocked, and must be there: a name with no session is a mistake (as
    # solo session reads one)
    kept: AbstractContextManager[OracleSession | None] = held_session(session_name, saves_dir)
    if session_name is not None and not changing:
        kept = nullcontext(open_session(session_name, saves_dir, must_exist=True))
    with kept as session:
        try:
            state = session.state if session else OracleState()
            if tension is not None:
                state.tension = check_tension(tension)
            chances = oracle_odds(odds, state.tension)
            alike: list[str] = []  # names added that read like ones kept already (said after the answer)
            for kind, given in (("npc", npcs), ("thread", threads)):
                for entry in given:  # a session bounds what it keeps; what was typed is shown, never acted on
                    entry = clean_typed(entry)
                    if session is None:
                        (state.add_npc if kind == "npc" else state.add_thread)(entry)
                        continue
                    note = look_alike(session, kind, entry)
                    if (session.add_npc if kind == "npc" else session.add_thread)(entry) == 1 and note:
                        alike.append(note)
            tables = load_tables(folders)
            answer = ask(new_rng(seed), text, odds, state=state if (session or npcs or threads) else None,
                         tension=state.tension, tables=tables)
        except (SoloError, ValueError) as exc:
            raise UserError(str(exc)) from None
        if session and changing:
            keep_session(session)

    if as_json:
        data = answer.to_dict()
        if session:
            data["session"] = session.name
            data["session_new"] = session.new
        click.echo(json.dumps(data))
        return
    _show(answer, chances, session)
    if session:
        for note in alike:
            click.echo(note)
        click.echo(session_line(session))


def _percent(p: float) -> str:
    return f"{round(p * 100)} %"


def _show(answer: OracleAnswer, chances: OracleOdds, session: OracleSession | None = None) -> None:
    from ..rules.dice import two_digits

    grades = chances.to_dict()["grades"]
    if answer.question:
        click.echo(f"? {answer.question}")
    click.echo(
        f"Odds: {chances.likelihood} at tension {chances.tension}: yes on a roll of {chances.chance} or less."
    )
    click.echo(
        f"Chance of yes {_percent(chances.yes)} "
        f"(yes, and {_percent(grades['yes, and'])}; yes, but {_percent(grades['yes, but'])}) · "
        f"random event {_percent(chances.event)}"
    )
    ending = "…" if "," in answer.grade else "."
    click.echo(f"Roll: {two_digits(answer.roll)} → {answer.grade.capitalize()}{ending}")
    if answer.reading is not None:
        click.echo(f"Reading: {answer.reading.text}")
    if answer.interpretation is not None:
        from ..ui.describe import interpretation

        click.echo(interpretation(answer.interpretation.to_dict()))
    if answer.event_triggered and answer.event is not None:
        event = answer.event
        told = {**event.to_dict(), "scene_closed": bool(session is not None and session.closed)}
        from ..ui.describe import event_follow_up
        from ..ui.journal import sentence  # a thread that asks a question keeps its "?" ("…dock?. Meaning:")

        # and what to keep of it, as solo scene says it: a thread it moves, a person or a problem it brings in (a
        # GM-less table's run: "A step towards settling a thread" and the session's track left at 0, unsaid)
        click.echo(f"Random event: {sentence(event.text)} Meaning: {event.meaning}."
                   f"{event_follow_up(told, session_shell(session), kept=session is not None)}")
