"""``solo oracle``: ask the GM emulator a yes/no question at any table."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from . import UserError

if TYPE_CHECKING:
    from ..oracle import OracleAnswer, OracleOdds


@click.command("oracle")
@click.argument("question", nargs=-1)
@click.option("--odds", "-o", "odds", default="even", show_default=True, metavar="WORD",
              help="How likely is yes: impossible, very unlikely, unlikely, somewhat unlikely, even, "
                   "somewhat likely, likely, very likely, certain; or easy/normal/hard/very hard/routine; or 1-99.")
@click.option("--tension", "-t", type=int, default=5, show_default=True, metavar="N",
              help="The tension track, 1-9: higher tilts towards yes and raises random events.")
@click.option("--npc", "npcs", multiple=True, metavar="NAME",
              help="An NPC in play (repeatable). Given NPCs or threads, events name only those listed.")
@click.option("--thread", "threads", multiple=True, metavar="TEXT", help="An open thread in play (repeatable).")
@click.option("--tables", "folders", multiple=True, metavar="DIR",
              help="A folder of your own tables, searched before the bundled ones (repeatable; also SOLO_TABLES).")
@click.option("--seed", type=int, help="Seed the dice, for an answer you can repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def command(question: tuple[str, ...], odds: str, tension: int, npcs: tuple[str, ...], threads: tuple[str, ...],
            folders: tuple[str, ...], seed: int | None, as_json: bool) -> None:
    """Ask the oracle QUESTION; phrase it so that "yes" is the eventful answer.

    It shows the exact chance of yes and of a random event, then rolls a
    d100 under the chance. Doubles give "yes, and" / "no, and"; a roll
    within 10 of the chance gives "yes, but" / "no, but".

    \b
    Examples:
      solo oracle "Is the back door locked?" --odds likely
      solo oracle Does anyone notice us --odds "very unlikely" --tension 7
      solo oracle "Is the guard awake?" --npc "Nora Dahl" --json
    """
    from ..errors import SoloError
    from ..oracle import OracleState, ask, load_tables, oracle_odds
    from ..rules.dice import new_rng

    text = " ".join(question).strip()
    try:
        chances = oracle_odds(odds, tension)
        state = OracleState(tension=tension)
        for name in npcs:
            state.add_npc(name)
        for thread in threads:
            state.add_thread(thread)
        tables = load_tables(folders)
        answer = ask(new_rng(seed), text, odds, state=state if (npcs or threads) else None,
                     tension=tension, tables=tables)
    except (SoloError, ValueError) as exc:
        raise UserError(str(exc)) from None

    if as_json:
        click.echo(json.dumps(answer.to_dict()))
        return
    _show(answer, chances)


def _percent(p: float) -> str:
    return f"{round(p * 100)} %"


def _show(answer: OracleAnswer, chances: OracleOdds) -> None:
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
    if answer.event_triggered and answer.event is not None:
        event = answer.event
        click.echo(f"Random event: {event.text}. Meaning: {event.meaning}.")
