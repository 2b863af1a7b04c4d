"""Events in, sentences out: choosing a fitting, fresh line for each thing that happened.

The engine never narrates; a renderer (the terminal, the journal, ``solo duel
--narrate``) hands each event to :meth:`Narrator.narrate` when it wants text,
so auto-play pays nothing for prose. Every choice draws from the generator the
Narrator is given, so a seed reproduces the text. Give it a generator of its
own derived from the game's seed (:func:`narration_rng`) if the game's dice
must not depend on whether anyone read the story.

Selection walks from the most specific key to the most general (the actor's
side view, the conflict type, then ``generic``; each with the variant first,
then the event's plain lines) and gathers lines until it has at least
:data:`MIN_LINES`, then avoids the lines it used last for that key. That
history is the only memory, and it saves with :meth:`Narrator.to_dict`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from ..events import Event
from .cast import Cast, Person
from .templates import ANY, EVENTS, GENERIC, MIN_LINES, Template, Templates
from .text import fill, pronoun_forms

__all__ = ["Narrator", "narration_rng", "FORMAT_VERSION"]

FORMAT_VERSION = 1
HISTORY = 5  # uses remembered per key
RECENT_WEIGHT = 0.03  # a line used in the last few (but not the very last) is this much less likely
_SAID = {"taunt": "sneers|says|calls out|jeers", "plea": "begs|pleads|says",
         "bargain": "offers|says|suggests|tries"}
PLAIN_DECLARE = 0.4  # how often a participant without Lenses has its (always plain) declaration told
SPEECH = {"taunt": 0.3, "bargain_wavering": 0.25, "break": 0.6, "surrender": 0.8, "escalate": 0.5}


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


class Narrator:
    """Makes narration from templates with an injected generator and a memory of recent lines."""

    def __init__(self, templates: Templates, rng: random.Random, *, memory: Mapping[str, Any] | None = None,
                 speech: Mapping[str, float] | None = None) -> None:
        self.templates = templates
        self.rng = rng
        self.speech = {**SPEECH, **(speech or {})}
        self.history: dict[str, list[str]] = {}
        if memory:
            self._load(memory)

    # -- memory --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The recent-line memory (not the generator, which belongs to whoever passed it in)."""
        return {"version": FORMAT_VERSION, "history": {k: list(v) for k, v in sorted(self.history.items()) if v}}

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

    # -- selection -----------------------------------------------------------------
    def chain(self, ctype: str, event: str, variants: Iterable[str] = (), side: str | None = None
              ) -> list[tuple[str, str, str]]:
        """The keys tried for a line, most specific first (docs/narration.md, "Fallback order")."""
        scopes: list[str] = []
        for scope in (f"{ctype}.side_{side}" if side else None, ctype, f"{GENERIC}.side_{side}" if side else None,
                      GENERIC):
            if scope and scope not in scopes:
                scopes.append(scope)
        variants = [v for v in variants if v and v != ANY]
        keys: list[tuple[str, str, str]] = []
        for scope in scopes:
            keys += [(scope, event, v) for v in variants] + [(scope, event, ANY)]
        return keys

    def candidates(self, chain: list[tuple[str, str, str]], available: frozenset[str] | set[str]
                   ) -> tuple[str | None, list[Template]]:
        """The lines selection picks from: gathered down the chain until there are MIN_LINES."""
        pool_id = None
        found: list[Template] = []
        seen: set[str] = set()
        for key in chain:
            usable = [t for t in self.templates.lines.get(key, ()) if t.slots <= available and t.uid not in seen]
            if not usable:
                continue
            if pool_id is None:
                pool_id = ".".join(k for k in key if k != ANY)
            found += usable
            seen.update(t.uid for t in usable)
            if len(found) >= MIN_LINES:
                break
        return pool_id, found

    def pick(self, pool_id: str, lines: list[Template]) -> Template:
        """Draw a line, never the last one used for this key and seldom one of the few before it.

        How far back "recent" reaches shrinks with the pool (a pool of three
        avoids its last two), so a small pool rotates instead of repeating.
        """
        history = self.history.setdefault(pool_id, [])
        last = history[-1] if history else None
        recent = history[-min(HISTORY, len(lines) - 1):] if len(lines) > 1 else []
        weights = [0.0 if t.uid == last else RECENT_WEIGHT if t.uid in recent else 1.0 for t in lines]
        if not any(weights):
            weights = [1.0] * len(lines)
        choice = self.rng.choices(lines, weights)[0]
        history.append(choice.uid)
        del history[:-HISTORY]
        return choice

    def say(self, cast: Cast, event: str, actor: Person | None, target: Person | None = None, *,
            variants: Iterable[str] = (), ctype: str | None = None, extra: Mapping[str, str] | None = None,
            pool: str | None = None) -> str | None:
        """One finished line for ``event``, or None if no template fits."""
        if event not in EVENTS:
            raise KeyError(f"unknown narration event {event!r}")
        values = self.values(cast, actor, target, pool=pool, extra=extra)
        chain = self.chain(ctype or cast.type, event, variants, actor.side if actor else None)
        pool_id, lines = self.candidates(chain, frozenset(values))
        if pool_id is None:  # set exactly when some line was found
            return None
        return self.render(self.pick(pool_id, lines), values, actor, target)

    @staticmethod
    def render(template: Template, values: Mapping[str, str], actor: Person | None = None,
               target: Person | None = None) -> str:
        """Fill one template (no choice, no memory): what the tests use to read every line."""
        plural = {"actor": bool(actor and actor.pronoun == "they"), "target": bool(target and target.pronoun == "they")}
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
            values[prefix + "weapon"] = words("weapons", person.weapon,
                                               (person.weapon or "fists").lower().replace("_", " "))
        values.update(extra or {})
        return values

    # -- events ----------------------------------------------------------------------
    def narrate(self, event: Event | Mapping[str, Any], cast: Cast) -> list[str]:
        """The lines for one engine event (often none: a roll or a round start says nothing by itself)."""
        kind, data = _kind_data(event)
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            return []
        return [line for line in handler(data, cast) if line]

    def _speech(self, cast: Cast, kind: str, speaker: Person | None, listener: Person | None,
                chance: float = 1.0) -> list[str | None]:
        if speaker is None or not speaker.voiced or chance <= 0:
            return []
        if chance < 1.0 and self.rng.random() >= chance:
            return []
        variants = [self.rng.choice(speaker.traits)] if speaker.traits else []
        line = self.say(cast, kind, speaker, listener, variants=variants)
        return [self._attribute(line, speaker, kind)]

    def _attribute(self, line: str | None, speaker: Person, kind: str) -> str | None:
        """Name the speaker of a bare quotation: '"Enough!"' becomes '"Enough!" Brakk begs.'

        Authors may write speech as a bare quotation to keep it short; a reader
        still needs to know who spoke. The verbs come from ``[words.said]``.
        """
        if not line or not (line.startswith('"') and line.endswith('"')) or line.count('"') != 2:
            return line
        verbs = [v.strip() for v in self.templates.word("said", kind, _SAID.get(kind, "says")).split("|") if v.strip()]
        verb = self.rng.choice(verbs or ["says"])
        body = line[1:-1].rstrip()
        if body.endswith("."):
            body = body[:-1] + ","
        return f'"{body}" {speaker.name} {verb}.'  # "the guard" stays lower case after a quotation

    # -- one handler per engine event ---------------------------------------------------
    def _on_conflict_start(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        cast.begin(d)
        a, b = cast.first("a"), cast.first("b")
        return [self.say(cast, "start", a, b)]

    def _on_declare(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        if actor.obstacle:
            return []
        if not actor.lenses and int(d.get("round", 1)) > 1 and self.rng.random() >= PLAIN_DECLARE:
            return []  # someone without Lenses does the same thing every round: say so now and then
        target = cast.opponent(actor)
        quick = d.get("quick_action") or ""
        if quick.startswith("weapon:"):
            actor.weapon = quick.split(":", 1)[1]
        if d.get("clever_choice"):
            return [self.say(cast, "follow_up", actor, target, variants=[d["clever_choice"]])]
        lens = d.get("lens") or "none"
        variants = ["quick_leave", "quick"] if lens == "quick" and quick == "leave" else [lens]
        extra = {}
        if lens == "flamboyant" and d.get("secondary"):
            extra["skill"] = self.templates.word("skills", d["secondary"], d["secondary"].lower())
        return [self.say(cast, "declare", actor, target, variants=variants, extra=extra)]

    def _on_exit(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        target = cast.opponent(actor)
        actor.active = False
        how = "fled" if d.get("how") == "fled" else "surrendered"
        lines = [self.say(cast, how, actor, target)]
        if how == "surrendered":
            lines += self._speech(cast, "plea", actor, target, self.speech["surrender"])
        return lines

    def _on_roll(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        if not d.get("exceptional") or d.get("success"):
            return []
        actor = cast.person(d["actor"])
        if actor.obstacle:
            return []
        return [self.say(cast, "exceptional_failure", actor, cast.opponent(actor))]

    def _on_luck(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        if d.get("use") == "refreshed":
            actor.pool = int(d.get("after", 1))
        return [self.say(cast, "luck", actor, cast.opponent(actor), variants=[d.get("use", "")])]

    def _on_round_result(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        if d.get("winner") is None:
            a, b = cast.first("a"), cast.first("b")
            event = "stalemate_tie" if d.get("tie") else "stalemate_failed"
            return [self.say(cast, event, a, b)]
        winner = cast.person(d["winner"])
        loser = cast.opponent(winner)
        if winner.obstacle:
            return [self.say(cast, "obstacle_wins", winner, loser)]
        lens = d.get("lens") or "none"
        event = "exceptional_success" if d.get("exceptional") else "round_won"
        return [self.say(cast, event, winner, loser, variants=[lens])]

    def _on_damage(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        dealer = cast.person(d["actor"])
        hurt = cast.person(d["target"])
        dealer.last_foe, hurt.last_foe = hurt.id, dealer.id
        amount, after = int(d.get("amount", 0)), int(d.get("after", 0))
        maximum = max(1, int(d.get("maximum") or hurt.pool_max or 1))
        hurt.pool = after
        pool = d.get("pool")
        # the blow that empties a Pool is told as a heavy one, whatever its size
        severity = "none" if amount <= 0 else "heavy" if amount * 3 >= maximum or after <= 0 else "light"
        if hurt.obstacle:
            event = "progress_light" if severity != "heavy" else "progress_heavy"
        elif dealer.obstacle:
            event = "setback_light" if severity != "heavy" else "setback_heavy"
        else:
            event = f"damage_{severity}"
        lines = [self.say(cast, event, dealer, hurt, variants=[d.get("lens") or "none"], pool=pool)]
        if after <= 0:
            return lines  # out, push or comae follows
        if hurt.obstacle:
            if hurt.clue == 0 and after * 3 <= maximum:
                hurt.clue = 1
                lines.append(self.say(cast, "yielding", hurt, dealer, pool=pool))
            return lines
        level = 2 if after * 4 <= maximum else 1 if after * 2 <= maximum else 0
        told = False
        if level > hurt.clue:
            hurt.clue = level
            told = True
            clue = "breaking" if level == 2 else "wavering"
            lines.append(self.say(cast, clue, hurt, dealer, variants=[hurt.temper or ""], pool=pool))
            if level == 2:
                kind = hurt.breaks_by or self.rng.choice(("plea", "bargain"))
                lines += self._speech(cast, kind, hurt, dealer, self.speech["break"])
            else:
                lines += self._speech(cast, "bargain", hurt, dealer, self.speech["bargain_wavering"])
        if not told and amount > 0 and not dealer.obstacle:
            lines += self._speech(cast, "taunt", dealer, hurt, self.speech["taunt"])
        return lines

    def _on_push(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        return [self.say(cast, "push", actor, cast.opponent(actor))]

    def _on_out(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        actor.active = False
        return [self.say(cast, "obstacle_out" if actor.obstacle else "out", actor, cast.opponent(actor))]

    def _on_comae(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        actor.active = False
        return [self.say(cast, "comae", actor, cast.opponent(actor))]

    def _on_leave_attempt(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        if d.get("success") or not cast.both_sides_in():
            return []  # the exit event that follows tells it, or the conflict is already decided
        actor = cast.person(d["actor"])
        return [self.say(cast, "leave_failed", actor, cast.opponent(actor))]

    def _on_extra_action(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        if not cast.both_sides_in():
            return []  # an afterthought once the conflict is decided
        actor = cast.person(d["actor"])
        action = d.get("action") or "ready"
        kind, _, what = action.partition(":")
        extra = {}
        if kind == "weapon":
            actor.weapon = what or actor.weapon
        elif kind == "item":
            extra["item"] = what
        else:
            kind = "ready"
        return [self.say(cast, "extra_action", actor, cast.opponent(actor), variants=[kind], extra=extra)]

    def _on_escalate(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        actor = cast.person(d["actor"])
        target = cast.person(d["target"]) if d.get("target") else cast.opponent(actor)
        ctype = d.get("type") or cast.type
        lines = [self.say(cast, "escalate", actor, target, ctype=ctype, extra={"type": _type_name(ctype).lower()})]
        return lines + self._speech(cast, "taunt", actor, target, self.speech["escalate"])

    def _on_conflict_end(self, d: Mapping[str, Any], cast: Cast) -> list[str | None]:
        if d.get("outcome") == "stalemate" and cast.both_sides_in():
            return [self.say(cast, "time_up", cast.first("a"), cast.first("b"))]
        return []
