"""The suite's guard against tests that write into the repository, tried on a repository of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")


def borrowing(*hooks: str) -> str:
    """A conftest for a project of its own that takes ``hooks`` from the suite's real conftest."""
    lines = ["import importlib.util", "",
             f"spec = importlib.util.spec_from_file_location('solo_tests_conftest', {str(CONFTEST)!r})",
             "real = importlib.util.module_from_spec(spec)", "spec.loader.exec_module(real)"]
    return "\n".join([*lines, *(f"{hook} = real.{hook}" for hook in hooks)]) + "\n"


@pytest.fixture
def project(pytester, tmp_path_factory):
    """A pytest project whose conftest carries the real guard; runs it with its temporary folders outside."""
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\n")
    pytester.makeconftest(borrowing("pytest_sessionstart", "pytest_sessionfinish"))
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


@pytest.mark.parametrize("worker", ["gw0", "gw1"])
def test_every_other_worker_imports_the_test_modules_last_to_first_and_a_skip_or_a_failure_stays_pytests(
        pytester, monkeypatch, tmp_path, worker):
    """The conftest's ``pytest_collection``: gw1 imports the modules in reverse before collecting (they then split
    compiling), gw0 leaves the order to pytest. A module skipped at import (``importorskip("readline")`` where
    there is none) or one that fails to import is reported by pytest as usual; it once crashed the worker."""
    order = tmp_path / "order.txt"
    pytester.makepyprojecttoml('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    pytester.makeconftest(borrowing("pytest_collection"))
    tests = pytester.mkdir("tests")
    for name in ("a", "b"):
        (tests / f"test_{name}.py").write_text(f"with open({str(order)!r}, 'a') as f:\n    f.write('{name}')\n\n"
                                               f"def test_{name}():\n    pass\n", encoding="utf-8")
    (tests / "test_c_skipped.py").write_text("import pytest\npytest.skip('none here', allow_module_level=True)\n",
                                             encoding="utf-8")
    (tests / "test_d_broken.py").write_text("import no_such_module_anywhere\n", encoding="utf-8")
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    result = pytester.runpytest_subprocess("-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
                                           "--continue-on-collection-errors")
    result.assert_outcomes(passed=2, skipped=1, errors=1)
    assert order.read_text(encoding="utf-8") == ("ba" if worker == "gw1" else "ab")
