"""Improvement at the end of a session (docs/rules.md §2.9).

Each session earns one improvement roll, two if the character acted by their
Willpower Focuses more often than not. Rolls can be spent at once (1d4+1 to a
skill the character has, the untrained 5 % included) or banked: a new skill (one
at 0 %, which the character does not have) costs two and starts at 10 %, a new
Focus four (on any skill), a new Tag five.
"""

from __future__ import annotations

import random
from collections.abc import Collection

from ..errors import SoloError
from .character import MAX_SKILL, Character, spoken_language
from .dice import d
from .rulebook import RulesTables, rules

NEW_SKILL_COST = 2
NEW_SKILL_VALUE = 10
NEW_FOCUS_COST = 4
NEW_TAG_COST = 5


class ImprovementError(SoloError):
    pass


def end_session(char: Character, *, acted_by_willpower: bool) -> int:
    """Award the session's improvement rolls; returns how many were earned."""
    earned = 2 if acted_by_willpower else 1
    char.improvement_rolls += earned
    return earned


def improvable_skills(char: Character, improved: Collection[str] = (), tables: RulesTables | None = None
                      ) -> list[str]:
    """The skills one roll may raise: those the character has, less the ones already raised this time.

    docs/rules.md §2.9: with two rolls, the second goes to another skill. ``improved``
    names the skills raised or learnt since the scenario ended. The character has
    every skill at the untrained 5 % or more (the book's sample sheet carries its
    5 % skills, l.295); a skill below it (0 %) must be learnt, and a skill at
    100 % has nowhere to go (§2.1).
    """
    t = tables or rules()
    return [s for s in t.skills if t.untrained <= char.skills.get(s, 0) < MAX_SKILL and s not in improved]


#: An improvement roll: +1d4+1 to the skill (docs/rules.md §2.9), as the menu offers it and the line after says it.
IMPROVE_DIE, IMPROVE_BONUS = 4, 1
IMPROVE_DICE = f"1d{IMPROVE_DIE}+{IMPROVE_BONUS}"


def improve_skill(char: Character, skill: str, rng: random.Random, tables: RulesTables | None = None,
                  *, improved: Collection[str] = ()) -> int:
    """Spend one roll: +1d4+1 to a skill the character has (at the untrained value or above).

    ``improved``: the skills already raised or learnt at this scenario's end, which
    this roll may not raise again (docs/rules.md §2.9).
    """
    t = tables or rules()
    if char.improvement_rolls < 1:
        raise ImprovementError(f"{char.name} has no improvement rolls")
    if char.skills.get(skill, 0) < t.untrained:
        raise ImprovementError(f"{char.name} does not have {skill}: learning it costs {NEW_SKILL_COST} rolls")
    if skill in improved:
        raise ImprovementError(f"{skill} has already improved this time: another roll goes to another skill")
    if char.skills[skill] >= MAX_SKILL:
        raise ImprovementError(f"{skill} is at {MAX_SKILL} %, the top of the range")
    gain = min(d(rng, IMPROVE_DIE) + IMPROVE_BONUS, MAX_SKILL - char.skills[skill])  # a range ends at 100 % (§2.1)
    char.improvement_rolls -= 1
    char.skills[skill] += gain
    return gain


def learn_skill(char: Character, skill: str, tables: RulesTables | None = None) -> None:
    """Two rolls: a skill the character does not have (below the untrained 5 %) at 10 %."""
    t = tables or rules()
    if char.skills.get(skill, 0) >= t.untrained:
        raise ImprovementError(f"{char.name} already knows {skill}")
    _pay(char, NEW_SKILL_COST, f"a new skill ({skill})")
    char.skills[skill] = NEW_SKILL_VALUE


def learnable_focuses(char: Character, tables: RulesTables | None = None, *, worthless_language: bool = False
                      ) -> list[tuple[str, str]]:
    """The Focuses worth a new Focus's rolls, as (skill, Focus): not one the character has, nor Willpower's (every
    PC has //Person and //Circle), nor a //Language the native tongue's 40 % already beats (rules §2.2: with
    Knowledge at 20 or less, a bought //Language adds nothing to any roll; a new player's run paid 4 rolls for it,
    and the card then showed it lower than before). ``worthless_language``: offer it all the same, as games saved
    before play's edition 5 were offered it."""
    t = tables or rules()
    return [(skill, focus) for skill in t.skills if skill != "Willpower" for focus in t.skills[skill].focuses
            if not char.has_focus(skill, focus)
            and (worthless_language or not (skill == "Knowledge" and focus == "Language" and spoken_language(
                char.skills[skill] + t.focus_bonus, t) <= spoken_language(char.skills[skill], t)))]


def learn_focus(char: Character, skill: str, focus: str, tables: RulesTables | None = None) -> None:
    t = tables or rules()
    if focus not in t.skills[skill].focuses:
        raise ImprovementError(f"{focus!r} is not a Focus of {skill}")
    if char.has_focus(skill, focus):
        raise ImprovementError(f"{char.name} already has {skill}//{focus}")
    _pay(char, NEW_FOCUS_COST, f"a new Focus ({skill}//{focus})")
    char.focuses[f"{skill}//{focus}"] = t.focus_bonus


def learn_tag(char: Character, tag: str, tables: RulesTables | None = None) -> None:
    t = tables or rules()
    if tag not in t.tags:
        raise ImprovementError(f"unknown tag {tag!r}")
    if tag in char.tags:
        raise ImprovementError(f"{char.name} already has #{tag}")
    _pay(char, NEW_TAG_COST, f"a new Tag (#{tag})")
    char.tags.append(tag)


def _pay(char: Character, cost: int, what: str) -> None:
    if char.improvement_rolls < cost:
        raise ImprovementError(f"{what} costs {cost} improvement rolls; {char.name} has {char.improvement_rolls}")
    char.improvement_rolls -= cost
