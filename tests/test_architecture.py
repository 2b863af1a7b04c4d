"""The package graph holds its layers: each part of solo imports only the parts below it.

    events, decisions, errors, paths, toml files, terminal text   (the vocabulary every layer shares)
    rules                                          (the pure rules core)
    npc, oracle, narration                         (content built on the rules; not on each other)
    minds                                          (deciders, reading the rules and NPC Code Blocks)
    story, characters, saves                       (adventures and games)
    sim, ui                                        (auto-play and the terminal: both drive a game)
    cli                                            (the commands)

Imports inside functions count too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import solo

PACKAGE = Path(solo.__file__).parent
BASE = {"solo", "events", "decisions", "errors", "paths", "file_lock", "json_files", "toml_files", "toml_write",
        "lazy_exports", "collector", "terminal_text", "sampling"}

# part -> the parts it may import (besides itself and the base)
ALLOWED: dict[str, set[str]] = {
    "rules": set(),
    "npc": {"rules"},
    "oracle": {"rules"},
    "narration": {"rules"},
    "minds": {"rules", "npc"},
    "story": {"rules", "npc", "oracle", "narration", "minds"},
    "characters": {"rules"},
    "saves": set(),
    "sim": {"rules", "npc", "oracle", "narration", "minds", "story", "characters"},
    "ui": {"rules", "npc", "oracle", "narration", "minds", "story", "characters", "saves"},
    "cli": {"rules", "npc", "oracle", "narration", "minds", "story", "characters", "saves", "sim", "ui"},
    "__main__": {"cli"},
}


def _part(module: str) -> str:
    """The first name below ``solo`` of a dotted module name (``solo`` itself for the package)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "solo"


def _module_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every solo module ``path`` imports, absolute or relative, with its line."""
    module = _module_of(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "solo"]
            continue
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                if node.module is None:  # from . import x, y: a name is a module, or a name in the package
                    out += [(node.lineno, f"{target}.{a.name}" if _is_module(f"{target}.{a.name}") else target)
                            for a in node.names]
                    continue
            else:
                target = node.module or ""
                if target == "solo":  # from solo import story: each name may be a module
                    out += [(node.lineno, f"solo.{a.name}" if _is_module(f"solo.{a.name}") else "solo")
                            for a in node.names]
                    continue
            if target.split(".")[0] == "solo":
                out.append((node.lineno, target))
    return out


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_bundled" not in p.parts)


def test_every_module_belongs_to_a_known_layer():
    unknown = {_part(_module_of(p)) for p in _sources()} - BASE - set(ALLOWED)
    assert not unknown, f"new top-level parts need a place in the layers: {sorted(unknown)}"


def test_no_module_imports_a_layer_above_its_own():
    wrong = []
    for path in _sources():
        here = _part(_module_of(path))
        allowed = BASE | {here} | ALLOWED.get(here, set())
        for line, target in _imports(path):
            if _part(target) not in allowed:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_layer_check_sees_relative_and_lazy_imports(tmp_path):
    # the checker itself must find what it is meant to forbid
    src = tmp_path / "solo" / "rules"
    src.mkdir(parents=True)
    (tmp_path / "solo" / "__init__.py").write_text("")
    (src / "__init__.py").write_text("")
    probe = src / "probe.py"
    (src / "dice.py").write_text("")
    (tmp_path / "solo" / "oracle").mkdir()
    (tmp_path / "solo" / "oracle" / "__init__.py").write_text("")
    probe.write_text("def f():\n    from ..story import engine\n    from . import dice\nimport solo.ui.view\n"
                     "from solo import oracle\n")
    global PACKAGE
    saved = PACKAGE
    PACKAGE = tmp_path / "solo"
    try:
        found = {t for _, t in _imports(probe)}
    finally:
        PACKAGE = saved
    assert found == {"solo.story", "solo.rules.dice", "solo.ui.view", "solo.oracle"}


#: What the adventure format may read of play: the verb registries (a verb's fields, check and resolve are one
#: class, issue 29 point 8) and the constants a field's check compares with.
FORMAT_READS_OF_PLAY = {"solo.story.play.actions", "solo.story.play.effects", "solo.story.play.knowledge",
                        "solo.story.play.npcs", "solo.story.play.luck"}


def test_the_format_reads_play_only_through_the_verb_registries():
    """``story/format`` (reading and checking a file) stands below ``story/play`` (running a game) but for the
    registries its checks go through; a format module reaching for the engine would tie loading to play."""
    wrong = []
    for path in sorted((PACKAGE / "story" / "format").glob("*.py")):
        for line, target in _imports(path):
            if target.startswith("solo.story.play") and target not in FORMAT_READS_OF_PLAY:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)
    assert (PACKAGE / "story" / "play" / "engine.py").exists() and (PACKAGE / "story" / "format" / "schema.py").exists()
