"""docs/rules.md against the code: every "§N.N" the code cites exists, and the tables agree.

The rules page restates numbers whose one home is in the code (the Lens table, the
obstacle ladder, NPC levels, the gear, the conflict types …). These tests parse the
Markdown tables and compare them with that home, so a number changed in one place and
not the other fails here, naming both.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"
RULINGS_DOC = ROOT / "docs" / "rulings.md"
SOURCE = ROOT / "solo"

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(.+)$")
#: "§5", "§5.1", "§2.3–2.7"; an optional document name just before says whose section it is.
CITATION = re.compile(r"(?:([\w./-]+\.md)\s*)?§\s*(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+(?:\.\d+)?))?")
RULES_NAMES = {"RULES.md", "rules.md", "docs/rules.md"}


# -- reading the page -----------------------------------------------------------------

def slug(title: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def headings(text: str) -> list[tuple[int, str]]:
    out = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if m:
            out.append((len(m.group(1)), m.group(2)))
    return out


def numbered_headings(text: str) -> list[tuple[str, str]]:
    """(section number, title) of every numbered heading, in page order."""
    out = []
    for _, title in headings(text):
        m = NUMBERED.match(title)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def sections(text: str) -> dict[str, str]:
    """Section number -> heading title, e.g. "5.4" -> "Static opposition"."""
    return dict(numbered_headings(text))


def _cells(line: str) -> list[str]:
    return [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]


def tables(text: str) -> list[tuple[str | None, list[str], list[list[str]]]]:
    """Every Markdown table as (number of the section it is in, header, rows)."""
    out = []
    section = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = HEADING.match(lines[i])
        if m:
            n = NUMBERED.match(m.group(2))
            section = n.group(1) if n else None
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|\s*$", lines[i + 1]):
            header = _cells(lines[i])
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            out.append((section, header, rows))
            continue
        i += 1
    return out


def table(text: str, section: str, first_header: str) -> list[dict[str, str]]:
    """The rows, as {header: cell}, of the table in ``section`` whose first column is ``first_header``."""
    found = [(h, rows) for s, h, rows in tables(text) if s == section and h[0] == first_header]
    assert len(found) == 1, f"docs/rules.md §{section}: expected one table headed {first_header!r}, found {len(found)}"
    header, rows = found[0]
    for row in rows:
        assert len(row) == len(header), f"docs/rules.md §{section}: row {row} does not fit the header {header}"
    return [dict(zip(header, row)) for row in rows]


def number(cell: str) -> int:
    """ "−20", "+20", "30 %", "0" -> int."""
    cleaned = cell.replace("−", "-").replace("–", "-").replace("%", "").replace("+", "").strip()
    return int(cleaned)


def span(cell: str) -> tuple[int, int]:
    """ "1–3" -> (1, 3); "2" -> (2, 2)."""
    parts = re.split(r"\s*[–-]\s*", cell.strip())
    return (int(parts[0]), int(parts[-1]))


def numbers(cell: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", cell))


def words(cell: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in cell.split(",") if w.strip())


def yes(cell: str) -> bool:
    assert cell in ("yes", "no"), cell
    return cell == "yes"


def dash(cell: str) -> str | None:
    return None if cell in ("—", "-", "") else cell


@pytest.fixture(scope="module")
def doc() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


# -- (a) the sections the code cites ---------------------------------------------------

@lru_cache(maxsize=1)
def cited_sections() -> dict[str, list[str]]:
    """Section number -> the places in solo/ that cite it (file:line)."""
    cited: dict[str, list[str]] = {}
    for file in sorted(SOURCE.rglob("*")):
        if file.suffix not in (".py", ".toml") or not file.is_file():
            continue
        for lineno, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            for m in CITATION.finditer(line):
                doc_name = m.group(1)
                if doc_name and doc_name not in RULES_NAMES and not doc_name.endswith("/rules.md"):
                    continue  # a section of another page (docs/oracle.md §2 …)
                first, last = m.group(2), m.group(3)
                where = f"{file.relative_to(ROOT)}:{lineno}"
                for n in _expand(first, last):
                    cited.setdefault(n, []).append(where)
    return cited


def _expand(first: str, last: str | None) -> list[str]:
    """§2.3–2.7 cites 2.3, 2.4, 2.5, 2.6 and 2.7."""
    if last is None:
        return [first]
    a, b = first.split("."), last.split(".")
    if len(a) == len(b) == 2 and a[0] == b[0]:
        return [f"{a[0]}.{k}" for k in range(int(a[1]), int(b[1]) + 1)]
    return [first, last]


def test_the_code_cites_sections():
    cited = cited_sections()
    assert len(cited) >= 10, f"expected the code to cite rules sections, found {sorted(cited)}"


def test_every_cited_section_exists(doc):
    have = sections(doc)
    missing = {n: places for n, places in cited_sections().items() if n not in have}
    assert not missing, "sections cited in solo/ but missing from docs/rules.md: " + "; ".join(
        f"§{n} ({', '.join(places)})" for n, places in sorted(missing.items()))


def test_sections_cited_by_the_other_docs_and_tests_exist(doc):
    """docs/*.md and tests/*.py cite rules sections too (only lines naming the rules page count)."""
    have = sections(doc)
    files = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "tests").glob("*.py"))
    missing = []
    for file in files:
        if file.name in ("rules.md", "test_rules_doc.py"):
            continue
        for lineno, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if "RULES" not in line and "rules.md" not in line:
                continue
            for m in CITATION.finditer(line):
                if m.group(1) and m.group(1) not in RULES_NAMES and not m.group(1).endswith("/rules.md"):
                    continue
                missing += [f"§{n} ({file.relative_to(ROOT)}:{lineno})"
                            for n in _expand(m.group(2), m.group(3)) if n not in have]
    assert not missing, "sections cited but missing from docs/rules.md: " + "; ".join(missing)


def test_section_numbers_are_unique_and_in_order(doc):
    numbered = [n for n, _ in numbered_headings(doc)]
    assert len(numbered) == len(set(numbered)), numbered
    keys = [tuple(int(x) for x in n.split(".")) for n in numbered]
    assert keys == sorted(keys), numbered


def test_links_to_the_rules_page_resolve(doc):
    """Anchors into rules.md (from rulings.md and from rules.md itself) name real headings."""
    rules_anchors = {slug(t) for _, t in headings(doc)}
    rulings = RULINGS_DOC.read_text(encoding="utf-8")
    rulings_anchors = {slug(t) for _, t in headings(rulings)}
    for name, text in (("docs/rulings.md", rulings), ("docs/rules.md", doc)):
        for target in re.findall(r"\]\(([^)\s]*)\)", text):
            page, _, anchor = target.partition("#")
            if page == "rules.md" or (page == "" and name == "docs/rules.md" and anchor):
                assert not anchor or anchor in rules_anchors, f"{name}: no heading for #{anchor} in docs/rules.md"
            if page == "rulings.md" and anchor:
                assert anchor in rulings_anchors, f"{name}: no heading for #{anchor} in docs/rulings.md"


# -- (b) the tables against their one home in the code ------------------------------------

def test_lens_table(doc):
    from solo.rules.lenses import LENS_TABLE, Damage

    damage = {"the dice once": Damage.PLAIN, "twice, keep the higher": Damage.TWICE_KEEP_HIGHER,
              "halved, rounded up": Damage.HALVED, "none": Damage.NONE}
    rows = table(doc, "6", "Lens")
    assert [r["key"] for r in rows] == list(LENS_TABLE), "the Lens table lists other Lenses than lenses.LENS_TABLE"
    for r in rows:
        lens = LENS_TABLE[r["key"]]
        assert r["Lens"] == lens.name, r
        assert number(r["skill shift"]) == lens.skill_shift, f"{lens.name}: skill shift"
        assert damage[r["damage on a win"]] == lens.damage, f"{lens.name}: damage"
        rolls = {"the conflict's skill": None, "Cunning": "Cunning", "another skill, declared": "secondary"}
        assert rolls[r["rolls"]] == lens.rolls, f"{lens.name}: rolls"
        assert dash(r["may hit instead"]) == lens.side_pool, f"{lens.name}: side Pool"
        assert number(r["own next round if not won"]) == lens.penalty_if_not_won, f"{lens.name}: own next round"
        assert number(r["struck opponent next round"]) == lens.penalty_on_hit, f"{lens.name}: struck opponent"


def test_lens_notes_use_the_next_round_number(doc):
    from solo.rules.lenses import CLEVER_BONUS

    section = doc.split("## 6. Lenses", 1)[1].split("### 6.1", 1)[0]
    assert f"**+{CLEVER_BONUS}** to the roll" in section


def test_obstacle_table(doc):
    from solo.rules.participants import OBSTACLES

    rows = table(doc, "5.4", "difficulty")
    got = {r["difficulty"].lower(): (number(r["Challenge Rating"]), number(r["Pool"])) for r in rows}
    assert got == OBSTACLES


def test_npc_level_table(doc):
    from solo.npc.levels import LEVELS

    rows = table(doc, "7.1", "level")
    assert [r["level"].lower() for r in rows] == list(LEVELS)
    for r in rows:
        lv = LEVELS[r["level"].lower()]
        assert numbers(r["skills"]) == lv.skills, r["level"]
        assert numbers(r["Pools"]) == lv.pools, r["level"]
        assert span(r["Focuses"]) == lv.focuses, r["level"]
        assert span(r["Tags"]) == lv.tags, r["level"]
        assert yes(r["pushes below 0"]) == lv.can_push, r["level"]
        assert yes(r["Lenses"]) == lv.uses_lenses, r["level"]


def test_disposition_ladder(doc):
    from solo.npc.disposition import disposition_step
    from solo.npc.tables import codeblocks

    rows = table(doc, "7.2", "disposition")
    ladder = codeblocks().dispositions
    assert [r["disposition"].split(" (")[0] for r in rows] == [d.name for d in ladder]
    for r, disp in zip(rows, ladder):
        assert number(r["modifier"]) == disp.modifier, disp.name
        assert number(r["step"]) == disposition_step(disp.name), disp.name
        for alias in disp.aliases:
            assert alias in r["disposition"], f"{disp.name}: alias {alias} not named"


def test_code_block_d20_table(doc):
    from solo.npc.tables import codeblocks

    t = codeblocks()
    rows = table(doc, "7.2", "1d20")
    assert [int(r["1d20"]) for r in rows] == list(range(1, 21))
    for r in rows:
        face = int(r["1d20"])
        assert r["Personality"] == t.trait_by_roll("personality", face).name, face
        assert r["Dark Triad"] == t.trait_by_roll("dark_triad", face).name, face
        assert r["Motivation"] == t.motivation_by_roll(face).name, face
        assert r["Recent Event"] == t.event_by_roll(face)[0].topic, face


def test_difficulty_and_quality_words(doc):
    from solo.rules.rolls import DIFFICULTIES, QUALITY_WORDS

    rows = table(doc, "3", "difficulty")
    got = {r["difficulty"].lower(): (None if r["modifier"].startswith("no roll") else number(r["modifier"]))
           for r in rows}
    assert got == DIFFICULTIES
    rows = table(doc, "3", "word")
    assert {r["word"].lower(): number(r["modifier"]) for r in rows} == QUALITY_WORDS


def test_skills_and_focuses(doc):
    from solo.rules.rulebook import rules

    t = rules()
    rows = table(doc, "2.2", "skill")
    assert {r["skill"]: set(words(r["Focuses"])) for r in rows} == {
        name: set(s.focuses) for name, s in t.skills.items()}
    assert f"**+{t.focus_bonus}** when learnt" in doc
    assert f"**{t.native_language} %** at least" in doc
    assert f"at **{t.untrained} %**" in doc


def test_creation_pyramid_and_pools(doc):
    from solo.rules.creation import PYRAMID_WITH_FOCUS, PYRAMID_WITHOUT_FOCUS, STANDARD_POOLS

    rows = table(doc, "2.3", "rank")
    assert [int(r["rank"]) for r in rows] == list(range(1, len(PYRAMID_WITH_FOCUS) + 1))
    assert tuple(number(r["with Focuses"]) for r in rows) == PYRAMID_WITH_FOCUS
    assert tuple(number(r["without Focuses"]) for r in rows) == PYRAMID_WITHOUT_FOCUS
    assert "**" + ", ".join(str(v) for v in STANDARD_POOLS[:-1]) + f" and {STANDARD_POOLS[-1]}**" in doc


def test_tag_table(doc):
    from solo.rules.rulebook import rules

    rows = table(doc, "2.5", "1d12")
    assert {int(r["1d12"]): r["Tag"] for r in rows} == {tag.roll: tag.name for tag in rules().tags.values()}


def test_request_chances(doc):
    from solo.rules.character import request_chance

    rows = table(doc, "2.5", "request in the scenario")
    for i, r in enumerate(rows):
        assert number(r["chance"]) == request_chance(i), r
    assert request_chance(len(rows) - 1) == 0 == request_chance(len(rows) + 5)


def test_willpower_table(doc):
    from solo.rules.rulebook import rules

    t = rules()
    rows = table(doc, "2.6", "1d10")
    assert [int(r["1d10"]) for r in rows] == list(range(1, 11))
    assert tuple(r["Person"] for r in rows) == t.persons
    assert tuple(r["Circle"] for r in rows) == t.circles
    assert tuple(r["verb"] for r in rows) == t.verbs


def test_career_table(doc):
    from solo.rules.rulebook import rules

    careers = rules().careers
    rows = table(doc, "2.7", "career")
    assert [r["career"] for r in rows] == list(careers)
    for r in rows:
        career = careers[r["career"]]
        skills = tuple(tuple(s.strip() for s in w.split("//")) for w in words(r["top skills, in order"]))
        assert skills == tuple((s,) if f is None else (s, f) for s, f in career.skills), career.name
        for tag in career.tags + career.tag_choices:
            assert tag in r["Tags"], f"{career.name}: Tag {tag}"
        if career.membership:
            assert career.membership in r["Tags"], career.name


def test_luck_table(doc):
    from solo.rules.luck import NEGATIVE_LUCK_FLOOR, USES

    rows = table(doc, "2.8", "use")
    assert tuple(r["key"] for r in rows) == USES
    assert f"down to **{NEGATIVE_LUCK_FLOOR:+d}**".replace("-", "−") in doc


def test_improvement_costs(doc):
    from solo.rules import improvement

    rows = {r["what"].split()[0] + " " + r["what"].split()[-1]: r for r in table(doc, "2.9", "what")}
    assert number(rows["learn skill"]["rolls"]) == improvement.NEW_SKILL_COST
    assert number(rows["learn skill"]["gives"].split()[-2]) == improvement.NEW_SKILL_VALUE
    assert number(rows["learn Focus"]["rolls"]) == improvement.NEW_FOCUS_COST
    assert number(rows["gain Tag"]["rolls"]) == improvement.NEW_TAG_COST


def test_outcome_table(doc):
    from solo.rules.outcomes import OUTCOMES

    assert tuple(r["outcome"] for r in table(doc, "5.1", "outcome")) == OUTCOMES


def test_round_limit(doc):
    from solo.story.play.engine import ROUND_LIMIT_DEFAULT

    assert f"(default **{ROUND_LIMIT_DEFAULT}**)" in doc


def test_conflict_type_table(doc):
    from solo.rules.conflict_types import bundled_conflict_types

    types = bundled_conflict_types()
    rows = table(doc, "5.3", "key")
    assert [r["key"] for r in rows] == list(types)
    for r in rows:
        ct = types[r["key"]]
        assert (r["name"], r["round"], r["skill"]) == (ct.name, ct.round, ct.skill), ct.key
        assert words(r["Focuses"]) == ct.focuses, ct.key
        assert tuple(p.strip() for p in r["Pool"].split("+")) == ct.pools, ct.key
        notes = r["notes"]
        assert ("static" in notes) == ct.static, ct.key
        assert ("physical" in notes) == ct.physical, ct.key
        assert ("social" in notes) == ct.social, ct.key
        assert ("no fleeing" in notes) == (not ct.flight), ct.key
        if ct.opposed_by:
            skill, focuses = ct.opposed_by
            assert f"rolls {skill}" + "".join(f" //{f}" for f in focuses) in notes, ct.key


def test_weapon_shield_armour_tables(doc):
    from solo.rules.rulebook import rules

    t = rules()
    rows = table(doc, "6.1", "weapon")
    assert [r["weapon"] for r in rows] == [w.name for w in t.weapons.values()]
    for r, w in zip(rows, t.weapons.values()):
        assert (r["kind"], r["damage"]) == (w.kind, str(w.damage)), w.name
        assert (None if dash(r["range (m)"]) is None else int(r["range (m)"])) == w.range, w.name
        assert yes(r["firearm"]) == w.firearm, w.name
    rows = table(doc, "6.1", "shield")
    assert [r["shield"] for r in rows] == [s.name for s in t.shields.values()]
    for r, s in zip(rows, t.shields.values()):
        assert number(r["penalty on the opponent's roll"]) == s.penalty, s.name
        assert words(r["against"]) == s.against, s.name
    rows = table(doc, "6.1", "armour")
    assert [r["armour"] for r in rows] == [a.name for a in t.armour.values()]
    firearm = next(w for w in t.weapons.values() if w.firearm)
    for r, a in zip(rows, t.armour.values()):
        assert number(r["armour points"]) == a.points_against(None), a.name
        assert number(r["against firearms"]) == a.points_against(firearm), a.name
        penalties = {} if dash(r["skill penalties"]) is None else {
            p.rsplit(" ", 1)[0]: number(p.rsplit(" ", 1)[1]) for p in words(r["skill penalties"])}
        assert penalties == a.skill_penalties, a.name
