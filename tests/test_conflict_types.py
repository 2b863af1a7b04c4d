"""Conflict types: the bundled file, read and checked once a process, and a folder's own file over it."""

from __future__ import annotations

from solo.rules.conflict_types import read_conflict_types


def test_the_bundled_conflict_types_read_once_are_kept_apart_from_a_folders_own(tmp_path):
    """The shipped conflicts.toml is read and checked once a process; a folder's own file still overrides and
    extends it (and is read afresh: changed, it reads changed), and a call without that folder gets the
    shipped types alone."""
    shipped, problems = read_conflict_types()
    assert not problems and shipped["lockpicking"].name == "Picking a lock"
    own = tmp_path / "conflicts.toml"
    own.write_text('[conflict_types.lockpicking]\nname = "Forcing a latch"\nskill = "Cunning"\npools = ["INT"]\n'
                   'static = true\n\n[conflict_types.haggling]\nname = "Haggling"\nskill = "Social"\n'
                   'pools = ["POW"]\n', encoding="utf-8")
    mixed, problems = read_conflict_types([tmp_path])
    assert not problems and mixed["lockpicking"].name == "Forcing a latch" and "haggling" in mixed
    own.write_text(own.read_text(encoding="utf-8").replace("Forcing a latch", "Prying a shutter"), encoding="utf-8")
    assert read_conflict_types([tmp_path])[0]["lockpicking"].name == "Prying a shutter"
    again, _ = read_conflict_types()
    assert again == shipped and again["lockpicking"].name == "Picking a lock" and "haggling" not in again
