"""A PC's skill roll as a story makes it: who rolls, against what target, and the Luck offered after.

The ``roll`` and ``opposed`` actions, and open play's own rolls, all go
through here, so a flip is offered, and borrowed Luck is repaid, the same
way everywhere (docs/rules.md §2.8).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...decisions import Option
from ...events import Chance
from ...npc.disposition import disposition_modifier
from ...rules.character import Character, Modifier, Situation, skill_target
from ...rules.luck import NEGATIVE_LUCK_FLOOR, debt_due, pay_back, spend
from ...rules.rolls import CheckResult, difficulty_modifier, flip_that_helps, luck_left
from ..format.verbs import Field, field_value
from .npcs import disposition_of

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ...npc.model import NPC
    from ..format.adventure import Action
    from .engine import Game

#: The fields of a skill roll, shared by the ``roll`` and ``opposed`` actions (and their defaults).
ROLL_FIELDS = {
    "skill": Field("skill"), "focus": Field("Focus or list of Focuses", None),
    "difficulty": Field("difficulty", "normal"), "modifier": Field("whole number", 0),
    "who": Field("who", "choose"), "among": Field("list", ()),
}


def roller(game: Game, spec: Mapping[str, Any], *, npc: NPC | None = None) -> Character | None:
    """The PC who will make the roll, if no one has to be asked (one PC, ``who`` = best or active)."""
    pcs = game.state.pcs
    who = field_value(ROLL_FIELDS, spec, "who")
    if len(pcs) == 1:
        return pcs[0]
    if who == "best":
        return max(pcs, key=lambda p: roll_target(p, spec, npc=npc)[0])
    if who == "active":
        return game.state.active_pc()
    return None


def roller_first(game: Game, action: Action, *, best: bool = False, npc: NPC | None = None,
                 opposed: bool = False) -> Action:
    """A roll's roller made the active PC before its choice is paid for
    (:meth:`~solo.story.play.actions.ActionVerb.roller_first`): asked where the party has a say (``best``: the best
    at it), and kept as the active PC in the action returned, so that resolving it asks nobody again and nothing
    paid meanwhile (an item, a Pool) changes who rolls."""
    spec = action.spec
    pcs = game.state.pcs
    if not pcs:
        return action
    who = field_value(ROLL_FIELDS, spec, "who")
    if best and roller(game, spec, npc=npc) is None:
        spec = {**spec, "who": "best"}
    choose_pc(game, spec, spec["skill"], field_value(ROLL_FIELDS, spec, "focus"), npc=npc, opposed=opposed)
    return action if who == "active" or len(pcs) == 1 else replace(action, spec={**action.spec, "who": "active"})


def npc_label(game: Game, npc: NPC | None) -> str | None:
    """What the players call ``npc`` (:func:`.knowledge.called`): its name once they know it, else what was seen."""
    from .knowledge import called

    nid = next((k for k, v in game.state.npcs.items() if v is npc), None) if npc is not None else None
    return called(game, nid) if nid is not None else None


def roll_chance(game: Game, pc: Character, spec: Mapping[str, Any], *, npc: NPC | None = None,
                at: Game | None = None) -> Chance | None:
    """The chance of ``pc``'s roll as an option shows it (None for a Routine task: no dice), numbered by ``game``;
    ``at``: the game its numbers are read on, where that is a copy (``pc`` and ``npc`` then its own)."""
    target, mods, routine = roll_target(pc, spec, npc=npc, label=npc_label(at or game, npc))
    if routine:
        return None
    return game.chance(pc.name, spec["skill"], target, [(m.name, m.value) for m in mods])


#: "Who tries it?" beside a PC whom paying for the choice would take out of the story: no chance of theirs is
#: rolled (the review: Thea picked at 10 % paid, fell, and Espen rolled unasked); whoever is left is asked then.
PAYING_TAKES_OUT = "paying for it takes them out of the story; one of the others then tries it"


def choose_pc(game: Game, spec: Mapping[str, Any], skill: str, focus: Any, *, npc: NPC | None = None,
              opposed: bool = False) -> Character:
    """The PC who makes the roll (``who``: choose, best or active); they become the active PC.

    Asked, each PC's option shows the chance of the roll they would make: the
    target :func:`roll_target` gives the roll itself, with its modifiers; of an
    ``opposed`` roll, also the chance to win it, as the menu shows it where one
    PC rolls (the roll's own chance is not that: a new player's run).
    """
    state = game.state
    pc = roller(game, spec, npc=npc)
    if pc is None:
        pcs = state.pcs
        options = []
        for p in pcs:
            # the chance on the game as the roll will meet it: where taking the choice pays something first
            # (a disposition shifted, a cost), on a copy paid by this PC (Game.paid_by), else on this game
            at, who, them = game, p, npc
            if game.paying is not None:
                at = game.paid_by(p.name)
                who = next(c for c in at.state.party if c.name == p.name)
                them = at.state.npcs.get(spec["npc"]) if npc is not None and "npc" in spec else npc
                if who.name in at.state.removed:  # paying takes them out: the roll is then asked of the others
                    options.append(Option(p.name, p.name, PAYING_TAKES_OUT))
                    continue
            chance = roll_chance(game, who, spec, npc=them, at=at)
            detail = "" if chance is not None else f"{skill}: routine"
            if opposed and chance is not None and game.shows_chances:
                from .chances import win_words

                detail = win_words(dict(spec), who, them) or ""
            options.append(Option(p.name, p.name, detail, chance=chance))
        answer = game.ask("who", f"Who tries it? ({skill})", options)
        pc = next(p for p in pcs if p.name == answer)
    state.active = state.party.index(pc)  # branch text and "active" effects follow who acted
    return pc


def roll_target(pc: Character, spec: Mapping[str, Any], *, npc: NPC | None = None, label: str | None = None
                ) -> tuple[int, list[Modifier], bool]:
    """The target, its modifiers by name, and whether the roll is routine (no dice). ``label``: what the players
    call the NPC, which names its disposition's modifier ("a man in a wet uniform is Friendly")."""
    skill, focus = spec["skill"], field_value(ROLL_FIELDS, spec, "focus")
    extra = []
    routine = False
    if "difficulty" in spec:
        mod = difficulty_modifier(str(spec["difficulty"]))
        if mod is None:
            routine = True
        elif mod:
            extra.append(Modifier(str(spec["difficulty"]).title(), mod))
    if field_value(ROLL_FIELDS, spec, "modifier"):
        extra.append(Modifier("situation", spec["modifier"]))
    if npc is not None and skill == "Social":
        disp = disposition_of(npc)
        if disposition_modifier(disp):
            extra.append(Modifier(f"{label or npc.name} is {disp}", disposition_modifier(disp)))
    among = set(field_value(ROLL_FIELDS, spec, "among"))
    situation = Situation(upper_class="upper_class" in among, criminal="criminals" in among,
                          borderline_access="borderline_access" in among,
                          status_known="aware_of_status" in among) if among else None
    target, mods = skill_target(pc, skill, focus, situation=situation, extra=extra)
    return target, mods, routine


#: An opposed roll's outcome by its winner, as its branches are named.
OPPOSED_OUTCOMES: dict[str | None, str] = {"a": "win", "b": "lose", None: "fail"}


def flip_label(outcome: str, escalates: bool) -> str:
    """How a flip question names an outcome: the outcome, marked where a lost opposed roll may still be escalated
    (the question that follows keeping it); ``solo prove``'s walkthroughs find the question by it."""
    return f"{outcome}:escalate" if escalates else outcome


def check_outcome(result: CheckResult) -> str:
    """A skill roll's outcome by the name a ``roll`` action's branches take."""
    if result.success:
        return "exceptional_success" if result.exceptional else "success"
    return "exceptional_failure" if result.exceptional else "failure"


def offer_flip(game: Game, pc: Character, result: CheckResult, *, beats: int = 0,
               goal: str = "succeed", named: Callable[[CheckResult], str] = check_outcome) -> CheckResult:
    """Offer Luck when a flip would turn the roll (``beats``: the opposing success to beat, ties lost), saying
    what the flip would do (``goal``: "succeed", "win the opposed roll"), as a conflict's offer says "and win the
    round": a player should not have to work out whether 27 beats the other side's 10. The question carries the
    roll and the flipped number, as a conflict's does, and both outcomes (``outcomes``, kept then flipped, as
    ``named`` names them: :func:`check_outcome` for a skill roll) for a decider that plans by outcome (``solo
    prove``'s walkthroughs).

    Never while borrowed Luck is due: the success the flip bought would go straight
    to repaying it (docs/rules.md §2.8).
    """
    negative = game.adventure.negative_luck
    if pc.luck <= (NEGATIVE_LUCK_FLOOR if negative else 0) or debt_due(pc):
        return result
    flipped = flip_that_helps(result, best_other=beats, tie_loses=True)
    if flipped is None:
        return result
    left = luck_left(pc.luck)
    answer = game.ask("luck_flip", f"Spend a Luck Point to flip {result.roll:02d} into {flipped.roll:02d} and {goal}? "
                      f"You would have {left} left.",
                      [Option("yes", f"Flip to {flipped.roll:02d}", f"{left} left"),
                       Option("no", "Keep the roll", f"Luck stays {pc.luck}")], actor=pc.name,
                      roll=result.roll, flipped=flipped.roll, outcomes=(named(result), named(flipped)))
    if answer != "yes":
        return result
    spend(pc, "flip", negative_luck=negative)
    game.emit("luck", actor=pc.name, use="flip", before=result.roll, after=flipped.roll, luck=pc.luck,
              success=flipped.success, exceptional=flipped.exceptional)
    return flipped


def repay(game: Game, pc: Character, result: CheckResult) -> CheckResult:
    """Borrowed Luck falls due: the PC's first successes in the scene after borrowing fail (docs/rules.md §2.8).

    No question is asked. Each success taken this way becomes a plain failure and
    gives back one point; an event says so. A Routine success has no roll to fail.
    Opposed rolls call this only for a roll the PC won.
    """
    if not result.success or result.automatic or not debt_due(pc):
        return result
    pay_back(pc)
    game.emit("luck", actor=pc.name, use="pay_back", roll=result.roll, luck=pc.luck)
    return replace(result, success=False, exceptional=False)
