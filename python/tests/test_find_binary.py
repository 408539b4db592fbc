"""Where the pytest plugin looks for segued when it has to start one."""
import os

import pytest

from segued import find_binary


def _fake_checkout(root, kind):
    folder = root / ".build" / kind
    folder.mkdir(parents=True)
    binary = folder / "segued"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    return str(binary)


def test_release_build_of_the_working_directory_when_the_tests_live_elsewhere(tmp_path, monkeypatch):
    # scripts/start makes only the release build; the user's tests are in a folder of their own.
    checkout, tests = tmp_path / "checkout", tmp_path / "tests"
    tests.mkdir()
    binary = _fake_checkout(checkout, "release")
    monkeypatch.delenv("SEGUED_BIN", raising=False)
    monkeypatch.setenv("PATH", "")
    monkeypatch.chdir(checkout)
    assert find_binary(str(tests)) == binary


def test_debug_before_release(tmp_path, monkeypatch):
    release = _fake_checkout(tmp_path, "release")
    debug = _fake_checkout(tmp_path, "debug")
    monkeypatch.delenv("SEGUED_BIN", raising=False)
    assert find_binary(str(tmp_path / ".build")) == debug != release


def test_nothing_found_names_where_it_looked_and_the_ways_out(tmp_path, monkeypatch):
    monkeypatch.delenv("SEGUED_BIN", raising=False)
    monkeypatch.setenv("PATH", "")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as error:
        find_binary(str(tmp_path))
    message = str(error.value)
    assert str(tmp_path) in message and "SEGUED_BIN" in message and "SEGUED_SOCKET" in message
    assert os.environ.get("PATH") == ""
