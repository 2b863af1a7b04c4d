"""What no simulated run showed (``solo simulate --coverage``): text blocks, choices and ``{if}`` sides.

While a run plays, :func:`mark_scene`, :func:`mark_menu` and :func:`mark_branch` note under a
key what the player was shown: a scene's text, each choice a menu offered, a branch's text, and
for every ``{if}`` block reached the side its condition picked then (a block inside a side not
taken is not reached). :func:`not_shown` walks the adventure for every key that could have been
noted and lists those no run noted, each with its file and TOML path.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..story.format.graph import branches_of
from ..story.format.locate import Places
from ..story.format.text import Block, Part, TextError, parse_text
from .drawing import clipped

if TYPE_CHECKING:
    from ..story.format.adventure import Adventure, Branch, Choice, Scene
    from ..story.format.expressions import Context
    from ..story.play.engine import Game


@lru_cache(maxsize=4096)
def _parts(text: str) -> tuple[Part, ...]:
    try:
        return parse_text(text)
    except TextError:
        return ()


def _mark_blocks(shown: dict[str, int], key: str, text: str, ctx: Context) -> None:
    def walk(parts: tuple[Part, ...]) -> None:
        for part in parts:
            if isinstance(part, Block):
                try:
                    holds = bool(part.condition.evaluate(ctx))
                except Exception:  # noqa: BLE001 - a condition that fails in play is the engine's to report
                    continue
                side = f"{key}#{part.offset}:{'then' if holds else 'else'}"
                shown[side] = shown.get(side, 0) + 1
                walk(part.then if holds else part.otherwise)

    if "{" in text:
        walk(_parts(text))


def _note(shown: dict[str, int], key: str) -> None:
    shown[key] = shown.get(key, 0) + 1


def _branch_key(branch: Branch) -> str:
    where = branch.where
    return f"branch:{where.file}:{where.path}" if where is not None else f"branch:{id(branch)}"


def mark_scene(shown: dict[str, int], game: Game, scene: Scene) -> None:
    """The scene's title and text as they were shown on entering it."""
    ctx = game.context()
    _note(shown, f"scene:{scene.id}")
    _mark_blocks(shown, f"scene:{scene.id}:title", scene.title, ctx)
    _mark_blocks(shown, f"scene:{scene.id}:text", scene.text, ctx)


def mark_menu(shown: dict[str, int], game: Game, scene: Scene) -> None:
    """Every choice the menu just answered offered, with the sides of its words' blocks."""
    ctx = game.context()
    for choice in game.available(scene):
        _note(shown, f"choice:{scene.id}:{choice.key}")
        _mark_blocks(shown, f"choice:{scene.id}:{choice.key}:text", choice.text, ctx)


def mark_branch(shown: dict[str, int], game: Game, choice: Choice | None, text: str) -> None:
    """The branch of ``choice`` whose text, picked now, is the ``text`` just shown."""
    if choice is None:
        return
    ctx = game.context()
    for branch in _branches(choice):
        if branch.text and game.picked(branch.text) == text:
            key = _branch_key(branch)
            _note(shown, key)
            _mark_blocks(shown, f"{key}:text", branch.text, ctx)
            return


#: The actions whose outcome the game says in an event (the tally reads them), so that a branch with no text of its
#: own is known taken too: a roll's success that leads on without a word, taken in no run (a GM's 0 % roll).
OUTCOME_KINDS = frozenset({"roll", "opposed", "conflict", "oracle"})


def _outcome_key(choice: Choice, written: str, escalated: bool) -> str:
    where = choice.where
    return f"outcome:{where.file}:{where.path}:{'escalation.' if escalated else ''}{written}"


def mark_outcome(shown: dict[str, int], choice: Choice | None, kind: str, outcome: str,
                 escalated: bool) -> str | None:
    """The outcome the game just said of ``choice``'s action (of ``kind``; ``escalated``: of the conflict its lost
    opposed roll became): the branch it takes (``Action.branch``, as written or by its fallback) is taken, text or
    none. Returns the key noted, so that a loss the player then escalates can be taken back (:func:`unmark`)."""
    action = choice.action if choice is not None else None
    if action is None or choice is None:
        return None
    if escalated and action.escalation is not None:
        action = action.escalation
    elif action.kind != kind:
        return None
    branch = action.branch(outcome)
    written = next((key for key, b in action.branches.items() if b is branch), None) if branch is not None else None
    if written is None:
        return None
    key = _outcome_key(choice, written, escalated)
    _note(shown, key)
    return key


def unmark(shown: dict[str, int], key: str) -> None:
    """Take back one noting of ``key``: a lost opposed roll that was escalated took no branch of its own."""
    left = shown.get(key, 0) - 1
    if left > 0:
        shown[key] = left
    else:
        shown.pop(key, None)


def _branches(choice: Choice) -> Iterator[Branch]:
    if choice.goto is not None:
        yield choice.goto
    action = choice.action
    if action is not None:
        yield from action.branches.values()
        if action.escalation is not None:
            yield from action.escalation.branches.values()


def _sides(key: str, text: str) -> Iterator[tuple[str, Block, str]]:
    def walk(parts: tuple[Part, ...]) -> Iterator[tuple[str, Block, str]]:
        for part in parts:
            if isinstance(part, Block):
                yield f"{key}#{part.offset}:then", part, "true"
                yield f"{key}#{part.offset}:else", part, "false"
                yield from walk(part.then)
                yield from walk(part.otherwise)

    if "{" in text:
        yield from walk(_parts(text))


def not_shown(adventure: Adventure, shown: dict[str, int]) -> list[dict[str, Any]]:
    """Everything no run showed: ``{what, where, text}`` entries, in the adventure's order. ``what`` is
    ``scene`` (its text), ``choice`` (never offered), ``branch`` (its text), ``outcome`` (a branch with no text of
    its own that no run took: ``text`` is the choice's words and the outcome, ``Force the firebox [success]``), or
    ``if`` (one side of a block: ``text`` names the condition and the side, e.g. ``{if hours >= 5} when true``)."""
    out: list[dict[str, Any]] = []
    places = Places()

    lines: dict[str, tuple[str, int]] = {}  # where -> (file, line): the list is given in the files' order

    def place(file: str, path: str) -> str:  # "mill.toml:31: scenes.office", as solo check and solo prove say it
        at = places.at(file, path)
        lines[at["where"]] = (file, at["line"] or 0)
        return at["where"]

    def sides(key: str, text: str, file: str, path: str) -> None:
        for side, block, truth in _sides(key, text):
            if side not in shown:
                out.append({"what": "if", "where": place(file, path),
                            "text": f"{{if {block.condition.source}}} when {truth}"})

    seen: set[str] = set()
    for sid, scene in adventure.scenes.items():
        file, path = scene.where.file, scene.where.path
        if f"scene:{sid}" not in shown:
            out.append({"what": "scene", "where": place(file, path), "text": " ".join(scene.title.split())})
        else:
            sides(f"scene:{sid}:title", scene.title, file, f"{path}.title")
            sides(f"scene:{sid}:text", scene.text, file, f"{path}.text")
        for choice in scene.choices:
            words = " ".join(choice.text.split())
            where = place(choice.where.file, choice.where.path)
            if f"choice:{sid}:{choice.key}" not in shown:
                out.append({"what": "choice", "where": where, "text": words})
                continue
            sides(f"choice:{sid}:{choice.key}:text", choice.text, choice.where.file, f"{choice.where.path}.text")
            for escalated, action in ((False, choice.action),
                                      (True, choice.action.escalation if choice.action is not None else None)):
                if action is None or action.kind not in OUTCOME_KINDS:
                    continue
                for outcome, branch in action.branches.items():
                    if not branch.text and _outcome_key(choice, outcome, escalated) not in shown:
                        out.append({"what": "outcome", "where": where,
                                    "text": f"{words} [{'escalated, ' if escalated else ''}{outcome}]"})
        for _, branch, _ in branches_of(scene):
            key = _branch_key(branch)
            if not branch.text or branch.where is None or key in seen:
                continue
            seen.add(key)
            if key not in shown:
                out.append({"what": "branch", "where": place(branch.where.file, f"{branch.where.path}.text"),
                            "text": clipped(branch.text, 80)})  # cut with "…", not mid-word without a sign
            else:
                sides(f"{key}:text", branch.text, branch.where.file, f"{branch.where.path}.text")
    order = {file: i for i, file in enumerate(dict.fromkeys(file for file, _ in lines.values()))}
    return sorted(out, key=lambda m: (order[lines[m["where"]][0]], lines[m["where"]][1]))  # stable: one line's in turn
