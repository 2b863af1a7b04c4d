"""``solo odds``: the exact chances of a one-against-one Extended Conflict."""

from __future__ import annotations

import json
import time

import click

from ..rules.lenses import MEMORYLESS
from . import UserError

_LENS = click.Choice(MEMORYLESS, case_sensitive=False)  # the Lenses a side can keep every round
#: The most conflicts --simulate plays: enough to see the exact odds agree, and done in a minute or so.
MAX_SIMULATE = 1_000_000


def _check_dice(text: str, option: str) -> str:
    from ..rules.dice import DiceError, parse

    try:
        return str(parse(text))
    except DiceError as exc:
        raise UserError(f"{option}: {exc}") from None


@click.command("odds")
@click.option("--skill-a", type=int, required=True, help="Side A's effective skill (%).")
@click.option("--pool-a", type=int, required=True, help="Side A's conflict Pool.")
@click.option("--skill-b", type=int, required=True, help="Side B's effective skill (%).")
@click.option("--pool-b", type=int, required=True, help="Side B's conflict Pool.")
@click.option("--damage-a", default="1d6", show_default=True, help="Side A's damage dice.")
@click.option("--damage-b", default="1d6", show_default=True, help="Side B's damage dice.")
@click.option("--armour-a", type=int, default=0, show_default=True, help="Side A's Armour Points.")
@click.option("--armour-b", type=int, default=0, show_default=True, help="Side B's Armour Points.")
@click.option("--lens-a", type=_LENS, default="none", show_default=True, help="The Lens A uses every round.")
@click.option("--lens-b", type=_LENS, default="none", show_default=True, help="The Lens B uses every round.")
@click.option("--simulate", type=int, metavar="N", help="Also play N conflicts through the engine and compare.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for --simulate.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(skill_a: int, pool_a: int, skill_b: int, pool_b: int, damage_a: str, damage_b: str, armour_a: int,
            armour_b: int, lens_a: str, lens_b: str, simulate: int | None, seed: int, as_json: bool) -> None:
    """Compute exactly who wins a one-against-one Extended Conflict.

    The answer comes from a Markov chain over the two Pools, not from
    sampling; a side is out when its Pool reaches zero. --simulate plays the
    same match-up through the game engine to show the two agree.

    \b
    Example:
      solo odds --skill-a 65 --pool-a 12 --skill-b 50 --pool-b 10 --lens-a aggressive
    """
    for name, value in (("--pool-a", pool_a), ("--pool-b", pool_b)):
        if value < 1:
            raise UserError(f"{name} must be at least 1, not {value}")
    for name, value in (("--armour-a", armour_a), ("--armour-b", armour_b)):
        if value < 0:
            raise UserError(f"{name} cannot be negative")
    if simulate is not None and not 1 <= simulate <= MAX_SIMULATE:
        raise UserError(f"--simulate plays 1 to {MAX_SIMULATE:,} conflicts, not {simulate}")
    damage_a = _check_dice(damage_a, "--damage-a")
    damage_b = _check_dice(damage_b, "--damage-b")
    from ..rules.odds import conflict_odds

    try:
        odds = conflict_odds(skill_a, pool_a, skill_b, pool_b, damage_a=damage_a, damage_b=damage_b,
                             armour_a=armour_a, armour_b=armour_b, lens_a=lens_a.lower(), lens_b=lens_b.lower())
    except ValueError as exc:
        raise UserError(str(exc)) from None
    data = odds.to_dict()
    if simulate and odds.never_ends > 1e-9:
        raise UserError(f"--simulate: {odds.never_ends:.0%} of these conflicts never end (the armour stops "
                        "every blow, or neither side can succeed), so they cannot be played out")
    if simulate:
        import random

        from ..rules.matchup import Side, frequencies

        a = Side(skill_a, pool_a, damage_a, armour_a, lens_a.lower())
        b = Side(skill_b, pool_b, damage_b, armour_b, lens_b.lower())
        start = time.perf_counter()
        freq = frequencies(a, b, simulate, random.Random(seed))
        elapsed = time.perf_counter() - start
        data["simulation"] = {"runs": simulate, "a_wins": freq["a_wins"], "b_wins": freq["b_wins"],
                              "mean_rounds": freq["mean_rounds"],
                              "conflicts_per_second": simulate / elapsed if elapsed > 0 else None}
    if as_json:
        click.echo(json.dumps(data))
        return
    r = odds.round
    click.echo(f"A ({skill_a} %, Pool {pool_a}, {damage_a}{', armour ' + str(armour_a) if armour_a else ''}, "
               f"{lens_a}) against B ({skill_b} %, Pool {pool_b}, {damage_b}"
               f"{', armour ' + str(armour_b) if armour_b else ''}, {lens_b})")
    click.echo(f"  A wins the conflict  {odds.a_wins:7.2%}")
    click.echo(f"  B wins the conflict  {odds.b_wins:7.2%}")
    if odds.never_ends > 1e-9:
        why = "neither side can succeed" if r.a + r.b == 0 else "the armour stops every blow"
        click.echo(f"  never ends           {odds.never_ends:7.2%}  ({why})")
    if odds.never_ends > 1e-9 and odds.a_wins + odds.b_wins < 1e-9:
        click.echo("  expected rounds      endless")
    else:
        click.echo(f"  expected rounds      {odds.expected_rounds:7.2f}")
    click.echo(f"  each round: A {r.a:.2%}, B {r.b:.2%}, stalemate {r.stalemate:.2%}")
    if simulate:
        s = data["simulation"]
        click.echo(f"Engine, {simulate} conflicts: A {s['a_wins']:.2%}, B {s['b_wins']:.2%}, "
                   f"{s['mean_rounds']:.2f} rounds on average, {s['conflicts_per_second']:,.0f} conflicts/s")
