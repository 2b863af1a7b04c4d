"""Events in, sentences out: choosing a fitting, fresh line for each thing that happened.

The engine never narrates; a renderer (the terminal, the journal, ``solo duel
--narrate``) hands each event to :meth:`Narrator.narrate` when it wants text,
so auto-play pays nothing for prose. Every choice draws from the generator the
Narrator is given, so a seed reproduces the text. Give it a generator of its
own derived from the game's seed (:func:`narration_rng`) if the game's dice
must not depend on whether anyone read the story.

Selection walks from the most specific key to the most general (the actor's
side view, the conflict type, then ``generic``; each with the variant first,
then the event's plain lines) and gathers the lines whose filters hold at this
moment until it has at least :data:`MIN_LINES`, then draws the one least
recently used, spread by the speaker's identity so two NPCs on the same dice
do not say the same things. That history is the only memory that outlives a
conflict, and it saves with :meth:`Narrator.to_dict`.

A round is told as one beat: the declarations wait until the dice fall and are
told together as an exchange, and the outcome waits for the blow, so its line
can fit what was shown, who was actually hit and how hard.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from ..events import Event
from ..rules.character import pronoun_forms
from ..rules.fiction import HUNTERS, named_in_plural
from ..rules.lenses import LENS_TABLE, strikes
from ..rules.odds import round_odds
from ..rules.outcomes import ACTIVE, COMAE, FLED, OUT, SURRENDERED, ending_of
from .cast import Cast, Person
from .context import LENS_STANCE, LONG_ODDS, Moment, condition, manner_of
from .templates import ANY, EVENTS, GENERIC, MIN_LINES, Template, Templates, phrases_of
from .text import fill

__all__ = ["Narrator", "narration_rng", "FORMAT_VERSION"]

FORMAT_VERSION = 1
HISTORY = 40  # uses remembered per key: a pool of up to twice this many spreads its use evenly
FITTING_WEIGHT = 2.0  # a line written for this very moment (it has filters that hold) is this much likelier
UNUSED_WEIGHT = 2.0  # a line not among the key's remembered uses is this much likelier: use spreads over the pool
_SAID = {"taunt": "sneers|says|calls out", "plea": "begs|pleads|says", "bargain": "offers|says|tries",
         "strain": "mutters|says", "exclaim": "cries|blurts out|gasps", "yield": "concedes|says"}
_JOINS = ("; ", ", while ", " as ")  # how two declarations become one exchange
PLAIN_DECLARE = 0.4  # how often a participant without Lenses has its (always plain) declaration told
SPEECH = {"taunt": 0.3, "wavering": 0.25, "break": 0.6, "surrender": 0.8, "escalate": 0.5}
#: How often an NPC's bearing (its Code Block's manner) is told in a round it takes part in, besides its speech.
BEARING = 0.4
#: The Lenses a bearing would contradict in the round it follows: a round played as a show or as an all-out
#: attack is not told as cold ("dreary competence", "barely interested in the outcome") or timid. That round's
#: bearing goes untold; the NPC keeps its manner. (A fierce NPC held to a Cautious round still reads as
#: straining at the leash: told. A swing of manner is told whatever the Lens: it answers the round's result.)
BEARING_CLASHES: Mapping[str, frozenset[str]] = {
    "cold": frozenset({"flamboyant", "aggressive"}),
    # a warm air ("almost a game among friends") is not told of a round it spent shouting the other side down
    "warm": frozenset({"aggressive"}),
    # a Quick round is two things done at once, fast ("A split-second swerve, and Hedda is past the bus"), not
    # "hesitates at every junction"; Quick to get away ("quick_leave") is a wary round, and a timid one fits it
    "timid": frozenset({"flamboyant", "aggressive", "quick"}),
}
#: A flashy move names the skill it shows off in one declaration of every FLAIR_EVERY by the same actor; the others
#: say FLAIR_WORDS in turn, words that fit any show ("all flair", "trusting his nerve", "all flair and swagger").
FLAIR_EVERY = 3
FLAIR_WORDS = ("flair", "nerve")
#: Bodies whose flashy move keeps its skill's own word: "flair" and "nerve" would give the dead and machines a mind.
MINDLESS_BODIES = frozenset({"undead", "machine", "object"})
#: The bearings that say an NPC is unruffled ("Nothing in Ingrid's manner quickens or slows", "adjusts without a
#: word"): not told in a round a heavy blow struck it, whose line has just told it reeling (a reading of narrated
#: conflicts: "Ingrid stammers, badly caught out" and then "it is all business")
UNRUFFLED = frozenset({"cold", "warm"})
#: Where a swinging temper goes: Moody sinks when a round goes against it and lifts when one goes its way;
#: Impulsive flares when it loses a round and settles back when it wins one (docs/narration.md, "Manner").
#: The morale states an NPC's nerve shows on screen as fear (solo.minds.morale: "gives ground, eyes flicking
#: towards the way out"): in a round that showed it, its bearing is a timid one (docs/narration.md, "Manner").
AFRAID = frozenset({"shaken", "broken"})
SWINGS: Mapping[str, Mapping[str, str]] = {"moody": {"lost": "timid", "won": "warm"},
                                          "impulsive": {"lost": "fierce"}}


def narration_rng(seed: int, salt: int = 0x4E415252) -> random.Random:
    """A generator for narration alone, fixed by the game's seed, so telling the story never moves the dice."""
    return random.Random((int(seed) * 1_000_003) ^ salt)


def _type_name(key: str) -> str:
    """A conflict type's name for the {type} slot, from the bundled types when the cast does not know it."""
    try:
        from ..rules.conflict_types import bundled_conflict_types

        return bundled_conflict_types()[key].name
    except (KeyError, OSError, ValueError):
        return key.replace("_", " ")


def _kind_data(event: Event | Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """An event as the engine emits it, or as a saved log holds it (a table with its ``kind``)."""
    if isinstance(event, Mapping):
        data = dict(event)
        return data.pop("kind"), data
    return event.kind, event.data


#: Words after which a name is the object of a preposition ("waits for Espen to commit"), so "him" fits there; after
#: anything else it may be a clause's subject ("while Espen talks"), where only "it" reads right both ways.
_PREPOSITIONS = frozenset({"for", "at", "on", "to", "with", "from", "past", "toward", "towards", "around", "round",
                           "into", "onto", "over", "under", "behind", "off", "about", "against", "upon", "near",
                           "beside", "of", "by", "through", "beyond"})


def named_once(second: str, first: Person, speaker: Person | None = None, told: str = "",
               others: Iterable[Person] = ()) -> str:
    """The second half of a joined exchange with the first half's actor, named there already, as a pronoun: "The
    second barrow-wight closes in as Sander waits for it to commit", not "… waits for the second barrow-wight to
    commit" (a new player's run of Kaldskard). Only the first mention after the second half's own actor
    (``speaker``), and only where the pronoun can mean nobody else: after a preposition ("waits for him", never
    "himself"), or as "it" or a possessive only where ``speaker`` is not one too ("Espen watches his hands" reads
    as Espen's own); never for "they", nor where someone else in ``told`` (the first half) or in the words before
    it has the same pronoun, nor inside speech or a new sentence."""
    name = first.name
    at = second.find(name, 1)
    end = at + len(name)
    if (at < 0 or second[at - 1].isalnum() or second[end:end + 1].isalnum() or second[:at].rstrip().endswith(".")
            or '"' in second[:at]):  # a new sentence, or inside what someone says: the name stays
        return second
    forms = pronoun_forms(first.pronoun)
    if forms["them"] == "them":  # a singular "they" beside a party reads as all of them: the name stays
        return second
    shared = speaker is not None and pronoun_forms(speaker.pronoun) == forms
    if _alike_named(forms, (told + " " + second[:at]).lower(), others, first, speaker):
        return second  # another "him" on the scene: the pronoun could be either
    before = second[:at].split()
    after_preposition = bool(before) and before[-1].lower() in _PREPOSITIONS
    if second.startswith("'s", end):
        return second if shared else second[:at] + forms["their"] + second[end + 2:]
    if after_preposition or (forms["they"] == forms["them"] and not shared):
        return second[:at] + forms["them"] + second[end:]
    return second


def subject_named_before(second: str, speaker: Person, told: str, others: Iterable[Person] = ()) -> str:
    """The second half of a joined exchange with its own actor, named in the first half already, as a pronoun:
    "Ilse interrupts Espen again and again as he strikes a pose", not "… as Espen strikes a pose" (a new GM's
    transcript). Only where the pronoun can mean nobody else named in the first half, and never "they" (its verb
    would have to change with it)."""
    name = speaker.name
    end = len(name)
    if not second.startswith(name) or second[end:end + 1].isalnum() or second.startswith("'", end):
        return second
    low = told.lower()  # "The yard dog" opens the first half as "the yard dog" is named
    at = low.find(name.lower())
    if at < 0 or (at and told[at - 1].isalnum()) or told[at + end:at + end + 1].isalnum():
        return second
    forms = pronoun_forms(speaker.pronoun)
    if forms["they"] == "they":
        return second
    if _alike_named(forms, low, others, speaker):
        return second  # "Sander circles Espen as he …": either of them; "The yard dog circles the wolf as it …"
    return forms["they"] + second[end:]


def _alike_named(forms: Mapping[str, str], text: str, others: Iterable[Person], *meant: Person | None) -> bool:
    """Whether someone but ``meant`` with the same pronoun is named in ``text`` (lower case: a name that opens a
    sentence is capitalised), so that the pronoun could mean either."""
    # by identity: a Person compares by value, field by field (two alike in every field are still two people)
    return any(all(p is not m for m in meant) and pronoun_forms(p.pronoun) == forms and p.name.lower() in text
               for p in others)


class Narrator:
    """Makes narration from templates with an injected generator and a memory of recent lines."""

    def __init__(self, templates: Templates, rng: random.Random, *, memory: Mapping[str, Any] | None = None,
                 speech: Mapping[str, float] | None = None) -> None:
        self.templates = templates
        self._sided: frozenset[tuple[str, str]] | None = None  # (:meth:`_side_events`)
        self.rng = rng
        self.speech = {**SPEECH, **(speech or {})}
        self.history: dict[str, list[str]] = {}
        self.last_line: str | None = None
        self._told_exchange = True  # this round's declarations are told (or there were none)
        self._beat: list[str | None] = []  # lines held for the round's beat (fumbles, long-odds Luck)
        self._outcome: tuple[str, str, str | None, str] | None = None  # winner, lens, loser, event: awaits the blow
        self._after: list[str | None] = []  # lines that follow the outcome (Luck that softened the blow)
        self._after_exchange: list[str | None] = []  # the round's beat, held with an exchange told late
        self._declared: list[tuple[Person, Mapping[str, Any]]] = []
        self._settings: frozenset[str] = frozenset()  # from conflict_stakes, for the conflict that follows
        self._told: set[str] = set()  # lines told in this conflict: none comes back while its key has fresh ones
        #: ... and with what words (:func:`_sentence`): once all are told, one not yet told so is a new sentence
        self._told_of: set[str] = set()
        self._round_phrases: set[str] = set()  # the telling runs of words of this round's lines (Template.phrases)
        self._pending_blow: Mapping[str, Any] | None = None  # a blow that emptied a Pool: final only if out follows
        self._fumbled: list[Person] = []  # this round's fumblers, told once the round's result is known
        self._flipped: set[str] = set()  # who had a Luck flip told this round: its long odds are told once
        self._fumble_told = False  # a fumble was told this round: the ``fumble`` fact, so no "both slip" follows
        self._blundered: set[str] = set()  # who blundered this round (an exceptional failure): no long chance beat them
        self._long_odds_told = -LONG_ODDS_APART
        #: A round's fumblers and its winner, held until the winner has chosen whom it strikes among several
        self._late_fumbles: tuple[list[Person], str | None] | None = None
        self._obstacle_won: str | None = None  # an obstacle won a round and sets back one of a party: whom, told later
        self._results: dict[str, str] = {}  # this round's result by participant, once the dice have decided it
        self._stalled = 0  # rounds without a result in a row: the second and later are folded into one sentence
        self._result_round = -1  # the round whose result was told last (a way out after it comes at its end)
        self._bearing_due = False  # a round's outcome was told: the NPCs' bearing follows it
        self._bearing_waits = False  # ... once the event after a blow that emptied a Pool says what followed
        #: Set to a list to keep (round, event, drawn for a manner) for every line drawn: what the figures of
        #: benchmarks/narration_stats.py count. None (the default) keeps nothing.
        self.drawn: list[tuple[int, str, bool]] | None = None
        if memory:
            self._load(memory)

    # -- memory --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The recent-line memory and this conflict's told lines (not the generator, which belongs to the caller)."""
        data: dict[str, Any] = {"version": FORMAT_VERSION,
                                "history": {k: list(v) for k, v in sorted(self.history.items()) if v}}
        if self._told:
            data["told"] = sorted(self._told)  # the lines of the conflict under way, should it be saved mid-way
        if self._told_of:
            data["told_of"] = sorted(self._told_of)
        if self._round_phrases:  # what this round's lines said, which the next line does not echo
            data["phrases"] = sorted(self._round_phrases)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], templates: Templates, rng: random.Random, **kw: Any) -> Narrator:
        return cls(templates, rng, memory=data, **kw)

    def _load(self, data: Mapping[str, Any]) -> None:
        version = data.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise ValueError(f"narrator memory version {version} is not {FORMAT_VERSION}")
        history = data.get("history", {})
        if not isinstance(history, Mapping):
            raise ValueError("narrator memory: history must be a table")
        self.history = {str(k): [str(u) for u in v][-HISTORY:] for k, v in history.items()}
        told = data.get("told", [])
        if not isinstance(told, list):
            raise ValueError("narrator memory: told must be a list")
        self._told = {str(u) for u in told}
        told_of = data.get("told_of", [])
        if not isinstance(told_of, list):
            raise ValueError("narrator memory: told_of must be a list")
        self._told_of = {str(u) for u in told_of}
        phrases = data.get("phrases", [])
        if not isinstance(phrases, list):
            raise ValueError("narrator memory: phrases must be a list")
        self._round_phrases = {str(p) for p in phrases}

    # -- selection -----------------------------------------------------------------
    def chain(self, ctype: str, event: str, variants: Iterable[str] = (), side: str | None = None
              ) -> list[tuple[str, str, str]]:
        """The keys tried for a line, most specific first (docs/narration.md, "Fallback order").

        Where the type writes this event for the actor's side, its own lines for the event are the other side's
        (a sneak's are the hider's, a hunt's the tracker's): the watcher is never told by them. A reading of
        narrated conflicts met a yard dog on watch that "takes a risk and crosses in the open", once the watcher's
        few lines that fit a dog were told."""
        sided = f"{ctype}.side_{side}" if side else None
        own = None if sided is not None and (sided, event) in self._side_events() else ctype
        scopes: list[str] = []
        for scope in (sided, own, f"{GENERIC}.side_{side}" if side else None, GENERIC):
            if scope and scope not in scopes:
                scopes.append(scope)
        variants = [v for v in variants if v and v != ANY]
        keys: list[tuple[str, str, str]] = []
        if variants and all(v in _LOOKING_BACK for v in variants):
            # a look back is told in its own tense in every scope before any line told as it happens: an adventure's
            # own "It goes on like that for {rounds}" read "for round" after the end (the review)
            return [(scope, event, v) for scope in scopes for v in variants] + [(scope, event, ANY) for scope in scopes]
        for scope in scopes:
            keys += [(scope, event, v) for v in variants] + [(scope, event, ANY)]
        return keys

    def _side_events(self) -> frozenset[tuple[str, str]]:
        """The (side scope, event) pairs the templates write lines for (worked out at the first line asked for:
        a few hundredths of a millisecond)."""
        if self._sided is None:
            self._sided = frozenset((scope, event) for scope, event, _ in self.templates.lines if ".side_" in scope)
        return self._sided

    def candidates(self, chain: list[tuple[str, str, str]], available: frozenset[str] | set[str],
                   moment: Moment | None = None) -> tuple[str | None, list[Template]]:
        """The lines selection picks from: those that fit the moment, gathered down the chain until MIN_LINES.

        Without a ``moment`` only lines that fit any moment are taken (what the
        check counts); with one, a line is taken when every filter it has holds.
        """
        pool_id = None
        found: list[Template] = []
        seen: set[str] = set()
        for key in chain:
            usable = [t for t in self.templates.lines.get(key, ())
                      if t.slots <= available and t.uid not in seen
                      and (not t.filters or (moment.admits(t.filters) if moment is not None else not t.restricted))]
            if not usable:
                continue
            if pool_id is None:
                pool_id = ".".join(k for k in key if k != ANY)
            found += usable
            seen.update(t.uid for t in usable)
            if sum(not t.restricted for t in found) >= MIN_LINES:
                break
        return pool_id, found

    def pick(self, pool_id: str, lines: list[Template], who: Person | None = None,
             values: Mapping[str, str] | None = None) -> Template:
        """Draw the line to use: none told before in this conflict while the key has others, never the last line told.

        Once every line has been told, one not yet told with these ``values`` (of these people) comes first: it
        is a new sentence ("Espen tells a story …" after "Ingrid tells a story …"), where the same one again is
        not. What is left is drawn by weight (lines written for this moment, and lines not used lately, are
        likelier; a line that echoes one told earlier in the round, sharing a telling run of words, is not
        drawn while another is left), with the draw shifted by the speaker's identity: the same
        generator gives an aggressive Brakk and a shy Arn different lines.
        """
        history = self.history.setdefault(pool_id, [])
        window = history[-(len(lines) // 2):] if len(lines) > 1 else []
        used = set(history)
        fresh = [t for t in lines if t.uid not in self._told]
        if not fresh and values is not None:  # all told: one told only of others is still a sentence not yet read
            fresh = [t for t in lines if _sentence(t, values) not in self._told_of]
        if fresh:  # within one conflict a line comes back only once every line that fits has been told
            lines = fresh
        elif len(lines) > 2:  # all told in this conflict: the older half, by this key's history
            order = {uid: i for i, uid in enumerate(history)}
            lines = sorted(lines, key=lambda t: order.get(t.uid, -1))[:max(2, len(lines) // 2)]
        weights = [0.0 if t.uid in window else (FITTING_WEIGHT if t.restricted else 1.0) * (1.0 if t.uid in used else
                                                                                          UNUSED_WEIGHT)
                   for t in lines]
        if not any(weights):
            weights = [1.0] * len(lines)
        said = self._round_phrases
        if said:  # (the first line of a round echoes nothing: not looked at)
            echoes = [not t.phrases.isdisjoint(said) for t in lines]
            if any(echoes) and not all(echoes):  # "… has no answer." is not followed by "… has no answer at all …"
                weights = [0.0 if echo else w for echo, w in zip(echoes, weights)]
                if not any(weights):
                    weights = [0.0 if echo else 1.0 for echo in echoes]
        if len(lines) > 1 and self.last_line is not None:  # a line never follows itself, whatever its key
            weights = [0.0 if t.text == self.last_line else w for t, w in zip(lines, weights)]
            if not any(weights):
                weights = [1.0 if t.text != self.last_line else 0.0 for t in lines]
        u = self.rng.random()
        if who is not None and not who.pc:
            u = (u + zlib.crc32(f"{who.name}|{'|'.join(who.traits)}".encode()) / 2**32) % 1.0
        point, acc = u * sum(weights), 0.0
        choice = lines[-1]
        for t, w in zip(lines, weights):
            if w:
                choice = t  # the last line with weight, should rounding leave the point past the end
                acc += w
                if acc > point:
                    break
        history.append(choice.uid)
        del history[:-HISTORY]
        self._told.add(choice.uid)
        if values is not None:
            self._told_of.add(_sentence(choice, values))
        self._round_phrases |= choice.phrases
        self.last_line = choice.text
        return choice

    def say(self, cast: Cast, event: str, actor: Person | None, target: Person | None = None, *,
            variants: Iterable[str] = (), ctype: str | None = None, extra: Mapping[str, str] | None = None,
            pool: str | None = None, facts: Mapping[str, str | None] | None = None) -> str | None:
        """One finished line for ``event``, or None if no template fits."""
        template, values = self.choose(cast, event, actor, target, variants=variants, ctype=ctype, extra=extra,
                                       pool=pool, facts=facts)
        return None if template is None else self.render(template, values, actor, target)

    def choose(self, cast: Cast, event: str, actor: Person | None, target: Person | None = None, *,
               variants: Iterable[str] = (), ctype: str | None = None, extra: Mapping[str, str] | None = None,
               pool: str | None = None, facts: Mapping[str, str | None] | None = None
               ) -> tuple[Template | None, dict[str, str]]:
        """The template drawn for ``event`` in this moment and the slot values to fill it with."""
        if event not in EVENTS:
            raise KeyError(f"unknown narration event {event!r}")
        values = self.values(cast, actor, target, pool=pool, extra=extra)
        if ctype is None and _beyond_its_lines(cast, actor, target):
            ctype = GENERIC
        chain = self.chain(ctype or cast.type, event, variants, actor.told_side if actor else None)
        moment = self.moment(cast, actor, target, facts)
        pool_id, lines = self.candidates(chain, frozenset(values), moment)
        if pool_id is None:  # set exactly when some line was found
            return None, values
        template = self.pick(pool_id, lines, actor, values)
        if self.drawn is not None:
            told = template.filters.get("manner", ())  # a line for one bearing tells it; "all but timid" does not
            self.drawn.append((cast.round, event, event in _MANNER_EVENTS or any(v[:1] != "!" for v in told)))
        return template, values

    def moment(self, cast: Cast, actor: Person | None, target: Person | None,
               facts: Mapping[str, str | None] | None = None) -> Moment:
        """What the filters of a line about ``actor`` and ``target`` are matched against, now."""
        known: dict[str, str | None] = {"phase": self._phase(cast)}
        if actor is not None:
            known.update(stance=actor.shown, was=actor.was, role=actor.role,
                         manner=actor.manner if not actor.pc else None, weapon=self._weapon_kind(cast, actor),
                         last=_last(actor), mood=_mood(cast, actor),
                         body=actor.body, lens=actor.lens if cast.round > 0 else None, spent=_spent(actor),
                         state=actor.condition, mind=_mind(actor))
        if target is not None:
            known.update(foe=target.shown, foe_weapon=self._weapon_kind(cast, target),
                         foe_manner=target.manner if not target.pc else None, foe_body=target.body,
                         foe_state=target.condition, foe_mind=_mind(target))
        known["physical"] = "yes" if cast.physical else "no"
        known["fumble"] = "yes" if self._fumble_told else "no"
        known["limit"] = "last" if cast.round_limit is not None and cast.round >= cast.round_limit else "more"
        known["fighters"] = _fighters(cast)
        known.update(facts or {})
        return Moment({k: v for k, v in known.items() if v is not None}, cast.settings,
                      actor.traits if actor is not None and not actor.pc else ())

    @staticmethod
    def _phase(cast: Cast) -> str | None:
        if cast.round <= 0:
            return None
        if cast.round <= 2:
            return "opening"
        if cast.round_limit and cast.round >= cast.round_limit - 1:
            return "late"
        return "middle"

    def _weapon_kind(self, cast: Cast, person: Person) -> str | None:
        """The kind of weapon ``person`` fights with (a party: its members' kind when they share one, else
        unknown, so no ``weapon:`` filter holds for it); None outside a physical conflict."""
        if not cast.physical or person.obstacle:
            return None
        if person.members:
            kinds = {self._weapon_kind(cast, p) for p in person.members}
            return kinds.pop() if len(kinds) == 1 else None
        if person.bites or person.strikes_bare:  # the unarmed lines ("keeps its fists up and its chin down") are a
            return None  # person's
        return self.templates.word("weapon_kinds", person.weapon or "Unarmed", "unarmed")

    @staticmethod
    def render(template: Template, values: Mapping[str, str], actor: Person | None = None,
               target: Person | None = None) -> str:
        """Fill one template (no choice, no memory): what the tests use to read every line."""
        plural = {"actor": bool(actor and actor.pronoun == "they"), "target": bool(target and target.pronoun == "they"),
                  "actor:name": _named_plural(actor), "target:name": _named_plural(target)}
        return fill(template.pieces, values, plural)

    def values(self, cast: Cast, actor: Person | None, target: Person | None = None, *, pool: str | None = None,
               extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every slot value for a line about ``actor`` and ``target``; slots without a value are left out."""
        words = self.templates.word
        values = {
            "pool": words("pools", pool or cast.pool_name or None, (pool or cast.pool_name or "strength").lower()),
            "type": (cast.type_name or _type_name(cast.type)).lower(),
        }
        for role, person in (("actor", actor), ("target", target)):
            if person is None:
                continue
            prefix = "" if role == "actor" else "target_"
            values[role] = person.name
            for form, word in pronoun_forms(person.pronoun).items():
                values[prefix + form] = word
            if person.members:
                continue  # a party's weapons are several: "{actor} lowers {their} {weapon}" is not told of it
            # not "The wild boar raises its fists", nor a mill-wheel
            called = person.weapon_called or ("teeth" if person.bites else "bulk" if person.strikes_bare else None)
            values[prefix + "weapon"] = called or words(
                "weapons", person.weapon, (person.weapon or "fists").lower().replace("_", " "))
        values.update(extra or {})
        return values

    # -- events ----------------------------------------------------------------------
    def narrate(self, event: Event | Mapping[str, Any], cast: Cast) -> list[str]:
        """The lines for one engine event (often none: a declaration waits for the round's beat)."""
        kind, data = _kind_data(event)
        handler = getattr(self, f"_on_{kind}", None)
        held: list[str | None] = []
        if self._pending_blow is not None:  # the blow that emptied a Pool, told now that we know what followed
            blow, self._pending_blow = self._pending_blow, None
            ends = kind in ("out", "comae") and data.get("actor") == blow.get("target")
            held += self._on_damage(blow, cast, ends=ends, how=kind)
        holds = kind in _BEAT_EVENTS
        if kind in ("exit_offer", "exit") and data.get("actor") in cast.persons and not self._told_exchange:
            last = cast.last_of_side(cast.persons[data["actor"]])
            if kind == "exit_offer":
                # the moves declared before it are told before its plea, not after the answer (they came first);
                # those of the other side, should this exit end the conflict, wait to see if it stands
                holds = last
            elif data.get("decided", last):
                self._declared, self._told_exchange = [], True  # the other side's moves come to nothing: untold
        if kind == "leave_attempt" and data.get("success") and data.get("actor") in cast.persons:
            # a chased runner that gets away: the exit that follows may end it, and the moves declared for a round
            # it ends come to nothing (they were told after "tries to get away: away", as if made once it was gone)
            holds = cast.last_of_side(cast.persons[data["actor"]])
        if not holds:
            held += self._flush(cast)
        if self._bearing_waits and kind not in _ENDING_EVENTS:  # the emptied Pool did not end it: told now,
            held += self._bearing(cast)                        # before the round moves on
        if handler is not None:
            held += handler(data, cast)
        # after the outcome and its blow: how the NPCs carry it. A blow that empties a Pool waits for the next
        # event, which may say the conflict is over: then the aftermath tells it, not a bearing
        self._bearing_waits = False
        if self._bearing_due and self._outcome is None:
            if kind == "damage" and self._may_end(data, cast):
                self._bearing_waits = True
            else:
                held += self._bearing(cast)
        return [line for line in held if line]

    def _flush(self, cast: Cast) -> list[str | None]:
        """Whatever the round still holds, told now: an outcome whose blow never came, the exchange."""
        lines = self._exchange(cast) + self._obstacle_wins(cast, None)
        if self._outcome is not None:
            lines += self._tell_outcome(cast, None)
        lines += self._after
        self._after = []
        return lines

    def _speech(self, cast: Cast, kind: str, speaker: Person | None, listener: Person | None,
                chance: float = 1.0, *, yields: bool = False) -> list[str | None]:
        """A line the NPC ``speaker`` says, or none. ``yields``: it says it as it gives up (its surrender is offered
        now), so a line that concedes the fight ("I yield", "you win", ``[yields:yes]``) may be drawn, and a plea
        may be conceded; at a Pool's quarter, where it may yet fight on, it only begs or bargains."""
        if speaker is None or not speaker.voiced or chance <= 0:
            return []
        mood = _mood(cast, speaker)
        if kind == "taunt" and (mood in ("losing", "fleeing") or speaker.shaken):
            # someone losing or running does not crow, nor one whose nerve the screen showed failing: "Knut falters,
            # and starts looking for a way out", then '"I will break you, Tarjei!" Knut snarls' (a reading)
            return []
        if kind == "bargain" and mood == "winning":
            return []
        if chance < 1.0 and self.rng.random() >= chance:
            return []
        variants = [self.rng.choice(speaker.traits)] if speaker.traits else []
        # said in the voice its fear was shown in this round, before this line: "close to storming out, or to tears"
        # and then '"Please, I meant no harm," Severin says flatly' (a reading of narrated duels)
        shaken = speaker.afraid == cast.round and kind in ("plea", "bargain", "strain")
        told = set(self._told)
        template, values = self.choose(cast, kind, speaker, listener, variants=variants,
                                       facts={"yields": "yes" if yields else "no"})
        if template is None or template.uid in told:
            return []  # speech is optional: an NPC who has said all its lines this conflict keeps quiet
        line = self.render(template, values, speaker, listener)
        if line and kind in ("plea", "bargain"):
            speaker.offered = True
        if line and (kind == "plea" or yields):
            # a plea is fear said aloud, whatever the temper: '"Wait! I only wanted to know!" Idun cries.' is not
            # followed by "Idun watches more than she acts, weighing every angle" (its bearing this round is timid)
            speaker.afraid = cast.round
        return [self._attribute(line, speaker, kind, yields=yields, manner="timid" if shaken else None)]

    def _attribute(self, line: str | None, speaker: Person, kind: str, *, yields: bool = False,
                   manner: str | None = None) -> str | None:
        """Name the speaker of a bare quotation: '"Enough!"' becomes '"Enough!" Brakk begs.'

        Authors may write speech as a bare quotation to keep it short; a reader
        still needs to know who spoke. The verbs come from ``[words.said]``, by
        kind and the speaker's bearing (a shy NPC does not jeer); a cry ending
        in "!" from someone begging or bargaining is cried, not suggested. A plea
        said as the speaker gives up (``yields``) tries ``yield.<bearing>`` first, and
        ``yield`` before the plain plea's verbs: only a surrender is "conceded", never a
        plea after which it fights on, and a surrender is not begged.
        """
        if not line or not (line.startswith('"') and line.endswith('"')) or line.count('"') != 2:
            return line
        body = line[1:-1].rstrip()
        said = "exclaim" if body.endswith("!") and kind != "taunt" else kind
        manner = manner or speaker.manner or manner_of(speaker.traits)
        verbs = self.templates.word("said", f"yield.{manner}", "") if yields and said == "plea" and manner else ""
        if manner:
            verbs = verbs or self.templates.word("said", f"{said}.{manner}", "")
        if yields and said == "plea":  # a surrender in words is conceded or said, not begged: '"Very well, I yield.
            # Now, where was I?" Ulrik pleads' read wrong (a player's run)
            verbs = verbs or self.templates.word("said", "yield", _SAID["yield"])
        if speaker.condition == "unhurt":  # breath still whole: a cry, not a gasp (an unhurt Hallstein "gasps")
            verbs = verbs or self.templates.word("said", f"{said}.unhurt", "")
        verbs = verbs or self.templates.word("said", said, _SAID.get(said, "says"))
        choices = [v.strip() for v in verbs.split("|") if v.strip()]
        verb = self.rng.choice(choices or ["says"])
        if body.endswith("."):
            body = body[:-1] + ","
        return f'"{body}" {speaker.name} {verb}.'  # "the guard" stays lower case after a quotation

    # -- one handler per engine event ---------------------------------------------------
    def _on_conflict_start(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        cast.begin(d)
        cast.settings |= self._settings
        self._settings = frozenset()
        self._beat, self._outcome, self._told_exchange = [], None, True
        self._told, self._fumbled, self._stalled, self._pending_blow = set(), [], 0, None
        self._result_round = -1
        self._told_of, self._round_phrases = set(), set()
        self._fumble_told, self._blundered = False, set()
        self._long_odds_told = -LONG_ODDS_APART  # the round a long chance won was last told in (against_odds)
        self._bearing_due = False
        opening = cast.frame.get("opening")
        if opening is not None:  # the adventure has the first word: its own line ("the door bursts in"), or none
            return [opening or None]
        first, second = cast.sides()
        return [self.say(cast, "start", cast.group(first), cast.group(second))]  # a party is named as a party

    def _on_conflict_stakes(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        """The adventure's words for where the coming conflict happens, for lines filtered [setting:…].

        Kept by the Narrator, not the cast: a game may start a fresh cast at
        ``conflict_start``, which comes after this event.
        """
        self._settings = frozenset(str(s) for s in d.get("settings") or ())
        return []

    def _on_round_start(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        cast.round = int(d.get("round", cast.round + 1))
        if d.get("round_limit"):
            cast.round_limit = int(d["round_limit"])
        for p in cast.persons.values():
            p.was = p.shown
            p.lens, p.leaving, p.shown, p.target, p.roll, p.success = "none", False, None, None, None, None
            p.exiting = False
        self._beat, self._outcome, self._told_exchange, self._after, self._declared = [], None, True, [], []
        self._fumbled, self._results, self._after_exchange, self._late_fumbles = [], {}, [], None
        self._obstacle_won = None
        self._flipped, self._fumble_told, self._blundered = set(), False, set()
        self._round_phrases = set()
        return []

    def _on_declare(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        actor.lens = d.get("lens") or "none"
        quick = d.get("quick_action") or ""
        actor.leaving = actor.lens == "quick" and quick == "leave"
        if quick.startswith("weapon:"):
            _draws(actor, quick.split(":", 1)[1])
        if actor.obstacle:
            return []
        self._declared.append((actor, d))
        self._told_exchange = False
        return []

    def _exchange(self, cast: Cast) -> list[str | None]:
        """The round's declarations told together, each person's line fitting what it shows, then the beat that
        waited for them (fumbles, long-odds Luck) where the round's result held it back."""
        held, self._after_exchange = self._after_exchange, []
        if self._told_exchange:
            return held
        self._told_exchange = True
        told: list[tuple[Person, str]] = []
        lines: list[str | None] = []
        for actor, d in self._declared:
            if not actor.active:
                continue
            lines += self._change_of_heart(cast, actor)
            text = self._declaration(cast, actor, d)
            if text:
                told.append((actor, text))
        self._declared = []
        for i in range(0, len(told), 2):
            pair = told[i:i + 2]
            if len(pair) == 2 and _same_telling(pair[0], pair[1]):
                # "Runa checks every mark twice before trusting it as Alma checks every mark twice before trusting
                # it" (a group's run): one line drawn for both, said once
                lines.append(f"{pair[0][1][:-1]}, and {_so_too(pair[0], pair[1][0])}.")
            elif len(pair) == 2 and pair[0][1].endswith(".") and pair[0][1].count(".") == 1 and '"' not in pair[0][1]:
                second = pair[1][1]
                join = self.rng.choice(_JOINS)
                name = pair[1][0].name
                if name[:1].islower() and second.startswith(name[:1].upper() + name[1:]):
                    second = name + second[len(name):]  # "…; the grave-lord attacks", not "…; The grave-lord …"
                if not second.startswith(name):
                    second = second[:1].lower() + second[1:]  # "With a snarl, …" goes on after a semicolon
                    join = "; "
                elif "," in pair[0][1] or "," in second:
                    # "…, defence forgotten as Espen …" reads as one muddle, and "… talks over Jonas as Jonas tells a
                    # story, and makes sure Espen hears every word" as if Espen made sure of it
                    join = "; "
                elif join == " as " and (" than " in pair[0][1] or " as " in pair[0][1]):
                    join = ", while "  # "… rather than risk the bend as Kaia swaps lanes" reads as a comparison
                second = named_once(second, pair[0][0], pair[1][0], pair[0][1], cast.persons.values())
                lines.append(pair[0][1][:-1] + join + subject_named_before(second, pair[1][0], pair[0][1],
                                                                           cast.persons.values()))
            else:
                lines += [text for _, text in pair]
        return lines + held

    def _declaration(self, cast: Cast, actor: Person, d: Mapping[str, Any]) -> str | None:
        target = cast.opponent(actor)
        lens = actor.lens
        if not actor.lenses and cast.round > 1 and self.rng.random() >= PLAIN_DECLARE:
            actor.shown = "plain"
            return None  # someone without Lenses does the same thing every round: say so now and then
        if d.get("clever_choice"):
            event, variants = "follow_up", [d["clever_choice"]]
        else:
            event = "declare"
            variants = ["quick_leave", "quick"] if actor.leaving else [lens]
        extra = {}
        if lens == "flamboyant" and d.get("secondary") and event == "declare":
            # by the Focus the roll counted where the words have one: Move //Brawn is strength, not "agility" (a new
            # player's grave-lord fight), Science //Medicine no longer "scientific know-how" three rounds in four
            skill = d["secondary"]
            by_focus = self.templates.word("skills", f"{skill}//{actor.focus}", "", scope=cast.type) \
                if actor.focus else ""
            extra["skill"] = by_focus or self.templates.word("skills", skill, skill.lower(), scope=cast.type)
            # named once in every FLAIR_EVERY flashy moves; between, the words of any show (a player's Vellan: "sharp
            # eyes" in every Flamboyant round of the registry, the chase and the sneak)
            # no "burst of nerve" for the dead, nor "trusting its flair" for a mindless yard dog (a reading)
            if actor.flourishes % FLAIR_EVERY and actor.body not in MINDLESS_BODIES and not actor.mindless:
                extra["skill"] = FLAIR_WORDS[(actor.flourishes - 1) % len(FLAIR_WORDS)]
            actor.flourishes += 1
        # told once the dice have fallen: a line may say how the move went ([result:won]), and one that claims a
        # hit is never told of a move the round's result belies
        facts = {"result": self._results.get(actor.id)}
        if actor.afraid == cast.round:
            facts["afraid"] = "yes"
        if actor.pc and event == "declare" and lens == "none" and not actor.leaving:
            facts["chose"] = "plain"  # the player's own choice: no line claims a stance for it (Moment.admits)
        if event == "follow_up":  # what it learned is of the foe it watched (a group's run: "watching how Hallstein
            # moves", then "uses what she learned about Torgny's footwork")
            facts["studied"] = "yes" if target is not None and actor.studied == target.id else "no"
        template, values = self.choose(cast, event, actor, target, variants=variants, extra=extra, facts=facts)
        if event == "declare" and lens == "clever" and target is not None:
            actor.studied = target.id
        if template is None:
            return None
        actor.shown = template.claim("shows") or LENS_STANCE.get("quick_leave" if actor.leaving else lens, "plain")
        return self.render(template, values, actor, target)

    def _change_of_heart(self, cast: Cast, actor: Person) -> list[str | None]:
        """A follow-through: one who showed signs of flight, or begged or bargained, and fights on says so."""
        if actor.leaving or not (actor.signalled or actor.offered):
            return []
        variant = "flight" if actor.signalled else "offer"
        actor.signalled = actor.offered = False
        if variant in actor.steadied:
            return []  # said once; a second time reads as the narrator repeating itself
        actor.steadied.add(variant)
        return [self.say(cast, "steadies", actor, cast.opponent(actor), variants=[variant])]

    def _on_exit_offer(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        """Someone yields or runs, before the other side answers: a surrender's plea is said now, so it comes
        before its acceptance (or refusal); the exit itself is told at ``exit``, if it stands."""
        actor = cast.person(d["actor"])
        actor.exiting = True
        if d.get("exit") != "surrender":
            return []
        return self._plea(cast, actor, cast.opponent(actor))

    def _plea(self, cast: Cast, actor: Person, target: Person | None) -> list[str | None]:
        if actor.role in HUNTERS:  # one who gives up a hunt is not caught: it has nothing to beg
            return []
        # in the voice it broke in: one whose nerve went with an offer yields with one, not a plea
        return self._speech(cast, actor.breaks_by or "plea", actor, target, self.speech["surrender"], yields=True)

    def _on_exit(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        target = cast.opponent(actor)
        actor.active = False
        cast.leaves(actor)
        cast.decided = _decided(d, cast)
        offered, actor.exiting = actor.exiting, False
        actor.signalled = actor.offered = False
        how = "fled" if d.get("how") == "fled" else "surrendered"
        # rounds without a result before a way out that ends it are told before it, not after the conflict's end;
        # so is a run this very round closed, before a get-away at its end (Quick's): "Nora slips away. Oda backs
        # off into the dark. / Nothing changes for one more round." told the run after the ways out (a fiction audit)
        if cast.decided:
            lines = self._end_run(cast, before=True)
        else:
            lines = self._end_run(cast) if self._result_round == cast.round else []
        actor.gone = how
        # "It is over" only of the way out that decides it: not of one of three giving up while the others go on;
        # none where the adventure's own text tells that end ("Aron stops running and waits, hands raised" before
        # "He stops dead … and turns round with his hands up": a reading of narrated games)
        # nor where the screen's clue of its broken nerve said it ("Hallstein offers to concede." then "Hallstein
        # gives in, with bad grace." read twice over a reading of narrated games)
        if not _author_tells(cast, actor, how) and not actor.broke:
            lines.append(self.say(cast, how, actor, target, facts={"decided": "yes" if cast.decided else "no"}))
        if how == "surrendered" and not offered:  # a log without its exit_offer: the plea is said with the exit
            lines += self._plea(cast, actor, target)
        return lines

    def _on_npc_morale(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        """An NPC's nerve fails (the screen shows it: "gives ground, eyes flicking towards the way out"): nothing
        is told here, but its bearing this round may not say otherwise, and no line after it says those words
        again ("… as if for a way out")."""
        if d.get("after") != d.get("before"):
            self._screen_said(d.get("clue"))
            who = cast.persons.get(d.get("actor") or "")
            if who is not None:
                who.shaken = d.get("after") in AFRAID
                if who.shaken:
                    who.afraid = cast.round
        return []

    def _on_npc_break(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        """Its nerve is gone: it runs, yields or begs (one that "fights on like a cornered animal" shows no fear)."""
        self._screen_said(d.get("clue"))
        who = cast.persons.get(d.get("actor") or "")
        if who is None:
            return []
        if d.get("reaction") == "fight_on":
            who.shaken = False  # it digs in, "like a cornered animal": no fear left to show
        else:
            who.afraid, who.broke = cast.round, bool(d.get("clue"))
        return []

    def _screen_said(self, clue: object) -> None:
        """A clue the screen and the journal show on a line of its own (solo.ui.describe.clue) is said in this round
        as much as a line the narrator told: its phrases join the round's, which a line told after it does not
        echo. (A nerve that breaks shows its break's clue, not the morale one; counting both holds back a little
        more, never less.)"""
        if isinstance(clue, str) and clue:
            self._round_phrases |= phrases_of(clue)

    def _on_roll(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        actor.target, actor.roll, actor.success = d.get("target"), d.get("roll"), bool(d.get("success"))
        if d.get("lens") == "flamboyant":  # the Focus a flashy move counted names it (_declaration)
            actor.focus = next((str(name)[2:] for name, _ in d.get("modifiers") or () if str(name).startswith("//")),
                               None)
        if not d.get("exceptional") or d.get("success") or actor.obstacle:
            return []
        self._blundered.add(actor.id)
        self._fumbled.append(actor)  # told with the round's result: a fumble nobody profits from is a near miss
        return []

    def _on_luck(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        use = d.get("use", "")
        if use == "refreshed":
            actor.pool = int(d.get("after", 1))
            actor.pushing = False
        if use == "pay_back":
            return []
        if use == "flip":
            actor.roll, actor.success = d.get("after"), bool(d.get("success", True))
            chance = self._round_chance(cast, actor)
            if chance is None or chance >= LONG_ODDS:
                return []  # Luck spent on a fair chance is no story; the numbers show it was spent
            line = self.say(cast, "luck", actor, cast.opponent(actor), variants=[use])
            if line:
                self._flipped.add(actor.id)  # "Luck turns for Birk" already says the odds were against Birk
            self._beat.append(line)
            return []
        line = self.say(cast, "luck", actor, cast.opponent(actor), variants=[use])
        if use == "reduce_damage" and self._outcome is not None:
            self._after.append(line)  # told after the blow it softens, not before the blow is struck
            return []
        return [line]

    def _round_chance(self, cast: Cast, person: Person, against: Person | None = None) -> float | None:
        """The exact chance ``person`` had of winning this round, from the targets rolled (solo.rules.odds):
        against the best target of the other side, or against ``against`` (the one a winner beat and struck),
        whom an "against the odds" line names ("anyone watching would have given that one to Jonas" only
        where Jonas was the better bet, not where his ally was)."""
        if against is not None and against.target is not None and against.side != person.side:
            others = [against.target]
        else:
            others = [p.target for p in cast.persons.values() if p.side != person.side and p.target is not None]
        if person.target is None or not others:
            return None
        return round_odds(int(person.target), int(max(others))).a

    def _on_round_result(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        self._results = _round_results(d, cast)
        self._result_round = cast.round
        # whom a winner with more than one foe standing strikes is chosen after the dice: the declarations (the
        # winner's names whom it went for) wait for that choice (strike_target), so that it names the one struck
        late = bool(d.get("chooses"))
        won_by = cast.persons.get(d.get("winner") or "")
        if won_by is not None and not late:
            beaten = [p for p in cast.persons.values() if p.active and p.side != won_by.side]
            if len(beaten) == 1:  # the one it beat: its move this round was at the winner (_faced)
                _faced(won_by, beaten[0])
        lines = [] if late else self._exchange(cast)
        if late:  # a fumble is told once it is known whether the winner struck the one who fumbled
            self._late_fumbles = (self._fumbled, d.get("winner"))
            self._after_exchange = self._beat
        else:
            lines += [self._fumble(cast, p, d.get("winner")) for p in self._fumbled] + self._beat
        self._beat, self._fumbled = [], []
        rolled = [p for p in cast.persons.values() if p.active and p.roll is not None]
        for p in rolled:
            p.misses = 0 if p.success else p.misses + 1
        if d.get("winner") is None:
            for p in rolled:
                p.results.append("stalled")
                p.edges = 0
            self._stalled += 1
            if self._stalled > 1:
                return []  # a run of rounds with no result: told in one sentence when it ends
            self._bearing_due = True
            if d.get("allies_tied"):  # allies rolled the same best: nobody met anybody, and nobody answered
                # two are told by name; three or more are left to the round's line, which names them all
                tied = [cast.person(k) for k in d.get("tied") or ()]
                return lines + ([self.say(cast, "stalemate_allies", tied[0], tied[1])] if len(tied) == 2 else [])
            first, second = cast.sides()
            a, b = cast.group(first), cast.group(second)
            event = "stalemate_tie" if d.get("tie") else "stalemate_failed"
            return lines + [self.say(cast, event, a, b, facts={"margin": _missed_by(rolled)})]
        winner = cast.person(d["winner"])
        lines = self._end_run(cast, before=True, winner=winner) + lines
        lens = d.get("lens") or "none"
        event = "exceptional_success" if d.get("exceptional") else "round_won"
        if winner.obstacle:
            self._record(cast, winner, lens)
            if late:  # the moves come before what came of them; whom of the party it sets back is chosen next
                self._obstacle_won = winner.id  # "… and Alma gets nowhere" was told as Greta lost the POW
                return lines + self._exchange(cast)
            return lines + [self.say(cast, "obstacle_wins", winner, cast.opponent(winner))]
        if d["damage"] if "damage" in d else strikes(lens):  # a blow follows: the outcome waits for it
            self._outcome = (winner.id, lens, None, event)
            return lines
        self._outcome = (winner.id, lens, None, event)
        return lines + self._tell_outcome(cast, None)

    def _fumble(self, cast: Cast, fumbler: Person, winner_id: str | None, struck: str | None = None) -> str | None:
        """A fumble, told with the round's result: one the other side profits from (``lost``) names the one who
        won the round, not whoever the fumbler last faced ("hands Ingrid the moment on a plate" when Hedda won
        it); one nobody profits from, or whose round an ally of the fumbler won, is a near miss (``stalled``). A
        winner with several foes that struck another (``struck``) did not profit from this one's blunder: "leaves
        herself wide open" is not told of Sigrid when the wight's blow goes to Jonas."""
        winner = cast.persons.get(winner_id or "")
        if winner is not None and winner.side != fumbler.side and struck in (None, fumbler.id):
            line = self.say(cast, "exceptional_failure", fumbler, winner, facts={"result": "lost"})
        else:
            line = self.say(cast, "exceptional_failure", fumbler, cast.opponent(fumbler), facts={"result": "stalled"})
        # the round's own line comes after it: "Halvard catches a foot on a loose cobble and goes down" is not
        # followed by "Halvard and Espen both slip on the slick stones" (such a line says [fumble:no])
        self._fumble_told = self._fumble_told or bool(line)
        return line

    def _on_strike_target(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        """The winner chose whom to strike among several: the round's moves are told now, the winner's aimed at
        that one (a log without this event tells them with the blow, which names the same one)."""
        winner, struck = cast.person(d["actor"]), cast.persons.get(d.get("target") or "")
        if struck is not None:
            _faced(winner, struck)
        self._tell_late_fumbles(cast, struck.id if struck is not None else None)
        return self._exchange(cast) + self._obstacle_wins(cast, struck)

    def _obstacle_wins(self, cast: Cast, struck: Person | None) -> list[str | None]:
        """An obstacle's won round over a party, told once it is known whom of them it sets back."""
        if self._obstacle_won is None:
            return []
        winner, self._obstacle_won = cast.person(self._obstacle_won), None
        return [self.say(cast, "obstacle_wins", winner, struck or cast.opponent(winner))]

    def _tell_late_fumbles(self, cast: Cast, struck: str | None) -> None:
        """The fumbles of a round whose winner chose whom to strike, now that the one struck is known: held
        before the rest of the round's beat, to be told after the declarations."""
        if self._late_fumbles is None:
            return
        fumblers, winner = self._late_fumbles
        self._late_fumbles = None
        self._after_exchange = [self._fumble(cast, p, winner, struck) for p in fumblers] + self._after_exchange

    def _end_run(self, cast: Cast, *, before: bool = False, winner: Person | None = None,
                 ended: bool = False) -> list[str | None]:
        """The rounds after the first of a run with no result, folded into one sentence (none for a single one).

        ``before``: the run ended with a round that has a result, whose line ("Espen wins round 9") is read
        first, so the sentence looks back at the rounds before it ("the two rounds before this one had changed
        nothing") and is never read as this round's. ``winner``: who won that round, so a look back that says the
        run broke in the first side's favour ("… without a single click, until now") is told only when it did (its
        ``result``). ``ended``: the conflict is over, its last rounds' dice shown: the sentence looks back at them
        ("the last five rounds had changed nothing"); "Nothing changes for five more rounds" after the last
        round of six read as rounds still to come (a new player's run).
        """
        more, self._stalled = self._stalled - 1, 0
        if more < 1 or (ended and more == 1):  # the last round alone: its own dice line just said nothing was won
            return []  # ("Nobody wins round 12" then "Nobody had gained a thing in the last round": a player's run)
        # looking back from a round with a result, "one more round" had no round to be one more than: the whole
        # run is counted there ("the two rounds before this one"), its first round told when it came
        if ended:  # "the last {rounds}": "the last five rounds"
            rounds = _count(more, more=False)
        else:
            rounds = _count(more + 1, more=False) if before else _count(more)
        first, second = cast.sides()
        result = None if winner is None else "won" if winner.side == first else "lost"
        return [self.say(cast, "stalemate_run", cast.group(first), cast.group(second), extra={"rounds": rounds},
                         variants=["before"] if before else ["ended"] if ended else [],
                         facts={"result": result} if result else None)]

    def _record(self, cast: Cast, winner: Person, lens: str) -> None:
        for p in cast.persons.values():
            if p.active and p.roll is not None and p is not winner:
                p.results.append("lost")
                p.edges = 0
        winner.results.append("won")
        winner.edges = winner.edges + 1 if _edge(lens) else 0
        self._bearing_due = True  # the NPCs' bearing is told once the round's outcome has been

    def _bearing(self, cast: Cast) -> list[str | None]:
        """The NPCs' manner this round, from their Code Blocks: a swing told with its cause, else now and
        then how each carries itself (docs/narration.md, "Manner"). Steady tempers keep one manner."""
        self._bearing_due = False
        lines: list[str | None] = []
        if cast.decided:
            return lines  # the conflict is over: its aftermath tells how the winner carries it, not a bearing
        won_by = next((cast.persons[k].side for k, r in self._results.items() if r == "won" and k in cast.persons),
                      None)
        # one plain bearing a round at most, taken in turn from round to round: a band of four told "Ragna takes the
        # gain as no more than what was due. Hallstein keeps exactly the same pace … Torgny fidgets" read as a
        # roll-call (a reading of Kaldskard's group fights); a swing, told with its cause, is told whoever else is
        people = list(cast.persons.values())
        turn = cast.round % len(people) if people else 0
        bearing_told = False
        for p in people[turn:] + people[:turn]:
            if p.pc or p.obstacle or not p.active or p.manner is None or not p.results:
                continue
            result: str | None = p.results[-1]
            if result == "lost" and won_by == p.side:
                result = None  # an ally won the round: no loss to carry ("notes the loss"), nor a win of its own
            # a Moody temper swings from the second round: in the first, nothing has shown yet what it swings from
            swing = next((SWINGS[t][result] for t in p.traits if t in SWINGS and result in SWINGS[t]
                          and (t != "moody" or cast.round > 1)), None) if result is not None else None
            if swing is None and result == "won" and any(t == "impulsive" for t in p.traits):
                swing = manner_of(tuple(t for t in p.traits if t != "impulsive")) or p.manner
            afraid = p.afraid == cast.round
            if afraid and swing not in (None, "timid"):
                swing = None  # it just pleaded or showed fear: it does not flare, or brighten, in the same breath
            # and no line says that fear again in other words ("eyes flick about for somewhere to run", then
            # "glances about, as if for a way out": a player's run): such a line says [afraid:no]
            facts = {"result": result, "afraid": "yes" if afraid else "no"}
            if swing is not None and swing != p.manner:
                p.manner = swing
                lines.append(self.say(cast, "manner_shift", p, cast.opponent(p), variants=[swing], facts=facts))
            else:
                # just after it showed fear, whatever its manner, it carries itself as a timid one does: not "shows
                # no more feeling than a ledger would" after "eyes flick about for somewhere to run"
                bearing = "timid" if afraid else p.manner
                lens = "quick_leave" if p.leaving else p.lens
                if bearing in UNRUFFLED and (p.jolted == self._result_round or p.shaken):
                    # a heavy blow just told it reeling, or its nerve is failing on the screen and has not
                    # steadied: no "it is all business", nor "entirely unmoved" (a reading of Kaldskard)
                    continue
                if bearing_told:
                    continue
                if self.rng.random() < BEARING and lens not in BEARING_CLASHES.get(bearing, ()):
                    lines.append(self.say(cast, "bearing", p, cast.opponent(p), variants=[bearing], facts=facts))
                    bearing_told = True
        return lines

    def _tell_outcome(self, cast: Cast, blow: Mapping[str, Any] | None, ends: bool = False) -> list[str | None]:
        """The round's winner and how: told with the blow, so the line can fit it (or alone, if none came)."""
        assert self._outcome is not None
        wid, lens, _, event = self._outcome
        self._outcome = None
        winner = cast.person(wid)
        loser = cast.person(blow["target"]) if blow else cast.opponent(winner)
        facts: dict[str, str | None] = {"blow": None, "aside": None}
        if blow:  # how hard, and whether it went to nerve or composure instead of the conflict's Pool
            facts["blow"] = _severity(blow, ends)
            facts["aside"] = "no" if _conflict_pool(blow.get("pool"), cast) else "yes"
        if loser is not None:
            facts["margin"] = "close" if loser.success else "clear" if loser.roll is not None else None
        if _edge(lens) and winner.edges >= 1:
            facts["last"] = "edge"  # before this win is recorded: a second Clever edge in a row
        elif _last(winner) == "lost" and len(winner.results) >= 2 and winner.results[-2] == "lost":
            facts["last"] = "turn"  # lost the two before: the tide turns
        lines = [self._blow_line(cast, event, winner, loser, variants=[lens], facts=facts)]
        chance = self._round_chance(cast, winner, loser)
        # a Luck flip told for the winner this round already said it should have failed: "It should have fallen
        # flat. Somehow it did not." after "Luck turns for Birk at the last second" tells the same thing twice; and
        # a round the loser threw away was not the winner's long chance: "By rights that one was Astrid's" after
        # Astrid's own blunder (a player's run)
        # and once in a while: five surprises in six rounds of a long fight stop surprising (a player's run)
        if chance is not None and chance < LONG_ODDS and winner.id not in self._flipped \
                and (loser is None or loser.id not in self._blundered) \
                and cast.round - self._long_odds_told >= LONG_ODDS_APART:
            line = self.say(cast, "against_odds", winner, loser)
            if line:
                self._long_odds_told = cast.round
            lines.append(line)
        self._record(cast, winner, lens)
        return lines

    def _on_damage(self, d: Mapping[str, Any], cast: Cast, ends: bool | None = None,
                   how: str = "out") -> list[str | None]:
        """A blow, told with the round's outcome. One that empties a Pool waits for the next event: it is the
        final blow only if that side is out (or in comae: ``how``) now, not while it pushes on or spends Luck.
        A final blow that decides the conflict where the adventure tells the end in its own words is told as a
        heavy one: "Every pin falls into line at once" would tell the lock opening before the author does."""
        cast.person(d["target"]).struck_aside = not _conflict_pool(d.get("pool"), cast)
        if ends is None and int(d.get("after", 0)) <= 0:
            if not self._may_end(d, cast):
                ends = False  # one pushing on already is not near its full negative value: told now, in its round
            elif cast.person(d["target"]).carries_on:
                self._pending_blow = d
                return []
            else:
                ends = True  # no pushing on, no Luck: a spent Pool is the end of it for this one
        dealer = cast.person(d["actor"])
        hurt = cast.person(d["target"])
        hurt.struck_by = dealer.id
        dealer.last_foe, hurt.last_foe = hurt.id, dealer.id
        told = bool(ends) and _author_tells(cast, hurt, how, deciding=cast.last_of_side(hurt))
        final = bool(ends) and not told
        self._tell_late_fumbles(cast, hurt.id)  # a log without strike_target: the blow says whom it went to
        lines = self._exchange(cast) + self._obstacle_wins(cast, hurt)
        if self._outcome is not None and self._outcome[0] == dealer.id:
            lines += self._tell_outcome(cast, d, final) + self._after
            self._after = []
        amount, after = int(d.get("amount", 0)), int(d.get("after", 0))
        maximum = max(1, int(d.get("maximum") or hurt.pool_max or 1))
        pool = d.get("pool")
        if _conflict_pool(pool, cast):  # a Covert blow to POW leaves the conflict Pool, and its state, as they were
            hurt.pool, hurt.pool_max = after, maximum
        blow = _severity(d, final)
        severity = "heavy" if blow == "final" else blow  # the blow that ends it: told as heavy, whatever its size
        if severity == "heavy":  # to nerve or composure too: "Brakk reels from it" is told of those as well
            hurt.jolted = int(d.get("round", cast.round))  # a blow held to the next event is still its round's
        if hurt.obstacle:
            event = "progress_light" if severity != "heavy" else "progress_heavy"
        elif dealer.obstacle:
            event = "setback_light" if severity != "heavy" else "setback_heavy"
        else:
            event = f"damage_{severity}"
        # a blow to CHA or POW in a fight is to composure or nerve, not flesh: told by the lines for any conflict,
        # which name the Pool, not by a blade biting deep (so are its clues, and the out or comae it leads to)
        aside = GENERIC if hurt.struck_aside else None
        lines.append(self._blow_line(cast, event, dealer, hurt, variants=[d.get("lens") or "none"], pool=pool,
                                     facts={"blow": "told" if told else blow}, ctype=aside))
        if after <= 0:
            return lines  # out, push or comae follows
        if hurt.obstacle:
            if hurt.clue == 0 and after * 3 <= maximum:
                hurt.clue = 1
                # told of the side that wore it down, as a party ("nearly behind them", not one member's "her")
                lines.append(self.say(cast, "yielding", hurt, cast.group(dealer.side) or dealer, pool=pool))
            return lines
        level = _CLUE_LEVEL.get(condition(after, maximum) or "", 0)  # the Pool this blow hit, by the one scale
        told = False
        if level > hurt.clue:
            hurt.clue = level
            told = True
            clue = "breaking" if level == 2 else "wavering"
            temper = hurt.temper
            # one held to the fight (its surrender refused, or its run caught) has no way out to glance at ("Knut
            # backs off a step, glancing at the way out" just after "fights on, with no way out": a new player's run),
            # nor the defiance of one who never wanted out ("grins through red teeth" of one who just begged): its
            # strain is told by the lines any temper may have
            told_as = "" if hurt.held and temper == "fearful" else temper or ""
            lines.append(self.say(cast, clue, hurt, dealer, variants=[told_as], pool=pool, ctype=aside))
            # the strain said aloud, never a plea or terms: those are offers, and an offer is a question the player
            # answers (an exit, docs/rulings.md); said with nothing asked, then "withdrawn", it read as a question
            # skipped (three new players' runs). Its pleas and deals are said as it yields (_on_exit_offer).
            if temper == "fearful":  # and no defiance after a clue that it looks for a way out (the review)
                hurt.afraid = cast.round  # "eyes flick about for somewhere to run": no ledger-calm bearing now
                if hurt.voiced and not hurt.held:
                    hurt.signalled = True  # its body language said "run": a later round must follow that through
            elif level == 2:
                lines += self._speech(cast, "strain", hurt, dealer, self.speech["break"])
            elif temper != "stubborn":  # (not "will not budge", then the same in its own words)
                lines += self._speech(cast, "strain", hurt, dealer, self.speech["wavering"])
        if not told and amount > 0 and not dealer.obstacle:
            lines += self._speech(cast, "taunt", dealer, hurt, self.speech["taunt"])
        return lines

    def _may_end(self, d: Mapping[str, Any], cast: Cast) -> bool:
        """Whether a blow that leaves a Pool at zero or below may end it for the one it hits, which only the
        next event says (out, comae, or a push or Luck that carries it on). One already pushing on goes on
        until its full negative value (docs/rules.md: then comae), so a smaller blow is told at once, in its
        own round, not with the next round's events."""
        after = int(d.get("after", 1))
        if after > 0:
            return False
        hurt = cast.person(d["target"])
        maximum = max(1, int(d.get("maximum") or hurt.pool_max or 1))
        return not (hurt.pushing and after > -maximum)

    def _on_push(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        actor.pushing = True
        return [self.say(cast, "push", actor, cast.opponent(actor), ctype=GENERIC if actor.struck_aside else None)]

    def _blow_line(self, cast: Cast, event: str, actor: Person, target: Person | None, **kwargs: Any) -> str | None:
        """:meth:`say` for a line that tells a blow to ``target``; one written for the blow that ends it
        (``[blow:final]``: "That is more than the wight can take") marks it finished this round."""
        template, values = self.choose(cast, event, actor, target, **kwargs)
        if template is None:
            return None
        if target is not None and template.filters.get("blow") == _FINAL:
            target.finished = cast.round
        return self.render(template, values, actor, target)

    def _on_out(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        """Someone is out. Where a line of this round already told the blow that finished it, the screen's "is out
        of the conflict" follows that line, and a third telling ("The race is over for the wight") is not added."""
        actor = cast.person(d["actor"])
        actor.active, actor.gone = False, OUT
        cast.leaves(actor)
        cast.decided = _decided(d, cast)
        if actor.finished == cast.round or _author_tells(cast, actor, OUT):
            return []
        return [self.say(cast, "obstacle_out" if actor.obstacle else "out", actor, cast.opponent(actor),
                         ctype=GENERIC if actor.struck_aside else None)]

    def _on_comae(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        actor.active, actor.gone = False, COMAE
        cast.leaves(actor)
        cast.decided = _decided(d, cast)
        if actor.finished == cast.round or _author_tells(cast, actor, COMAE):
            return []
        return [self.say(cast, "comae", actor, cast.opponent(actor), ctype=GENERIC if actor.struck_aside else None)]

    def _on_exit_answer(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        """A PC answers an NPC's exit: the one who gives chase is the one a failed get-away runs into; one whose
        surrender is refused fights on because it must, and is not told as deciding to stay."""
        if d.get("answer") == "chase" and d.get("npc") in cast.persons and d.get("actor") in cast.persons:
            cast.persons[d["npc"]].chased_by = d["actor"]
        if d.get("answer") == "refuse" and d.get("npc") in cast.persons:
            # held to the fight against its will: no "seems to decide that leaving would look worse" after it (a
            # plea it made may still be followed through: "says no more about it and keeps arguing")
            refused = cast.persons[d["npc"]]
            refused.signalled = False
            refused.steadied.add("flight")
            refused.held = True
        return []

    def _on_leave_attempt(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        chaser = cast.persons.get(actor.chased_by or "")
        actor.chased_by = None
        if d.get("success") and chaser is not None:
            actor.outran = chaser.id
        if d.get("success") or cast.decided:
            return []  # the exit event that follows tells it, or the conflict is already decided
        if chaser is not None:  # caught by the one who chased: it faces them now
            actor.last_foe, chaser.last_foe = chaser.id, actor.id
        # the dice kept it here: no "seems to decide that running is worse" after it
        actor.signalled = False
        actor.steadied.add("flight")
        actor.held = actor.held or chaser is not None  # caught after a chase: its exits are closed
        return [self.say(cast, "leave_failed", actor, chaser or cast.opponent(actor))]

    def _on_extra_action(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        if cast.decided:
            return []  # an afterthought once the conflict is decided
        actor = cast.person(d["actor"])
        action = d.get("action") or "ready"
        kind, _, what = action.partition(":")
        extra = {}
        if kind == "weapon":
            _draws(actor, what)
        elif kind == "item":
            extra["item"] = what
        else:
            kind = "ready"
            if cast.round_limit is not None and cast.round >= cast.round_limit:
                return []  # getting ready for a round that will not come ("uses the moment to regroup", then time)
        return [self.say(cast, "extra_action", actor, cast.opponent(actor), variants=[kind], extra=extra)]

    def _on_escalate(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        target = cast.person(d["target"]) if d.get("target") else cast.opponent(actor)
        ctype = d.get("type") or cast.type
        lines = [self.say(cast, "escalate", actor, target, ctype=ctype, extra={"type": _type_name(ctype).lower()})]
        return lines + self._speech(cast, "taunt", actor, target, self.speech["escalate"])

    def _on_conflict_end(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        closing = cast.frame.get("closing") or {}
        if d.get("outcome") in closing:  # the adventure has the last word: its own line, or none
            return self._end_run(cast, ended=True) + [closing[d["outcome"]] or None]
        return self._end_run(cast, ended=True) + self._closing(d, cast)

    def _closing(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        if d.get("outcome") == "stalemate" and not cast.decided:
            first, second = cast.sides()
            return [self.say(cast, "time_up", cast.group(first), cast.group(second))]
        statuses = d.get("statuses") or {}

        def still_in(p: Person) -> bool:  # by the end's statuses, else as the cast last saw it
            return statuses.get(p.id, ACTIVE if p.active else "") == ACTIVE

        standing = {p.side for p in cast.persons.values() if still_in(p)}
        if len(standing) != 1:
            return []
        side = standing.pop()
        losers = [p for p in cast.persons.values() if p.side != side]
        if not losers or any(p.obstacle for p in cast.persons.values()):
            return []  # a beaten lock or archive was told as it gave way
        # told of the way the last of them left: not "It ends with Sander agreeing" straight after Nora ran, Sander
        # having given up rounds before (a fiction audit); those who left that way in that round are named
        last = max(losers, key=lambda p: p.left)
        if last.left[0] >= 0 and statuses.get(last.id) in _VARIANT_OF:
            variant = _VARIANT_OF[statuses[last.id]]
            losers_told = [p for p in losers if p.left[0] == last.left[0]]
        else:  # a log that never said when (a side that was never in)
            gone = {statuses.get(p.id) for p in losers}
            variant = "won" if gone & {OUT, COMAE} else "surrendered" if SURRENDERED in gone else "fled"
            losers_told = losers
        # the one who struck the last blow that counted names the win; else the side together
        # (only one still standing: not "… and Espen is still standing" of an Espen who went down before the end)
        struck = [cast.persons[p.struck_by] for p in losers if statuses.get(p.id) in (OUT, COMAE)
                  and p.struck_by in cast.persons and cast.persons[p.struck_by].side == side
                  and still_in(cast.persons[p.struck_by])]
        winner = struck[-1] if variant == "won" and struck else cast.group(side)
        # the losers the ending is told of: those it ended that way for, not one who had run or given up before
        # ("Sander's party knows it" of a party whose Sander had fled two rounds earlier; "{target} is down" of a
        # side whose lead had run)
        ended = [p for p in losers_told if statuses.get(p.id) in _ENDED_BY[variant]] or losers
        loser = ended[0] if len(ended) == 1 else cast.group(losers[0].side, active_first=False, among=ended)
        if winner is None or loser is None:
            return []
        # beaten by blows to composure or nerve, nobody lies on the floor: told by the lines for any conflict
        fallen = [p for p in losers if statuses.get(p.id) in (OUT, COMAE)]
        # (a sneak or a chase has its own closing, which lays nobody on the floor: kept whatever the blows hit)
        aside = (GENERIC if variant == "won" and fallen and all(p.struck_aside for p in fallen) and cast.physical
                 else None)
        chased = "no"
        if variant == "fled" and any(p.outran for p in ended):
            # told of those who outran a chaser, and by that chaser: of two who ran, one chased and one let go, not
            # "Hedda's party gives chase, but Knut's side is faster" (a fiction audit)
            chased, outran = "yes", [p for p in ended if p.outran]
            chasers = {p.outran for p in outran if p.outran in cast.persons}
            loser = outran[0] if len(outran) == 1 else cast.group(losers[0].side, active_first=False, among=outran)
            if len(chasers) == 1:
                winner = cast.persons[str(chasers.pop())]
            if loser is None:
                return []
        return [self.say(cast, "aftermath", winner, loser, variants=[variant], ctype=aside, facts={"chased": chased})]


#: The end statuses an aftermath variant is told of: a fight won is told of the losers who went down, a
#: surrender of those who gave up, a flight of those who ran.
_ENDED_BY = {"won": frozenset({OUT, COMAE}), "surrendered": frozenset({SURRENDERED}), "fled": frozenset({FLED})}
#: The closing's variant for the end status of the last loser to leave.
_VARIANT_OF = {status: variant for variant, statuses in _ENDED_BY.items() for status in statuses}


def _beyond_its_lines(cast: Cast, *people: Person | None) -> bool:
    """Whether the conflict type's own lines cannot tell these people, and the lines for any conflict do: an
    argument with one who cannot answer in words (a horse, a draugr, a clockwork clerk: "The yard dog loses the
    thread mid-sentence", "Draugr interrupts Espen again and again"), or a fight against a thing, whose every line
    is of a fighter's guard, feet and eyes ("Nora watches the barricade's feet, not its hands": a fiction audit). A
    chase or a hunt keeps its own lines, those that fit a thing (``foe_body``), as a lock or an archive does."""
    frame = cast.frame
    if frame.get("static") or frame.get("pursuit"):
        return False

    def wordless(p: Person) -> bool:  # a side told together is so when all its members are
        return all(map(wordless, p.members)) if p.members else p.obstacle or p.mindless or not p.speaks

    def thing(p: Person) -> bool:
        return all(map(thing, p.members)) if p.members else p.obstacle and p.body not in _LIVING

    for p in people:
        if p is None or p.pc:
            continue
        if (frame.get("social") and wordless(p)) or (frame.get("physical") and thing(p)):
            return True
    return False


#: The bodies a fight is written for, in an obstacle too (a man weighed as one).
_LIVING = frozenset({"flesh", "animal", "undead"})


#: The events that may end a conflict for a side: a bearing that waited on an emptied Pool is told after them.
_ENDING_EVENTS = frozenset({"out", "comae", "exit", "conflict_end"})
#: Variants that look back on rounds already told (stalemate_run's): never filled up from lines told in the present.
_LOOKING_BACK = frozenset({"before", "ended"})
#: The events whose lines tell an NPC's Code Block manner (besides lines filtered on it).
_MANNER_EVENTS = frozenset({"bearing", "manner_shift"})
#: A long chance won is told again only this many rounds after the last one told.
LONG_ODDS_APART = 3
#: Events that are part of a round's beat and so do not flush what it holds.
_BEAT_EVENTS = frozenset({"declare", "roll", "luck", "round_rolled", "round_result", "chance", "next_round",
                          "strike_target", "damage", "npc_decision", "npc_morale", "npc_break", "exit_answer"})


def _sentence(template: Template, values: Mapping[str, str]) -> str:
    """A line with the words its slots are filled with (the names, above all): what a reader would read again,
    should it be told a second time with them."""
    return "|".join([template.uid, *(values.get(slot, "") for slot in template.slot_order)])


def _fighters(cast: Cast) -> str | None:
    """``two`` or ``more`` still in the conflict (a line that says "both" or "neither" of its people needs two);
    None outside one."""
    standing = sum(1 for p in cast.persons.values() if p.active)
    return None if standing < 2 else "two" if standing == 2 else "more"


def _round_results(d: Mapping[str, Any], cast: Cast) -> dict[str, str]:
    """How the round went for each who rolled (``won``, ``lost`` or ``stalled``), from its ``round_result``: the
    ``result`` fact of the lines told with it, the declarations among them (a Clever edge that lost is not told
    as "stepping in exactly where the guard is thinnest"), as :meth:`Narrator._record` keeps it."""
    winner = d.get("winner")
    return {p.id: "stalled" if winner is None else "won" if p.id == winner else "lost"
            for p in cast.persons.values() if p.active and p.roll is not None}


_PRONOUNS = re.compile(r"\b(?:he|she|they|it|him|her|them|his|hers|their|theirs|its|himself|herself|itself|"
                       r"themself|themselves)\b", re.IGNORECASE)


def _same_telling(first: tuple[Person, str], second: tuple[Person, str]) -> bool:
    """Whether two people's declarations of a round are one sentence told of each (the same line drawn twice, its
    pronouns aside): then it is said once, "…, and so does Alma"."""
    (a, text_a), (b, text_b) = first, second
    if not (text_a.startswith(a.name) and text_b.startswith(b.name) and text_a.endswith(".")) or '"' in text_a:
        return False
    rest_a, rest_b = text_a[len(a.name):], text_b[len(b.name):]
    if a.name in rest_a or b.name in rest_b or text_a.count(".") != 1:
        return False
    return _PRONOUNS.sub("", rest_a) == _PRONOUNS.sub("", rest_b)


def _so_too(first: tuple[Person, str], other: Person) -> str:
    """"so does Alma", "so is Alma", "so can the outlaws": the verb that says the first's sentence again of another."""
    person, text = first
    verb = (text[len(person.name):].split() or [""])[0]
    plural = _named_plural(other) or (other.pronoun == "they" and bool(other.members))
    again = _SO_AGAIN.get(verb, ("does", "do"))[plural]
    return f"so {again} {other.name}"


#: The verb "so …" repeats, by the first sentence's verb, (singular, plural); any other is "does", "do".
_SO_AGAIN = {"is": ("is", "are"), "are": ("is", "are"), "was": ("was", "were"), "can": ("can", "can"),
             "will": ("will", "will")}


def _named_plural(person: Person | None) -> bool:
    """Whether a verb right after this one's name is plural: an obstacle or a crowd that says "they" is named in
    the plural ("the parish records", docs/adventures.md); a person who says "they" is named in the singular."""
    return person is not None and named_in_plural(person.pronoun, person.obstacle, person.body)


def _conflict_pool(pool: str | None, cast: Cast) -> bool:
    """Whether a blow hit the conflict's own Pool (the one a side's state is read from), not POW or CHA beside it."""
    return not pool or not cast.pool_name or pool == cast.pool_name


#: The Pool clue each condition calls for (1: wavering, 2: breaking), told the first time it is reached.
_CLUE_LEVEL: Mapping[str, int] = {"wavering": 1, "breaking": 2}
#: The filter of a line written only for the blow that ends it.
_FINAL = frozenset({"final"})


#: A miss by at most this much of the d100 is a near one: "miss by a hand's breadth" is told of 35 against 30, not of
#: 97 and 79 against 30 (a reading of narrated conflicts)
NEAR_MISS = 10


def _missed_by(rolled: list[Person]) -> str | None:
    """How a round nobody won was missed, for ``[margin:…]``: ``close`` when everyone who missed missed by at most
    :data:`NEAR_MISS`, ``clear`` when someone missed by more; None when no miss is known (a tie of successes)."""
    misses = [p.roll - p.target for p in rolled if not p.success and p.roll is not None and p.target is not None]
    if not misses:
        return None
    return "close" if max(misses) <= NEAR_MISS else "clear"


def _severity(blow: Mapping[str, Any], ends: bool = False) -> str:
    """A blow relative to the Pool it hits: none, light (under a third), heavy, or final (it ends the conflict
    for the one it hits: the Pool is spent and they go out, not push on)."""
    amount, after = int(blow.get("amount", 0)), int(blow.get("after", 0))
    maximum = max(1, int(blow.get("maximum") or 1))
    if amount <= 0:
        return "none"
    if after <= 0 and (ends or int(blow.get("before", 1)) > 0 or after <= -maximum):
        return "final" if ends else "heavy"  # the blow that spends the Pool, or ends it (told by the adventure)
    # (one already below zero, pushing on, is hurt as much as the blow is: a point off it "lands full on the jaw"
    # no more than it would at full strength, a fiction audit)
    return "heavy" if amount * 3 >= maximum else "light"


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _count(n: int, *, more: bool = True) -> str:
    """A run of rounds in words: "one more round", "three more rounds" (``more``: False, "three rounds")."""
    return f"{_NUMBERS[n] if 0 <= n < len(_NUMBERS) else n}{' more' if more else ''} round{'' if n == 1 else 's'}"


def _faced(winner: Person, beaten: Person) -> None:
    """The round's winner and the one it beat faced each other in it: the moves told with the round name each other
    (a party's fight read "The grave-lord comes straight at Sander." and then "The grave-lord charges onto Espen's
    waiting guard." of a round Espen won)."""
    winner.last_foe, beaten.last_foe = beaten.id, winner.id


def _author_tells(cast: Cast, person: Person, how: str, *, deciding: bool | None = None) -> bool:
    """Whether ``person``'s leaving (``how``: out, comae, fled or surrendered) decides the conflict (``deciding``; by
    default, the cast's word that it is decided) with an outcome whose branch tells the end in the adventure's own
    words (the frame's ``told``): "With a satisfying clunk, the old lock gives way." before "The last lever gives
    with a click…" told the lock opening twice. The screen still says who is out or gone; the author's text tells how.
    The outcome is the conflict's own reckoning (:func:`~solo.rules.outcomes.ending_of`), over how its whole side
    left."""
    if not (cast.decided if deciding is None else deciding):
        return False
    left = {how, *(p.gone for p in cast.persons.values() if p.side == person.side and p is not person and p.gone)}
    outcome = ending_of(left, person.side == "a")
    return outcome in (cast.frame.get("told") or ())


def _decided(d: Mapping[str, Any], cast: Cast) -> bool:
    """Whether the conflict is decided after an out, exit or comae: the event says so (a hand-built event
    that does not is read from who is still in)."""
    return bool(d["decided"]) if "decided" in d else not cast.both_sides_in()


def _edge(lens: str) -> bool:
    """Whether a won round with this Lens is an edge kept for the next (Clever's follow-up), by the Lens table."""
    found = LENS_TABLE.get(lens)
    return found is not None and found.follow_up


def _last(person: Person) -> str | None:
    """What came before for ``person``: three misses in a row, a run of wins, or the last round's result."""
    if person.misses >= 3:
        return "misses"
    if not person.results:
        return None
    if len(person.results) >= 2 and person.results[-1] == person.results[-2] == "won":
        return "streak"
    return person.results[-1]


def _mind(person: Person) -> str:
    """Whether lines of fear, hope, doubt or thought fit ``person`` (the ``mind`` filter): not a mindless creature's,
    nor an obstacle's; a side named as one, where any of it has a mind."""
    if person.members:
        return "yes" if any(_mind(m) == "yes" for m in person.members) else "no"
    return "no" if person.mindless or person.obstacle else "yes"


def _spent(person: Person) -> str | None:
    """Whether ``person`` was told near the end of its Pool (its breaking clue) and still is: a runner who
    "can hardly draw breath" does not leap onto a wall the next round (the dice may still let it win)."""
    if person.obstacle or not person.pool_max:
        return None
    return "yes" if person.clue >= 2 and person.condition == "breaking" else "no"


def _mood(cast: Cast, person: Person) -> str | None:
    """How the fight stands for ``person``: running, or its Pool against its foes' (a quarter apart decides)."""
    if person.leaving:
        return "fleeing"
    foes = [p for p in cast.persons.values() if p.side != person.side and p.active and p.pool_max]
    if not person.pool_max or not foes:
        return None
    mine = person.pool / person.pool_max
    theirs = max(p.pool / p.pool_max for p in foes)
    return "winning" if mine - theirs > 0.25 else "losing" if theirs - mine > 0.25 else "even"


def _draws(person: Person, weapon: str) -> None:
    """``person`` takes up ``weapon``: it is told by that weapon's name from now on, not by what its file calls the
    one it began with (a machine's "iron hands" that drew an axe strikes with the axe, as the round table says)."""
    if weapon:
        person.weapon, person.weapon_called = weapon, None
