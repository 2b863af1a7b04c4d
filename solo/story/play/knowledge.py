"""What the player characters know: of each NPC (name, role, disposition, secret) and the clues of the story.

An NPC's card (``npcs`` in play, the oracle's list of people) shows only what
the PCs have learned. Before they know a name, an NPC is what was seen of them
(its ``seen`` field: "a big man in a docker's coat"); the role, the
disposition and the secret appear once learned. What is learned, and how:

* what a text the players read names: a ``{npc.ID}`` slot in a scene's text or
  title, a branch's text, a choice's label or hint teaches the name;
* what the dice show: an opposed roll or a conflict against the NPC shows the
  name, and a Social one (the disposition is a modifier on every roll) the
  disposition; a disposition the players are told has changed is known;
* what the adventure says: ``{ know = "knut", what = ["role", "secret"] }``.

Clues are lines the adventure marks as learned (the ``learn`` effect, a random
table row's ``learn``): the game keeps them in order, once each, for ``clues``
and the journal. Both live in the game state and its saves.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...rules.conflict_types import ConflictType
    from .engine import Game

#: What the PCs may know of an NPC, in the order a card shows it.
FACETS = ("name", "role", "disposition", "secret")
#: What the PCs know of an adventure's NPC when the game starts, unless it says otherwise (its ``known``): the
#: public face, a name and a trade. An NPC with ``seen`` starts as a stranger: nothing known but what was seen.
KNOWN_DEFAULT = ("name", "role")
#: What an NPC the story brings in by itself shows when met (open play's strangers, a Luck contact): the
#: meeting names them, says their trade and how they take the PCs.
MET_FACETS = ("name", "role", "disposition")
#: Bounds of the NPC fields about knowledge, so a card stays one line.
SEEN_MAX, SECRET_MAX, CLUE_MAX = 80, 300, 300
_NAMED = re.compile(r"\{npc\.([^{}]+)\}")


def facets_of(game: Game, nid: str) -> tuple[str, ...]:
    """What the PCs know of the NPC now: as learned in play, else what its adventure says they start with."""
    known = game.state.known.get(nid)
    if known is not None:
        return tuple(known)
    return starting_facets(game, nid)


def starting_facets(game: Game, nid: str) -> tuple[str, ...]:
    npc_def = game.adventure.npcs.get(nid)
    if npc_def is None:  # brought in by the story itself, and introduced as it came
        return MET_FACETS
    data = npc_def.data
    if "known" in data:
        return tuple(f for f in FACETS if f in data["known"])
    return () if "seen" in data else KNOWN_DEFAULT


def knows(game: Game, nid: str, facet: str) -> bool:
    return facet in facets_of(game, nid)


def seen_of(game: Game, nid: str) -> str:
    """How the PCs describe the NPC before they know the name (its ``seen``; else its name)."""
    npc_def = game.adventure.npcs.get(nid)
    if npc_def is not None and isinstance(npc_def.data.get("seen"), str):
        return str(npc_def.data["seen"])
    return game.state.npcs[nid].name


def secret_of(game: Game, nid: str) -> str:
    npc_def = game.adventure.npcs.get(nid)
    return str(npc_def.data.get("secret", "")) if npc_def is not None else ""


def called(game: Game, nid: str) -> str:
    """What the players call the NPC: the name once they know it, else what was seen of them."""
    return game.state.npcs[nid].name if knows(game, nid, "name") else seen_of(game, nid)


#: Bodies that a spent conflict Pool ends for good: the narration says an undead "stays down" and a machine
#: "locks up"; a beaten person or beast is only beaten, and may yet be lucky or unlucky.
ENDED_WHEN_OUT = frozenset({"undead", "machine", "object"})


def gone_for_good(game: Game, nid: str) -> bool:
    """Whether the NPC is out of the story: in comae, or spent in a conflict with a body that ends there
    (:data:`ENDED_WHEN_OUT`). Such an NPC is no longer on the oracle's list of people, so no random event
    names it ("Bad luck strikes the second barrow-wight" after it fell for the last time), and a scene that
    lists it does not put it back."""
    from ...rules.fiction import fiction_of_character
    from ...rules.outcomes import COMAE, OUT

    status = game.state.npc_status.get(nid)
    if status == COMAE:
        return True
    npc = game.state.npcs.get(nid)
    return status == OUT and npc is not None and fiction_of_character(npc).body in ENDED_WHEN_OUT


#: How an NPC left a conflict, in words that say what kind of conflict it was: (kind, status) -> words. The kinds
#: are :func:`conflict_kind`'s; a status of a kind not listed reads as the "contest" one.
STATUS_WORDS = {
    ("argument", "out"): "lost an argument", ("argument", "fled"): "walked out of an argument",
    ("argument", "surrendered"): "conceded an argument",
    ("fight", "out"): "beaten in a fight", ("fight", "fled"): "fled a fight",
    ("fight", "surrendered"): "surrendered in a fight",
    ("chase", "out"): "lost a chase", ("chase", "fled"): "gave up a chase", ("chase", "surrendered"): "gave up a chase",
    ("search", "out"): "gave up a search", ("search", "fled"): "broke off a search",
    ("search", "surrendered"): "gave up a search",
    ("contest", "out"): "bested", ("contest", "fled"): "fled", ("contest", "surrendered"): "gave up",
    ("contest", "comae"): "in comae",
}


def conflict_kind(ctype: ConflictType | None) -> str:
    """What kind of conflict a type is, for the words of a status: "argument" (social), "fight" (physical),
    "chase" (a pursuit), "search" (sneaking: the NPC seeks), else "contest" (or a type no longer known)."""
    if ctype is None:
        return "contest"
    if ctype.social:
        return "argument"
    if ctype.physical:
        return "fight"
    return {"chase": "chase", "hide": "search"}.get(ctype.pursuit or "", "contest")


def status_words(game: Game, nid: str) -> str:
    """How the NPC left its last conflict, said by the kind of conflict it was ("lost an argument", "beaten in
    a fight", "in comae"); "" for one that has fought none or is still in. The card in ``npcs`` and anything
    else that names an NPC's status says it so: a bare "out" reads as knocked out."""
    from ...rules.outcomes import ACTIVE

    status = game.state.npc_status.get(nid)
    if not status or status == ACTIVE:
        return ""
    kind = conflict_kind(game.conflict_types.get(game.state.npc_conflict.get(nid, "")))
    return STATUS_WORDS.get((kind, status)) or STATUS_WORDS.get(("contest", status)) or status


def learn(game: Game, nid: str, *facets: str) -> None:
    """The PCs now know these facets of the NPC. A name learned takes the place of what was seen on the
    oracle's list, where it was, so random events and tables name them as the players now do."""
    if nid not in game.state.npcs:
        return
    had = facets_of(game, nid)
    new = [f for f in facets if f in FACETS and f not in had]
    if not new:
        return
    before = called(game, nid)
    game.state.known[nid] = [f for f in FACETS if f in had or f in new]
    if "name" in new:
        game.state.oracle.rename_npc(before, game.state.npcs[nid].name)


def learn_names_in(game: Game, text: str) -> None:
    """Every NPC a text the players read names by its ``{npc.ID}`` slot is known by name from now on."""
    if "{npc." not in text:
        return
    for nid in _NAMED.findall(text):
        if nid in game.state.npcs:
            learn(game, nid, "name")


def add_clue(game: Game, text: str) -> None:
    """A line the PCs have learned: kept once, in the order learned, and told to the players."""
    text = text.strip()
    if text and text not in game.state.clues:
        game.state.clues.append(text)
        game.emit("clue", text=text)
