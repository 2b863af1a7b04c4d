"""``solo check``: every problem of one or more adventures, in one run, located and sorted.

The loader (:func:`solo.story.format.loader.read_adventure`) already checks every
field and the scene graph; this module adds what only shows when the whole
adventure is looked at from further away, and never repeats the loader's
checks:

* the adventure's ``[narration]`` templates, through
  :func:`solo.narration.lint.check_templates` (unknown slots, events and
  variants, Lens names among them);
* scenes from which no ending can be reached at all (a loop with no way out),
  which the loader's dead-end check (a scene with no exit) does not see;
* a choice that ends the game from a hub whose other choices lead on to more
  of the story (:func:`solo.sim.ending_choices.early_endings`): players who
  try options blindly, or one at a time, end there early.

Codes are the loader's (:data:`solo.story.format.problems.CODES`) plus :data:`CHECK_CODES`.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..story.format.loader import read_adventure
from ..story.format.locate import LineMap
from ..story.format.problems import CODES, Problem

if TYPE_CHECKING:
    from ..story.format.adventure import Adventure

#: Codes only ``solo check`` reports (the loader's are in :data:`solo.story.format.problems.CODES`).
CHECK_CODES = {
    "E090": "no ending can be reached from this scene (every way out loops back)",
    "E099": "the checker itself failed (a bug in solo: please report it with the adventure)",
    "W190": "narration template warning (lines never used, repeated, or not ending like a sentence)",
    "W191": "a choice that ends the game from a hub whose other choices lead on to more of the story",
}
ALL_CODES = {**CODES, **CHECK_CODES}


@dataclass
class Report:
    """The problems of one adventure (``source`` as given, ``path`` as found)."""

    source: str
    path: str
    problems: list[Problem] = field(default_factory=list)
    adventure: Adventure | None = None  # as loaded, when it has no error (for --stats)

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for p in self.problems if p.severity != "error")


def sort_problems(problems: list[Problem]) -> list[Problem]:
    """By file, then line (unlocated problems first in their file), column; stable otherwise."""
    return sorted(problems, key=lambda p: (p.file, p.line or 0, p.column or 0))


def check_adventure(source: str | Path, *, name: str | None = None) -> Report:
    """Every problem of the adventure at ``source`` (a file or a folder), sorted."""
    source = Path(source)
    try:
        adventure, problems = read_adventure(source)
    except Exception as exc:  # noqa: BLE001 - the loader promises never to raise; report it if it does
        return Report(name or str(source), str(source), [
            Problem(str(source), None, "", "E099", "error", f"the loader failed: {type(exc).__name__}: {exc}")])
    problems = list(problems)
    broken_files = {p.file for p in problems if p.code in ("E001", "E010")}
    extra = [lambda: narration_problems(source, skip=broken_files)]
    if adventure is not None:  # the loader keeps an adventure with errors to itself
        dead = {p.path for p in problems if p.code == "E009"}
        extra += [lambda: trap_problems(adventure, already=dead), lambda: early_ending_problems(adventure)]
    for check in extra:
        try:
            problems += check()
        except Exception as exc:  # noqa: BLE001 - one failing check must not hide the others' findings
            problems.append(Problem(str(source), None, "", "E099", "error",
                                    f"a check failed: {type(exc).__name__}: {exc}"))
    return Report(name or str(source), str(source), sort_problems(problems), adventure)


def check_adventures(specs: list[str]) -> list[Report]:
    """One report per adventure; ``specs`` are paths or names of bundled/user adventures."""
    from ..errors import SoloError
    from ..story.format.library import find_adventure

    reports = []
    for spec in specs:
        try:
            path = find_adventure(spec)
        except SoloError as exc:
            reports.append(Report(spec, spec, [Problem(spec, None, "", "E010", "error", str(exc))]))
            continue
        reports.append(check_adventure(path, name=spec))
    return reports


# -- narration templates ---------------------------------------------------------------
def narration_problems(source: Path, *, skip: Set[str] = frozenset()) -> list[Problem]:
    """The problems of every ``[narration]`` section of the adventure's files."""
    try:
        from ..narration.lint import check_templates
        from ..narration.templates import load_templates
    except ImportError:  # pragma: no cover - only while narration is not part of the install
        return []
    import tomli

    from ..paths import PathError, read_bounded
    from ..story.format.loader import MAX_FILE_BYTES, NotAnAdventure, adventure_files

    sections: list[tuple[str, dict]] = []
    maps: dict[str, LineMap] = {}
    try:
        files = adventure_files(source)
    except NotAnAdventure:
        return []  # the loader reported it
    for f in files:
        name = str(f)
        if name in skip:
            continue
        try:
            text = read_bounded(f, MAX_FILE_BYTES).decode("utf-8")
            data = tomli.loads(text)
        except (OSError, PathError, UnicodeDecodeError, tomli.TOMLDecodeError, RecursionError, ValueError):
            continue  # the loader reported it
        narration = data.get("narration")
        if isinstance(narration, dict) and narration:
            sections.append((name, narration))
            maps[name] = LineMap(text)
    if not sections:
        return []
    types = _conflict_type_keys(source)
    templates = load_templates(extra_data=sections, strict=False)
    out = []
    for p in check_templates(templates, types):
        if p.file not in maps:
            continue  # the bundled templates have their own tests
        path = f"narration.{p.path}" if p.path else "narration"
        line = maps[p.file].line(path)
        if p.severity == "error":
            out.append(Problem(p.file, line, path, "E008", "error", p.message))
        else:
            out.append(Problem(p.file, line, path, "W190", "warning", p.message))
    return out


def _conflict_type_keys(source: Path) -> list[str] | None:
    """The conflict types the adventure may use: the good ones, whatever else its conflicts.toml holds (the
    loader reports that file's problems)."""
    from ..rules.conflict_types import read_conflict_types

    tables = source / "tables"
    return list(read_conflict_types([str(tables)] if source.is_dir() and tables.is_dir() else None)[0])


# -- scenes that can be left but never lead to an ending -------------------------------
def trap_problems(adventure: Adventure, *, already: Set[str] = frozenset()) -> list[Problem]:
    from ..story.format.graph import reachable
    from .drawing import can_end

    ends = can_end(adventure)
    # with no ending anywhere every scene is such a trap, and the game can never end: an error like any other
    # trap (the loader's W105 only warns, since `solo play` still loads the adventure)
    why = "" if ends else " (the adventure has no scene with ending = true: add one and a way to it)"
    seen = reachable(adventure)
    out = []
    for sid, scene in adventure.scenes.items():
        if sid in ends or sid not in seen or scene.where.path in already:
            continue
        out.append(_located(scene.where.file, scene.where.path, "E090",
                            f"no ending can be reached from scene {sid!r}: every way out of it loops back{why}"))
    return out


# -- a way to end the game offered beside the rest of the story ------------------------
def early_ending_problems(adventure: Adventure) -> list[Problem]:
    from .ending_choices import early_endings

    out = []
    for early in early_endings(adventure):
        onward = ", ".join(repr(s) for s in early.onward[:4]) + (" …" if len(early.onward) > 4 else "")
        when = "whenever it is offered" if early.choice.condition is None else "as soon as its condition holds"
        out.append(_located(
            early.choice.where.file, early.choice.where.path, "W191",
            f"choice {early.index} of scene {early.scene!r} ends the game (every way on from it leads only to "
            f"endings), but the story comes back to this scene and its other choices lead on to {onward}: a "
            f"player choosing at random, or trying options one by one, can take it {when} and never see them "
            f"(solo simulate's random bot often does). If that is meant, leave it; otherwise offer it only once "
            f"the leads are done (an 'if'), or let it lead to a scene that asks again and can go back"))
    return out


def _located(file: str, path: str, code: str, message: str) -> Problem:
    try:
        line = LineMap(Path(file).read_text(encoding="utf-8")).line(path)
    except (OSError, UnicodeDecodeError):
        line = None
    severity = "warning" if code.startswith("W") else "error"
    return Problem(file, line, path, code, severity, message)

