"""Loading adventures from TOML, checking every field, and reporting every problem.

``load_adventure`` raises :class:`AdventureError` listing all problems found;
``read_adventure`` returns the adventure (or ``None``) together with the
problems, for ``solo check``. Each problem names the file, the TOML path and
the line, with "did you mean" for misspelt ids. Loading never lets a Python
traceback reach the user, whatever the file holds.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli

from ..errors import ContentError, SoloError, did_you_mean
from ..rules.conflict_types import ConflictType, load_conflict_types
from ..rules.rolls import difficulty_modifier
from ..rules.rulebook import POOLS, rules
from .adventure import Action, Adventure, Branch, Choice, Effect, NPCDef, Scene, Where
from .expressions import ExpressionError, parse_condition
from .locate import LineMap

MAX_FILE_BYTES = 2_000_000
ADVENTURE_FIELDS = {"id", "title", "author", "version", "introduction", "party", "comae", "start", "pc",
                    "negative_luck", "tension", "threads"}
SCENE_FIELDS = {"title", "text", "choices", "on_enter", "ending", "outcome", "npcs", "oracle_setup", "control"}
CHOICE_FIELDS = {"text", "if", "effects", "goto", "once", "roll", "opposed", "conflict", "oracle", "table", "request"}
ACTIONS = ("roll", "opposed", "conflict", "oracle", "table", "request")
BRANCH_FIELDS = {"goto", "text", "effects"}
ACTION_FIELDS = {
    "roll": ({"skill", "focus", "difficulty", "modifier", "who", "among"},
             ("success", "failure"), ("exceptional_success", "exceptional_failure")),
    "opposed": ({"skill", "focus", "difficulty", "modifier", "who", "among", "npc", "npc_skill", "npc_focus",
                 "against", "escalate"},
                ("win", "lose"), ("fail",)),
    "conflict": ({"type", "npcs", "obstacle", "stakes", "rounds"},
                 ("won", "lost"), ("fled", "surrendered", "opponent_fled", "opponent_surrendered", "comae",
                                   "stalemate")),
    "oracle": ({"question", "odds"}, ("yes", "no"), ("yes_and", "yes_but", "no_and", "no_but")),
    "table": ({"name"}, (), ("then",)),
    "request": ({"tag"}, ("granted", "refused"), ()),
}
EFFECT_KEYS = {
    "set": set(), "clear": set(), "add": {"by"}, "counter": {"value"}, "give": set(), "take": set(),
    "damage": {"amount", "who"}, "heal": {"amount", "who"}, "luck": {"who"},
    "disposition": {"shift", "to"}, "tension": set(), "thread": set(), "close_thread": set(),
    "note": set(), "rest": {"days"}, "memory": {"event"}, "treat": set(),
}
MEMORY_EVENTS = ("spared", "helped", "paid", "humiliated", "lied_to", "threatened", "hurt")
WHO = ("active", "choose", "best")
#: Who a Social roll is made among, for the Tags' modifiers (RULES.md §2.5).
AMONG = ("upper_class", "criminals", "borderline_access", "aware_of_status")


class AdventureError(SoloError):
    """An adventure with problems; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        errors = [p for p in problems if p.severity == "error"]
        head = str(errors[0]) if errors else "invalid adventure"
        more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''}; run 'solo check')" if len(errors) > 1 else ""
        super().__init__(head + more)


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

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "path": self.path, "code": self.code,
                "severity": self.severity, "message": self.message}


#: Problem codes (documented in docs/adventures.md).
CODES = {
    "E001": "TOML syntax error",
    "E002": "wrong field or value (schema)",
    "E003": "unknown scene target",
    "E004": "condition that cannot be parsed",
    "E005": "unknown skill, Focus, Pool, Lens, conflict type, difficulty or disposition",
    "E006": "unknown NPC",
    "E007": "unknown random table",
    "E008": "narration template problem",
    "E009": "dead end: a scene that is not an ending and cannot be left",
    "E010": "file cannot be read",
    "W101": "unreachable scene",
    "W102": "flag or counter read but never set",
    "W103": "flag or counter set but never read",
    "W104": "item tested but never given",
    "W105": "no ending can be reached",
}


class _Collector:
    def __init__(self):
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


def _files_of(source: Path) -> list[Path]:
    if source.is_dir():
        return sorted(p for p in source.rglob("*.toml") if "tables" not in p.relative_to(source).parts[:-1])
    return [source]


def content_hash(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.name.encode())
        digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def read_adventure(source: str | Path, *, conflict_folders: list[str | Path] | None = None
                   ) -> tuple[Adventure | None, list[Problem]]:
    """Parse and check an adventure file or folder; returns it (or None) and every problem."""
    source = Path(source)
    c = _Collector()
    if not source.exists():
        c.add(str(source), "", "E010", "no such file or folder")
        return None, c.problems
    files = _files_of(source)
    if not files:
        c.add(str(source), "", "E010", "no .toml files in this folder")
        return None, c.problems
    merged: dict[str, Any] = {"adventure": None, "npcs": {}, "scenes": {}, "narration": {}}
    origin: dict[str, str] = {}
    for f in files:
        name = str(f)
        try:
            raw = f.read_bytes()
            if len(raw) > MAX_FILE_BYTES:
                c.add(name, "", "E010", f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB")
                continue
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            c.add(name, "", "E010", f"cannot read the file: {exc}")
            continue
        try:
            data = tomli.loads(text)
        except tomli.TOMLDecodeError as exc:
            c.add(name, "", "E001", exc.msg, line=exc.lineno, column=exc.colno)
            continue
        c.maps[name] = LineMap(text)
        for key, value in data.items():
            if key == "adventure":
                if merged["adventure"] is not None:
                    c.add(name, "adventure", "E002", f"[adventure] is already defined in {origin['adventure']}")
                    continue
                merged["adventure"] = value
                origin["adventure"] = name
            elif key in ("npcs", "scenes", "narration"):
                if not isinstance(value, dict):
                    c.add(name, key, "E002", f"[{key}] must be a table")
                    continue
                for item_id, item in value.items():
                    if item_id in merged[key] and key != "narration":
                        c.add(name, f"{key}.{item_id}", "E002",
                              f"{key[:-1]} {item_id!r} is already defined in {origin[f'{key}.{item_id}']}")
                        continue
                    merged[key][item_id] = item
                    origin[f"{key}.{item_id}"] = name
            else:
                c.add(name, key, "E002", f"unknown section [{key}]{did_you_mean(key, ['adventure', 'npcs', 'scenes', 'narration'])}")
    if c.errors:
        return None, c.problems
    if merged["adventure"] is None:
        c.add(str(files[0]), "adventure", "E002", "missing [adventure] section (title, start …)")
        return None, c.problems
    own_tables = [source / "tables"] if source.is_dir() and (source / "tables").is_dir() else []
    try:
        types = load_conflict_types(list(conflict_folders or []) + own_tables)
    except ContentError as exc:
        c.add(exc.file or "", exc.path or "", "E002", exc.message)
        return None, c.problems
    builder = _Builder(c, merged, origin, types, source, files)
    adventure = builder.build()
    if adventure is not None:
        from .graph import graph_problems

        graph_problems(adventure, c)
    return (adventure if not c.errors else None), c.problems


def load_adventure(source: str | Path, **kw) -> Adventure:
    """Load an adventure or raise :class:`AdventureError` with every problem found."""
    adventure, problems = read_adventure(source, **kw)
    if adventure is None:
        raise AdventureError(problems)
    return adventure


class _Builder:
    def __init__(self, c: _Collector, merged, origin, types: dict[str, ConflictType], source: Path, files):
        self.c = c
        self.m = merged
        self.origin = origin
        self.types = types
        self.source = source
        self.files = files
        self.t = rules()
        self.scene_ids = set(merged["scenes"]) if isinstance(merged["scenes"], dict) else set()
        self.npc_ids = set(merged["npcs"])

    # -- small typed readers -----------------------------------------------------
    def fail(self, file, path, message, code="E002"):
        self.c.add(file, path, code, message)

    def expect(self, file, path, value, kinds, what) -> bool:
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        if isinstance(value, bool) and bool not in kinds:
            self.fail(file, path, f"expected {what}, got true/false")
            return False
        if not isinstance(value, kinds):
            self.fail(file, path, f"expected {what}, got {_describe(value)}")
            return False
        return True

    def unknown_fields(self, file, path, table: dict, allowed: set) -> None:
        for key in table:
            if key not in allowed:
                self.fail(file, f"{path}.{key}", f"unknown field {key!r}{did_you_mean(key, allowed)}")

    def text(self, file, path, table, key, required=False, default="") -> str:
        if key not in table:
            if required:
                self.fail(file, path, f"missing field {key!r}")
            return default
        value = table[key]
        if self.expect(file, f"{path}.{key}", value, str, "text"):
            self.check_slots(file, f"{path}.{key}", value)
            return value
        return default

    def check_slots(self, file, path, text: str) -> None:
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "{":
                if text.startswith("{{", i):
                    i += 2
                    continue
                end = text.find("}", i)
                if end < 0:
                    self.fail(file, path, "a '{' is never closed (write '{{' for a literal brace)", "E008")
                    return
                slot = text[i + 1:end]
                if slot.startswith("npc."):
                    npc = slot[4:]
                    if npc not in self.npc_ids:
                        self.fail(file, path, f"unknown NPC {npc!r} in {{{slot}}}{did_you_mean(npc, self.npc_ids)}", "E006")
                elif not (slot in ("pc", "party", "they", "them", "their", "They", "Their", "theirs", "themself")
                          or slot.startswith("counter.")):
                    self.fail(file, path, f"unknown slot {{{slot}}} (known: {{pc}}, {{party}}, {{npc.ID}}, "
                                          f"{{counter.NAME}}, {{they}}, {{them}}, {{their}})", "E008")
                i = end + 1
            elif ch == "}":
                if text.startswith("}}", i):
                    i += 2
                    continue
                self.fail(file, path, "a '}' without '{' (write '}}' for a literal brace)", "E008")
                return
            else:
                i += 1

    def condition(self, file, path, value):
        if not self.expect(file, path, value, str, "a condition in quotes"):
            return None
        try:
            cond = parse_condition(value)
        except ExpressionError as exc:
            self.fail(file, path, f"bad condition {value!r}: {exc}", "E004")
            return None
        for fn, args in cond.calls():
            named = fn not in ("min", "max", "luck", "tension", "party_size")
            if named and any(isinstance(a, int) for a in args):
                self.fail(file, path, f"{fn}() takes names in quotes, e.g. {fn}(\"...\"), not numbers", "E004")
                continue
            if fn in ("visited", "visits") and args and isinstance(args[0], str) and args[0] not in self.scene_ids:
                self.fail(file, path, f"unknown scene {args[0]!r}{did_you_mean(args[0], self.scene_ids)}", "E003")
            if fn in ("disposition", "npc_status") and args and isinstance(args[0], str) and args[0] not in self.npc_ids:
                self.fail(file, path, f"unknown NPC {args[0]!r}{did_you_mean(args[0], self.npc_ids)}", "E006")
            if fn == "skill" and args and isinstance(args[0], str) and args[0] not in self.t.skills:
                self.fail(file, path, f"unknown skill {args[0]!r}{did_you_mean(args[0], self.t.skills)}", "E005")
            if fn in ("pool", "pool_max") and args and isinstance(args[0], str) and args[0] not in POOLS:
                self.fail(file, path, f"unknown Pool {args[0]!r}{did_you_mean(args[0], POOLS)}", "E005")
            if fn == "tag" and args and isinstance(args[0], str) and args[0] not in self.t.tags:
                self.fail(file, path, f"unknown Tag {args[0]!r}{did_you_mean(args[0], self.t.tags)}", "E005")
        return cond

    def target(self, file, path, value) -> str | None:
        if not self.expect(file, path, value, str, "a scene id"):
            return None
        if value not in self.scene_ids:
            self.fail(file, path, f"unknown scene {value!r}{did_you_mean(value, self.scene_ids)}", "E003")
            return None
        return value

    # -- the whole adventure ---------------------------------------------------------
    def build(self) -> Adventure | None:
        file = self.origin["adventure"]
        meta = self.m["adventure"]
        if not isinstance(meta, dict):
            self.fail(file, "adventure", "[adventure] must be a table")
            return None
        self.unknown_fields(file, "adventure", meta, ADVENTURE_FIELDS)
        title = self.text(file, "adventure", meta, "title", required=True)
        start = meta.get("start")
        if start is None:
            self.fail(file, "adventure", "missing field 'start' (the first scene)")
        else:
            start = self.target(file, "adventure.start", start)
        party_min, party_max = 1, 1
        party = meta.get("party", 1)
        if isinstance(party, int) and not isinstance(party, bool):
            party_min, party_max = 1, party
        elif isinstance(party, dict):
            party_min, party_max = party.get("min", 1), party.get("max", 1)
        else:
            self.fail(file, "adventure.party", "expected a number or { min = N, max = N }")
        if not (isinstance(party_min, int) and isinstance(party_max, int) and 1 <= party_min <= party_max <= 6):
            self.fail(file, "adventure.party", "party sizes must satisfy 1 <= min <= max <= 6")
            party_min, party_max = 1, 1
        comae = meta.get("comae", "removed")
        if comae not in ("removed", "death"):
            self.fail(file, "adventure.comae", "expected \"removed\" or \"death\"")
        tension = meta.get("tension", 5)
        if not (isinstance(tension, int) and not isinstance(tension, bool) and 1 <= tension <= 9):
            self.fail(file, "adventure.tension", "expected a whole number 1..9")
            tension = 5
        negative = meta.get("negative_luck", False)
        if not isinstance(negative, bool):
            self.fail(file, "adventure.negative_luck", "expected true or false")
        threads = meta.get("threads", [])
        if not (isinstance(threads, list) and all(isinstance(t, str) for t in threads)):
            self.fail(file, "adventure.threads", "expected a list of texts")
            threads = []
        pc = meta.get("pc")
        if pc is not None and not isinstance(pc, str):
            self.fail(file, "adventure.pc", "expected the name of a pregenerated character")
            pc = None
        elif pc is not None:
            from ..rules.creation import pregenerated

            try:
                pregenerated(pc)
            except SoloError as exc:
                self.fail(file, "adventure.pc", str(exc))
                pc = None
        npcs = self.build_npcs()
        scenes = {}
        for sid, data in self.m["scenes"].items():
            scene = self.build_scene(sid, data)
            if scene is not None:
                scenes[sid] = scene
        if not self.m["scenes"]:
            self.fail(file, "scenes", "the adventure has no scenes")
        narration = self.m.get("narration") or {}
        adv_id = meta.get("id") or (self.source.stem if self.source.is_file() else self.source.name)
        if not isinstance(adv_id, str):
            self.fail(file, "adventure.id", "expected text")
            adv_id = self.source.stem
        tables_dirs = [str(self.source / "tables")] if self.source.is_dir() and (self.source / "tables").is_dir() else []
        return Adventure(
            id=adv_id, title=title, start=start or "", scenes=scenes, npcs=npcs,
            author=self.text(file, "adventure", meta, "author"), version=str(meta.get("version", "")),
            introduction=self.text(file, "adventure", meta, "introduction"),
            party_min=party_min, party_max=party_max, comae=comae if comae in ("removed", "death") else "removed",
            pc=pc, negative_luck=bool(negative), tension=tension, threads=list(threads),
            templates=narration if isinstance(narration, dict) else {}, tables_dirs=tables_dirs,
            files=[str(f) for f in self.files], content_hash=content_hash(self.files), source=str(self.source),
        )

    def build_npcs(self) -> dict[str, NPCDef]:
        from ..npc import NPC

        out = {}
        for nid, data in self.m["npcs"].items():
            file = self.origin[f"npcs.{nid}"]
            path = f"npcs.{nid}"
            if not isinstance(data, dict):
                self.fail(file, path, "an NPC must be a table")
                continue
            try:
                NPC.from_dict(data, file=file, rng=random.Random(0))
            except ContentError as exc:
                self.fail(file, f"{path}.{exc.path}" if exc.path else path, exc.message)
                continue
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                self.fail(file, path, f"cannot read this NPC: {exc}")
                continue
            out[nid] = NPCDef(nid, data, Where(file, path))
        return out

    def build_scene(self, sid: str, data) -> Scene | None:
        file = self.origin[f"scenes.{sid}"]
        path = f"scenes.{sid}"
        if not isinstance(data, dict):
            self.fail(file, path, "a scene must be a table")
            return None
        self.unknown_fields(file, path, data, SCENE_FIELDS)
        ending = data.get("ending", False)
        if not isinstance(ending, bool):
            self.fail(file, f"{path}.ending", "expected true or false")
            ending = False
        scene = Scene(
            id=sid, title=self.text(file, path, data, "title", default=sid.replace("_", " ").title()),
            text=self.text(file, path, data, "text", required=True), where=Where(file, path), ending=ending,
        )
        if "outcome" in data and self.expect(file, f"{path}.outcome", data["outcome"], str, "a word"):
            scene.outcome = data["outcome"]
        if "control" in data:
            if data["control"] in ("pcs", "npcs"):
                scene.control = data["control"]
            else:
                self.fail(file, f"{path}.control", "expected \"pcs\" or \"npcs\"")
        if "oracle_setup" in data:
            if isinstance(data["oracle_setup"], bool):
                scene.oracle_setup = data["oracle_setup"]
            else:
                self.fail(file, f"{path}.oracle_setup", "expected true or false")
        for i, npc in enumerate(data.get("npcs", []) if isinstance(data.get("npcs", []), list) else []):
            if npc not in self.npc_ids:
                self.fail(file, f"{path}.npcs[{i}]", f"unknown NPC {npc!r}{did_you_mean(str(npc), self.npc_ids)}", "E006")
            else:
                scene.npcs.append(npc)
        scene.on_enter = self.effects(file, f"{path}.on_enter", data.get("on_enter", []))
        choices = data.get("choices", [])
        if not isinstance(choices, list):
            self.fail(file, f"{path}.choices", "expected a list of choices ([[scenes.ID.choices]])")
            choices = []
        if ending and choices:
            self.fail(file, f"{path}.choices", "an ending has no choices")
        for i, ch in enumerate(choices):
            choice = self.build_choice(file, f"{path}.choices[{i}]", ch)
            if choice is not None:
                choice.key = f"c{i + 1}"  # not a digit: typed numbers always mean positions
                scene.choices.append(choice)
        return scene

    def build_choice(self, file, path, data) -> Choice | None:
        if not isinstance(data, dict):
            self.fail(file, path, "a choice must be a table")
            return None
        self.unknown_fields(file, path, data, CHOICE_FIELDS)
        choice = Choice(text=self.text(file, path, data, "text", required=True), where=Where(file, path))
        if "if" in data:
            choice.condition = self.condition(file, f"{path}.if", data["if"])
        if "once" in data:
            if isinstance(data["once"], bool):
                choice.once = data["once"]
            else:
                self.fail(file, f"{path}.once", "expected true or false")
        choice.effects = self.effects(file, f"{path}.effects", data.get("effects", []))
        actions = [a for a in ACTIONS if a in data]
        if len(actions) > 1:
            self.fail(file, path, f"a choice does one thing: it has {', '.join(actions)}")
        if "goto" in data:
            if actions:
                self.fail(file, f"{path}.goto", f"with {actions[0]} the outcome branches say where to go, not goto")
            else:
                choice.goto = self.branch(file, f"{path}.goto", data["goto"])
        if actions:
            choice.action = self.action(file, f"{path}.{actions[0]}", actions[0], data[actions[0]])
        elif "goto" not in data:
            choice.goto = None  # stays in the scene: effects only
        return choice

    def branch(self, file, path, value) -> Branch | None:
        if isinstance(value, str):
            target = self.target(file, path, value)
            return Branch(target, where=Where(file, path)) if target else None
        if not isinstance(value, dict):
            self.fail(file, path, f"expected a scene id or {{ goto = …, text = …, effects = […] }}, got {_describe(value)}")
            return None
        self.unknown_fields(file, path, value, BRANCH_FIELDS)
        target = self.target(file, f"{path}.goto", value["goto"]) if "goto" in value else None
        return Branch(target, self.text(file, path, value, "text") or None,
                      self.effects(file, f"{path}.effects", value.get("effects", [])), Where(file, path))

    def action(self, file, path, kind, spec) -> Action | None:
        if not isinstance(spec, dict):
            self.fail(file, path, f"{kind} must be a table")
            return None
        fields, required, optional = ACTION_FIELDS[kind]
        self.unknown_fields(file, path, spec, fields | set(required) | set(optional))
        branches = {}
        for name in required:
            if name not in spec:
                self.fail(file, path, f"missing outcome {name!r}")
        for name in required + optional:
            if name in spec:
                b = self.branch(file, f"{path}.{name}", spec[name])
                if b is not None:
                    branches[name] = b
        clean = {k: v for k, v in spec.items() if k in fields}
        action = Action(kind, clean, branches, Where(file, path))
        getattr(self, f"_check_{kind}")(file, path, clean, action)
        return action

    def _skill(self, file, path, spec, key="skill", focus_key="focus", required=True):
        skill = spec.get(key)
        if skill is None:
            if required:
                self.fail(file, path, f"missing field {key!r}")
            return
        if skill not in self.t.skills:
            self.fail(file, f"{path}.{key}", f"unknown skill {skill!r}{did_you_mean(str(skill), self.t.skills)}", "E005")
            return
        focus = spec.get(focus_key)
        if focus is not None:
            for i, f in enumerate(focus if isinstance(focus, list) else [focus]):
                if f not in self.t.skills[skill].focuses:
                    self.fail(file, f"{path}.{focus_key}", f"{f!r} is not a Focus of {skill}"
                                                           f"{did_you_mean(str(f), self.t.skills[skill].focuses)}", "E005")

    def _difficulty(self, file, path, spec):
        if "difficulty" in spec:
            try:
                difficulty_modifier(str(spec["difficulty"]))
            except KeyError as exc:
                self.fail(file, f"{path}.difficulty", exc.args[0], "E005")
        if "modifier" in spec and not (isinstance(spec["modifier"], int) and not isinstance(spec["modifier"], bool)):
            self.fail(file, f"{path}.modifier", "expected a whole number such as -20")
        if "who" in spec and spec["who"] not in WHO:
            self.fail(file, f"{path}.who", f"expected one of {', '.join(WHO)}")
        among = spec.get("among", [])
        if not isinstance(among, list) or any(a not in AMONG for a in among):
            self.fail(file, f"{path}.among", f"expected a list of: {', '.join(AMONG)}")

    def _check_roll(self, file, path, spec, action):
        self._skill(file, path, spec)
        self._difficulty(file, path, spec)

    def _check_opposed(self, file, path, spec, action):
        self._skill(file, path, spec)
        self._difficulty(file, path, spec)
        if "npc" in spec:
            if spec["npc"] not in self.npc_ids:
                self.fail(file, f"{path}.npc", f"unknown NPC {spec['npc']!r}{did_you_mean(str(spec['npc']), self.npc_ids)}", "E006")
            self._skill(file, path, spec, "npc_skill", "npc_focus", required=False)
        elif "against" in spec:
            if not (isinstance(spec["against"], int) and not isinstance(spec["against"], bool)):
                self.fail(file, f"{path}.against", "expected a skill value such as 50")
        else:
            self.fail(file, path, "an opposed roll needs an 'npc' or a fixed skill 'against'")
        if "escalate" in spec:
            esc = spec["escalate"]
            if not isinstance(esc, dict):
                self.fail(file, f"{path}.escalate", "expected a conflict table { type = …, won = …, lost = … }")
            else:
                esc = dict(esc)
                if "npc" in spec and "npcs" not in esc and "obstacle" not in esc:
                    esc["npcs"] = [spec["npc"]]
                if "type" not in esc and spec.get("skill") in self.t.skills:
                    from ..rules.escalation import EscalationError, fitting_type

                    focus = spec.get("focus")
                    try:  # the conflict that fits the roll that was lost (RULES.md §4)
                        esc["type"] = fitting_type(spec["skill"], focus if isinstance(focus, str) else None,
                                                   self.types).key
                    except EscalationError as exc:
                        self.fail(file, f"{path}.escalate", f"{exc}: give escalate a 'type'", "E005")
                action.escalation = self.action(file, f"{path}.escalate", "conflict", esc)

    def _check_conflict(self, file, path, spec, action):
        ctype = spec.get("type")
        if ctype is None:
            self.fail(file, path, "missing field 'type' (combat, social, foot_chase …)")
        elif ctype not in self.types:
            self.fail(file, f"{path}.type", f"unknown conflict type {ctype!r}{did_you_mean(str(ctype), self.types)}", "E005")
        npcs = spec.get("npcs", [])
        if not isinstance(npcs, list):
            self.fail(file, f"{path}.npcs", "expected a list of NPC ids")
            npcs = []
        for i, npc in enumerate(npcs):
            if npc not in self.npc_ids:
                self.fail(file, f"{path}.npcs[{i}]", f"unknown NPC {npc!r}{did_you_mean(str(npc), self.npc_ids)}", "E006")
        obstacle = spec.get("obstacle")
        if obstacle is not None:
            if not isinstance(obstacle, dict):
                self.fail(file, f"{path}.obstacle", "expected { name = …, difficulty = … }")
            else:
                self.unknown_fields(file, f"{path}.obstacle", obstacle, {"name", "difficulty", "challenge", "pool"})
                diff = str(obstacle.get("difficulty", "normal")).lower()
                if diff not in ("easy", "normal", "hard", "very hard") and not ("challenge" in obstacle and "pool" in obstacle):
                    self.fail(file, f"{path}.obstacle.difficulty", "expected easy, normal, hard or very hard "
                                                                  "(or both challenge and pool)", "E005")
        if not npcs and obstacle is None:
            self.fail(file, path, "a conflict needs 'npcs' or an 'obstacle'")
        if npcs and obstacle is not None:
            self.fail(file, path, "a conflict has either 'npcs' or an 'obstacle', not both")
        if ctype in self.types and self.types[ctype].static and obstacle is None:
            self.fail(file, path, f"a {ctype} conflict is against a static obstacle: give an 'obstacle'")
        if "rounds" in spec and not (isinstance(spec["rounds"], int) and not isinstance(spec["rounds"], bool)
                                     and spec["rounds"] >= 1):
            self.fail(file, f"{path}.rounds", "expected a round limit of at least 1")
        if "stakes" in spec:
            self.expect(file, f"{path}.stakes", spec["stakes"], str, "text")

    def _check_oracle(self, file, path, spec, action):
        if not isinstance(spec.get("question"), str):
            self.fail(file, path, "missing field 'question' (text)")
        if "odds" in spec:
            from ..oracle import OracleError, oracle_odds

            try:
                oracle_odds(str(spec["odds"]))
            except (OracleError, ValueError, KeyError) as exc:
                self.fail(file, f"{path}.odds", str(exc), "E005")

    def _check_table(self, file, path, spec, action):
        if not isinstance(spec.get("name"), str):
            self.fail(file, path, "missing field 'name' (a random table)")
            return
        from ..oracle import load_tables

        try:
            tables = load_tables([Path(d) for d in self.tables_dirs()], use_env=True)
        except ContentError as exc:
            self.fail(exc.file or file, exc.path or path, exc.message, "E007")
            return
        if spec["name"] not in tables:
            names = tables.names()
            self.fail(file, f"{path}.name", f"unknown table {spec['name']!r}{did_you_mean(spec['name'], names)}", "E007")

    def _check_request(self, file, path, spec, action):
        if spec.get("tag") not in ("Contact", "Lab"):
            self.fail(file, f"{path}.tag", "expected \"Contact\" or \"Lab\" (the Tags that grant requests)", "E005")

    def tables_dirs(self) -> list[str]:
        return [str(self.source / "tables")] if self.source.is_dir() and (self.source / "tables").is_dir() else []

    def effects(self, file, path, value) -> list[Effect]:
        if not isinstance(value, list):
            self.fail(file, path, "expected a list of effects, e.g. [ { set = \"door_open\" } ]")
            return []
        out = []
        for i, item in enumerate(value):
            p = f"{path}[{i}]"
            if not isinstance(item, dict):
                self.fail(file, p, "an effect is a table such as { give = \"rope\" }")
                continue
            kinds = [k for k in item if k in EFFECT_KEYS]
            if len(kinds) != 1:
                self.fail(file, p, f"an effect needs exactly one of: {', '.join(EFFECT_KEYS)}"
                                   + (f" (found {', '.join(item)})" if item else ""))
                continue
            kind = kinds[0]
            self.unknown_fields(file, p, item, {kind} | EFFECT_KEYS[kind])
            effect = Effect(kind, dict(item), Where(file, p))
            before = len(self.c.problems)
            self.check_effect(file, p, effect)
            if not any(q.severity == "error" for q in self.c.problems[before:]):
                out.append(effect)  # a broken effect is reported, never kept for later checks
        return out

    def check_effect(self, file, path, e: Effect) -> None:
        a = e.args
        k = e.kind
        if k in ("set", "clear", "add", "counter", "give", "take", "thread", "close_thread", "note"):
            if not isinstance(a[k], str) or not a[k].strip():
                self.fail(file, f"{path}.{k}", "expected a name (text)")
        if k == "add" and not isinstance(a.get("by", 1), int):
            self.fail(file, f"{path}.by", "expected a whole number")
        if k == "counter" and not isinstance(a.get("value"), int):
            self.fail(file, f"{path}.value", "expected a whole number")
        if k in ("damage", "heal"):
            if a[k] not in POOLS:
                self.fail(file, f"{path}.{k}", f"unknown Pool {a[k]!r}{did_you_mean(str(a[k]), POOLS)}", "E005")
            amount = a.get("amount", 1)
            if isinstance(amount, str):
                from ..rules.dice import DiceError, parse

                try:
                    parse(amount)
                except DiceError as exc:
                    self.fail(file, f"{path}.amount", str(exc))
            elif not isinstance(amount, int) or amount < 0:
                self.fail(file, f"{path}.amount", "expected dice such as \"1d6\" or a number")
        if k == "treat" and a["treat"] not in POOLS:
            self.fail(file, f"{path}.treat", f"unknown Pool {a['treat']!r}{did_you_mean(str(a['treat']), POOLS)}", "E005")
        if k in ("damage", "heal", "luck") and a.get("who", "active") not in ("active", "all"):
            self.fail(file, f"{path}.who", "expected \"active\" or \"all\"")
        if k in ("luck", "tension") and not isinstance(a[k], int):
            self.fail(file, f"{path}.{k}", "expected a whole number such as 1 or -1")
        if k in ("disposition", "memory"):
            if a[k] not in self.npc_ids:
                self.fail(file, f"{path}.{k}", f"unknown NPC {a[k]!r}{did_you_mean(str(a[k]), self.npc_ids)}", "E006")
        if k == "disposition":
            if ("shift" in a) == ("to" in a):
                self.fail(file, path, "give either shift = N or to = \"Friendly\"")
            if "shift" in a and not isinstance(a["shift"], int):
                self.fail(file, f"{path}.shift", "expected a whole number of steps such as 1 or -1")
            if "to" in a:
                from ..npc.disposition import disposition_names, normalise_disposition

                try:
                    normalise_disposition(str(a["to"]))
                except KeyError:
                    self.fail(file, f"{path}.to", f"unknown disposition {a['to']!r} "
                                                  f"(known: {', '.join(disposition_names())})", "E005")
        if k == "memory" and a.get("event") not in MEMORY_EVENTS:
            self.fail(file, f"{path}.event", f"expected one of {', '.join(MEMORY_EVENTS)}")
        if k == "rest":
            if a["rest"] not in ("night", "days"):
                self.fail(file, f"{path}.rest", "expected \"night\" or \"days\"")
            if a["rest"] == "days" and not isinstance(a.get("days"), int):
                self.fail(file, f"{path}.days", "expected a whole number of days")


def _describe(value) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"text {value!r}"
    return repr(value)
