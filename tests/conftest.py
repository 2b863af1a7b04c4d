"""Shared test helpers: dice that fall as a test says, and deciders that answer by kind.

Also how the suite runs: on every core by default, and failing if a test leaves a new
file in the repository (tests write into their temporary folders only).
"""

from __future__ import annotations

import atexit
import functools
import gc
import io
import itertools
import logging
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from solo.collector import tune
from solo.rules.character import Character, Pool
from solo.rules.rulebook import POOLS, SKILLS

pytest_plugins = ["pytester"]

# Hypothesis keeps no example database and writes its caches into a temporary folder of its own,
# not into the repository (it would otherwise make .hypothesis/ in the working directory).
settings.register_profile("solo", database=None)
settings.load_profile("solo")
_HYPOTHESIS_HOME = pytest.StashKey[Path]()
#: That folder, handed by the process that made it to the processes it starts (the xdist workers).
HYPOTHESIS_HOME_ENV = "SOLO_TEST_HYPOTHESIS_HOME"
#: The alphabet of ``st.text()`` by default (every character UTF-8 can encode: all but the surrogates), as the
#: same intervals by category: ``st.text()`` names it by codec, and Hypothesis works the codec out character by
#: character, 1.3 s of CPU in each process that meets it first (tests/test_conftest_alphabet.py holds the two equal).
TEXT_ALPHABET = st.characters(exclude_categories=("Cs",))


_BYTECODE_HOME = pytest.StashKey[Path]()


def share_bytecode(config) -> None:
    """Where bytecode may not be written (``PYTHONDONTWRITEBYTECODE``), a temporary folder for it instead.

    Without it every process of the run compiles ``solo`` and rewrites the tests' asserts afresh: each xdist
    worker (4.5 s of CPU to collect, against 2 s with bytecode) and each of the hundred ``python -m solo``
    processes the tests start (0.1 to 0.15 s each). The folder lies outside the repository and goes at the
    run's end, so nothing is left behind, which is what the setting asks; processes started later (the
    workers, the tests' children) inherit it through the environment.
    """
    if not sys.flags.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return  # bytecode is written as usual, or already somewhere the user chose
    home = config.stash[_BYTECODE_HOME] = Path(tempfile.mkdtemp(prefix="solo-bytecode-"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(home)
    sys.dont_write_bytecode, sys.pycache_prefix = False, str(home)


_REAL_FSYNC = pytest.StashKey[object]()


def _checked_fsync(fd: int) -> None:
    """``os.fsync`` for the tests' own process: the descriptor is checked (a closed one fails as fsync would),
    nothing is flushed to the disk."""
    os.fstat(fd)


def keep_saves_off_the_disk_platter(config) -> None:
    """No flush to the disk for the files tests write in this process: what ``fsync`` adds is that a save
    outlives a power cut, which no test can see, at 4 ms a save here (1,600 saves, 3 to 6 s of the run).

    Every test still sees the calls: one that makes ``os.fsync`` fail (tests/hostile/test_files.py: a full
    disk) patches over this one and counts them as before. A ``python -m solo`` a test starts flushes for
    real (tests/test_saves.py kills one mid-save)."""
    config.stash[_REAL_FSYNC] = os.fsync
    os.fsync = _checked_fsync


def end_workers_quickly(config) -> None:
    """An xdist worker leaves as soon as everything it has to say has been said, without tearing down its heap.

    The controller waits for each worker's process to end before it reports, and a worker that has run half the
    suite spends some 1.5 s freeing what it built (several hundred MB of modules, adventures and solved odds).
    Exit handlers run last registered first, so this one runs before those registered earlier (logging's,
    execnet's): it flushes the standard streams and shuts logging down itself, then ends the process where it
    stands. pytest's own last cycle collection, which reports an exception raised while an object was freed,
    still runs before it.
    """
    if not hasattr(config, "workerinput"):
        return

    def leave() -> None:
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):  # closed already: nothing left in it to lose
                pass
        os._exit(0)

    atexit.register(leave)


def pytest_configure(config):
    """One temporary folder for Hypothesis's caches, shared by the run's processes and removed at its end.

    A table one worker works out is read by the other (xdist workers start after this hook and inherit the
    folder's name). The slowest, ``st.text()``'s walk over every code point for its codec (1.3 s of CPU), is not
    asked for at all: the suite's text strategies draw from ``TEXT_ALPHABET``, the same characters by category.
    """
    share_bytecode(config)
    away_from_the_players_files(config)
    end_workers_quickly(config)
    keep_saves_off_the_disk_platter(config)
    tune()  # the collector as solo's entry point sets it (solo.collector), in the controller and each worker
    shared = os.environ.get(HYPOTHESIS_HOME_ENV)
    if shared and Path(shared).is_dir():  # an xdist worker, or a run inside a test: the folder is its starter's
        set_hypothesis_home_dir(shared)
        return
    home = config.stash[_HYPOTHESIS_HOME] = Path(tempfile.mkdtemp(prefix="solo-hypothesis-"))
    set_hypothesis_home_dir(home)
    os.environ[HYPOTHESIS_HOME_ENV] = str(home)


_PLAYERS_HOME = pytest.StashKey[Path]()
#: Where a player keeps games, characters, tables and adventures: the suite reads none of the player's own.
_PLAYERS_FOLDERS = ("SOLO_HOME", "SOLO_SAVES", "SOLO_TABLES", "SOLO_SCENES")


def away_from_the_players_files(config) -> None:
    """None of the player's folders, and a folder under which each test has a ``SOLO_HOME`` of its own
    (:func:`a_home_of_its_own`): a newcomer who played the tutorial (as the README says, before its test command) had
    Espen Lind improved in ./characters, and three tests that play ``--pc espen`` took that copy for the ready-made
    one. The folder goes at the run's end; the xdist workers inherit its name."""
    for name in _PLAYERS_FOLDERS:
        os.environ.pop(name, None)
    shared = os.environ.get("SOLO_TEST_HOME")
    if shared and Path(shared).is_dir():  # a worker, or a run inside a test: its starter's folder stands
        return
    home = config.stash[_PLAYERS_HOME] = Path(tempfile.mkdtemp(prefix="solo-home-"))
    os.environ["SOLO_TEST_HOME"] = str(home)


_HOMES = itertools.count()


@pytest.fixture(autouse=True)
def a_home_of_its_own(monkeypatch):
    """Each test's own ``SOLO_HOME``, made only if the test writes into it: what one test's game saves (a character
    improved, a session) is never another's roster. A test of the defaults without it unsets it."""
    monkeypatch.setenv("SOLO_HOME", os.path.join(os.environ["SOLO_TEST_HOME"], f"{os.getpid()}-{next(_HOMES)}"))


def pytest_unconfigure(config):
    if _PLAYERS_HOME in config.stash:
        shutil.rmtree(config.stash[_PLAYERS_HOME], ignore_errors=True)
        os.environ.pop("SOLO_TEST_HOME", None)
    if _REAL_FSYNC in config.stash:
        os.fsync = config.stash[_REAL_FSYNC]
    if _BYTECODE_HOME in config.stash:
        home = config.stash[_BYTECODE_HOME]
        if os.environ.get("PYTHONPYCACHEPREFIX") == str(home):
            del os.environ["PYTHONPYCACHEPREFIX"]
            os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        sys.dont_write_bytecode, sys.pycache_prefix = True, None
        shutil.rmtree(home, ignore_errors=True)
    if _HYPOTHESIS_HOME in config.stash:
        home = config.stash[_HYPOTHESIS_HOME]
        if os.environ.get(HYPOTHESIS_HOME_ENV) == str(home):
            del os.environ[HYPOTHESIS_HOME_ENV]
        shutil.rmtree(home, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """Spread the whole suite over every core unless ``-n`` says otherwise.

    Set here rather than as ``-n auto`` in ``addopts`` so that ``-p no:xdist`` still works, and
    only when no test paths are named: starting the workers costs more than one file's tests
    take. An xdist worker runs this hook too and must stay a single process.
    """
    if hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("xdist"):
        return
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return
    if config.option.numprocesses is None:
        config.option.numprocesses = "auto"
        if config.option.dist == "no":
            config.option.dist = "worksteal"


def pytest_collection(session):
    """On every other xdist worker, import the test modules last to first before collecting them.

    A fresh checkout has no bytecode: every worker compiles ``solo`` and rewrites the asserts of all
    the test modules it imports, some 7 s of CPU, and xdist hands out no test before every worker
    has collected. Two workers going the same way do all that twice, side by side; going opposite
    ways, each finds the other's half already written (pytest and Python keep it, in ``__pycache__``
    or the folder ``share_bytecode`` makes) and the collection ends sooner. Importing is all this
    does: pytest then collects in its own order and finds each module already imported, as it would
    have imported it (``import_path``, the same mode and root). A module that fails to import, or is
    skipped at import, is left for pytest's own collection to report.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or not worker[2:].isdigit() or int(worker[2:]) % 2 == 0:
        return
    config = session.config
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return  # some files named: import no more than those
    try:
        from _pytest.pathlib import import_path
    except ImportError:  # a pytest without it: collect as usual, only slower
        return
    files = sorted(path for folder in config.getini("testpaths")
                   for path in (config.rootpath / folder).rglob("test_*.py"))
    for path in reversed(files):
        try:
            import_path(path, mode=config.getoption("importmode"), root=config.rootpath,
                        consider_namespace_packages=config.getini("consider_namespace_packages"))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001, S112 - a failure, or a module-level skip: pytest's own import reports it
            continue


def pytest_collection_finish(session):
    """Once collected, everything alive is kept for the run: set it aside from the cycle collector.

    A worker holds some hundred test modules, Hypothesis, rich and solo with its tables and adventures by
    then, and every pass over the old objects walked all of it again; frozen (``gc.freeze``), those objects are
    never walked, and nothing in them was ever going to be freed. Seven of the heaviest test files in one
    process ran in 0.90 of the time (farm-bench, three pairs, 2026-12-04), for some 10 MB.
    """
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(config, items):
    """The modules that hold long tests (marked ``slow``) first, so that no worker starts one near the end
    while the other has run out of work. A module's tests stay together and in order (its module-scoped
    fixtures are made once); every worker sorts alike, as xdist requires."""
    long = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in long)


# Folders that tools fill while tests run; anything else new in the repository is a test's doing.
_NOT_WATCHED = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", ".venv", "venv"}
_BEFORE = pytest.StashKey[set[str]]()


def repository_files(root: Path) -> set[str]:
    found = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _NOT_WATCHED and not d.endswith(".egg-info")]
        rel = Path(folder).relative_to(root)
        found.update((rel / name).as_posix() for name in files if not name.endswith(".pyc"))
    return found


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):
        session.config.stash[_BEFORE] = repository_files(session.config.rootpath)


def pytest_sessionfinish(session):
    """Fail the run when tests left files in the repository (xdist workers leave this to the controller)."""
    before = session.config.stash.get(_BEFORE, None)
    if before is None:
        return
    new = sorted(repository_files(session.config.rootpath) - before)
    if not new:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("")
        reporter.write_sep("=", f"tests left {len(new)} new file(s) in {session.config.rootpath}", red=True)
        for name in new[:20]:
            reporter.write_line(f"  {name}")
        reporter.write_line("write into tmp_path (or monkeypatch.chdir(tmp_path)) instead")
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


class LoadedDice(random.Random):
    """A generator whose randint returns the given faces in order; anything else is an error."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        if not self.faces:
            raise AssertionError(f"the test ran out of loaded dice (asked for {a}..{b})")
        face = self.faces.pop(0)
        assert a <= face <= b, f"loaded face {face} is not in {a}..{b}"
        return face


class Answers:
    """Answers questions by kind from lists (or a fixed value); records every question."""

    def __init__(self, **by_kind):
        self.by_kind = {k: (list(v) if isinstance(v, list) else v) for k, v in by_kind.items()}
        self.asked = []

    def decide(self, question):
        self.asked.append(question)
        answer = self.by_kind.get(question.kind)
        if answer is None:
            raise AssertionError(f"unexpected question {question.kind}: {question.prompt}")
        if isinstance(answer, list):
            if not answer:
                raise AssertionError(f"no answers left for {question.kind}")
            return answer.pop(0)
        return answer

    def kinds(self):
        return [q.kind for q in self.asked]


@functools.lru_cache(maxsize=1)
def templates_with_adventures() -> tuple:
    """The bundled narration lines, then each bundled adventure's lines over them (an adventure may replace a
    list): what a lint of every line that can be told reads. Loaded once a process; the tests only read them."""
    from solo.narration import load_templates
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    told = [load_templates()]
    for name in ("vellan", "kaldskard"):
        adventure = load_adventure(find_adventure(name))
        told.append(load_templates(extra_data=[(str(adventure.source), adventure.templates)]))
    return tuple(told)


def make_char(name="X", *, level=None, pools=10, focuses=None, tags=(), luck=None, **skills) -> Character:
    values = {s: 5 for s in SKILLS}
    values.update(skills)
    if isinstance(pools, dict):
        pool_map = {p: Pool(v, v) for p, v in pools.items()}
    else:
        pool_map = {p: Pool(pools, pools) for p in POOLS}
    char = Character(name=name, skills=values, pools=pool_map, focuses=dict(focuses or {}), tags=list(tags),
                     level=level)
    char.luck = char.luck_max if luck is None else luck
    return char


@pytest.fixture
def loaded():
    return LoadedDice


def script_lines(name: str) -> list[str]:
    """A stored play script (tests/data/scripts), without comments."""
    path = Path(__file__).parent / "data" / "scripts" / name
    return [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]


def play_session(adventure, lines, folder, *, seed=5, log=None, width=200, **session_options):
    """A whole play session answered by ``lines`` (then end of input): (the session, exit code, screen)."""
    from rich.console import Console

    from solo.ui.session import Session

    feed = iter(lines)

    def reader(prompt):
        for line in feed:
            return line
        raise EOFError

    out = io.StringIO()
    session = Session(adventure, seed=seed, console=Console(file=out, width=width, color_system=None),
                      reader=reader, save_path=folder / "game.json", log=log, echo_answers=True, **session_options)
    code = session.run()
    return session, code, out.getvalue()


def run_play(adventure, lines, folder, *, seed=5, log=None, width=100, **session_options):
    """A whole play session answered by ``lines`` (then end of input): (exit code, screen, journal)."""
    _, code, screen = play_session(adventure, lines, folder, seed=seed, log=log, width=width,
                                   transcript=folder / "game.md", **session_options)
    return code, screen, (folder / "game.md").read_text(encoding="utf-8")


class FirstFace(random.Random):
    """A generator whose first randint falls on ``face``; every draw after it is the seeded generator's."""

    def __init__(self, face: int, seed: int = 0):
        super().__init__(seed)
        self.face: int | None = face

    def randint(self, a, b):
        if self.face is None:
            return super().randint(a, b)
        face, self.face = self.face, None
        assert a <= face <= b
        return face


@pytest.fixture
def cli_run(monkeypatch):
    """Invoke ``solo`` in-process with no user table folders from the environment."""
    from click.testing import CliRunner

    from solo.cli import cli

    monkeypatch.delenv("SOLO_TABLES", raising=False)
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, list(args))

    return invoke


@pytest.fixture(scope="module")
def vellan():
    """The bundled investigation, loaded once for each test module that plays it."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    return load_adventure(find_adventure("vellan"))


@pytest.fixture(scope="module")
def tutorial():
    """The bundled tutorial, loaded once for each test module that plays it."""
    from solo.story.format.library import find_adventure
    from solo.story.format.loader import load_adventure

    return load_adventure(find_adventure("tutorial"))


def recap_blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """A recap read back as its headers (a scene's title, the end), each with the entries indented under it."""
    blocks: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("  ") and blocks:
            blocks[-1][1].append(line.strip())
        else:
            blocks.append((line, []))
    return blocks
