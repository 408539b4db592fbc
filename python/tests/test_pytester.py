"""The plugin as a project's test run sees it (pytest's own pytester): tracebacks at the test's line, near misses in
timeouts, settings from the ini file overridden by the command line, motion snapshots recorded and checked."""

import os
import textwrap

import pytest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIENT_FILES = ("client.py", "pytest_plugin.py", "motion.py", "match.py")


@pytest.fixture
def project(pytester, monkeypatch):
    """A pytester folder whose subprocess runs find this package (installed or not), with no daemon preset."""
    monkeypatch.setenv("PYTHONPATH", PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.delenv("SEGUED_SOCKET", raising=False)
    return pytester


def _run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "segued.pytest_plugin", "-p", "no:cacheprovider", *args)


def _client_frames(text):
    """Traceback lines that point into the client library."""
    return [line for line in text.splitlines()
            if any(os.path.join("segued", name) + ":" in line for name in CLIENT_FILES)]


def test_a_wait_for_timeout_shows_the_near_miss_at_the_tests_line(project, segued_socket):
    project.makepyfile(test_it="""
        def test_wrong(segued):
            segued.call("vc.create", id="a")
            segued.call("vc.create", id="b")
            segued.call("container.create", id="c", kind="custom", children=["a", "b"])
            segued.call("scene.set_root", vc="c")
            segued.wait_for({"type": "vc.view_did_appear", "vc": "b"}, timeout=0.2)
        """)
    result = _run(project, "--segued-socket=" + segued_socket)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "EventTimeout: no event matching" in out
    assert "near miss #" in out and "(vc.view_did_appear, seq " in out
    assert "at vc: expected \"b\", got \"a\"" in out
    assert "test_it.py:6: EventTimeout" in out
    assert _client_frames(out) == [], out


def test_an_rpc_error_is_shown_at_the_tests_line(project, segued_socket):
    project.makepyfile(test_it="""
        def test_wrong(segued):
            segued.call("vc.create", id="a")
            segued.call("vc.create", id="a")
        """)
    result = _run(project, "--segued-socket=" + segued_socket)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "test_it.py:3: RPCError" in out
    assert _client_frames(out) == [], out


def test_ini_settings_are_read_and_the_command_line_wins(project, segued_socket):
    project.makeini("""
        [pytest]
        segued_socket = /nonexistent/segued.sock
        segued_binary = bin/segued
        segued_plugins = my-plugins
        """)
    project.makepyfile(test_it="""
        def test_socket(segued_socket, pytestconfig):
            assert segued_socket == %r
            assert pytestconfig.getini("segued_binary") == "bin/segued"
            assert pytestconfig.getini("segued_plugins") == "my-plugins"
        """ % segued_socket)
    _run(project, "--segued-socket=" + segued_socket).assert_outcomes(passed=1)
    # Without the option the file's socket is the one used.
    result = _run(project)
    result.assert_outcomes(failed=1)
    assert "assert '/nonexistent/segued.sock' == " in result.stdout.str()


def test_ini_plugins_folder_is_given_to_the_spawned_daemon(project, tmp_path):
    plugins = project.mkdir("my-plugins")
    (plugins / "only-here.lua").write_text(textwrap.dedent("""
        return segue.animator {
          name = "only-here",
          api = 1,
          duration = function(ctx) return 0.1 end,
          animate = function(ctx)
            ctx.container:add(ctx:view("to"))
            ctx:complete(not ctx.cancelled)
          end,
        }
        """))
    project.makeini("""
        [pytest]
        segued_plugins = my-plugins
        """)
    project.makepyfile(test_it="""
        def test_plugins(segued):
            names = [p["name"] for p in segued.call("plugins.list")]
            assert "only-here" in names, names
        """)
    _run(project).assert_outcomes(passed=1)


MOTION_TEST = """
    import segued as s

    def test_fade(segued):
        segued.record_motion()
        segued.call("vc.create", id="a", color="#ff0000")
        segued.call("vc.create", id="b", color="#0000ff")
        segued.call("container.create", id="tabs", kind="custom", children=["a", "b"])
        segued.call("scene.set_root", vc="tabs")
        segued.call("container.select", container="tabs", vc="b", animator="%s")
        segued.advance(1000)
        s.assert_motion(segued, segued.scene, "fade")
    """


def test_motion_snapshots_from_pytest(project, segued_socket):
    project.makepyfile(test_fade=MOTION_TEST % "cross-dissolve")
    snapshot = project.path / "test_fade.motion.json"
    picture = project.path / "test_fade.fade.motion-diff.svg"

    # Missing: fails, unless recording.
    result = _run(project, "--segued-socket=" + segued_socket)
    result.assert_outcomes(failed=1)
    assert "no snapshot 'fade'" in result.stdout.str() and "--segued-record-motion" in result.stdout.str()
    assert not snapshot.exists()
    _run(project, "--segued-socket=" + segued_socket, "--segued-record-motion").assert_outcomes(passed=1)
    assert snapshot.exists()
    _run(project, "--segued-socket=" + segued_socket).assert_outcomes(passed=1)

    # Another animator: a difference, at the test's line, with a picture beside the snapshot.
    project.makepyfile(test_fade=MOTION_TEST % "default-slide")
    result = _run(project, "--segued-socket=" + segued_socket)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "MotionMismatch: motion differs from %s: transition 1 (" % snapshot in out
    assert "picture: %s" % picture in out and picture.exists()
    assert "test_fade.py:11: MotionMismatch" in out
    assert _client_frames(out) == [], out

    # Accepted with --segued-update-motion; the ini file can record too.
    _run(project, "--segued-socket=" + segued_socket, "--segued-update-motion").assert_outcomes(passed=1)
    _run(project, "--segued-socket=" + segued_socket).assert_outcomes(passed=1)
    snapshot.unlink()
    project.makeini("""
        [pytest]
        segued_record_motion = true
        segued_motion_tolerance = alpha=0.01,frame=0.5
        """)
    _run(project, "--segued-socket=" + segued_socket).assert_outcomes(passed=1)
    assert snapshot.exists()


def test_a_bad_motion_tolerance_is_a_usage_error(project):
    project.makepyfile(test_it="def test_it():\n    pass\n")
    result = _run(project, "--segued-motion-tolerance", "alpha=lots")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "alpha=lots" in result.stderr.str()
