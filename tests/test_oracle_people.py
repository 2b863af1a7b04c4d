"""Random events name only people still in the story (docs/adventures.md, "The oracle's people"): an NPC in
comae, or an undead, machine or object spent in a conflict (the narration has said it stays down), leaves the
oracle's list, and a scene that lists it does not put it back; a beaten person stays on it."""

from __future__ import annotations

from solo.rules.creation import pregenerated
from solo.rules.outcomes import COMAE, OUT
from solo.story.format.library import find_adventure
from solo.story.format.loader import load_adventure
from solo.story.play.engine import Game
from solo.story.play.knowledge import called, gone_for_good
from solo.story.play.party import set_up_party


class First:
    def decide(self, question):
        return question.default or question.options[0].key


def test_a_spent_undead_leaves_the_oracles_people_and_a_beaten_outlaw_stays():
    game = Game(load_adventure(find_adventure("kaldskard")), seed=1, decider=First(), party=[pregenerated("espen")])
    set_up_party(game, [pregenerated("espen")])  # as play() does before the first scene
    ctype = game.conflict_types["combat"]
    _, npcs, _ = game.conflict_sides(ctype, ["barrow_two", "hallstein", "barrow_three"], pc_decider=None,
                                     mind=lambda nid, npc: None)
    names = {nid: called(game, nid) for nid in npcs}
    for nid in npcs:
        game.state.oracle.add_npc(names[nid])
    npcs["barrow_two"].status = OUT
    npcs["hallstein"].status = OUT
    npcs["barrow_three"].status = "fled"
    game.conflict_aftermath(npcs, set(npcs), [], ctype)
    people = game.state.oracle.npcs
    assert names["barrow_two"] not in people and gone_for_good(game, "barrow_two")
    assert names["hallstein"] in people and not gone_for_good(game, "hallstein")  # beaten, not gone
    assert names["barrow_three"] in people  # it ran: it may come back
    game.state.npc_status["hallstein"] = COMAE
    assert gone_for_good(game, "hallstein")
    game._enter(game.adventure.scenes["shieling_attack"])  # lists all three barrow-wights
    people = game.state.oracle.npcs
    assert names["barrow_two"] not in people and called(game, "barrow_one") in people
