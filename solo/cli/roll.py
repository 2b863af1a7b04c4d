"""``solo roll``: dice for any table."""

from __future__ import annotations

import json

import click

from . import UserError
from .limits import MAX_TARGET, SEED


@click.command("roll")
@click.argument("expression")
@click.option("--vs", "skills", metavar="SKILL", multiple=True,
              help="Check a d100 against this skill value (e.g. 65).")
@click.option("--difficulty", "-d", metavar="WORD",
              help="With --vs: Routine, Easy, Normal, Hard, Very Hard (or a quality word).")
@click.option("--against", "defence", metavar="SKILL",
              help="With --vs: an opposed roll against the other side's skill (it did not start it, so it wins "
                   "a tie).")
@click.option("--seed", type=SEED, help="Seed the dice, for a roll you can repeat.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def command(expression: str, skills: tuple[str, ...], difficulty: str | None, defence: str | None, seed: int | None,
            as_json: bool) -> None:
    """Roll EXPRESSION: d100, 3d6+2, 2d6-1, 1d8 …

    \b
    Examples:
      solo roll 3d6+2
      solo roll d100 --vs 65
      solo roll d100 --vs 40 --difficulty hard --json
      solo roll d100 --vs 30 --against 50     (an opposed roll: sneaking 30 against spotting 50)
    """
    from ..rules import rolls as checks
    from ..rules.dice import DiceError, flip, new_rng, parse, two_digits

    try:
        expr = parse(expression)
    except DiceError as exc:
        raise UserError(str(exc)) from None
    target = None
    modifier = 0
    routine = False
    if len(skills) > 1:
        raise UserError("--vs takes one skill value; for a roll of one side against another, give the other side's "
                        f"with --against: solo roll d100 --vs {skills[0][:8]} --against {skills[1][:8]}")
    skill = skills[0] if skills else None
    if defence is not None and skill is None:
        raise UserError("--against is the other side of an opposed roll: give your own skill with --vs too, e.g. "
                        f"solo roll d100 --vs 40 --against {defence[:8]}")
    if skill is not None:
        target = _skill_value("--vs", skill)
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
    if target is not None and defence is not None:
        _opposed(expression, rng, target, modifier, routine, _skill_value("--against", defence), as_json)
        return
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
        click.echo(f"d100: {_against(result.roll, target, modifier)} — {_verdict(result)}.")
        if result.can_flip:
            click.echo(f"A Luck Point would flip it to {two_digits(flip(result.roll))}: a success.")
        return
    rolled = expr.roll(rng)
    if as_json:
        click.echo(json.dumps(rolled.to_dict()))
        return
    click.echo(rolled.line())


def _against(roll: int, skill: int, modifier: int = 0) -> str:
    """A d100 against a skill and a difficulty's modifier: "37 against 60 -20 = 40"; a target below 1 keeps its sum
    beside what it means, as every roll line says it: "80 against 0 (cannot succeed: 30 -40 = -10)"."""
    from ..rules.dice import roll_against, target_text, two_digits

    target = skill + modifier
    if target < 1 and modifier:
        return roll_against(roll, target, f"{skill} {modifier:+d}")
    if target < 1:
        return f"{two_digits(roll)} against {target_text(skill)}"
    return f"{two_digits(roll)} against {skill}" + (f" {modifier:+d} = {target}" if modifier else "")


def _verdict(check) -> str:
    """A rolled check's result in words: "success", "exceptional failure"."""
    return ("exceptional " if check.exceptional else "") + ("success" if check.success else "failure")


def _skill_value(option: str, given: str) -> int:
    text = given.strip().rstrip("%").strip()
    if not (text.isdigit() and text.isascii() and len(text) <= 3 and int(text) <= MAX_TARGET):
        raise UserError(f"{option} takes a skill value from 0 to {MAX_TARGET}, such as 65, not {given[:40]!r}")
    return int(text)


def _opposed(expression: str, rng, skill: int, modifier: int, routine: bool, theirs: int, as_json: bool) -> None:
    """Both sides roll; the highest success wins, the side that did not start it wins a tie, and if both fail
    nobody wins (docs/rules.md §4). Said with the exact odds it had before the dice, and the flip a Luck Point
    would make where one would win it."""
    from ..rules import rolls as checks
    from ..rules.dice import two_digits

    target = skill + modifier
    mine = checks.roll_check(rng, target, routine=routine)
    other = checks.roll_check(rng, theirs)
    result = checks.resolve_opposed(mine, other, defender="b")
    win, lose, neither = (10_000, 0, 0) if routine else checks.opposed_odds(target, theirs)
    beats = checks.opposed_flip_beats(result)  # the flip the engine would offer: one that wins it outright
    turned = checks.flip_that_helps(mine, best_other=beats, tie_loses=True) if beats is not None else None
    flipped = turned.roll if turned is not None else None
    if as_json:
        click.echo(json.dumps({"expression": expression, "skill": skill, "modifier": modifier, "target": target,
                               "against": theirs, **result.to_dict(),
                               "chances": {"win": win / 10_000, "lose": lose / 10_000, "neither": neither / 10_000},
                               "luck_flip_wins": None if flipped is None else flipped}))
        return

    def said(check, skill: int, modifier: int = 0) -> str:
        if check.roll is None:
            return "routine: automatic success"
        return f"{_against(check.roll, skill, modifier)} — {_verdict(check)}"

    click.echo(f"You: {said(mine, skill, modifier)}.")
    click.echo(f"The other side: {said(other, theirs)}.")
    tie = " on a tie (a tie goes to the side that did not start it)" if result.tie else ""
    click.echo({"a": "You win the opposed roll.", "b": f"The other side wins the opposed roll{tie}.",
                None: "Both fail: nobody wins, and things stay as they were."}[result.winner])
    if flipped is not None:
        click.echo(f"A Luck Point would flip yours to {two_digits(flipped)}: you would win.")
    click.echo(f"The odds before the dice (exact, Luck aside): you win {_percent(win)}, the other side "
               f"{_percent(lose)}, nobody {_percent(neither)}.")


def _percent(count: int) -> str:
    """A count out of 10,000 as a percentage with the figures it has: 1,432 -> "14.32 %"."""
    return f"{count / 100:.2f}".rstrip("0").rstrip(".") + " %"
