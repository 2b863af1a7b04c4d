"""The disposition on the PCs' rolls in a social conflict comes from the first NPC still taking part
(docs/rulings.md "Disposition in social conflicts"; solo/npc/disposition.py disposition_bonus).

Before, at Kaldskard's outlaw fire (seed 7, three players): after "Sigrid Haug lets Torgny go." every later roll
still read "… · Torgny is Unfriendly -20", though the one NPC left arguing was Hallstein, who is Friendly.
"""

from __future__ import annotations

import random
from functools import partial

from conftest import make_char

from solo.events import EventLog
from solo.npc import NPC
from solo.npc.disposition import disposition_bonus
from solo.rules.conflict import Conflict
from solo.rules.conflict_types import conflict_type
from solo.rules.participants import from_character
from solo.story.play.advice import WhatIf

SOCIAL = conflict_type("social")


def _npc(name: str, disposition: str) -> NPC:
    return NPC.from_dict({
        "name": name, "level": "skilled", "pronoun": "he",
        "skills": {"Social": 5, "Move": 30, "Cunning": 5},
        "code_block": {"personality": ["Correct", "Boring"], "motivation": ["Loiter"], "disposition": disposition,
                       "event": {"topic": "Health", "sign": "negative", "example": "a bad knee"}}})


class Script:
    """Answers by question kind, in order; else the Lens "none" or the question's default."""

    def __init__(self, **answers: list[str]):
        self.answers = {k: list(v) for k, v in answers.items()}

    def decide(self, question):
        if self.answers.get(question.kind):
            return self.answers[question.kind].pop(0)
        return "none" if question.kind == "lens" else (question.default or question.options[-1].key)


def _argument(torgny_decides: Script):
    ada = from_character(make_char("Ada", pools=14, luck=0, Social=30), "a", SOCIAL,
                         decider=Script(exit_offer=["let_go"]))
    torgny = from_character(_npc("Torgny", "Unfriendly"), "b", SOCIAL, decider=torgny_decides)
    hallstein = from_character(_npc("Hallstein", "Friendly"), "b", SOCIAL, decider=Script())
    log = EventLog()
    ps = [ada, torgny, hallstein]
    conflict = Conflict(SOCIAL, ps, random.Random(4), sink=log, round_limit=2,
                        standing=partial(disposition_bonus, SOCIAL, side="a"))
    return conflict, ada, log


def test_when_the_first_npc_leaves_the_next_ones_disposition_is_on_the_roll_and_the_menu():
    conflict, ada, log = _argument(Script(lens=["flee"]))
    assert ada.bonus_parts == [("Torgny, who speaks for them, is Unfriendly", -20)] and ada.bonus == -20
    conflict.run()
    rolls = [e for e in log.events if e.kind == "roll" and e["actor"] == "Ada"]
    assert rolls, "Ada rolled"
    for e in rolls:  # Torgny walked out in round 1, before anyone rolled
        assert ["Hallstein is Friendly", 20] in e["modifiers"], e["modifiers"]
        assert not any("Torgny" in name for name, _ in e["modifiers"]), e["modifiers"]
    menus = [e for e in log.events if e.kind == "chance" and e["actor"] == "Ada" and e.get("round", 0) >= 2]
    assert menus and all(["Hallstein is Friendly", 20] in e["modifiers"] for e in menus)
    assert ada.bonus_parts == [("Hallstein is Friendly", 20)] and ada.bonus == 20


def test_the_copies_the_odds_play_take_the_standing_too():
    """The Lens advice plays copies of the conflict (advice.WhatIf): their NPCs leaving moves the disposition
    the same way, on the copies' own participants, never the live ones."""
    conflict, ada, _ = _argument(Script())
    seen: list = []
    real = conflict.standing

    def spy(participants):
        seen.append(tuple(participants))
        return real(participants)

    conflict.standing = spy
    conflict.round = 1
    WhatIf(conflict.view, ada).play("none", random.Random(2))
    assert seen and all(ps[0] is not ada for ps in seen)
    assert ada.bonus_parts == [("Torgny, who speaks for them, is Unfriendly", -20)]  # the live conflict is as it was
