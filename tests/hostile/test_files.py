"""Hostile files, odd terminals and full disks: every one ends in one clear line, and nothing escapes its folder.

Each test runs the real command line (in this process with click's runner, or as a child
process where the terminal itself is the point: a closed standard input, a FIFO that would
block) with the working directory inside the test's temporary folder, and checks the exit
status, that the message is one line naming the file, that no internal error or traceback
shows, and that no file was written outside the folders the command was given.
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from solo.characters import free_character_path, save_character
from solo.cli import cli
from solo.errors import SoloError
from solo.rules.creation import pregenerated
from solo.saves import SaveData, read_save, write_save
from solo.story.format.loader import load_adventure
from solo.ui.journal import TRANSCRIPT_HEAD, Journal

HERE = Path(__file__).parent
DATA = HERE / "data" / "files"
TUTORIAL_SCRIPT = HERE.parent / "data" / "scripts" / "tutorial_seed5.txt"  # plays the tutorial to its end, seed 5
EXAMPLE = HERE.parent / "data" / "example_adventure.toml"
TOO_LONG = "x" * 300  # longer than any file system takes for one name (255 bytes)


# -- running solo ------------------------------------------------------------------------------
def invoke(monkeypatch, cwd: Path, *args: str, env: dict[str, str] | None = None) -> SimpleNamespace:
    """``solo ARGS`` in this process, in ``cwd``, without the user's folders from the environment."""
    cwd.mkdir(parents=True, exist_ok=True)
    monkeypatch.chdir(cwd)
    for name in ("SOLO_HOME", "SOLO_SAVES", "SOLO_TABLES", "SOLO_SCENES", "SOLO_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(cli, list(args), env=env)
    return SimpleNamespace(code=result.exit_code, out=result.stdout, err=result.stderr)


def run(cwd: Path, *args: str, env: dict[str, str] | None = None, shell_tail: str = "", timeout: float = 60,
        memory: int | None = None) -> SimpleNamespace:
    """``solo ARGS`` as a child process in ``cwd``; ``shell_tail`` adds redirections such as ``<&-``."""
    cwd.mkdir(parents=True, exist_ok=True)
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SOLO_")}
    environ.update(env or {})
    command = ["sh", "-c", f'exec "$0" -m solo "$@" {shell_tail}', sys.executable, *args]

    def limit() -> None:
        if memory:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    done = subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL if not shell_tail else None, preexec_fn=limit)
    return SimpleNamespace(code=done.returncode, out=done.stdout, err=done.stderr)


def assert_one_line_error(result: SimpleNamespace, *names: str, status: int = 2) -> str:
    """The exit status, one line on stderr naming ``names``, and no internal error anywhere."""
    assert result.code == status, (result.code, result.out, result.err)
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, result.err
    for name in names:
        assert name in lines[0], (name, lines[0])
    assert_no_crash(result)
    return lines[0]


def assert_no_crash(result: SimpleNamespace) -> None:
    both = result.out + result.err
    assert "internal error" not in both and "Traceback" not in both, both


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def assert_only_in(root: Path, before: set[str], *folders: str) -> None:
    """Every file new under ``root`` since ``before`` is inside one of ``folders`` (relative to root)."""
    new = files_under(root) - before
    stray = [f for f in new if not any(f.startswith(folder.rstrip("/") + "/") for folder in folders)]
    assert not stray, stray


def a_save(label: str = "The Night Ferry: The quay", party: list | None = None) -> SaveData:
    return SaveData(adventure_id="tutorial", adventure_source="nowhere.toml", adventure_hash="0", seed=7,
                    log=[["a", "choice", "1"], ["a", "choice", "2"]],
                    snapshot={"party": party if party is not None else [{"name": "Ada"}], "ending": None},
                    label=label)


# -- 1. an adventure's id never chooses where files are written ------------------------------------
@pytest.mark.parametrize("bad_id", ["../../escaped_save", "ABSOLUTE/escaped_save", "deeper/escaped_save",
                                    ".escaped_save"])
def test_1_an_adventure_id_that_is_a_path_is_refused_and_writes_nothing(tmp_path, monkeypatch, bad_id):
    work = tmp_path / "a" / "b" / "work"
    work.mkdir(parents=True)
    bad_id = bad_id.replace("ABSOLUTE", str(tmp_path / "abs"))
    text = (DATA / "escaping_id.toml").read_text(encoding="utf-8").replace("../../escaped_save", bad_id)
    (work / "escape.toml").write_text(text, encoding="utf-8")
    (work / "answers.txt").write_text("1\n1\n", encoding="utf-8")
    before = files_under(tmp_path)

    checked = invoke(monkeypatch, work, "check", "escape.toml")
    assert checked.code == 1 and "escape.toml:3" in checked.out and "E011" in checked.out, checked.out
    assert_no_crash(checked)

    played = invoke(monkeypatch, work, "play", "escape.toml", "--seed", "3", "--script", "answers.txt",
                    "--saves", "saves")
    assert "escape.toml:3" in assert_one_line_error(played, "E011")

    simulated = invoke(monkeypatch, work, "simulate", "escape.toml", "--runs", "3", "--errors-dir", "errors")
    assert "escape.toml:3" in assert_one_line_error(simulated, "E011")

    assert files_under(tmp_path) == before
    assert not list(tmp_path.rglob("escaped_save*"))


@pytest.mark.parametrize("bad_id, code, says", [
    ("open", "E011", "kept for open play"),
    ("\U0001f980" * 30, "E011", "longer than 100 bytes"),  # 30 characters, 120 bytes: the file system counts bytes
    ("two words", "E011", "a space or an invisible character"),
    # a direction override is refused in any text, as a control character, before the id is read as a name
    ("evil\u202eeliF", "E002", "direction override"),
], ids=["open", "bytes", "space", "bidi"])
def test_1_an_id_that_would_make_a_bad_save_name_is_refused(tmp_path, monkeypatch, bad_id, code, says):
    text = (DATA / "escaping_id.toml").read_text(encoding="utf-8").replace("../../escaped_save", bad_id)
    (tmp_path / "odd.toml").write_text(text, encoding="utf-8")
    checked = invoke(monkeypatch, tmp_path, "check", "odd.toml")
    assert checked.code == 1 and "odd.toml:3" in checked.out and code in checked.out and says in checked.out
    assert_no_crash(checked)


def test_1_replay_files_and_character_files_stay_in_their_folder(tmp_path):
    """Even an id that slipped past the loader cannot lead simulate's replay files out of --errors-dir."""
    from solo.sim.report import _error_entry

    adventure = load_adventure(EXAMPLE)
    adventure.id = "../../escaped"
    errors = tmp_path / "a" / "b" / "errors"
    party = SimpleNamespace(pc_specs=None, members=[pregenerated("espen")])
    entry = {"run": 0, "seed": 1, "error": "RuntimeError", "message": "boom\nsecond line", "where": "",
             "answers": [("choice", "1")]}
    out = _error_entry(entry, adventure, SimpleNamespace(policy="random", adventure=str(EXAMPLE)), party, errors)
    assert out["replay"].startswith("(could not write the replay files")
    assert not list(tmp_path.rglob("*escaped*"))

    folder = tmp_path / "characters"
    for name in ("../../escaped", "/etc/escaped", "..", TOO_LONG):
        path = free_character_path(folder, name)
        assert path.parent == folder and len(path.name) < 100
        save_character(pregenerated("espen"), path)
    assert {p.parent for p in tmp_path.rglob("*.toml")} == {folder}


# -- 3. "your game is saved" only when it is -------------------------------------------------------
def fail_after(monkeypatch, name: str, calls: int, code: int) -> None:
    """``os.NAME`` works ``calls`` times, then fails with ``code`` (flushing to a full disk, renaming in a
    folder made read-only; a monkeypatch rather than chmod, which does not stop root)."""
    real = getattr(os, name)
    seen = []

    def failing(*args, **kw):
        seen.append(args)
        if len(seen) > calls:
            raise OSError(code, os.strerror(code))
        return real(*args, **kw)

    monkeypatch.setattr(os, name, failing)


@pytest.mark.parametrize("failure", [("fsync", errno.ENOSPC), ("replace", errno.EACCES)],
                         ids=["disk-full", "folder-made-read-only"])
def test_3_a_save_that_fails_mid_game_is_reported_exactly(tmp_path, monkeypatch, failure):
    """The disk fills (or the folder turns read-only) after a save or two: solo says so, and what the file holds."""
    fail_after(monkeypatch, failure[0], 2, failure[1])
    result = invoke(monkeypatch, tmp_path, "play", "tutorial", "--seed", "5", "--script", str(TUTORIAL_SCRIPT),
                    "--saves", "saves")
    assert result.code == 2, result.out
    assert_no_crash(result)
    screen = result.out + result.err
    assert "game is saved" not in screen and "and saved at" not in screen
    assert os.strerror(failure[1]) in screen and "NOT saved" in screen
    said = [int(n) for n in re.findall(r"holds the last save that worked, after (\d+) decision", screen)]
    on_disk = sum(1 for e in read_save(tmp_path / "saves" / "tutorial.json").log if e[0] == "a")
    assert said and set(said) == {on_disk}
    assert not [p for p in (tmp_path / "saves").iterdir() if p.name.endswith(".tmp")]


def test_3_an_internal_error_on_a_full_disk_claims_nothing_it_did_not_write(tmp_path, monkeypatch):
    from solo.ui.session import Session

    def broken_recap(self):
        raise RuntimeError("a bug in recap")

    monkeypatch.setattr(Session, "_recap", broken_recap)
    fail_after(monkeypatch, "fsync", 1, errno.ENOSPC)  # the new game's slot is made; no later save reaches the disk
    fail_after(monkeypatch, "replace", 0, errno.ENOSPC)  # nor any other file
    (tmp_path / "answers.txt").write_text("1\nrecap\n", encoding="utf-8")
    result = invoke(monkeypatch, tmp_path, "play", "tutorial", "--seed", "5", "--script", "answers.txt",
                    "--saves", "saves")
    screen = result.out + result.err
    assert result.code == 1
    assert "saved at" not in screen and "details are in" not in screen
    assert "NOT saved" in screen and "could not be written" in screen
    assert "after 0 decisions" in screen
    assert read_save(tmp_path / "saves" / "tutorial.json").log == []  # the slot as the game began, as said
    assert not (tmp_path / "saves" / "tutorial.error.txt").exists()


def test_3_a_full_disk_before_the_game_stops_it_before_the_first_question(tmp_path, monkeypatch):
    fail_after(monkeypatch, "fsync", 0, errno.ENOSPC)  # not even the new game's save can be made
    result = invoke(monkeypatch, tmp_path, "play", "tutorial", "--seed", "5", "--script", str(TUTORIAL_SCRIPT),
                    "--saves", "saves")
    assert os.strerror(errno.ENOSPC) in assert_one_line_error(result, "saves/tutorial.json")
    assert "Seed" not in result.out
    assert not [p for p in (tmp_path / "saves").iterdir() if p.name != ".slots.lock"]


def test_3_a_save_name_the_file_system_cannot_hold_is_refused_before_the_game(tmp_path, monkeypatch):
    before = files_under(tmp_path)
    result = invoke(monkeypatch, tmp_path, "play", "tutorial", "--script", str(TUTORIAL_SCRIPT), "--saves", "saves",
                    "--save", TOO_LONG)
    assert "too long" in assert_one_line_error(result, "--save", "x" * 20)
    assert "Seed" not in result.out
    assert files_under(tmp_path) == before


# -- 7. solo saves: a bad entry is listed as damaged, the others still show --------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_7_saves_lists_the_good_and_names_each_bad_one(tmp_path):
    saves = tmp_path / "saves"
    write_save(saves / "good.json", a_save())
    (saves / "number.json").write_bytes((DATA / "number_name.json").read_bytes())
    (saves / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    os.mkfifo(saves / "game.json")  # opening it to read would wait for a writer for ever
    (saves / "zero.json").symlink_to("/dev/zero")  # reading it would never end
    (saves / "folder.json").mkdir()

    for args in (("saves", "--saves", "saves"), ("saves", "--saves", "saves", "--json")):
        result = run(tmp_path, *args, timeout=60)
        assert result.code == 0, result.err
        assert_no_crash(result)
        assert result.err == ""
        if "--json" in args:
            rows = {Path(r["file"]).name: r for r in json.loads(result.out)}
            assert rows["good.json"]["ok"] and rows["good.json"]["party"] == ["Ada"]
            bad = {name for name, r in rows.items() if not r["ok"]}
        else:
            lines = result.out.splitlines()
            assert len(lines) == 7  # the good one's row and, under it, the command that resumes it
            good = next(i for i, line in enumerate(lines) if line.startswith("good ") and "Ada" in line)
            assert lines[good + 1].startswith("  solo play --load ")
            bad = {Path(line.split(":")[0]).name for line in lines if "cannot be read" in line}
        assert bad == {"number.json", "deep.json", "game.json", "zero.json", "folder.json"}


@pytest.mark.parametrize("source", [{}, 10 ** 40, "no/such/place.toml"], ids=["table", "number", "missing"])
def test_7_a_save_whose_adventure_is_gone_names_the_save(tmp_path, monkeypatch, source):
    saves = tmp_path / "saves"
    data = a_save().to_dict()
    data["adventure"].update(id="skarv", source=source)
    saves.mkdir()
    (saves / "game.json").write_text(json.dumps(data), encoding="utf-8")
    result = invoke(monkeypatch, tmp_path, "play", "--saves", "saves", "--load", "game")
    line = assert_one_line_error(result, "game.json")
    assert "skarv" in line


# -- 8. operating-system edges ----------------------------------------------------------------------
@pytest.mark.parametrize("args", [("play", "tutorial", "--saves", "saves"), ("new",)], ids=["play", "new"])
def test_8_closed_standard_input_is_one_line(tmp_path, args):
    result = run(tmp_path, *args, shell_tail="<&-")
    assert "standard input is closed" in assert_one_line_error(result)
    assert files_under(tmp_path) == set()


def test_8_a_script_that_is_not_utf8_names_its_line(tmp_path, monkeypatch):
    result = invoke(monkeypatch, tmp_path, "play", "tutorial", "--saves", "saves", "--script",
                    str(DATA / "not_utf8.txt"))
    assert_one_line_error(result, "not_utf8.txt:3", "UTF-8")
    assert not (tmp_path / "saves").exists()


def test_8_a_script_without_end_is_refused(tmp_path):
    result = run(tmp_path, "play", "tutorial", "--saves", "saves", "--script", "/dev/zero", memory=2_000_000_000)
    assert_one_line_error(result, "/dev/zero", "larger than")
    assert not (tmp_path / "saves").exists()


@pytest.mark.parametrize("case", ["--load", "--saves", "SOLO_SAVES play", "SOLO_SAVES saves", "saves --saves",
                                  "--transcript", "--errors-dir"])
def test_8_names_longer_than_the_system_allows(tmp_path, monkeypatch, case):
    options = {
        "--load": (["play", "--load", TOO_LONG], None, "--load"),
        "--saves": (["play", "tutorial", "--saves", TOO_LONG, "--script", str(TUTORIAL_SCRIPT)], None, "--saves"),
        "SOLO_SAVES play": (["play", "tutorial", "--script", str(TUTORIAL_SCRIPT)], {"SOLO_SAVES": TOO_LONG},
                            "SOLO_SAVES"),
        "SOLO_SAVES saves": (["saves"], {"SOLO_SAVES": TOO_LONG}, "SOLO_SAVES"),
        "saves --saves": (["saves", "--saves", f"{TOO_LONG}/deeper"], None, "--saves"),
        "--transcript": (["play", "tutorial", "--saves", "saves", "--transcript", f"{TOO_LONG}.md",
                          "--script", str(TUTORIAL_SCRIPT)], None, "--transcript"),
        "--errors-dir": (["simulate", "tutorial", "--runs", "1", "--errors-dir", TOO_LONG], None, "--errors"),
    }
    args, env, option = options[case]
    result = invoke(monkeypatch, tmp_path, *args, env=env)
    assert "too long" in assert_one_line_error(result, option)
    assert files_under(tmp_path) == set()


def test_8_a_character_name_at_the_limit_gets_a_short_file_name_and_a_longer_one_is_refused(tmp_path, monkeypatch):
    from solo.rules.character import MAX_NAME

    result = invoke(monkeypatch, tmp_path, "new", "--random", "--seed", "1", "--name", "x" * MAX_NAME)
    assert result.code == 0, result.err
    assert_no_crash(result)
    made = list((tmp_path / "characters").iterdir())
    assert len(made) == 1 and len(made[0].name) < 100 and made[0].read_text(encoding="utf-8").count("x") >= MAX_NAME
    result = invoke(monkeypatch, tmp_path, "new", "--random", "--seed", "1", "--name", TOO_LONG)
    assert f"at most {MAX_NAME} characters" in assert_one_line_error(result, "name")
    assert len(list((tmp_path / "characters").iterdir())) == 1


def test_8_an_unwritable_out_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "a_file").write_text("not a folder", encoding="utf-8")
    result = invoke(monkeypatch, tmp_path, "new", "--random", "--out", "a_file/hero.toml")
    assert "not a folder" in assert_one_line_error(result, "a_file")

    def refused(path, data, **kw):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("solo.paths.write_atomic", refused)
    result = invoke(monkeypatch, tmp_path, "new", "--random", "--out", "hero.toml")
    assert "not saved" in assert_one_line_error(result, "hero.toml", "Permission denied")
    result = invoke(monkeypatch, tmp_path, "new", "--random", "--json", "--out", "hero.toml")
    assert_one_line_error(result, "hero.toml", "Permission denied")
    assert files_under(tmp_path) == {"a_file"}


# -- 10. temporary files are created exclusively, under names nobody can guess ---------------------------
def test_10_planted_links_are_never_written_through(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    saves = tmp_path / "saves"
    saves.mkdir()
    # the names the writers used to take for their temporary files and the backup
    for planted in (".base.json.tmp", "base.json.bak", ".espen.toml.tmp", ".game.md.tmp"):
        (saves / planted).symlink_to(victim)

    write_save(saves / "base.json", a_save("first"))
    write_save(saves / "base.json", a_save("second"))
    save_character(pregenerated("espen"), saves / "espen.toml")
    journal = Journal()
    journal.lines = ["# A journal"]
    journal.write(saves / "game.md")

    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert read_save(saves / "base.json").label == "second"
    assert json.loads((saves / "base.json.bak").read_text(encoding="utf-8"))["label"] == "first"
    assert not (saves / "base.json.bak").is_symlink()
    assert (saves / "game.md").read_text(encoding="utf-8") == TRANSCRIPT_HEAD + "# A journal\n"
    assert "Espen" in (saves / "espen.toml").read_text(encoding="utf-8")
    left = {p.name for p in saves.iterdir()} - {"base.json", "base.json.bak", "espen.toml", "game.md"}
    assert left == {".base.json.tmp", ".espen.toml.tmp", ".game.md.tmp"}  # the planted links, untouched


def test_10_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch):
    saves = tmp_path / "saves"
    write_save(saves / "base.json", a_save("first"))

    def no_room(fd, *args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_room)
    with pytest.raises(SoloError, match="No space left on device"):
        write_save(saves / "base.json", a_save("second"))
    assert read_save(saves / "base.json").label == "first"
    assert not [p for p in saves.iterdir() if p.name.endswith(".tmp")]


# -- 11. a game writes only into the folders it was given -----------------------------------------------
@pytest.mark.parametrize("how", ["--saves", "SOLO_SAVES"])
def test_11_a_scripted_game_writes_only_its_saves_into_the_folder_it_was_given(tmp_path, monkeypatch, how):
    work = tmp_path / "work"
    given = tmp_path / "given"
    args = ["play", "tutorial", "--seed", "5", "--script", str(TUTORIAL_SCRIPT)]
    env = None
    if how == "--saves":
        args += ["--saves", str(given)]
    else:
        env = {"SOLO_SAVES": str(given)}
    result = invoke(monkeypatch, work, *args, env=env)
    assert result.code == 0, result.out + result.err
    assert_no_crash(result)
    assert not work.exists() or files_under(work) == set()
    assert not (given / "characters").exists()
    assert_only_in(tmp_path, set(), "given")


# -- found in review: typed bytes, endless lines, damaged saves ------------------------------------
def test_bytes_that_are_not_utf8_at_a_prompt_are_kept_as_replacement_characters(tmp_path):
    (tmp_path / "input.bin").write_bytes(b"note caf\xff\n1\nquit\n")
    result = run(tmp_path, "play", "tutorial", "--pc", "espen", "--seed", "5", "--saves", "saves",
                 shell_tail="< input.bin")
    assert result.code == 0, result.out + result.err
    assert_no_crash(result)
    notes = [e for e in read_save(tmp_path / "saves" / "tutorial.json").log if e[:2] == ["m", "note"]]
    assert notes == [["m", "note", "caf\ufffd"]]


def test_an_endless_line_on_standard_input_ends_the_input_without_eating_memory(tmp_path):
    result = run(tmp_path, "play", "tutorial", "--pc", "espen", "--saves", "saves", shell_tail="< /dev/zero",
                 memory=1_500_000_000, timeout=120)
    assert result.code == 0, result.out + result.err
    assert_no_crash(result)
    assert "Input ended" in result.out


def _tutorial_save(tmp_path: Path, monkeypatch, answers: list[str]) -> Path:
    (tmp_path / "answers.txt").write_text("\n".join(answers) + "\nquit\n", encoding="utf-8")
    done = invoke(monkeypatch, tmp_path, "play", "tutorial", "--pc", "espen", "--seed", "5", "--script",
                  "answers.txt", "--saves", "saves")
    assert done.code == 0, done.out + done.err
    return tmp_path / "saves" / "tutorial.json"


@pytest.mark.parametrize("entry", [["m", "luck", "find", "Espen Lind"], ["m", "luck", "find", "Nobody", "rope"],
                                   ["m", "luck", "bogus", "Espen Lind", "x"], ["m", "oracle", "Is it?", "bogus"],
                                   ["m", "teleport", "x"], ["m", "undo", "abc"]],
                         ids=["short", "nobody", "bogus-use", "bogus-odds", "unknown", "undo-words"])
def test_a_damaged_command_in_a_save_names_the_save_and_leaves_it_whole(tmp_path, monkeypatch, entry):
    """… says why in words (a bad-input audit: "cannot be replayed ()" of a Luck Point spent by nobody, Python's
    "invalid literal for int()" of an undo) and offers the backup, one save back, which may still replay."""
    path = _tutorial_save(tmp_path, monkeypatch, ["1", "note one", "1", "1"])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["log"].insert(2, entry)
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    result = invoke(monkeypatch, tmp_path, "play", "--saves", "saves", "--load", "tutorial")
    assert result.code == 2, result.out + result.err
    assert_no_crash(result)
    said = " ".join((result.out + result.err).split())
    assert "tutorial.json" in said and "cannot be replayed" in said
    assert "()" not in said and "invalid literal" not in said and "StopIteration" not in said, said
    assert ". A backup exists: load it with --load saves/tutorial.json.bak" in said, said
    assert path.read_bytes() == before  # the replay stopped early: the file was not cut short


def test_a_crash_while_a_save_is_replayed_does_not_cut_the_save_short(tmp_path, monkeypatch):
    from solo.ui.session import Session

    path = _tutorial_save(tmp_path, monkeypatch, ["1", "note one", "1", "1", "note two"])
    before = path.read_bytes()

    def broken(self, entry):
        raise RuntimeError("a bug met while replaying")

    monkeypatch.setattr(Session, "_replay_one_meta", broken)
    result = invoke(monkeypatch, tmp_path, "play", "--saves", "saves", "--load", "tutorial")
    assert result.code == 1 and "internal error" in result.out
    assert path.read_bytes() == before


def test_a_damaged_party_in_a_save_names_the_save(tmp_path, monkeypatch):
    path = _tutorial_save(tmp_path, monkeypatch, ["1"])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["party"] = [{}]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = invoke(monkeypatch, tmp_path, "play", "--saves", "saves", "--load", "tutorial")
    assert_one_line_error(result, "tutorial.json", "damaged save")


def test_a_byte_order_mark_is_no_part_of_an_adventure_or_a_save(tmp_path, monkeypatch):
    """An editor on Windows may open a file with U+FEFF: it was 'E001: Invalid statement' at 1:1 (a review)."""
    (tmp_path / "bom.toml").write_text("\ufeff" + EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    checked = invoke(monkeypatch, tmp_path, "check", "bom.toml")
    assert checked.code == 0, checked.out + checked.err
    played = invoke(monkeypatch, tmp_path, "play", "bom.toml", "--saves", "saves", "--seed", "3")
    assert played.code == 0, played.err
    save = tmp_path / "saves" / "skarv.json"
    save.write_text("\ufeff" + save.read_text(encoding="utf-8"), encoding="utf-8")
    assert read_save(save).seed == 3


def test_a_save_name_given_with_its_suffix_names_that_slot(tmp_path, monkeypatch):
    played = invoke(monkeypatch, tmp_path, "play", str(EXAMPLE), "--saves", "saves", "--seed", "3", "--save",
                    "mine.json")
    assert played.code == 0, played.err
    assert sorted(p.name for p in (tmp_path / "saves").glob("mine*")) == ["mine.json", "mine.json.bak", "mine.md"]


@pytest.mark.parametrize("command", [["new", "--random", "--seed", "1"], ["npc", "--seed", "1"]])
def test_an_empty_out_is_said_to_be_the_folder_one_is_in(tmp_path, monkeypatch, command):
    """A hostile review: `--out ""` was told ". exists and is not a regular file", naming neither the slip nor a fix."""
    result = invoke(monkeypatch, tmp_path, *command, "--out", "")
    assert result.code == 2
    assert "--out: an empty name is the folder you are in: give a file's name" in result.err
    assert list(tmp_path.iterdir()) == []
