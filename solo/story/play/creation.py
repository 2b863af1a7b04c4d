"""Character creation as a series of questions.

Creation asks through the same :class:`~solo.decisions.Decider` interface as the
game, so the terminal (rich prompts), a script file and a bot all make
characters with the same code, and every path ends in
:func:`~solo.rules.creation.build_character`, which enforces the rules.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from ...decisions import Decider, Option, Question
from ...rules.character import MAX_NAME, Character, pronoun_forms, pronoun_words
from ...rules.creation import (
    CREATION_FOCUSES,
    STANDARD_POOLS,
    Choices,
    build_character,
    career_choices,
    focus_options,
    pyramid,
    random_choices,
    roll_pools,
    roll_willpower,
    spare_focus_options,
    unfitted_focuses,
)
from ...rules.dice import d
from ...rules.rulebook import POOLS, RulesTables, rules


def _ask(decider: Decider, kind: str, prompt: str, options, **kw) -> str:
    opts = tuple(o if isinstance(o, Option) else Option(str(o), str(o)) for o in options)
    return decider.decide(Question(kind, prompt, opts, **kw))


#: The pronouns a player may give a character (a story's "it" is for things and beasts).
PLAYER_PRONOUNS = ("she", "he", "they")


def ask_pronoun(decider: Decider, name: str, who: str | None, default: str | None = None) -> str:
    """How the story refers to the character ``name``: the question every way of making one asks; ``default``:
    the pronoun the dice drew for a random character, kept by Enter."""
    return _ask(decider, "pronoun", f"How should the story refer to {name}?",
                [Option(k, pronoun_words(k)) for k in PLAYER_PRONOUNS], actor=who, default=default)


#: How often a name someone at the table already has is asked again before it is taken as it is (a character's
#: name, then told apart by a number; a player's, then the seat's own).
NAME_TRIES = 5


def ask_name_apart(decider: Decider, kind: str, prompt: str, taken: Collection[str], *, who: str | None = None,
                   default: str | None = None) -> str:
    """A name typed for ``prompt``, asked again while someone at the table has it (in any case), saying so, up to
    :data:`NAME_TRIES` times: the last name typed (the caller tells a taken one apart). A player's name and a new
    character's both come from here."""
    seated = {n.casefold() for n in taken}
    asked = prompt
    name = ""
    for _ in range(NAME_TRIES):
        name = decider.decide(Question(kind, asked, actor=who, default=default, limit=MAX_NAME))
        if name.strip().casefold() not in seated:
            break
        asked = f"{name.strip()} is at the table already. {prompt}"
    return name


def create_character(
    decider: Decider, rng: random.Random, *, player: str | None = None, tables: RulesTables | None = None,
    careers: Sequence[str] | None = None, name: str | None = None, taken: Collection[str] = (),
    fitted: bool = True,
) -> Character:
    """Ask a decider for every creation choice and return the finished character.

    ``careers``: the careers offered, in order (an adventure's ``careers``, which leaves out those its setting
    has no place for); None offers every career of the rules' tables. ``name``: given already (``solo new
    --name``), so not asked: it was asked again, and the option quietly lost (a new player's run). ``taken``: the
    names of the party so far, asked again while the name typed is one of them (a group's evening: a second "Espen
    Lind" became "Espen Lind 2" without a word), a few times at most.
    """
    t = tables or rules()
    who = player
    if not name:
        name = ask_name_apart(decider, "name", "What is your character's name?", taken, who=who)
    pronoun = ask_pronoun(decider, name, who)
    method = _ask(decider, "method", "How do you want to build the character?", [
        Option("career", "From a career", "skills and Tags suggested by a profession"),
        Option("pyramid", "Skill by skill", "rank seven skills yourself"),
        Option("random", "Leave it to the dice", "everything rolled at once"),
    ], actor=who)
    if method == "random":
        c = random_choices(rng, name=name, tables=t, fitted=fitted)
        c.pronoun, c.player = pronoun, player
        return build_character(c, t)
    if method == "career":
        career = _ask(decider, "career", "Which career?", [
            Option(k, k, ", ".join(f"{s}//{f}" if f else s for s, f in t.careers[k].skills))
            for k in (careers if careers is not None else t.careers)
        ], actor=who)
        c, rolled = _career_flow(decider, rng, career, name, who, t, fitted), ""
    else:
        c, rolled = _pyramid_flow(decider, rng, name, who, t)
    c.pronoun, c.player = pronoun, player
    c.pools = _pools_flow(decider, rng, who, rolled)
    c.willpower = _willpower_flow(decider, rng, who, t, name, pronoun)
    if "Gear" in c.tags and not c.gear_bonus:
        c.gear_bonus = d(rng, 3)
    return build_character(c, t)


def _pick_rest(decider: Decider, ranked: list[str], who, t: RulesTables) -> None:
    values = pyramid(True)
    while len(ranked) < len(values):
        left = [s for s in t.skills if s not in ranked]
        prompt = f"Which skill gets {values[len(ranked)]} %? ({len(ranked) + 1} of {len(values)})"
        if ranked:  # what the higher ranks went to, so the player need not remember it
            prompt += " So far: " + ", ".join(f"{s} {v} %" for s, v in zip(ranked, values)) + "."
        skill = _ask(decider, "skill", prompt,
                     [Option(s, s, t.skills[s].description) for s in left], actor=who)
        ranked.append(skill)


def _career_flow(decider, rng, career_name, name, who, t: RulesTables, fitted: bool = True) -> Choices:
    career = t.careers[career_name]
    base = career_choices(career_name, rng, name=name, tables=t, fitted=fitted)
    ranked: list[str] = []
    for skill, _ in career.skills:
        if skill not in ranked:
            ranked.append(skill)
    _pick_rest(decider, ranked, who, t)
    focuses: list[tuple[str, str]] = []
    for skill, focus in career.skills:
        if focus is None:
            options = focus_options(skill, focuses, t)
            if not options:
                continue  # Willpower has only //Person and //Circle: see _spare_focuses
            focus = _ask(decider, "focus", f"Which Focus for {skill}?", _focus_menu(skill, options, t), actor=who)
        focuses.append((skill, focus))
    _spare_focuses(decider, ranked[:3], focuses, who, t)
    tags = list(career.tags)
    if career.tag_choices:
        tags.append(_ask(decider, "tag", f"A {career_name} also gets one of these Tags:",
                         [Option(x, x, t.tags[x].description) for x in career.tag_choices], actor=who))
    base.ranked, base.focuses, base.tags = ranked, focuses, tags
    base.gear_bonus = 0
    return base


def _pyramid_flow(decider, rng, name, who, t: RulesTables) -> tuple[Choices, str]:
    """The choices, and what the dice gave at its last question ("The dice gave the Tag Gear. "), for the next
    question to say."""
    ranked: list[str] = []
    _pick_rest(decider, ranked, who, t)
    focuses: list[tuple[str, str]] = []
    for skill in ranked[:3]:
        options = focus_options(skill, focuses, t)
        if not options:
            continue  # Willpower has only //Person and //Circle: see _spare_focuses
        focus = _ask(decider, "focus", f"Which Focus for {skill}? (+20 % when it fits)", _focus_menu(skill, options, t),
                     actor=who)
        focuses.append((skill, focus))
    _spare_focuses(decider, ranked[:3], focuses, who, t)
    tags: list[str] = []
    rolled = ""  # what the dice gave, said in the question that follows ("Roll 1d12" went on to "Tag 2 of 2:" with
    while len(tags) < 2:  # no word of the Tag rolled, seen only as it left the list: a GM-less table's run)
        tag_options = [Option("roll", "Roll 1d12")] + [Option(x, x, v.description) for x, v in t.tags.items()
                                                        if x not in tags]
        tags.append(_ask(decider, "tag", f"{rolled}Tag {len(tags) + 1} of 2:", tag_options, actor=who))
        rolled = ""
        if tags[-1] == "roll":
            tags.pop()
            tags.append(_roll_new_tag(rng, tags, t))
            rolled = f"The dice gave the Tag {tags[-1]}. "
    return Choices(name=name, ranked=ranked, focuses=focuses, pools={}, tags=tags, willpower={}), rolled


#: Beside a Focus no weapon of solo's gear fits, on the creation menu (rules.creation.unfitted_focuses).
UNFITTED_HINT = "heavy, mounted guns: no weapon solo knows fits it, so in a fight it counts +0"
#: What the weapon in hand must be for a Combat Focus to fit (docs/rulings.md): the choice is made once, blind.
COMBAT_FOCUS_HINTS = {"Melee": "hand weapons: knives, swords, axes, clubs", "Ranged": "bows and firearms",
                      "Unarmed": "empty hands and martial arts, as every character starts"}


def _focus_hint(skill: str, focus: str, unfitted: frozenset[tuple[str, str]]) -> str:
    """What a creation menu says beside a Focus: what a Combat Focus fits, or that no weapon does."""
    if (skill, focus) in unfitted:
        return UNFITTED_HINT
    return COMBAT_FOCUS_HINTS.get(focus, "") if skill == "Combat" else ""


def _focus_menu(skill: str, options: list[str], t: RulesTables) -> list[Option]:
    unfitted = unfitted_focuses(t)
    return [Option(f, f, _focus_hint(skill, f, unfitted)) for f in options]


def _spare_focuses(decider, top, focuses: list[tuple[str, str]], who, t: RulesTables) -> None:
    """Willpower among the top skills has no Focus to give; another top skill takes it."""
    while len(focuses) < CREATION_FOCUSES:
        unfitted = unfitted_focuses(t)
        options = [Option(f"{s}//{f}", f"{s}//{f}", _focus_hint(s, f, unfitted))
                   for s, f in spare_focus_options(top, focuses, t)]
        answer = _ask(decider, "focus", "Willpower's Focuses are always //Person and //Circle, so one of your "
                      "other top skills takes a second Focus instead. Which?", options, actor=who)
        skill, _, focus = answer.partition("//")
        focuses.append((skill, focus))


def _roll_new_tag(rng, tags, t: RulesTables) -> str:
    while True:
        tag = t.tag_by_roll(d(rng, 12)).name
        if tag not in tags:
            return tag


def _pools_flow(decider, rng, who, before: str = "") -> dict[str, int]:
    how = _ask(decider, "pools", f"{before}Conflict Pools: assign 16, 14, 12 and 10, or roll 2d6+6 for each?",
               [Option("assign", "Assign 16, 14, 12, 10"), Option("roll", "Roll 2d6+6 each")], actor=who)
    if how == "roll":
        return roll_pools(rng)
    left = list(POOLS)
    pools = {}
    for value in STANDARD_POOLS[:-1]:
        pool = _ask(decider, "pool", f"Which Pool gets {value}?", left, actor=who)
        pools[pool] = value
        left.remove(pool)
    pools[left[0]] = STANDARD_POOLS[-1]
    return pools


def _willpower_flow(decider, rng, who, t: RulesTables, name: str, pronoun: str) -> dict[str, dict[str, str]]:
    how = _ask(decider, "willpower", "Willpower Focuses (a Person and a Circle you care about): roll or choose?",
               [Option("roll", "Roll on the table"), Option("choose", "Choose")], actor=who)
    if how == "roll":
        return roll_willpower(rng, t)
    person = _ask(decider, "person", "Who is the Person?", t.persons, actor=who)
    their = pronoun_forms(pronoun)["their"]  # "What does Asta do about her Sibling?"
    verb_p = _ask(decider, "verb", f"What does {name} do about {their} {person}?", t.verbs, actor=who)
    circle = _ask(decider, "circle", "Which Circle?", t.circles, actor=who)
    verb_c = _ask(decider, "verb", f"What does {name} do about {their} {circle}?", t.verbs, actor=who)
    return {"person": {"who": person, "verb": verb_p}, "circle": {"who": circle, "verb": verb_c}}
