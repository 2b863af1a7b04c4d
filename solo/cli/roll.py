"""``solo roll``: dice for any table."""

from __future__ import annotations

import json

import click

from . import UserError
from .limits import MAX_TARGET, SEED


@click.command("roll")
@click.argument("expression")
@click.option("--vs", "skill", metavar="SKILL", help="Check a d100 against this skill value (e.g. 65).")
@click.option("--difficulty", "-d", metavar="WORD",
              help="With --vs: Routine, Easy, Normal, Hard, Very Hard (or a quality word).")
@click.option("--seed", type=SEED, help="Seed the dice, for a roll you can repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def command(expression: str, skill: str | None, difficulty: str | None, seed: int | None, as_json: bool) -> None:
    """Roll EXPRESSION: d100, 3d6+2, 2d6-1, 1d8 …

    \b
    Examples:
      solo roll 3d6+2
      solo roll d100 --vs 65
      solo roll d100 --vs 40 --difficulty hard --json
    """
    from ..rules import rolls as checks
    from ..rules.dice import DiceError, flip, new_rng, parse, target_text, two_digits

    try:
        expr = parse(expression)
    except DiceError as exc:
        raise UserError(str(exc)) from None
    target = None
    modifier = 0
    routine = False
    if skill is not None:
        text = skill.strip().rstrip("%").strip()
        if not (text.isdigit() and text.isascii() and len(text) <= 3 and int(text) <= MAX_TARGET):
            raise UserError(f"--vs takes a skill value from 0 to {MAX_TARGET}, such as 65, not {skill[:40]!r}")
        target = int(text)
        if not expr.is_d100:
            raise UserError(f"--vs checks a d100 against a skill; {expression!r} is not a d100")
        if difficulty:
            try:
                mod = checks.difficulty_modifier(difficulty)
            except KeyError as exc:
                raise UserError(exc.args[0]) from None
            routine = mod is None
            modifier = mod or 0
    elif difficulty:
        raise UserError("--difficulty only makes sense with --vs")

    rng = new_rng(seed)
    if target is not None:
        result = checks.roll_check(rng, target + modifier, routine=routine)
        data = {
            "expression": str(expr),
            "total": result.roll,
            "dice": [] if result.roll is None else [result.roll],
            "skill": target,
            "modifier": modifier,
            "target": target + modifier,
            "success": result.success,
            "exceptional": result.exceptional,
            "automatic": result.automatic,
        }
        if as_json:
            click.echo(json.dumps(data))
            return
        if result.roll is None:  # a Routine task: an automatic success
            click.echo(f"Routine: automatic success (no roll needed against {target}).")
            return
        verdict = "success" if result.success else "failure"
        if result.exceptional:
            verdict = f"exceptional {verdict}"
        mod_text = f" {modifier:+d} = {target_text(target + modifier)}" if modifier else ""
        click.echo(f"d100: {two_digits(result.roll)} against {target}{mod_text} — {verdict}.")
        if result.can_flip:
            click.echo(f"A Luck Point would flip it to {two_digits(flip(result.roll))}: a success.")
        return
    rolled = expr.roll(rng)
    if as_json:
        click.echo(json.dumps(rolled.to_dict()))
        return
    click.echo(rolled.line())
