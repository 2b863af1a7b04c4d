"""Issue 34, concurrent writers: two solo processes never lose each other's work (docs/saves.md).

Three games started at once in one saves folder keep three saves; ten ``solo session --thread``
at once keep ten threads; a save being played cannot be played by a second process; two games
that end at once with the same roster character both count; a new character never takes the
file of another of the same name. The processes are real ones, started together.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from test_files import EXAMPLE, assert_no_crash, assert_one_line_error, invoke

from solo.characters import played_scenarios, save_character, save_new_character, update_character
from solo.file_lock import LockBusy, acquire, lock_path, try_lock
from solo.rules.creation import pregenerated
from solo.saves import read_save

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="starts processes the POSIX way")


def _start(cwd: Path, *args: str, stdin: str = "") -> subprocess.Popen:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SOLO_")}
    process = subprocess.Popen([sys.executable, "-m", "solo", *args], cwd=cwd, env=environ, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    process.stdin = None  # written whole: communicate() only reads
    return process


def _finish(process: subprocess.Popen) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


def test_three_new_games_and_ten_session_writers_at_once_lose_nothing(tmp_path, monkeypatch):
    (tmp_path / "adv.toml").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    games = [_start(tmp_path, "play", "adv.toml", "--saves", "saves", "--seed", str(seed), stdin="1\nquit\n")
             for seed in (11, 12, 13)]
    writers = [_start(tmp_path, "session", "s1", "--saves", "saves", "--thread", f"thread {i}") for i in range(10)]
    for process in games + writers:
        code, out, err = _finish(process)
        assert code == 0, (out, err)
        assert "internal error" not in out + err
    saves = sorted((tmp_path / "saves").glob("*.json"))
    assert [p.name for p in saves] == ["skarv-2.json", "skarv-3.json", "skarv.json"]
    assert sorted(read_save(p).seed for p in saves) == [11, 12, 13]  # three games, none written over
    listed = invoke_session(monkeypatch, tmp_path)
    assert sorted(listed) == sorted(f"thread {i}" for i in range(10))
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith((".lock", ".tmp"))]  # locks let go, cleared


def invoke_session(monkeypatch, cwd: Path) -> list[str]:
    """The session's threads as ``solo session --json`` lists them, once the writers are done: read in this
    process (what the processes wrote is the point, not a process reading it)."""
    import json

    listed = invoke(monkeypatch, cwd, "session", "s1", "--saves", "saves", "--json")
    assert listed.code == 0, listed.err
    return json.loads(listed.out)["threads"]


def test_a_save_being_played_cannot_be_loaded_by_a_second_solo(tmp_path, monkeypatch):
    played = invoke(monkeypatch, tmp_path, "play", str(EXAMPLE), "--saves", "saves", "--seed", "3")
    assert played.code == 0, played.err
    save = tmp_path / "saves" / "skarv.json"
    held = try_lock(save)  # as the first game holds it while it is played
    assert held is not None
    try:
        result = invoke(monkeypatch, tmp_path, "play", "--load", "saves/skarv.json")
        assert "being played in another solo" in assert_one_line_error(result, "skarv.json")
    finally:
        held.release()
    again = invoke(monkeypatch, tmp_path, "play", "--load", "saves/skarv.json")
    assert again.code == 0, again.err
    assert_no_crash(again)


def test_a_lock_held_too_long_is_a_clear_message_not_a_hang(tmp_path):
    target = tmp_path / "s1.toml"
    with acquire(target):
        with pytest.raises(LockBusy, match="another solo process.*waited 0.1 s"):
            acquire(target, wait=0.1)
    assert not lock_path(target).exists()


def test_two_games_ending_at_once_with_one_roster_character_both_count(tmp_path):
    roster = tmp_path / "characters"
    path = roster / "espen_lind.toml"
    save_character(pregenerated("espen"), path, scenarios=0)
    threads = [threading.Thread(target=update_character, args=(pregenerated("espen"), path)) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert played_scenarios(path) == 10  # every read-modify-write saw the one before it


def test_new_characters_of_one_name_written_at_once_each_get_their_own_file(tmp_path):
    roster = tmp_path / "characters"
    made: list[Path] = []
    threads = [threading.Thread(target=lambda: made.append(save_new_character(pregenerated("espen"), roster)))
               for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(made)) == 10 and sorted(p.name for p in roster.iterdir()) == sorted(p.name for p in made)


def test_exclusive_creation_holds_where_the_file_system_has_no_hard_links(tmp_path, monkeypatch):
    import errno

    from solo.paths import write_atomic

    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)  # FAT, some network shares: O_EXCL instead
    target = tmp_path / "slot.json"
    write_atomic(target, "first", exclusive=True)
    with pytest.raises(FileExistsError):
        write_atomic(target, "second", exclusive=True)
    assert target.read_text() == "first" and sorted(p.name for p in tmp_path.iterdir()) == ["slot.json"]


@pytest.mark.parametrize("signal_name", ["SIGHUP", "SIGTERM"])
def test_a_game_stopped_by_a_closed_terminal_or_a_kill_keeps_its_answers_and_gives_back_its_lock(tmp_path,
                                                                                               signal_name):
    """As Ctrl-C does. A hostile review closed the terminal after five answers: the save held none of them and
    the lock file stayed behind."""
    import signal
    import threading
    import time

    environ = {k: v for k, v in os.environ.items() if not k.startswith("SOLO_")}
    process = subprocess.Popen([sys.executable, "-m", "solo", "play", str(EXAMPLE), "--saves", "saves", "--seed", "3"],
                               cwd=tmp_path, env=environ, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(process.stdout.readline, "")), daemon=True)
    reader.start()
    process.stdin.write("1\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while "A random character" not in "".join(seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "A random character" in "".join(seen)  # the answer is taken and the next question waits
    process.send_signal(getattr(signal, signal_name))
    process.wait(timeout=60)
    reader.join(timeout=10)
    assert process.returncode == 130, (process.returncode, "".join(seen), process.stderr.read())
    save = tmp_path / "saves" / "skarv.json"
    assert read_save(save).log == [["a", "party_size", "1"]]
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith((".lock", ".tmp"))]


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="a pseudo-terminal of Linux's kind")
@pytest.mark.parametrize("hang_ups", [1, 2])
def test_a_game_whose_terminal_window_closes_keeps_its_answers(tmp_path, hang_ups):
    """A new player closed the tmux pane mid-scene: the save held the answers of the save before. A window that
    closes ends the input (EOF) and hangs up at once (and its shell passes on a hang-up of its own), and the
    hang-up's KeyboardInterrupt cut short the save the end of the input had begun. Played in a real
    pseudo-terminal, which is then closed."""
    import pty
    import select
    import signal
    import time

    environ = {k: v for k, v in os.environ.items() if not k.startswith("SOLO_")}
    pid, fd = pty.fork()
    if pid == 0:  # the child: solo in the terminal, its errors to a file
        err = os.open(str(tmp_path / "err.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(err, 2)
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "solo", "play", str(EXAMPLE), "--saves", "saves",
                                   "--seed", "3"], environ)
    screen = b""

    def shown(words: bytes) -> bool:
        nonlocal screen
        deadline = time.monotonic() + 60
        while words not in screen and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    screen += os.read(fd, 65536)
                except OSError:
                    break
        return words in screen

    try:
        assert shown(b"1.")
        os.write(fd, b"1\r")
        assert shown(b"A random character")  # the answer is taken and the next question waits
        time.sleep(0.3)
        for _ in range(hang_ups - 1):
            os.kill(pid, signal.SIGHUP)  # the shell's own hang-up, passed on
    finally:
        os.close(fd)  # the window is gone: the terminal hangs up
        _, status = os.waitpid(pid, 0)
    save = tmp_path / "saves" / "skarv.json"
    assert read_save(save).log == [["a", "party_size", "1"]], (tmp_path / "err.txt").read_text()
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith((".lock", ".tmp"))]
    assert "the game is saved" in (tmp_path / "err.txt").read_text() or os.WEXITSTATUS(status) in (0, 130)
