"""A proof told: the JSON ``solo prove --json`` prints, and the text a person reads.

Adventure text (choice words, scene titles) reaches the terminal only
through :func:`rich.markup.escape` or as plain text, never as markup.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...story.play.chances import SAMPLED_CONFLICTS, SAMPLED_STYLES
from . import walkthrough as prove_walkthrough

if TYPE_CHECKING:
    from .search import Proof
    from .walkthrough import Walkthrough


#: ``solo prove``'s exit statuses (docs/proving.md): a CI gates on them.
PROVED, FINDINGS, USAGE, INCOMPLETE = 0, 1, 2, 3


#: The folder beside a walkthrough's scripts its replays save their games in: never the GM's own saves (nor "saves",
#: which with --scripts . would be that very folder).
REPLAY_SAVES = "replays"


def replay_command(spec: str, pcs: list[str] | tuple[str, ...], seed: int | None, script: str) -> str:
    """How to play a walkthrough or a soft-lock's way in: the report's line and a written script's first line say it
    alike, the adventure as it was named to prove (a file or folder by its whole path) and the script where prove
    wrote it (whole), each quoted where a shell would split it. The program as a new shell finds it
    (:func:`~solo.paths.solo_program`: a venv's whole path), and a written script's game saved in a ``replays``
    folder beside it, not among the GM's own games (a GM's run: the replay left ``saves/harrowby-2.json`` next to
    real games). ``pcs`` as the replay must name them: a roster character by its file, since ``--saves`` moves the
    roster it would be looked up in."""
    import os
    import shlex

    from ...paths import solo_program

    if script != "FILE":
        script = os.path.abspath(script)  # whole, as every path a hint prints: a new shell opens elsewhere
    words = ["play", spec, *(w for p in pcs for w in ("--pc", p)), "--seed", str(seed), "--script", script]
    if script != "FILE":
        words += ["--saves", str(Path(script).parent / REPLAY_SAVES)]
    return " ".join([solo_program(), *(w if w == "FILE" else shlex.quote(w) for w in words)])


def exit_code(proof: Proof) -> int:
    """0: every ending reachable, no soft-lock, every choice offered, and the search complete; 1: a finding
    (a soft-lock, which is claimed only where everything after it was searched, or after a complete search an
    ending not reached or a choice never offered); 3: the search stopped at its limit with no soft-lock found.
    (2 is a usage error, raised before any search.)"""
    if proof.soft_locks:
        return FINDINGS
    if not proof.complete:
        return INCOMPLETE
    if findings(proof) or not all(found["reachable"] for found in proof.endings.values()):
        return FINDINGS
    return PROVED


def findings(proof: Proof) -> list[dict[str, Any]]:
    """The choices and scenes never offered that are findings: not those whose condition asks for another
    party size than the one searched."""
    return [item for item in proof.unreachable if not item.get("party_size")]


def to_json(proof: Proof, walks: dict[str, Walkthrough | None]) -> dict[str, Any]:
    """The keys the issue fixed (endings, soft_locks, unreachable_choices, states, complete), the states
    before the reduction of docs/proving.md, the seconds it all took, and the exit status."""
    endings = {}
    for name, found in proof.endings.items():
        walk = walks.get(name)
        endings[name] = {
            "reachable": found["reachable"],
            "choices": found["steps"],
            "shortest": walk.answers if walk is not None else [],
            "seed": walk.seed if walk is not None else None,
            "best_chance": found["best_chance"],  # unrounded: 0.9999996 is not the certainty 1.0 would claim
            "bound": chance_bound(found, complete=proof.complete),
            "estimated": found["estimated"],
            "error": found.get("error"),  # an estimate's sampling error, in standard errors summed (else null)
            "fights_again": found["fights_again"],
            "one_fight": found["one_fight"],
        }
    return {
        "endings": endings,
        "soft_locks": proof.soft_locks,
        "unreachable_choices": proof.unreachable,
        "no_contests": proof.unfought,
        "estimated_conflicts": proof.estimated_at,
        "states": len(proof.nodes),  # the states found (the key): states_found, kept for scripts reading it
        "states_found": len(proof.nodes),
        "states_searched": len(proof.nodes) - proof.frontier,  # all of those found, when the search is complete
        "states_unreduced": max(proof.unreduced, len(proof.nodes)),
        "complete": proof.complete,
        "seconds": round(proof.seconds + proof.walk_seconds, 2),
        "exit": exit_code(proof),
    }


def at_least(p: float) -> str:
    """A lower bound as a person reads it: "at least 23.2 %", but "> 99.9 %" and "100 %" as they are, which say it
    already (a GM's run read "best play reaches it > 99.9 % or more")."""
    shown = percent(p)
    return shown if shown.startswith((">", "100")) else f"at least {shown}"


def percent(p: float) -> str:
    """A chance as a person reads it: never "100.0 %" for what is not certain, nor "0.0 %" for what can happen."""
    if p <= 0:
        return "0 %"
    if p >= 1:
        return "100 %"
    if p > 0.999:
        return "> 99.9 %"
    return f"{p * 100:.1f} %" if p >= 0.001 else "< 0.1 %"


def counted(n: int, noun: str) -> str:
    """"1 state", "3 states": a report reads as sentences, not as "state(s)"."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


#: What a best-play chance is (``bound`` in JSON): None, the chance itself (worked out, or estimated where
#: ``estimated`` says so); "lower", the search stopped and states it did not search can only add to it; "upper",
#: best play fights more than once, each fight priced from Pools no fight has spent; "neither", both at once.
BOUNDS = (None, "lower", "upper", "neither")


def chance_bound(found: dict[str, Any], *, complete: bool) -> str | None:
    """Which of :data:`BOUNDS` an ending's best-play chance is."""
    if found["fights_again"]:
        return "upper" if complete else "neither"
    return None if complete or found["best_chance"] >= 1 else "lower"  # nothing can add to a certainty


def needs(choice: dict[str, Any]) -> str:
    """What keeps a choice off the menu, in the author's words: ", which needs has("rope")", ", taken already
    (once = true)" (only where it was: a once-only choice shut by its ``if`` alone was said taken), or both."""
    said = f", which needs {choice['if']}" if choice.get("if") else ""
    return said + (", taken already (once = true)" if choice.get("taken") else "")


#: Why a chance is a lower bound, in the report's words.
STOPPED = "the search stopped: the states it did not search can only add to it"


def chance_words(p: float, *, estimated: bool = False, bound: str | None = None, error: float | None = None) -> str:
    """A best-play chance for the report; one that rests on conflicts played, not worked out, is never read as a
    certainty: "about 97.5 % (estimated: …)", or "> 99.9 % (estimated: …)" where the bound says it already. A lower
    bound (a search that stopped) says so: "at least 30.0 % (the search stopped: …)", "about 40.4 % or more
    (estimated: …; the search stopped: …)", and an upper bound too ("at most 100 %", the line under it saying
    why); a certainty needs no mark. ``error``: how far an estimate may stray for its conflicts played
    (:func:`~solo.sim.prove.judge._sampling_error`), said with the estimate's reason, so that it never reads as a
    range of a bound or a threshold: "about 6.5 % (estimated, ± 1.7: …)", "> 99.9 % (estimated, ± 0.2: …)". A
    margin of half the scale or more, or one that would reach past both 0 and 100 %, is said as too wide, not as
    "± 100.0"."""
    chance = percent(p)
    why = []
    if estimated:
        if chance in ("100 %", "0 %"):  # every play won (or none did): no certainty, "about 100 %" read as one (an
            chance = f"nearly {chance}"  # audit of the numbers shown: the tutorial's arrival, lost in 0.4 % of fights)
        elif chance[0].isdigit():
            chance = f"about {chance}"
        # an estimate whose way moves by less than 0.05 points is still said with its margin (a GM's evening: "about
        # 83.6 % at most (estimated: …)" with "error": 0.0 had none)
        spread = "" if error is None else f", ± {error * 100:.1f}" if error >= 0.0005 else ", ± < 0.1"
        if error and (error >= 0.5 or (p - error <= 0 and p + error >= 1)):  # "± 100.0" bounds nothing (a GM's run)
            spread = ", by too wide a margin to say how far"
        why.append(f"estimated{spread}: it rests on conflicts played, not worked out")
    if bound == "lower" and p < 1:
        if chance == "nearly 0 %":  # no play won in the states searched: "nearly 0 % or more" says little (a review)
            chance = "nearly 0 % in the states searched"
        else:
            # "about 40.4 % or more"; "> 99.9 %" says it already ("> 99.9 % or more": a review)
            chance = (f"at least {chance}" if chance[0].isdigit() else chance if chance.startswith(">")
                      else f"{chance} or more")
        why.append(STOPPED)
    if bound == "upper":  # said on the chance itself: "best-play chance 100 %" read as a certainty (a new GM's run)
        # (a bound of nothing needs no "at most": "nearly 0 %" stays as it is, "nearly 0 % at most" read oddly)
        if chance.startswith(("> ", "< ", "nearly 100")):  # "at most > 99.9 %" says nothing: the bound's own figure
            chance = "at most 0.1 %" if chance[0] == "<" else "at most 100 %"
        elif chance != "nearly 0 %":
            chance = f"at most {chance}" if chance[0].isdigit() else f"{chance} at most"  # "about 99.2 % at most"
    if bound == "neither":  # a bare "100 %" read as a certainty here too (the review); the line under it says why
        why.append("no bound either way")
    return f"{chance} ({'; '.join(why)})" if why else chance


#: An action's outcome as "leads there on …" says it (any other: "the outcome 'name'").
_ON = {"success": "a success", "exceptional_success": "an exceptional success", "failure": "a failure",
       "exceptional_failure": "an exceptional failure", "win": "a win", "lose": "a loss", "won": "a win",
       "lost": "a loss", "stalemate": "a stalemate", "yes": "a yes", "no": "a no", "opponent_fled": "the NPC fleeing",
       "opponent_surrendered": "the NPC giving up", "fled": "fleeing", "surrendered": "giving up",
       "comae": "a fall into comae", "granted": "the request granted", "refused": "the request refused"}
#: A roll's every outcome: a step taken on any of them is taken whatever the dice say.
_ANY_ROLL = frozenset({"success", "exceptional_success", "failure", "exceptional_failure"})


def outcome_words(keys: str) -> str:
    """A step's outcomes ("failure or exceptional_failure", as the JSON keeps them) as the report says them: "on a
    failure or an exceptional failure", or "whatever the dice" where every outcome of a roll leads the same way."""
    named = keys.split(" or ")
    if _ANY_ROLL <= set(named):
        return "whatever the dice"
    return " or ".join(_ON.get(k, k.replace("_", " ")) for k in named)


#: At most this many ways are named under an ending not reached.
SHOWN_BLOCKED = 3


def blocked_ways(proof: Proof, ending: str) -> list[str]:
    """Why an ending was not reached, where the dice say it: each choice met in the search whose action leads
    towards the ending on an outcome it never had a chance of there (a roll the party cannot make: a GM's cliff
    at "Move 30 · Very Hard -40 · situation -10" read only "NOT REACHED"). Nothing where the way is shut by
    conditions instead."""
    from ...story.format.adventure import FALLBACK
    from .reads import scenes_ahead
    from .search import ANY_OUTCOME, words

    adv = proof.adventure
    ahead = scenes_ahead(adv)
    out: list[str] = []
    for scene in adv.scenes.values():
        for choice in scene.choices:
            if choice.action is None or (scene.id, choice.key) not in proof.offered:
                continue
            for escalated, action in ((False, choice.action), (True, choice.action.escalation)):
                seen = proof.outcomes.get((scene.id, choice.key, escalated))
                if action is None or seen is None or ANY_OUTCOME in seen:
                    continue
                for key, branch in action.branches.items():
                    targets = [t for t in (branch.goto, *(r.goto for r in branch.routes)) if t is not None]
                    if not any(ending in ahead.get(t, ()) for t in targets):
                        continue
                    taking = {key} | {o for o, f in FALLBACK.items() if f == key and o not in action.branches}
                    if taking & seen:
                        continue
                    how = _ON.get(key, f"the outcome {key!r}")
                    after = " after an escalation" if escalated else ""
                    where = "for this party" if proof.complete else "in the states searched"
                    said = words(choice.text, proof.adventure)
                    out.append(f"{scene.id} choice {choice.number} ({said}) leads there on {how}"
                               f"{after}, which it never has a chance of {where}")
    if len(out) > SHOWN_BLOCKED:
        out = out[:SHOWN_BLOCKED] + [f"and {counted(len(out) - SHOWN_BLOCKED, 'more way')} of the same kind"]
    return out


def text_lines(proof: Proof, walks: dict[str, Walkthrough | None], *, seeds: int, pcs: list[str],
               spec: str | None = None, scripts: dict[str, str] | None = None) -> list[str]:
    """The report a person reads, a line each (plain text: the caller prints it without markup).

    ``scripts`` names the file each walkthrough was written to; without it the answers are listed.
    """
    adv = proof.adventure
    took = proof.seconds + proof.walk_seconds
    merged = max(proof.unreduced, len(proof.nodes))
    searched = len(proof.nodes) - proof.frontier
    merging = (f"{merged:,} before merging states that differ only in what no later scene reads"
               if merged > len(proof.nodes) else "")
    out = [f"{adv.title}: " + (f"{counted(searched, 'state')} searched" + (f" ({merging})" if merging else "")
                               if proof.complete else
                               f"stopped at the state limit: {counted(searched, 'state')} searched of "
                               f"{len(proof.nodes):,} found" + (f" ({merging})" if merging else ""))
           + f"; {took:.1f} s in all (the search {proof.seconds:.1f} s, the walkthroughs {proof.walk_seconds:.1f} s)"]
    if not proof.complete:
        waiting = Counter(n.scene for n in proof.nodes if n.moves is None)
        where = ", ".join(f"{scene} ({count:,})" for scene, count in waiting.most_common(3))
        # every state found searched, yet stopped: some outcomes led to states the limit left no room for
        unsearched = (f"{counted(proof.frontier, 'state')} found but not searched ("
                      f"{'most of them ' if proof.frontier > 1 else ''}in {where})"
                      if proof.frontier else "the states some outcomes lead to, which the limit left no room to add")
        out.append(f"  Not explored: {unsearched}, and what follows them. An ending not reached may still be "
                   "reachable; no soft-lock is claimed there.")
    out.append("")
    out.append("Endings")
    for name, found in proof.endings.items():
        scene = adv.scenes[name]
        title = f"{name} ({adv.as_listed(scene.title)})"
        if not found["reachable"]:
            out.append(f"  {title}: NOT REACHED" + ("" if proof.complete else " (within the states searched)"))
            out += [f"    {line}" for line in blocked_ways(proof, name)]
            continue
        steps = found["steps"]
        bound = chance_bound(found, complete=proof.complete)
        chance = chance_words(found["best_chance"], estimated=found["estimated"], bound=bound,
                              error=found.get("error"))
        out.append(f"  {title}: reachable in {counted(steps, 'story choice')}; best-play chance {chance}")
        once = found["one_fight"]
        if bound == "upper":
            out.append("    an upper bound: best play fights more than one conflict on the way, and the search prices "
                       "each from the Pools the party had before the first (it carries no conflict's damage)")
            if once is not None and once <= 0.0:  # 0 % is no lower bound of play worth the words (a GM's evening
                # read "fighting one conflict at most, best play reaches it 0 %" as unreachable): fighting once, no
                # way gets there (it fights more, or its one fight cannot be won)
                out.append("    fighting one conflict at most, best play never gets there: the best chance lies "
                           "between none and this bound")
            elif once is not None:  # a chance play has: its one fight is priced from the Pools the party has
                # an estimate where the chance above is one (its conflicts played): said so by chance_words, as
                # every estimate is, never a bare exact-looking number under an "about … ± 0.3" (a GM's run)
                shown = chance_words(once, estimated=found["estimated"])
                out.append(f"    fighting one conflict at most, best play reaches it {shown}; the best chance "
                           "lies between the two")
        elif bound == "neither":
            out.append("    no bound either way: best play fights more than one conflict on the way, each priced from "
                       "the Pools the party had before the first (real play may do worse), and the search stopped "
                       "(the states it did not search may do better); search further (--max-states) for an upper "
                       "bound")
            if once is not None and once > 0.0:
                shown = chance_words(once, estimated=True, bound="lower") if found["estimated"] else at_least(once)
                out.append(f"    fighting one conflict at most, best play reaches it {shown}")
            elif once is not None:
                out.append("    fighting one conflict at most, best play has not got there in the states searched")
        walk = walks.get(name)
        if walk is not None and walk.too_long:
            most = prove_walkthrough.MAX_ANSWERS
            out.append(f"    no walkthrough: the way there takes more than {most} answers with no dice on it "
                       "(another seed would not shorten it)")
            continue
        if walk is None:
            out.append("    walkthrough not searched (--seeds 0)" if seeds == 0 else
                       f"    no seed of the {seeds} tried played the way there: no replayable walkthrough")
            continue
        how = "" if walk.shortest else \
            f" (the shortest way needs luckier dice: this one takes {counted(walk.choices, 'story choice')})"
        script = (scripts or {}).get(name)
        command = replay_command(spec or adv.id, pcs, walk.seed, script or "FILE")
        out.append(f"    walkthrough: {command}{how}")
        if script is None:
            out.append(f"    FILE holds these {len(walk.answers)} answers, one a line, every prompt's (--scripts DIR "
                       f"writes it): {' '.join(walk.answers)}")
    out.append("")
    if proof.soft_locks:
        out.append(f"Soft-locks: {counted(proof.soft_lock_states, 'state')} from which no ending can be reached "
                   f"({counted(len(proof.soft_lock_groups), 'way')} of being trapped)")
        for lock in proof.soft_locks:
            ways = f"; {lock['entrances']} states lead in this way, the shortest:" if lock["entrances"] > 1 \
                else "; the way in:"
            out.append(f"  in {lock['scene']}: {lock['why']}{ways}")
            for step in lock["path"]:
                outcome = f" [{outcome_words(step['outcome'])}]" if step["outcome"] else ""
                out.append(f"    {step['scene']}: {step['answer']}. {step['choice']}{outcome}")
            if lock["closed"]:
                shut = "; ".join(f"{c['choice']}. {c['text']}{needs(c)}"
                                 for c in lock["closed"])
                out.append(f"    there, closed: {shut}")
            if lock.get("seed") is not None:
                # a seed is found that plays into the same trap, by the same story choices, with dice of its own: a
                # GM followed "[a win]" and watched the roll lost, escalated and the argument won (the same state)
                dice = any(step["outcome"] for step in lock["path"])
                out.append(f"    replay: {replay_command(spec or adv.id, pcs, lock['seed'], 'FILE')} --partial, "
                           f"FILE holding: {' '.join(lock['script'])}"
                           + (" (its dice reach the same trap, not always by the outcomes above)" if dice else ""))
    else:
        out.append("Soft-locks: none" + ("" if proof.complete else " among the states searched to the end"))
    def listed(items: list[dict[str, Any]]) -> None:
        for item in items:
            what = f"scene {item['scene']} ({item['text']})" if item["choice"] is None else \
                f"{item['scene']} choice {item['choice']}: {item['text']}"
            out.append(f"  {item['where']}: {what}{needs(item)}")

    never = findings(proof)
    if never:
        out.append("Never offered:" if proof.complete else
                   "Not offered in the states searched (the search stopped first: each may still be offered):")
        listed(never)
    else:
        out.append("Every scene and every choice" + (" written for this party size" if proof.unreachable else "")
                   + " is offered in some reachable state.")
    if proof.unfought:
        out.append("Won with nobody to fight (every opponent already spent or gone: the branch for a win is told of "
                   "a fight nobody fought; a condition on the choice, or on the way there, can keep it off the menu):")
        for item in proof.unfought:
            out.append(f"  {item['where']}: {item['scene']} choice {item['choice']}: {item['text']} "
                       f"({counted(item['states'], 'state')})")
    other = [item for item in proof.unreachable if item.get("party_size")]
    if other:
        out.append(f"Not offered to this party of {proof.party_size}: their conditions ask for another party size "
                   "(party_size()) or for empty hands (unarmed()); search with such a party (--pc) to see them:")
        listed(other)
    if proof.exact_fights:
        moves = counted(proof.exact_fights, "move")
        out.append(f"{moves} into a conflict {'is' if proof.exact_fights == 1 else 'are'} priced exactly by the Lens "
                   "chain (one against one: an NPC's nerve, its flight or surrender in it; or an obstacle).")
    if proof.sampled:
        why = "; ".join(f"{why}: {', '.join(proof.estimated_at[why])}" if proof.estimated_at.get(why) else why
                        for why in proof.estimated_why)
        why = f" ({why})" if why else ""
        moves = counted(proof.sampled, "move")
        out.append(f"{moves} {'rests' if proof.sampled == 1 else 'rest'} on conflicts the Lens chain cannot "
                   f"hold{why}, estimated by playing each {SAMPLED_CONFLICTS} times: an ending of such a conflict "
                   f"rarer than about 1 in {SAMPLED_CONFLICTS} may be missed, and what only it leads to called never "
                   "offered.")
    if proof.styled:
        moves = counted(proof.styled, "move")
        out.append(f"{moves} {'fights' if proof.styled == 1 else 'fight'} as solo simulate's bots fight, estimated "
                   f"from {SAMPLED_STYLES} plays each.")
    return out
