"""Short plain sentences for the mechanical events: what the dice said.

The terminal view and the Markdown journal both use these, so a roll reads the
same on screen and in the transcript. Story prose comes from the narrator
(templates); these lines are the GM reading the dice aloud.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..events import Event
from ..rules.character import HURT_PENALTY
from ..rules.dice import roll_against, two_digits
from ..rules.lenses import LENS_NAMES

OUTCOME_WORDS = {
    "won": "won", "lost": "lost", "fled": "fled", "surrendered": "gave up", "opponent_fled": "the opponent fled",
    "opponent_surrendered": "the opponent gave up", "comae": "fell into comae", "stalemate": "a stalemate",
}


#: A conflict left by walking away (an argument, a static obstacle: ``exit_words``), in the journal's few words and
#: in the screen's sentence.
_WALKED = {"fled": ("walked away", "you walked away"),
           "opponent_fled": ("the opponent walked away", "the other side walked away")}


def ended_words(e, static: bool = False) -> str:
    """How a conflict ended (a ``conflict_end`` or ``no_contest`` event), in the journal's few words; ``static``:
    it was against a static obstacle (``conflict_facts``)."""
    outcome = e["outcome"]
    walked = _WALKED.get(outcome) if static or e.get("social") else None
    return walked[0] if walked else OUTCOME_WORDS.get(outcome, outcome)


def verdict(success: bool, exceptional: bool, automatic: bool = False) -> str:
    if automatic:
        return "automatic success"
    word = "success" if success else "failure"
    return f"exceptional {word}" if exceptional else word


def mods_text(mods) -> str:
    if not mods:
        return ""
    return " (" + ", ".join(f"{name} {value:+d}" for name, value in mods) + ")"


def formula(skill: str, base: int, mods) -> str:
    """A target taken apart, for a player: "Cunning 30 · //Deceit +20 · from last round +20 · Malicious -40"."""
    return " · ".join([f"{skill} {base}"] + [f"{name} {value:+d}" for name, value in mods])


def percent_of(target: int) -> str:
    """The chance a d100 target gives, as a player reads it: none below 1, at most 99 % (00 always fails)."""
    return f"{min(99, max(0, target))} %"


def clamped(target: int) -> bool:
    """Whether the chance is not the target itself (a target below 0 or above 99)."""
    return not 0 <= target <= 99


def chance_text(c) -> str:
    """A chance and its parts: "30 % = Cunning 30 · //Deceit +20" (``c`` a Chance or a chance event); a target
    beyond the dice keeps its sum beside the chance it gives: "0 % (Tech 5 · from last round -20 = -15)"."""
    if isinstance(c, (Mapping, Event)):  # a chance event as a sink gets it, or as a log keeps it
        target, skill, base, mods = c["chance"], c["skill"], c["base"], c.get("modifiers") or ()
    else:
        target, skill, base, mods = c.target, c.skill, c.base, c.modifiers
    if clamped(target):
        return f"{percent_of(target)} ({formula(skill, base, mods)} = {target})"
    return f"{target} % = {formula(skill, base, mods)}"


def extra_mods(c, common) -> list[tuple[str, int]] | None:
    """What ``c`` adds to ``common`` (two Chances of one person's skill), or None if it is not ``common`` plus more."""
    if c.actor != common.actor or c.skill != common.skill or c.base != common.base:
        return None
    rest = list(c.modifiers)
    for m in common.modifiers:
        if m not in rest:
            return None
        rest.remove(m)
    return rest


NEXT_ROUND_CAUSES = {"not_won": "did not win the round", "struck": "struck"}


def next_round(e, names) -> str:
    """A next-round effect as it arises: Covert or Flamboyant not winning, a blow that leaves a mark, Clever's edge."""
    who = names.get(e["actor"], e["actor"])
    lens = LENS_NAMES.get(e.get("lens") or "", e.get("lens") or "")
    if e.get("effect") == "edge":
        return f"{lens}: {who} has an edge next round (+{e['value']} % to the roll, or damage twice)."
    if e.get("cause") == "struck":
        by = names.get(e.get("by"), e.get("by") or "someone")
        return f"{by}'s {lens} blow leaves a mark: {who} {e['value']:+d} % next round."
    if e.get("by"):  # the side won by a teammate's roll: this one's did not win it
        by = names.get(e["by"], e["by"])
        return f"{who}'s {lens} did not win the round ({by}'s roll did): {e['value']:+d} % next round."
    return f"{lens} did not win the round: {who} {e['value']:+d} % next round."


def changed_chance(e, names) -> str:
    """A chance shown again because the target moved after the choice (someone left, a blow hurt)."""
    who = names.get(e.get("actor"), e.get("actor") or "")
    return f"{who}'s chance has changed since the choice: now {chance_text(e)}."


def weapon_text(e) -> str:
    """A participant's blow: "Long sword 1d8", or just the dice."""
    damage = e.get("damage") or ""
    weapon = e.get("strikes_with")
    return f"{weapon} {damage}".strip() if weapon else damage


def counted_focus(e) -> str | None:
    """The Focus a roll's target counted (a ``//Name`` modifier, its bonus shown), or None: a Focus the roll asked
    for but the roller lacks adds nothing, so the line does not name it."""
    asked = e.get("focus")
    asked = asked if isinstance(asked, list) else [asked] if asked else []
    names = {str(m[0]) for m in e.get("modifiers") or () if str(m[0]).startswith("//")}
    return next((f for f in asked if f"//{f}" in names), None)


def skill_roll(e) -> str:
    focus = counted_focus(e)
    what = e["skill"] + (f" //{focus}" if focus else "")
    if e.get("automatic"):
        return f"{e['actor']}: {what} is routine: automatic success."
    return (f"{e['actor']} rolls {what}: {roll_against(e['roll'], e['target'])}"
            f"{mods_text(e.get('modifiers'))}: {verdict(e['success'], e['exceptional'])}.")


def opposed_roll(e) -> str:
    mine = roll_against(e["roll"], e["target"]) if e.get("roll") else "automatic"
    theirs = roll_against(e["opponent_roll"], e["opponent_target"])
    return (f"{e['actor']} ({e['skill']}) rolls {mine}{mods_text(e.get('modifiers'))}; "
            f"{e['opponent']} ({e['opponent_skill']}) rolls {theirs}.")


def opposed_outcome(e) -> str:
    if e["outcome"] == "win":
        return f"{e['actor']} wins the opposed roll."
    if e["outcome"] == "lose":
        tie = " on a tie (ties go to the defender)" if e.get("tie") else ""
        return upper_first(f"{e['opponent']} wins the opposed roll{tie}.")  # "A man in a wet uniform wins …"
    return "Both fail: nothing changes."


def luck(e) -> str:
    use = e["use"]
    if use == "flip":
        # a story's roll says what the flip made of it (the roll's own line said "failure" just before); in a
        # conflict the round's row says it instead
        made = ("" if e.get("success") is None else ": an exceptional success" if e.get("exceptional")
                else ": a success" if e["success"] else ": still a failure")
        flips = f"flips {two_digits(e['before'])} to {two_digits(e['after'])}"
        return f"{e['actor']} spends a Luck Point and {flips}{made}."
    if use == "reduce_damage":
        return f"{e['actor']} spends a Luck Point: {e['before']} damage becomes 1."
    if use == "refreshed":
        # no pronoun: the event names nobody's, and "their feet" is wrong for her (and in a war of words)
        return f"{e['actor']} spends a Luck Point: the Pool comes back to {e.get('after', 1)}."
    if use == "timely_appearance":
        return f"{e['actor']} spends a Luck Point: a Contact turns up at just the right moment."
    if use == "look_what_i_found":
        # the item is named on the next line ("You now have: rope."); "a small piece of equipment" read as if the
        # rope asked for had become something else (a new player's run)
        # a save from before the find named its item replays without one: nothing is named after it, so it says what
        return f"{e['actor']} spends a Luck Point, and look what turned up." if e.get("item") else \
            f"{e['actor']} spends a Luck Point: look what turned up, a small piece of equipment."
    if use == "pay_back":
        roll = f"the {two_digits(e['roll'])}" if e.get("roll") is not None else "the success"
        return (f"{e['actor']} owes fate for borrowed Luck: {roll} counts as a failure, "
                f"and one point is paid back (Luck {e['luck']}).")
    return f"{e['actor']} spends a Luck Point."


def conflict_roll(e, names) -> str:
    lens = e.get("lens", "none")
    lens_text = f", {LENS_NAMES[lens]}" if lens != "none" else ""
    parts = formula(e["skill"], e["base"], e.get("modifiers") or ()) if e.get("base") is not None else ""
    return (f"{names.get(e['actor'], e['actor'])}{lens_text}: {roll_against(e['roll'], e['target'], parts)}"
            f": {verdict(e['success'], e['exceptional'])}")


class ConflictFacts(NamedTuple):
    """What the screen and the journal read once from a ``conflict_start`` to word its lines: the names, who is
    named in the plural, which are static obstacles, the pronouns, and whether the conflict is against an obstacle
    (one who leaves walks away). One reading for both, so the two word a conflict alike."""

    names: dict[str, str]
    plural: frozenset[str]
    obstacles: frozenset[str]
    pronouns: dict[str, str]
    static: bool


def conflict_facts(e) -> ConflictFacts:
    people = e["participants"]
    static = bool((e.get("frame") or {}).get("static"))
    return ConflictFacts({p["id"]: p["name"] for p in people}, plural_names(people), obstacle_ids(people),
                         {p["id"]: p.get("pronoun", "they") for p in people}, static)


class WaysOut:
    """The lines the screen gives a conflict's ways out, in order: a nerve failing ("Petra turns to get away"), the
    one who leaves ("Petra flees."; not again after a broken nerve's clue said so) and what the other side answered.
    The journal writes them so, and a told duel (``solo duel --narrate``) too, whose story holds its own "she runs"
    back because these say it: without them it read "Espen watches Petra go" of a Petra nobody had seen leave (a
    reading of narrated conflicts). Fed every event of a log in order (:meth:`line`). Without ``answers`` the other
    side's answer is left to the story, whose closing tells it ("Espen watches Petra go, and lets her run" after
    "Espen Lind lets Petra Berg go." said it twice in a told duel)."""

    def __init__(self, *, answers: bool = True) -> None:
        self.answers = answers
        self.facts = ConflictFacts({}, frozenset(), frozenset(), {}, False)
        self.broken: set[str] = set()  # whose nerve broke, its clue shown: their exit needs no line of its own

    def line(self, kind: str, e) -> str | None:
        """The screen's line for this event, if it gives one of the ways out."""
        names, plural, _obstacles, pronouns, static = self.facts
        if kind == "conflict_start":
            self.facts, self.broken = conflict_facts(e), set()
        elif kind == "exit" and e["actor"] not in self.broken:
            return f"{upper_first(names.get(e['actor'], e['actor']))} {exit_words(e, static, e['actor'] in plural)}."
        elif kind == "exit_answer":
            return exit_answer_line(e, names) if self.answers else None
        elif kind == "npc_break" or (kind == "npc_morale" and morale_clue_shown(e)):
            if kind == "npc_break":
                self.broken.add(e["actor"])
            return upper_first(clue(e, names, pronouns))
        return None


def obstacle_ids(participants) -> frozenset[str]:
    """The ids of a conflict's static obstacles, from ``conflict_start``'s entries."""
    return frozenset(p["id"] for p in participants if p.get("obstacle"))


def plural_names(participants) -> frozenset[str]:
    """The ids of a conflict's participants named in the plural, as the narration reads them (an obstacle or a crowd
    that says "they": "the parish records"), from ``conflict_start``'s entries: the lines of the rules agree with
    them too ("The parish records win round 2", not "wins"; a fiction audit)."""
    from ..rules.fiction import named_in_plural

    return frozenset(p["id"] for p in participants
                     if named_in_plural(p.get("pronoun"), bool(p.get("obstacle")), p.get("body")))


def agrees(pid: str, plural: frozenset[str], singular: str, many: str) -> str:
    """``singular`` or ``many`` as the verb after participant ``pid``'s name."""
    return many if pid in plural else singular


def goes_out(pid: str, plural: frozenset[str], obstacles: frozenset[str]) -> str:
    """How a participant's going out is said after its name: a static obstacle (a lock, a registry, a man's defences)
    "gives way"; anyone else "is out of the conflict" (a new player's Vellan: "The old lock is out of the
    conflict." read as if the lock had been fighting). The screen and the journal both say it from here."""
    if pid in obstacles:
        return agrees(pid, plural, "gives way", "give way")
    return f"{agrees(pid, plural, 'is', 'are')} out of the conflict"


def round_result(e, names, plural: frozenset[str] = frozenset()) -> str:
    if e["stalemate"]:
        # not "stalemate": that word is kept for a conflict still going at its round limit
        if e.get("allies_tied"):  # the rule that decided is not the one a player expects: say it
            from ..narration.text import english

            tied = e.get("tied") or ()
            roll = (e.get("rolls") or {}).get(tied[0]) if tied else None
            who = english().join([names.get(k, k) for k in tied])
            at = f" with {two_digits(roll)}" if roll is not None else ""
            return (f"Nobody wins round {e['round']}: {who} tie for the best roll{at}, "
                    "and a tie is a stalemate even between allies.")
        return f"Nobody wins round {e['round']}: " + ("equal rolls." if e.get("tie") else "every roll fails.")
    why = ": the higher success" if e.get("successes", 0) >= 2 else ""  # both made it: the rule that decides
    outdone = [names.get(k, k) for k in e.get("outdone") or ()]
    if outdone:  # a double that lost puzzles a new player: say that it does not outrank a higher roll
        from ..narration.text import english

        rolled = e.get("rolls") or {}
        doubles = english().join([f"{possessive(n)} exceptional {two_digits(rolled[k])}" if rolled.get(k) is not None
                                  else f"{possessive(n)} exceptional success" for k, n in zip(e["outdone"], outdone)])
        why = f": the higher success wins, and {doubles} {'does' if len(outdone) == 1 else 'do'} not beat a higher roll"
    wins = agrees(e["winner"], plural, "wins", "win")
    return f"{names.get(e['winner'], e['winner'])} {wins} round {e['round']}{why}."


def possessive(name: str) -> str:
    """A name's possessive as the narration writes it, 's after an s too: one screen had "Sig Aas' exceptional
    11" beside "Sig Aas's Flamboyant blow" (a group's run)."""
    return f"{name}'s"


def damage(e, names, plural: frozenset[str] = frozenset(), obstacles: frozenset[str] = frozenset()) -> str:
    """A blow as a player reads it: who loses how much of which Pool, how the dice made it, what is left. An
    obstacle (``obstacles``: their ids) gives way by so much, since a blizzard or a lock has no POW or BODY of its
    own to lose ("The blizzard loses 5 POW": a new player's run); its Pool is what is left of it to overcome."""
    parts = []
    dice = f"{e['dice']} " if e.get("dice") else ""  # the die itself: "loses 5 CHA" left the reader to guess it
    if e.get("second") is not None:  # the damage rolled twice, the better kept ("best of 3 and 3" read oddly)
        same = e["first"] == e["second"]
        twice = f"{dice}twice: " if dice else ""
        if not same:
            parts.append(f"{twice}best of {e['first']} and {e['second']}")
        else:  # "1d6 twice: 3 on both"; without the die named, "3 on both dice"
            parts.append(f"{twice}{e['first']} on both" if dice else f"{e['first']} on both dice")
    elif dice and e.get("first") is not None:
        parts.append(f"{dice.strip()}: {e['first']}")
    if e.get("bonus"):
        parts.append(f"+{e['bonus']} gear")
    if e.get("armour"):
        parts.append(f"-{e['armour']} armour")
    if e.get("halved"):
        parts.append("halved")
    # a blow Luck took down to 1 was said by the Luck line just before ("4 damage becomes 1"): the parts of the
    # blow it replaced would not add up to this one, and "Luck: 1" in the blow's line says it twice
    how = f" ({', '.join(parts)})" if parts and not e.get("reduced") else ""
    # said for a player, not as a log ("deals 2 to Jonas's CHA (halved): 14 -> 12"): who loses what, and what is
    # left of how much; the one who struck is the round's winner, said just before
    who, pool, after = names.get(e["target"], e["target"]), e["pool"], e["after"]
    if e["target"] in obstacles:
        gives = agrees(e["target"], plural, "gives", "give")
        lost = f"{who} {gives} way by {e['amount']}{how}" if e["amount"] else f"{who} {gives} no way at all{how}"
    else:
        loses = agrees(e["target"], plural, "loses", "lose")
        lost = f"{who} {loses} {e['amount']} {pool}{how}" if e["amount"] else f"{who} {loses} no {pool}{how}"
    of = f" of {e['maximum']}" if e.get("maximum") is not None else ""
    if after == 0 and e["before"] - e["amount"] < 0:
        # a blow bigger than what is left: the Pool stops at 0 (docs/rules.md), so "loses 2 … 0 left" of one at 1
        # lost a point the reader could not account for (new-user run)
        # "unless pushed on": the question to push on may follow, and "stops at 0", then "Push on at -2", read as two
        # numbers for one blow (a hot-seat group)
        unless = " unless pushed on" if e.get("may_push") else ""  # a PC or a Master NPC may push on
        return f"{lost}, more than the {e['before']} left: it stops at 0{of}{unless}."
    if after < 0:  # pushing on below zero
        return f"{lost}: now at {after}{of}."
    return f"{lost}: {after} left{of}."


def exit_answer_line(e, names) -> str:
    """What a PC said to an NPC that yielded or ran (the ``exit_answer`` event)."""
    who, npc = names.get(e["actor"], e["actor"]), names.get(e["npc"], e["npc"])
    # nobody runs after one who walks out of an argument: the PC calls the NPC back (docs/rulings.md)
    chase = f"{who} calls {npc} back." if e.get("social") else f"{who} gives chase."
    return {"accept": f"{who} accepts: {npc} is out of it.",
            "refuse": f"{who} refuses: the search for {npc} goes on." if e.get("part") == "hider" else
                      f"{who} refuses: {npc} must {'run' if e.get('part') == 'quarry' else 'fight'} on.",
            "let_go": f"{who} lets {npc} go.",
            "chase": chase}.get(e["answer"], f"{who}: {e['answer']}.")


def leave_attempt_line(e, names) -> str:
    """The Move roll of one trying to leave a conflict (the ``leave_attempt`` event), as the screen and the journal
    both say it: out of an argument one walks and is held back, not caught (docs/rulings.md)."""
    who = upper_first(names.get(e["actor"], e["actor"]))
    tries, made, held = ("tries to walk out", "out.", "held back.") if e.get("social") else \
        ("tries to get away", "away!", "caught.")
    return f"{who} {tries}: {roll_against(e['roll'], e['target'])}: {made if e['success'] else held}"


def outcome_words(outcome: str) -> str:
    """An ending's outcome as a reader reads it: the author's word, an id's underscores as spaces
    ("turned_back" reads "turned back")."""
    return outcome.replace("_", " ").strip()


def outcome_beside(title: str, outcome: str) -> str:
    """The outcome's words to say beside an ending's title, or "" where the title says them already: two endings
    may share a title, and the outcome tells them apart."""
    words = outcome_words(outcome)
    # the same words, or words the title holds whole ("The party has fallen", outcome "fallen"): said once
    repeats = re.search(rf"(?<!\w){re.escape(words.lower())}(?!\w)", title.lower()) if words else None
    return "" if repeats else words


def fallen_at_end(e) -> list[str]:
    """Who fell on the way, said under the end (a new player's Espen died at the summit, and the cheerful ending
    never named him): each renderer tells it from here."""
    return [f"{name} did not live to see it." if fate == "death" else f"{name}, in comae, is not there to see it."
            for name, fate in e.get("fallen") or ()]


def ending_said(title: str, outcome: str) -> str:
    """An ending's title with its outcome where the two differ ("The lowland road (turned back)"). The journal,
    the screen and the recap all say it so."""
    words = outcome_beside(title, outcome)
    return f"{title} ({words})" if words else title


#: A conflict's end as the players are told it: its outcome is the party's (side a's), so it is said to them.
OUTCOME_TOLD = {
    "won": "you won", "lost": "you lost", "fled": "you fled", "surrendered": "you gave up",
    "opponent_fled": "the other side fled", "opponent_surrendered": "the other side gave up",
    "comae": "you fell into comae", "stalemate": "a stalemate, and nobody won",
}


def pool_heading(pool_name: str, *, obstacle: bool = False) -> str:
    """A conflict Pool's name where its value is shown: a person's combined Pool says it is the average
    ("BODY/POW average 13"), where "BODY/POW 13/13" read as a BODY of 13 and a POW of 13 beside a sheet saying 16
    and 10. An obstacle's Pool is its own size, the average of nothing."""
    return f"{pool_name} average" if "/" in pool_name and not obstacle else pool_name


#: What comae is, said with it: "comae" read like a typo of "coma" to a new player (the rules' word, docs/rules.md
#: §5.5: a Pool at its full negative value takes one out of the scenario).
FALLS_INTO_COMAE = "falls into comae, out of the scenario"


def conflict_outcome(outcome: str, walked: bool = False) -> str:
    """"The conflict is over: you won." (a bare "The conflict is over: won." read like a log); from an argument or a
    static obstacle one walks away ("the other side fled" followed "Signe walks out: let her go": a new player's eye
    on the tutorial), as ``exit_words`` says of the one who left."""
    walked_words = _WALKED.get(outcome) if walked else None
    told = walked_words[1] if walked_words else OUTCOME_TOLD.get(outcome, OUTCOME_WORDS.get(outcome, outcome))
    return f"The conflict is over: {told}."


def pushes_on(value: int | None, pool: str | None = None) -> str:
    """What pushing on costs, as the rules count it: every skill lower only while the Pool is below zero (at 0
    exactly, from the next blow that takes it lower). Where the Pool now stands, as the journal says it: the bars
    stop at 0, and "now at -3 of 12" after the next blow did not add up with nothing said between (a reading of
    fights)."""
    if value is not None and value >= 0:
        return f"pushes on at {value} (every skill {HURT_PENALTY:+d} % once below zero)"
    if value is not None and pool:
        return f"pushes on below zero: {pool} {value} (every skill {HURT_PENALTY:+d} %)"
    return f"pushes on below zero (every skill {HURT_PENALTY:+d} %)"


def spent_at_start(e) -> str:
    """Someone whose conflict Pool was spent before the conflict began: in comae, sitting out, or pushing on.

    A sentence of its own, so it opens with a capital whoever renders it ("The first barrow-wight is spent",
    where the journal had printed "the first barrow-wight" and only the terminal raised it)."""
    who = upper_first(e["actor"])
    if e["choice"] == "comae":
        return f"{who} is in comae and takes no part."
    spent = f"{who} is spent ({e['pool']} {e['value']})"
    if e["choice"] == "push":
        return f"{spent} but pushes on into it (every skill {HURT_PENALTY:+d} %)."
    if e.get("pool") == "CHA":  # composure spent: there, and listening, with no argument left (a new player read
        return f"{spent}, with no composure left to argue with."  # "takes no part", then Ragna decided the matter)
    return f"{spent} and takes no part."


def pools_settled(e) -> list[str]:
    """After a conflict fought with two Pools as one (a chase's BODY/POW, their average), where each of the two
    stands now: the bars showed the one Pool, and the sheet shows both, each down by as much as it fell."""
    out = []
    for who, pools in (e.get("settled") or {}).items():
        names = list(pools)
        each = " and ".join(f"{n} {cur}/{most}" for n, (cur, most) in pools.items())
        out.append(f"{who}'s {'/'.join(names)} fell for both Pools at once: {each} now.")
    return out


def assist_idle(e) -> str:
    """Help that goes to nobody: the one it was for stayed out of the conflict (spent, and not pushing on)."""
    from ..story.format.text import and_list

    return f"The help of {and_list(list(e.get('helpers') or []))} goes to nobody: {e['assisted']} takes no part."


def no_contest(e) -> str:
    who = "the other side" if e["outcome"] == "won" else "your side" if e["outcome"] == "lost" else "either side"
    return f"No contest: nobody on {who} can take part. {conflict_outcome(e['outcome'])}"


def odds_text(odds, chance: object = None) -> str:
    """An oracle question's odds: "likely, 65 %"; a chance asked as a number is said once ("65 %"), and
    again only where tension moved it ("65 %, 75 % at this tension")."""
    chance = odds.get("chance", chance)
    word = str(odds.get("likelihood") or "")
    if not word:
        return f"{chance} %"
    asked = word.removesuffix("%").strip()
    if asked.isdigit():
        return f"{asked} %" if str(asked) == str(chance) else f"{asked} %, {chance} % at this tension"
    base = _likelihood_base(word)
    if base is not None and str(base) != str(chance):  # "likely, 50 %" read as a likely that had lost 20 points
        return f"{word} {base} %, {chance} % at this tension"
    return f"{word}, {chance} %"


def _likelihood_base(word: str) -> int | None:
    """A named likelihood's chance before the tension moves it (None: a word the oracle does not know)."""
    from ..errors import SoloError
    from ..oracle import likelihood

    try:
        return likelihood(word).base
    except SoloError:  # (an OracleError)
        return None


def pool_change_line(e) -> str:
    """A Pool changed by the story, for the journal: "Frode Rud: BODY 5 -> 2."; a blow to a Pool at 0 that was not
    pushed changes nothing, and says so ("BODY 0 -> 0." read as a misprint after "Its hands close on Frode … and
    tear": a reading of narrated conflicts)."""
    before, after = e["before"], e["after"]
    if before == after:
        why = " (a Pool not pushed on stops at 0)" if after == 0 and e.get("cause") == "damage" else ""
        return f"{e['actor']}: {e['pool']} stays at {after}{why}."
    return f"{e['actor']}: {e['pool']} {before} -> {after}."


def oracle(e, *, named: bool = True, commands: bool = True) -> str:
    """The oracle's answer in one line; ``named=False`` leaves out the leading "Oracle" for a box that bears it
    (kept where no question follows it, so the line does not start at its odds). ``commands=False``: no command to
    type after a random event (the journal is a record of the story, not a prompt: "Keep it with: threads add
    TEXT" stood in it, a new player's run)."""
    q = f"\u201c{e['question']}\u201d " if e.get("question") else ""
    odds = e.get("odds") or {}
    name = "Oracle " if named or not q else ""
    line = f"{name}{q}({odds_text(odds, e.get('chance'))}): rolled {two_digits(e['roll'])}"
    read = e.get("reading")
    text = str(read["text"]) if isinstance(read, dict) and read.get("text") else None
    if text is not None and says_answer(text, str(e["answer"])):
        line += f". {text}"  # "rolled 13. Yes: what does it let you do next?", the answer said once
    else:
        line += f": {e['answer']}." + (f" Reading: {text}" if text is not None else "")
    hard = e.get("interpretation")
    if isinstance(hard, dict):
        line += " " + interpretation(hard)
    event = e.get("event")
    if event:
        line += " " + random_event(event, commands=commands) if isinstance(event, dict) else f" Random event: {event}"
    return line


def says_answer(reading: str, answer: str) -> bool:
    """Whether a reading opens with the answer it reads and no other ("No, but you learn why not" for "no, but";
    "Yes: what does it let you do next?" for "yes", not "Yes, but …" for it): the oracle's line then lets the
    reading say the answer, where "rolled 39: no, but. Reading: No, but you learn why not" said it twice."""
    head, rest = reading[:len(answer)].lower(), reading[len(answer):].lower()
    return (head == answer.lower() and (rest == "" or not rest[0].isalnum())
            and not rest.startswith((", and", ", but")))


def pair(m: object) -> str:
    """A meaning pair ("Betray / Oath") or a description pair ("Quietly / Ancient") from an event's data."""
    if not isinstance(m, Mapping):
        return ""
    first, second = (m.get("action"), m.get("subject")) if "action" in m else (m.get("adverb"), m.get("adjective"))
    return f"{first} / {second}" if first and second else ""


def random_event(ev: Mapping, *, commands: bool = True) -> str:
    """The focus, the meaning pair to read it by, and what the player may do with it: close the thread
    it brings to an end, or read it in the light of the current situation (``commands=False``: the situation only,
    no command to type)."""
    words = pair(ev.get("meaning"))
    hint = f" (meaning: {words})" if words else ""
    follow = event_follow_up(ev) if commands else situation(ev)
    return f"Random event: {ev.get('text', 'something happens')}{hint}.{follow}"


def situation(ev: Mapping) -> str:
    """The current situation an event that names nobody follows, as a sentence after it ("" where none)."""
    if not ev.get("context"):
        return ""
    context = str(ev["context"]).rstrip()
    # a scene closed with `solo scene --end` is the last one, not the situation now (a review)
    # and a thread is a thread: "It follows the current situation: Who sank the Margit?" (a GM-less table)
    where = ("the last scene" if ev.get("scene_closed") else "the open thread" if ev.get("context_thread")
             else "the current situation")
    return f" It follows {where}: {context}{'' if context[-1:] in '.!?' else '.'}"


def event_follow_up(ev: Mapping, shell: str | None = None, *, kept: bool = True) -> str:
    """The situation an event that names nobody follows, and the thread an event may close.

    ``shell``: where the player is at a shell prompt, not in a game (``solo scene``), the command that keeps a
    session ("solo session heist"), so the follow-ups are commands a shell runs: "npcs add NAME" is a command of
    play, and typed at a shell it read "bash: npcs: command not found" (a new player's run). ``kept``: False where
    no session keeps the story (a thread given for one command is not closed by a command)."""
    line = situation(ev)
    thread = ev.get("closes")
    if thread and not kept:  # a thread given for this one command: no session keeps it to close or move on
        line += (f" If that settles it, the thread is done; to keep threads from one command to the next, keep them "
                 f"in a session: {UNKEPT} --thread TEXT")
    elif thread:
        close, progress = ((f"{shell} --close {thread}", f"{shell} --progress {thread}") if shell is not None
                           else (f"threads close {thread}", f"threads progress {thread}"))
        if ev.get("track_full"):  # no progress to mark: the command it named was refused (a GM-less table's run)
            line += (f" If that settles it, close the thread with: {close} (its track is full: it can only be"
                     f" settled now)")
        else:
            line += (f" If that settles it, close the thread with: {close}; if it only moves it on,"
                     f" mark the progress: {progress}")
    elif ev.get("focus") in FOLLOW_UPS:
        command = FOLLOW_UPS[ev["focus"]]
        if shell is not None:
            command = SHELL_FOLLOW_UPS[ev["focus"]].format(shell=shell)
        line += f" {command}"
    return line


#: The command named at a shell where no session keeps the story: SESSION_NAME is one the player chooses for it (not
#: NAME, which the follow-ups already use for a person: "solo session NAME --npc NAME" read as one name twice).
UNKEPT = "solo session SESSION_NAME"
#: What the player may do about an event that brings something new into the story: in play, and at a shell.
FOLLOW_UPS = {"new_thread": "Keep it with: threads add TEXT", "new_npc": "Keep them with: npcs add NAME"}
SHELL_FOLLOW_UPS = {"new_thread": "Keep it with: {shell} --thread TEXT",
                    "new_npc": "Keep them with: {shell} --npc NAME"}


def interpretation(hard: Mapping) -> str:
    """What a "yes, but" costs or what makes a "no, and" worse, with its meaning pair."""
    lead = "The price" if hard.get("table") == "price" else "The twist"
    words = pair(hard.get("meaning"))
    text = hard.get("text")
    if text and words:
        return f"{lead}: {text} (meaning: {words})."
    return f"{lead}: {text or words}."


def weight_mark(weight: int) -> str:
    """" ×2" for an entry that counts twice on its list, nothing for one that counts once."""
    return f" \u00d7{weight}" if weight > 1 else ""


def track_text(points: int) -> str:
    """A thread's place on its track: "progress 3/10, flashpoint at 5", "progress 10/10: ready to settle"."""
    from ..oracle.state import FLASHPOINTS, TRACK

    if points >= TRACK:
        return f"progress {TRACK}/{TRACK}: ready to settle"
    ahead = next(f for f in FLASHPOINTS if f > points)
    return f"progress {points}/{TRACK}, " + ("the end" if ahead == TRACK else "flashpoint") + f" at {ahead}"


def _stop(text: str) -> str:
    """The text as a sentence's end: a full stop added unless it ends in one already (or in ? or !)."""
    return text if text.endswith((".", "?", "!")) else text + "."


def tension_line(e) -> str:
    """The oracle's tension moving, said as the oracle's and not the scene's: "The tension eases" printed just before
    the dead burst through the door read as the story contradicting itself (a new player's run of Kaldskard)."""
    rose = e["after"] > e["before"]
    return (f"The oracle's tension {'rises' if rose else 'falls'} to {e['after']} of 9: its surprises come "
            f"{'more' if rose else 'less'} often.")


def list_weight(kind: str, e) -> str:
    """A thread or a name written on its list again: "Nora Dahl now counts ×2 on the list of NPCs."."""
    what = e.get("text") if kind == "threads" else e.get("name")
    return f"{what} now counts \u00d7{e.get('weight')} on the list of {kind}."


def flashpoints(step, close: str | None = None, *, settled: bool = False) -> str:
    """What reaching a flashpoint (or the end of the track) means, after a thread has moved on; ``close``
    is the command that closes the thread once the story has settled it; ``settled``: the same command closed it,
    so no advice to close it (a review: "then close it." above "Closed thread: …")."""
    out = ""
    track = step.get("track", 10)
    for point in step.get("flashpoints") or ():
        if point >= track and settled:
            out += " The end of the track: the thread is settled."
        elif point >= track:
            then = f": {close}" if close else ""
            out += (" The end of the track: the thread is ready to be settled. Play the scene that settles it,"
                    f" then close it{then}.")
        else:
            out += (f" Flashpoint ({point} of {track}): the thread comes to a head. In this scene or the next,"
                    " something decisive happens on it: a confrontation, a revelation or a loss.")
    return out


def _closing(e, close: str | None) -> str | None:
    return close or (f"threads close {e['number']}" if e.get("number") else None)


def thread_progress(e, close: str | None = None, *, settled: bool = False) -> str:
    """Points added to a thread's track, and any flashpoint reached (``close``: as :func:`flashpoints`;
    by default the in-game command, by the thread's number)."""
    gained = int(e["after"]) - int(e["before"])
    return (f"Progress on \u201c{e['thread']}\u201d: {e['before']} \u2192 {e['after']} of {e.get('track', 10)}"
            f" (+{gained}).{flashpoints(e, _closing(e, close), settled=settled)}")


def discovery(e, close: str | None = None, *, settled: bool = False) -> str:
    """A discovery check: the chance and the roll, what the answer means, the words to read, the track."""
    step = e.get("progress") or {}
    reads = f" ({e['reads']})" if e.get("reads") else ""
    head = (f"Discovery check on \u201c{e['thread']}\u201d (progress {step.get('before', 0)} of "
            f"{step.get('track', 10)}, {e['chance']} %): rolled {two_digits(e['roll'])}: {e['answer']}{reads}.")
    words = pair(e.get("meaning"))
    if words:
        head += f" {'What is found' if e.get('found') else 'Where the lead points'}: {words}."
    hard = e.get("interpretation")
    if isinstance(hard, dict) and hard.get("text"):
        head += f" {'The price' if hard.get('table') == 'price' else 'The twist'}: {_stop(hard['text'])}"
    if step.get("after", 0) > step.get("before", 0):
        head += f" Progress {step['before']} \u2192 {step['after']} of {step.get('track', 10)}."
    return head + flashpoints(step, _closing(e, close), settled=settled)


#: The questions an NPC's mind answers, as ``--explain`` names them in play and in ``solo duel`` (the events and the
#: JSON keep the keys: "clever_follow_up" and "flee_line" read like the engine's own log, a GM-less table's run).
QUESTION_WORDS = {"lens": "Lens", "clever_follow_up": "Clever follow-up", "flamboyant_skill": "Flamboyant's skill",
                  "quick_action": "Quick's extra action", "luck_flip": "Luck flip", "target": "whom to strike",
                  "damage_pool": "which Pool to hit", "luck_reduce": "Luck against a blow", "push": "push on",
                  "exit_offer": "an exit offered"}
#: What pressed on an NPC's nerve at a morale check (solo.minds.morale.SEVERITY).
TRIGGER_WORDS = {"half": "below half its Pool", "flee_line": "down to where it thinks of leaving",
                 "wounded": "hurt again while shaken", "ally_out": "an ally gone", "outnumbered": "outnumbered",
                 "hopeless": "under 10 % to win", "winning": "the fight turning its way"}


def decision_words(e, frame: Mapping[str, Any], side: str | None = None) -> str:
    """What an NPC's mind chose (an ``npc_decision``), as ``--explain`` shows it: a way out by the name its menu
    gives it ("walk away" from an argument, not the engine's ``flee``), from the conflict's ``frame`` (the flags
    ``conflict_start`` carries, and the chooser's part in a pursuit by its ``side``: a tracker walks away, a review);
    anything else by its key."""
    from ..rules.conflict import EXIT_WORDS, exit_key
    from ..rules.fiction import HUNTERS
    from ..rules.outcomes import FLEE, SURRENDER

    choice = str(e["choice"])
    if choice not in (FLEE, SURRENDER):
        return choice
    hunts = side is not None and (frame.get("parts") or {}).get(side) in HUNTERS
    way = exit_key(choice, static=bool(frame.get("static")), social=bool(frame.get("social")),
                   physical=bool(frame.get("physical")), hunts=hunts)
    return EXIT_WORDS[way][0].lower()


def question_words(key: str) -> str:
    """A question an NPC's mind answered, in words: "Clever follow-up" for ``clever_follow_up``."""
    return QUESTION_WORDS.get(key, key.replace("_", " "))


def morale_clue_shown(e) -> bool:
    """Whether an ``npc_morale`` event's clue is told, on the screen and in the journal alike: a change of nerve with
    a clue, unless the nerve broke, whose ``npc_break`` follows with its own ("has lost her nerve" stood in the
    tutorial's journal, never on its screen: a new player's run)."""
    return e.get("after") != e.get("before") and bool(e.get("clue")) and e.get("after") != "broken"


def clue(e, names, pronouns) -> str:
    """An NPC's body language ("gives ground, eyes on the way out") as a sentence about it."""
    from ..narration.cast import spoken_name
    from ..rules.character import pronoun_forms

    full = names.get(e["actor"], e["actor"])
    # by the name the story's lines call it ("Signe", not "Signe Falk" between "Signe sets out" and "Signe stumbles":
    # a reading of narrated conflicts), unless another the game has named goes by that first name too
    short = spoken_name(full)
    if short != full and any(other != full and spoken_name(other) == short for other in names.values()):
        short = full
    who = upper_first(short)  # "The yard dog falters", on the page too
    forms = pronoun_forms(pronouns.get(e["actor"], "it"))
    text = re.sub(r"\bits\b", forms["their"], e["clue"])
    return f"{who} {text}."


def scene_setup(e, shell: str | None = None, *, kept: bool = True) -> str:
    """How the oracle set up a scene: as expected, altered (and how), or interrupted (by what). An adventure's
    scene is expected as it is written, and then nothing is said ("" ): "as you expected" there read as if the
    player had been asked, and "The oracle leaves the scene as written" at every ford as a line of the engine's
    own log (a new player's run). ``shell`` and ``kept``: as for :func:`event_follow_up`."""
    kind = e.get("kind")
    if kind == "altered":
        alt = (e.get("alteration") or {}).get("text", "something has changed")
        words = pair(e.get("meaning"))
        hint = f" (meaning: {words})" if words else ""
        return f"The scene is altered: {alt}{hint}."
    if kind == "interrupted":
        ev = e.get("event") or {}
        words = pair(ev.get("meaning"))
        hint = f" (meaning: {words})" if words else ""
        follow = event_follow_up(ev, shell, kept=kept)
        return f"The scene is interrupted: {ev.get('text', 'something happens')}{hint}.{follow}"
    return "" if e.get("written") else "The scene begins as you expected."


def upper_first(text: str) -> str:
    """``text`` with its first letter upper-case, to open a sentence ("a big man …" -> "A big man …")."""
    return text[:1].upper() + text[1:]


def npc_met(e) -> str:
    """Meeting someone: "You meet Viggo Hovland, a soldier (lying, irritating; wants to help others). The
    reaction: unfriendly. Tied to “Find out who hired the thief”: Negotiate / Authority." The thread they are tied
    to is said once, at the end, though their role as the NPC list keeps it names it too."""
    role = str(e.get("role") or "")
    if e.get("tied_to"):
        role = role.split("; tied to \u201c", 1)[0]
    role = f", {with_article(role)}" if role else ""
    block = e.get("code_block") or {}
    traits = [t.get("name", t) if isinstance(t, dict) else str(t) for t in block.get("personality", [])]
    traits += [t.get("name", t) if isinstance(t, dict) else str(t) for t in block.get("dark_triad", [])]
    motive = block.get("motivation") or []
    drives = motive_words(motive if isinstance(motive, list) else [str(motive)])
    about = "; ".join(part for part in (trait_words(traits), drives) if part)
    about = f" ({about})" if about else ""
    twist = e.get("twist")
    extra = f" A twist: {twist['action']} / {twist['subject']}." if twist else ""
    tie = e.get("tie")
    if e.get("tied_to"):
        pair = f": {tie['action']} / {tie['subject']}" if tie else ""
        extra += f" Tied to \u201c{e['tied_to']}\u201d{pair}."
    met = "You meet {name} again" if e.get("again") else "You meet {name}"
    if e.get("contact"):  # a Luck Contact: an old acquaintance in the story's words, not a table's "The reaction: …"
        # in a party, the one who spent the Luck meets them ("You meet" spoke to nobody: a group's run)
        who, glad = ((f"{e['by']} meets {e['name']}", "glad of the meeting") if e.get("by")
                     else (met.format(name=e["name"]), "glad to see you"))
        return f"{who}{role}{about}, an old acquaintance, {glad} and there just when needed.{extra}"
    return f"{met.format(name=e['name'])}{role}{about}. The reaction: {e['reaction']}.{extra}"


def trait_words(traits: list[str]) -> str:
    """The personality entries as words: "moody, extroverted"; the same entry twice reads "very reserved", as
    docs/npcs.md has it (a group's run read "reserved, reserved" as a slip)."""
    words = [t.lower() for t in traits]
    if len(words) == 2 and words[0] == words[1]:
        return f"very {words[0]}"
    return ", ".join(words)


def with_article(role: str) -> str:
    """A role as it follows a name: "a soldier", "an innkeeper"; one that starts with its own article ("the
    wounded traveller, a detective") as it is."""
    from ..narration.text import article_for

    first = role.split(" ", 1)[0].lower()
    if first in ("a", "an", "the"):
        return role
    return f"{article_for(role)} {role.lower()}"


def motive_words(names: list[str]) -> str:
    """What the motivations make the NPC want, as words: "wants money and to be admired"; a motivation whose
    table gives no ``says`` is named ("driven by altruism")."""
    from ..npc.tables import codeblocks

    table = codeblocks().motivations
    wants = [table[n].says for n in names if n in table and table[n].says]
    driven = [n.lower() for n in names if n not in table or not table[n].says]
    parts = ([f"wants {' and '.join(wants)}"] if wants else []) + ([f"driven by {' and '.join(driven)}"]
                                                                   if driven else [])
    return "; ".join(parts)


def exit_words(e, static: bool, plural: bool = False) -> str:
    """How someone leaves a conflict, as its menu offered it: the exit event names the way (``way``, a key of
    ``rules.conflict.EXIT_WORDS``: "flees", "surrenders", "gives up", and from a lock, a cliff, a man behind his desk
    or an argument "walks away"), agreeing with one named in the plural ("the dockers flee"). An event logged
    before it named it (a save from before 2026-12-07) is told as it was then."""
    from ..rules.conflict import EXIT_WORDS

    way = str(e.get("way") or "")
    if way not in EXIT_WORDS:  # as it was told then: any surrender given up, a flight walked away from or fled
        way = "give_up" if e.get("how") != "fled" else "walk_away" if static or e.get("social") else "flee"
    return EXIT_WORDS[way][2 if plural else 1]


def conflict_roles(e) -> str:
    """The party's line-up for a conflict, in one sentence: who drives or takes part, who assists whom,
    who sits it out."""
    from ..narration.text import english

    parts = []
    if e.get("driver"):
        parts.append(f"{e['driver']} drives")
        others = [n for n in e.get("taking_part", []) if n != e["driver"]]
    else:
        others = list(e.get("taking_part", []))
    if others == [e.get("drafted")]:  # nobody else chose to: the last one asked was not asked, and is told why
        parts.append(f"nobody else takes part, so {others[0]} does")
    elif others:
        parts.append(f"{english().join(others)} {'takes' if len(others) == 1 else 'take'} part")
    for helper, whom in (e.get("assists") or {}).items():
        parts.append(f"{helper} assists {whom}")
    out = list(e.get("sitting_out", []))
    if out:  # in a vehicle the menu offered "Ride along", and says so here (a group's run read "sits it out")
        one = len(out) == 1
        doing = (f"{'rides' if one else 'ride'} along" if e.get("driver")
                 else f"{'sits' if one else 'sit'} it out")
        parts.append(f"{english().join(out)} {doing}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""


def session_end(e) -> str:
    rolls = "an improvement roll" if e["earned"] == 1 else f"{e['earned']} improvement rolls"
    healed = e.get("healed") or {}
    pools = ""
    if healed:
        from ..story.format.text import and_list

        pools = (f", and {and_list(list(healed))} {'is' if len(healed) == 1 else 'are'} whole again before the next "
                 "adventure")
    # "Luck is back to 2" of one who never spent any read as if some had been lost
    refilled = e.get("luck_before") is None or e["luck_before"] < e["luck"]
    luck = f"Luck is back to {e['luck']}" if refilled else f"Luck stays at {e['luck']}"
    return f"{e['actor']} earns {rolls}; {luck}{pools}."


def improvement(e) -> str:
    if e.get("kept"):
        kept = "an improvement roll" if e["kept"] == 1 else f"{e['kept']} improvement rolls"
        return f"{e['actor']} keeps {kept} unspent."  # (carried on only where the character is written back)
    if e.get("before") is None:
        gained = f" ({e['after']} %)" if e.get("after") is not None else ""
        return f"{e['actor']} gains {e['skill']}{gained}."
    rolled = f" ({e['dice']}: +{e['after'] - e['before']})" if e.get("dice") else ""  # the roll, not only its sum
    return f"{e['actor']}: {e['skill']} {e['before']} % -> {e['after']} %{rolled}."


def request(e) -> str:
    if e.get("actor") is None:
        return f"Nobody has #{e['tag']} to ask."
    how = "granted at once" if e.get("roll") is None else (
        f"{e['chance']} %: rolled {two_digits(e['roll'])}, {'granted' if e['granted'] else 'refused'}")
    return f"{e['actor']} calls on #{e['tag']}: {how}."


def treatment(e) -> str:
    if e.get("refused"):
        return f"No more treatment today: {e['refused']}."
    return f"{e['actor']}'s {e['pool']} is treated: +{e['gained']} ({e['before']} -> {e['after']})."


def declared_before(question) -> str:
    """What the others declared this round before the one now choosing a Lens, as a line above the menu ("" if
    nobody did): the rules let a later declarer know it (docs/rules.md §5.1), and the menu's odds are worked out
    against it, so the player is shown it. It was told only after the choice, with the round's rolls, while
    the menu's chances already rested on it (Rune's Aggressive read as '43 % undecided' against the scene menu's
    44 %: new-user run)."""
    from ..rules.lenses import CLEVER_BONUS, LENS_TABLE

    view, me = question.context.get("conflict"), question.context.get("participant")
    earlier = question.context.get("earlier") or {}
    if view is None or me is None or not earlier:
        return ""
    said = []
    for pid in earlier:
        p, decl = view.by_id.get(pid), view.declared(pid)
        if p is None or p is me or decl is None or decl.exit or p.is_obstacle or not p.uses_lenses:
            continue
        if decl.clever_choice is not None:  # the round after Clever: the edge it took, not "no Lens"
            lens = f"Clever's edge: +{CLEVER_BONUS} % to the roll" if decl.clever_choice == "skill" else \
                "Clever's edge: damage rolled twice"
        else:
            lens = LENS_TABLE[decl.lens].name if decl.lens in LENS_TABLE and decl.lens != "none" else "no Lens"
        said.append(f"{p.name}, {lens}")
    return f"Declared before you this round: {'; '.join(said)}." if said else ""


def wield_line(e) -> str:
    """A PC given a weapon by the story (the ``wield`` event): "Espen Lind now fights with an axe."; one who had one
    keeps it (``kept``): "Ingrid Haug keeps the axe already in hand."."""
    if e.get("kept"):
        return f"{e['actor']} keeps the {weapon_name(e['weapon'])} already in hand."
    return f"{e['actor']} now fights with {a_weapon(e['weapon'])}."


def a_weapon(key: str) -> str:
    """A weapon of the gear table as a sentence names it: "an axe", "a short sword"."""
    from ..narration.text import with_article_if_one

    return with_article_if_one(weapon_name(key))


def weapon_name(key: str) -> str:
    """A weapon of the gear table as prose names it, without an article: "axe", "short sword"."""
    from ..rules.rulebook import rules

    weapon = rules().weapons.get(key)
    return (weapon.name if weapon is not None else str(key).replace("_", " ")).lower()
