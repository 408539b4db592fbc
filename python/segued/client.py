"""A JSON-RPC client for segued's Unix socket (docs/PROTOCOL.md): one JSON text per line."""

import collections
import itertools
import json
import os
import select
import socket
import time
import warnings

from . import match as _match


class RPCError(Exception):
    """An error answer: ``code``, ``message`` and ``data`` (at least ``{"kind": ...}``)."""

    def __init__(self, method, error):
        self.method = method
        self.code = error.get("code")
        self.message = error.get("message", "")
        self.data = error.get("data") or {}
        self.kind = self.data.get("kind")
        super().__init__("%s: %s (%s, %s)" % (method, self.message, self.code, self.kind))


class ProtocolError(Exception):
    """The peer sent something that is not a JSON-RPC message this client can read: not JSON, not an object (``42``,
    ``"text"``, ``[1, 2]``, ``null``), or an answer whose ``error`` is not an object. The message shows what arrived,
    cut to 200 characters."""

    def __init__(self, what, arrived):
        text = arrived if isinstance(arrived, str) else repr(arrived)
        if len(text) > 200:
            text = text[:200] + "…"
        self.arrived = arrived
        super().__init__("%s: %s" % (what, text))


class ProtocolWarning(UserWarning):
    """Answers to requests this client never sent (or already had answered) arrived and were dropped."""


class EventTimeout(AssertionError):
    """No event matching what was asked for arrived in time. ``expected`` is what was waited for (None for
    ``next_event``), ``seen`` the events read meanwhile (the last 200), and the message shows the near misses: the
    events of the wanted type (else of any type) that came closest, each with its differing fields
    (``segued.match.near_misses``)."""

    def __init__(self, message, expected=None, seen=()):
        self.expected = expected
        self.seen = list(seen)
        super().__init__(message)


def default_socket_path():
    """Where segued listens by default: ``$SEGUED_SOCKET``, else ``$XDG_RUNTIME_DIR/segued.sock``, else
    ``/tmp/segued-$UID.sock``."""
    if os.environ.get("SEGUED_SOCKET"):
        return os.environ["SEGUED_SOCKET"]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "segued.sock")
    return "/tmp/segued-%d.sock" % os.getuid()


#: What ``events.subscribe`` takes without ``types``: every category but ``frame`` and ``scene``.
DEFAULT_TYPES = ("lifecycle", "transition", "plugin", "log")


def _category(event_type):
    """An event type's category (docs/PROTOCOL.md, events): ``vc.*`` lifecycle, ``transition.*``, ``plugin.*``,
    ``log``, ``frame``, ``scene.*``; None for the others (``events.dropped``), which every subscription gets."""
    if not isinstance(event_type, str):
        return None
    if event_type in ("log", "frame"):
        return event_type
    prefix = event_type.split(".", 1)[0]
    return {"vc": "lifecycle", "transition": "transition", "plugin": "plugin", "scene": "scene"}.get(prefix)


def _timeout_message(expected, wait, seen, count, tolerance):
    head = "no event matching %s within %.1f s" % (json.dumps(expected, separators=(",", ":")), wait)
    if not count:
        return head + "; no events arrived"
    head += "; read %d event%s" % (count, "" if count == 1 else "s")
    if count > len(seen):
        head += " (the last %d kept)" % len(seen)
    near = _match.describe_near_misses(expected, list(seen), tolerance)
    return head + ("\n" + near if near else "")


class Client:
    """One connection. ``call`` answers the result or raises ``RPCError``; events (notifications) that arrive
    meanwhile are kept, in order, in ``events`` until read with ``next_event``/``wait_for``/``drain_events``.

    The daemon writes the events a request causes before the request's answer, so after ``call`` returns every
    event it caused is already in ``events``."""

    def __init__(self, path=None, timeout=10.0):
        self.path = path or default_socket_path()
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)
        self._buffer = b""
        self._ids = itertools.count(1)
        self._answers = {}
        # Ids of requests sent and not answered yet: only answers to these are kept.
        self._waiting = set()
        self.dropped_answers = 0
        self.events = collections.deque()
        # Motion recording (record_motion): recorders by scene, and the event types this connection's own
        # subscriptions asked for (the recorder's frames and transitions reach `events` only when these want them).
        self._motion = {}
        self._asked_types = []
        self._taking_start = False

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # Requests -----------------------------------------------------------------------------------------------
    def call(self, method, params=None, **kwargs):
        """Sends a request and answers its result. Parameters by name: ``call("clock.advance", ms=100)`` or a dict."""
        __tracebackhide__ = True  # a failure is shown at the test's line, not here
        if params is None:
            params = kwargs
        elif kwargs:
            params = dict(params, **kwargs)
        request_id = next(self._ids)
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params:
            message["params"] = params
        self._waiting.add(request_id)
        try:
            self.send(message)
            answer = self._answer(request_id)
        finally:
            self._waiting.discard(request_id)
        if "error" in answer:
            raise RPCError(method, answer["error"])
        result = answer.get("result")
        if method == "events.subscribe" and isinstance(result, dict):
            self._asked_types.append((result.get("scene"), result.get("types") or list(DEFAULT_TYPES)))
        if self._motion and not self._taking_start:
            self._take_starts()
        return result

    def try_call(self, method, params=None, **kwargs):
        """Like ``call``, but answers an ``RPCError`` instead of raising it."""
        __tracebackhide__ = True
        try:
            return self.call(method, params, **kwargs)
        except RPCError as error:
            return error

    def notify(self, method, params=None, **kwargs):
        """A notification: no answer."""
        message = {"jsonrpc": "2.0", "method": method}
        if params or kwargs:
            message["params"] = dict(params or {}, **kwargs)
        self.send(message)

    def send(self, message):
        self.sock.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    # Motion -------------------------------------------------------------------------------------------------
    def record_motion(self, scene=None):
        """Starts recording a scene's motion for ``segued.assert_motion``, as ``seguectl test --record`` does: an
        extra subscription to its ``transition`` and ``frame`` events (these reach ``events`` only when another
        subscription of this connection asks for them), and after each request that began a transition, the views
        as it began (``scene.tree {presentation: true}``). ``scene``: default the connection's current scene.
        Answers the ``segued.motion.MotionRecorder``."""
        __tracebackhide__ = True
        from .motion import MotionRecorder

        params = {"types": ["transition", "frame"]}
        if scene is not None:
            params["scene"] = scene
        self._taking_start = True  # not one of the connection's own subscriptions
        try:
            answer = self.call("events.subscribe", params)
        finally:
            self._taking_start = False
        self._asked_types.pop()
        recorder = self._motion.get(answer["scene"])
        if recorder is None:
            recorder = self._motion[answer["scene"]] = MotionRecorder(answer["scene"])
        return recorder

    def motion_recorder(self, scene=None):
        """The recorder of ``scene`` (None: the only one), or None when its motion is not being recorded."""
        if scene is None and len(self._motion) == 1:
            return next(iter(self._motion.values()))
        return self._motion.get(scene)

    def _take_starts(self):
        __tracebackhide__ = True
        self._taking_start = True
        try:
            for scene, recorder in self._motion.items():
                if recorder.wants_start:
                    tree = self.call("scene.tree", scene=scene, presentation=True)
                    recorder.start(tree.get("views") if isinstance(tree, dict) else None)
        finally:
            self._taking_start = False

    def _wanted(self, event):
        """Whether this connection's own subscriptions ask for an event: only the categories a motion recording
        adds (``transition``, ``frame``) are held back, when no subscription of the event's scene asks for them (by
        type, category or ``*``)."""
        event_type = event.get("type")
        category = _category(event_type)
        if category not in ("transition", "frame"):
            return True
        return any(scene == event.get("scene") and ("*" in types or event_type in types or category in types)
                   for scene, types in self._asked_types)

    # Events -------------------------------------------------------------------------------------------------
    def subscribe(self, types=None, scene=None):
        """``events.subscribe``; answers the subscription id."""
        params = {}
        if types is not None:
            params["types"] = list(types)
        if scene is not None:
            params["scene"] = scene
        return self.call("events.subscribe", params)["subscription"]

    def next_event(self, timeout=None):
        """The next event's params (``{seq, scene, type, time, ...}``), waiting up to ``timeout`` seconds."""
        __tracebackhide__ = True
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while not self.events:
            if not self._read(deadline):
                raise EventTimeout("no event within %.1f s" % (self.timeout if timeout is None else timeout))
        return self.events.popleft()

    def drain_events(self):
        """Every event received so far (and any already waiting on the socket), removed from the queue."""
        self._read(time.monotonic())
        out = list(self.events)
        self.events.clear()
        return out

    def wait_for(self, expected, timeout=None, tolerance=1e-6):
        """Reads events until one matches ``expected`` partially (as scenario files match: see ``segued.match``);
        answers it. Events before it are consumed. ``expected`` may be a type name or a dict.

        On a timeout, ``EventTimeout`` names what it waited for, how many events it read, and the near misses with
        their differing fields (path, expected, got), e.g.::

            no event matching {"type":"transition.completed","completed":false} within 0.2 s; read 10 events
            near miss #10 (transition.completed, seq 45), 1 field differs:
              at completed: expected false, got true"""
        __tracebackhide__ = True
        if isinstance(expected, str):
            expected = {"type": expected}
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        seen = collections.deque(maxlen=200)
        count = 0
        while True:
            while self.events:
                event = self.events.popleft()
                if _match.matches(expected, event, tolerance):
                    return event
                seen.append(event)
                count += 1
            if not self._read(deadline):
                raise EventTimeout(_timeout_message(expected, wait, seen, count, tolerance), expected, seen)

    # Reading ------------------------------------------------------------------------------------------------
    def _answer(self, request_id):
        __tracebackhide__ = True
        deadline = time.monotonic() + self.timeout
        while request_id not in self._answers:
            if not self._read(deadline):
                raise TimeoutError("no answer to request %s within %.1f s" % (request_id, self.timeout))
        return self._answers.pop(request_id)

    def _read(self, deadline):
        """Reads what is there (waiting until ``deadline`` for something); files answers and events. False when
        nothing arrived in time."""
        __tracebackhide__ = True
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.sock], [], [], remaining)
            if not ready:
                return False
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the daemon closed the connection")
            self._buffer += chunk
            got = False
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                if line.strip():
                    text = line.decode("utf-8", "replace")
                    try:
                        message = json.loads(text)
                    except ValueError:
                        raise ProtocolError("the peer sent a line that is not JSON", text) from None
                    self._file(message, text)
                    got = True
            if got:
                return True

    def _file(self, message, text):
        if isinstance(message, list) and message:
            for member in message:
                self._file(member, text)
            return
        if not isinstance(message, dict):
            raise ProtocolError("the peer sent something that is not a JSON-RPC message object", text)
        if "id" not in message:
            if message.get("method") == "event":
                params = message.get("params")
                params = params if isinstance(params, dict) else {}
                if self._motion:
                    recorder = self._motion.get(params.get("scene"))
                    if recorder is not None:
                        recorder.take(params)
                    if not self._wanted(params):
                        return
                self.events.append(params)
            return
        request_id = message["id"]
        try:
            waited = request_id in self._waiting
        except TypeError:  # an id that is a list or an object: no request of ours has it
            waited = False
        if not waited:
            # Never stored: a peer answering ids nobody asked for must not grow this client without bound.
            self.dropped_answers += 1
            if self.dropped_answers % 100 == 1:
                warnings.warn("dropped %d answer(s) to requests this client did not send or had answered; "
                              "the latest: %s" % (self.dropped_answers, text[:200]), ProtocolWarning, stacklevel=4)
            return
        if "error" in message:
            if not isinstance(message["error"], dict):
                raise ProtocolError("the peer answered with an error that is not an object", text)
        elif "result" not in message:
            raise ProtocolError("the peer answered with neither result nor error", text)
        self._answers[request_id] = message
