"""Random NPCs: a role, the level's stat block, gear and a quick Code Block.

Every draw comes from the caller's generator in a fixed order, so one seed
always makes the same NPC and a game that spawns NPCs mid-play replays
exactly from its log.
"""

from __future__ import annotations

import random

from ..rules.character import Pool
from ..rules.creation import fitting_pronoun, random_name
from ..rules.dice import d
from ..rules.rulebook import POOLS, RulesTables, rules
from .codeblock import roll_code_block
from .levels import LEVELS, NPCError, level_named, level_pools, level_skills
from .model import NPC, NPC_LUCK
from .roles import UNDRAWN_FOCUSES, Role, role_named, roles
from .tables import CodeBlockTables


def generate_npc(
    rng: random.Random,
    level: str = "common",
    antagonist: bool = False,
    *,
    role: str | Role | None = None,
    name: str | None = None,
    mindless: bool = False,
    disposition: str | None = None,
    motivations: int = 1,
    tables: RulesTables | None = None,
    codeblock_tables: CodeBlockTables | None = None,
    role_table: dict[str, Role] | None = None,
) -> NPC:
    """One NPC of ``level``, drawn in this order: role, name, pronoun, Focuses,
    Tags, gear, then the Code Block (4d20 and the rest, see ``roll_code_block``).

    Without ``role``, one is drawn among the living roles, or among the
    mindless ones when ``mindless`` is set. A mindless creature gets no Code
    Block; ``antagonist``, ``disposition`` and ``motivations`` are then ignored.
    Raises :class:`NPCError` for an unknown level, role or disposition.
    """
    t = tables or rules()
    lv = level_named(level)
    table = role_table if role_table is not None else roles()
    if role is None:
        pool = [r for r in table.values() if r.mindless == mindless]
        if not pool:
            raise NPCError(f"no {'mindless' if mindless else 'living'} roles to draw from")
        chosen = pool[d(rng, len(pool)) - 1]
    elif isinstance(role, Role):
        chosen = role
    else:
        try:
            chosen = role_named(role, table)
        except KeyError as exc:
            raise NPCError(exc.args[0]) from None
    mindless = mindless or chosen.mindless
    if name is None:
        name = chosen.name if chosen.mindless else random_name(rng)
    pronoun = chosen.pronoun or fitting_pronoun(name, rng.choice(["he", "she", "they"]))
    ranked = [skill for skill, _ in chosen.skills]
    skills = level_skills(lv.key, ranked, t.untrained)
    pools = level_pools(lv.key, ranked)
    npc = NPC(
        name=name, skills=skills, pools={p: Pool(pools[p], pools[p]) for p in POOLS},
        luck=NPC_LUCK, pronoun=pronoun, level=lv.key, role=chosen.name,
        description=chosen.description, mindless=mindless,
    )
    if name == chosen.name and len(name.split()) == 1:
        # a creature named after what it is, not who: "the draugr" in a line, as "the sentry automaton" is, never
        # "Draugr throws caution away" as if Draugr were its name (a group's evening)
        npc.called = f"the {name.lower()}"
    npc.focuses = _focuses(rng, lv.key, chosen, t)
    npc.tags = _tags(rng, lv.key, chosen, t, mindless)
    if "Gear" in npc.tags:
        npc.gear_bonus = d(rng, 3)
    npc.weapon = _pick(rng, chosen.weapons)
    npc.armour = _pick(rng, chosen.armour)
    npc.shield = _pick(rng, chosen.shields)
    if not mindless:
        try:
            npc.code_block = roll_code_block(rng, antagonist, motivations=motivations,
                                             disposition=disposition, tables=codeblock_tables)
        except (KeyError, ValueError) as exc:
            raise NPCError(exc.args[0]) from None
    return npc


def _pick(rng: random.Random, options: tuple[str | None, ...]) -> str | None:
    return options[0] if len(options) == 1 else options[d(rng, len(options)) - 1]


def _focuses(rng: random.Random, level: str, role: Role, t: RulesTables) -> dict[str, int]:
    """Skilled: one Focus on the main skill; Master: 1d3, down the ranked skills.

    A skill with no Focus in the role and none that can be drawn (Willpower's
    are tied to a Person or Circle) is passed over for the next one.
    """
    low, high = LEVELS[level].focuses
    count = low if low == high else low + d(rng, high - low + 1) - 1
    out: dict[str, int] = {}
    for skill, focus in role.skills:
        if len(out) >= count:
            break
        if focus is None:
            options = [f for f in t.skills[skill].focuses if f not in UNDRAWN_FOCUSES]
            if not options:
                continue
            focus = options[d(rng, len(options)) - 1]
        out[f"{skill}//{focus}"] = t.focus_bonus
    return out


def _tags(rng: random.Random, level: str, role: Role, t: RulesTables, mindless: bool) -> list[str]:
    """The role's Tags first (drawn without repeats), then the 1d12 table for the rest.

    A mindless creature stops at its role's list: it has no Contacts or Status to roll.
    """
    low, high = LEVELS[level].tags
    count = low if low == high else low + d(rng, high - low + 1) - 1
    tags: list[str] = []
    offer = list(role.tags)
    while len(tags) < count and offer:
        tags.append(offer.pop(d(rng, len(offer)) - 1))
    while len(tags) < count and not mindless:
        tag = t.tag_by_roll(d(rng, 12)).name
        if tag not in tags:
            tags.append(tag)
    return tags


def level_problems(npc: NPC, tables: RulesTables | None = None) -> list[str]:
    """How an NPC strays from its level's stat block (docs/rules.md §7.1); empty when it fits.

    The book calls the numbers starting points, so a file may stray on
    purpose; this is for checks and tests, not for refusing a file.
    """
    t = tables or rules()
    lv = level_named(npc.level or "common")
    problems = []
    values = sorted(npc.skills.values(), reverse=True)
    expected = list(lv.skills) + [t.untrained] * (len(npc.skills) - len(lv.skills))
    if values != expected:
        problems.append(f"skills {values} are not the {lv.key} values {expected}")
    maxima = sorted(p.maximum for p in npc.pools.values())
    if maxima != sorted(lv.pools):
        problems.append(f"Pools {maxima} are not the {lv.key} values {sorted(lv.pools)}")
    focus_count = len(npc.focuses)
    if not lv.focuses[0] <= focus_count <= lv.focuses[1]:
        problems.append(f"{focus_count} Focuses, a {lv.key} NPC has {lv.focuses[0]}–{lv.focuses[1]}")
    fewest = 0 if npc.mindless else lv.tags[0]  # creatures may lack the social Tags
    if not fewest <= len(npc.tags) <= lv.tags[1]:
        problems.append(f"{len(npc.tags)} Tags, a {lv.key} NPC has {lv.tags[0]}–{lv.tags[1]}")
    if npc.can_push != lv.can_push:
        problems.append("only Master NPCs can push their Pools below zero")
    if npc.code_block is None and not npc.mindless:
        problems.append("only a mindless NPC may lack a Code Block")
    return problems
