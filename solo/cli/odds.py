"""``solo odds``: the exact chances of a one-against-one Extended Conflict."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..rules.lenses import LENSES, MEMORYLESS
from ..rules.odds import MAX_POOL
from ..sampling import mean_error, share_error
from . import UserError, opposed_type
from .limits import MAX_ARMOUR, MAX_MIND_WORK, MAX_ODDS_WORK, MAX_ROUNDS, MAX_TARGET, SEED, UNLIMITED_ROUNDS, Whole

if TYPE_CHECKING:
    from ..rules.character import Character
    from ..rules.conflict_types import ConflictType
    from ..rules.lens_chain import ChainOdds
    from ..rules.odds import ConflictOdds
    from ..rules.participants import Participant

_LENS = click.Choice(LENSES, case_sensitive=False)  # every Lens, kept every round (Clever: with its +20 edge)
#: The most conflicts --simulate plays: enough to see the exact odds agree, and done in a minute or so.
MAX_SIMULATE = 1_000_000


def _check_dice(text: str, option: str) -> str:
    from ..rules.dice import DiceError, parse

    try:
        return str(parse(text))
    except DiceError as exc:
        raise UserError(f"{option}: {exc}") from None


def _weapon(key: str | None, option: str):
    if key is None:
        return None
    from ..errors import did_you_mean
    from ..rules.rulebook import rules

    weapons = rules().weapons
    found = weapons.get(key.strip().lower().replace(" ", "_").replace("-", "_"))
    if found is None:
        found = next((w for w in weapons.values() if w.name.lower() == key.strip().lower()), None)
    if found is None:
        raise UserError(f"{option}: no weapon {key!r}{did_you_mean(key, weapons)}; known: {', '.join(weapons)}")
    return found


@click.command("odds")
@click.option("--skill-a", type=Whole(0, MAX_TARGET), help="Side A's effective skill (%); not with --pc.")
@click.option("--pool-a", type=Whole(1, MAX_POOL), help="Side A's conflict Pool; not with --pc.")
@click.option("--skill-b", type=Whole(0, MAX_TARGET), help="Side B's effective skill (%); not with --npc.")
@click.option("--pool-b", type=Whole(1, MAX_POOL), help="Side B's conflict Pool; not with --npc.")
@click.option("--damage-a", help="Side A's damage dice (default 1d6, or the weapon's).")
@click.option("--damage-b", help="Side B's damage dice (default 1d6, or the weapon's).")
@click.option("--weapon-a", metavar="KEY", help="Side A's weapon (long_sword, axe …): its dice; with --pc also its "
                                                "Focus and the character's Gear bonus.")
@click.option("--weapon-b", metavar="KEY", help="Side B's weapon, as --weapon-a.")
@click.option("--armour-a", type=Whole(0, MAX_ARMOUR),
              help="Side A's Armour Points (default 0; with --pc: the character's armour).")
@click.option("--armour-b", type=Whole(0, MAX_ARMOUR), help="Side B's Armour Points, as --armour-a.")
@click.option("--covert-a", type=Whole(0, MAX_TARGET), metavar="N",
              help="Side A's Cunning, which Covert rolls (default --skill-a).")
@click.option("--covert-b", type=Whole(0, MAX_TARGET), metavar="N", help="Side B's Cunning (default --skill-b).")
@click.option("--flamboyant-a", type=Whole(0, MAX_TARGET), metavar="N",
              help="The other skill side A shows off with Flamboyant (default --skill-a).")
@click.option("--flamboyant-b", type=Whole(0, MAX_TARGET), metavar="N", help="The same for side B (default --skill-b).")
@click.option("--lens-a", type=_LENS, help="The Lens A keeps every round (default: none, and every Lens is listed).")
@click.option("--lens-b", type=_LENS, help="The Lens B keeps every round (default none; not with --npc).")
@click.option("--pc", "pc_spec", metavar="FILE|NAME",
              help="Side A is this character: a file, one of your roster by name, or a ready-made one (espen).")
@click.option("--npc", "npc_file", type=click.Path(path_type=Path),
              help="Side B is this NPC (docs/npcs.md), deciding with its mind: an NPC file, or ADVENTURE:ID for "
                   "one of an adventure's NPCs (a file of it, its folder or its name: vellan:jonas).")
@click.option("--obstacle", "obstacle_word", metavar="DIFFICULTY",
              help="Side B is a static obstacle of this difficulty, as an adventure writes one: easy (Challenge 30, "
                   "Pool 5), normal (50/10), hard (70/15) or very hard (90/20); with a --type such as lockpicking.")
@click.option("--type", "-t", "ctype_name", default="combat", show_default=True, metavar="TYPE",
              help="The conflict type, with --pc, --npc or --obstacle: combat, social, foot_chase, lockpicking …")
@click.option("--rounds", "round_limit", type=Whole(1, MAX_ROUNDS), metavar="N",
              help="A round limit: a conflict still going after N rounds is a stalemate (default: none).")
@click.option("--simulate", type=Whole(1, MAX_SIMULATE), metavar="N",
              help="Also play N conflicts through the engine and compare.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed for --simulate (and the NPC file).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def command(skill_a: int | None, pool_a: int | None, skill_b: int | None, pool_b: int | None, damage_a: str | None,
            damage_b: str | None, weapon_a: str | None, weapon_b: str | None, armour_a: int | None,
            armour_b: int | None, covert_a: int | None, covert_b: int | None, flamboyant_a: int | None,
            flamboyant_b: int | None, lens_a: str | None, lens_b: str | None, pc_spec: str | None,
            npc_file: Path | None, obstacle_word: str | None, ctype_name: str, round_limit: int | None,
            simulate: int | None, seed: int, as_json: bool) -> None:
    """Compute exactly who wins a one-against-one Extended Conflict.

    The answer is worked out over every pair of Pools the fight can reach
    and what each round leaves for the next (Covert's and Flamboyant's −20,
    Clever's edge), not played out by dice; a side is out when its Pool
    reaches zero. Each side
    keeps one Lens every round (Clever: Clever, then the +20 edge, and
    again). Without --lens-a every Lens of A is priced and the best marked.

    With --npc the NPC decides as its mind does, from the state of the fight
    (its considerations, its draw among near-best Lenses, what it saw A
    declare, its own last Lens), and its nerve is in the numbers too: its
    morale checks as the fight goes, and the chance that it breaks and flees
    or gives up ("B flees or gives up"; in an argument, "B leaves or gives
    in"). Left out everywhere: Luck, pushing
    on, blows sent to POW or CHA instead of the conflict's Pool, and Quick's
    extra action (a bot or a player who spends Luck and pushes on may do
    much better or worse). --simulate plays the same match-up through the
    game engine to show the two agree.

    \b
    Examples:
      solo odds --skill-a 65 --pool-a 12 --skill-b 50 --pool-b 10 --lens-a aggressive
      solo odds --skill-a 60 --pool-a 10 --skill-b 55 --pool-b 10 --weapon-b long_sword --rounds 30
      solo odds --pc hero.toml --npc brakk.toml --rounds 30 --json

    (hero.toml and brakk.toml are your own files: solo new --out hero.toml
    makes a character, solo npc --out brakk.toml an NPC.)
    """
    if pc_spec is not None and (skill_a is not None or pool_a is not None):
        raise UserError("--pc gives side A's skill and Pool: drop --skill-a and --pool-a")
    if npc_file is not None and (skill_b is not None or pool_b is not None):
        raise UserError("--npc gives side B's skill and Pool: drop --skill-b and --pool-b")
    if obstacle_word is not None:
        given = [name for name, value in (("--npc", npc_file), ("--skill-b", skill_b), ("--pool-b", pool_b),
                                          ("--lens-b", lens_b), ("--weapon-b", weapon_b), ("--damage-b", damage_b),
                                          ("--armour-b", armour_b)) if value is not None]
        if given:
            raise UserError(f"--obstacle is side B: drop {' and '.join(given)}")
        npc_file_or_obstacle: object = obstacle_word
    else:
        npc_file_or_obstacle = npc_file
    if npc_file is not None and lens_b is not None:
        raise UserError("--lens-b: with --npc the NPC picks its own Lens each round")
    for side, skill, pool, who in (("a", skill_a, pool_a, pc_spec), ("b", skill_b, pool_b, npc_file_or_obstacle)):
        if who is None and (skill is None or pool is None):
            raise UserError(f"give side {side.upper()} as --skill-{side} and --pool-{side}"
                            + (" (or --pc)" if side == "a" else " (or --npc, or --obstacle)"))
    for side, damage, weapon in (("a", damage_a, weapon_a), ("b", damage_b, weapon_b)):
        if damage is not None and weapon is not None:
            raise UserError(f"--damage-{side} and --weapon-{side}: give one (the weapon has its dice)")
    wa, wb = _weapon(weapon_a, "--weapon-a"), _weapon(weapon_b, "--weapon-b")
    dice_a = _check_dice(damage_a, "--damage-a") if damage_a is not None else str(wa.damage) if wa else "1d6"
    dice_b = _check_dice(damage_b, "--damage-b") if damage_b is not None else str(wb.damage) if wb else "1d6"
    keep_a, keep_b = (lens_a or "none").lower(), (lens_b or "none").lower()
    every = lens_a is None
    social = False  # the plain form (numbers against numbers) is a fight
    if pc_spec is None and npc_file is None and obstacle_word is None:
        assert skill_a is not None and pool_a is not None and skill_b is not None and pool_b is not None
        _check_work(pool_a, pool_b, round_limit, mind=False)
        a = _Numbers(skill_a, pool_a, dice_a, armour_a or 0, covert_a, flamboyant_a)
        b = _Numbers(skill_b, pool_b, dice_b, armour_b or 0, covert_b, flamboyant_b)
        try:
            odds, by_lens = _plain_odds(a, b, keep_a, keep_b, every, round_limit)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        data = odds.to_dict()
        names = (f"A ({_kept_skill(a, keep_a)}, Pool {pool_a}, {dice_a}"
                 f"{', armour ' + str(a.armour) if a.armour else ''}, {keep_a})",
                 f"B ({_kept_skill(b, keep_b)}, Pool {pool_b}, {dice_b}"
                 f"{', armour ' + str(b.armour) if b.armour else ''}, {keep_b})")
        if simulate:
            if keep_a not in MEMORYLESS or keep_b not in MEMORYLESS:
                raise UserError("--simulate plays the plain form with none, aggressive or cautious; "
                                "with --pc or --npc it plays any Lens")
            _never_ends(odds, round_limit)
            data["simulation"] = _simulate_plain(a, b, keep_a, keep_b, simulate, seed, round_limit)
    else:
        match = _Match.build(pc_spec, npc_file, obstacle_word, ctype_name, seed, round_limit, keep_a, keep_b, wa, wb,
                             _Numbers(skill_a, pool_a, dice_a, armour_a, covert_a, flamboyant_a, damage_a),
                             _Numbers(skill_b, pool_b, dice_b, armour_b, covert_b, flamboyant_b, damage_b))
        social = match.ctype.social  # an argument is walked out of, not fled (as solo duel and play word it)
        odds, by_lens = match.odds(keep_a, every)
        data = odds.to_dict()
        data.pop("first", None)
        names = match.names(keep_a)
        if simulate:
            _never_ends(odds, round_limit)
            data["simulation"] = match.simulate(keep_a, simulate, seed)
            data["simulation"]["apart"] = disagreement(odds, data["simulation"])
    if by_lens is not None:
        from ..rules.lens_chain import best_of

        data["by_lens"] = {k: v.a_wins for k, v in by_lens.items()}
        if any(getattr(v, "b_exits", 0.0) for v in by_lens.values()):
            data["by_lens_exits"] = {k: getattr(v, "b_exits", 0.0) for k, v in by_lens.items()}
        # the Lens most likely to win or to see B go, as prove, the bots and the Lens menu weigh it: the highest
        # outright win alone marked "none" best against the tutorial's courier over 12 rounds (1.04 %), where
        # keeping Cautious sees her run or give in 82.73 % of the time (GM-tools review)
        data["best"] = best_of(by_lens)
    data["lens_a"] = keep_a
    data["round_limit"] = round_limit
    if as_json:
        click.echo(json.dumps(data))
        return
    _show(names, odds, data, by_lens, round_limit, social=social)


def _check_work(pool_a: int, pool_b: int, round_limit: int | None, *, mind: bool) -> None:
    """Refuse, before any pricing starts, odds that would take more than a few seconds: the work grows with
    both Pools and the rounds (one walk over every pair of Pools for each round; a thinking NPC's choice in
    every state of it). Solving without a round limit costs about as much as walking ten rounds."""
    if max(pool_a, pool_b) > MAX_POOL:
        raise UserError(f"a Pool of {max(pool_a, pool_b)}: the exact odds take Pools up to {MAX_POOL}")
    work = pool_a * pool_b * (round_limit or UNLIMITED_ROUNDS)
    limit = MAX_MIND_WORK if mind else MAX_ODDS_WORK
    if work > limit:
        against = " against a thinking NPC" if mind else ""
        rounds = (f"over {round_limit} rounds" if round_limit else
                  f"with no round limit (which costs as much as {UNLIMITED_ROUNDS} rounds)")
        raise UserError(f"Pools {pool_a} and {pool_b} {rounds} are {work:,} states to price{against}; at most "
                        f"{limit:,} (Pool × Pool × rounds): give fewer --rounds or smaller Pools")


def _never_ends(odds: ConflictOdds, round_limit: int | None) -> None:
    if round_limit is None and odds.never_ends > 1e-9:
        raise UserError(f"--simulate: {odds.never_ends:.0%} of these conflicts never end (the armour stops "
                        "every blow, or neither side can succeed), so they cannot be played out")


def _pct(p: float, width: int = 7) -> str:
    """An exact chance to two places, never "100.00%" for what may fail nor "0.00%" for what may happen (a review
    read "A wins 100.00%" of a chance of 0.9999997, and seven Lenses at "0.00%", one of them "best")."""
    if 0 < p < 0.00005:
        shown = "<0.01%"
    elif 0.99995 <= p < 1:
        shown = ">99.99%"
    else:
        shown = f"{p:.2%}"
    return f"{shown:>{width}}"


def _show(names: tuple[str, str], odds: ConflictOdds, data: dict, by_lens: dict | None,
          round_limit: int | None, *, social: bool = False) -> None:
    r = odds.round
    click.echo(f"{names[0]} against {names[1]}")
    click.echo(f"  A wins the conflict  {_pct(odds.a_wins)}")
    click.echo(f"  B wins the conflict  {_pct(odds.b_wins)}")
    gone = getattr(odds, "b_exits", 0.0)
    if gone >= 5e-5:
        way = "B leaves or gives in" if social else "B flees or gives up"
        click.echo(f"  {way:<21}{_pct(gone)}  (B's nerve breaks)")
    if odds.never_ends >= 5e-5 or (round_limit is None and odds.never_ends > 1e-9):
        if round_limit is not None:
            click.echo(f"  undecided            {_pct(odds.never_ends)}  (still going after {round_limit} rounds)")
        else:
            why = "neither side can succeed" if r.a + r.b == 0 else "the armour stops every blow"
            click.echo(f"  never ends           {_pct(odds.never_ends)}  ({why})")
    if odds.never_ends > 1e-9 and odds.a_wins + odds.b_wins < 1e-9:
        click.echo("  expected rounds      endless")
    else:
        click.echo(f"  expected rounds      {odds.expected_rounds:7.2f}")
    # "stalemate" is kept for a conflict still going at its round limit (as in play): a round nobody wins is said so
    click.echo(f"  first round: A wins {_pct(r.a, 0)}, B wins {_pct(r.b, 0)}, nobody wins {_pct(r.stalemate, 0)}")
    if by_lens is not None:
        best = data["best"]
        exits = "by_lens_exits" in data
        click.echo("A's chance to win keeping each Lens" + (" (best: to win or see B go):" if exits else ":"))
        for lens, o in by_lens.items():
            # the sum "best" is chosen by, said: "quick 91.54 % … best" stood under "cautious 92.25 %" with nothing
            # to show why (a new player's run)
            notes = [f"B goes {_pct(o.b_exits, 0)}", f"together {_pct(o.a_gains, 0)}"] if exits else []
            if round_limit is not None and o.never_ends > 5e-5:
                notes.append(f"undecided {_pct(o.never_ends, 0)}")
            extra = f"  ({', '.join(notes)})" if notes else ""
            click.echo(f"  {lens:11s}{_pct(o.a_wins)}{extra}{'  best' if lens == best else ''}")
    # what the numbers leave out, said where they are read, not only in --help (a GM-less table's evening: 26 % "best"
    # here, and 71 % in solo duel, where the bot spent Luck and pushed on)
    click.echo("Left out of these odds: Luck, pushing on, blows sent to POW or CHA instead, Quick's extra action.")
    click.echo("  (solo duel plays them all, and its fights may be won much more or less often)")
    if "simulation" in data:
        s = data["simulation"]
        # a share from play is sampled: said with its ± (one standard error), as the Lens menus say theirs; no
        # conflicts/s, a benchmark's figure (a group's evening read it as a debug line)
        runs = max(1, int(s["runs"]))
        err = {side: 100 * share_error(s[f"{side}_wins"], runs) for side in "ab"}
        rounds_err = s.get("rounds_error")
        spread = f" ± {rounds_err:.2f}" if rounds_err is not None else ""
        click.echo(f"The engine played {runs:,} conflicts: A won {s['a_wins']:.2%} ± {err['a']:.2f}, "
                   f"B {s['b_wins']:.2%} ± {err['b']:.2f} (± one standard error), "
                   f"in {s['mean_rounds']:.2f}{spread} rounds on average")
        # every sampled share with its ±, and what is left undecided at the limit, as the exact block says it (a
        # GM-less table's evening: "A 0.50 %, B 21.10 %" bare, and the 77 % undecided the exact odds showed, unsaid)
        went = "left or gave in" if social else "fled or gave up"  # as the odds above say it
        rest = [f"A {went} {_share(s.get('a_exits', 0), runs)}", f"B {_share(s.get('b_exits', 0), runs)}"] if (
            s.get("a_exits") or s.get("b_exits")) else []
        undecided = max(0.0, 1.0 - s["a_wins"] - s["b_wins"] - s.get("a_exits", 0) - s.get("b_exits", 0))
        if undecided * runs >= 0.5:
            rest.append(f"undecided {_share(undecided, runs)}")
        if rest:
            click.echo(f"  ({'; '.join(rest)})")
        if s.get("apart"):
            click.echo(f"  The engine and the exact odds disagree ({s['apart']}): the odds above leave out something "
                       "the engine plays here; trust the engine's shares (docs/npcs.md, solo odds).")


#: How many standard errors of the engine's share make it disagree with the exact chance (the suite's own bound).
APART_AT = 4.0


def _share(p: float, runs: int) -> str:
    """A sampled share with its ± (one standard error), as the line above says its wins."""
    return f"{p:.2%} ± {100 * share_error(p, runs):.2f}"


def disagreement(odds: ConflictOdds, sim: dict) -> str:
    """Where the engine's shares of A's and B's wins lie more than :data:`APART_AT` standard errors from the exact
    chances, how far, in words ("B 48.73 % against 59.91 %, 32 standard errors"); else "". A GM-less table's
    run: an unfriendly NPC's argument priced at 59.9 % and played at 48.7 %, the two printed one above the other
    with nothing said."""
    runs = sim["runs"]
    worst = ""
    most = APART_AT
    for side, exact, seen in (("A", odds.a_wins, sim["a_wins"]), ("B", odds.b_wins, sim["b_wins"])):
        apart = abs(seen - exact) / share_error(exact, runs)
        if apart > most:
            most, worst = apart, f"{side} {seen:.2%} against {exact:.2%}, {apart:.0f} standard errors"
    return worst


def _kept_skill(side: _Numbers, keep: str) -> str:
    """A side's skill as the heading says it, with the other skill its kept Lens rolls where it is given: "50 %,
    covert at 80 %" (a GM-less table: "B (50 %, …, covert)" hid the 80 the odds were worked out at)."""
    other = side.covert if keep == "covert" else side.flamboyant if keep == "flamboyant" else None
    return f"{side.skill} %" + (f", {keep} at {other} %" if other is not None and other != side.skill else "")


class _Numbers:
    """A side given by numbers: skill, Pool, dice, armour, and the Cunning and other skill of Covert and Flamboyant."""

    def __init__(self, skill: int | None, pool: int | None, dice: str, armour: int | None, covert: int | None,
                 flamboyant: int | None, gear: str | None = None):
        self.skill, self.pool, self.dice, self.armour = skill, pool, dice, armour
        self.covert, self.flamboyant = covert, flamboyant
        self.gear = gear  # --damage was given: these dice, whatever the character holds

    def targets(self) -> dict[str, int]:
        from ..rules.lens_chain import lens_targets

        assert self.skill is not None
        return lens_targets(self.skill, covert=self.skill if self.covert is None else self.covert,
                            flamboyant=self.skill if self.flamboyant is None else self.flamboyant)


def _plain_odds(a: _Numbers, b: _Numbers, keep_a: str, keep_b: str, every: bool,
                limit: int | None) -> tuple[ConflictOdds, dict[str, ChainOdds] | None]:
    """The plain form: two sides by numbers, each keeping a Lens (the chain; conflict_odds for two memoryless ones)."""
    from ..minds.foresight import keeping
    from ..rules.lens_chain import LensChain
    from ..rules.odds import conflict_odds

    assert a.pool is not None and b.pool is not None and a.skill is not None and b.skill is not None
    setting: dict[str, Any] = dict(damage_a=a.dice, damage_b=b.dice, armour_a=a.armour or 0, armour_b=b.armour or 0)
    by_lens = None
    chain = None
    if every or keep_a not in MEMORYLESS or keep_b not in MEMORYLESS:
        chain = LensChain(a.targets(), b.targets(), policy_b=keep_b, **setting)
    if every:
        assert chain is not None
        by_lens = {k: chain.odds(a.pool, b.pool, lens_a=keeping(k), round_limit=limit) for k in LENSES}
    if keep_a in MEMORYLESS and keep_b in MEMORYLESS:
        odds: ConflictOdds = conflict_odds(a.skill, a.pool, b.skill, b.pool, lens_a=keep_a, lens_b=keep_b,
                                           round_limit=limit, **setting)
    elif by_lens is not None:
        odds = by_lens[keep_a]
    else:
        assert chain is not None
        odds = chain.odds(a.pool, b.pool, lens_a=keeping(keep_a), round_limit=limit)
    return odds, by_lens


def _simulate_plain(a: _Numbers, b: _Numbers, keep_a: str, keep_b: str, runs: int, seed: int,
                    round_limit: int | None) -> dict:
    """The plain form through the engine: two stand-in fighters, each keeping its Lens (rules/matchup.py)."""
    from ..rules.conflict import Conflict
    from ..rules.matchup import _MATCHUP, Side, fighter
    from ..rules.outcomes import LOST, WON

    assert a.skill is not None and a.pool is not None and b.skill is not None and b.pool is not None
    side_a = Side(a.skill, a.pool, a.dice, a.armour or 0, keep_a)
    side_b = Side(b.skill, b.pool, b.dice, b.armour or 0, keep_b)
    rng = random.Random(seed)
    counts = {WON: 0, LOST: 0}
    rounds = squares = 0
    start = time.perf_counter()
    for _ in range(runs):
        result = Conflict(_MATCHUP, [fighter("A", "a", side_a), fighter("B", "b", side_b)], rng,
                          round_limit=round_limit).run()
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
        rounds += result.rounds
        squares += result.rounds * result.rounds
    elapsed = time.perf_counter() - start
    return {"runs": runs, "a_wins": counts[WON] / runs, "b_wins": counts[LOST] / runs, "mean_rounds": rounds / runs,
            "rounds_error": mean_error(rounds, squares, runs),
            "conflicts_per_second": runs / elapsed if elapsed > 0 else None}


class _Match:
    """Two sides of a conflict type, a character or numbers each, B perhaps an NPC with its mind."""

    def __init__(self, ctype: ConflictType, chars: tuple[Character, Character | None], npc_mind: bool, seed: int,
                 round_limit: int | None, keep_b: str, sides: tuple[_Numbers, _Numbers], weapons: tuple,
                 obstacle: str | None = None):
        self.ctype, self.chars, self.npc_mind, self.seed = ctype, chars, npc_mind, seed
        self.round_limit, self.keep_b, self.sides, self.weapons = round_limit, keep_b, sides, weapons
        self.mind = None
        self.obstacle = obstacle  # side B is a static obstacle of this difficulty (chars[1] is None)

    @classmethod
    def build(cls, pc_spec: str | None, npc_file: Path | None, obstacle_word: str | None, ctype_name: str, seed: int,
              round_limit: int | None, keep_a: str, keep_b: str, wa, wb, a: _Numbers, b: _Numbers) -> _Match:
        """Side A a character or numbers; side B an NPC, numbers, or a static obstacle of a difficulty, as an
        adventure's ``obstacle = { difficulty = … }`` is fought (a new GM had to turn "hard" into 70/15 by hand)."""
        from ..characters import current_roster, load_character
        from ..errors import SoloError, did_you_mean
        from ..rules.conflict_types import conflict_type
        from ..rules.participants import OBSTACLES

        obstacle = None
        if obstacle_word is None:
            ctype = opposed_type(ctype_name)
        else:  # any type: a lock, an archive, or a barricade in a fight
            try:
                ctype = conflict_type(ctype_name)
            except KeyError as exc:
                raise UserError(exc.args[0]) from None
            obstacle = obstacle_word.strip().lower().replace("_", " ")
            if obstacle not in OBSTACLES:
                raise UserError(f"--obstacle {obstacle_word!r}: a difficulty is one of {', '.join(OBSTACLES)}"
                                f"{did_you_mean(obstacle, OBSTACLES)}")
        try:
            char_a = (load_character(pc_spec, roster=current_roster()) if pc_spec is not None
                      else _stand_in("A", ctype, "a", a, pc=True))
            char_b: Character | None = None
            if npc_file is not None:
                from .duel import _load_npc, mindless_argument

                char_b = _load_npc(npc_file, seed)
                no_mind = mindless_argument(ctype, char_b)
                if no_mind:
                    raise UserError(no_mind)
            elif obstacle is None:
                char_b = _stand_in("B", ctype, "b", b, pc=False)
        except SoloError as exc:
            raise UserError(str(exc)) from None
        if char_b is not None and char_a.name == char_b.name:
            char_a.name = f"{char_a.name} (A)"
        for char, weapon in ((char_a, wa), (char_b, wb)):
            if char is not None and weapon is not None:
                char.weapon = weapon.key
        return cls(ctype, (char_a, char_b), npc_file is not None, seed, round_limit, keep_b, (a, b), (wa, wb),
                   obstacle=obstacle)

    def participants(self, keep_a: str, mind=None) -> list[Participant]:
        from ..minds.bots import LensKeeper
        from ..rules.participants import from_character

        ps = []
        for i, (char, nums) in enumerate(zip(self.chars, self.sides)):
            side = "ab"[i]
            if char is None:  # side B is an obstacle
                from ..rules.participants import obstacle

                assert self.obstacle is not None
                ps.append(obstacle(f"the {self.obstacle} obstacle", self.obstacle, side="b"))
                continue
            decider = LensKeeper(keep_a) if i == 0 else (mind if self.npc_mind else LensKeeper(self.keep_b))
            # Luck and pushing on are left out of the odds, so out of the engine's conflicts beside them too: a
            # Master NPC pushed on below zero in --simulate, and "A 6.80 %" stood against the exact 23.11 % with
            # no word why (a new player's run)
            p = from_character(char, side, self.ctype, decider=decider, pid=char.name, luck_allowed=False)
            p.can_push = False
            _numbers_over(p, nums)
            ps.append(p)
        if self.npc_mind:  # an NPC's disposition on A's rolls in a social conflict, as the game puts it on
            from ..npc.disposition import disposition_bonus

            disposition_bonus(self.ctype, ps, "a")
        return ps

    def _conflict(self, keep_a: str, rng: random.Random, mind=None):
        from ..rules.conflict import Conflict

        return Conflict(self.ctype, self.participants(keep_a, mind), rng, round_limit=self.round_limit)

    def _mind(self):
        from ..minds.npc import NPCMind

        assert self.chars[1] is not None
        return NPCMind(self.chars[1], random.Random(f"odds-npc:{self.seed}"))

    def odds(self, keep_a: str, every: bool) -> tuple[ConflictOdds, dict[str, ChainOdds] | None]:
        from ..minds.foresight import Foresight
        from ..rules.odds import MAX_POOL

        conflict = self._conflict(keep_a, random.Random(self.seed), self._mind() if self.npc_mind else None)
        view = conflict.view
        a, b = conflict.participants
        for p in (a, b):
            if p.pool.current < 1:
                raise UserError(f"{p.name} starts with a spent {self.ctype.pool_label} Pool ({p.pool.current})")
        _check_work(a.pool.current, b.pool.current, self.round_limit, mind=self.npc_mind)
        # asked for: priced, however long it takes, the NPC's nerve and its ways out included
        foresight = Foresight(max_pool=MAX_POOL, max_mind=MAX_POOL, nerve=True)
        try:
            exact = foresight.exact(view, a, None if every else [keep_a], asked=False)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        if not exact.odds:
            raise UserError(f"no exact odds here: {exact.why_not}")
        if keep_a not in exact.odds:
            raise UserError(f"--lens-a {keep_a}: {a.name} cannot use it here")
        return exact.odds[keep_a], (exact.odds if every else None)

    def names(self, keep_a: str) -> tuple[str, str]:
        conflict = self._conflict(keep_a, random.Random(self.seed), self._mind() if self.npc_mind else None)
        a, b = conflict.participants
        physical = self.ctype.physical

        def name(p: Participant, how: str, lens: str | None) -> str:
            if p.is_obstacle:
                return f"{p.name} (Challenge {p.challenge} %, {self.ctype.pool_label} {p.pool.current})"
            armour = p.armour_against(b if p is a else a, self.ctype)
            bonus = p.damage_bonus(physical)
            # what its dice meet in a round with no Lens, as the conflict makes it: with what it stands to gain or
            # lose (an NPC's disposition) and the foe's shield ("30 %" read of a roll the game showed at 10 %)
            plain = conflict.lens_target(p, "none", parts=False)[0]
            rolls = f"{plain} %"
            if lens is not None and lens != "none" and p.uses_lenses:
                # the number its kept Lens rolls against (Flamboyant's other skill, Cautious's +20 …): what the
                # odds are worked out at, not the conflict skill alone (it read "30 %, keeps flamboyant" of a 50)
                target, _ = conflict.lens_target(p, lens, parts=False)
                skill = conflict.lens_skill(p, lens)
                if target != plain or skill != p.skill_called(self.ctype):
                    # each number with its skill: "Cunning 30 % with covert, 30 % without" read the Combat as Cunning
                    rolls = f"{skill} {target} % with {lens}, {p.skill_called(self.ctype)} {rolls} without"
            counted = list(p.bonus_parts)
            foe = b if p is a else a
            shield = p.opposing_shield((foe,), physical)
            if shield is not None:
                counted.append((f"{foe.name}'s {shield.name.lower()}", shield.penalty))
            if counted:  # in the number already: "30 %, Hallvard is Unfriendly -20" read as 30 less 20 (a GM)
                rolls += ", counting " + " and ".join(f"{why} {value:+d}" for why, value in counted)
            return (f"{p.name} ({rolls}, {self.ctype.pool_label} {p.pool.current}, "
                    f"{p.damage_dice(physical)}{f'+{bonus}' if bonus else ''}"
                    f"{', armour ' + str(armour) if armour else ''}, {how})")

        return (name(a, f"keeps {keep_a}", keep_a),
                name(b, self._mind_words(conflict, b) if self.npc_mind else f"keeps {self.keep_b}",
                     None if self.npc_mind else self.keep_b))

    def _mind_words(self, conflict, p: Participant) -> str:
        """How an NPC whose mind decides is said in the heading: by its pronoun ("her mind decides", not "its" of
        Ylva), and with the flashy skill it may reach for where that rolls higher than the conflict's: "5 %, …" read
        as hopeless beside "B wins 59 %", won by Flamboyant Social 70 % (a GM-less table's run)."""
        from ..rules.character import pronoun_forms

        if getattr(self.chars[1], "mindless", False):  # no mind to decide ("its mind decides" of a GM's mill-wheel),
            return "no mind: presses on, never yields"  # and no show of flair (minds.npc.mind_can_declare)
        said = f"{pronoun_forms(p.pronoun)['their']} mind decides"
        if p.uses_lenses and not p.is_obstacle:
            plain = conflict.lens_target(p, "none", parts=False)[0]
            # the Lenses that roll another skill, where it rolls higher: a smuggler of Combat 5 and Cunning //Sleight
            # 90 read as hopeless beside the odds her tricks won (a GM-less table's run)
            for lens, words in (("covert", "a trick"), ("flamboyant", "a flashy move")):  # (a mindless one: above)
                target, _ = conflict.lens_target(p, lens, parts=False)
                if target > plain:
                    said += f"; {words} rolls {conflict.lens_skill(p, lens)} {target} %"
        return said

    def simulate(self, keep_a: str, runs: int, seed: int) -> dict:
        """``runs`` conflicts through the engine: A keeping its Lens, B keeping its own or deciding with its mind."""
        from ..minds.arena import restore, snapshot
        from ..rules.outcomes import FLED, LOST, OPPONENT_FLED, OPPONENT_SURRENDERED, SURRENDERED, WON

        dice = random.Random(seed)
        mind = None
        if self.npc_mind:
            from ..minds.npc import NPCMind

            assert self.chars[1] is not None
            mind = NPCMind(self.chars[1], random.Random(f"npc-mind:{seed}"))
        chars = [c for c in self.chars if c is not None]
        saved = [snapshot(c) for c in chars]
        counts = {WON: 0, LOST: 0}
        exits_a = exits_b = 0
        rounds = squares = 0
        start = time.perf_counter()
        try:
            for _ in range(runs):
                for char, snap in zip(chars, saved):
                    restore(char, snap)
                result = self._conflict(keep_a, dice, mind).run()
                counts[result.outcome] = counts.get(result.outcome, 0) + 1
                exits_a += result.outcome in (FLED, SURRENDERED)
                exits_b += result.outcome in (OPPONENT_FLED, OPPONENT_SURRENDERED)
                rounds += result.rounds
                squares += result.rounds * result.rounds
        finally:
            for char, snap in zip(chars, saved):
                restore(char, snap)
        elapsed = time.perf_counter() - start
        return {"runs": runs, "a_wins": counts[WON] / runs, "b_wins": counts[LOST] / runs, "mean_rounds": rounds / runs,
                "rounds_error": mean_error(rounds, squares, runs), "a_exits": exits_a / runs, "b_exits": exits_b / runs,
                "conflicts_per_second": runs / elapsed if elapsed > 0 else None}


def _stand_in(name: str, ctype: ConflictType, side: str, nums: _Numbers, *, pc: bool) -> Character:
    """A character made from numbers: the conflict's skill, Cunning and one other skill, every Pool at ``pool``."""
    from ..rules.character import Character, Pool
    from ..rules.rulebook import POOLS, SKILLS

    assert nums.skill is not None and nums.pool is not None
    skill = ctype.opposed_by[0] if ctype.opposed_by and side == "b" else ctype.skill
    skills = dict.fromkeys(SKILLS, 5)
    skills[skill] = nums.skill
    if skill != "Cunning":
        skills["Cunning"] = nums.skill if nums.covert is None else nums.covert
    other = next(s for s in SKILLS if s not in (skill, "Cunning"))
    skills[other] = nums.skill if nums.flamboyant is None else nums.flamboyant
    return Character(name=name, skills=skills, pools={p: Pool(nums.pool, nums.pool) for p in POOLS},
                     level=None if pc else "skilled", luck=0)


def _numbers_over(p: Participant, nums: _Numbers) -> None:
    """What the command line says of a side over what its character carries: dice and armour."""
    from ..rules.dice import parse
    from ..rules.rulebook import Armour

    if nums.skill is not None or (nums.gear is not None and nums.dice):  # by numbers, or --damage over a character
        p.damage = parse(nums.dice)
    if nums.armour is not None:
        p.armour = Armour("custom", "Armour", nums.armour) if nums.armour else None
