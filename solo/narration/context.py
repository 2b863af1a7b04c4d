"""What a line may depend on: the filters a template carries and the moment they are matched against.

A template line may open with filters in square brackets::

    "[foe:bold blow:heavy|final] {actor} lets {target} overreach and makes {target_them} pay."

Each filter is ``name:value`` (``value|value`` for either); the line is drawn
only when every filter holds at that moment. The moment is a :class:`Moment`,
built by the Narrator from the events so far. Keeping the names, their values
and the matching here, apart from selection, means the template check, the
narrator and the tests all read one list, and an author's unknown filter is
reported with its file and line instead of silently never matching.

``shows`` is not a condition but a claim: a declaration line says which stance
it shows (``bold``, ``wary`` or ``plain``), and the outcome lines that follow
are matched against what was *shown*, so "Espen gives ground" is never
followed by "Kjell lets Espen overreach" (:func:`compatible`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from ..rules.fiction import BODIES
from ..rules.lenses import LENS_TABLE, LENSES

__all__ = [
    "CLAIMS", "CONDITIONS", "FILTERS", "LENS_STANCE", "LONG_ODDS", "MANNERS", "Moment", "ORDINARY", "WEAPON_KINDS",
    "compatible", "condition", "manner_of", "parse_filters",
]

WEAPON_KINDS = ("blade", "blunt", "ranged", "firearm", "unarmed")
STANCES = ("bold", "wary", "plain")
#: How hurt a side is, by its Pool (:func:`condition`): every line about its state reads this one scale.
CONDITIONS = ("unhurt", "hurt", "wavering", "breaking")
#: Personality entries (docs/rules.md §7.2, as keys) by the bearing they give an NPC's tactics and body language.
MANNERS: Mapping[str, str] = {
    "aggressive": "fierce", "pushy": "fierce", "impulsive": "fierce", "fanatic": "fierce", "sadistic": "fierce",
    "irritating": "fierce",
    "shy": "timid", "nervous": "timid", "stressed": "timid", "reserved": "timid", "moody": "timid",
    "manipulative": "sly", "scheming": "sly", "lying": "sly", "inquisitive": "sly", "bitter": "sly",
    "indifferent": "cold", "non_empathic": "cold", "self_centred": "cold", "correct": "cold", "boring": "cold",
    "charming": "warm", "cheerful": "warm", "generous": "warm", "extroverted": "warm", "talkative": "warm",
}
#: A filter's name and the values it may take; ``None``: any lower-case word (an adventure's settings).
FILTERS: dict[str, tuple[str, ...] | None] = {
    "stance": STANCES,  # the stance the actor's declaration showed this round
    "was": STANCES,  # the stance the actor's declaration showed the round before ("careful as ever")
    "foe": STANCES,  # the stance the target's declaration showed
    "shows": STANCES,  # a declaration's claim: the stance it shows (default: its Lens's, LENS_STANCE)
    # the damage this beat deals; final = it empties the Pool, told = it does and the adventure tells the end
    "blow": ("none", "light", "heavy", "final", "told"),
    "aside": ("yes", "no"),  # the round's blow went to a Pool beside the conflict's (Covert's POW, Flamboyant's CHA)
    "weapon": WEAPON_KINDS,  # the actor's weapon
    "foe_weapon": WEAPON_KINDS,  # the target's weapon
    "phase": ("opening", "middle", "late"),  # rounds 1-2, the last two of the limit, or between
    "role": ("pursuer", "quarry", "hider", "seeker"),  # the actor's part in a pursuit (solo.rules.fiction.PARTS)
    "last": ("won", "lost", "stalled", "streak", "turn", "edge", "misses"),  # what came before, for the actor
    # a round won: the loser also succeeded (close) or missed outright (clear); a round nobody won: every miss was
    # by at most a tenth of the die (close) or some miss was wider (clear)
    "margin": ("close", "clear"),
    "manner": ("fierce", "timid", "sly", "cold", "warm"),  # an NPC's bearing, from its Code Block
    "foe_manner": ("fierce", "timid", "sly", "cold", "warm"),  # the target's bearing
    "mood": ("winning", "losing", "even", "fleeing"),  # how the fight stands for the actor (Pools compared)
    "setting": None,  # a word the adventure gives its conflict ("rooftops", "tavern")
    "body": BODIES,  # what the actor is made of (solo.rules.fiction): a split lip is for flesh
    "foe_body": BODIES,  # what the target is made of
    # the actor (target) has a mind of its own: fear, hope, doubt, boredom and thought are told of it, never of a
    # mindless draugr, automaton or yard dog ("no fear and no mercy", its card says) nor of an obstacle
    "mind": ("yes", "no"),
    "foe_mind": ("yes", "no"),
    "lens": LENSES,  # the Lens the actor declared this round
    "result": ("won", "lost", "stalled"),  # how the round went for the actor (a fumble: did the foe profit?)
    "physical": ("yes", "no"),  # the conflict is fought with weapons (a blow hurts a body), or not
    "spent": ("yes", "no"),  # the actor was told near the end of its Pool (breaking) and still is: no sprints
    "state": CONDITIONS,  # how hurt the actor is now, by its Pool (condition): "unhurt" is a full Pool
    "foe_state": CONDITIONS,  # how hurt the target is now (after this beat's blow)
    "fighters": ("two", "more"),  # how many are still in the conflict: "both" and "neither" count two
    "yields": ("yes", "no"),  # NPC speech: said as the speaker gives up (its surrender offered now), or not
    "fumble": ("yes", "no"),  # a fumble (exceptional failure) was told this round: no "both slip" after it
    "limit": ("last", "more"),  # the round limit's last round, or one with more to come (no limit: more)
    "chased": ("yes", "no"),  # the end of a flight: the one who fled got away from someone who gave chase
    "decided": ("yes", "no"),  # a way out: it decides the conflict (nobody left on that side), or others fight on
    # an NPC's fear was shown this round (a fearful Pool clue, its nerve failing, a plea): a bearing that says the
    # same fear in other words ("as if for a way out") says [afraid:no]
    "afraid": ("yes", "no"),
    # a Clever follow-up: it is aimed at the foe the Clever round watched (yes), or at another (no)
    "studied": ("yes", "no"),
    # one of the actor's personality entries (an NPC's Code Block): an indifferent air ("somewhere better to be") is
    # four of the five cold traits', not a Correct outlaw's arguing over her brother's killer at her own fire
    "trait": tuple(MANNERS),
}
#: Filters that say something about the line rather than restrict where it may stand.
CLAIMS = frozenset({"shows"})
#: Filters whose ordinary values a line may name (all of them) and still count as fitting any moment
#: (docs/narration.md, "The facts of the fiction"): a line kept from machines and the dead still fits everyone
#: of flesh, a sprint kept from one told spent still fits everyone who is not, a "both" kept for two still fits
#: the one-against-one conflicts most are, and a line that says the blow hurt ("picks off", "makes them pay",
#: ``blow:light|heavy|final``) still fits every blow but one that did nothing (armour took it, or halving), and a
#: line in which the blow strikes the body (``aside:no``) every blow but one to nerve or composure; a mishap of
#: both sides kept from a round with a fumble (``fumble:no``) still fits every round without one, and one that promises
#: a round to come (``limit:more``) every round but a limit's last, a flight let go (``chased:no``) every
#: flight but one from someone who gave chase, and a way out that ends it (``decided:yes``: "It is over.") every one
#: but a member's of a side that fights on; a bearing that says fear (``afraid:no``) every round but one in which the
#: NPC's fear was already shown, and a line of fear or thought (``mind:yes``) everyone but the mindless.
ORDINARY: Mapping[str, frozenset[str]] = {
    "body": frozenset({"flesh"}), "foe_body": frozenset({"flesh"}), "spent": frozenset({"no"}),
    "fighters": frozenset({"two"}), "blow": frozenset({"light", "heavy", "final"}), "aside": frozenset({"no"}),
    "fumble": frozenset({"no"}), "limit": frozenset({"more"}), "chased": frozenset({"no"}),
    "decided": frozenset({"yes"}), "afraid": frozenset({"no"}), "mind": frozenset({"yes"}),
    "foe_mind": frozenset({"yes"}),
}
#: The stance each Lens shows unless its line says otherwise: the Lens table's column, and Quick to get away.
LENS_STANCE: Mapping[str, str] = {**{key: lens.stance for key, lens in LENS_TABLE.items()}, "quick_leave": "wary"}
#: A round won at worse odds than this (about one in seven) is told as against the odds
#: (docs/narration.md, "A round, told"); so is a Luck flip.
LONG_ODDS = 0.15
_FILTER_GROUP = re.compile(r"^\s*\[([^\[\]{}]*)\]\s*")
_WORD = re.compile(r"^[a-z][a-z0-9_]*$")


def condition(pool: int, maximum: int) -> str | None:
    """How hurt a side is, from its Pool now against its maximum: ``unhurt`` (full), ``hurt``, ``wavering`` (half
    or less), ``breaking`` (a quarter or less, zero and below too); None without a known maximum.

    The one reading of a Pool for every line about a side's state: the Pool clues (wavering, breaking), the
    filters ``state`` and ``foe_state``, and "near the end" (``spent``). Two lines about one fighter so agree:
    none calls a fighter at 2/12 "nicked" and then "in tatters", none says "unhurt" of one at 0/12.
    """
    if maximum <= 0:
        return None
    if pool >= maximum:
        return "unhurt"
    if pool * 4 <= maximum:
        return "breaking"
    if pool * 2 <= maximum:
        return "wavering"
    return "hurt"


def manner_of(traits: tuple[str, ...]) -> str | None:
    """The bearing of the first personality entry that has one (an NPC's dominant trait leads)."""
    for trait in traits:
        if trait in MANNERS:
            return MANNERS[trait]
    return None


#: Filters that may say "all but" (``manner:!timid``): a manner is unknown for a player's character, whom a
#: line for every bearing but one must still fit; a role is unknown outside a pursuit, where a line for every
#: part but the chaser's ("Stay back!") fits as well.
NEGATABLE = ("manner", "foe_manner", "role", "setting", "weapon", "foe_weapon")


def parse_filters(text: str) -> tuple[str, dict[str, frozenset[str]], list[str]]:
    """Split a line's leading ``[name:value …]`` group from its text: (text, filters, errors)."""
    m = _FILTER_GROUP.match(text)
    if not m:
        return text, {}, []
    filters: dict[str, frozenset[str]] = {}
    errors: list[str] = []
    for part in m.group(1).split():
        name, sep, values = part.partition(":")
        if not sep or not values:
            errors.append(f"filter {part!r} must be name:value, e.g. foe:bold")
            continue
        allowed = FILTERS.get(name)
        if name not in FILTERS:
            from ..errors import did_you_mean

            errors.append(f"unknown filter {name!r}{did_you_mean(name, list(FILTERS))}; known: {', '.join(FILTERS)}")
            continue
        chosen = [v for v in values.split("|")]
        negated = [v.startswith("!") for v in chosen]
        if any(negated) and (not all(negated) or name not in NEGATABLE):
            errors.append(f"filter {name}: '!' (all but) goes before every value or none, and only for "
                          f"{', '.join(NEGATABLE)}")
        for value in (v.removeprefix("!") for v in chosen):
            if (allowed is None and not _WORD.match(value)) or (allowed is not None and value not in allowed):
                known = ", ".join(allowed) if allowed else "lower-case words"
                errors.append(f"filter {name}: unknown value {value!r}; known: {known}")
        if name in filters:
            errors.append(f"filter {name} given twice")
        filters[name] = frozenset(chosen)
    return text[m.end():], filters, errors


@dataclass
class Moment:
    """What the filters are matched against, for one line: facts about the actor, the target and the round."""

    facts: dict[str, str] = field(default_factory=dict)  # filter name -> the value that holds now
    settings: frozenset[str] = frozenset()
    traits: Collection[str] = ()  # the actor's personality entries (none for a PC or an obstacle)

    def admits(self, filters: Mapping[str, frozenset[str]]) -> bool:
        for name, values in filters.items():
            if name in CLAIMS:
                # one whose fear the screen has just shown claims no boldness it did not choose ("Hallstein falters,
                # and starts looking for a way out" and then "Hallstein leans in and presses his case": a new
                # player's argument); a Lens that is bold says so by its own lines, which claim nothing
                if name == "shows" and "bold" in values and self.facts.get("afraid") == "yes":
                    return False
                # a player who chose the plain roll is not told as having chosen a stance: "Espen keeps low and
                # careful" read as Cautious, which he had not picked (a reading of narrated conflicts)
                if name == "shows" and self.facts.get("chose") == "plain" and "plain" not in values:
                    return False
                continue
            if name in ("setting", "trait"):  # facts that are sets: one of the line's values among them
                have = self.settings if name == "setting" else self.traits
                if all(v.startswith("!") for v in values):  # [setting:!yard|!street]: anywhere but those
                    if any(v[1:] in have for v in values):
                        return False
                    continue
                if values.isdisjoint(have):
                    return False
                continue
            if not compatible(name, values, self.facts.get(name)):
                return False
        return True


def compatible(name: str, wanted: frozenset[str], fact: str | None) -> bool:
    """The compatibility rule: a filter holds only when the fact it asks about is known and among its values.

    An unknown fact never satisfies a filter, so a line that assumes something
    (that the foe attacked, that the blow was heavy) is only drawn when the
    events say so; lines without filters are the ones that fit any moment.
    """
    if any(value.startswith("!") for value in wanted):  # all but these: holds for an unknown fact too
        return fact is None or f"!{fact}" not in wanted
    return fact is not None and fact in wanted
