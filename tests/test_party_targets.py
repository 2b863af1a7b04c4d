"""In party conflicts NPCs choose targets by their Code Blocks (measured by benchmarks/party_targets.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARK = Path(__file__).parents[1] / "benchmarks" / "party_targets.py"
spec = importlib.util.spec_from_file_location("party_targets", BENCHMARK)
party_targets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(party_targets)


def test_targets_follow_the_code_block():
    kinds = party_targets.KINDS
    labels = list(kinds)
    mindless, careful, reckless = (party_targets.measure(kinds[label], 40)[1] for label in labels)
    assert mindless["Weak"] == sum(mindless.values())  # the weakest, least armoured, every time
    assert careful["Tank"] == 0 and careful["Weak"] > careful["Fighter"]  # avoids the strongest
    assert reckless["Tank"] > 0.1 * sum(reckless.values())  # takes on the strongest too
