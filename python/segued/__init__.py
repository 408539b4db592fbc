"""A client for segued, the transition daemon (docs/PROTOCOL.md), and a pytest plugin (``segued.pytest_plugin``).

    from segued import Client
    with Client("/tmp/x.sock") as c:
        c.call("scene.create", size={"w": 320, "h": 480}, clock="manual")
"""

from .client import Client, EventTimeout, ProtocolError, ProtocolWarning, RPCError, default_socket_path
from .daemon import Daemon, find_binary
from .match import describe, matches, mismatches
from .motion import MotionMismatch, assert_motion

__all__ = ["Client", "Daemon", "EventTimeout", "MotionMismatch", "ProtocolError", "ProtocolWarning", "RPCError",
           "assert_motion", "default_socket_path", "describe", "find_binary", "matches", "mismatches"]
__version__ = "0.1.0"
