"""An NPC's nerve, told as a GM would (the clue of ``npc_morale`` and ``npc_break``), fits the conflict.

Before, at Kaldskard's outlaw fire (seed 7, three players, an argument): "Torgny gives ground, eyes flicking
towards the way out.", then "Torgny shouts for help and falls back." while he stood among his own band, and
then "Torgny mutters an excuse and leaves." An argument is left by walking away, not by running with shouts;
and a call for help fits only where the NPC's friends are not all around it.
"""

from __future__ import annotations

from test_narration_fiction import _npc, fight

from solo.minds.morale import AMONG_FRIENDS, CLUES, SOCIAL_CLUES

_FIGHTY = ("shouts for help", "falls back", "towards the way out", "turns to get away", "lowers its guard",
           "drops to", "cornered")


def _breakable(name: str):
    """A nervous NPC who lives for its band (Circle): when its nerve goes, it calls for help, or flees."""
    return _npc(name, code_block={"personality": ["Nervous", "Shy"], "motivation": ["Circle"],
                                  "disposition": "Neutral",
                                  "event": {"topic": "Health", "sign": "negative", "example": "a bad knee"}})


def _clues(ctype: str, seeds: range, allies: int) -> list[tuple[str, str, bool]]:
    """(event kind, clue, a friend of the NPC's still in) for every clue told over many party conflicts."""
    out = []
    for seed in seeds:
        npcs = [_breakable(n) for n in ("Torgny", "Hallstein", "Eyvind")[:1 + allies]]
        events = fight(ctype, seed, npc=npcs[0], allies=tuple(npcs[1:]), minded=True,
                       pcs=("Espen Lind", "Sigrid Berg", "Tone Aas"), stubborn=True)
        gone: set[str] = set()
        for e in events:
            if e.kind in ("out", "comae", "exit"):
                gone.add(e["actor"])
            if e.kind in ("npc_morale", "npc_break") and e.get("clue"):
                friends = {n.name for n in npcs} - gone - {e["actor"]}
                out.append((e.kind, e["clue"], bool(friends)))
    return out


def test_in_an_argument_nobody_runs_or_shouts_for_help():
    clues = _clues("social", range(30), allies=1)
    assert any(kind == "npc_break" for kind, _, _ in clues)
    for _, text, _ in clues:
        assert text in SOCIAL_CLUES.values(), text
        assert not any(word in text for word in _FIGHTY), text


def test_in_a_fight_a_call_for_help_is_shouted_only_with_no_friend_at_hand():
    clues = _clues("combat", range(40), allies=1)
    breaks = [(text, friends) for kind, text, friends in clues if kind == "npc_break"]
    assert any(friends for _, friends in breaks)
    for text, friends in breaks:
        assert text == (AMONG_FRIENDS if friends else CLUES["call_for_help"]), (text, friends)
