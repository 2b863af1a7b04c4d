"""Start-up (issue 17, item 9): what the first screen of a game does not need is not imported.

inflect (articles and plurals for narration) takes seconds to import where typeguard instruments it,
so it must wait until a line of narration needs it. benchmarks/startup.py measures the time itself.
"""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from solo.cli import main
try:
    main(["play", "tutorial", "--seed", "3", "--saves", sys.argv[1]])
except SystemExit:
    pass
print("LOADED:" + ",".join(sorted(m for m in ("inflect", "typeguard") if m in sys.modules)))
"""


def test_the_first_screen_of_a_game_imports_no_inflect(tmp_path):
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "saves")], input="", capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert "How many players" in done.stdout, done.stdout + done.stderr  # the game reached its first question
    assert done.stdout.strip().splitlines()[-1] == "LOADED:"


def test_narration_still_finds_its_articles():
    from solo.narration.text import article_for, fix_articles

    assert article_for("hour") == "an" and article_for("unicorn") == "a"
    assert fix_articles("a axe and an dagger") == "an axe and a dagger"
