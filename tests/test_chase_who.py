"""Who answers an NPC that runs, and who the chase is told of (docs/rulings.md "An NPC's exit is the PCs' to take").

Before, in Vellan (two players, Hedda and Sam, against Knut, round 6): "Hedda Myhre gives chase." → "Knut Dahl
tries to get away: 41 against 30: caught." → "Knut makes for the way out, and Sam blocks it." → "Knut seems to
decide that running is worse, and comes back at Sam." Hedda's player was asked (the first PC still in), the
narration named whom Knut last faced (Sam), and a line said Knut decided what the dice had decided.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import Answers, LoadedDice, make_char, templates_with_adventures

from solo.events import EventLog
from solo.narration import Cast, Narrator, load_templates
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character

COMBAT = conflict_type("combat")


def _knut_runs(chaser_answers: str = "chase"):
    """Hedda (first in initiative) and Sam against Knut. Round 1: Sam alone succeeds and strikes Knut. Round 2:
    Knut runs, is chased and caught (41 against Move 30), fights on; nobody succeeds."""
    hedda = make_char("Hedda", Combat=60, Move=30)
    sam = make_char("Sam", Combat=50, Move=30)
    knut = make_char("Knut", level="skilled", Combat=50, Move=30)
    knut.pronoun = "he"
    for c in (hedda, sam, knut):
        c.weapon = "short_sword"
    pcs = {name: Answers(lens="none", exit_offer=chaser_answers, luck_flip="no", luck_reduce="no")
           for name in ("Hedda", "Sam")}
    ps = [from_character(hedda, "a", COMBAT, decider=pcs["Hedda"]),
          from_character(sam, "a", COMBAT, decider=pcs["Sam"]),
          from_character(knut, "b", COMBAT, decider=Answers(lens=["none", "flee", "none"]))]
    log = EventLog()
    # round 1: Hedda 90, Sam 10, Knut 95, Sam's blow 2; round 2: Knut's get-away 41, then 99 99 99
    dice = LoadedDice([90, 10, 95, 2, 41, 99, 99, 99])
    conflict = Conflict(COMBAT, ps, dice, sink=log, round_limit=2)
    conflict.run()
    return log.events, pcs


def test_the_pc_that_knut_last_fought_is_asked_and_gives_chase():
    events, pcs = _knut_runs()
    offer = next(e for e in events if e.kind == "exit_offer")
    assert offer["asked"] == "Sam"
    assert not any(q.kind == "exit_offer" for q in pcs["Hedda"].asked)
    answer = next(e for e in events if e.kind == "exit_answer")
    assert (answer["actor"], answer["answer"]) == ("Sam", "chase")
    attempt = next(e for e in events if e.kind == "leave_attempt")
    assert not attempt["success"]


def test_a_caught_runner_is_told_caught_by_the_one_who_chased_and_not_deciding_to_stay():
    """The narration's side: whoever chased is named (here the log says Hedda chased, as the old asking had it),
    and after the dice caught it no line tells of the NPC deciding that running is worse."""
    events, _ = _knut_runs()
    for e in events:
        if e.kind in ("exit_offer",):
            e.data["asked"] = "Hedda"
        if e.kind == "exit_answer":
            e.data["actor"] = "Hedda"
    said: list[tuple[str, str | None, str | None]] = []
    real = Narrator.say

    def spy(self, cast, event, actor, target=None, *args, **kwargs):
        line = real(self, cast, event, actor, target, *args, **kwargs)
        said.append((event, getattr(target, "id", None), line))
        return line

    for seed in range(12):
        said.clear()
        narrator = Narrator(load_templates(), random.Random(seed))
        narrator.say = spy.__get__(narrator)  # type: ignore[method-assign]
        cast = Cast({"Hedda": {"pronoun": "she"}, "Sam": {"pronoun": "he"}, "Knut": {"pronoun": "he"}})
        lines = []
        for e in events:
            if e.kind == "conflict_start":
                cast.begin(e.data)
            if e.kind == "exit_offer":
                cast.persons["Knut"].signalled = True  # its body language had said "run" (a fearful Pool clue)
            lines += [t for t in narrator.narrate(e, cast) if t]
        failed = [(target, line) for event, target, line in said if event == "leave_failed"]
        assert failed and all(target == "Hedda" for target, _ in failed), failed
        assert all("Sam" not in line for _, line in failed), failed
        assert not any(event == "steadies" for event, _, _ in said), said


def test_a_runner_who_outran_the_one_who_chased_is_not_told_let_go():
    """Before (a fiction audit): "Espen Lind gives chase." … "Lisbet tries to get away: 34 against 50: away." …
    "Espen watches Lisbet go, and lets her run." The end of a flight from someone who gave chase is told as one
    (the fact ``chased``); a runner nobody chased may still be let go."""
    from solo.narration import narrate_events

    def ends(answer: str) -> set[str]:
        hedda, sam = make_char("Hedda", Combat=60, Move=30), make_char("Sam", Combat=50, Move=30)
        knut = make_char("Knut", level="skilled", Combat=50, Move=30)
        knut.pronoun = "he"
        pcs = [from_character(c, "a", COMBAT, decider=Answers(lens="none", exit_offer=answer, luck_flip="no",
                                                               luck_reduce="no")) for c in (hedda, sam)]
        ps = [*pcs, from_character(knut, "b", COMBAT, decider=Answers(lens=["none", "flee"]))]
        log = EventLog()
        # round 1: Hedda 90, Sam 10, Knut 95, Sam's blow 2; round 2: Knut's get-away 12 against Move 30: away
        Conflict(COMBAT, ps, LoadedDice([90, 10, 95, 2, 12]), sink=log, round_limit=3).run()
        assert log.events[-1]["outcome"] == "opponent_fled"
        told = set()
        for seed in range(25):
            told |= {line for p in narrate_events(log.events, Narrator(load_templates(), random.Random(seed)))
                     for line in p.lines}
        return told

    chased = " ".join(ends("chase"))
    assert "lets him run" not in chased and "does not chase" not in chased and "lets Knut go" not in chased
    assert "faster" in chased or "outruns" in chased
    let_go = " ".join(ends("let_go"))
    assert "lets him run" in let_go or "does not chase" in let_go or "lets Knut go" in let_go


class _Runs:
    """Keeps its Lenses in order (the last for ever after), answers an NPC's exit from a list, says no to Luck, and
    takes the first option of anything else (whom to strike)."""

    def __init__(self, lenses: list[str], exits: tuple[str, ...] = ()):
        self.lenses, self.exits = list(lenses), list(exits)

    def decide(self, question):
        keys = [o.key for o in question.options]
        if question.kind == "lens":
            want = self.lenses.pop(0) if len(self.lenses) > 1 else self.lenses[0]
            return want if want in keys else keys[0]
        if question.kind == "exit_offer":
            return self.exits.pop(0)
        return "no" if question.kind.startswith("luck") else keys[0]


def test_of_two_who_ran_the_one_chased_is_told_outrunning_the_one_who_chased_it():
    """Before (a hot-seat group): Ola and Knut both ran in round 2; Hedda chased Ola, who got away, and let Knut go.
    The closing said "Hedda's party gives chase, but Knut's side is faster, and gone", a chase of both by all."""
    from solo.narration import narrate_events

    hedda, sam = make_char("Hedda", Combat=60, Move=30), make_char("Sam", Combat=50, Move=30)
    npcs = [make_char(name, level="skilled", Combat=50, Move=30, pools=30) for name in ("Knut", "Ola")]
    for npc in npcs:
        npc.pronoun = "he"
    party = _Runs(["none"], ("chase", "let_go"))
    ps = [from_character(hedda, "a", COMBAT, decider=party), from_character(sam, "a", COMBAT, decider=party),
          *(from_character(npc, "b", COMBAT, decider=_Runs(["none", "flee"])) for npc in npcs)]
    log = EventLog()
    Conflict(COMBAT, ps, random.Random(4), sink=log, round_limit=3).run()
    answers = [(e["npc"], e["answer"]) for e in log.events if e.kind == "exit_answer"]
    assert answers == [("Ola", "chase"), ("Knut", "let_go")]
    assert [e["success"] for e in log.events if e.kind == "leave_attempt"] == [True]
    assert log.events[-1]["outcome"] == "opponent_fled"
    closings = {narrate_events(log.events, Narrator(load_templates(), random.Random(seed)))[-1].lines[-1]
                for seed in range(40)}
    told = " ".join(closings)
    assert "Hedda gives chase, but Ola is faster" in told or "Ola outruns Hedda" in told, closings
    assert "Knut" not in told and "party" not in told and "side" not in told, closings


@pytest.mark.parametrize("ctype_key", ["foot_chase", "social", "car_chase"])
def test_one_of_a_party_giving_up_is_not_told_as_the_end_while_the_others_go_on(ctype_key):
    """A fiction audit: "Oda throws up her hands: Ingrid wins." and "Sander stops running. It is over." were told
    of one of three giving up, and the others fought on. Those lines are said only of the way out that decides the
    conflict (the fact ``decided``); one against one they still may be."""
    from solo.narration import narrate_events

    ctype = conflict_type(ctype_key)

    def told(party: tuple[str, ...]) -> set[str]:
        people = [make_char(name, Move=40, Social=40, Tech=40) for name in party]
        knut = make_char("Knut", level="skilled", Move=40, Social=40, Tech=40, pools=20)
        ps = [from_character(people[0], "a", ctype, decider=_Runs(["surrender"])),
              *(from_character(c, "a", ctype, decider=_Runs(["none"])) for c in people[1:]),
              from_character(knut, "b", ctype, decider=_Runs(["none"]))]
        log = EventLog()
        Conflict(ctype, ps, random.Random(1), sink=log, round_limit=4).run()
        exits = [e["actor"] for e in log.events if e.kind == "exit"]
        assert exits == ["Hedda"] and (log.events[-1]["outcome"] == "surrendered") == (len(party) == 1)
        return {line for templates in templates_with_adventures() for seed in range(60)
                for p in narrate_events(log.events, Narrator(templates, random.Random(seed)))
                for line in p.lines if line.startswith("Hedda")}

    def claims_the_end(lines: set[str]) -> set[str]:  # the bundled lines' and Vellan's and Kaldskard's
        return {line for line in lines if re.search(r"[Ii]t is over|Knut wins|lets it end|race is over", line)}

    assert not claims_the_end(told(("Hedda", "Sam")))
    assert claims_the_end(told(("Hedda",)))  # alone, her giving up is the end, and may be told so


@pytest.mark.parametrize("ctype_key", ["social", "combat"])
def test_the_closing_is_told_of_the_last_to_leave_not_of_one_who_gave_up_before(ctype_key):
    """A fiction audit: "Nora mutters an excuse and leaves. It ends with Sander agreeing, and the clockwork clerk not
    gloating." Sander had given up rounds before; Nora's going ended it. The closing is told of the way the last of
    a side left, and of those who left so in that round."""
    from solo.narration import narrate_events

    ctype = conflict_type(ctype_key)
    hedda, sam = make_char("Hedda", Social=40, Combat=40), make_char("Sam", Social=40, Combat=40)
    knut = make_char("Knut", level="skilled", Social=40, Combat=40, pools=20)
    knut.pronoun = "he"
    ps = [from_character(hedda, "a", ctype, decider=_Runs(["none", "flee"])),
          from_character(sam, "a", ctype, decider=_Runs(["surrender"])),
          from_character(knut, "b", ctype, decider=_Runs(["none"]))]
    log = EventLog()
    Conflict(ctype, ps, random.Random(2), sink=log, round_limit=6).run()
    assert [(e["actor"], e["how"]) for e in log.events if e.kind == "exit"] == [("Sam", "surrendered"),
                                                                                  ("Hedda", "fled")]
    closings = {narrate_events(log.events, Narrator(load_templates(), random.Random(seed)))[-1].lines[-1]
                for seed in range(40)}
    assert all("Hedda" in line and "Sam" not in line for line in closings), closings


def test_the_moves_declared_for_a_round_a_runner_ends_by_getting_away_are_not_told_after_it():
    """A fiction audit: "Arne Vik tries to get away: 34 against 50: away." then "Nora goes for the weakness she
    noticed; Sander mentions a name, and watches Arne's face." Nora and Sander had declared before Arne ran, and
    his getting away ended the conflict: their moves came to nothing and are not told once he is gone. Caught,
    he is still in the round, and they are told."""
    from solo.events import Event

    def told(success: bool) -> list[list[str]]:
        narrator = Narrator(load_templates(), random.Random(3))
        cast = Cast({"Hedda": {"pronoun": "she"}, "Sam": {"pronoun": "he"}, "Knut": {"pronoun": "he"}})
        people = [{"id": n, "name": n, "side": s, "pool": 10, "pool_max": 10, "obstacle": False, "pc": s == "a"}
                  for n, s in (("Hedda", "a"), ("Sam", "a"), ("Knut", "b"))]
        events = [Event("conflict_start", {"round": 0, "type": "combat", "type_name": "Combat", "pool_name": "BODY",
                                           "participants": people}),
                  Event("round_start", {"round": 1}),
                  Event("declare", {"round": 1, "actor": "Hedda", "lens": "aggressive"}),
                  Event("declare", {"round": 1, "actor": "Sam", "lens": "cautious"}),
                  Event("exit_offer", {"round": 1, "actor": "Knut", "exit": "flee", "asked": "Hedda"}),
                  Event("exit_answer", {"round": 1, "actor": "Hedda", "npc": "Knut", "exit": "flee",
                                        "answer": "chase"}),
                  Event("leave_attempt", {"round": 1, "actor": "Knut", "target": 30, "roll": 12 if success else 80,
                                          "success": success})]
        if success:
            events += [Event("exit", {"round": 1, "actor": "Knut", "how": "fled", "decided": True}),
                       Event("conflict_end", {"round": 1, "outcome": "opponent_fled", "rounds": 1})]
        out = []
        for e in events:
            if e.kind == "conflict_start":
                cast.begin(e.data)
            out.append([line for line in narrator.narrate(e, cast) if line])
        return out

    away = told(True)
    # nothing at the get-away itself, and its exit tells only the runner ("Knut bolts …"); the closing follows
    assert away[6] == [] and away[7] and all(line.startswith("Knut") for line in away[7]), away
    caught = told(False)
    assert any(line.startswith(("Hedda", "Sam")) for line in caught[6]), caught  # still in the round: told


def test_a_run_of_rounds_closed_by_a_get_away_at_the_rounds_end_is_told_before_it():
    """A fiction audit (a sneak, three rounds nobody won): "Nora abandons the attempt and slips away. Oda backs off
    into the dark. / Nothing changes for one more round." The rounds with no result came before the ways out at the
    last one's end (Quick's get-aways), and are told before them."""
    from solo.events import Event

    narrator = Narrator(load_templates(), random.Random(2))
    cast = Cast({"Nora": {"pronoun": "she"}, "Sander": {"pronoun": "he"}, "Arne": {"pronoun": "he"}})
    people = [{"id": n, "name": n, "side": s, "pool": 10, "pool_max": 10, "obstacle": False, "pc": s == "a"}
              for n, s in (("Nora", "a"), ("Sander", "a"), ("Arne", "b"))]
    events = [Event("conflict_start", {"round": 0, "type": "combat", "type_name": "Combat", "pool_name": "BODY",
                                       "participants": people, "round_limit": 3})]
    for r in (1, 2, 3):
        events += [Event("round_start", {"round": r}),
                   *(Event("declare", {"round": r, "actor": n, "lens": "none"}) for n in ("Nora", "Sander", "Arne")),
                   Event("round_result", {"round": r, "winner": None, "tie": False})]
    events += [Event("leave_attempt", {"round": 3, "actor": "Nora", "target": 50, "roll": 8, "success": True}),
               Event("exit", {"round": 3, "actor": "Nora", "how": "fled", "decided": False}),
               Event("conflict_end", {"round": 3, "outcome": "stalemate", "rounds": 3})]
    told = []
    for e in events:
        if e.kind == "conflict_start":
            cast.begin(e.data)
        told += [line for line in narrator.narrate(e, cast) if line]
    run = next(i for i, line in enumerate(told) if "two more rounds" in line or "two rounds" in line)
    gone = next(i for i, line in enumerate(told) if line.startswith("Nora") and i > 3)
    assert run < gone, told


def test_in_a_chase_only_the_quarry_wins_a_round_by_getting_away():
    """A reading of narrated games: Espen, chasing Aron, won a round "takes the stairs three at a time and is gone".
    A line of a won round (or a great success, or a blow) in a chase that has its winner gone or vanishing is the
    quarry's, and says so (``role:quarry``); those that tell of leaving (fled, aftermath) are not round lines."""
    from solo.paths import bundled
    from solo.toml_files import load_toml

    gone = re.compile(r"\{actor\}[^.]*\b(is gone|vanishes|gets away|escapes)\b")
    checked = 0
    for name in ("foot_chase", "car_chase"):
        data = load_toml(bundled("oracles") / "narration" / f"{name}.toml")[name]
        for event in ("round_won", "exceptional_success", "damage_light", "damage_heavy"):
            for lens, lines in (data.get(event) or {}).items():
                for line in lines:
                    if gone.search(line):
                        checked += 1
                        assert "role:quarry" in line.split("]")[0], (name, event, lens, line)
    assert checked >= 2
