"""Luck spent outside the dice (docs/rules.md §2.8): *Timely appearance* and *Look what I found*.

At a prompt a player may spend a Luck Point to bring in a Contact (``luck
contact``) or to find a small useful item (``luck find``). The terminal only
passes the words on; here the point is spent and the game changes: the item
joins what the party carries (``has("rope")``), the Contact joins the game's
NPCs, and either is counted for the adventure's conditions
(``used_luck("contact")``, ``used_luck("find")``). Everything the player typed
is checked before anything is drawn or spent, so a refused command leaves the
game exactly as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ...errors import SoloError
from ...rules.luck import can_spend, spend

if TYPE_CHECKING:
    from ...rules.character import Character
    from .engine import Game

#: The words of the ``luck`` command, and the Luck use (docs/rules.md §2.8) each one spends.
LUCK_COMMANDS = {"contact": "timely_appearance", "find": "look_what_i_found"}
#: The longest name a player may give a found item or a Contact.
MAX_NAME = 40
#: What a name may hold besides letters, digits and spaces: nothing a terminal or Markdown reads as markup.
NAME_PUNCTUATION = "-'.,&/"
CONTACT_LEVEL = "skilled"
CONTACT_DISPOSITION = "Friendly"


class LuckRefused(SoloError):
    """A Luck command that cannot be carried out; nothing was spent."""


def out_of_the_conflict(game: Game, pc: Character) -> str | None:
    """Why ``pc`` may not spend Luck now, or None. A PC out of the conflict in hand (knocked out, fled, given up)
    keeps their Luck until it is over: a hot-seat party's Cy, down at BODY 0, brought a doctor into a chase he was
    no longer in. Read from the engine's own list of who is fighting; the prompt asks this before it offers to
    spend, and :func:`use_luck` refuses by it, so no caller can spend past it."""
    if any(p.char is pc and not p.active for p in game.fighting):
        return f"{pc.name} is out of this conflict: {pc.name}'s Luck waits until it is over."
    return None


def use_luck(game: Game, pc: Character, command: str, text: str = "") -> str:
    """Carry out ``luck COMMAND TEXT`` for ``pc``: the item found, or the id of the Contact brought in."""
    refused = out_of_the_conflict(game, pc) if game.edition >= 8 else None  # a save of before replays its spends
    if refused is not None:
        raise LuckRefused(refused)
    if command == "find":
        return find_item(game, pc, text)
    if command == "contact":
        return bring_contact(game, pc, text)
    raise LuckRefused(f"unknown Luck use {command!r}: 'contact' or 'find'")


def find_item(game: Game, pc: Character, text: str) -> str:
    """Look what I found: the party carries the named small item (its name in lower case)."""
    item = clean_name(text, "the item you find, e.g. luck find rope").lower()
    if item in game.state.items:
        raise LuckRefused(f"The party already has {item}.")
    _spend(game, pc, "find")
    game.state.items.append(item)
    game.emit("luck", actor=pc.name, use=LUCK_COMMANDS["find"], item=item, luck=pc.luck)
    game.emit("item", item=item, gained=True)
    return item


@dataclass(frozen=True)
class ContactWanted:
    """How ``luck contact TEXT`` is read: a role of the NPC tables, a trade they do not hold, a person's name, or
    nothing (the tables choose). The question that asks to spend the Luck Point says it (:meth:`words`), and the
    Contact brought in is it: one reading for both."""

    role: str | None = None  # the NPC tables' role key
    trade: str | None = None  # a trade the tables do not hold, as typed
    name: str | None = None

    def words(self) -> str:
        """"a Contact (a doctor)", "a Contact (a fisherman)", "a Contact (Marta Holm)", "a Contact"."""
        from ...narration.text import article_for
        from ...npc import role_named

        trade = role_named(self.role).name.lower() if self.role is not None else self.trade
        if trade is not None:
            return f"a Contact ({article_for(trade)} {trade})"
        return f"a Contact ({self.name})" if self.name else "a Contact"


def contact_wanted(game: Game, text: str) -> ContactWanted:
    """What ``luck contact TEXT`` asks for (:class:`ContactWanted`); raises :class:`LuckRefused` for text that names
    nothing a Contact can be. From edition 2 of play (engine.EDITION), words the NPC tables do not hold as a role
    are a trade where they are typed in lower case and no word of them is a name of the name tables ("fisherman",
    "harbour pilot": a group's run met a man called "fisherman"); otherwise a name, a lower-case one given its
    capitals ("marta holm" is Marta Holm: the review)."""
    from ...npc import role_named

    if not text.strip():
        return ContactWanted()
    wanted = clean_name(text, "the Contact")
    try:
        found = role_named(wanted)
    except KeyError:
        if game.edition < 2:  # a save's older game: as it was read then
            return ContactWanted(name=wanted)
        if wanted != wanted.lower():
            return ContactWanted(name=wanted)
        if {word.lower() for word in wanted.split()} & _name_words():
            return ContactWanted(name=" ".join(word[:1].upper() + word[1:] for word in wanted.split()))
        return ContactWanted(trade=wanted)
    if found.mindless:
        raise LuckRefused(f"A {found.name.lower()} is nobody's Contact.")
    return ContactWanted(role=found.key)


@lru_cache(maxsize=1)
def _name_words() -> frozenset[str]:
    """Every given and family name of the name tables, in lower case."""
    from ...rules.creation import name_tables

    names = name_tables()
    return frozenset(n.lower() for key in ("given", "family") for n in names.get(key, ()))


def bring_contact(game: Game, pc: Character, text: str = "") -> str:
    """Timely appearance: a friendly Contact joins the game, as ``text`` asks for it (:func:`contact_wanted`): a
    role from the NPC tables, a trade they do not hold, a name, or, empty, whoever the tables choose."""
    from ...npc import generate_npc

    wanted = contact_wanted(game, text)
    role, name, trade = wanted.role, wanted.name, wanted.trade
    if not can_spend(pc, negative_luck=game.adventure.negative_luck):
        _spend(game, pc, "contact")  # says why not, before a single die is drawn
    if role is None:
        role = _fitting_role(game)
    if name is None:
        name = _fresh_name(game)
    npc = generate_npc(game.rng, CONTACT_LEVEL, role=role, name=name, disposition=CONTACT_DISPOSITION)
    if trade is not None:  # skills and gear from the role that fits the scene; the trade as the player named it
        npc.role = trade
    _spend(game, pc, "contact")
    number = 1
    while f"contact{number}" in game.state.npcs:
        number += 1
    nid = f"contact{number}"
    game.state.npcs[nid] = npc
    game.state.oracle.add_npc(npc.name)
    game.emit("luck", actor=pc.name, use=LUCK_COMMANDS["contact"], contact=npc.name, luck=pc.luck)
    game.emit("npc_met", npc=nid, name=npc.name, level=CONTACT_LEVEL, role=npc.role or "",
              reaction=CONTACT_REACTION, disposition=CONTACT_DISPOSITION,
              code_block=npc.code_block.to_dict() if npc.code_block else {}, twist=None, contact=True,
              **({"by": pc.name} if len(game.state.pcs) > 1 else {}))  # in a party, whose acquaintance it is
    return nid


#: How a Contact greets the PC: told as part of the meeting, not as a table's reaction (describe.npc_met).
CONTACT_REACTION = "glad to see you, an old acquaintance there just when needed"
#: Names drawn for a Contact before one that shares no word with anyone in the story is given up on.
NAME_TRIES = 12


def _fresh_name(game: Game) -> str:
    """A name from the tables that shares neither first nor last name with anyone the story already holds (its
    NPCs, the names on the oracle's list, the party): a new player's Contact at Vellan was "Halvard Vik", beside
    Halvard Brekke and the Vik family. The first draw is the one the Contact had before, from the game's dice."""
    from ...rules.creation import random_name

    return name_apart(game, random_name(game.rng))


def name_apart(game: Game, name: str, also: Iterable[str] = ()) -> str:
    """``name``, or where it shares a first or last name with anyone the story holds (its NPCs, the names on the
    oracle's list, the party, and ``also``) another drawn from a generator of its own, seeded by that
    name and the game's seed, so that the game's dice go on as they did (a save made before replays the same game).
    A random PC is named so too (a group's run: "Edvin Lie" beside Vellan's bookkeeper Aron Lie)."""
    import random

    from ...rules.creation import random_name

    state = game.state
    taken = {word.lower() for held in (*(getattr(n, "name", "") for n in state.npcs.values()),
                                       *(pc.name for pc in state.party), *state.oracle.npcs, *also)
             for word in str(held).split()}
    again = None
    for _ in range(NAME_TRIES):
        if not {word.lower() for word in name.split()} & taken:
            break
        again = again or random.Random(f"{name}|{game.seed}")
        name = random_name(again)
    return name


#: Trades that make someone an enemy of the law first: a Contact the tables draw is never one of them. A smuggler
#: is one from play's edition 6 ("an old acquaintance" on Vellan's quay, a new player's run): a save of an earlier
#: edition draws its Contacts as it was played (the draw is among fewer trades now).
OUTLAW_ROLES = frozenset({"thug", "bandit", "cultist", "assassin", "smuggler"})
OUTLAW_ROLES_BEFORE_6 = OUTLAW_ROLES - {"smuggler"}


def _fitting_role(game: Game) -> str:
    """The trade of a Contact nobody named: one the scene mentions, else any a character could know.

    A scene that speaks of a doctor, a clerk or a pilot gets one; otherwise the draw is among the
    trades that are neither mindless nor outlaw, so a quay at night does not produce a bandit friend.
    """
    from ...npc.roles import roles

    outlaws = OUTLAW_ROLES if game.edition >= 6 else OUTLAW_ROLES_BEFORE_6
    fit = [r for r in roles().values() if not r.mindless and r.key not in outlaws]
    scene = game.adventure.scenes.get(game.state.scene) if game.state.scene is not None else None
    words = set(re.findall(r"[a-z]+", f"{scene.title} {scene.text}".lower())) if scene is not None else set()
    named = [r for r in fit if r.key in words or r.name.lower() in words]
    return game.rng.choice(named or fit).key


def clean_name(text: str, what: str) -> str:
    """A player's name for an item or a person: one line of words, at most :data:`MAX_NAME` characters."""
    name = " ".join(text.split())
    if not name:
        raise LuckRefused(f"Name {what}.")
    if len(name) > MAX_NAME:
        raise LuckRefused(f"That name is {len(name)} characters long; keep it to {MAX_NAME}.")
    odd = sorted({ch for ch in name if not (ch.isalnum() or ch == " " or ch in NAME_PUNCTUATION)})
    if odd:
        raise LuckRefused(f"'{name}' holds {' '.join(odd)}: a name is letters, digits, spaces and "
                          f"{' '.join(NAME_PUNCTUATION)} only.")
    return name


def _spend(game: Game, pc: Character, command: str) -> None:
    from ...rules.luck import LuckError

    try:
        spend(pc, LUCK_COMMANDS[command], negative_luck=game.adventure.negative_luck)
    except LuckError as exc:
        raise LuckRefused(str(exc)) from None
    game.state.luck_used[command] = game.state.luck_used.get(command, 0) + 1
