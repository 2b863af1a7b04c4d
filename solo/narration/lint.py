"""The template check: everything an author can get wrong, found before anyone plays.

The game loads templates strictly and stops at the first fault; authors want
the whole list at once, with files and lines. This check is what the tests
run on the bundled text and what the adventure checker runs on an adventure's
``[narration]``: it counts lines the way selection gathers them, so "enough
lines" means enough for the narrator to avoid repeating itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..errors import did_you_mean
from .narrator import Narrator
from .templates import ANY, EVENTS, GENERIC, MIN_LINES, Problem, Template, Templates, allowed_slots, slot_errors

__all__ = ["check_templates", "required_keys"]


def required_keys(types: Iterable[str]) -> list[tuple[str, str, str]]:
    """(type, event, variant) for every combination that must have lines: each type and ``generic``."""
    out = []
    for ctype in list(dict.fromkeys(list(types) + [GENERIC])):
        for event, spec in EVENTS.items():
            for variant in spec.required or (ANY,):
                out.append((ctype, event, variant))
    return out


def check_templates(templates: Templates, conflict_types: Iterable[str] | None = None) -> list[Problem]:
    """Every problem with ``templates``: load faults, unknown or unfillable slots, too few lines.

    ``conflict_types`` are the type keys that must be covered (default: the
    bundled types); ``generic`` is always checked, as the last fallback.
    """
    if conflict_types is None:
        from ..rules.conflict_types import bundled_conflict_types

        conflict_types = list(bundled_conflict_types())
    types = list(conflict_types)
    problems: list[Problem] = list(templates.problems)
    known_scopes = set(types) | {GENERIC}
    unused: dict[str, list[Template]] = {}  # an unknown type's lines, said once for all its events
    for (scope, event, variant), lines in sorted(templates.lines.items()):
        base = scope.split(".", 1)[0]
        if base not in known_scopes:
            unused.setdefault(base, []).extend(lines)
        texts: set[str] = set()
        for t in lines:
            for message in slot_errors(event, variant, t.slots):  # templates built by hand, not loaded
                problems.append(Problem(t.file, t.path, message, t.line))
            if t.text in texts:
                problems.append(Problem(t.file, t.path, "the same line twice in one key", t.line, "warning"))
            texts.add(t.text)
            if not t.text.rstrip().endswith((".", "!", "?", '"', "”", "'")):
                problems.append(Problem(t.file, t.path, "a line should end like a sentence (. ! ? or a quote)",
                                        t.line, "warning"))
    for base, lines in unused.items():
        where = min(lines, key=lambda t: (t.file or "", t.line or 0), default=None)
        problems.append(Problem(where.file if where else None, base,
                                f"no conflict type {base!r}{did_you_mean(base, known_scopes)}; "
                                "these lines are never used", where.line if where else None, "warning"))
    narrator = Narrator(templates, random.Random(0))
    reported: set[tuple[str, str, str]] = set()
    for ctype, event, variant in required_keys(types):
        for side in ("a", "b"):
            chain = narrator.chain(ctype, event, [variant], side)
            _, lines = narrator.candidates(chain, allowed_slots(event, variant))
            if len(lines) >= MIN_LINES or (ctype, event, variant) in reported:
                continue
            reported.add((ctype, event, variant))
            key = f"{ctype}.{event}" + ("" if variant == ANY else f".{variant}")
            source = next((t for k in chain for t in templates.lines.get(k, ())), None)
            problems.append(Problem(
                source.file if source else None, key,
                f"only {len(lines)} line{'' if len(lines) == 1 else 's'} counting the fallbacks to {GENERIC}; "
                f"needs at least {MIN_LINES}",
                source.line if source else None))
    return problems

