"""The end of a scenario: Luck comes back and each PC improves.

Only a story that reached one of its endings has an epilogue; a party that
fell or a dead end does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...decisions import Option
from ...rules.character import willpower_aim
from ...rules.improvement import (
    IMPROVE_DICE,
    NEW_FOCUS_COST,
    NEW_SKILL_COST,
    NEW_TAG_COST,
    end_session,
    improvable_skills,
    improve_skill,
    learn_focus,
    learn_skill,
    learn_tag,
    learnable_focuses,
)
from ...rules.luck import end_scenario
from ...rules.rulebook import rules

if TYPE_CHECKING:
    from .engine import Game


def epilogue(game: Game) -> None:
    """The end of the scenario: Luck comes back (unless it ended negative), Pools heal, and each PC improves.

    A PC earns one improvement roll, two if they acted by their Willpower
    Focuses more often than not (the players judge that), and spends them at
    once or keeps them for later (docs/rules.md §2.8, §2.9).
    """
    game.epilogue_done = True
    t = rules()
    for pc in game.state.pcs:
        before = pc.luck
        wp = pc.willpower
        focus = " and ".join(willpower_aim(e) for e in (wp.get("person", {}), wp.get("circle", {})) if e) \
            or "those Focuses"
        # asked before Luck and the Pools come back, so the status line beside the question still shows how the
        # story left them: it showed them whole before the line saying they are (a new GM's run)
        acted = game.ask("willpower_acted", f"did you act by your Willpower Focuses ({focus}) more often than not?",
                         [Option("yes", "Yes", "two improvement rolls"), Option("no", "No", "one improvement roll")],
                         actor=pc.name)
        healed = end_scenario(pc)
        earned = end_session(pc, acted_by_willpower=acted == "yes")
        game.emit("session_end", actor=pc.name, earned=earned, luck_before=before, luck=pc.luck, healed=healed)
        improved: set[str] = set()  # a later roll goes to another skill (docs/rules.md §2.9)
        # each option keeps the number it was first shown with, as a scene's choices do: a skill improved leaves a
        # gap, and a typed "3" (or a script's) means the same option at every roll
        numbers: dict[str, int] = {}
        labels: dict[str, str] = {}
        while pc.improvement_rolls > 0:
            options = [Option(f"improve:{sk}", f"Improve {sk}", f"{pc.skills[sk]} % now, raised by {IMPROVE_DICE}")
                       for sk in improvable_skills(pc, improved, t)]
            kept = "the rolls" if pc.improvement_rolls > 1 else "the roll"  # one roll left is one roll
            keep = Option("keep", f"Keep {kept} for later",
                          f"a new Focus costs {NEW_FOCUS_COST} rolls, a new Tag {NEW_TAG_COST}")
            if game.edition >= 5:  # right after the skills: its number is the same whatever the rolls banked (a
                options.append(keep)  # new player typed the "10" it had always been, and bought //Insight)
            if pc.improvement_rolls >= NEW_SKILL_COST:
                options += [Option(f"learn:{sk}", f"Learn {sk}", f"costs {NEW_SKILL_COST} rolls, starts at 10 %")
                            for sk in t.skills if pc.skills[sk] < t.untrained]
            if pc.improvement_rolls >= NEW_FOCUS_COST:
                options += [Option(f"focus:{sk}//{f}", f"Learn the Focus {sk} //{f}", f"costs {NEW_FOCUS_COST} rolls")
                            for sk, f in learnable_focuses(pc, t, worthless_language=game.edition < 5)]
            if pc.improvement_rolls >= NEW_TAG_COST:
                options += [Option(f"tag:{tag}", f"Gain the Tag #{tag}", f"costs {NEW_TAG_COST} rolls")
                            for tag in t.tags if tag not in pc.tags]
            if game.edition < 5:
                options.append(keep)
            if not numbers:  # the first menu: numbered as it stands
                numbers = {o.key: n for n, o in enumerate(options, 1)}
            else:  # a later one: each option keeps its first number, one not shown then goes after them
                options = [Option(o.key, o.label, o.detail, number=numbers.setdefault(o.key, len(numbers) + 1))
                           for o in options]
            labels.update({o.key: o.label for o in options})
            shown = {o.key for o in options}
            # a number typed from an earlier menu says why it is gone ("'7' is not an answer here" read as a slip
            # after Move was improved: a new player's run)
            gone = {numbers[k]: f"{labels[k]}: " + ("improved already this time" if k.startswith("improve:")
                                                    else "it costs more rolls than are left")
                    for k in numbers if k not in shown}
            rolls = pc.improvement_rolls
            prompt = f"{rolls} improvement roll{'s' if rolls != 1 else ''} to spend: spend one now?"
            # a skill's name alone picks its roll ("combat" for "Improve Combat", as every other menu takes a word
            # of an option; a group's evening was told "'combat' is not an answer here")
            aliases = {o.key.split(":", 1)[1].lower(): o.key for o in options if o.key.split(":", 1)[0] in ("improve",
                                                                                                       "learn")}
            choice = game.ask("improve", prompt, options, actor=pc.name, default="keep", aliases=aliases,
                              **({"gone": gone} if gone else {}))
            if choice == "keep":
                if pc.improvement_rolls:  # said, as a roll spent is: the next game's "3 improvement rolls to spend"
                    # came from nowhere a group could see (a hot-seat Vellan)
                    game.emit("improvement", actor=pc.name, skill=None, before=None, after=None,
                              kept=pc.improvement_rolls)
                break
            kind, what = choice.split(":", 1)
            if kind == "focus":
                skill, focus = what.split("//", 1)
                learn_focus(pc, skill, focus, t)
                game.emit("improvement", actor=pc.name, skill=f"{skill} //{focus}", before=None,
                          after=pc.skills[skill] + pc.focuses[what])
                continue
            if kind == "tag":
                learn_tag(pc, what, t)
                game.emit("improvement", actor=pc.name, skill=f"#{what}", before=None, after=None)
                continue
            before_value = pc.skills[what]
            if kind == "improve":
                improve_skill(pc, what, game.rng, t, improved=improved)
            else:
                learn_skill(pc, what, t)
            improved.add(what)
            game.emit("improvement", actor=pc.name, skill=what, before=before_value, after=pc.skills[what],
                      dice=IMPROVE_DICE if kind == "improve" else None)
    game.epilogue_finished = True  # every question of it answered: a save says the game is over, not improving
