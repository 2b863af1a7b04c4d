"""What is wrong with an adventure, said so that its author can find and fix it.

Every check of the loader, the verbs and the whole-adventure pass reports
here: a :class:`Problem` names the file, the TOML path, the line and a code
from :data:`CODES`, and the collector gathers them all rather than stopping
at the first, so one ``solo check`` shows everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import SoloError
from .locate import LineMap

#: Problem codes (documented in docs/adventures.md).
CODES = {
    "E001": "TOML syntax error",
    "E002": "wrong field or value (schema)",
    "E003": "unknown scene target",
    "E004": "condition that cannot be parsed",
    "E005": "unknown skill, Focus, Pool, Lens, conflict type, difficulty, disposition or facet",
    "E006": "unknown NPC",
    "E007": "unknown random table",
    "E008": "text slot or {if} block problem, or narration template problem",
    "E009": "dead end: a scene that is not an ending and cannot be left",
    "E010": "file cannot be read",
    "E011": "adventure id that cannot name a file (a path, a leading dot, too long)",
    "E012": "unknown shared response in use",
    "W101": "unreachable scene",
    "W102": "flag or counter read but never set",
    "W103": "flag or counter set but never read",
    "W104": "item tested but never given",
    "W105": "no ending can be reached",
    "W106": "goto list without a fallback (an entry with no if)",
    "W107": "shared response that nothing uses",
    "W108": "a field that does nothing where it is written",
    "W109": "{others} where one PC alone would read it",
    "W110": "a lower-case slot ({you}, {they}…) begins a sentence",
    "W111": "a text names a Focus its skill does not have",
    "W112": "a social conflict, or a Social opposed roll, against a mindless NPC",
}


@dataclass
class Problem:
    file: str
    line: int | None
    path: str
    code: str
    severity: str  # "error" or "warning"
    message: str
    column: int | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        path = f" [{self.path}]" if self.path and not self.line else (f" {self.path}:" if self.path else "")
        return f"{where}: {self.severity}[{self.code}]:{path} {self.message}".replace(":  ", ": ")

    def to_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "path": self.path, "code": self.code,
                "severity": self.severity, "message": self.message}


class AdventureError(SoloError):
    """An adventure with problems; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        errors = [p for p in problems if p.severity == "error"]
        head = str(errors[0]) if errors else "invalid adventure"
        more = ""
        if len(errors) > 1:
            more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''}; run 'solo check')"
        super().__init__(head + more)


class Collector:
    """The problems found so far, and each file's line map to place them."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.maps: dict[str, LineMap] = {}

    def add(self, file: str, path: str, code: str, message: str, *, severity: str | None = None,
            line: int | None = None, column: int | None = None) -> None:
        if line is None and file in self.maps:
            line = self.maps[file].line(path)
        severity = severity or ("warning" if code.startswith("W") else "error")
        self.problems.append(Problem(file, line, path, code, severity, message, column))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]


