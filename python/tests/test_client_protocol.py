"""The client against a peer that answers garbage (issue 23): a fake daemon on a Unix socket that answers each
request with lines the test chooses. No segued needed."""

import json
import os
import socket
import tempfile
import threading
import warnings

import pytest

import segued
from segued import Client, ProtocolError, ProtocolWarning, RPCError


class FakePeer:
    """Accepts one connection; for each request line, calls ``reply(request)`` and writes the lines it returns."""

    def __init__(self, reply):
        self.folder = tempfile.mkdtemp(prefix="sgpy-")
        self.path = os.path.join(self.folder, "s.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.reply = reply
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        conn, _ = self.listener.accept()
        with conn:
            buffer = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    for out in self.reply(json.loads(line)):
                        conn.sendall((out if isinstance(out, bytes) else out.encode()) + b"\n")

    def close(self):
        self.listener.close()
        try:
            os.unlink(self.path)
            os.rmdir(self.folder)
        except OSError:
            pass


@pytest.fixture
def peer():
    made = []

    def make(reply):
        p = FakePeer(reply)
        made.append(p)
        return Client(p.path, timeout=5)

    yield make
    for p in made:
        p.close()


def test_protocol_error_and_warning_are_exported():
    assert issubclass(segued.ProtocolError, Exception)
    assert issubclass(segued.ProtocolWarning, Warning)
    assert "ProtocolError" in segued.__all__ and "ProtocolWarning" in segued.__all__


@pytest.mark.parametrize("line", ["42", '"text"', "[1,2]", "null", "true", "[]", "[null]", "{} x", "not json", "-1.5e3"])
def test_an_answer_that_is_not_an_object_raises_protocol_error_showing_it(peer, line):
    client = peer(lambda request: [line])
    with pytest.raises(ProtocolError) as error:
        client.call("daemon.ping")
    assert line in str(error.value)


@pytest.mark.parametrize("error", ['"boom"', "42", "null", "[1,2]", "true"])
def test_an_error_that_is_not_an_object_raises_protocol_error(peer, error):
    client = peer(lambda request: ['{"jsonrpc":"2.0","id":%d,"error":%s}' % (request["id"], error)])
    with pytest.raises(ProtocolError) as raised:
        client.call("daemon.ping")
    assert error in str(raised.value)


def test_an_error_object_is_still_an_rpc_error_and_a_result_is_returned(peer):
    def reply(request):
        if request["method"] == "bad":
            return ['{"jsonrpc":"2.0","id":%d,"error":{"code":-32601,"message":"no"}}' % request["id"]]
        return ['{"jsonrpc":"2.0","id":%d,"result":null}' % request["id"]]

    client = peer(reply)
    with pytest.raises(RPCError):
        client.call("bad")
    assert client.call("daemon.ping") is None


def test_an_answer_with_neither_result_nor_error_raises_protocol_error(peer):
    client = peer(lambda request: ['{"jsonrpc":"2.0","id":%d}' % request["id"]])
    with pytest.raises(ProtocolError):
        client.call("daemon.ping")


def test_the_message_shows_at_most_200_characters_of_what_arrived(peer):
    long = json.dumps("x" * 5000)
    client = peer(lambda request: [long])
    with pytest.raises(ProtocolError) as error:
        client.call("daemon.ping")
    shown = str(error.value)
    assert '"xxxx' in shown and len(shown) < 300


def test_answers_to_ids_never_requested_are_dropped_and_warned_once_per_hundred(peer):
    def reply(request):
        strays = ['{"jsonrpc":"2.0","id":%d,"result":"stray"}' % (100000 + i) for i in range(250)]
        strays.append('{"jsonrpc":"2.0","id":[1],"result":"stray"}')
        strays.append('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
        return strays + ['{"jsonrpc":"2.0","id":%d,"result":"pong"}' % request["id"]]

    client = peer(reply)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert client.call("daemon.ping") == "pong"
    assert client._answers == {}
    assert client.dropped_answers == 252
    ours = [w for w in caught if issubclass(w.category, ProtocolWarning)]
    assert len(ours) == 3  # the 1st, 101st and 201st dropped


def test_a_second_answer_to_an_answered_request_is_dropped_not_kept(peer):
    client = peer(lambda request: ['{"jsonrpc":"2.0","id":%d,"result":"pong"}' % request["id"]] * 2)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        for _ in range(50):
            assert client.call("daemon.ping") == "pong"
    assert client._answers == {}
