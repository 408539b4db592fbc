"""Starting a segued for tests: the built binary with a private socket, stopped when done."""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time


def find_binary(start=None):
    """``$SEGUED_BIN``, else ``.build/debug/segued`` (then release) in the checkout above ``start``, then above the
    working directory (tests kept outside the checkout, run from it), else ``segued`` on the PATH."""
    if os.environ.get("SEGUED_BIN"):
        return os.environ["SEGUED_BIN"]
    starts = []
    for folder in (start, os.getcwd()):
        if folder and os.path.abspath(folder) not in starts:
            starts.append(os.path.abspath(folder))
    for here in starts:
        while True:
            for kind in ("debug", "release"):
                candidate = os.path.join(here, ".build", kind, "segued")
                if os.access(candidate, os.X_OK):
                    return candidate
            parent = os.path.dirname(here)
            if parent == here:
                break
            here = parent
    found = shutil.which("segued")
    if found:
        return found
    raise FileNotFoundError(
        "no segued binary: no .build/debug/segued or .build/release/segued above %s and no segued on the PATH; "
        "build it (scripts/start or swift build), set SEGUED_BIN, or set SEGUED_SOCKET to use a running segued"
        % " or ".join(starts))


class Daemon:
    """A segued process on a private socket. ``Daemon(binary, config=..., plugins=...)``; ``stop()`` sends SIGTERM
    and waits for it to exit."""

    def __init__(self, binary=None, config=None, plugins=None, args=(), start_timeout=10.0):
        self.binary = binary or find_binary()
        self.directory = tempfile.mkdtemp(prefix="segued-py-", dir="/tmp")
        self.socket = os.path.join(self.directory, "s.sock")
        command = [self.binary, "--socket", self.socket]
        if config:
            command += ["--config", config]
        if plugins:
            command += ["--plugins", plugins]
        command += list(args)
        self.log_path = os.path.join(self.directory, "segued.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + start_timeout
        while not self._accepts():
            if self.process.poll() is not None:
                raise RuntimeError("segued exited with %s:\n%s" % (self.process.returncode, self.log()))
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("segued did not accept within %.0f s:\n%s" % (start_timeout, self.log()))
            time.sleep(0.01)

    def _accepts(self):
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(self.socket)
            return True
        except OSError:
            return False
        finally:
            probe.close()

    def log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def stop(self, timeout=5.0):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        shutil.rmtree(self.directory, ignore_errors=True)
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
