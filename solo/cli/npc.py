"""``solo npc``: roll an NPC (docs/rules.md §7) and show it as a card, JSON or a file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..paths import FileKind
from . import UserError
from .limits import SEED

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.panel import Panel

    from ..npc import NPC
    from ..oracle.reactions import Reaction

#: What the first line of an NPC file solo wrote says, so that --out knows the file for its own.
NPC_MARK = b"an NPC rolled by solo"
NPC_FILE = FileKind("an NPC file", marks=(NPC_MARK,))



def _pronoun(npc: NPC) -> str:
    """How the card speaks of the NPC: a person by its own pronoun, a mindless thing as "it"."""
    return "it" if npc.mindless else npc.pronoun


@click.command("npc")
@click.option("--level", "-l", default="common", show_default=True, metavar="LEVEL",
              help="common, skilled or master (or minion, minor, moderate, major).")
@click.option("--antagonist", is_flag=True, help="Roll the second personality on the Dark Triad table.")
@click.option("--role", metavar="ROLE", help="Thug, Guard, Clerk, Merchant, Draugr … (default: at random).")
@click.option("--mindless", is_flag=True, help="A creature with no will of its own: no Code Block, never yields.")
@click.option("--name", metavar="NAME", help="An NPC the table has already named (default: a name at random).")
@click.option("--pronoun", type=click.Choice(["he", "she", "they", "it"], case_sensitive=False),
              help="How the NPC is spoken of (default: one that fits its name, or its role's).")
@click.option("--disposition", metavar="WORD",
              help="Affectionate, Friendly, Neutral, Unfriendly or Malicious (default: Neutral).")
@click.option("--reaction", is_flag=True,
              help="Also roll how it first reacts to the PCs (d100 + its disposition; the result becomes its "
                   "disposition).")
@click.option("--seed", type=SEED, help="Seed the dice, for an NPC you can make again.")
@click.option("--json", "as_json", is_flag=True, help="Print the NPC as JSON (the NPC file format).")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="Also save the NPC as a TOML file an adventure can use.")
@click.option("--force", is_flag=True, help="With --out: replace an existing file that is not an NPC solo rolled.")
def command(level: str, antagonist: bool, role: str | None, mindless: bool, name: str | None,
            pronoun: str | None, disposition: str | None, reaction: bool, seed: int | None, as_json: bool,
            out: Path | None, force: bool) -> None:
    """Roll one NPC: stats for its level, gear and a Code Block.

    The Code Block is the quick 4d20 read: two personality entries, a
    motivation and a recent event; the disposition starts Neutral.

    \b
    Examples:
      solo npc
      solo npc --level skilled --antagonist --seed 7
      solo npc --role draugr --level master --json
      solo npc --level master --out npcs/boss.toml
      solo npc --name "Rin Halden" --disposition unfriendly   (one the table has met already)
      solo npc --name "Rin Halden" --reaction                 (and how Rin greets you)
      solo npc --name "Rurik the Red" --pronoun he            (a name solo cannot read a pronoun from)
    """
    from ..errors import SoloError
    from ..npc import generate_npc
    from ..rules.dice import new_rng

    if mindless and antagonist:
        raise UserError("--mindless creatures have no Code Block, so --antagonist does not apply")
    if force and not out:
        raise UserError("--force only makes sense with --out")
    if name is not None:
        from ..rules.character import MAX_NAME
        from ..terminal_text import name_problem

        name = " ".join(name.split())
        problem = name_problem(name) if len(name) <= MAX_NAME else f"at most {MAX_NAME} characters"
        if problem:
            raise UserError(f"--name takes a name of 1 to {MAX_NAME} characters: {problem}")
    if out is not None:
        from ..paths import path_problem, replace_problem

        problem = path_problem(out) or replace_problem(out, NPC_FILE, force=force)
        if problem:
            raise UserError(f"--out: {problem}")
        if out.suffix.lower() != ".toml":  # TOML went into npcs/x.json beside --json (a GM-less table)
            raise UserError(f"--out: an NPC file is TOML, as adventures and --npc read it: name it {out.stem}.toml "
                            "(--json prints the same NPC as JSON, to keep with > FILE)")
    try:
        rng = new_rng(seed)
        npc = generate_npc(rng, level, antagonist, role=role, mindless=mindless, name=name,
                           disposition=disposition)
        if pronoun is not None:  # after the draw, so the same seed gives the same NPC otherwise
            npc.pronoun = pronoun.lower()
        if npc.mindless and (disposition or reaction or antagonist):  # --mindless, or a mindless role (draugr)
            given = "--reaction" if reaction else "--disposition" if disposition else "--antagonist"
            raise UserError(f"{npc.name} is a mindless creature, with no Code Block: {given} does not apply")
        met = _react(rng, npc) if reaction else None
    except SoloError as exc:
        raise UserError(str(exc)) from None
    replaced = _rolled_before(out) if out else None
    if out:
        _save(npc, out, force=force)
    if as_json:
        data = npc.to_dict()
        if met is not None:
            data = {**data, "reaction": met[1].to_dict()}
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    from rich.console import Console

    from ..ui.view import say

    console = Console(highlight=False)
    with console.capture() as capture:
        console.print(_card(npc))
        if met is not None:
            say(console, reaction_line(*met, npc))
        if out:  # a roll over one solo made there before says whom it replaced (a group's evening: only "Saved")
            instead = f" (in place of {replaced})" if replaced else ""
            say(console, "Saved to ", (str(out), "bold"), f"{instead}.")
    click.echo(capture.get(), nl=False)


def _rolled_before(path: Path) -> str | None:
    """Whom a roll to ``path`` replaces, as the line after "Saved to" says it: "Amir Berg, rolled there before" for an
    NPC solo rolled, the name alone for a file of someone's own replaced with --force (a review: that read "rolled
    there before" too); None if there is no file, or it names nobody."""
    from ..errors import SoloError
    from ..toml_files import load_toml

    try:
        name = load_toml(path).get("name") if path.is_file() else None
        rolled = NPC_FILE.recognises(path)
    except (OSError, UnicodeDecodeError, ValueError, SoloError):  # unreadable: names nobody (writing is checked apart)
        return None
    if not isinstance(name, str) or not name.strip():
        return None
    return " ".join(name.split()) + (", rolled there before" if rolled else "")


def _react(rng, npc: NPC) -> tuple[str, Reaction]:
    """Its first reaction to the PCs (docs/oracle.md §6), rolled from the disposition it has, as open play meets
    someone: the reaction becomes its disposition (the card above it shows the one it has now)."""
    from ..npc.disposition import disposition_of
    from ..oracle import load_tables, npc_reaction
    from ..story.play.npcs import set_disposition

    before = disposition_of(npc)
    met = npc_reaction(rng, before.lower(), tables=load_tables())
    set_disposition(npc, met.disposition.title())
    return before, met


def reaction_line(before: str, met: Reaction, npc: NPC) -> str:
    """"First reaction: 27 on the d100, +20 for Friendly = 47: neutral (Neutral now, where it was Friendly).", and
    what is on its mind on a double: the disposition it came with, since the card above shows the one it has now."""
    from ..ui.describe import pair

    shift = f", {met.modifier:+d} for {before} = {met.total}" if met.modifier else ""
    now = met.disposition.title()
    from ..rules.dice import two_digits

    # read off the dice as every d100 is ("00"), and said as the 100 it counts here: the top of the table, not the
    # oracle's worst roll (a GM-less table read "100 on the d100: helpful" as two readings of one face)
    rolled = two_digits(met.roll) + (" (100)" if met.roll == 100 else "")
    line = f"First reaction: {rolled} on the d100{shift}: {met.reaction}" + (
        f" ({now} now, where it was {before})." if now != before else ".")
    if met.twist is not None:
        line += f" Something is on {npc.name}'s mind: {pair(met.twist.to_dict())}."
    return line


def _save(npc: NPC, path: Path, *, force: bool) -> None:
    from ..paths import PathError, write_owned
    from ..toml_write import dumps

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        name = "".join(ch if ch.isprintable() else " " for ch in npc.name)
        header = f"# {name}: {NPC_MARK.decode()} (docs/npcs.md). Edit freely; solo checks it on load.\n"
        write_owned(path, header + dumps(npc.to_dict()), NPC_FILE, force=force)
    except PathError as exc:
        raise UserError(f"--out: {exc}") from None
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None


def _card(npc: NPC) -> Panel:
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from ..npc import disposition_modifier, level_named
    from ..rules.character import pronoun_forms
    from ..rules.rulebook import POOLS, SKILLS, rules
    from ..ui.sheet import pool_bar

    t = rules()
    lv = level_named(npc.level or "common")
    lines: list[RenderableType] = []
    if npc.description:
        lines += [Text(npc.description, style="italic"), Text("")]
    skills = Table.grid(padding=(0, 2))
    skills.add_column(style="bold")
    skills.add_column(justify="right")
    skills.add_column(style="cyan")
    trained = sorted((s for s in SKILLS if npc.skills[s] > t.untrained), key=lambda s: -npc.skills[s])
    for skill in trained:
        focuses = "  ".join(f"//{f} {npc.skills[skill] + npc.focuses[f'{skill}//{f}']}"
                            for f in npc.focus_names(skill))
        skills.add_row(skill, f"{npc.skills[skill]} %", Text(focuses))
    skills.add_row(Text("other skills", style="dim"), Text(f"{t.untrained} %", style="dim"), "")
    pools = Table.grid(padding=(0, 1))
    for p in POOLS:
        pools.add_row(Text(p, style="bold"), pool_bar(npc.pools[p].current, npc.pools[p].maximum, width=10))
    lines += [skills, Text(""), pools, Text("")]
    gear = []
    if npc.weapon:
        from ..rules.participants import gear_bonus

        w = t.weapons[npc.weapon]
        extra = gear_bonus(npc, w)  # as the conflict deals it: none without #Gear, none with empty hands
        bonus = f"+{extra}" if extra else ""
        gear.append(f"{w.name} ({w.damage}{bonus}" + (f", {w.range} m)" if w.range else ")"))
    else:
        gear.append(f"Unarmed ({t.weapons['unarmed'].damage})" if "unarmed" in t.weapons else "Unarmed")
    if npc.armour:
        gear.append(f"{t.armour[npc.armour].name} ({t.armour[npc.armour].points} AP)")
    if npc.shield:
        gear.append(t.shields[npc.shield].name)
    lines.append(Text("Gear: " + ", ".join(gear)))
    lines.append(Text("Tags: " + (", ".join(f"#{tag}" for tag in npc.tags) or "none")))
    rules_line = ["pushes below zero" if npc.can_push else "cannot push below zero",
                  "uses Lenses" if npc.uses_lenses else "plain rolls, no Lenses"]
    lines.append(Text(" · ".join(rules_line), style="dim"))
    lines.append(Text(""))
    block = Table.grid(padding=(0, 2))
    block.add_column(style="bold magenta")
    block.add_column()
    cb = npc.code_block
    if cb is not None:  # an NPC file's Code Block is content: its words go in as Text, never as markup
        block.add_row("Personality", Text(" · ".join(str(trait) for trait in cb.personality)))
        them = pronoun_forms(_pronoun(npc))["them"]
        block.add_row("Disposition", Text(f"{cb.disposition} ({disposition_modifier(cb.disposition):+d} % "
                                          f"to the PCs' social rolls against {them})"))
        block.add_row("Motivation", Text(" · ".join(cb.motivation)))
        sign = "good news" if cb.event.positive else "bad news"
        block.add_row("Recent event", Text(f"{cb.event.topic}, {sign}: {cb.event.example}"))
    if npc.mindless:
        block.add_row("Mindless", "no fear and no mercy")
    block.add_row("In a fight", _temperament(npc))
    lines += [Text("Code Block" if cb is not None else "Mind", style="bold"), block]
    title = Text.assemble((npc.name, "bold"), f" · {npc.role}" if npc.role and npc.role != npc.name else "")
    return Panel(Group(*lines), title=title, subtitle=Text(f"{lv.key.title()} NPC"), expand=False)


def strong_leans(npc: NPC) -> list[str]:
    """The Lenses its Code Block pulls it towards (a lean of 0.5 or more), strongest first."""
    from ..npc import LEAN_LENS

    lean = npc.leanings()
    return [lens for _, lens in sorted(((v, LEAN_LENS[k]) for k, v in lean.lean.items()
                                        if k in LEAN_LENS and v >= 0.5), reverse=True)]


def _temperament(npc: NPC, social: bool = False, hunts: bool = False) -> str:
    """A one-line reading of the lean numbers, for a GM who does not want the numbers; ``social``: for an argument,
    which one leaves by walking out; ``hunts``: for the side that gives chase or keeps watch, which walks away."""
    from ..minds.npc import break_words
    from ..rules.character import pronoun_forms

    lean = npc.leanings()
    if lean.mindless:
        return "presses the weakest, least-armoured foe; never yields"
    strong = strong_leans(npc)
    parts = []
    if npc.uses_lenses:  # a Common NPC rolls plainly: its leanings pick no Lens, so the card names none
        parts.append(("leans " + ", ".join(lens.title() for lens in strong)) if strong else "no strong Lens habit")
    if lean.flee_threshold == 0 or lean.lean["resolve"] >= 0.9:
        parts.append("fights to the end")
    else:
        # its first two ways, in the order it reaches for them: the first alone read as the only one ("when clearly
        # losing she bargains", and a duel had her run in 38 conflicts of 62: a GM-less table's run)
        ways = [b for b in lean.on_break if b != "fight_on"][:2] or ["flee"]
        pronoun = _pronoun(npc)
        told: list[str] = []
        for way in ways:  # one already said inside another is not said again
            # (in an argument the call for support ends in walking away: a GM-less run)
            words = break_words(way, social=social, hunts=hunts, plural=pronoun == "they")
            if not any(words in before for before in told):
                told.append(words)
        said = " or ".join(told)
        parts.append(f"when clearly losing {pronoun_forms(pronoun)['they']} {said}")
    if lean.lean["cruelty"] >= 0.8:
        parts.append("goes for the wounded")
    elif lean.lean["cruelty"] <= -0.5:
        parts.append("spares a beaten foe")
    return "; ".join(parts)
