"""The resume hint works as printed in a new shell, where a virtualenv is no longer activated."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from solo.paths import resume_command, solo_program


@pytest.fixture
def venv(tmp_path, monkeypatch):
    """A fake virtualenv with its bin/solo, solo run from it, the current folder above it."""
    prefix = tmp_path / ".venv"
    (prefix / "bin").mkdir(parents=True)
    program = prefix / "bin" / "solo"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", [str(program), "play"])
    monkeypatch.setattr(sys, "prefix", str(prefix))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    monkeypatch.chdir(tmp_path)
    return program


def test_from_an_activated_venv_the_hint_names_the_venvs_program_by_its_whole_path(venv, monkeypatch, tmp_path):
    """Issue 31, point 1: a new terminal opens in the home folder, so nothing in the hint is relative."""
    monkeypatch.setattr(shutil, "which", lambda name: str(venv))  # on the PATH only while activated
    assert solo_program() == str(venv)
    assert resume_command(Path("saves/tutorial.json")) == f"{venv} play --load {tmp_path}/saves/tutorial.json"


def test_a_venv_named_relative_to_the_current_folder_is_still_named_whole(venv, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "prefix", ".venv")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert solo_program() == str(venv)


def test_outside_the_current_folder_the_hint_gives_the_whole_path_quoted(venv, monkeypatch, tmp_path):
    elsewhere = tmp_path / "my games"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert solo_program() == str(venv)
    assert resume_command("saves/a b.json") == f"{venv} play --load '{elsewhere}/saves/a b.json'"


def test_a_link_on_the_path_outside_the_venv_as_pipx_makes_is_plain_solo(venv, monkeypatch, tmp_path):
    link_dir = tmp_path / "local-bin"
    link_dir.mkdir()
    (link_dir / "solo").symlink_to(venv)
    monkeypatch.setattr(shutil, "which", lambda name: str(link_dir / "solo"))
    assert solo_program() == "solo"


def test_run_as_a_module_or_outside_a_venv_it_is_plain_solo(venv, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/x/solo/__main__.py"])
    assert solo_program() == "solo"
    monkeypatch.setattr(sys, "argv", [str(venv)])
    monkeypatch.setattr(sys, "base_prefix", sys.prefix)
    assert solo_program() == "solo"


def test_the_hint_after_a_game_is_one_ready_command_with_the_resume_hints_program(venv, monkeypatch, tmp_path, vellan):
    """A character kept after the game is taken on by a command that runs as printed: the program as the resume
    hint names it, the adventure just played (no ADVENTURE to fill in), and a party's files after one --party, the
    one line a table types, where one --pc line for each would start each character in a game alone."""
    from solo.rules.creation import pregenerated
    from solo.ui.session import take_on_hint

    monkeypatch.setattr(shutil, "which", lambda name: str(venv))
    espen, signe = pregenerated("espen"), pregenerated("espen")
    signe.name, signe.pronoun = "Signe Falk", "she"
    one, two = tmp_path / "characters" / "espen_lind.toml", tmp_path / "characters" / "signe falk.toml"
    program = resume_command("x.json").split(" play --load ")[0]
    assert program == str(venv)
    assert take_on_hint(vellan, [(signe, two)]) == ("Signe Falk is saved. Take her on with:",
                                                     f"{program} play vellan --pc '{two}'")
    lead, command = take_on_hint(vellan, [(espen, one), (signe, two)])
    assert lead == "Espen Lind and Signe Falk are saved. Take them on together with:"
    assert command == f"{program} play vellan --party {one} '{two}'"


def test_a_save_named_through_dot_dot_is_resumed_by_its_plain_whole_path(monkeypatch, tmp_path):
    """A GM's run: `--saves ../../../x` came back as "/tmp/gm-work/bad/../../../x/harrowby.json"."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "a" / "b")
    command = resume_command(Path("..") / ".." / "outsv" / "harrowby.json")
    assert command.endswith(f"--load {tmp_path / 'outsv' / 'harrowby.json'}") and ".." not in command
