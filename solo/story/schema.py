"""The adventure's schema: every field of the TOML read, checked and turned into typed objects.

The :class:`Builder` knows the sections, scenes, choices and branches; the
verbs it meets inside them (effects and actions) check their own fields
through it, from the registries in :mod:`solo.story.effects` and
:mod:`solo.story.actions`. Each problem is reported where it was found and
the build goes on, so an author sees every problem at once.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ..errors import ContentError, SoloError, did_you_mean
from ..oracle.tables import TableSet
from ..rules.conflict_types import ConflictType
from ..rules.rulebook import rules
from .actions import ACTIONS, OBSTACLE_FIELDS
from .adventure import Action, Adventure, Branch, Choice, Effect, NPCDef, Scene, Where
from .effects import EFFECTS
from .npcs import RECOVERY, RECOVERY_DEFAULT, npc_fields
from .problems import Collector, describe
from .readers import Readers

ADVENTURE_FIELDS = {"id", "title", "author", "version", "introduction", "party", "comae", "start", "pc",
                    "negative_luck", "tension", "threads"}
SCENE_FIELDS = {"title", "text", "choices", "on_enter", "ending", "outcome", "npcs", "oracle_setup", "control"}
CHOICE_FIELDS = {"text", "if", "effects", "goto", "once"} | set(ACTIONS)
BRANCH_FIELDS = {"goto", "text", "effects"}
_UNREAD = object()  # the random tables before the first look at them


class Builder(Readers):
    """Builds one adventure from its merged TOML tables, reporting to ``c`` as it goes.

    ``merged`` holds the sections of every file, ``origin`` which file each
    came from; ``digest`` is the hash of the files, kept for saves.
    """

    def __init__(self, c: Collector, merged: dict[str, Any], origin: dict[str, str],
                 types: dict[str, ConflictType], source: Path, files: list[Path], digest: str):
        super().__init__(c, set(merged["scenes"]) if isinstance(merged["scenes"], dict) else set(),
                         set(merged["npcs"]), rules())
        self.m = merged
        self.origin = origin
        self.types = types
        self.source = source
        self.files = files
        self.digest = digest
        self._tables: object = _UNREAD

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
        if self.tables_dirs():
            self.table_set()  # the adventure's own tables are checked even if no choice rolls on them yet
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
        return Adventure(
            id=adv_id, title=title, start=start or "", scenes=scenes, npcs=npcs,
            author=self.text(file, "adventure", meta, "author"), version=str(meta.get("version", "")),
            introduction=self.text(file, "adventure", meta, "introduction"),
            party_min=party_min, party_max=party_max, comae=comae if comae in ("removed", "death") else "removed",
            pc=pc, negative_luck=bool(negative), tension=tension, threads=list(threads),
            templates=narration if isinstance(narration, dict) else {}, tables_dirs=self.tables_dirs(),
            files=[str(f) for f in self.files], content_hash=self.digest, source=str(self.source),
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
            if not self.plain_id(file, "npcs", nid):
                continue
            if data.get("recovers", RECOVERY_DEFAULT) not in RECOVERY:
                self.fail(file, f"{path}.recovers", "expected " + ", ".join(f'"{r}"' for r in RECOVERY[:-1])
                          + f' or "{RECOVERY[-1]}" (how the NPC gets its Pools back)')
            try:
                NPC.from_dict(npc_fields(data), file=file, rng=random.Random(0))
            except ContentError as exc:
                self.fail(file, f"{path}.{exc.path}" if exc.path else path, exc.message)
                continue
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                self.fail(file, path, f"cannot read this NPC: {exc}")
                continue
            out[nid] = NPCDef(nid, data, Where(file, path))
        return out

    def build_scene(self, sid: str, data: object) -> Scene | None:
        file = self.origin[f"scenes.{sid}"]
        path = f"scenes.{sid}"
        if not isinstance(data, dict):
            self.fail(file, path, "a scene must be a table")
            return None
        if not self.plain_id(file, "scenes", sid):
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
        if not isinstance(data.get("npcs", []), list):
            self.fail(file, f"{path}.npcs", f"expected a list of NPC ids, got {describe(data['npcs'])}")
        for i, npc in enumerate(data.get("npcs", []) if isinstance(data.get("npcs", []), list) else []):
            if not isinstance(npc, str):
                self.fail(file, f"{path}.npcs[{i}]", f"expected an NPC id (text), got {describe(npc)}")
            elif npc not in self.npc_ids:
                self.fail(file, f"{path}.npcs[{i}]", f"unknown NPC {npc!r}{did_you_mean(str(npc), self.npc_ids)}",
                          "E006")
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

    def build_choice(self, file: str, path: str, data: object) -> Choice | None:
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

    def branch(self, file: str, path: str, value: object) -> Branch | None:
        if isinstance(value, str):
            target = self.target(file, path, value)
            return Branch(target, where=Where(file, path)) if target else None
        if not isinstance(value, dict):
            self.fail(file, path, "expected a scene id or { goto = …, text = …, effects = […] }, "
                                  f"got {describe(value)}")
            return None
        self.unknown_fields(file, path, value, BRANCH_FIELDS)
        target = self.target(file, f"{path}.goto", value["goto"]) if "goto" in value else None
        return Branch(target, self.text(file, path, value, "text") or None,
                      self.effects(file, f"{path}.effects", value.get("effects", [])), Where(file, path))

    def action(self, file: str, path: str, kind: str, spec: object) -> Action | None:
        if not isinstance(spec, dict):
            self.fail(file, path, f"{kind} must be a table")
            return None
        verb = ACTIONS[kind]
        outcomes = verb.outcomes + verb.optional
        self.unknown_fields(file, path, spec, set(verb.fields) | set(outcomes))
        branches = {}
        for name in verb.outcomes:
            if name not in spec:
                self.fail(file, path, f"missing outcome {name!r}")
        for name in outcomes:
            if name in spec:
                b = self.branch(file, f"{path}.{name}", spec[name])
                if b is not None:
                    branches[name] = b
        clean = {k: v for k, v in spec.items() if k in verb.fields}
        shaped = self.field_shapes(file, path, verb.fields, clean)
        wall = clean.get("obstacle")
        if kind == "conflict" and isinstance(wall, dict):
            shaped = self.field_shapes(file, f"{path}.obstacle", OBSTACLE_FIELDS, wall) and shaped
        if not shaped:  # reported; the verb's check and the game never see a value of the wrong type
            return Action(kind, {}, branches, Where(file, path))
        action = Action(kind, clean, branches, Where(file, path))
        verb.check(self, file, path, clean, action)
        return action

    def tables_dirs(self) -> list[str]:
        """The adventure's own ``tables`` folder, if it is a folder that has one."""
        return [str(self.source / "tables")] if self.source.is_dir() and (self.source / "tables").is_dir() else []

    def table_set(self) -> TableSet | None:
        """The random tables the game will roll on, read once; a fault is reported once (E007) where it is."""
        if self._tables is _UNREAD:
            from ..oracle import load_tables

            try:
                self._tables = load_tables([Path(d) for d in self.tables_dirs()], use_env=True)
            except ContentError as exc:
                self._tables = None
                self.c.add(exc.file or self.origin["adventure"], exc.path or "", "E007", exc.message, line=exc.line,
                           column=exc.column)
        return self._tables if isinstance(self._tables, TableSet) else None

    def effects(self, file: str, path: str, value: object) -> list[Effect]:
        if not isinstance(value, list):
            self.fail(file, path, "expected a list of effects, e.g. [ { set = \"door_open\" } ]")
            return []
        out = []
        for i, item in enumerate(value):
            p = f"{path}[{i}]"
            if not isinstance(item, dict):
                self.fail(file, p, "an effect is a table such as { give = \"rope\" }")
                continue
            kinds = [k for k in item if k in EFFECTS]
            if len(kinds) != 1:
                self.fail(file, p, f"an effect needs exactly one of: {', '.join(EFFECTS)}"
                                   + (f" (found {', '.join(item)})" if item else ""))
                continue
            verb = EFFECTS[kinds[0]]
            self.unknown_fields(file, p, item, set(verb.fields))
            effect = Effect(verb.name, dict(item), Where(file, p))
            if not self.field_shapes(file, p, verb.fields, item):
                continue  # reported: the verb's check never sees a value of the wrong type
            before = len(self.c.problems)
            verb.check(self, file, p, effect.args)
            if not any(q.severity == "error" for q in self.c.problems[before:]):
                out.append(effect)  # a broken effect is reported, never kept for later checks
        return out
