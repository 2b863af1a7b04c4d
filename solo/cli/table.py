"""``solo table``: roll on, list or show any random table, bundled or your own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import click

from . import UserError
from .limits import SEED
from .scene import open_session, session_options

if TYPE_CHECKING:
    from ..oracle import Table, TableSet


class _Listed(TypedDict):
    """One line of 'solo table list' (and one object of its --json)."""

    name: str
    title: str
    rows: int
    weighted: bool  # some rows count more than once: the die has more faces than the table rows
    die: int
    file: str


@click.command("table")
@click.argument("name")
@click.option("--tables", "folders", multiple=True, metavar="DIR",
              help="A folder of your own tables, searched before the bundled ones (repeatable; also SOLO_TABLES).")
@click.option("--show", is_flag=True, help="Show the table's rows and the exact chance of each instead of rolling.")
@session_options(reads="the NPCs and threads that rows naming one pick")
@click.option("--seed", type=SEED, help="Seed the dice, for a result you can repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def command(name: str, folders: tuple[str, ...], show: bool, session_name: str | None, saves_dir: Path | None,
            seed: int | None, as_json: bool) -> None:
    """Roll on table NAME (its name or its title), or list every table with 'solo table list'.

    \b
    Examples:
      solo table list
      solo table situation --seed 7
      solo table "reading: yes, but"
      solo table event_focus --show
      solo table trouble --tables ~/my-tables --json
      solo table event_focus --session heist

    With --session, rows that name an NPC or a thread pick one the session
    keeps (and rows that need one are skipped while it has none); with
    --show too, the chances are those of that roll. The session is read,
    never changed.
    """
    from ..errors import SoloError
    from ..oracle import load_tables
    from ..rules.dice import new_rng

    try:
        tables = load_tables(folders)
        if name.strip().lower() == "list":  # LIST, List: the command, in any case
            _list(tables, as_json)
            return
        table = tables.find(name)  # its name, or its title as the list shows it ("starting situation")
        slots = open_session(session_name, saves_dir, must_exist=True).state.slots() if session_name else None
        if show:  # the chances of the roll the same command would make: with a session's lists, as it rolls
            _show(table, as_json, slots)
            return
        result = tables.roll(table.name, new_rng(seed), slots=slots)
    except SoloError as exc:
        raise UserError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(result.line(table.title, table.total_weight))


def _source(path: str | None) -> str:
    from pathlib import Path

    from ..paths import bundled

    if path is None:
        return "?"
    try:
        return "bundled:" + str(Path(path).resolve().relative_to(bundled("oracles").resolve()))
    except (ValueError, FileNotFoundError):
        return path


def _list(tables: TableSet, as_json: bool) -> None:
    rows: list[_Listed] = [
        {"name": t.name, "title": t.title, "rows": len(t.rows), "weighted": any(r.weight != 1 for r in t.rows),
         "die": t.total_weight, "file": _source(t.file)}
        for t in tables.tables()
    ]
    if as_json:
        click.echo(json.dumps(rows))
        return
    # in columns, so a long list reads down: name, title, rows (and whether they are weighted), die, file
    name_w = max(len(r["name"]) for r in rows)
    title_w = min(40, max(len(r["title"]) for r in rows))  # a longer title of yours runs on, on its line
    rows_w = max(len(str(r["rows"])) for r in rows)
    die_w = max(len(str(r["die"])) for r in rows) + 1
    weight_w = len(WEIGHTED) if any(r["weighted"] for r in rows) else 0
    for r in rows:
        weighted = (WEIGHTED if r["weighted"] else "").ljust(weight_w)
        click.echo(f"{r['name']:<{name_w}}  {r['title']:<{title_w}}  {r['rows']:>{rows_w}} rows{weighted}  "
                   f"{'d' + str(r['die']):<{die_w}}  [{r['file']}]")


WEIGHTED = ", weighted"  # after "20 rows": some rows count more than once on the die


def _show(table: Table, as_json: bool, slots=None) -> None:
    from ..oracle.tables import needing

    odds = table.odds(slots)
    die = sum(row.weight for row, p in odds if p)
    if as_json:
        data = table.to_dict()
        data["file"] = _source(table.file)
        data["die"] = die
        for row, (_, p) in zip(data["rows"], odds):
            row["chance"] = p
        click.echo(json.dumps(data))
        return
    unfilled = table.unfilled(slots or {}) if die < table.total_weight else ()
    click.echo(f"{table.title} [{table.name}] — d{die}" + (
        f" (of {table.total_weight}: {needing(unfilled)} are left out, the session has none to name)"
        if unfilled else ""))
    if table.description:
        click.echo(table.description)
    low = 1
    for row, p in odds:
        if not p:  # as the roll skips it: no face of its own
            click.echo(f"  {'—':>7}  {0.0:5.1f} %  {row.text}")
            continue
        high = low + row.weight - 1
        faces = f"{low}" if low == high else f"{low}-{high}"
        click.echo(f"  {faces:>7}  {p * 100:5.1f} %  {row.text}")
        low = high + 1
