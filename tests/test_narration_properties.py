"""Properties of every line the templates can draw (issue 27, "What it must show").

Over every bundled template line: no line that claims a side's conflict is over outside the
events that end it (or a ``[blow:final]`` line, drawn only in the round that side goes out);
no line naming a body (blood, a split lip, breath) that can be drawn for a participant of
another body; no quoted speech outside the speech events (which only a side that speaks and
is heard may draw); and every pronoun slot names the person it refers to, checked by
rendering each line with a she-actor and a he-target.
"""

from __future__ import annotations

import random
import re

import pytest

from solo.narration import Cast, Narrator, load_templates
from solo.narration.context import parse_filters
from solo.rules.fiction import BODIES

#: Events that are themselves the end of a side's part, or come after the conflict is decided.
ENDING = frozenset({"out", "comae", "obstacle_out", "fled", "surrendered", "aftermath", "time_up"})
#: Words that claim the conflict is over for someone.
OVER = re.compile(r"settles it|decides it|stays there|\bit is over\b|it's over|\bis over\b(?! the)|for good|"
                  r"\bis caught\b|\bis done\b|out of the (fight|chase|running|race)|\bis beaten\b|you are beaten",
                  re.IGNORECASE)
#: Words that belong to a living body: blood, breath, pain, a face.
FLESH = re.compile(r"\b(bleed\w*|blood\w*|lips?|grunt\w*|winc\w*|sweat\w*|bruis\w*|jaw|nose|ribs?|gasp\w*|"
                   r"breath\w*|pain|painful|flesh|skin|scream\w*|sobs?|tears|pale|face|cheek|teeth|stomach|gut|"
                   r"groan\w*|hurts?|wound\w*|knees?|lungs?|stitch|sucks in air)\b", re.IGNORECASE)
LIVING = frozenset({"flesh", "animal"})
SPEECH = frozenset({"taunt", "plea", "bargain", "strain"})
_SLOT = re.compile(r"\{(target_\w+|target|actor|they|them|their|theirs|themself)\}", re.IGNORECASE)
#: Lines the pronoun heuristic below flags that were read and are right: a pronoun in a phrase that
#: refers back to the subject ("keeping Espen in front of her"), or the object of the other's verb.
READ_AND_RIGHT = frozenset({
    "{actor} tries to break away, but {target} cuts {them} off.",
    "{actor} goes for {target} with {their} {weapon}.",
    "{actor} edges sideways, keeping {target} in front of {them}.",
    "{actor} hacks at {target} with {their} {weapon}, again and again.",
    "{target} runs, and {actor} goes after {target_them}. Whoever tires first loses.",
    "{actor} runs with {target} at {their} heels.",
    "{target} is gone, lost in the streets, and {actor} lets {target_them} go.",
    "{actor} admits that {target} {target:has|have} beaten {them}.",
    "{actor} kneels before {target} and takes out {their} picks.",
    "{target} glares at {actor} as if {they} had insulted {target_them}.",
    "{actor} tries to end the conversation, but {target} will not let {them} go.",
    "{actor} turns to go, and {target} calls {them} back.",
    "{target} pulls over, engine off, and {actor} stops behind {target_them}.",
    "{target} comes in too open, and {actor} makes {target_them} pay.",
    "The shot hits {target} hard and spins {target_them} round.",
    "{target} glares at the lock as if it had insulted {target_them}.",
    "{actor} readies the move that will take {them} right past {target}.",
})


@pytest.fixture(scope="module")
def bundled():
    return load_templates()


def every_line(templates):
    for (scope, event, variant), lines in templates.lines.items():
        for t in lines:
            yield scope, event, variant, t


def _who(slot: str) -> str:
    return "target" if slot.lower().startswith("target") else "actor"


def owners(text: str, pattern: re.Pattern) -> set[str]:
    """Whose each match is: the person named (or referred to) nearest before it, else the first after."""
    slots = [(m.start(), _who(m.group(1))) for m in _SLOT.finditer(text)]
    found = set()
    for m in pattern.finditer(text):
        before = [who for pos, who in slots if pos < m.start()]
        if before or slots:
            found.add(before[-1] if before else slots[0][1])
    return found


def test_no_over_line_outside_the_events_that_end_a_side(bundled):
    wrong = [f"{t.file}:{t.line} {scope}.{event}: {t.text}" for scope, event, _v, t in every_line(bundled)
             if event not in ENDING and OVER.search(t.text) and t.filters.get("blow") != frozenset({"final"})]
    assert wrong == []


def test_a_final_blow_line_is_only_a_blow_line(bundled):
    """[blow:final] alone is what lets a line claim the end: it is drawn only in the round that side is out."""
    for scope, event, _v, t in every_line(bundled):
        if t.filters.get("blow") == frozenset({"final"}):
            assert event in ("round_won", "exceptional_success", "damage_light", "damage_heavy",
                             "progress_light", "progress_heavy", "setback_light", "setback_heavy"), (scope, event)


def test_no_body_line_can_be_drawn_for_another_body(bundled):
    """A line about blood, breath or a face is filtered to the living for whoever it is about."""
    wrong = []
    for scope, event, _v, t in every_line(bundled):
        for who in owners(t.text, FLESH):
            key = "body" if who == "actor" else "foe_body"
            allowed = t.filters.get(key, frozenset(BODIES))
            if not allowed <= LIVING:
                wrong.append(f"{t.file}:{t.line} {scope}.{event} ({who}): {t.text}")
    assert wrong == []


def test_every_body_has_lines_for_the_blows_it_takes(bundled):
    """Keeping a machine from the flesh lines must not leave it untold: each body draws a line for each event."""
    narrator = Narrator(bundled, random.Random(0))
    for body in BODIES[:-1]:  # an object is an obstacle, told by its own events
        cast = Cast()
        cast.begin({"type": "combat", "frame": {"physical": True}, "participants": [
            {"id": "a", "name": "Signe", "side": "a", "pc": True, "pronoun": "she"},
            {"id": "b", "name": "Thing", "side": "b", "pronoun": "it", "body": body, "speaks": False}]})
        signe, thing = cast.person("a"), cast.person("b")
        for event in ("damage_light", "damage_heavy", "out", "wavering", "breaking", "push"):
            dealer, hurt = (signe, thing) if event.startswith("damage") else (thing, signe)
            line = narrator.say(cast, event, dealer, hurt)
            assert line, (body, event)
            if event.startswith("damage"):
                assert not (body not in LIVING and FLESH.search(line)), (body, line)


#: Words that promise the next blow ends it: "One more setback and Ingrid is finished." was told at CHA 4/16,
#: where a 1d6 blow of 1-3 would not finish her. A Pool clue is drawn at half or a quarter of the Pool or less.
NEXT_ENDS_IT = re.compile(r"\bone more (setback|blow|hit|knock|loss|point)\b(?! into)|"
                          r"\b(next|another) (blow|setback|hit) (will|and)\b|"
                          r"\babout to (give out|give up|drop|fall|collapse|break)\b", re.IGNORECASE)


def test_no_pool_clue_promises_the_next_blow_ends_it(bundled):
    """The wavering and breaking clues, the bundled ones and the adventures' own, are told at half or a quarter
    of the Pool, where the next blow may well not end it: none says it will."""
    import tomllib
    from pathlib import Path

    scenes = sorted((Path(__file__).parent.parent / "scenes").glob("*/narration.toml"))
    adventures = [(str(f), tomllib.loads(f.read_text(encoding="utf-8"))["narration"]) for f in scenes]
    wrong = [f"{t.file}:{t.line} {scope}.{event}: {t.text}" for templates in [bundled] + [
        load_templates(extra_data=[a], bundled=False) for a in adventures] for scope, event, _v, t in
        every_line(templates) if event in ("wavering", "breaking") and NEXT_ENDS_IT.search(t.text)]
    assert scenes and wrong == []


def test_quoted_speech_only_in_the_speech_events(bundled):
    """Speech is drawn only by the speech events, which only a side that speaks and is heard may use
    (tests/test_narration_fiction.py holds the narrator to that)."""
    wrong = [f"{t.file}:{t.line} {scope}.{event}: {t.text}" for scope, event, _v, t in every_line(bundled)
             if event not in SPEECH and ('"' in t.text or "“" in t.text)]
    assert wrong == []


def _pronoun_flags(text: str) -> list[str]:
    """Pronoun slots that look aimed at the wrong person.

    (a) An object or possessive whose nearest person named before it is the other one.
    (b) "{actor} makes {them} pay": an object pronoun right after its own subject's verb would be
        "herself"; as written it must mean the other person.
    """
    flags = []
    last = None
    for m in _SLOT.finditer(text):
        slot = m.group(1)
        who, base = _who(slot), slot.lower().removeprefix("target_")
        if base in ("actor", "target"):
            last = who
            continue
        if base in ("them", "their", "theirs", "themself") and last is not None and last != who:
            flags.append(slot)
        last = who
    for m in re.finditer(r"\{(actor|target)\}([^{},;.:!?]*?)\{(target_them|them)\}", text, re.IGNORECASE):
        near = m.group(2).strip().split()
        if _who(m.group(1)) == _who(m.group(3)) and not (near and near[-1] in ("behind", "of", "past", "against")):
            flags.append(m.group(3))
    return flags


def test_every_pronoun_slot_names_the_person_it_refers_to(bundled):
    """Before: "Signe makes her pay" about Espen; "lets him run" about Kaia. Each line is rendered with a
    she-actor and a he-target: every "she/her" must stand for the actor and every "he/him/his" for the
    target, which the slots decide; the heuristic above catches a slot aimed at the wrong one."""
    narrator = Narrator(bundled, random.Random(0))
    cast = Cast()
    cast.begin({"type": "combat", "frame": {"physical": True}, "participants": [
        {"id": "a", "name": "Signe", "side": "a", "pc": True, "pronoun": "she"},
        {"id": "b", "name": "Espen", "side": "b", "pronoun": "he"}]})
    actor, target = cast.person("a"), cast.person("b")
    flagged = []
    for scope, event, variant, t in every_line(bundled):
        extra = {"skill": "easy charm", "item": "rope", "rounds": "two more rounds"}
        text = narrator.render(t, narrator.values(cast, actor, target, extra=extra), actor, target)
        actor_slots = len(re.findall(r"\{(they|them|their|theirs|themself)\}", t.text, re.IGNORECASE))
        target_slots = len(re.findall(r"\{target_(they|them|their|theirs|themself)\}", t.text, re.IGNORECASE))
        she = len(re.findall(r"\b(she|her|hers|herself)\b", text, re.IGNORECASE))
        he = len(re.findall(r"\b(he|him|his|himself)\b", text, re.IGNORECASE))
        assert she >= actor_slots and he >= target_slots, (scope, event, variant, text)
        if _pronoun_flags(t.text) and t.text not in READ_AND_RIGHT:
            flagged.append(f"{t.file}:{t.line} {scope}.{event}.{variant}: {t.text}")
    assert flagged == []


def test_the_docstring_example_of_a_filter_aims_its_pronoun_at_the_target():
    from solo.narration import context

    body, filters, errors = parse_filters(context.__doc__.split("::")[1].strip().splitlines()[0].strip().strip('"'))
    assert not errors and "{target_them}" in body and "{them}" not in body


def test_a_bearing_that_says_one_is_about_to_give_way_is_told_only_of_one_hurt_that_far(bundled):
    """A new player's run at Kaldskard's outlaw fire: "Torgny looks ready to give way at the next push." of an
    archer still at 6/6. A bearing is told at any Pool; one that says its NPC is near the end of it is filtered to
    a Pool at half or less (``state:wavering|breaking``)."""
    near_the_end = re.compile(r"give way at the next|about to (break|give way|collapse)|at the end of", re.I)
    said = [t for _s, event, _v, t in every_line(bundled) if event == "bearing" and near_the_end.search(t.text)]
    assert said and all(t.filters.get("state", frozenset()) <= {"wavering", "breaking"}
                        and t.filters.get("state") for t in said), [t.text for t in said]
