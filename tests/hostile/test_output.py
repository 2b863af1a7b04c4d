"""Issue 34, internal errors where a message belongs: terminals, full or closed outputs, odd saves and paths.

The terminal cases run solo as a child process, since the point is what Python's own streams do:
an encoding that is not UTF-8, standard output on a full device, a pipe closed by ``head``.
docs/limits.md ("When the output fails") gives the statuses checked here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_files import EXAMPLE, TUTORIAL_SCRIPT, a_save, assert_no_crash, assert_one_line_error, invoke

from solo.cli.output import CLOSED_PIPE_STATUS, plain
from solo.saves import read_save, write_save

VELLAN_ANSWERS = "1\n" * 40


def _solo(cwd: Path, *args: str, env: dict[str, str] | None = None, stdin: str = "",
          stdout: int | None = subprocess.PIPE, tail: str = "") -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SOLO_", "PYTHONIOENCODING"))}
    environ.update(env or {})
    command = ["sh", "-c", f'"$0" -m solo "$@" {tail}', sys.executable, *args]
    return subprocess.run(command, cwd=cwd, env=environ, input=stdin.encode(), stdout=stdout,
                          stderr=subprocess.PIPE, timeout=120)


# -- terminals that are not UTF-8 ----------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", [["play", "vellan", "--seed", "4", "--saves", "saves"],
                                  ["oracle", "Is the door locked?", "--seed", "3"], ["npc", "--seed", "2"],
                                  ["table", "list"], ["odds", "--skill-a", "50", "--pool-a", "5", "--skill-b", "40",
                                                      "--pool-b", "5"]])
def test_a_terminal_that_is_not_utf8_gets_plain_text(tmp_path, encoding, args):
    done = _solo(tmp_path, *args, env={"PYTHONIOENCODING": encoding}, stdin=VELLAN_ANSWERS)
    out, err = done.stdout, done.stderr.decode(encoding)
    assert done.returncode == 0, err
    assert "internal error" not in err and "Traceback" not in err
    text = out.decode(encoding)  # every byte is of the terminal's own encoding
    if encoding == "ascii":
        assert text.isascii()
    assert "?" * 5 not in text  # solo's own punctuation became words and signs, not question marks
    assert len(text) > 100


def test_plain_text_keeps_the_meaning_of_solos_own_signs():
    assert [plain(c) for c in "…—→≈±█é╭─│"] == ["...", "--", "->", "~", "+/-", "#", "e", "+", "-", "|"]


def test_input_that_is_not_valid_in_the_terminals_encoding_is_read_not_a_crash(tmp_path):
    done = _solo(tmp_path, "play", "tutorial", "--saves", "saves", env={"PYTHONIOENCODING": "ascii"},
                 stdin="S\u00f8lve\nquit\n")
    assert done.returncode == 0, done.stderr.decode("ascii", "replace")
    assert b"internal error" not in done.stdout + done.stderr


# -- a full or closed output -----------------------------------------------------------------------------
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["table", "list"], ["npc", "--seed", "1"], ["saves"],
                                  ["play", "tutorial", "--seed", "5", "--saves", "saves", "--script",
                                   str(TUTORIAL_SCRIPT)]])
def test_a_full_output_is_one_line_on_stderr_and_status_2(tmp_path, args):
    done = _solo(tmp_path, *args, stdout=None, tail="> /dev/full")
    err = done.stderr.decode()
    assert done.returncode == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "No space left on device" in lines[0], err
    assert "internal error" not in err and "Exception ignored" not in err
    if args[0] == "play":
        assert "the game is saved; resume it with" in lines[0]
        assert read_save(tmp_path / "saves" / "tutorial.json").seed == 5
        assert not list((tmp_path / "saves").glob("*.error.txt"))


@pytest.mark.parametrize("args", [["play", "vellan", "--seed", "3", "--saves", "saves"], ["table", "list"],
                                  ["odds", "--skill-a", "50", "--pool-a", "5", "--skill-b", "40", "--pool-b", "5"]])
def test_a_closed_pipe_ends_quietly_with_its_own_status(tmp_path, args):
    """As ``solo … | head`` once head has what it wanted: the pipe's reader is gone before solo writes."""
    reader = subprocess.Popen(["head", "-c", "0"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    reader.wait(timeout=30)  # the reading end is closed for good; the writing end is ours to hand on
    assert reader.stdin is not None
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SOLO_")}
    solo = subprocess.Popen([sys.executable, "-m", "solo", *args], cwd=tmp_path, env=environ, stdin=subprocess.PIPE,
                            stdout=reader.stdin, stderr=subprocess.PIPE)
    reader.stdin.close()
    _, err = solo.communicate(VELLAN_ANSWERS.encode(), timeout=120)
    assert solo.returncode == CLOSED_PIPE_STATUS, err
    assert err == b""  # quietly: no message, no "Exception ignored"
    if args[0] == "play":
        assert read_save(tmp_path / "saves" / "vellan.json").seed == 3  # the game kept what it had


# -- odd saves and paths -------------------------------------------------------------------------------------
def test_a_lone_surrogate_in_a_save_is_listed_safely(tmp_path):
    saves = tmp_path / "saves"
    write_save(saves / "good.json", a_save())
    raw = json.loads((saves / "good.json").read_text(encoding="utf-8"))
    raw["label"] = "\ud800 broken"
    raw["snapshot"]["party"] = [{"name": "Ada\udcff"}]
    (saves / "odd.json").write_text(json.dumps(raw), encoding="utf-8")  # JSON keeps them as \\ud800 escapes
    shown = {}
    for args in (["saves", "--saves", "saves"], ["saves", "--saves", "saves", "--json"]):
        done = _solo(tmp_path, *args)
        assert done.returncode == 0, done.stderr.decode()
        out = shown[args[-1]] = done.stdout.decode("utf-8")  # valid UTF-8 throughout
        assert "odd" in out and "good" in out
    assert "\ufffd broken" in shown["saves"]  # the listing's text (not run a third time: it reads the same folder)


@pytest.mark.parametrize("args", [["play", "--load", "/"], ["play", "--load", "."], ["journal", "/"]])
def test_loading_a_folder_is_a_clear_message(tmp_path, monkeypatch, args):
    result = invoke(monkeypatch, tmp_path, *args)
    assert "that is a folder" in assert_one_line_error(result, args[-1])


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("folder", ["/proc/x", "/proc/self/x", "/dev/null/x"])
def test_simulate_errors_folder_that_cannot_be_written_is_refused_before_the_runs(tmp_path, monkeypatch, folder):
    import solo.sim.simulate

    def never(*args, **kwargs):
        raise AssertionError("the runs started")

    monkeypatch.setattr(solo.sim.simulate, "simulate", never)
    result = invoke(monkeypatch, tmp_path, "simulate", str(EXAMPLE), "--runs", "3", "--errors", folder)
    assert "cannot make the folder" in assert_one_line_error(result, "--errors", folder)


def test_every_problem_of_a_conflicts_file_is_reported_each_on_its_line(tmp_path, monkeypatch):
    source = Path(__file__).resolve().parents[2] / "scenes" / "vellan"
    folder = tmp_path / "vellan"
    import shutil

    shutil.copytree(source, folder)
    with (folder / "tables" / "conflicts.toml").open("a", encoding="utf-8") as f:
        f.write('\n[conflict_typos.x]\nskill = "Social"\n\n[conflict_types.bad]\nskill = "Socal"\npools = ["POW"]\n'
                '\n[conflict_types.worse]\nskill = "Social"\npools = ["POW"]\nflight = "no"\n')
    text = (folder / "tables" / "conflicts.toml").read_text(encoding="utf-8").splitlines()
    checked = invoke(monkeypatch, tmp_path, "check", "vellan")
    assert checked.code == 1
    errors = [line for line in checked.out.splitlines() if "error[" in line]
    assert len(errors) == 3, checked.out
    for error, (what, line_holds) in zip(errors, [("[conflict_typos] (did you mean 'conflict_types'?)",
                                                   "[conflict_typos.x]"),
                                                  ("unknown skill 'Socal'", 'skill = "Socal"'),
                                                  ("expected true or false", 'flight = "no"')]):
        assert what in error, error
        number = int(error.split("conflicts.toml:")[1].split(":")[0])
        assert text[number - 1] == line_holds
    played = invoke(monkeypatch, tmp_path, "play", "vellan", "--saves", "saves")
    said = assert_one_line_error(played, "conflicts.toml", "(2 more errors; every problem: solo check")
    assert "conflict_typos" in said
    assert_no_crash(played)


def test_a_saves_folder_the_system_refuses_is_one_line(tmp_path, monkeypatch):
    # in this process: the message and the status are solo's own, no stream of the terminal is involved
    result = invoke(monkeypatch, tmp_path, "play", "tutorial", "--saves", "/proc/nowhere", "--script",
                    str(TUTORIAL_SCRIPT))
    assert_one_line_error(result, "/proc/nowhere")
