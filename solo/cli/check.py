"""``solo check``: every problem of an adventure, compiler-style, in one run."""

from __future__ import annotations

import json

import click

from . import UserError


@click.command("check")
@click.argument("adventures", nargs=-1, metavar="ADVENTURE...")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list of {file, line, path, code, severity, message}.")
@click.option("--codes", is_flag=True, help="List the problem codes with what they mean, and stop.")
@click.option("--stats", is_flag=True,
              help="Also print the words of each scene and in total (with --json: an object of problems and stats).")
def command(adventures: tuple[str, ...], as_json: bool, codes: bool, stats: bool) -> int:
    """Check ADVENTURE (a name, a .toml file or a folder) before anyone plays it.

    Reports every problem at once as FILE:LINE:COLUMN: error[CODE]: message
    (the TOML path where the line is not known): syntax and schema errors,
    unknown scenes with "did you mean", unreachable scenes, dead ends and
    loops with no ending, conditions that cannot parse (in {if} text blocks
    too), flags, counters and items read but never set (with "did you
    mean") or set but never read, goto lists with no fallback, unknown or
    unused shared responses, unknown skills, Focuses, conflict types, NPCs
    and tables, and narration templates with unknown slots. --codes alone
    lists the problem codes. --stats adds the words each scene holds and
    the total (both sides of every {if} block; an adventure with errors has
    none).

    Exits 1 if there is an error, 0 if there are only warnings.

    \b
    Examples:
      solo check tutorial
      solo check scenes/my_adventure/ --json
      solo check vellan --stats
    """
    from ..errors import SoloError
    from ..sim.lint import ALL_CODES, check_adventure
    from ..story.format.library import find_adventure

    if codes:
        for code, meaning in ALL_CODES.items():
            click.echo(f"{code}  {meaning}")
        return 0
    if not adventures:
        raise UserError("name at least one adventure to check (or give --codes for the list of problem codes)")
    paths = []
    for spec in adventures:
        try:
            paths.append((spec, find_adventure(spec)))
        except SoloError as exc:
            raise UserError(str(exc)) from None
    reports = [check_adventure(path, name=spec) for spec, path in paths]
    problems = [p for r in reports for p in r.problems]
    errors = sum(r.errors for r in reports)
    counted = _stats(reports) if stats else {}
    if as_json:
        listed = [p.to_dict() for p in problems]
        click.echo(json.dumps({"problems": listed, "stats": counted} if stats else listed, indent=1,
                              ensure_ascii=False))
    else:
        for p in problems:
            click.echo(str(p))
    # on standard error in both forms, so standard output holds only the problems (or the JSON)
    warnings = len(problems) - errors
    for r in reports:
        if not r.problems:
            click.echo(f"{r.path}: ok", err=True)
    if problems:
        click.echo(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}", err=True)
    if stats and not as_json:
        from ..sim.text_stats import stats_lines

        for r in reports:
            found = counted.get(r.source)
            lines = stats_lines(r.source, found) if found else [f"{r.source}: no statistics (fix its errors first)"]
            for line in lines:
                click.echo(line)
    return 1 if errors else 0


def _stats(reports) -> dict:
    """Each adventure's word counts by how it was named (None for one with errors: it was not loaded)."""
    from ..sim.text_stats import word_counts

    return {r.source: word_counts(r.adventure) if r.adventure is not None else None for r in reports}
