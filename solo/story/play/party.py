"""Who plays: the party given, or the players asked how many they are and whom each one plays.

An adventure with ``pc = false`` has no party at all: its reader plays no character.

Hot-seat play asks each player's name and character in turn; the adventure
may suggest a pregenerated character, which only one of them can take. The
player's roster (the characters kept from earlier games) comes after the
ready-made, new and random choices, so the numbers a script answers with stay
the same whatever the roster holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ...decisions import Option
from ...errors import ContentError
from ...rules.character import Character
from .npcs import npc_fields

if TYPE_CHECKING:
    import random

    from ...npc import NPC
    from ..format.adventure import NPCDef
    from .engine import Game


class RosterChoice(Protocol):
    """A character of the player's roster as "Who will you play?" offers it (solo.characters.RosterEntry)."""

    @property
    def key(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def fell(self) -> str | None: ...


class OfferedRoster(Protocol):
    """The roster a game offers (solo.characters.Roster): its entries, and a way to take one."""

    @property
    def entries(self) -> Sequence[RosterChoice]: ...
    def choose(self, entry: RosterChoice, /) -> Character: ...


def roster_of(game: Game) -> OfferedRoster | None:
    """The roster the game offers, if whoever started it gave one (the terminal does; bots and tests need not)."""
    return getattr(game, "roster", None)


def set_up_party(game: Game, given: list[Character] | None) -> None:
    """Seat the party and bring the adventure's NPCs to life."""

    if not game.adventure.uses_pcs:  # pc = false: a story with no RPG character, so nobody is asked
        party: list[Character] = []
    else:
        party = given or make_party(game)
    state = game.state
    state.party = party
    for pc in party:
        if game.adventure.negative_luck is False and pc.luck < 0:
            pc.luck = 0
    for nid, npc_def in game.adventure.npcs.items():
        state.npcs[nid] = _npc_of(npc_def, game.rng)
    state.oracle.pcs = [pc.name for pc in party]
    if party:  # a story with no character has no party to introduce
        game.emit("party", members=[pc.to_dict() for pc in party])


def _npc_of(npc_def: NPCDef, rng: random.Random) -> NPC:
    """The adventure's NPC, brought to life for this game: an NPC whose every field is written down is read
    once per adventure (reading it draws no die) and met again as a duplicate in each game after; one with
    fields left to chance is read with the game's dice each time, as its file says."""
    from ...npc import NPC

    kept = _FIXED.get(id(npc_def))
    if kept is None or kept[0] is not npc_def:
        try:
            fixed: NPC | None = NPC.from_dict(npc_fields(npc_def.data), file=npc_def.where.file)
        except ContentError:  # it needs the dice (or is broken, which reading it with them says again)
            fixed = None
        if len(_FIXED) >= 512:
            _FIXED.clear()
        kept = _FIXED[id(npc_def)] = (npc_def, fixed)
    if kept[1] is not None:
        return kept[1].duplicate()
    return NPC.from_dict(npc_fields(npc_def.data), file=npc_def.where.file, rng=rng)


#: By the adventure's NPC entry (held, so its id is not reused): the NPC read without dice, or None.
_FIXED: dict[int, tuple[NPCDef, NPC | None]] = {}


def make_party(game: Game) -> list[Character]:
    """Ask how many players sit at the table, then each one's name and character."""
    low, high = game.adventure.party_min, game.adventure.party_max
    size = low
    if high > low:
        size = int(game.ask("party_size", "How many players are at the table?",
                            [Option(str(n), f"{n} player{'s' if n > 1 else ''}") for n in range(low, high + 1)],
                            default=str(low)))
    party: list[Character] = []
    for seat in range(1, size + 1):
        player = None
        seated = {p.player.casefold() for p in party if p.player}
        if size > 1:
            player = _player_name(game, seat, seated)
        pc = make_pc(game, player, taken={p.name for p in party})
        free = game.edition < 4 or (pc.player or "").casefold() not in seated
        if player in (None, f"Player {seat}") and pc.player and free:
            # the seat's own name, left as offered (or none asked, one player alone): a roster character keeps the
            # player its file names (a group's evening: Enter at "Player 3, what is your name?" wrote "Player 3" over
            # Alma's "Cy"; alone, nobody over it), unless another player at the table has that name (the review)
            player = pc.player
        pc.player = player
        names = {p.name for p in party}
        base, n = pc.name, 2
        while pc.name in names:
            pc.name = f"{base} {n}"
            n += 1
        party.append(pc)
    return party


def _player_name(game: Game, seat: int, seated: set[str]) -> str:
    """The name a seat's player gives, asked again while another player at the table has it (a group's evening: two
    Anas, and every prompt read "Ana — …" for two people; play's edition 4: an older save's game takes it as given).
    Past :data:`~.creation.NAME_TRIES`, the seat's own name ("Player 2"), which no other seat has."""
    from .creation import ask_name_apart

    own = f"Player {seat}"
    name = ask_name_apart(game.decider, "player", f"{own}, what is your name?", seated if game.edition >= 4 else (),
                      default=own)
    return own if name.strip().casefold() in seated and game.edition >= 4 else name


def make_pc(game: Game, player: str | None = None, *, taken: set[str] | frozenset[str] = frozenset()) -> Character:
    """The adventure's pregenerated character (if not taken yet), a new one or a random one."""
    from ...rules.creation import build_character, fitting_pronoun, pregenerated, random_choices
    from .creation import ask_pronoun, create_character
    from .luck import name_apart

    options = []
    pregen = pregenerated(game.adventure.pc) if game.adventure.pc else None
    roster = roster_of(game)
    # one who died in an adventure is not offered again (its file says so: characters.mark_fallen)
    living = [e for e in roster.entries if not e.fell] if roster is not None else []
    kept = [e for e in living if e.name not in taken]
    twin = pregen is not None and any(e.name == pregen.name for e in kept)  # the ready-made one, played before
    # each option has one number for every player at the table: the second player, the ready-made character taken,
    # typed the "3" of "A random character" the first had been shown, and was told 3 is no answer (a new player's run)
    first = 2 if pregen is not None else 1
    if pregen is not None and pregen.name not in taken:
        options.append(Option("pregen", f"Play {pregen.name}",
                              "the ready-made character, as new" if twin else "a ready-made character", number=1))
    options += [Option("new", "Make a new character", number=first),
                Option("random", "A random character", number=first + 1)]
    # typing the name picks it; one named like the ready-made character says it is the one you played
    # two files of one name (three games' Alma Bakke) are told apart by their files, as 'solo characters' shows them
    names = Counter(e.name for e in kept)
    place = {e.key: first + 2 + i for i, e in enumerate(living)}
    options += [Option(e.key, f"{e.name} ({e.file})" if names[e.name] > 1
                       else f"{e.name} (your roster)" if twin and pregen is not None and e.name == pregen.name
                       else e.name, e.summary, number=place[e.key]) for e in kept]
    how = game.ask("pc_source", "Who will you play?", options, actor=player)
    if how == "pregen" and pregen is not None:
        return pregen
    entry = next((e for e in kept if e.key == how), None)
    if entry is not None and roster is not None:
        return roster.choose(entry)
    if how == "random":  # the dice draw a pronoun with the name; the player may give another, as one made asks
        pc = build_character(random_choices(game.rng, fitted=game.edition >= 8))  # edition 8: no //Gunnery drawn
        # a name of its own: none of the adventure's people nor the party share a word of it (a group's run drew
        # "Edvin Lie" beside Vellan's Aron Lie); its pronoun still fits the name it ends with
        drawn = pc.name
        if game.edition >= 2:  # (a save's older game keeps the name its answers were given under)
            written = (str(n.data.get("name", "")) for n in game.adventure.npcs.values())
            pc.name = name_apart(game, drawn, (*taken, *written))
        if pc.name != drawn:
            pc.pronoun = fitting_pronoun(pc.name, pc.pronoun)
        pc.player = player  # its card, shown below, says who plays it (a group's run: Cy's card had no "played by")
        pc.pronoun = ask_pronoun(game.decider, pc.name, player, default=pc.pronoun)
    else:  # a name the party has is asked again (edition 4), not told apart by a number without a word
        pc = create_character(game.decider, game.rng, player=player, careers=game.adventure.careers,
                              taken=taken if game.edition >= 4 else (), fitted=game.edition >= 8)
    game.emit("new_character", how=how, character=pc.to_dict())  # its card, before play starts
    return pc
