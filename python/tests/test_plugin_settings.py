"""The pytest plugin as a project uses it: settings in pyproject.toml, failures shown at the test's line."""

import os
import subprocess
import sys
import textwrap

import segued

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run_pytest(folder, env=None):
    environment = dict(os.environ)
    environment.pop("SEGUED_SOCKET", None)
    environment["PYTHONPATH"] = PYTHON_DIR + os.pathsep + environment.get("PYTHONPATH", "")
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "segued.pytest_plugin", "-p", "no:cacheprovider",
                           "-q", str(folder)], capture_output=True, text=True, timeout=120, env=environment,
                          cwd=str(folder))


def test_pyproject_settings_name_the_socket(tmp_path, segued_socket):
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""
        [tool.pytest.ini_options]
        segued_socket = "%s"
        """ % segued_socket))
    (tmp_path / "test_it.py").write_text(textwrap.dedent("""
        def test_socket(segued_socket, segued):
            assert segued_socket == %r
            assert segued.call("daemon.ping") == "pong"
        """ % segued_socket))
    result = _run_pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyproject_binary_relative_to_the_rootdir(tmp_path):
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""
        [tool.pytest.ini_options]
        segued_binary = "bin/no-such-segued"
        """))
    (tmp_path / "test_it.py").write_text("def test_it(segued_socket):\n    pass\n")
    result = _run_pytest(tmp_path, env={"SEGUED_BIN": ""})
    assert result.returncode != 0
    assert os.path.join(str(tmp_path), "bin", "no-such-segued") in result.stdout + result.stderr


def test_expect_failure_points_at_the_test(tmp_path, segued_socket):
    (tmp_path / "test_it.py").write_text(textwrap.dedent("""
        def test_wrong(segued):
            segued.expect("clock.now", result={"time": 5})
        """))
    result = _run_pytest(tmp_path, env={"SEGUED_SOCKET": segued_socket})
    assert result.returncode == 1
    assert "result differs" in result.stdout
    assert "at time: expected 5, got 0" in result.stdout
    assert "test_it.py:3" in result.stdout
    assert "pytest_plugin.py:" not in result.stdout, result.stdout


def test_fixtures_have_docstrings():
    from segued import pytest_plugin

    for name in ("segued_socket", "segued", "segued_client", "segued_scene_options"):
        fixture = getattr(pytest_plugin, name)
        function = getattr(fixture, "__wrapped__", None) or getattr(fixture, "_get_wrapped_function", lambda: fixture)()
        assert (function.__doc__ or "").strip(), name


def test_package_is_typed():
    assert os.path.exists(os.path.join(os.path.dirname(segued.__file__), "py.typed"))


def test_packaging_ships_py_typed():
    """PEP 561: the marker is in the package and in the package data setuptools installs."""
    tomllib = __import__("tomllib") if sys.version_info >= (3, 11) else None
    if tomllib is None:
        import pytest

        pytest.skip("tomllib needs Python 3.11")
    with open(os.path.join(PYTHON_DIR, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["segued"]
