"""The Markdown journal of a session (``--transcript``): the story and the dice, in order.

It holds no clock and no paths, so the same adventure, seed and answers give a
byte-identical journal.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..events import Event
from ..story.text import fill
from . import describe as d


class Journal:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[str, str] = {}
        self.pronouns: dict[str, str] = {}

    def text(self) -> str:
        return "\n".join(self.lines).rstrip() + "\n"

    def write(self, path: Path) -> None:
        """Replace ``path`` with the journal so far, all at once (an ``OSError`` says why not)."""
        from ..paths import write_atomic

        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, self.text())

    def _para(self, text: str) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")
        self.lines.append(text)
        self.lines.append("")

    def _item(self, text: str) -> None:
        self.lines.append(f"- {text}")

    def render(self, e: Event, narration: Sequence[str] = ()) -> None:
        k = e.kind
        if k == "title":
            self.lines += [f"# {e['title']}", ""]
            if e.get("introduction"):
                self._para(e["introduction"].strip())
        elif k == "party":
            names = ", ".join(m["name"] + (f" ({m['career']})" if m.get("career") else "") for m in e["members"])
            self._para(f"*The party: {names}.*")
        elif k == "scene_entered":
            self._para(f"## {e['title']}")
            for para in fill(e["text"], e["slots"]).strip().split("\n\n"):
                if para.strip():
                    self._para(para.strip())
        elif k == "situation":
            self._para(f"*{e['text']}*")
        elif k == "scene_setup":
            self._para(f"*{d.scene_setup(e)}*")
        elif k == "npc_met":
            self._para(d.npc_met(e))
        elif k == "choice":
            self._para(f"> **{e['text']}**")
        elif k == "branch_text":
            self._para(fill(e["text"], e["slots"]).strip())
        elif k == "skill_roll":
            self._para(f"*{d.skill_roll(e)}*")
        elif k == "opposed_roll":
            self._para(f"*{d.opposed_roll(e)}*")
        elif k == "opposed_outcome":
            self._para(f"*{d.opposed_outcome(e)}*")
        elif k == "luck":
            self._para(f"*{d.luck(e)}*")
        elif k == "conflict_stakes" and e.get("stakes"):
            self._para(f"*At stake: {e['stakes']}*")
        elif k == "conflict_start":
            self.names = {p["id"]: p["name"] for p in e["participants"]}
            self.pronouns = {p["id"]: p.get("pronoun", "they") for p in e["participants"]}
            sides: dict[str, list[str]] = {"a": [], "b": []}
            for p in e["participants"]:
                blow = f", {p.get('strikes_with') or 'damage'} {p['damage']}" if p.get("damage") else ""
                sides[p["side"]].append(f"{p['name']} ({p['target']} %, {e['pool_name']} {p['pool']}{blow})")
            self._para(f"### {e['type_name']}: {', '.join(sides['a'])} against {', '.join(sides['b'])}")
        elif k == "round_start":
            of = f" of {e['round_limit']}" if e.get("round_limit") else ""
            self._para(f"**Round {e['round']}{of}**")
        elif k == "next_round":
            self._item(d.next_round(e, self.names))
        elif k == "chance" and e.get("changed"):
            self._para(f"*{d.changed_chance(e, self.names)}*")
        elif k == "roll":
            self._item(d.conflict_roll(e, self.names))
        elif k == "round_result":
            self._item(d.round_result(e, self.names))
        elif k == "damage":
            self._item(d.damage(e, self.names))
        elif k in ("push", "out", "comae", "exit"):
            who = self.names.get(e["actor"], e["actor"])
            text = {"push": f"{who} pushes on ({e.get('pool')} {e.get('value')}).",
                    "out": f"{who} is out of the conflict.",
                    "comae": f"{who} falls into comae.",
                    "exit": f"{who} {'flees' if e.get('how') == 'fled' else 'gives up'}."}[k]
            self._item(text)
        elif k == "leave_attempt":
            who = self.names.get(e["actor"], e["actor"])
            self._item(f"{who} tries to get away: {e['roll']:02d} against {e['target']}: "
                       f"{'away' if e['success'] else 'caught'}.")
        elif k == "npc_break" or (k == "npc_morale" and e.get("after") != e.get("before") and e.get("clue")):
            self._item(f"*{d.clue(e, self.names, self.pronouns)}*")
        elif k == "conflict_end":
            self._para(f"*{d.conflict_outcome(e['outcome'])}*")
        elif k == "spent_at_start":
            self._para(f"*{d.spent_at_start(e)}*")
        elif k == "no_contest":
            self._para(f"*{d.no_contest(e)}*")
        elif k == "oracle":
            self._para(f"> {d.oracle(e)}")
        elif k == "table":
            self._para(f"*{e.get('text', '')}*")
        elif k == "note":
            self._para(f"> **Note:** {e['text']}")
        elif k == "item":
            self._para(f"*{'Gained' if e['gained'] else 'Lost'}: {e['item']}.*")
        elif k == "pool_change":
            self._para(f"*{e['actor']}: {e['pool']} {e['before']} -> {e['after']}.*")
        elif k == "disposition":
            self._para(f"*{e['name']} is now {e['after']} towards you.*")
        elif k == "pc_removed":
            self._para(f"*{e['actor']} is {'dead' if e['fate'] == 'death' else 'out of the story'}.*")
        elif k == "ending":
            self._para(f"**The end** ({e['outcome']}).")
        elif k == "session_end":
            self._para(f"*{d.session_end(e)}*")
        elif k == "improvement":
            self._item(d.improvement(e))
        elif k == "request":
            self._para(f"*{d.request(e)}*")
        elif k == "treatment":
            self._para(f"*{d.treatment(e)}*")
        elif k == "dead_end":
            self._para("*The story stops here: no way on.*")
        for line in narration:
            self._para(line) if k not in ("roll", "round_result", "damage") else self._item(f"*{line}*")
