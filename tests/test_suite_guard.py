"""The suite's guard against tests that write into the repository, tried on a repository of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")


@pytest.fixture
def project(pytester, tmp_path_factory):
    """A pytest project whose conftest carries the real guard; runs it with its temporary folders outside."""
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\n")
    pytester.makeconftest(f"""
        import importlib.util

        spec = importlib.util.spec_from_file_location("solo_tests_conftest", {str(CONFTEST)!r})
        guard = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(guard)
        pytest_sessionstart = guard.pytest_sessionstart
        pytest_sessionfinish = guard.pytest_sessionfinish
    """)
    basetemp = tmp_path_factory.mktemp("inner")

    def run(test_source: str):
        pytester.makepyfile(test_things=test_source)
        return pytester.runpytest("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
                                  f"--basetemp={basetemp}")

    return run


def test_a_file_left_in_the_repository_fails_the_run(project):
    result = project("""
        from pathlib import Path

        def test_writes_where_it_runs():
            Path("characters").mkdir()
            Path("characters/espen_lind.toml").write_text("name = 'Espen'")
    """)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*tests left 1 new file(s) in*", "  characters/espen_lind.toml"])


def test_files_in_temporary_folders_pass(project):
    result = project("""
        from pathlib import Path

        def test_writes_in_tmp_path(tmp_path):
            (tmp_path / "game.json").write_text("{}")

        def test_writes_after_chdir(tmp_path, monkeypatch):
            monkeypatch.chdir(tmp_path)
            Path("characters").mkdir()
            Path("characters/espen_lind.toml").write_text("name = 'Espen'")
    """)
    assert result.ret == pytest.ExitCode.OK
    result.assert_outcomes(passed=2)
    assert "new file" not in result.stdout.str()
