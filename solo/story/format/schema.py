"""The adventure's schema: every field of the TOML read, checked and turned into typed objects.

The :class:`Builder` knows the sections, scenes, choices and branches; the
verbs it meets inside them (effects and actions) check their own fields
through it, from the registries in :mod:`solo.story.play.effects` and
:mod:`solo.story.play.actions`. Each problem is reported where it was found and
the build goes on, so an author sees every problem at once.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import ContentError, SoloError, describe, did_you_mean, unquoted
from ...oracle.tables import TableSet
from ...rules.conflict_types import ConflictType
from ...rules.rulebook import rules
from ..play.actions import ACTIONS, OBSTACLE_FIELDS
from ..play.effects import EFFECTS
from ..play.knowledge import FACETS, KNOWN_DEFAULT, SECRET_MAX, SEEN_MAX
from ..play.npcs import RECOVERY, RECOVERY_DEFAULT, STORY_FIELDS, npc_fields
from .adventure import Action, Adventure, Branch, Choice, Clock, Effect, NPCDef, Route, Scene, Where
from .expressions import Condition, parse_condition
from .problems import Collector
from .readers import MAX_WHOLE, Readers
from .text import TextError, blocks_of, parse_text

ADVENTURE_FIELDS = {"id", "title", "author", "version", "introduction", "party", "comae", "start", "pc",
                    "negative_luck", "tension", "threads", "flags", "counters", "items", "clocks", "careers"}
SCENE_FIELDS = {"title", "text", "choices", "on_enter", "ending", "outcome", "npcs", "oracle_setup", "control",
                "fate"}
#: What becomes of the party at an ending (``fate``): it dies there, or leaves the story alive (taken, lost).
ENDING_FATES = ("death", "removed")
CHOICE_FIELDS = {"text", "if", "effects", "goto", "once", "id", "use", "hint", "retry_cost"} | set(ACTIONS)
#: The longest ``hint`` a choice may have: it stands beside the choice on one line of a menu.
MAX_HINT = 120
MAX_CHOICES = 50  # choices one scene offers: a menu a player reads (Vellan's longest has 9)
BRANCH_FIELDS = {"goto", "text", "effects"}
ROUTE_FIELDS = {"if", "goto"}
#: Actions that roll or fight with a player character: refused in an adventure with ``pc = false``.
PC_ACTIONS = ("roll", "opposed", "conflict", "request")
_UNREAD = object()  # the random tables before the first look at them
_SETTING_FILTER = re.compile(r"\bsetting:([^\s\]]+)")  # a narration line's [setting:a|b] filter


@lru_cache(maxsize=1)
def bundled_setting_words() -> frozenset[str]:
    """The settings the bundled narration lines name, kept to or kept from (``[setting:!yard|!street]``): an adventure
    may give its conflict one of them with no line of its own (Vellan's cannery yard, which the lines that need a roof
    keep out of). Read from the files' text, not as templates: loading an adventure loads no narrator."""
    from ...paths import bundled

    words: set[str] = set()
    for path in sorted((bundled("oracles") / "narration").glob("*.toml")):
        for found in _SETTING_FILTER.findall(path.read_text(encoding="utf-8")):
            words.update(w.removeprefix("!") for w in found.split("|") if w.strip("!"))
    return frozenset(words)


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
        self.responses: dict[str, Branch] = {}
        self._settings: list[str] | None = None

    # -- the whole adventure ---------------------------------------------------------
    def build(self) -> Adventure | None:
        file = self.origin["adventure"]
        meta = self.m["adventure"]
        if not isinstance(meta, dict):
            self.fail(file, "adventure", "[adventure] must be a table")
            return None
        self.unknown_fields(file, "adventure", meta, ADVENTURE_FIELDS)
        title = self.text(file, "adventure", meta, "title", required=True)
        for key in ("title", "author"):  # shown as written (title screen, file listings): no state picks a block
            self.no_blocks(file, f"adventure.{key}", meta.get(key))
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
            self.fail(file, "adventure.party", f"expected a number or {{ min = N, max = N }}, got {describe(party)}"
                                               f"{unquoted(party, 'party')}")  # party = "3": the quotes are the slip
        wrong = [(k, v) for k, v in (("min", party_min), ("max", party_max))
                 if not isinstance(v, int) or isinstance(v, bool)]
        if wrong:  # "min = 1.5" is no size of party: said so, not "must satisfy 1 <= min" (which 1.5 does)
            key, value = wrong[0]
            self.fail(file, f"adventure.party.{key}", f"expected a whole number of players, got {describe(value)}")
            party_min, party_max = 1, 1
        elif not 1 <= party_min <= party_max <= 6:
            self.fail(file, "adventure.party", "party sizes must satisfy 1 <= min <= max <= 6")
            party_min, party_max = 1, 1
        comae = meta.get("comae", "removed")
        if comae not in ("removed", "death"):
            self.fail(file, "adventure.comae", "expected \"removed\" or \"death\"")
        tension = meta.get("tension", 5)
        if not (isinstance(tension, int) and not isinstance(tension, bool) and 1 <= tension <= 9):
            self.fail(file, "adventure.tension", f"expected a whole number 1..9{unquoted(tension, 'tension')}")
            tension = 5
        negative = meta.get("negative_luck", False)
        if not isinstance(negative, bool):
            self.fail(file, "adventure.negative_luck", "expected true or false")
        threads = meta.get("threads", [])
        if not (isinstance(threads, list) and all(isinstance(t, str) for t in threads)):
            self.fail(file, "adventure.threads", "expected a list of texts")
            threads = []
        pc = meta.get("pc")
        if pc is False:
            self.uses_pcs = False
            pc = None
            if "party" in meta:
                self.fail(file, "adventure.party", "an adventure with pc = false has no party")
        elif pc is not None and not isinstance(pc, str):
            self.fail(file, "adventure.pc", "expected the name of a pregenerated character, or false for an "
                                            "adventure with no player character")
            pc = None
        elif pc is not None:
            from ...rules.creation import pregenerated, ready_made_names

            try:
                pregenerated(pc)
            except SoloError:  # its message lists files and the roster, which an adventure cannot name
                self.fail(file, "adventure.pc", f"no ready-made character {pc!r}: only a ready-made character can "
                                                f"be named here, not a character file or one of your roster "
                                                f"(ready-made: {ready_made_names()})")
                pc = None
        if self.tables_dirs():
            self.table_set()  # the adventure's own tables are checked even if no choice rolls on them yet
        flags, counters, items = self.initial_state(file, meta)
        clocks = self.clocks(file, meta.get("clocks", []))
        careers = self.careers(file, meta.get("careers"))
        npcs = self.build_npcs()
        self.choice_names = self.names_of_choices()
        self.build_responses()
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
            flags=flags, counters=counters, items=items, uses_pcs=self.uses_pcs, responses=self.responses,
            meta_file=file, clocks=clocks, careers=careers,
        )

    def initial_state(self, file: str, meta: dict[str, Any]) -> tuple[list[str], dict[str, int], list[str]]:
        """``flags``, ``counters`` and ``items`` of ``[adventure]``: the state a game starts with."""
        lists = {}
        for key in ("flags", "items"):
            value = meta.get(key, [])
            if not (isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)):
                self.fail(file, f"adventure.{key}", f"expected a list of names, e.g. {key} = [\"lamp\"]")
                value = []
            for i, name in enumerate(value):
                problem = _bad_name(name, item=key == "items")
                if problem:
                    self.fail(file, f"adventure.{key}[{i}]", problem)
            lists[key] = list(dict.fromkeys(v for v in value if not _bad_name(v, item=key == "items")))
        counters = meta.get("counters", {})
        if not isinstance(counters, dict):
            self.fail(file, "adventure.counters", "expected a table of counters, e.g. counters = { score = 0 }")
            counters = {}
        for name, value in list(counters.items()):
            problem = _bad_name(name, item=False)
            if problem:
                self.fail(file, f"adventure.counters.{name}", problem)
                counters = {k: v for k, v in counters.items() if k != name}
                continue
            if not self.expect(file, f"adventure.counters.{name}", value, int, "a whole number") or \
                    not -MAX_WHOLE <= value <= MAX_WHOLE:
                if isinstance(value, int) and not isinstance(value, bool):
                    self.fail(file, f"adventure.counters.{name}", f"expected a whole number within ±{MAX_WHOLE:,}")
                counters = {k: v for k, v in counters.items() if k != name}
        return lists["flags"], dict(counters), lists["items"]

    def careers(self, file: str, value: object) -> list[str] | None:
        """``careers``: the rulebook's careers a new character may take here, in the order offered (None: all).

        A setting the rulebook's modern careers do not fit (a winter crossing among barrows has no Pilot)
        names the ones that do; each must be a career of the rules' tables, named as they name it.
        """
        if value is None:
            return None
        known = self.t.careers
        if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
            self.fail(file, "adventure.careers", f"expected a list of careers, e.g. careers = [\"Soldier\"]; "
                                                 f"careers: {', '.join(known)}")
            return None
        kept: list[str] = []
        for i, name in enumerate(value):
            found = next((k for k in known if k.lower() == name.strip().lower()), None)
            if found is None:
                self.fail(file, f"adventure.careers[{i}]", f"unknown career {name!r}{did_you_mean(name.title(), known)}"
                                                           f"; careers: {', '.join(known)}")
            elif found in kept:
                self.fail(file, f"adventure.careers[{i}]", f"{found!r} is listed twice")
            else:
                kept.append(found)
        return kept or None

    def clocks(self, file: str, value: object) -> list[Clock]:
        """``clocks``: counters the players see on the status line, each with its label and, if it has one, the
        value it runs to (``{ counter = "hours", label = "hours of the day", max = 5 }``)."""
        if not isinstance(value, list):
            self.fail(file, "adventure.clocks", "expected a list of { counter, label, max } tables")
            return []
        out = []
        for i, entry in enumerate(value):
            path = f"adventure.clocks[{i}]"
            if not isinstance(entry, dict):
                self.fail(file, path, "expected a table { counter = \"NAME\", label = \"…\", max = N }")
                continue
            self.unknown_fields(file, path, entry, {"counter", "label", "max"})
            name = entry.get("counter")
            if not isinstance(name, str) or _bad_name(name, item=False):
                self.fail(file, f"{path}.counter", "expected the name of a counter")
                continue
            label = entry.get("label", name.replace("_", " "))
            if not isinstance(label, str) or not label.strip() or len(label) > 40 or "{" in label \
                    or any(ord(ch) < 32 for ch in label):
                self.fail(file, f"{path}.label", "expected one short line of plain text (at most 40 characters)")
                continue
            top = entry.get("max")
            if top is not None and not (isinstance(top, int) and not isinstance(top, bool) and 0 < top <= MAX_WHOLE):
                self.fail(file, f"{path}.max", f"expected a whole number from 1 to {MAX_WHOLE:,}{unquoted(top, 'max')}")
                top = None
            out.append(Clock(name, label.strip(), top, Where(file, path)))
        return out

    def no_blocks(self, file: str, path: str, value: object) -> None:
        """A text shown as written, outside any game: an ``{if}`` block in it would show raw (E008)."""
        if not isinstance(value, str) or "{" not in value:
            return
        try:
            blocks = list(blocks_of(parse_text(value)))
        except TextError:
            return  # reported when the text was read
        if blocks:
            self.fail(file, path, "{if} blocks are not read here: this text is shown before and outside any game, "
                                  "so no state could pick a branch (write it without {if})", "E008")

    def names_of_choices(self) -> dict[str, list[str]]:
        """Scene id -> what ``chosen("scene/…")`` may call its choices: each one's ``id``, else its position."""
        out: dict[str, list[str]] = {}
        for sid, data in self.m["scenes"].items():
            choices = data.get("choices", []) if isinstance(data, dict) else []
            out[sid] = [ch["id"] if isinstance(ch, dict) and isinstance(ch.get("id"), str) else str(i + 1)
                        for i, ch in enumerate(choices if isinstance(choices, list) else [])]
        return out

    def build_responses(self) -> None:
        """``[responses.NAME]``: one text, effects and goto that several choices and branches ``use``."""
        for name, data in self.m.get("responses", {}).items():
            file = self.origin[f"responses.{name}"]
            path = f"responses.{name}"
            if not isinstance(data, dict):
                self.fail(file, path, "a response is a table of text, effects and goto")
                continue
            if "use" in data:
                self.fail(file, f"{path}.use", "a response cannot use another response")
                data = {k: v for k, v in data.items() if k != "use"}
            branch = self.branch(file, path, data)
            if branch is not None:
                branch.use = name
                self.responses[name] = branch

    def build_npcs(self) -> dict[str, NPCDef]:
        from ...npc import NPC

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
            self.npc_knowledge(file, path, data)
            try:
                # (a story's own fields offered too: "secrt" is its secret)
                NPC.from_dict(npc_fields(data), file=file, rng=random.Random(0), also=STORY_FIELDS)
            except ContentError as exc:
                for problem in exc.every():  # a Code Block's problems all at once
                    self.fail(file, f"{path}.{problem.path}" if problem.path else path, problem.message)
                continue
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                self.fail(file, path, f"cannot read this NPC: {exc}")
                continue
            out[nid] = NPCDef(nid, data, Where(file, path))
        return out

    def npc_knowledge(self, file: str, path: str, data: dict[str, Any]) -> None:
        """An NPC's fields about what the PCs know of it: ``seen``, ``secret`` and ``known`` (docs/adventures.md)."""
        for key, most in (("seen", SEEN_MAX), ("secret", SECRET_MAX)):
            if key not in data:
                continue
            value = data[key]
            if not isinstance(value, str) or not value.strip() or any(ord(ch) < 32 for ch in value):
                self.fail(file, f"{path}.{key}", f"expected one line of text, got {describe(value)}")
            elif len(value) > most:  # how long it is, as a hint's message says (a GM's run)
                self.fail(file, f"{path}.{key}", f"expected one plain line of at most {most} characters, "
                                                 f"not {len(value)}")
            elif any(ch in "{}" for ch in value):
                self.fail(file, f"{path}.{key}", "expected one plain line, without braces")
        known = data.get("known", [] if "seen" in data else list(KNOWN_DEFAULT))
        if not isinstance(known, list) or not all(isinstance(f, str) for f in known):
            self.fail(file, f"{path}.known", f"expected a list of facets ({', '.join(FACETS)}), "
                                             f"got {describe(known)}")
            return
        for i, facet in enumerate(known):
            if facet not in FACETS:
                self.fail(file, f"{path}.known[{i}]", f"unknown facet {facet!r}{did_you_mean(facet, FACETS)}; "
                                                      f"a facet is one of {', '.join(FACETS)}", "E005")
        if "name" not in known and "seen" not in data:
            self.fail(file, f"{path}.known", "the PCs do not know this NPC's name at the start: say what they see "
                                             "of them instead (npcs.ID.seen = \"a big man in a docker's coat\")")
        if "secret" in known and "secret" not in data:
            self.fail(file, f"{path}.known", "'secret' is known at the start, but the NPC has no secret")

    def npc_field(self, nid: str, key: str) -> object:
        """One field of an NPC as written (None where the NPC or the field is missing, or its table is broken)."""
        data = self.m["npcs"].get(nid) if isinstance(self.m["npcs"], dict) else None
        return data.get(key) if isinstance(data, dict) else None

    def npc_secret(self, nid: str) -> bool:
        """Whether the NPC has a secret the PCs may learn (its ``secret`` field)."""
        secret = self.npc_field(nid, "secret")
        return isinstance(secret, str) and bool(secret.strip())

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
            # TOML's true has no quotes: "yes" or "true" in quotes is an error, and the whole-graph checks read the
            # scene as the ending it was meant to be, not as a dead end (E009) on top (a new GM's run)
            meant = str(ending).strip().lower() in ("true", "yes", "1")
            quoted = isinstance(ending, str) and meant  # ending = 1 has no quotes to take off (the review)
            self.fail(file, f"{path}.ending", "expected true or false" + (", without quotes" if quoted else ""))
            ending = meant
        scene = Scene(
            id=sid, title=self.text(file, path, data, "title", default=sid.replace("_", " ").title()),
            text=self.text(file, path, data, "text", required=True), where=Where(file, path), ending=ending,
        )
        if isinstance(data.get("outcome"), list):
            scene.outcomes = self.outcome_list(file, f"{path}.outcome", data["outcome"])
            scene.outcome = next((word for cond, word in scene.outcomes if cond is None), None)
        elif "outcome" in data and self.expect(file, f"{path}.outcome", data["outcome"], str,
                                               "a word, or a list of { if = …, outcome = … }"):
            scene.outcome = data["outcome"]
        if "outcome" in data and not ending:  # a forgotten ending = true would otherwise pass unsaid (a GM's run)
            self.fail(file, f"{path}.outcome", "only an ending has an outcome: add ending = true, or leave it out",
                      "W108")
        if "fate" in data:
            if not ending:
                self.fail(file, f"{path}.fate", "only an ending has a fate (ending = true)")
            elif data["fate"] in ENDING_FATES:
                scene.fate = data["fate"]
            else:
                self.fail(file, f"{path}.fate", "expected \"death\" (the party dies here) or \"removed\" (it leaves "
                                                "the story alive)")
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
        scene.npcs_listed = "npcs" in data
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
        on_enter = data.get("on_enter", [])
        if isinstance(on_enter, dict):  # { before = [...], after = [...] }: around the scene's text
            self.unknown_fields(file, f"{path}.on_enter", on_enter, {"before", "after"})
            scene.on_enter_before = self.effects(file, f"{path}.on_enter.before", on_enter.get("before", []))
            scene.on_enter = self.effects(file, f"{path}.on_enter.after", on_enter.get("after", []))
        else:
            scene.on_enter = self.effects(file, f"{path}.on_enter", on_enter)
        choices = data.get("choices", [])
        if not isinstance(choices, list):
            self.fail(file, f"{path}.choices", "expected a list of choices ([[scenes.ID.choices]])")
            choices = []
        if ending and choices:
            self.fail(file, f"{path}.choices", "an ending has no choices")
        if len(choices) > MAX_CHOICES:  # a menu, not a list: refused before any of them is built
            self.fail(file, f"{path}.choices", f"a scene offers at most {MAX_CHOICES} choices, not {len(choices):,}")
            choices = []
        for i, ch in enumerate(choices):
            choice = self.build_choice(file, f"{path}.choices[{i}]", ch)
            if choice is not None:
                choice.key = f"c{i + 1}"  # not a digit: typed numbers mean the numbers a menu shows
                choice.number = i + 1  # the same on every visit, whichever choices are offered
                choice.name = self.choice_names[sid][i]  # what chosen("scene/…") calls it
                if choice.once:
                    choice.own_condition = choice.condition
                    choice.condition = once_only(sid, choice.name, choice.condition)
                scene.choices.append(choice)
        return scene

    def build_choice(self, file: str, path: str, data: object) -> Choice | None:
        if not isinstance(data, dict):
            self.fail(file, path, "a choice must be a table")
            return None
        for key in data.keys() & (SCENE_FIELDS - CHOICE_FIELDS):
            # TOML's trap: a key written below a [[…choices]] header belongs to that choice, however it is indented
            # (a GM's run: a scene's on_enter under its first choice read "unknown field 'on_enter'" and no more)
            scene_path = path.rsplit(".choices[", 1)[0]
            self.fail(file, f"{path}.{key}", f"unknown field {key!r}: {key} is a scene's field, and everything below "
                                             f"a [[{scene_path}.choices]] line belongs to that choice; write it above "
                                             f"the scene's first [[{scene_path}.choices]]")
        self.unknown_fields(file, path, {k: v for k, v in data.items() if k not in SCENE_FIELDS}, CHOICE_FIELDS)
        choice = Choice(text=self.text(file, path, data, "text", required=True), where=Where(file, path))
        if "if" in data:
            choice.condition = self.condition(file, f"{path}.if", data["if"])
        if "once" in data:
            if isinstance(data["once"], bool):
                choice.once = data["once"]
            else:
                self.fail(file, f"{path}.once", "expected true or false")
        if "id" in data:
            self.choice_id(file, f"{path}.id", data["id"])
        if "hint" in data:
            choice.hint = self.text(file, path, data, "hint")
            if len(choice.hint) > MAX_HINT:
                self.fail(file, f"{path}.hint", f"a hint is a short line beside the choice: at most {MAX_HINT} "
                                                f"characters, not {len(choice.hint)}")
        choice.effects = self.effects(file, f"{path}.effects", data.get("effects", []))
        if "retry_cost" in data:
            choice.retry_cost = self.retry_cost(file, f"{path}.retry_cost", data["retry_cost"])
            if choice.once:  # never taken again, so never paid: a cost the author believes in that does nothing
                self.fail(file, f"{path}.retry_cost", "a choice with once = true is never taken again, so its "
                                                      "retry_cost would never be paid: leave one of them out", "W108")
        actions = [a for a in ACTIONS if a in data]
        if len(actions) > 1:
            self.fail(file, path, f"a choice does one thing: it has {', '.join(actions)}")
        if "use" in data:
            if actions or "goto" in data:
                self.fail(file, f"{path}.use", f"use names where the choice leads: not together with "
                                               f"{(actions or ['goto'])[0]}")
            else:
                choice.goto = self.shared(file, path, {"use": data["use"]})
            return choice
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

    def retry_cost(self, file: str, path: str, value: object) -> list[Effect]:
        """``retry_cost``: effects that make taking a choice again cost something (time, tension, a Pool, Luck)."""
        from .retries import COSTS, not_a_cost

        kept = []
        for effect in self.effects(file, path, value):
            problem = not_a_cost(effect) if effect.kind in COSTS else \
                f"{effect.kind!r} is not a cost: a retry costs {', '.join(COSTS)}{did_you_mean(effect.kind, COSTS)}"
            if problem:
                self.fail(file, effect.where.path, problem)
            else:
                kept.append(effect)
        return kept

    def choice_id(self, file: str, path: str, value: object) -> None:
        """A choice's ``id`` names it in ``chosen("scene/id")``: a plain word, not a number (positions are)."""
        if not self.expect(file, path, value, str, "a name for the choice"):
            return
        assert isinstance(value, str)
        if not value.strip() or "/" in value or value.isdigit() or any(not ch.isprintable() for ch in value):
            self.fail(file, path, f"a choice id is a plain word without '/', not a number: {value!r}")
        scene = path.split(".choices[")[0].removeprefix("scenes.")
        if self.choice_names.get(scene, []).count(value) > 1:
            self.fail(file, path, f"another choice of scene {scene!r} has the id {value!r}")

    def branch(self, file: str, path: str, value: object) -> Branch | None:
        if isinstance(value, str):
            target = self.target(file, path, value)
            return Branch(target, where=Where(file, path)) if target else None
        if isinstance(value, list):  # a choice's goto written straight as a list of routes
            return Branch(None, where=Where(file, path), routes=self.routes(file, path, value))
        if not isinstance(value, dict):
            self.fail(file, path, "expected a scene id or { goto = …, text = …, effects = […] }, "
                                  f"got {describe(value)}")
            return None
        if "use" in value:
            return self.shared(file, path, value)
        self.unknown_fields(file, path, value, BRANCH_FIELDS)
        target, routes = None, []
        if isinstance(value.get("goto"), list):
            routes = self.routes(file, f"{path}.goto", value["goto"])
        elif "goto" in value:
            target = self.target(file, f"{path}.goto", value["goto"])
        return Branch(target, self.text(file, path, value, "text") or None,
                      self.effects(file, f"{path}.effects", value.get("effects", [])), Where(file, path), routes)

    def shared(self, file: str, path: str, value: dict[str, Any]) -> Branch | None:
        """``{ use = "NAME" }``: the response ``[responses.NAME]`` itself, the same for every user."""
        for key in value:
            if key != "use":
                self.fail(file, f"{path}.{key}", "a branch with use takes nothing else: write it in the response")
        name = value["use"]
        if not self.expect(file, f"{path}.use", name, str, "the name of a [responses.NAME] table"):
            return None
        if name not in self.responses:
            known = self.m.get("responses", {})
            hint = did_you_mean(name, known) or (" (there are no [responses] in this adventure)" if not known else "")
            if name not in known:  # one that is defined but broken was reported where it is
                self.fail(file, f"{path}.use", f"unknown response {name!r}{hint}", "E012")
            return None
        return self.responses[name]

    def outcome_list(self, file: str, path: str, value: list[Any]) -> list[tuple[Condition | None, str]]:
        """An ending's ``outcome`` as a list, as a ``goto`` list: ``{ if = …, outcome = … }`` entries, the first
        that holds wins; one without ``if`` is the fallback (with none, the scene's id)."""
        if not value:
            self.fail(file, path, "an empty outcome list: give at least one { outcome = \"word\" }")
        out: list[tuple[Condition | None, str]] = []
        fallback = False
        for i, entry in enumerate(value):
            p = f"{path}[{i}]"
            if not isinstance(entry, dict):
                self.fail(file, p, f"expected {{ if = \"…\", outcome = \"word\" }}, got {describe(entry)}")
                continue
            self.unknown_fields(file, p, entry, {"if", "outcome"})
            if not isinstance(entry.get("outcome"), str):
                self.fail(file, f"{p}.outcome", "missing field 'outcome' (a word)")
                continue
            if fallback:
                self.fail(file, p, "never reached: an entry without 'if' before it always matches")
            cond = self.condition(file, f"{p}.if", entry["if"]) if "if" in entry else None
            if "if" in entry and cond is None:
                continue
            fallback = fallback or cond is None
            out.append((cond, entry["outcome"]))
        return out

    def routes(self, file: str, path: str, value: list[Any]) -> list[Route]:
        """A ``goto`` list: ``{ if = …, goto = … }`` entries, first match wins; one without ``if`` is the fallback."""
        if not value:
            self.fail(file, path, "an empty goto list: give at least one { goto = \"scene\" }")
        out: list[Route] = []
        fallback = False
        for i, entry in enumerate(value):
            p = f"{path}[{i}]"
            if not isinstance(entry, dict):
                self.fail(file, p, f"expected {{ if = \"…\", goto = \"scene\" }}, got {describe(entry)}")
                continue
            self.unknown_fields(file, p, entry, ROUTE_FIELDS)
            if "goto" not in entry:
                self.fail(file, p, "missing field 'goto' (the scene to go to)")
                continue
            if fallback:
                self.fail(file, p, "never reached: an entry without 'if' before it always matches")
            # an entry without 'if' is the fallback as written, even when its target is wrong (E003 says so;
            # W106 would send the writer looking for a fallback that is there)
            fallback = fallback or "if" not in entry
            target = self.target(file, f"{p}.goto", entry["goto"])
            cond = self.condition(file, f"{p}.if", entry["if"]) if "if" in entry else None
            if target is None or ("if" in entry and cond is None):
                continue
            out.append(Route(target, cond, Where(file, p)))
        if value and not fallback:
            self.c.add(file, path, "W106", "no entry without 'if': when no condition holds, the story stays "
                                           "in the scene (add { goto = \"…\" } last as the fallback)")
        return out

    def action(self, file: str, path: str, kind: str, spec: object) -> Action | None:
        if not isinstance(spec, dict):
            self.fail(file, path, f"{kind} must be a table")
            return None
        verb = ACTIONS[kind]
        if kind in PC_ACTIONS and not self.uses_pcs:
            self.fail(file, path, f"{kind} needs a player character, and this adventure has none (pc = false)")
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

    def narration_settings(self) -> list[str]:
        """The settings the adventure's ``[narration]`` lines are filtered for (``[setting:harbour|quay]``)."""
        if self._settings is None:
            found: set[str] = set()
            stack: list[object] = [self.m.get("narration") or {}]
            while stack and len(found) < 10_000:
                item = stack.pop()
                if isinstance(item, dict):
                    stack.extend(item.values())
                elif isinstance(item, list):
                    stack.extend(item)
                elif isinstance(item, str) and item.startswith("["):
                    for words in _SETTING_FILTER.findall(item[:item.find("]") + 1]):
                        found.update(w for w in words.split("|") if w)
            self._settings = sorted(found)
        return self._settings

    def tables_dirs(self) -> list[str]:
        """The adventure's own ``tables`` folder, if it is a folder that has one."""
        from .loader import own_tables_folder  # (the loader's one rule: a link out of the folder is not its own)

        return [str(self.source / "tables")] if self.source.is_dir() and own_tables_folder(self.source) else []

    def table_set(self) -> TableSet | None:
        """The random tables the game will roll on, read once; a fault is reported once (E007) where it is."""
        if self._tables is _UNREAD:
            from ...oracle import load_tables

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
                # a misspelt verb gets its suggestion, as every other misspelt name does ("sett": a GM's run)
                fields = {f for verb in EFFECTS.values() for f in verb.fields}  # "amount" is no misspelt verb
                guess = next((hint for k in item if k not in EFFECTS and k not in fields and k != "if"
                              for hint in [did_you_mean(k, EFFECTS)] if hint), "") if not kinds else ""
                self.fail(file, p, f"an effect needs exactly one of: {', '.join(EFFECTS)}"
                                   + (f" (found {', '.join(item)})" if item else "") + guess)
                continue
            verb = EFFECTS[kinds[0]]
            self.unknown_fields(file, p, item, set(verb.fields) | {"if"})
            if verb.needs_pc and not self.uses_pcs:
                self.fail(file, p, f"{verb.name} changes a player character, and this adventure has none "
                                   "(pc = false)")
            args = {k: v for k, v in item.items() if k != "if"}
            effect = Effect(verb.name, args, Where(file, p))
            if "if" in item:
                effect.condition = self.condition(file, f"{p}.if", item["if"])
                if effect.condition is None:
                    continue
            if not self.field_shapes(file, p, verb.fields, args):
                continue  # reported: the verb's check never sees a value of the wrong type
            before = len(self.c.problems)
            verb.check(self, file, p, effect.args)
            if not any(q.severity == "error" for q in self.c.problems[before:]):
                out.append(effect)  # a broken effect is reported, never kept for later checks
        return out


def once_only(scene: str, name: str, condition: Condition | None) -> Condition:
    """``once = true`` written as the condition it means: ``(its own if) and chosen("scene/name") == 0``.

    Desugared when the adventure loads, so whatever reads conditions (the game, ``solo prove``,
    ``solo map``, the simulator) sees a once-only choice without knowing the word.
    """
    quoted = f"{scene}/{name}".replace("\\", "\\\\").replace('"', '\\"')
    spent = parse_condition(f'chosen("{quoted}") == 0')
    if condition is None:
        return spent
    return Condition(f"({condition.source}) and {spent.source}", ("and", condition.tree, spent.tree))


def _bad_name(name: str, *, item: bool) -> str | None:
    """Why a flag, counter or item named at the start could never be read, or None.

    Flags and counters are read as bare names in conditions, so they must be one name token of
    the condition language (:func:`solo.story.format.expressions.tokenize` decides, not a copy of its
    pattern); an item is read as a string, ``has("silver key")``, so any one line without braces will do.
    """
    from .expressions import ExpressionError, tokenize

    if item:
        if any(ch in "{}" or ord(ch) < 32 or ord(ch) == 127 for ch in name) or name != name.strip():
            return (f"item {name!r}: an item's name is one line without braces or spaces around it, "
                    "e.g. \"silver key\"")
        return None
    try:
        tokens = tokenize(name)
    except ExpressionError:
        tokens = []
    if len(tokens) != 2 or tokens[0].kind != "name" or tokens[0].value != name:
        return (f"{name!r} is not a name a condition can read: use letters, digits, '_' and '.', "
                "starting with a letter or '_', e.g. door_open")
    return None
