"""The client and the pytest plugin against a real segued (spawned for the session, or $SEGUED_SOCKET)."""

import pytest

from segued import Client, EventTimeout, RPCError


def test_each_test_gets_a_fresh_manual_scene_that_is_current(segued):
    scenes = segued.call("scene.list")
    mine = [s for s in scenes if s["scene"] == segued.scene]
    assert mine and mine[0]["clock"] == "manual"
    assert segued.call("clock.now") == {"time": 0}


def test_call_answers_results_and_raises_rpc_errors_with_data(segued_client):
    assert segued_client.call("daemon.ping") == "pong"
    with pytest.raises(RPCError) as error:
        segued_client.call("daemon.pnig")
    assert error.value.code == -32601
    assert error.value.data["did_you_mean"] == "daemon.ping"
    bad = segued_client.try_call("scene.create", clock="manual")
    assert isinstance(bad, RPCError) and bad.code == -32602 and bad.data["param"] == "size"


def test_a_transition_and_its_events_arrive_in_order(segued):
    segued.call("vc.create", id="a")
    segued.call("vc.create", id="b")
    segued.call("container.create", id="tabs", kind="tab", children=["a", "b"])
    segued.call("scene.set_root", vc="tabs")
    started = segued.expect("container.select", {"container": "tabs", "index": 1, "animator": "cross-dissolve"},
                            result={"animator": "cross-dissolve", "duration": 0.5})
    began = segued.wait_for({"type": "transition.began", "transition": started["transition"]})
    assert began["kind"] == "select"
    segued.advance(600)
    done = segued.wait_for("transition.completed")
    assert done["completed"] is True and done["forced"] is False
    assert segued.expect("container.get", {"container": "tabs"}, result={"selected": 1})


def test_expect_reports_the_difference(segued):
    with pytest.raises(AssertionError) as failure:
        segued.expect("clock.now", result={"time": 5})
    assert "at time: expected 5, got 0" in str(failure.value)


def test_wait_for_times_out_naming_what_it_saw(segued):
    with pytest.raises(EventTimeout):
        segued.wait_for("transition.completed", timeout=0.2)


def test_two_clients_have_their_own_scenes(segued, segued_socket):
    with Client(segued_socket) as other:
        scene = other.call("scene.create", size={"w": 100, "h": 100}, clock="manual")["scene"]
        assert scene != segued.scene
        other.call("vc.create", id="a")  # the same id in another scene
        other.call("scene.destroy", scene=scene)
    segued.call("vc.create", id="a")


def test_a_daemon_that_cannot_start_is_reported_with_its_output():
    from segued import Daemon

    with pytest.raises(RuntimeError) as failure:
        Daemon("/bin/false")
    assert "segued exited with 1" in str(failure.value)


def test_notifications_get_no_answer_and_events_keep_their_order(segued):
    segued.notify("daemon.ping")
    segued.call("vc.create", id="a")
    segued.call("vc.create", id="b")
    segued.call("container.create", id="c", kind="custom", children=["a", "b"])
    segued.call("scene.set_root", vc="c")
    events = segued.drain_events()
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(seqs) >= 4
    assert events[0]["type"] == "vc.will_move_to_parent"
    assert {"vc.did_move_to_parent", "vc.view_will_appear", "vc.view_did_appear"} <= {e["type"] for e in events}
