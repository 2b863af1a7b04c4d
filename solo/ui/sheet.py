"""A character as a readable card: skills with Focuses, Pools as bars, Tags and Luck."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..rules.character import Character, pronoun_words, spoken_language, willpower_aim
from ..rules.rulebook import POOLS, SKILLS, rules


def pool_bar(current: int, maximum: int, width: int = 16) -> Text:
    """A Pool as a bar; below zero it fills red from the other side."""
    if current >= 0:
        filled = round(width * current / maximum) if maximum else 0
        colour = "green" if current * 2 > maximum else ("yellow" if current * 4 > maximum else "red")
        bar = Text("█" * filled, style=colour) + Text("░" * (width - filled), style="dim")
    else:
        filled = min(width, round(width * -current / maximum))
        bar = Text("░" * (width - filled), style="dim") + Text("▓" * filled, style="bold red")
    return bar + Text(f" {current:>3}/{maximum}")


def gear_words(char: Character) -> str:
    """#Gear's bonus as the sheet shows it: it adds to the damage of the weapon in hand in a physical conflict
    (rules §5.2; empty hands, the gear table's Unarmed and Martial arts among them, take none:
    :func:`~solo.rules.participants.gear_bonus`), so a character with nothing in hand is told why its blows do not
    get it."""
    from ..rules.participants import gear_bonus

    weapon = rules().weapons.get(char.weapon) if char.weapon else None
    held = "" if gear_bonus(char, weapon) else "; none in hand"
    return f" (+{char.gear_bonus} damage with a weapon{held})"


def gear_names(char: Character) -> list[str]:
    """The weapon in hand, the armour worn and the shield carried, by name: the sheet's "Gear" line and
    ``items`` read them here, so the two never disagree."""
    t = rules()
    return [x for x in (char.weapon and t.weapons[char.weapon].name, char.armour and t.armour[char.armour].name,
                        char.shield and t.shields[char.shield].name) if x]


def character_card(char: Character, pools_shown: list[tuple[str, int, int]] | None = None) -> Panel:
    """The character sheet. ``pools_shown``: the Pools as the game shows them at this moment
    (:meth:`~solo.story.play.engine.Game.pools_shown`: in a chase, BODY/POW as its bars show it); none, the
    character's own."""
    t = rules()
    skills = Table.grid(padding=(0, 2))
    skills.add_column(style="bold")
    skills.add_column(justify="right")
    skills.add_column(style="cyan")
    for skill in SKILLS:
        focuses = []
        for focus in char.focus_names(skill):
            bonus = char.focuses[f"{skill}//{focus}"]
            label = focus
            if skill == "Willpower" and focus.lower() in char.willpower:
                entry = char.willpower[focus.lower()]
                label = f"{focus} ({willpower_aim(entry)})"  # "Person (fear your partner)"
            value = char.skills[skill] + bonus
            if skill == "Knowledge" and focus == "Language":
                value = spoken_language(value, t)  # never below the native tongue, as the roll counts it
            focuses.append(f"//{label} {value}")
        if skill == "Knowledge" and "Language" not in char.focus_names(skill):
            # every character speaks one language at 40 % at least (rules §2.2): the roll counts it, so the card
            # shows it (a GM-less table's run: Knowledge 30 % and nothing said of the tongue they speak)
            focuses.append(f"//Language (native) {spoken_language(char.skills[skill], t)}")
        style = "dim" if char.skills[skill] <= t.untrained else ""
        skills.add_row(Text(skill, style=style), Text(f"{char.skills[skill]} %", style=style), Text("  ".join(focuses)))
    pools = Table.grid(padding=(0, 1))
    for name, value, maximum in pools_shown or [(p, char.pools[p].current, char.pools[p].maximum) for p in POOLS]:
        pools.add_row(Text(name, style="bold"), pool_bar(value, maximum))
    tags = ", ".join(f"#{tag}" + (f" ({char.tag_notes[tag]})" if tag in char.tag_notes else "")
                     + (gear_words(char) if tag == "Gear" and char.gear_bonus else "")
                     for tag in char.tags) or "none"
    luck = Text(f"Luck {char.luck}/{char.luck_max}", style="bold magenta")
    gear = gear_names(char)
    lines: list[RenderableType] = [skills, Text(""), pools, Text(""), Text(f"Tags: {tags}"), luck]
    if gear:
        lines.append(Text("Gear: " + ", ".join(gear)))
    # names, careers, players and Willpower entries come from character files: Text, never markup
    title = Text(char.name + (f", {char.career}" if char.career else "") + f" \u00b7 {pronoun_words(char.pronoun)}",
                 style="bold")  # "Espen Lind, Journalist · he/him": how the story will speak of them, for all to see
    subtitle = Text(f"played by {char.player}") if char.player else None
    return Panel(Group(*lines), title=title, subtitle=subtitle, expand=False)
