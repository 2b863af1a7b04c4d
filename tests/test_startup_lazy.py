"""Start-up (issue 17, item 9): what the first screen of a game does not need is not imported.

inflect (articles and plurals for narration) takes seconds to import where typeguard instruments it,
so it must wait until a line of narration needs it. benchmarks/startup.py measures the time itself.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from solo.events import NARRATED
from solo.narration.narrator import Narrator

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


def test_narrated_kinds_are_the_narrators_handlers() -> None:
    handlers = {name.removeprefix("_on_") for name in dir(Narrator) if name.startswith("_on_")}
    assert handlers == set(NARRATED)


@pytest.mark.parametrize("package", ["solo.oracle", "solo.npc", "solo.narration"])
def test_every_public_name_of_a_lazy_package_resolves(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        home = importlib.import_module(f"{package}.{module._EXPORTS.get(name, name)}")  # else eager, own module
        assert value is getattr(home, name), name
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        module.nonesuch  # noqa: B018


def _modules_after(code: str, cwd: str, stdin: str = "") -> set[str]:
    probe = code + "\nimport sys\nprint(' '.join(m for m in sys.modules if m.startswith('solo')), file=sys.stderr)"
    proc = subprocess.run([sys.executable, "-c", probe], input=stdin, capture_output=True, text=True, cwd=cwd,
                          timeout=120)
    return set(proc.stderr.strip().splitlines()[-1].split())


def test_one_oracle_module_does_not_load_the_whole_oracle(tmp_path) -> None:
    loaded = _modules_after("import solo.oracle.likelihood", str(tmp_path))
    assert "solo.oracle.likelihood" in loaded
    assert "solo.oracle.answer" not in loaded and "solo.oracle.random_events" not in loaded


def test_the_first_prompt_of_a_game_does_not_load_the_narrator(tmp_path) -> None:
    code = (
        "import sys\nsys.argv = ['solo', 'play', 'tutorial', '--saves', 'saves']\n"
        "from solo.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass"
    )
    loaded = _modules_after(code, str(tmp_path))  # input ends at the first prompt
    assert "solo.story.play.engine" in loaded  # the game did start
    assert not {"solo.narration.narrator", "solo.narration.templates", "solo.rules.odds"} & loaded
    assert (tmp_path / "saves").is_dir()  # and nothing was written outside tmp_path


def test_inflect_is_imported_without_instrumenting_it_and_typeguard_is_left_as_it_was(tmp_path) -> None:
    code = (
        "import typeguard, typeguard._decorators\n"
        "from solo.narration.text import article_for, english\n"
        "assert article_for('hour') == 'an' and article_for('unicorn') == 'a'\n"
        "assert english().plural('wolf') == 'wolves'\n"
        "assert typeguard.typechecked is typeguard._decorators.typechecked\n"
        "import inflect\n"
        "assert 'TypeCheckMemo' not in inflect.engine.a.__code__.co_names\n"
        "print('ok')"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


NUMPY_PROBE = """
import sys
from solo.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("NUMPY:" + str("numpy" in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["--help"], ["roll", "d100"],
                                  ["play", "tutorial", "--seed", "3", "--saves", "saves"]])
def test_numpy_waits_for_the_first_price(tmp_path, argv) -> None:
    """numpy (the exact Lens odds' arrays) is imported where a conflict is first priced, never for the help, a roll
    or a game's first prompt (issue 28)."""
    proc = subprocess.run([sys.executable, "-c", NUMPY_PROBE, *argv], input="", capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert proc.stderr.strip().splitlines()[-1] == "NUMPY:False", proc.stdout[-500:] + proc.stderr[-2000:]
    if argv[0] == "play":
        assert "How many players" in proc.stdout  # the game reached its first question


def test_the_exact_odds_import_numpy_when_they_price(tmp_path) -> None:
    code = ("import sys\nfrom solo.rules.lens_chain import LensChain\nassert 'numpy' not in sys.modules\n"
            "LensChain(50, 50, policy_b='cautious').odds(3, 3, lens_a='aggressive', round_limit=5)\n"
            "print('numpy' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.stdout.strip() == "True", proc.stderr
