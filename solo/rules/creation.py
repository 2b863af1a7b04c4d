"""Making characters (docs/rules.md §2.3–2.7): by career, by pyramid choices, or at random.

All three paths end in :func:`build_character`, which checks the result against
the creation rules, so an interactive session, a random draw and a test all
produce characters that obey the same constraints.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SoloError
from ..toml_files import load_shipped_toml
from .character import MAX_NAME, Character, Pool
from .dice import d
from .rulebook import POOLS, SKILLS, RulesTables, rules

PYRAMID_WITH_FOCUS = (50, 30, 30, 30, 30, 30, 30)
PYRAMID_WITHOUT_FOCUS = (70, 50, 50, 30, 30, 30, 30)
STANDARD_POOLS = (16, 14, 12, 10)
ROLLED_POOL_RANGE = (8, 18)  # 2d6+6
CREATION_FOCUSES = 3
NO_CREATION_FOCUS = ("Person", "Circle")  # every PC has these; they are not chosen
PREGENS = Path(__file__).parent / "data" / "pregens"


class CreationError(SoloError):
    """A character that breaks the creation rules."""


@dataclass
class Choices:
    """Everything a player decides at creation; the pyramid is ``ranked`` top down."""

    name: str
    ranked: list[str]
    focuses: list[tuple[str, str]]
    pools: dict[str, int]
    tags: list[str]
    willpower: dict[str, dict[str, str]]
    career: str | None = None
    player: str | None = None
    pronoun: str = "they"
    gear_bonus: int = 0
    tag_notes: dict[str, str] | None = None
    focus_rules: bool = True


def pyramid(focus_rules: bool = True) -> tuple[int, ...]:
    return PYRAMID_WITH_FOCUS if focus_rules else PYRAMID_WITHOUT_FOCUS


def focus_options(skill: str, taken: Collection[tuple[str, str]] = (), tables: RulesTables | None = None) -> list[str]:
    """The Focuses a new character may take on ``skill`` (not //Person or //Circle, not taken)."""
    t = tables or rules()
    return [f for f in t.skills[skill].focuses if f not in NO_CREATION_FOCUS and (skill, f) not in taken]


def unfitted_focuses(tables: RulesTables | None = None) -> frozenset[tuple[str, str]]:
    """The Combat Focuses no weapon of the gear table fits (//Gunnery, for heavy, mounted guns): in every fight
    solo plays they count only as a similar Focus, -20, so the card's "Combat //Gunnery 70" would never be rolled.
    The dice never draw one for a random character while another is left, and the menu says so of it."""
    t = tables or rules()
    fitted = {w.focus for w in t.weapons.values()}
    return frozenset(("Combat", f) for f in t.skills["Combat"].focuses if f not in fitted)


def draw_focus(rng: random.Random, skill: str, options: list[str], tables: RulesTables | None = None,
               fitted: bool = True) -> str:
    """A Focus of ``options`` drawn for a random character, one no weapon fits only where nothing else is left
    (``fitted`` False: any, as a game of play's edition 7 or earlier replays its draws)."""
    return _draw_fitting(rng, [(skill, f) for f in options], tables, fitted)[1]


def _draw_fitting(rng: random.Random, options: list[tuple[str, str]], tables: RulesTables | None,
                  fitted: bool) -> tuple[str, str]:
    """One of ``options`` (skill, Focus), drawn among those a weapon fits where any is (``fitted``): the draw of
    :func:`draw_focus` and of a spare Focus alike."""
    unfitted = unfitted_focuses(tables) if fitted else frozenset()
    return rng.choice([o for o in options if o not in unfitted] or options)


def spare_focus_options(
    top: Iterable[str], taken: Collection[tuple[str, str]], tables: RulesTables | None = None
) -> list[tuple[str, str]]:
    """Where a starting Focus goes when a top skill has none to give.

    Willpower's only Focuses, //Person and //Circle, come with every character,
    so a Willpower among the three top skills (the Pilot's, or a random
    pyramid's) gives its Focus to another top skill instead.
    """
    return [(s, f) for s in top if s != "Willpower" for f in focus_options(s, taken, tables)]


def _draw_spare(rng: random.Random, top: list[str], focuses: list[tuple[str, str]], t: RulesTables,
                fitted: bool = True) -> tuple[str, str]:
    return _draw_fitting(rng, spare_focus_options(top, focuses, t), t, fitted)


def build_character(c: Choices, tables: RulesTables | None = None) -> Character:
    """Turn creation choices into a character, or raise :class:`CreationError` saying why not."""
    t = tables or rules()
    values = pyramid(c.focus_rules)
    if not c.name.strip():
        raise CreationError("a character needs a name")
    for what, given in (("name", c.name), ("player's name", c.player)):
        if given is not None and len(given) > MAX_NAME:
            raise CreationError(f"a {what} has at most {MAX_NAME} characters, not {len(given):,}")
    if len(c.ranked) != len(values) or len(set(c.ranked)) != len(values):
        raise CreationError(f"rank exactly {len(values)} different skills, main skill first")
    for skill in c.ranked:
        if skill not in t.skills:
            raise CreationError(f"unknown skill {skill!r}")
    skills = {s: t.untrained for s in SKILLS}
    for skill, value in zip(c.ranked, values):
        skills[skill] = value
    focuses: dict[str, int] = {}
    if c.focus_rules:
        if len(c.focuses) != CREATION_FOCUSES or len(set(c.focuses)) != CREATION_FOCUSES:
            raise CreationError(f"choose {CREATION_FOCUSES} different Focuses")
        top = set(c.ranked[:3])
        for skill, focus in c.focuses:
            if skill not in top:
                raise CreationError(f"a starting Focus must be on one of the three top skills, not {skill}")
            if focus not in t.skills[skill].focuses or focus in NO_CREATION_FOCUS:
                raise CreationError(f"{focus!r} is not a Focus of {skill}")
            focuses[f"{skill}//{focus}"] = t.focus_bonus
    elif c.focuses:
        raise CreationError("without the Focus rules a new character has no Focuses")
    focuses["Willpower//Person"] = t.focus_bonus
    focuses["Willpower//Circle"] = t.focus_bonus
    for slot, table in (("person", t.persons), ("circle", t.circles)):
        entry = c.willpower.get(slot)
        if not entry or entry.get("who") not in table or entry.get("verb") not in t.verbs:
            raise CreationError(f"the Willpower //{slot.title()} needs a 'who' from the table and a verb")
    _check_pools(c.pools)
    if len(c.tags) != 2 or len(set(c.tags)) != 2:
        raise CreationError("choose two different Tags")
    for tag in c.tags:
        if tag not in t.tags:
            raise CreationError(f"unknown tag {tag!r}")
    if "Gear" in c.tags and not 1 <= c.gear_bonus <= 3:
        raise CreationError("#Gear adds +1 to +3 damage: set gear_bonus")
    if "Gear" not in c.tags and c.gear_bonus:
        raise CreationError("only #Gear gives a damage bonus")
    char = Character(
        name=c.name.strip(), skills=skills, focuses=focuses, tags=list(c.tags),
        pools={p: Pool(c.pools[p], c.pools[p]) for p in POOLS}, player=c.player,
        career=c.career, pronoun=c.pronoun, willpower={k: dict(v) for k, v in c.willpower.items()},
        gear_bonus=c.gear_bonus, tag_notes=dict(c.tag_notes or {}),
    )
    char.luck = char.luck_max
    return char


def _check_pools(pools: dict[str, int]) -> None:
    if sorted(pools) != sorted(POOLS):
        raise CreationError("give a value to each of BODY, INT, POW and CHA")
    values = sorted(pools.values(), reverse=True)
    if tuple(values) == STANDARD_POOLS:
        return
    lo, hi = ROLLED_POOL_RANGE
    if all(lo <= v <= hi for v in values):
        return
    raise CreationError(f"Pools are 16, 14, 12 and 10 in any order, or each rolled 2d6+6 ({lo}..{hi})")


def creation_problems(char: Character, *, focus_rules: bool = True, tables: RulesTables | None = None) -> list[str]:
    """Every way a just-made character breaks the creation rules (empty when valid)."""
    t = tables or rules()
    problems = []
    ranked = sorted(char.skills.values(), reverse=True)
    expected = list(pyramid(focus_rules)) + [t.untrained] * (len(SKILLS) - 7)
    if ranked != expected:
        problems.append(f"skills {ranked} do not follow the pyramid {expected}")
    wp = [k for k in char.focuses if k.startswith("Willpower//")]
    if sorted(wp) != ["Willpower//Circle", "Willpower//Person"]:
        problems.append(f"Willpower Focuses are {wp}, expected //Person and //Circle")
    others = [k for k in char.focuses if not k.startswith("Willpower//")]
    if focus_rules and len(others) != CREATION_FOCUSES:
        problems.append(f"{len(others)} skill Focuses, expected {CREATION_FOCUSES}")
    if len(char.tags) != 2 or len(set(char.tags)) != 2:
        problems.append(f"Tags {char.tags}, expected two different ones")
    try:
        _check_pools({p: char.pools[p].maximum for p in POOLS})
    except CreationError as exc:
        problems.append(str(exc))
    if char.luck != char.luck_max:
        problems.append(f"Luck {char.luck}, expected {char.luck_max}")
    return problems


def roll_willpower(rng: random.Random, tables: RulesTables | None = None) -> dict[str, dict[str, str]]:
    t = tables or rules()
    return {
        "person": {"who": t.persons[d(rng, 10) - 1], "verb": t.verbs[d(rng, 10) - 1]},
        "circle": {"who": t.circles[d(rng, 10) - 1], "verb": t.verbs[d(rng, 10) - 1]},
    }


def roll_pools(rng: random.Random) -> dict[str, int]:
    return {p: d(rng, 6) + d(rng, 6) + 6 for p in POOLS}


def shuffled_pools(rng: random.Random) -> dict[str, int]:
    values = list(STANDARD_POOLS)
    rng.shuffle(values)
    return dict(zip(POOLS, values))


def random_tags(rng: random.Random, tables: RulesTables | None = None) -> list[str]:
    t = tables or rules()
    tags: list[str] = []
    while len(tags) < 2:
        tag = t.tag_by_roll(d(rng, 12)).name
        if tag not in tags:
            tags.append(tag)
    return tags


def name_tables() -> dict[str, Any]:
    """The shipped name tables (oracles/names.toml): ``given``, ``family``, and the ``pronouns`` names go with."""
    from ..paths import bundled

    return load_shipped_toml(bundled("oracles") / "names.toml")["names"]


def random_name(rng: random.Random) -> str:
    names = name_tables()
    return f"{rng.choice(names['given'])} {rng.choice(names['family'])}"


def fitting_pronoun(name: str, drawn: str) -> str:
    """``drawn`` ("he", "she" or "they"), unless it is "he" or "she" and the given name usually goes with the
    other (oracles/names.toml): a random Ylva is "she" or "they", never "he". The draw itself is kept, so a
    seed gives the same character as before, but for this word."""
    if drawn not in ("he", "she"):
        return drawn
    usual = name_tables().get("pronouns", {})
    given = name.split()[0] if name.split() else ""
    for pronoun in ("she", "he"):
        if given in usual.get(pronoun, ()):
            return pronoun
    return drawn


def career_choices(
    career_name: str, rng: random.Random, *, name: str | None = None, tables: RulesTables | None = None,
    focus_rules: bool = True, roll_pool_values: bool = False, fitted: bool = True,
) -> Choices:
    """Creation choices that follow a career, with the open decisions drawn at random."""
    t = tables or rules()
    career = t.career(career_name)
    ranked: list[str] = []
    for skill, _ in career.skills:
        if skill not in ranked:
            ranked.append(skill)
    rest = [s for s in SKILLS if s not in ranked]
    rng.shuffle(rest)
    ranked += rest[: 7 - len(ranked)]
    focuses: list[tuple[str, str]] = []
    for skill, focus in career.skills:
        if focus is None:
            options = focus_options(skill, focuses, t)
            if not options:
                continue  # Willpower: see spare_focus_options
            focus = draw_focus(rng, skill, options, t, fitted)
        focuses.append((skill, focus))
    for skill in ranked[:3]:
        if skill not in {s for s, _ in focuses}:
            options = focus_options(skill, focuses, t)
            if options:
                focuses.append((skill, draw_focus(rng, skill, options, t, fitted)))
    focuses = focuses[:CREATION_FOCUSES]
    while len(focuses) < CREATION_FOCUSES:
        focuses.append(_draw_spare(rng, ranked[:3], focuses, t, fitted))
    tags = list(career.tags)
    if career.tag_choices:
        tags.append(rng.choice(career.tag_choices))
    notes = {"Membership": career.membership} if career.membership and "Membership" in tags else {}
    name = name or random_name(rng)
    return Choices(
        name=name, ranked=ranked, focuses=focuses if focus_rules else [],
        pools=roll_pools(rng) if roll_pool_values else shuffled_pools(rng), tags=tags,
        willpower=roll_willpower(rng, t), career=career.name,
        gear_bonus=d(rng, 3) if "Gear" in tags else 0, tag_notes=notes, focus_rules=focus_rules,
        pronoun=fitting_pronoun(name, rng.choice(["he", "she", "they"])),
    )


def random_choices(
    rng: random.Random, *, name: str | None = None, tables: RulesTables | None = None,
    focus_rules: bool = True, roll_pool_values: bool = False, fitted: bool = True,
) -> Choices:
    """A fully random pyramid character without a career (``fitted``: see :func:`draw_focus`)."""
    t = tables or rules()
    ranked = list(SKILLS)
    rng.shuffle(ranked)
    ranked = ranked[:7]
    focuses: list[tuple[str, str]] = []
    if focus_rules:
        for skill in ranked[:3]:
            options = focus_options(skill, focuses, t)
            if options:
                focuses.append((skill, draw_focus(rng, skill, options, t, fitted)))
        while len(focuses) < CREATION_FOCUSES:
            focuses.append(_draw_spare(rng, ranked[:3], focuses, t, fitted))
    tags = random_tags(rng, t)
    name = name or random_name(rng)
    return Choices(
        name=name, ranked=ranked, focuses=focuses,
        pools=roll_pools(rng) if roll_pool_values else shuffled_pools(rng), tags=tags,
        willpower=roll_willpower(rng, t), gear_bonus=d(rng, 3) if "Gear" in tags else 0,
        focus_rules=focus_rules, pronoun=fitting_pronoun(name, rng.choice(["he", "she", "they"])),
    )


def pregenerated(name: str, *, roster: str | None = None) -> Character:
    """A shipped character by file stem or name, e.g. ``espen`` or ``Espen Lind``; ``roster``: where the roster
    that was searched first lies, named in the error (a --saves folder moves it)."""
    wanted = name.strip().lower().replace(" ", "_")
    for file in sorted(PREGENS.glob("*.toml")):
        if file.stem == wanted or file.stem.startswith(wanted):
            return Character.from_dict(load_shipped_toml(file), file=file)
    where = f" ({roster})" if roster else ""
    raise SoloError(f"no character {name!r}: not a file, not in your roster{where}, and no ready-made one "
                    f"(known: {ready_made_names()})")


def ready_made_names() -> str:
    """The ready-made characters as the help names them, "espen (Espen Lind)": what a message that refuses a
    name offers instead."""
    return ", ".join(f"{f.stem.split('_')[0]} ({load_shipped_toml(f).get('name', f.stem)})"
                     for f in sorted(PREGENS.glob("*.toml")))
