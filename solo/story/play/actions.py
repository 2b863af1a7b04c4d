"""The actions a choice can take, one class each: ``roll``, ``opposed``, ``conflict``, ``oracle`` …

An action has fields, outcomes (some required, some optional; each outcome
is a branch) and a resolution that returns the branch its outcome picks.
:data:`ACTIONS` holds them in the order an author is told about them; the
loader and the engine look them up there, and docs/adventures.md lists the
same ones (a test keeps them equal).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from ...decisions import Option
from ...errors import did_you_mean
from ...rules.character import PRONOUNS, skill_target
from ...rules.conflict_types import FLOURISH_LIST, flourish_problem
from ...rules.escalation import may_escalate
from ...rules.fiction import Fiction, check_fiction, no_mind_to_argue
from ...rules.outcomes import LOST, OUTCOMES, WON
from ...rules.participants import Participant, obstacle
from ...rules.rolls import CheckResult, difficulty_modifier, opposed_flip_beats, resolve_opposed, roll_check
from ..format.verbs import Field, Verb, field_value, is_whole
from .knowledge import add_clue, called, learn
from .rolling import (
    OPPOSED_OUTCOMES,
    ROLL_FIELDS,
    check_outcome,
    choose_pc,
    flip_label,
    offer_flip,
    repay,
    roll_target,
    roller_first,
)

if TYPE_CHECKING:
    from ...npc import NPC
    from ...rules.character import Character
    from ...rules.conflict_types import ConflictType
    from ..format.adventure import Action, Branch
    from ..format.schema import Builder
    from .chances import Fighters, Outcomes
    from .engine import Game

Spec = Mapping[str, Any]

ROUND_LIMIT_DEFAULT = 30
#: A conflict's narration setting: a word the narration's ``[setting:…]`` filters name (docs/narration.md).
SETTING_WORD = re.compile(r"[a-z][a-z0-9_-]*")
MAX_VEHICLE = 40  # a conflict's vehicle is named in a question: "Who drives the cannery's van?"
MAX_ROUNDS = 200  # a conflict where no blow can land runs to its limit: keep that short
#: Who makes a roll: the active PC, the one the player chooses, or the best at it.
WHO_ROLLS = ("active", "choose", "best")
#: Who a Social roll is made among, for the Tags' modifiers (docs/rules.md §2.5).
AMONG = ("upper_class", "criminals", "borderline_access", "aware_of_status")
#: The fields of a conflict's static ``obstacle`` table.
OBSTACLE_FIELDS = {"name": Field("text", "The obstacle"), "difficulty": Field("difficulty", "normal"),
                   "challenge": Field("whole number", None), "pool": Field("whole number", None),
                   "body": Field("body", "object"), "pronoun": Field("pronoun", None),
                   "called": Field("text", None)}
#: The longest closing line an adventure may set for a conflict's outcome.
MAX_CLOSING = 300
#: Who chases (or hides) in a conflict whose type is a pursuit: the party, or those it faces.
PURSUERS = {"party": "a", "opponents": "b"}
#: An obstacle's own numbers: a Challenge Rating within a skill's range, a Pool the exact odds can handle.
OBSTACLE_RANGES = {"challenge": (0, 200), "pool": (1, 200)}


class ActionVerb(Verb):
    """One kind of action; subclasses register themselves in :data:`ACTIONS`."""

    outcomes: ClassVar[tuple[str, ...]]  # each needs a branch
    optional: ClassVar[tuple[str, ...]] = ()  # a branch of its own, else the fallback of Action.branch

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "name" in cls.__dict__:
            ACTIONS[cls.name] = cls()

    def check(self, b: Builder, file: str, path: str, spec: Spec, action: Action) -> None:
        """Report what is wrong with the fields (outcomes are checked as branches by the loader)."""

    def resolve(self, game: Game, action: Action) -> Branch | None:
        raise NotImplementedError

    def roller_first(self, game: Game, action: Action, best: bool = False) -> Action:
        """The action as it is resolved once its choice is taken, with the PC who will roll it made the active PC
        now, before the choice is paid for: a retry cost or an effect on "the active PC" falls on the one who tries
        it (a group's run: Thea paid for a second try that Espen then rolled). Where the party is asked who rolls,
        it is asked here (``best``: not asked, the best at it picked, as ``solo prove``'s best play picks), and
        the answer kept in the action, so that :meth:`resolve` does not ask again. A verb without a roller keeps
        the action as it is."""
        return action

    def chances(self, game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
        """Every way the action can turn out if taken now, each with its chance, built on the helpers
        :meth:`resolve` rolls with (``solo prove``'s moves, solo/story/play/chances.py). Every verb has its own:
        tests/test_verbs_registry.py fails a verb without them, rather than letting it fall back to dice."""
        raise NotImplementedError


ACTIONS: dict[str, ActionVerb] = {}

def _check_skill(b: Builder, file: str, path: str, spec: Spec, key: str = "skill", focus_key: str = "focus",
                 required: bool = True) -> None:
    skill = spec.get(key)
    if skill is None:
        if required:
            b.fail(file, path, f"missing field {key!r}")
        return
    if skill not in b.t.skills:
        b.fail(file, f"{path}.{key}", f"unknown skill {skill!r}{did_you_mean(str(skill), b.t.skills)}", "E005")
        return
    focus = spec.get(focus_key)
    if focus is not None:
        for f in focus if isinstance(focus, list) else [focus]:
            if f not in b.t.skills[skill].focuses:
                # the Focuses it has, where no near spelling is the answer (a GM's run: "'Stealth' is not a Focus of
                # Social" named none of Social's)
                focuses = b.t.skills[skill].focuses
                hint = did_you_mean(str(f), focuses) or f" (its Focuses: {', '.join(focuses)})"
                b.fail(file, f"{path}.{focus_key}", f"{f!r} is not a Focus of {skill}{hint}", "E005")


def _check_roll(b: Builder, file: str, path: str, spec: Spec) -> None:
    _check_skill(b, file, path, spec)
    if "difficulty" in spec:
        try:
            difficulty_modifier(str(spec["difficulty"]))
        except KeyError as exc:
            b.fail(file, f"{path}.difficulty", exc.args[0], "E005")
    if "modifier" in spec and not is_whole(spec["modifier"]):
        b.fail(file, f"{path}.modifier", "expected a whole number such as -20")
    if "who" in spec and spec["who"] not in WHO_ROLLS:
        b.fail(file, f"{path}.who", f"expected one of {', '.join(WHO_ROLLS)}")
    among = field_value(ROLL_FIELDS, spec, "among")
    if not isinstance(among, (list, tuple)) or any(a not in AMONG for a in among):
        b.fail(file, f"{path}.among", f"expected a list of: {', '.join(AMONG)}")


class Roll(ActionVerb):
    """A skill roll (docs/rules.md §3), with a Luck flip offered when it would turn a failure."""

    name = "roll"
    fields = ROLL_FIELDS
    outcomes = ("success", "failure")
    optional = ("exceptional_success", "exceptional_failure")

    def check(self, b: Builder, file: str, path: str, spec: Spec, action: Action) -> None:
        _check_roll(b, file, path, spec)

    def roller_first(self, game: Game, action: Action, best: bool = False) -> Action:
        return roller_first(game, action, best=best)

    def resolve(self, game: Game, action: Action) -> Branch | None:
        spec = action.spec
        focus = self.arg(spec, "focus")
        pc = choose_pc(game, spec, spec["skill"], focus)
        target, mods, routine = roll_target(pc, spec)
        parts = [(m.name, m.value) for m in mods]
        chance_id = None if routine else game.announced(pc.name, spec["skill"], target, parts, "roll")
        result = roll_check(game.rng, target, routine=routine)
        game.emit("skill_roll", actor=pc.name, skill=spec["skill"], focus=focus, target=target,
                  base=target - sum(v for _, v in parts), modifiers=parts, roll=result.roll, face=result.roll,
                  success=result.success, exceptional=result.exceptional, automatic=result.automatic,
                  chance_id=chance_id)
        result = offer_flip(game, pc, result)
        result = repay(game, pc, result)
        outcome = check_outcome(result)
        game.emit("roll_outcome", actor=pc.name, outcome=outcome)
        game.scene_went(1 if result.success else -1)
        return action.branch(outcome)

    def chances(self, game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
        from .chances import roll_chances

        return roll_chances(game, action)


class Opposed(ActionVerb):
    """An opposed roll (docs/rules.md §4); a PC who loses may escalate to an Extended Conflict."""

    name = "opposed"
    fields = {**ROLL_FIELDS, "npc": Field("NPC id", None), "npc_skill": Field("skill", None),  # None: the PC's skill
              "npc_focus": Field("Focus", None), "against": Field("skill value", None),
              "escalate": Field("conflict table", None)}
    outcomes = ("win", "lose")
    optional = ("fail",)

    def check(self, b: Builder, file: str, path: str, spec: Spec, action: Action) -> None:
        _check_roll(b, file, path, spec)
        if "npc" in spec:
            if spec["npc"] not in b.npc_ids:
                b.fail(file, f"{path}.npc", f"unknown NPC {spec['npc']!r}{did_you_mean(str(spec['npc']), b.npc_ids)}",
                       "E006")
            _check_skill(b, file, path, spec, "npc_skill", "npc_focus", required=False)
        elif "against" in spec:
            if not is_whole(spec["against"]):
                b.fail(file, f"{path}.against", "expected a skill value such as 50")
        else:
            b.fail(file, path, "an opposed roll needs an 'npc' or a fixed skill 'against'")
        if "escalate" in spec:
            esc = spec["escalate"]
            if not isinstance(esc, dict):
                b.fail(file, f"{path}.escalate", "expected a conflict table { type = …, won = …, lost = … }")
            else:
                esc = dict(esc)
                if "npc" in spec and "npcs" not in esc and "obstacle" not in esc:
                    esc["npcs"] = [spec["npc"]]
                if "type" not in esc and spec.get("skill") in b.t.skills:
                    from ...rules.escalation import EscalationError, fitting_type

                    focus = self.arg(spec, "focus")
                    try:  # the conflict that fits the roll that was lost (docs/rules.md §4)
                        esc["type"] = fitting_type(spec["skill"], focus if isinstance(focus, str) else None,
                                                   b.types).key
                    except EscalationError as exc:
                        b.fail(file, f"{path}.escalate", f"{exc}: give escalate a 'type'", "E005")
                action.escalation = b.action(file, f"{path}.escalate", "conflict", esc)
        escalation = action.escalation.spec if action.escalation is not None else {}
        argued = escalation.get("type") in b.types and b.types[escalation["type"]].social and \
            spec.get("npc") in (escalation.get("npcs") or ())
        if "npc" in spec and spec.get("skill") == "Social" and b.npc_field(spec["npc"], "mindless") is True \
                and not argued:  # (a social escalation against it has been warned of, W112, once is enough)
            # as a social conflict against it is (a GM's run: Social //Influence against a mindless door passed
            # unwarned until the roll was given an escalation)
            b.fail(file, f"{path}.npc", f"{spec['npc']!r} is mindless: a Social roll persuades someone, and there is "
                                        "no one in it to persuade; roll another skill against it (Cunning to slip "
                                        "past it, Move to outrun it)", "W112")

    def roller_first(self, game: Game, action: Action, best: bool = False) -> Action:
        return roller_first(game, action, best=best, npc=self._npc_learnt(game, action.spec), opposed=True)

    @staticmethod
    def _npc_learnt(game: Game, spec: Spec) -> NPC | None:
        """The NPC opposing the roll; a Social roll's makes its disposition known (it is among the roll's
        modifiers, and "Who tries it?" names it)."""
        npc = game.state.npcs.get(spec["npc"]) if "npc" in spec else None
        if npc is not None and spec["skill"] == "Social":
            learn(game, spec["npc"], "disposition")
        return npc

    def resolve(self, game: Game, action: Action) -> Branch | None:
        spec = action.spec
        npc = self._npc_learnt(game, spec)
        their_name = called(game, spec["npc"]) if npc is not None else "the opposition"  # as the PCs know them
        pc = choose_pc(game, spec, spec["skill"], self.arg(spec, "focus"), npc=npc, opposed=True)
        target, mods, routine = roll_target(pc, spec, npc=npc, label=their_name)
        parts = [(m.name, m.value) for m in mods]
        their_skill, their_target, their_mods = self.theirs(spec, npc)
        chance_id = None if routine else game.announced(pc.name, spec["skill"], target, parts, "opposed")
        mine = roll_check(game.rng, target, routine=routine)
        theirs = roll_check(game.rng, their_target)
        game.emit("opposed_roll", actor=pc.name, skill=spec["skill"], target=target,
                  base=target - sum(v for _, v in parts), modifiers=parts, roll=mine.roll, face=mine.roll,
                  success=mine.success, exceptional=mine.exceptional, automatic=mine.automatic, chance_id=chance_id,
                  opponent=their_name, opponent_skill=their_skill, opponent_target=their_target,
                  opponent_base=their_target - sum(v for _, v in their_mods), opponent_modifiers=their_mods,
                  opponent_roll=theirs.roll, opponent_success=theirs.success)
        result = resolve_opposed(mine, theirs, defender="b")
        beats = opposed_flip_beats(result)
        if beats is not None:
            def named(check: CheckResult) -> str:  # the outcome a check makes of this opposed roll, as prove names it
                turned = resolve_opposed(check, theirs, defender="b")
                return flip_label(OPPOSED_OUTCOMES[turned.winner],
                                  action.escalation is not None and may_escalate(turned, "a"))

            flipped = offer_flip(game, pc, mine, beats=beats, goal="win the opposed roll", named=named)
            if flipped is not mine:
                result = resolve_opposed(flipped, theirs, defender="b")
        if result.winner == "a":  # a win while borrowed Luck is due repays it (docs/rules.md §2.8)
            repaid = repay(game, pc, result.a)
            if repaid is not result.a:
                result = resolve_opposed(repaid, theirs, defender="b")
        outcome = OPPOSED_OUTCOMES[result.winner]
        game.emit("opposed_outcome", actor=pc.name, outcome=outcome, tie=result.tie, opponent=their_name)
        game.scene_went({"win": 1, "lose": -1}.get(outcome, 0))  # an escalated conflict counts on its own
        escalation = action.escalation
        if escalation is not None and may_escalate(result, "a"):
            stakes = game.read_as_shown(escalation.spec.get("stakes") or "")
            detail = escalation.spec.get("type", "") + (f" · at stake: {stakes}" if stakes else "")
            odds = game.conflict_odds([("yes", escalation.spec)]) if game.shows_chances else {}
            if odds:
                detail = f"{odds['yes']} · {detail}"
            game.price_ahead([("yes", escalation.spec)])
            answer = game.ask("escalate", f"You lost the roll against {their_name}. Escalate to an Extended Conflict?",
                              [Option("yes", "Escalate", detail),
                               Option("no", "Accept the loss")], actor=pc.name)
            game.answered(answer)
            if answer == "yes":
                if npc is not None:  # the conflict names whoever it sets against the PCs, from its first words
                    learn(game, spec["npc"], "name")
                    their_name = npc.name
                game.emit("escalate", actor=pc.name, type=escalation.spec["type"], opponent=their_name)
                return ACTIONS["conflict"].resolve(game, escalation)
        return action.branch(outcome)

    def theirs(self, spec: Spec, npc: NPC | None) -> tuple[str, int, list[tuple[str, int]]]:
        """What the other side rolls: the NPC's skill (``npc_skill``, else the PC's skill) with its Focus, or
        the fixed value ``against``; its target and that target's parts. The roll and its chances read it here."""
        if npc is not None:
            skill = self.arg(spec, "npc_skill") or spec["skill"]
            target, parts = skill_target(npc, skill, self.arg(spec, "npc_focus"))
            return skill, target, [(m.name, m.value) for m in parts]
        return spec["skill"], int(spec["against"]), []

    def chances(self, game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
        from .chances import opposed_chances

        return opposed_chances(game, action)


class Conflict(ActionVerb):
    """An Extended Conflict (docs/rules.md §5) against NPCs or a static obstacle."""

    name = "conflict"
    fields = {"type": Field("conflict type"), "npcs": Field("list of NPC ids", ()),
              "obstacle": Field("obstacle table", None), "stakes": Field("text", ""),
              "rounds": Field("whole number", ROUND_LIMIT_DEFAULT), "vehicle": Field("text", None),
              "settings": Field("list", ()), "pursuer": Field("party or opponents", "party"),
              "heard": Field("true or false", None), "closing": Field("table of outcome = text", None),
              "opening": Field("text", None), "flamboyant": Field("list of skills", None)}
    outcomes = (WON, LOST)
    optional = tuple(o for o in OUTCOMES if o not in (WON, LOST))

    def check(self, b: Builder, file: str, path: str, spec: Spec, action: Action) -> None:
        ctype = spec.get("type")
        if ctype is None:
            b.fail(file, path, "missing field 'type' (combat, social, foot_chase …)")
        elif ctype not in b.types:
            b.fail(file, f"{path}.type", f"unknown conflict type {ctype!r}{did_you_mean(str(ctype), b.types)}"
                                         f" (known: {', '.join(sorted(b.types))})", "E005")
        npcs = self.arg(spec, "npcs")
        if not isinstance(npcs, (list, tuple)):
            b.fail(file, f"{path}.npcs", "expected a list of NPC ids")
            npcs = []
        social = isinstance(ctype, str) and ctype in b.types and b.types[ctype].social
        for i, npc in enumerate(npcs):
            if npc not in b.npc_ids:
                b.fail(file, f"{path}.npcs[{i}]", f"unknown NPC {npc!r}{did_you_mean(str(npc), b.npc_ids)}", "E006")
            elif social and b.npc_field(npc, "mindless") is True:  # a reading: "the grey wolf's composure"
                b.fail(file, f"{path}.npcs[{i}]", f"{no_mind_to_argue(repr(npc), str(ctype))} (its composure would "
                                                  "be told taking blows); fight it, outrun it or sneak past it", "W112")
        wall = self.arg(spec, "obstacle")
        if wall is not None:
            if not isinstance(wall, dict):
                b.fail(file, f"{path}.obstacle", "expected { name = …, difficulty = … }")
            else:
                b.unknown_fields(file, f"{path}.obstacle", wall, OBSTACLE_FIELDS)
                diff = str(field_value(OBSTACLE_FIELDS, wall, "difficulty")).lower()
                if diff not in ("easy", "normal", "hard", "very hard") and not ("challenge" in wall and "pool" in wall):
                    meant = did_you_mean(diff, ("easy", "normal", "hard", "very hard"))
                    b.fail(file, f"{path}.obstacle.difficulty", f"expected easy, normal, hard or very hard "
                                                               f"(or both challenge and pool){meant}", "E005")
                for key, (low, high) in OBSTACLE_RANGES.items():
                    if is_whole(wall.get(key)) and not low <= wall[key] <= high:
                        b.fail(file, f"{path}.obstacle.{key}",
                               f"expected a whole number {low}..{high}, not {wall[key]}")
                check_fiction(wall, lambda where, msg: b.fail(file, where, msg, "E005"), f"{path}.obstacle.")
                if "pronoun" in wall and wall["pronoun"] not in PRONOUNS:
                    b.fail(file, f"{path}.obstacle.pronoun", f"expected one of {', '.join(PRONOUNS)}", "E005")
        if not npcs and wall is None:
            b.fail(file, path, "a conflict needs 'npcs' or an 'obstacle'")
        if npcs and wall is not None:
            b.fail(file, path, "a conflict has either 'npcs' or an 'obstacle', not both")
        if ctype in b.types and b.types[ctype].static and wall is None:
            b.fail(file, path, f"a {ctype} conflict is against a static obstacle: give an 'obstacle'")
        if "rounds" in spec and not (is_whole(spec["rounds"]) and 1 <= spec["rounds"] <= MAX_ROUNDS):
            b.fail(file, f"{path}.rounds", f"expected a round limit from 1 to {MAX_ROUNDS}")
        if "stakes" in spec:
            b.expect(file, f"{path}.stakes", spec["stakes"], str, "text")
        vehicle = spec.get("vehicle")
        if isinstance(vehicle, str) and not (0 < len(vehicle.strip()) <= MAX_VEHICLE and vehicle.isprintable()):
            b.fail(file, f"{path}.vehicle", f"expected what the party drives, in a few words (at most {MAX_VEHICLE} "
                                            "characters on one line), e.g. \"the van\"")
        if "pursuer" in spec and spec["pursuer"] not in PURSUERS:
            b.fail(file, f"{path}.pursuer", f"expected {' or '.join(PURSUERS)} (who chases, or hides, in a "
                                            f"pursuit), not {spec['pursuer']!r}", "E005")
        elif "pursuer" in spec and ctype in b.types and b.types[ctype].pursuit is None:  # it would change nothing
            b.fail(file, f"{path}.pursuer", f"a {ctype} conflict is no pursuit, so nobody chases or hides in it: "
                                            "'pursuer' is for a chase, tracking or sneaking", "E005")
        flashy = spec.get("flamboyant")
        if flashy is not None:
            if not isinstance(flashy, list):
                b.fail(file, f"{path}.flamboyant", FLOURISH_LIST)
            else:
                own = b.types[ctype].skill if ctype in b.types else None
                for i, name in enumerate(flashy):
                    wrong = flourish_problem(name, own)
                    if wrong:
                        b.fail(file, f"{path}.flamboyant[{i}]", wrong, "E005")
        closing = spec.get("closing")
        if closing is not None:
            if not isinstance(closing, dict):
                b.fail(file, f"{path}.closing", "expected a table of outcome = text, e.g. { opponent_fled = \"\" }")
            else:
                for outcome, text in closing.items():
                    if outcome not in OUTCOMES:
                        b.fail(file, f"{path}.closing.{outcome}", f"unknown outcome{did_you_mean(outcome, OUTCOMES)}; "
                                                                   f"known: {', '.join(OUTCOMES)}", "E005")
                    elif not _narration_line(text):
                        b.fail(file, f"{path}.closing.{outcome}", f"expected the closing line as {_LINE_RULE}")
        if "opening" in spec and not _narration_line(spec["opening"]):
            b.fail(file, f"{path}.opening", f"expected the opening line as {_LINE_RULE}")
        if "heard" in spec and not isinstance(spec["heard"], bool):
            b.fail(file, f"{path}.heard", "expected true or false (whether the two sides hear each other)")
        from ..format.schema import bundled_setting_words

        settings = self.arg(spec, "settings")
        known = b.narration_settings()
        for i, word in enumerate(settings if isinstance(settings, list) else []):
            if not SETTING_WORD.fullmatch(word):
                b.fail(file, f"{path}.settings[{i}]", f"a setting is one lower-case word, such as \"harbour\", "
                                                      f"not {word!r}")
            elif word not in known and word not in bundled_setting_words():
                b.fail(file, f"{path}.settings[{i}]", "no narration line (the adventure's or solo's) is for "
                                                      f"setting {word!r}{did_you_mean(word, known)} (a line opens with "
                                                      f"[setting:{word}] to be drawn there)", "E005")

    def resolve(self, game: Game, action: Action) -> Branch | None:
        spec = action.spec
        # the stakes told whole, their {if} blocks decided now and their slots filled, as the menu that offered the
        # conflict told them
        stakes = game.read_as_shown(self.arg(spec, "stakes"))
        outcome = game.run_conflict(conflict_type_of(game, spec), self.arg(spec, "npcs"), obstacle_of(spec),
                                    rounds=self.arg(spec, "rounds"), stakes=stakes,
                                    vehicle=self.arg(spec, "vehicle"), settings=tuple(self.arg(spec, "settings")),
                                    pursuer=PURSUERS[self.arg(spec, "pursuer")], heard=self.arg(spec, "heard"),
                                    opening=self.arg(spec, "opening"),
                                    closing=closing_lines(action, self.arg(spec, "closing")),
                                    ends_told=told_outcomes(action))
        return action.branch(outcome)

    def chances(self, game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
        from .chances import conflict_chances

        return conflict_chances(game, action.spec, fighters)


def party_hunts(ctype: ConflictType, spec: Mapping[str, Any]) -> bool:
    """Whether the party (side a) gives chase or keeps watch in the conflict ``spec`` (its ``pursuer``, party by
    default): :func:`solo.rules.fiction.hunts` as the engine will set the conflict up."""
    from ...rules.fiction import hunts

    return hunts(ctype, "a", {"pursuer": PURSUERS.get(str(spec.get("pursuer", "party")), "a")})


def conflict_type_of(game: Game, spec: Mapping[str, Any]) -> ConflictType:
    """The conflict's type as the adventure's conflict has it: its ``flamboyant`` list, where it gives one,
    over the type's (what the menu offers, the minds choose from and the odds price)."""
    ctype = game.conflict_types[spec["type"]]
    flashy = spec.get("flamboyant")
    return ctype if flashy is None else replace(ctype, flamboyant=tuple(flashy))


#: What an adventure's own line for the narration (a conflict's ``opening``, a ``closing``) must be, in words.
_LINE_RULE = f"text (\"\" for none), at most {MAX_CLOSING} characters on one line, without braces"


def _narration_line(text: object) -> bool:
    """An adventure's own line for the narration, told as written: one printable line, no slots, not blank (a line
    of spaces alone printed as an empty one); ``""`` says none."""
    return (isinstance(text, str) and len(text) <= MAX_CLOSING and "{" not in text and "}" not in text
            and text.isprintable() and (text == "" or bool(text.strip())))


def closing_lines(action: Action, given: Mapping[str, str] | None) -> dict[str, str]:
    """The narration's closing per outcome, where the adventure has the last word: the author's own line
    (``closing = { won = "…" }``, ``""`` for none), and none after an outcome whose branch tells what
    happens in the author's words (a fled watchman who "decides it was a cat" is not also said to fetch help)."""
    closing = dict.fromkeys(told_outcomes(action), "")
    closing.update(given or {})
    return closing


def told_outcomes(action: Action) -> list[str]:
    """The outcomes whose branch tells the end in its own text ("The last lever gives with a click"): there the
    narration tells neither a closing nor the fall or giving way that decides the conflict."""
    return [outcome for outcome in OUTCOMES if (b := action.branch(outcome)) is not None and b.text]


def obstacle_of(spec: dict) -> Participant | None:
    """The static obstacle a conflict's ``obstacle`` table describes (None without one), for play and proof alike."""
    if "obstacle" not in spec:
        return None
    o = spec["obstacle"]
    name = field_value(OBSTACLE_FIELDS, o, "name")
    fiction = Fiction(body=field_value(OBSTACLE_FIELDS, o, "body"),
                      pronoun=field_value(OBSTACLE_FIELDS, o, "pronoun") or obstacle_pronoun(name),
                      called=field_value(OBSTACLE_FIELDS, o, "called"))
    return obstacle(name, str(field_value(OBSTACLE_FIELDS, o, "difficulty")),
                    challenge=field_value(OBSTACLE_FIELDS, o, "challenge"),
                    pool=field_value(OBSTACLE_FIELDS, o, "pool"), fiction=fiction)


@lru_cache(maxsize=256)
def obstacle_pronoun(name: str) -> str:
    """"it" for an old lock, "they" for parish records: the verbs of a line must agree with the name."""
    last = name.split()[-1] if name.split() else name
    if not last.isalpha():
        return "it"
    from ...narration.text import english

    return "they" if english().singular_noun(last.lower()) else "it"


class Oracle(ActionVerb):
    """Chance decides (docs/oracle.md); the tension track shifts the odds."""

    name = "oracle"
    fields = {"question": Field("text"), "odds": Field("likelihood", "even")}
    outcomes = ("yes", "no")
    optional = ("yes_and", "yes_but", "no_and", "no_but")

    def check(self, b: Builder, file: str, path: str, spec: Spec, action: Action) -> None:
        if not isinstance(spec.get("question"), str):
            b.fail(file, path, "missing field 'question' (text)")
        if "odds" in spec:
            from ...oracle.likelihood import OracleError, likelihood

            try:
                likelihood(str(spec["odds"]))
            except (OracleError, ValueError, KeyError) as exc:
                b.fail(file, f"{path}.odds", str(exc), "E005")

    def resolve(self, game: Game, action: Action) -> Branch | None:
        answer = game.ask_oracle(action.spec["question"], self.arg(action.spec, "odds"), told=action.branches)
        return action.branch(answer.key)

    def chances(self, game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
        from .chances import oracle_chances

        return oracle_chances(game, action)


class Table(ActionVerb):
    """A roll on a random table (docs/tables.md), shown before the story goes on."""

    name = "table"
    fields = {"name": Field("random table")}
    outcomes = ()
    optional = ("then",)

    def check(self, b: Builder, file: str, path: str, spec: Spec, action: Action) -> None:
        if not isinstance(spec.get("name"), str):
            b.fail(file, path, "missing field 'name' (a random table)")
            return
        tables = b.table_set()  # read once for the whole adventure; a broken table is reported there
        if tables is None:
            return
        if spec["name"] not in tables:
            names = tables.names()
            b.fail(file, f"{path}.name", f"unknown table {spec['name']!r}{did_you_mean(spec['name'], names)}", "E007")

    def resolve(self, game: Game, action: Action) -> Branch | None:
        result = game.tables.roll(action.spec["name"], game.rng, slots=game.state.oracle.slots())
        game.emit("table", **result.to_dict())
        if result.learn:  # the row is a clue (its ``learn``): the story keeps it
            add_clue(game, result.learn)
        return action.branch("then")

    def chances(self, game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
        from .chances import real_dice

        return real_dice(self.name)  # every row leads to the same branch: the engine's own dice draw it


class Request(ActionVerb):
    """#Contact and #Lab (docs/rules.md §2.5): the first request is granted, each later one at half the chance."""

    name = "request"
    fields = {"tag": Field("\"Contact\" or \"Lab\"")}
    outcomes = ("granted", "refused")

    def check(self, b: Builder, file: str, path: str, spec: Spec, action: Action) -> None:
        if spec.get("tag") not in ("Contact", "Lab"):
            b.fail(file, f"{path}.tag", "expected \"Contact\" or \"Lab\" (the Tags that grant requests)", "E005")

    def resolve(self, game: Game, action: Action) -> Branch | None:
        from ...rules.dice import d100

        tag = action.spec["tag"]
        asked = self.asker(game, tag)
        if asked is None:
            game.emit("request", tag=tag, actor=None, chance=0, roll=None, granted=False)
            return action.branch("refused")
        pc, chance = asked
        pc.requests[tag] = pc.requests.get(tag, 0) + 1
        roll = None if chance >= 100 else d100(game.rng)
        granted = roll is None or roll <= chance
        game.emit("request", tag=tag, actor=pc.name, chance=chance, roll=roll, granted=granted)
        return action.branch("granted" if granted else "refused")

    @staticmethod
    def asker(game: Game, tag: str) -> tuple[Character, int] | None:
        """The PC who asks (of those with the Tag, the one with the best chance left) and that chance; None
        when nobody has the Tag. The request and its chances read it here."""
        from ...rules.character import request_chance

        holders = [pc for pc in game.state.pcs if tag in pc.tags]
        if not holders:
            return None
        pc = max(holders, key=lambda p: request_chance(p.requests.get(tag, 0)))
        return pc, request_chance(pc.requests.get(tag, 0))

    def chances(self, game: Game, action: Action, fighters: Fighters | None = None) -> Outcomes:
        from .chances import request_chances

        return request_chances(game, action)
