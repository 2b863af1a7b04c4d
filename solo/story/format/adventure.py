"""An adventure as typed data: metadata, NPCs, scenes, choices, actions and effects.

The loader (:mod:`solo.story.format.loader`) builds these from TOML and checks them;
the engine (:mod:`solo.story.play.engine`) plays them. Every object keeps the file
and TOML path it came from, so a problem found at any time can name its place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .expressions import Condition, Context

#: An NPC's slot in a text, ``{npc.ID}``: the one slot a text outside a game can fill (:meth:`Adventure.as_listed`).
_NPC_SLOT = re.compile(r"\{(npc\.[a-z0-9_]+)\}")

if TYPE_CHECKING:
    from transitions import Machine

#: Where an outcome with no branch of its own looks next (docs/adventures.md lists the same).
FALLBACK = {
    "exceptional_success": "success",
    "exceptional_failure": "failure",
    "yes_and": "yes",
    "yes_but": "yes",
    "no_and": "no",
    "no_but": "no",
    "opponent_fled": "won",
    "opponent_surrendered": "won",
    "fled": "lost",
    "surrendered": "lost",
    "comae": "lost",
    "stalemate": "lost",
}


@dataclass(frozen=True)
class Where:
    file: str
    path: str


@dataclass
class Effect:
    kind: str  # a key of solo.story.play.effects.EFFECTS
    args: dict[str, Any]  # as written, the kind's own key included (never its ``if``)
    where: Where
    condition: Condition | None = None  # ``if``: the effect applies only while this holds


@dataclass
class Route:
    """One entry of a ``goto`` list: the scene to go to if its condition holds (no condition: always)."""

    goto: str
    condition: Condition | None
    where: Where


@dataclass
class Branch:
    """Where an outcome leads: an optional text, effects, then a scene (or stay put).

    ``routes`` is a ``goto`` written as a list: the first route whose condition
    holds when the effects are done picks the scene; with none, the story stays.
    ``use`` names the shared ``[responses.NAME]`` this branch is (the same object).
    """

    goto: str | None
    text: str | None = None
    effects: list[Effect] = field(default_factory=list)
    where: Where | None = None
    routes: list[Route] = field(default_factory=list)
    use: str | None = None

    def target(self, context: Context) -> str | None:
        """The scene this branch leads to now: its ``goto``, or the first route that holds."""
        if not self.routes:
            return self.goto
        for route in self.routes:
            if route.condition is None or route.condition.evaluate(context):
                return route.goto
        return None


@dataclass
class Action:
    """What a choice does before it moves on; its outcome picks the branch."""

    kind: str  # a key of solo.story.play.actions.ACTIONS
    spec: dict[str, Any]  # the fields as written, without the outcomes
    branches: dict[str, Branch]
    where: Where
    escalation: Action | None = None

    def branch(self, outcome: str) -> Branch | None:
        """The branch for ``outcome``, falling back as documented (exceptional -> plain, …)."""
        if outcome in self.branches:
            return self.branches[outcome]
        fallback = FALLBACK.get(outcome)
        return self.branches.get(fallback) if fallback else None


@dataclass
class Choice:
    text: str
    where: Where
    condition: Condition | None = None
    effects: list[Effect] = field(default_factory=list)
    goto: Branch | None = None
    action: Action | None = None
    once: bool = False  # once taken, gone for the rest of the game (also written into ``condition``)
    own_condition: Condition | None = None  # with ``once``: its ``if`` as written, before "not yet chosen" joined it
    key: str = ""
    name: str = ""  # what ``chosen("scene/NAME")`` calls it: its ``id``, else its position from 1
    number: int = 0  # its position among the scene's choices as written, from 1: the number menus show
    hint: str = ""  # what is at stake, shown beside the choice before it is taken
    retry_cost: list[Effect] = field(default_factory=list)  # applied each time it is taken again

    @cached_property
    def braces(self) -> bool:
        """Whether its label, its hint or the stakes of its conflict have anything to fill (slots, ``{if}`` blocks,
        escaped braces): a menu works out its slots only for such a choice (worked out once: a menu asks it at
        every turn)."""
        stakes = str(self.action.spec.get("stakes", "")) if self.action is not None and \
            self.action.kind == "conflict" else ""
        return any(c in self.text or c in self.hint or c in stakes for c in "{}")

    def written_condition(self) -> str:
        """Its ``if`` as the author wrote it, or "": a once-only choice loads as ``(if) and chosen("scene/name") ==
        0``, words the author never wrote (``once`` says the rest: a new GM's run read the soft-lock's "which needs
        chosen("street/case") == 0" where they had written once = true)."""
        written = self.own_condition if self.once else self.condition
        return written.source if written is not None else ""


@dataclass
class Scene:
    id: str
    title: str
    text: str
    where: Where
    choices: list[Choice] = field(default_factory=list)
    on_enter: list[Effect] = field(default_factory=list)  # after the scene's text is shown
    ending: bool = False
    outcome: str | None = None  # for endings: "victory", "defeat", … free words for statistics (the fallback)
    npcs: list[str] = field(default_factory=list)  # NPCs present (for the oracle and random events)
    #: the scene says who is present (``npcs``, even an empty list): its set-up's events name nobody else, not the
    #: innkeeper a day's walk back down the road
    npcs_listed: bool = False
    oracle_setup: bool = False  # open scenes: the oracle checks whether it is altered or interrupted
    control: str | None = None  # "pcs" or "npcs": who holds the scene, for the tension track
    on_enter_before: list[Effect] = field(default_factory=list)  # ``on_enter.before``: before the text is picked
    #: ``outcome`` written as a list: (condition, outcome), the first that holds names the ending's outcome
    outcomes: list[tuple[Condition | None, str]] = field(default_factory=list)
    #: an ending the party does not live through (``"death"``) or leaves the story in (``"removed"``): every PC still
    #: in it leaves as the ending is told, so no epilogue improves a character the text just buried
    fate: str | None = None

    def outcome_now(self, context: Context) -> str:
        """The ending's outcome as the story stands: the first entry of an ``outcome`` list whose condition
        holds, else the plain ``outcome``, else the scene's id."""
        for condition, word in self.outcomes:
            if condition is None or condition.evaluate(context):
                return word
        return self.outcome or self.id


@dataclass
class NPCDef:
    id: str
    data: dict[str, Any]
    where: Where


@dataclass(frozen=True)
class Clock:
    """A counter the players see on the status line (``[adventure] clocks``): "label value/max"."""

    counter: str
    label: str
    max: int | None = None
    where: Where | None = None

    def shown(self, value: int) -> str:
        """"day of the crossing 1/2"; a count gone past its ``max`` says so ("day of the crossing 3, past 2"), where
        "3/2" read as a slip of the status line (a new player's run of Kaldskard)."""
        if self.max is None:
            return f"{self.label} {value}"
        return f"{self.label} {value}, past {self.max}" if value > self.max else f"{self.label} {value}/{self.max}"


@dataclass
class Adventure:
    id: str
    title: str
    start: str
    scenes: dict[str, Scene]
    npcs: dict[str, NPCDef]
    author: str = ""
    version: str = ""
    introduction: str = ""
    party_min: int = 1
    party_max: int = 1
    comae: str = "removed"
    pc: str | None = None  # a suggested pregenerated character
    negative_luck: bool = False
    tension: int = 5
    threads: list[str] = field(default_factory=list)
    templates: dict[str, Any] = field(default_factory=dict)  # narration overrides, passed to the narrator
    tables_dirs: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    content_hash: str = ""
    earlier_hashes: tuple[str, ...] = ()  # what an older solo called these same files (its saves still fit)
    source: str = ""  # the file or folder it was loaded from
    flags: list[str] = field(default_factory=list)  # set when a game starts, never again
    counters: dict[str, int] = field(default_factory=dict)
    items: list[str] = field(default_factory=list)
    uses_pcs: bool = True  # pc = false: a story with no RPG character (no party, no epilogue)
    responses: dict[str, Branch] = field(default_factory=dict)  # [responses.NAME], shared by ``use``
    meta_file: str = ""  # the file that holds [adventure]
    clocks: list[Clock] = field(default_factory=list)  # counters shown on the status line
    careers: list[str] | None = None  # the rulebook careers a new character may take here (None: every one)

    @property
    def deadly(self) -> bool:
        """Whether comae is death in this story (``comae = "death"``): what the push question and the end say."""
        return self.comae == "death"

    def endings(self) -> list[Scene]:
        return [s for s in self.scenes.values() if s.ending]

    def made_from(self, digest: str | None) -> bool:
        """Whether a save's (or a report's) hash names these files as they are now: the one home of "the adventure
        changed since" for play, the journal and the map."""
        return digest == self.content_hash or digest in self.earlier_hashes

    def as_listed(self, text: str) -> str:
        """A choice's words as a map or a report lists them, with no game to ask: each ``{if}`` block's first side
        (:func:`~solo.story.format.text.shown`) and an NPC's slot filled with the name its file gives, as a game
        shows it once the party knows it ("Ask {npc.miller} what he remembers" on a GM's map read "Ask Aldo Brand …":
        the map and the reports are the GM's); every other slot stays as written."""
        from .text import shown

        listed = shown(text)
        if "{npc." not in listed:
            return listed
        names = {f"npc.{nid}": npc.data["name"] for nid, npc in self.npcs.items()
                 if isinstance(npc.data.get("name"), str)}
        return _NPC_SLOT.sub(lambda m: names.get(m.group(1), m.group(0)), listed)

    def party_misfit(self, size: int) -> str | None:
        """Why a party of ``size`` cannot play this adventure, in the words every command says it with (None: it
        can): "The Tutorial is for 1 player; the party has 2"."""
        low, high = self.party_min, self.party_max
        if low <= size <= high:
            return None
        wanted = f"{low} to {high} players" if low != high else f"{low} player{'s' if low != 1 else ''}"
        return f"{self.title} is for {wanted}; the party has {size}"

    @cached_property
    def flow(self) -> Machine:
        """The scenes as a state machine (:mod:`solo.story.format.flow`), built once, when a game first moves."""
        from .flow import flow_machine

        return flow_machine(self)

    @cached_property
    def recovered(self) -> frozenset[str]:
        """The NPCs some ``recover`` effect gives their Pools back (whatever their ``recovers`` says)."""
        from .graph import all_effects

        return frozenset(str(e.args["recover"]) for e in all_effects(self) if e.kind == "recover")

    @cached_property
    def moves(self) -> dict[tuple[str, str], str]:
        """The flow machine's transitions as a table, (state, trigger) -> next state (:func:`flow.moves_of`)."""
        from .flow import moves_of

        return moves_of(self.flow)
