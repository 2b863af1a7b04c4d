"""``NPC.copy``: a duplicate of the NPC its file form reads as, equal to reading it again and sharing nothing."""

from __future__ import annotations

import dataclasses
import json
import random

from solo.npc import NPC
from solo.npc.generate import generate_npc


def _npcs() -> list[NPC]:
    rng = random.Random(7)
    made = [generate_npc(rng, level=level) for level in ("common", "skilled", "master") for _ in range(6)]
    mindless = NPC.from_dict({"name": "Draug", "level": "skilled", "mindless": True,
                              "skills": {"Combat": 55, "Move": 30}, "weapon": "axe"})
    return [*made, mindless]


def test_a_copy_is_what_reading_the_file_form_again_gives():
    for npc in _npcs():
        npc.pools["BODY"].current -= 3  # a hurt NPC, a changed disposition: the copy is of it as it stands
        if npc.code_block is not None:
            npc.code_block.disposition = "Unfriendly"
        again, copied = NPC.from_dict(npc.to_dict()), npc.copy()
        assert json.dumps(copied.to_dict()) == json.dumps(again.to_dict())
        assert copied == again
        assert list(copied.skills) == list(again.skills) and list(copied.pools) == list(again.pools)
        assert npc.copy() == copied  # the second copy (from the kept reading) is the same


def test_a_copy_shares_no_container_with_the_npc_or_another_copy():
    for npc in _npcs():
        one, two = npc.copy(), npc.copy()
        for f in dataclasses.fields(NPC):
            a, b = getattr(one, f.name), getattr(two, f.name)
            mutable = isinstance(a, (list, dict, set)) or (dataclasses.is_dataclass(a)
                                                           and not a.__dataclass_params__.frozen)
            if mutable:
                assert a is not b, f.name
        for key in one.pools:
            assert one.pools[key] is not two.pools[key]
        one.pools["BODY"].current = -5
        one.skills["Combat"] = 1
        if one.code_block is not None:
            one.code_block.disposition = "Hostile"
        assert two.pools["BODY"].current != -5 and two.skills["Combat"] != 1
        assert two.code_block is None or two.code_block.disposition != "Hostile"


def test_a_characters_duplicate_and_a_states_copy_share_no_container():
    """GameState.copy duplicates the party and the NPCs container by container (solo prove copies a state at
    every step): nothing mutable is shared with the state it was copied from."""
    from solo.characters import pregenerated
    from solo.story.play.state import GameState

    pc = pregenerated("espen")
    npc = _npcs()[0]
    state = GameState("x", party=[pc], npcs={"n": npc})
    copied = state.copy()
    for before, after in ((pc, copied.party[0]), (npc, copied.npcs["n"])):
        assert after == before and after is not before
        for f in dataclasses.fields(before):
            a, b = getattr(before, f.name), getattr(after, f.name)
            if isinstance(a, (list, dict, set)) or (dataclasses.is_dataclass(a)
                                                    and not a.__dataclass_params__.frozen):
                assert a is not b, f.name
        assert all(after.pools[k] is not before.pools[k] for k in before.pools)


def test_a_state_read_back_reads_its_npcs_once_per_form_and_a_damaged_form_fails_every_time():
    """``NPC.from_form`` (what a save or one of solo prove's waiting states reads its NPCs with) gives what
    ``from_dict`` gives, a new NPC each time, and refuses a bad form however often it is asked."""
    import pytest

    from solo.errors import ContentError

    for npc in _npcs():
        form = npc.to_dict()
        one, two = NPC.from_form(form), NPC.from_form(form)
        assert one == two == NPC.from_dict(form) and one is not two
        one.pools["BODY"].current -= 1
        assert two.pools["BODY"].current == npc.pools["BODY"].current  # nothing shared between the readings
    bad = {**_npcs()[0].to_dict(), "level": "legendary"}
    for _ in range(2):
        with pytest.raises(ContentError):
            NPC.from_form(bad)


def test_a_shallow_copy_is_what_copy_copy_gives():
    """``shallow`` (how a character's, an NPC's and a Code Block's duplicate begins) is ``copy.copy`` made quick."""
    import copy

    from solo.characters import pregenerated
    from solo.rules.character import shallow

    npc = _npcs()[0]
    for obj in (pregenerated("espen"), npc, npc.code_block):
        made, plain = shallow(obj), copy.copy(obj)
        assert type(made) is type(plain) and vars(made) == vars(plain) and made is not obj and made == obj


def test_sides_built_from_copies_can_be_fought_and_leave_the_game_as_it_was():
    """``conflict_sides(copies=True)`` (solo prove fights a conflict hundreds of times on such sides to price it):
    the participants hold duplicates of the game's PCs and NPCs, equal to them, and a conflict fought to its end on
    them, Pools spent, Luck and all, changes nothing of the game's own."""
    from solo.rules.conflict import Conflict
    from solo.rules.creation import pregenerated
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure
    from solo.story.play.engine import Game
    from solo.story.play.party import set_up_party

    class First:
        def decide(self, question):
            return question.default or question.options[0].key

    game = Game(load_adventure(find_adventure("kaldskard")), seed=1, decider=First(), party=[pregenerated("espen")])
    set_up_party(game, [pregenerated("espen")])
    ids = ["barrow_two", "hallstein"]
    before = json.dumps([pc.to_dict() for pc in game.state.party] + [game.state.npcs[n].to_dict() for n in ids])
    ctype = game.conflict_types["combat"]
    parts, npcs, _ = game.conflict_sides(ctype, ids, pc_decider=None, mind=lambda nid, npc: None, copies=True)
    fought = [p.char for p in parts]
    assert fought[0] == game.state.party[0] and fought[0] is not game.state.party[0]
    assert all(npcs[n].char == game.state.npcs[n] and npcs[n].char is not game.state.npcs[n] for n in ids)
    result = Conflict(ctype, parts, random.Random(3), round_limit=12).run()
    assert result.outcome and any(c.pools["BODY"].current < c.pools["BODY"].maximum for c in fought)
    after = json.dumps([pc.to_dict() for pc in game.state.party] + [game.state.npcs[n].to_dict() for n in ids])
    assert after == before
