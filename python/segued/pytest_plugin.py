"""pytest plugin (entry point ``pytest11``): a segued per test session, a fresh manual scene per test.

Fixtures:
- ``segued_socket`` (session): the socket of the daemon under test — ``--segued-socket``, ``$SEGUED_SOCKET`` (or the
  ``segued_socket`` setting) when set: a daemon you started; else a segued spawned for the session (``--segued-bin``, ``$SEGUED_BIN``,
  the ``segued_binary`` setting, else the checkout's ``.build/debug/segued``, else release, above the rootdir, then
  above the working directory) with the checkout's config and plugins, stopped at the end.
- ``segued`` (test): a ``SceneClient`` connected to it, with a fresh manual scene (320×480, current on the
  connection) subscribed to its events; the scene is destroyed after the test.
- ``segued_client`` (test): a bare ``Client`` with no scene.
- ``segued_scene_options`` (test): what ``segued`` creates its scene with; override it for another size or events.

Options: ``--segued-socket PATH``, ``--segued-bin PATH``, ``--segued-config FILE``, ``--segued-plugins DIR``. The same, and the socket of a
daemon already running, can be set for a project in ``pyproject.toml`` (paths relative to the rootdir)::

    [tool.pytest.ini_options]
    segued_binary = ".build/debug/segued"
    segued_config = "config/segued.toml"
    segued_plugins = "plugins"
    # segued_socket = "/run/user/1000/segued.sock"   # use a running daemon instead of spawning one

Motion snapshots (``segued.assert_motion``): ``--segued-record-motion`` (or ``segued_record_motion = true``) writes a
missing snapshot instead of failing, ``--segued-update-motion`` writes every one anew, ``--segued-motion-tolerance``
(or ``segued_motion_tolerance``) sets the default tolerances.

A command-line option wins over the environment (``$SEGUED_BIN``, ``$SEGUED_SOCKET``), which wins over the file.
Failures in the client (``call``, ``wait_for``, ``next_event``, ``SceneClient.expect``, ``assert_motion``) point at the
test's line: their frames are hidden with ``__tracebackhide__``.
"""

import os

import pytest

from . import match as _match
from .client import Client
from .daemon import Daemon, find_binary


def pytest_addoption(parser):
    group = parser.getgroup("segued")
    group.addoption("--segued-socket", default=None,
                    help="the socket of a running segued to test against (default: $SEGUED_SOCKET, else spawn one)")
    group.addoption("--segued-bin", default=None, help="the segued binary to spawn (default: $SEGUED_BIN, the build)")
    group.addoption("--segued-config", default=None, help="config file for the spawned segued")
    group.addoption("--segued-plugins", default=None, help="plugins folder for the spawned segued")
    group.addoption("--segued-record-motion", action="store_true", default=None,
                    help="segued.assert_motion writes a missing motion snapshot instead of failing")
    group.addoption("--segued-update-motion", action="store_true", default=False,
                    help="segued.assert_motion writes every motion snapshot anew (accepts the new motion)")
    group.addoption("--segued-motion-tolerance", default=None, metavar="P=N,...",
                    help="motion tolerances, e.g. alpha=0.01,frame=0.5 (default 1e-6)")
    parser.addini("segued_record_motion", "write missing motion snapshots (as --segued-record-motion)", type="bool",
                  default=False)
    parser.addini("segued_motion_tolerance", "motion tolerances, e.g. alpha=0.01,frame=0.5 (default 1e-6)")
    parser.addini("segued_socket", "the socket of a running segued to test against (default: spawn one)")
    parser.addini("segued_binary", "the segued binary to spawn (relative to the rootdir)")
    parser.addini("segued_config", "config file for the spawned segued (relative to the rootdir)")
    parser.addini("segued_plugins", "plugins folder for the spawned segued (relative to the rootdir)")


def pytest_configure(config):
    """Hands the motion settings to ``segued.assert_motion``: the command line wins over the ini file."""
    from . import motion

    if config.getoption("--segued-update-motion"):
        mode = "update"
    elif config.getoption("--segued-record-motion") or config.getini("segued_record_motion"):
        mode = "record"
    else:
        mode = "compare"
    tolerance = config.getoption("--segued-motion-tolerance") or config.getini("segued_motion_tolerance") or None
    if tolerance is not None:
        try:
            motion.Tolerance.parse(tolerance)
        except ValueError as error:
            raise pytest.UsageError(str(error)) from None
    motion.settings.update(mode=mode, tolerance=tolerance)


def _setting(config, name):
    """An ini setting (``[tool.pytest.ini_options]``) as a path: relative ones from the rootdir; None when unset."""
    value = config.getini(name)
    if not value:
        return None
    return value if os.path.isabs(value) else os.path.join(str(config.rootpath), value)


class SceneClient(Client):
    """A client with its own manual scene: ``scene`` is its id, ``call`` defaults to it (it is current)."""

    scene = None

    def advance(self, ms):
        """``clock.advance`` on the scene; answers the new time."""
        __tracebackhide__ = True
        return self.call("clock.advance", ms=ms)["time"]

    def expect(self, method, params=None, result=None, **kwargs):
        """Calls ``method`` and asserts its result matches ``result`` partially (as scenario files match); answers
        the whole result."""
        __tracebackhide__ = True
        answer = self.call(method, params, **kwargs)
        if result is not None:
            found = _match.mismatches(result, answer)
            assert not found, "%s: result differs\n%s" % (method, _match.describe(found))
        return answer


def _checkout_of(binary):
    """The checkout a ``.build/<kind>/segued`` binary belongs to, or None."""
    parts = os.path.abspath(binary).split(os.sep)
    if len(parts) >= 3 and parts[-3] == ".build":
        return os.sep.join(parts[:-3])
    return None


@pytest.fixture(scope="session")
def segued_socket(request):
    """The socket of the segued under test, for the whole session: ``--segued-socket``, ``$SEGUED_SOCKET`` or the
    ``segued_socket`` setting (a daemon you run), else one spawned from ``--segued-bin`` / ``$SEGUED_BIN`` / ``segued_binary`` /
    the checkout's build with its config and plugins, stopped when the session ends."""
    pytest_config = request.config
    running = (pytest_config.getoption("--segued-socket") or os.environ.get("SEGUED_SOCKET")
               or pytest_config.getini("segued_socket"))
    if running:
        yield running
        return
    option = pytest_config.getoption
    binary = (option("--segued-bin") or os.environ.get("SEGUED_BIN") or _setting(pytest_config, "segued_binary")
              or find_binary(str(pytest_config.rootpath)))
    root = _checkout_of(binary)
    config = (option("--segued-config") or _setting(pytest_config, "segued_config")
              or (root and _existing(os.path.join(root, "config", "segued.toml"))))
    plugins = (option("--segued-plugins") or _setting(pytest_config, "segued_plugins")
               or (root and _existing(os.path.join(root, "plugins"))))
    daemon = Daemon(binary, config=config, plugins=plugins)
    try:
        yield daemon.socket
    finally:
        daemon.stop()


def _existing(path):
    return path if os.path.exists(path) else None


@pytest.fixture
def segued_scene_options():
    """``scene.create`` params and the event types to subscribe to, for the ``segued`` fixture."""
    return {"size": {"w": 320, "h": 480}, "types": ["lifecycle", "transition", "plugin", "log"]}


@pytest.fixture
def segued_client(segued_socket):
    """A bare ``Client`` on the daemon under test, with no scene (closed after the test)."""
    client = Client(segued_socket)
    yield client
    client.close()


@pytest.fixture
def segued(segued_socket, segued_scene_options):
    """A ``SceneClient`` with a fresh manual scene of its own (current on its connection, made from
    ``segued_scene_options``) and subscribed to its events; the scene is destroyed after the test."""
    options = dict(segued_scene_options)
    types = options.pop("types", None)
    client = SceneClient(segued_socket)
    options.setdefault("clock", "manual")
    client.scene = client.call("scene.create", options)["scene"]
    client.subscribe(types=types)
    yield client
    try:
        client.call("scene.destroy", scene=client.scene)
    finally:
        client.close()
