"""The effects an adventure can write, one class each: ``{ set = "flag" }``, ``{ damage = "BODY" }`` …

A class names its fields (the first is the verb itself), checks them when
the adventure loads and changes the game when it is applied. :data:`EFFECTS`
holds them in the order an author is told about them; the loader and the
engine look verbs up there, and docs/adventures.md lists the same ones (a
test keeps them equal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import did_you_mean, unquoted
from ...npc.disposition import disposition_names, normalise_disposition, shift_disposition
from ...rules.dice import DiceError, parse
from ...rules.escalation import recover
from ...rules.luck import NEGATIVE_LUCK_FLOOR
from ...rules.medicine import MedicineError, new_day, treat
from ...rules.rulebook import POOLS
from ..format.verbs import Field, Verb, is_whole
from .conditions import holds_no_weapon
from .knowledge import CLUE_MAX, FACETS, KNOWN_DEFAULT, add_clue, called, learn
from .npcs import disposition_of, refill, remember, rest_npcs, set_disposition
from .pools import hurt

if TYPE_CHECKING:
    from ...rules.character import Character
    from ..format.schema import Builder
    from .engine import Game

Args = Mapping[str, Any]

#: What an NPC can remember the PCs did to it.
MEMORY_EVENTS = ("spared", "helped", "paid", "humiliated", "lied_to", "threatened", "hurt", "refused", "chased")
#: Whom an effect with a ``who`` field changes: the active PC, or every PC still in the story.
AFFECTED_PCS = ("active", "all")
_WHO = Field("who", "active")
_AMOUNT = Field("dice or whole number", 1)


class EffectVerb(Verb):
    """One kind of effect; subclasses register themselves in :data:`EFFECTS`.

    The whole-adventure lint (:mod:`solo.story.format.graph`) learns what a verb
    does to the story's names from these attributes, never from its name.
    """

    #: The verb writes the flag or counter its value names ("flag" or "counter"): the name is set.
    writes: ClassVar[str | None] = None
    #: What it writes is worth reading later (clearing a flag is not: no "set but never read").
    sets_name: ClassVar[bool] = False
    #: The verb gives the PCs the item its value names.
    gives_item: ClassVar[bool] = False
    #: The verb changes a player character: refused in an adventure with ``pc = false``.
    needs_pc: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "name" in cls.__dict__:
            EFFECTS[cls.name] = cls()

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        """Report what is wrong with these fields (the verb's own key is present)."""

    def apply(self, game: Game, a: Args) -> None:
        raise NotImplementedError


EFFECTS: dict[str, EffectVerb] = {}


class _Named(EffectVerb):
    """An effect whose value is a name: a flag, a counter, an item, a thread or a note."""

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        if not isinstance(a[self.name], str) or not a[self.name].strip():
            b.fail(file, f"{path}.{self.name}", "expected a name (text)")


def _check_pool(b: Builder, file: str, path: str, pool: object) -> None:
    if pool not in POOLS:
        b.fail(file, path, f"unknown Pool {pool!r}{did_you_mean(str(pool), POOLS)}", "E005")


def _check_who(b: Builder, file: str, path: str, who: object) -> None:
    if who not in AFFECTED_PCS:
        b.fail(file, f"{path}.who", "expected \"active\" or \"all\"")


def _check_npc(b: Builder, file: str, path: str, nid: object) -> None:
    if nid not in b.npc_ids:
        b.fail(file, path, f"unknown NPC {nid!r}{did_you_mean(str(nid), b.npc_ids)}", "E006")


class SetFlag(_Named):
    name = "set"
    fields = {"set": Field("flag name")}
    writes = "flag"
    sets_name = True

    def apply(self, game: Game, a: Args) -> None:
        game.state.flags[a["set"]] = True


class ClearFlag(_Named):
    name = "clear"
    fields = {"clear": Field("flag name")}
    writes = "flag"

    def apply(self, game: Game, a: Args) -> None:
        game.state.flags[a["clear"]] = False


class Add(_Named):
    name = "add"
    fields = {"add": Field("counter name"), "by": Field("whole number", 1)}
    writes = "counter"
    sets_name = True

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        super().check(b, file, path, a)
        if not is_whole(self.arg(a, "by")):
            b.fail(file, f"{path}.by", "expected a whole number")

    def apply(self, game: Game, a: Args) -> None:
        counters = game.state.counters
        counters[a["add"]] = counters.get(a["add"], 0) + self.arg(a, "by")


class Counter(_Named):
    name = "counter"
    fields = {"counter": Field("counter name"), "value": Field("whole number")}
    writes = "counter"
    sets_name = True

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        super().check(b, file, path, a)
        if not is_whole(a.get("value")):
            b.fail(file, f"{path}.value", "expected a whole number")

    def apply(self, game: Game, a: Args) -> None:
        game.state.counters[a["counter"]] = a["value"]


class Give(_Named):
    name = "give"
    fields = {"give": Field("item name")}
    gives_item = True

    def apply(self, game: Game, a: Args) -> None:
        if a["give"] not in game.state.items:
            game.state.items.append(a["give"])
            game.emit("item", item=a["give"], gained=True)


class Take(_Named):
    name = "take"
    fields = {"take": Field("item name")}

    def apply(self, game: Game, a: Args) -> None:
        if a["take"] in game.state.items:
            game.state.items.remove(a["take"])
            game.emit("item", item=a["take"], gained=False)


class Wield(EffectVerb):
    """A weapon of the rules' gear table in the hands of each PC that has none (``who``: the active PC or all): the
    weapon picks the Combat Focus and the damage of its blows (docs/rules.md §2.2, §6.1), and #Gear adds to it. A
    PC who already holds a weapon keeps it; the player is told who takes up what."""

    name = "wield"
    fields = {"wield": Field("weapon"), "who": _WHO}
    needs_pc = True

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        from ...rules.participants import UNARMED_FOCUS
        from ...rules.rulebook import rules

        weapon = a[self.name]  # text: the field's kind is checked before (readers.KIND_SHAPES)
        try:
            found = rules().weapon(weapon)  # its key ("short_sword") or its name ("Short sword"), as a PC's file
        except KeyError as exc:
            b.fail(file, f"{path}.{self.name}", str(exc.args[0]) if exc.args else str(exc))
        else:
            if found.focus == UNARMED_FOCUS:  # "now fights with an unarmed": empty hands are no weapon to hand out
                b.fail(file, f"{path}.{self.name}", f"{found.name} is fighting with empty hands, not a weapon to "
                       "hand out")
        _check_who(b, file, path, self.arg(a, "who"))

    def apply(self, game: Game, a: Args) -> None:
        from ...rules.rulebook import rules

        weapon = rules().weapon(a[self.name]).key
        for pc in game.pcs_for(self.arg(a, "who")):
            if holds_no_weapon(pc):  # a file's "unarmed" is empty hands too
                pc.weapon = weapon
                game.emit("wield", actor=pc.name, weapon=weapon)
            else:  # said too: "you both test the edges" and only one took an axe up (a new player's run)
                game.emit("wield", actor=pc.name, weapon=rules().weapon(str(pc.weapon)).key, kept=True)


class Damage(EffectVerb):
    """A scene's damage (docs/rules.md §5.6), met with Luck and pushing as a conflict's blow is (:mod:`.pools`)."""

    name = "damage"
    fields = {"damage": Field("Pool"), "amount": _AMOUNT, "who": _WHO}
    needs_pc = True

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        _check_pool(b, file, f"{path}.{self.name}", a[self.name])
        amount = self.arg(a, "amount")
        if isinstance(amount, str):
            try:
                parse(amount)
            except DiceError as exc:
                # a number in quotes is a slip of TOML's, not of dice: say the fix (a GM's run: amount = "1")
                fix = unquoted(amount, "amount")
                b.fail(file, f"{path}.amount", f"expected dice such as \"1d6\" or a number{fix}" if fix else str(exc))
        elif not is_whole(amount) or amount < 0:
            b.fail(file, f"{path}.amount", "expected dice such as \"1d6\" or a number")
        _check_who(b, file, path, self.arg(a, "who"))

    def apply(self, game: Game, a: Args) -> None:
        amount = self.arg(a, "amount")
        for pc in game.pcs_for(self.arg(a, "who")):
            value = parse(amount).total(game.rng) if isinstance(amount, str) else amount
            self.change(game, pc, a[self.name], value)

    def change(self, game: Game, pc: Character, pool_name: str, value: int) -> None:
        """Luck may reduce the blow, and a Pool that would go below zero is pushed or stops at 0 (§2.8, §5.5)."""
        hurt(game, pc, pool_name, value)


class Heal(Damage):
    name = "heal"
    fields = {"heal": Field("Pool"), "amount": _AMOUNT, "who": _WHO}

    def change(self, game: Game, pc: Character, pool_name: str, value: int) -> None:
        """Up to the maximum; a Pool below zero (pushed) takes a single point, as first aid gives one (rules §2.2,
        §5.5: only days lift a Pool out of the red; docs/rulings.md, "Healing a pushed Pool"), from play's edition 5:
        a save of an earlier one replays with the heal it was played with (a review: its answers may rest on it)."""
        pool = pc.pools[pool_name]
        before = pool.current
        if before < 0 and game.edition >= 5:
            value = min(value, 1)
        pool.current = min(pool.maximum, pool.current + value)
        if pool.current != before:  # a Pool already full is not told back to the player ("BODY 12 -> 12")
            game.emit("pool_change", actor=pc.name, pool=pool_name, before=before, after=pool.current,
                      maximum=pool.maximum, cause=self.name)


class Luck(EffectVerb):
    name = "luck"
    fields = {"luck": Field("whole number"), "who": _WHO}
    needs_pc = True

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        _check_who(b, file, path, self.arg(a, "who"))
        if not is_whole(a["luck"]):
            b.fail(file, f"{path}.luck", "expected a whole number such as 1 or -1")

    def apply(self, game: Game, a: Args) -> None:
        for pc in game.pcs_for(self.arg(a, "who")):
            before = pc.luck
            floor = NEGATIVE_LUCK_FLOOR if game.adventure.negative_luck else 0
            pc.luck = max(floor, min(pc.luck_max, pc.luck + a["luck"]))
            game.emit("luck_change", actor=pc.name, before=before, after=pc.luck)


class Disposition(EffectVerb):
    """Either ``shift`` steps along the scale or ``to`` a disposition, never both. ``told = false`` moves it
    where the NPC is not there to show it (the party blames him in its notes; he will hear of it later), so
    the players are not told "Jonas Vik is now Malicious towards you" while he sits in a hut in the dunes."""

    name = "disposition"
    fields = {"disposition": Field("NPC id"), "shift": Field("whole number", None),
              "to": Field("disposition", None), "told": Field("true or false", True)}

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        _check_npc(b, file, f"{path}.disposition", a["disposition"])
        if ("shift" in a) == ("to" in a):
            b.fail(file, path, "give either shift = N or to = \"Friendly\"")
        if "shift" in a and not is_whole(a["shift"]):
            b.fail(file, f"{path}.shift", "expected a whole number of steps such as 1 or -1")
        if "to" in a:
            try:
                normalise_disposition(str(a["to"]))
            except KeyError:
                b.fail(file, f"{path}.to", f"unknown disposition {a['to']!r} "
                                           f"(known: {', '.join(disposition_names())})", "E005")

    def apply(self, game: Game, a: Args) -> None:
        npc = game.state.npcs[a["disposition"]]
        before = disposition_of(npc)
        after = normalise_disposition(str(a["to"])) if "to" in a else shift_disposition(before, a["shift"])
        set_disposition(npc, after)
        if not self.arg(a, "told"):
            return
        learn(game, a["disposition"], "disposition")  # the players are told it
        if after == before:  # a shift past the end of the ladder, or to the rung it stands on: nothing moved, and
            return           # "is now Affectionate towards you" said again would tell the players it had
        game.emit("disposition", npc=a["disposition"], name=called(game, a["disposition"]), before=before,
                  after=after)


class Tension(EffectVerb):
    """The oracle's tension track stays within 1..9."""

    name = "tension"
    fields = {"tension": Field("whole number")}

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        if not is_whole(a["tension"]):
            b.fail(file, f"{path}.tension", "expected a whole number such as 1 or -1")

    def apply(self, game: Game, a: Args) -> None:
        oracle = game.state.oracle
        before = oracle.tension
        oracle.tension = max(1, min(9, before + a["tension"]))
        game.tension_moved(before)


class Thread(_Named):
    name = "thread"
    fields = {"thread": Field("text")}

    def apply(self, game: Game, a: Args) -> None:
        game.state.oracle.add_thread(a["thread"])
        game.emit("thread", text=a["thread"], opened=True)


class CloseThread(_Named):
    name = "close_thread"
    fields = {"close_thread": Field("text")}

    def apply(self, game: Game, a: Args) -> None:
        if a["close_thread"] in game.state.oracle.threads:
            game.state.oracle.close_thread(a["close_thread"])
        game.emit("thread", text=a["close_thread"], opened=False)


class Note(_Named):
    name = "note"
    fields = {"note": Field("text")}

    def apply(self, game: Game, a: Args) -> None:
        game.state.notes.append(a["note"])
        game.emit("note", text=a["note"])


class Learn(EffectVerb):
    """A clue: a line the PCs have learned, kept for ``clues`` and the journal (:mod:`.knowledge`)."""

    name = "learn"
    fields = {"learn": Field("text")}

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        text = a["learn"]
        if not text.strip() or any(ord(ch) < 32 for ch in text):
            b.fail(file, f"{path}.learn", "expected one line of text: what the PCs have learned")
        elif len(text) > CLUE_MAX:
            b.fail(file, f"{path}.learn", f"a clue is at most {CLUE_MAX} characters ({len(text)} here)")

    def apply(self, game: Game, a: Args) -> None:
        add_clue(game, a["learn"])


class Know(EffectVerb):
    """The PCs now know more of an NPC: its name, role, disposition or secret, as its card shows."""

    name = "know"
    fields = {"know": Field("NPC id"), "what": Field("facet or list of facets", list(KNOWN_DEFAULT))}

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        _check_npc(b, file, f"{path}.know", a["know"])
        what = self.arg(a, "what")
        for i, facet in enumerate([what] if isinstance(what, str) else what):
            where = f"{path}.what" if isinstance(what, str) else f"{path}.what[{i}]"
            if facet not in FACETS:
                b.fail(file, where, f"unknown facet {facet!r}{did_you_mean(str(facet), FACETS)}; "
                                    f"a facet is one of {', '.join(FACETS)}", "E005")
            elif facet == "secret" and a["know"] in b.npc_ids and not b.npc_secret(a["know"]):
                b.fail(file, where, f"NPC {a['know']!r} has no secret to learn: give it one "
                                    f"(npcs.{a['know']}.secret)")

    def apply(self, game: Game, a: Args) -> None:
        what = self.arg(a, "what")
        learn(game, a["know"], *([what] if isinstance(what, str) else what))


class Rest(EffectVerb):
    """Sleep and days of rest recover Pools (docs/rules.md §5.5), and Medicine may be tried again.

    The NPCs rest too, unless their adventure says they recover ``never``.
    """

    name = "rest"
    fields = {"rest": Field("\"night\" or \"days\""), "days": Field("whole number", 1)}

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        if a["rest"] not in ("night", "days"):
            b.fail(file, f"{path}.rest", "expected \"night\" or \"days\"")
        if a["rest"] == "days" and not is_whole(a.get("days")):
            b.fail(file, f"{path}.days", "expected a whole number of days")

    def apply(self, game: Game, a: Args) -> None:
        # a night is the turn of a day: a Pool below zero climbs its point by it, from play's edition 6
        # (docs/rulings.md, "A night is a day's turn"; a player pushed to BODY -3 woke on Thursday still at -3)
        days = self.arg(a, "days") if a["rest"] == "days" else 1 if game.edition >= 6 else 0
        for pc in game.state.pcs:
            change = recover(pc, days=days, slept=True)
            new_day(pc)
            if change:
                game.emit("rest", actor=pc.name, change=change)
        rest_npcs(game, days)


class Recover(EffectVerb):
    """The NPC's Pools back to their maxima, whatever its ``recovers`` says (not out of comae)."""

    name = "recover"
    fields = {"recover": Field("NPC id")}

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        _check_npc(b, file, f"{path}.recover", a["recover"])

    def apply(self, game: Game, a: Args) -> None:
        refill(game, a["recover"])


class Memory(EffectVerb):
    """The NPC's mind weighs what it remembers in later conflicts."""

    name = "memory"
    fields = {"memory": Field("NPC id"), "event": Field("deed")}

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        _check_npc(b, file, f"{path}.memory", a["memory"])
        if a.get("event") not in MEMORY_EVENTS:
            b.fail(file, f"{path}.event", f"expected one of {', '.join(MEMORY_EVENTS)}")

    def apply(self, game: Game, a: Args) -> None:
        remember(game, a["memory"], a["event"])


class Treat(EffectVerb):
    """First aid after a successful Science //Medicine roll (docs/rules.md §2.2)."""

    name = "treat"
    fields = {"treat": Field("Pool")}
    needs_pc = True

    def check(self, b: Builder, file: str, path: str, a: Args) -> None:
        _check_pool(b, file, f"{path}.treat", a["treat"])

    def apply(self, game: Game, a: Args) -> None:
        for pc in game.pcs_for("active"):
            before = pc.pools[a["treat"]].current
            try:
                gained = treat(pc, a["treat"], game.rng)
            except MedicineError as exc:
                game.emit("treatment", actor=pc.name, pool=a["treat"], gained=0, refused=str(exc))
                continue
            game.emit("treatment", actor=pc.name, pool=a["treat"], gained=gained, before=before,
                      after=pc.pools[a["treat"]].current)
