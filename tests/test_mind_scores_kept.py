"""A mind's Lens scores kept by what they read (``_SCORED`` in solo/minds/npc.py): the same games with the store
cold, warm, or so small it is cleared every few entries, so a key that left out something the scores read
would show as a different duel."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import solo.minds.npc as npc_minds
from solo.cli import cli

NPC = '''name = "Sneak"
level = "skilled"
skills = { Combat = 55, Cunning = 45, Move = 40 }
pools = { BODY = 8, INT = 6, POW = 10, CHA = 6 }
weapon = "axe"
[code_block]
personality = ["Nervous", "Shy"]
motivation = ["Health"]
event = { topic = "Money", sign = "negative" }
'''


def _duel(npc: str, lens: str) -> dict:
    result = CliRunner().invoke(cli, ["duel", "--npc", npc, "--pc", "espen", "--pc-lens", lens, "--runs", "150",
                                      "--seed", "3", "--json", "--explain"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("lens", ["none", "clever"])
def test_kept_scores_play_the_same_duels_as_scores_worked_out_afresh(tmp_path, monkeypatch, lens):
    npc = tmp_path / "sneak.toml"
    npc.write_text(NPC, encoding="utf-8")
    npc_minds._SCORED.clear()
    monkeypatch.setattr(npc_minds, "_SCORED_MAX", 3)  # cleared every third entry: nearly every choice afresh
    afresh = _duel(str(npc), lens)
    assert len(npc_minds._SCORED) <= 3
    monkeypatch.setattr(npc_minds, "_SCORED_MAX", 4_000)
    npc_minds._SCORED.clear()
    cold = _duel(str(npc), lens)
    kept = len(npc_minds._SCORED)
    warm = _duel(str(npc), lens)
    assert afresh == cold == warm
    assert 0 < kept == len(npc_minds._SCORED)  # the second run read every score the first kept
