"""NPC levels (docs/rules.md §7.1): the stat block each level starts from.

The numbers are the rules' facts, so they live here as constants rather than
as content: an adventure adjusts a single NPC in its file, not the ladder.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SoloError
from ..rules.rulebook import POOLS


class NPCError(SoloError):
    """An NPC request that cannot be met (unknown level or role, bad option)."""


@dataclass(frozen=True)
class Level:
    key: str
    skills: tuple[int, int, int]  # main skill first
    pools: tuple[int, int, int, int]  # as the book lists them, lowest first
    focuses: tuple[int, int]  # fewest, most
    tags: tuple[int, int]
    can_push: bool
    uses_lenses: bool


LEVELS: dict[str, Level] = {
    "common": Level("common", (50, 30, 30), (6, 6, 8, 10), (0, 0), (0, 0), False, False),
    "skilled": Level("skilled", (70, 50, 50), (6, 8, 10, 12), (1, 1), (1, 1), False, True),
    # "several" Tags for a Master: we read it as two or three.
    "master": Level("master", (90, 70, 70), (10, 12, 14, 16), (1, 3), (2, 3), True, True),
}

# Seed 003's adversary tiers, so authors may use either vocabulary.
TIER_ALIASES = {"minion": "common", "minor": "common", "moderate": "skilled", "major": "master"}

# The Pool a skill's usual conflicts wear down (docs/rules.md §5.3), used to give the
# NPC's best Pools to the fights it is built for.
SKILL_POOL = {
    "Combat": "BODY", "Move": "BODY", "Social": "CHA", "Willpower": "POW", "Awareness": "POW",
    "Knowledge": "INT", "Science": "INT", "Tech": "INT", "Cunning": "INT",
}
# Where the leftover values go, best first: bodies are what the engine fights with most.
POOL_FALLBACK = ("BODY", "POW", "INT", "CHA")


def level_named(name: str) -> Level:
    """A level by its name or a seed 003 tier name, in any case."""
    key = str(name).strip().lower()
    key = TIER_ALIASES.get(key, key)
    if key not in LEVELS:
        from ..errors import did_you_mean

        raise NPCError(f"unknown NPC level {name!r}{did_you_mean(key, [*LEVELS, *TIER_ALIASES])}; use common, "
                       f"skilled or master (or minion, minor, moderate, major)")
    return LEVELS[key]


def level_skills(level: str, ranked: list[str], untrained: int = 5) -> dict[str, int]:
    """Skill values for up to three ranked skills; every other skill stays untrained."""
    from ..rules.rulebook import SKILLS

    lv = level_named(level)
    if len(ranked) > len(lv.skills) or len(set(ranked)) != len(ranked):
        raise NPCError(f"rank up to {len(lv.skills)} different skills, main skill first")
    values = {s: untrained for s in SKILLS}
    for skill, value in zip(ranked, lv.skills):
        if skill not in values:
            raise NPCError(f"unknown skill {skill!r}")
        values[skill] = value
    return values


def level_pools(level: str, ranked: list[str]) -> dict[str, int]:
    """The level's Pool values, the biggest to the Pools of the NPC's best skills.

    Walking the ranked skills, each skill's Pool (``SKILL_POOL``) takes the
    largest value left unless it already has one; the Pools still empty take
    the rest in ``POOL_FALLBACK`` order. A Common thug (Combat, Move, Cunning)
    gets BODY 10, INT 8, POW 6, CHA 6.
    """
    values = sorted(level_named(level).pools, reverse=True)
    order: list[str] = []
    for skill in ranked:
        pool = SKILL_POOL.get(skill)
        if pool and pool not in order:
            order.append(pool)
    order += [p for p in POOL_FALLBACK if p not in order]
    given = dict(zip(order, values))
    return {p: given[p] for p in POOLS}
