"""Hostile mutants of a valid adventure and of a valid save.

Hypothesis takes the bundled example adventure and a save made by a scripted game, picks one to
three nodes of the parsed TOML or JSON tree and breaks them: a value of the wrong type, a huge
number, a long string, deep nesting, rich markup, a path with ``../``, a NUL, an empty value; or
it renames a key or deletes the node. Each mutant is written back (the adventure with solo's own
TOML writer) and put through the commands a player would run on it: ``solo check``, ``solo map``
and a few scripted steps of ``solo play`` for an adventure; ``solo saves`` and
``solo play --load`` for a save.

Whatever the mutant, every command ends normally or with a clean error: exit status 0, 1 or 2,
never solo's "internal error", never a traceback; an error names the file it is about. Nothing
is written outside the mutant's own folder, and each mutant finishes within a time bound.
"""

from __future__ import annotations

import copy
import json
import math
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli
from click.testing import CliRunner
from conftest import TEXT_ALPHABET
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from solo.cli import cli
from solo.toml_write import dumps

EXAMPLE = Path(__file__).parent.parent / "data" / "example_adventure.toml"

#: Seconds one mutant may take for all its commands together (a clean run takes well under one).
TIME_BOUND = 20.0
#: Examples per test; SOLO_MUTANTS=N asks for more (and fresh random ones) when hunting for crashes.
EXAMPLES = int(os.environ.get("SOLO_MUTANTS", "0")) or 60
HUNTING = bool(os.environ.get("SOLO_MUTANTS"))

# Answers for the scripted steps: the first option mostly, a few table-side commands, then the end
# of the script (the game saves and stops).
PLAY_SCRIPT = ["1", "1", "1", "sheet", "? Is anyone watching? (likely)", "note a note", "1", "2", "1",
               "1", "1", "2", "1", "undo", "1", "1", "1"]

#: A stand-in for a path outside the mutant's folder, filled in when the mutant is written.
OUTSIDE = "@OUTSIDE@"


# -- hostile values ---------------------------------------------------------------------------------

def _nested(depth: int, kind: str) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


TEXTS = st.sampled_from([
    "", " ", "[/]", "[red]x[/red]", "[bold]", "\\", "\\[/]", ":smile:", "../", "../../../escape",
    "a/../../b", "/", ".", "..", OUTSIDE, OUTSIDE + "/x", "\x00", "a\x00b", "\n", "\r\n", "\t", "{",
    "}", "{npc.nobody}", "{counter.", "{{}}", "%s %d", "\u202e", "\U0001f980", "true", "1", "-1",
    "1e999", "nan", "none", "con", "nul.json", "x" * 300,
]) | st.text(TEXT_ALPHABET, max_size=12)
LONG_TEXTS = st.builds(lambda piece, n: piece * n, st.sampled_from(["x", "[/]", "{", "é ", "\n", "../"]),
                       st.sampled_from([1_000, 100_000]))
NUMBERS = st.sampled_from([0, -1, 1, 2, 7, 100, 101, -101, 2**31, 2**53 + 1, 2**63 - 1, -(2**63), 10**100,
                           -(10**100)]) | st.integers()
FLOATS = st.sampled_from([0.0, -0.0, 0.5, -2.5, 1e308, math.inf, -math.inf, math.nan])
SCALARS = TEXTS | LONG_TEXTS | NUMBERS | FLOATS | st.booleans()
# lists nest past the TOML reader's limit (400); tables as deep as the TOML writer can go
DEEP = (st.builds(_nested, st.sampled_from([2, 30, 200, 450]), st.just("list"))
        | st.builds(_nested, st.sampled_from([2, 30, 200]), st.just("dict")))
HOSTILE = (
    SCALARS
    | DEEP
    | st.sampled_from([[], {}, [""], [[]], [{}], {"": ""}])
    | st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3),
                   max_leaves=6)
)


# -- walking and mutating a tree --------------------------------------------------------------------

Path_ = tuple[str | int, ...]


def nodes(tree: Any, where: Path_ = ()) -> Iterator[Path_]:
    """Every node's path below the root, depth first, each node before its children.

    Walked with a stack, not by recursion: a mutant already holds a value nested 450 deep, and the
    next mutation walks through it (a recursive walk ran out of stack in a 2,000-mutant hunt).
    """
    def children(node: Any, at: Path_) -> list[tuple[Path_, Any]]:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        return [((*at, key), child) for key, child in items]

    stack = children(tree, where)[::-1]
    while stack:
        at, node = stack.pop()
        yield at
        stack.extend(children(node, at)[::-1])


def parent_of(tree: Any, where: Path_) -> Any:
    for key in where[:-1]:
        tree = tree[key]
    return tree


@st.composite
def mutants(draw: st.DrawFn, seed: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A copy of ``seed`` with one to three nodes broken, and a description of what was done."""
    tree = copy.deepcopy(seed)
    done = []
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(list(nodes(tree))))
        done.append(mutate(draw, tree, where))
    return tree, "; ".join(done)


def mutate(draw: st.DrawFn, tree: Any, where: Path_) -> str:
    parent, key = parent_of(tree, where), where[-1]
    how = draw(st.sampled_from(["replace", "replace", "replace", "rename", "delete"]))
    if how == "rename" and isinstance(parent, dict):
        new_key = draw(TEXTS)
        parent[new_key] = parent.pop(key)
        return f"rename {where!r} to {new_key!r}"
    if how == "delete":
        del parent[key]
        return f"delete {where!r}"
    value = draw(HOSTILE)
    parent[key] = value
    return f"set {where!r} to {_short(value)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else f"{text[:200]}… ({len(text)} characters)"


# -- running solo on a mutant -----------------------------------------------------------------------

class TooSlow(BaseException):
    """Raised by the alarm when a mutant runs past the time bound (not an Exception: solo must not catch it)."""


class Bounded:
    """A wall-clock bound on a block, by SIGALRM where it can be used, and measured in any case."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()

    def __enter__(self) -> Bounded:
        self.start = time.monotonic()
        if self.alarm:
            def ring(signum: int, frame: object) -> None:
                raise TooSlow(f"still running after {self.seconds:g} s")

            self.previous = signal.signal(signal.SIGALRM, ring)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        self.elapsed = time.monotonic() - self.start


def solo(*args: str) -> tuple[int, str]:
    """Run ``solo`` in this process: (exit status, everything it printed)."""
    result = CliRunner().invoke(cli, list(args), catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"solo {' '.join(args)} raised {result.exception!r}") from result.exception
    return result.exit_code, result.output


def assert_clean(what: str, code: int, output: str, names: str) -> None:
    assert code in (0, 1, 2, 3), f"{what}: exit status {code}\n{output[-3000:]}"
    assert "internal error" not in output, f"{what}: {output[-3000:]}"
    assert "Traceback" not in output, f"{what}: {output[-3000:]}"
    if code == 3:  # a mutant may offer fewer options than the fixed script answers: the script's line is named
        assert "script.txt:" in output, f"{what}: exit status 3 without naming the script line\n{output[-3000:]}"
    elif code:
        assert names in output, f"{what}: exit status {code} without naming {names}\n{output[-3000:]}"


def files_under(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


class Arena:
    """A fresh folder for each mutant, deep inside the test's own, and a check that nothing lands elsewhere.

    The folder is a few levels down so that a path climbing out of it with a few ``../`` still lands
    inside ``tmp_path``, where the check sees it; ``@OUTSIDE@`` in a mutant stands for a path next
    to the mutants' folders, which must never come to exist.
    """

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = tmp_path
        self.monkeypatch = monkeypatch
        self.outside = tmp_path / "outside"
        self.count = 0

    def fill(self, text: str) -> str:
        return text.replace(OUTSIDE, str(self.outside))

    def run(self, description: str, steps) -> None:
        """Run ``steps(folder)`` in a fresh folder within the time bound, then check where files went."""
        note(description)
        self.count += 1
        folder = self.root / f"mutant{self.count}" / "a" / "b" / "c"
        folder.mkdir(parents=True)
        self.monkeypatch.chdir(folder)
        before = files_under(self.root)
        around = set(os.listdir(self.root.parent))
        bound = Bounded(TIME_BOUND)
        try:
            with bound:
                steps(folder)
        except TooSlow as exc:
            raise AssertionError(f"{description}: {exc}") from None
        assert bound.elapsed < TIME_BOUND, f"{description}: took {bound.elapsed:.1f} s"
        strays = sorted(str(p) for p in files_under(self.root) - before if folder not in p.parents)
        assert not strays, f"{description}: written outside the mutant's folder: {strays[:5]}"
        assert not self.outside.exists(), f"{description}: written to {self.outside}"
        assert set(os.listdir(self.root.parent)) == around, f"{description}: written next to the test's folder"
        # checked: the next mutant's look for strays need not walk this one's files again (it sees a file written
        # into this folder all the same, as new)
        self.monkeypatch.chdir(self.root)
        shutil.rmtree(self.root / f"mutant{self.count}")


@pytest.fixture
def arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Arena:
    for name in ("SOLO_SAVES", "SOLO_TABLES", "SOLO_SCENES", "SOLO_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    return Arena(tmp_path, monkeypatch)


# -- adventures ---------------------------------------------------------------------------------------

ADVENTURE = tomli.loads(EXAMPLE.read_text(encoding="utf-8"))
assert tomli.loads(dumps(ADVENTURE)) == ADVENTURE, "the TOML writer must write the seed back as it was"


def toml_text(tree: dict[str, Any]) -> str:
    """The mutant as TOML; the writer recurses once or twice a level, so deep nesting needs more room."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5000))
    try:
        return dumps(tree)
    finally:
        sys.setrecursionlimit(limit)


def adventure_steps(arena: Arena, tree: dict[str, Any]):
    def steps(folder: Path) -> None:
        adventure = folder / "adv.toml"
        adventure.write_text(arena.fill(toml_text(tree)), encoding="utf-8")
        script = folder / "script.txt"
        script.write_text("\n".join(PLAY_SCRIPT) + "\n", encoding="utf-8")

        code, output = solo("check", str(adventure))
        assert_clean("solo check", code, output, "adv.toml")
        code, output = solo("map", str(adventure))
        assert_clean("solo map", code, output, "adv.toml")
        code, output = solo("play", str(adventure), "--seed", "3", "--script", str(script), "--partial",
                            "--saves", str(folder / "saves"), "--transcript", str(folder / "journal.md"))
        assert_clean("solo play", code, output, "adv.toml")
        assert not list(folder.rglob("*.error.txt")), "solo play kept an internal error report"

    return steps


@pytest.mark.slow  # sixty mutants, each through several commands: about half a minute
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not HUNTING, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(mutant=mutants(ADVENTURE))
def test_a_mutated_adventure_is_checked_and_played_cleanly(arena, mutant):
    tree, description = mutant
    arena.run(description, adventure_steps(arena, tree))


# -- saves ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def save_seed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A save of the example adventure, quit after a few scripted decisions."""
    folder = tmp_path_factory.mktemp("save-seed")
    script = folder / "script.txt"
    script.write_text("1\n1\n1\n? Is anyone watching? (likely)\nnote a note\n2\nquit\n", encoding="utf-8")
    old = Path.cwd()
    os.chdir(folder)
    try:
        code, output = solo("play", str(EXAMPLE.resolve()), "--seed", "3", "--script", str(script), "--partial",
                            "--saves", str(folder / "saves"))
    finally:
        os.chdir(old)
    assert code == 0, output
    data = json.loads((folder / "saves" / "skarv.json").read_text(encoding="utf-8"))
    assert data["log"] and data["snapshot"], "the seed save should hold decisions and a snapshot"
    return data


def save_steps(arena: Arena, tree: dict[str, Any]):
    def steps(folder: Path) -> None:
        saves = folder / "saves"
        saves.mkdir()
        save = saves / "game.json"
        save.write_text(arena.fill(json.dumps(tree, ensure_ascii=False)), encoding="utf-8")
        script = folder / "script.txt"
        script.write_text("\n".join(PLAY_SCRIPT[:6]) + "\n", encoding="utf-8")

        code, output = solo("saves", "--saves", str(saves))
        assert_clean("solo saves", code, output, "game.json")
        code, output = solo("play", "--load", str(save), "--script", str(script), "--partial")
        assert_clean("solo play --load", code, output, "game.json")
        assert not list(folder.rglob("*.error.txt")), "solo play --load kept an internal error report"

    return steps


@pytest.mark.slow  # sixty mutants, each through several commands: about half a minute
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not HUNTING, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_save_is_listed_and_loaded_cleanly(arena, save_seed, data):
    tree, description = data.draw(mutants(save_seed), label="mutant")
    arena.run(description, save_steps(arena, tree))
