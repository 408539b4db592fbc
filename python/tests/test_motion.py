"""Motion snapshots from pytest (segued.assert_motion): the same file format and verdicts as seguectl test."""

import json
import os
import subprocess

import pytest

import segued
from segued import motion
from segued.daemon import find_binary


def _tabs(client, duration_ms=600, animator="cross-dissolve"):
    client.call("vc.create", id="first", color="#34c759")
    client.call("vc.create", id="second", color="#5856d6")
    client.call("container.create", id="tabs", kind="custom", children=["first", "second"])
    client.call("scene.set_root", vc="tabs")
    client.call("container.select", container="tabs", vc="second", animator=animator)
    client.call("clock.advance", ms=duration_ms)


def _fresh(client):
    scene = client.call("scene.create", size={"w": 320, "h": 480}, clock="manual")["scene"]
    client.subscribe(types=["lifecycle", "transition"])
    return scene


def test_record_then_compare_then_a_difference_fails_with_a_picture(segued_client, tmp_path):
    snapshot = str(tmp_path / "fade.motion.json")
    scene = _fresh(segued_client)
    segued_client.record_motion(scene)
    _tabs(segued_client)
    segued.assert_motion(segued_client, scene, "fade", snapshot=snapshot, mode="record")
    written = motion.load(snapshot)["fade"]["transitions"]
    assert len(written) == 1 and written[0]["animator"] == "cross-dissolve"
    assert written[0]["start"] and len(written[0]["frames"]) > 10
    assert written[0]["events"][-1]["type"] == "transition.completed"

    # The same motion again: it matches.
    scene = _fresh(segued_client)
    segued_client.record_motion(scene)
    _tabs(segued_client)
    segued.assert_motion(segued_client, scene, "fade", snapshot=snapshot)

    # Stopped half-way: fewer frames, no completion; the message names where and a picture is written.
    scene = _fresh(segued_client)
    segued_client.record_motion(scene)
    _tabs(segued_client, duration_ms=250)
    with pytest.raises(segued.MotionMismatch) as failure:
        segued.assert_motion(segued_client, scene, "fade", snapshot=snapshot)
    text = str(failure.value)
    assert text.startswith("motion differs from %s: transition 1 (" % snapshot), text
    assert "accept the new motion with --segued-update-motion" in text
    picture = str(tmp_path / "fade.fade.motion-diff.svg")
    assert failure.value.picture == picture and os.path.exists(picture)

    # Accepted with update: the file now holds the new motion, and it matches.
    segued.assert_motion(segued_client, scene, "fade", snapshot=snapshot, mode="update")
    segued.assert_motion(segued_client, scene, "fade", snapshot=snapshot)


def test_a_frame_difference_names_the_frame_and_property_and_draws_both_curves():
    start = [{"id": "a.view", "parent": None, "frame": {"x": 0, "y": 0, "w": 100, "h": 100}, "alpha": 1}]

    def entry(alphas):
        frames = [{"time": (i + 1) / 60, "views": [{"id": "a.view", "alpha": a}]} for i, a in enumerate(alphas)]
        return {"transitions": [{"transition": "t-1", "kind": "select", "from": "x", "to": "a", "animator": "fade",
                                 "interactive": False, "duration": 0.05, "events": [], "start": start,
                                 "frames": frames}]}

    old, new = entry([0.2, 0.5, 0.9]), entry([0.2, 0.6, 1.1])
    difference = motion.compare(old, new)
    assert difference.frame == 2
    assert difference.description == ("transition 1 (t-1, fade): frame 2 (t = 0.0333 s): a.view alpha 0.6, the snapshot "
                                      "has 0.5 (tolerance 1e-06)")
    assert difference.moved == [("a.view", "alpha")]
    assert motion.compare(old, new, tolerance="alpha=0.25") is None
    assert motion.compare(old, new, tolerance={"alpha": 0.05}).frame == 2
    svg = motion.picture(old, new, difference, (320, 480), "fade")
    assert "a.view alpha" in svg and 'stroke="#888888"' in svg and 'stroke="#d0021b"' in svg
    # A spring's overshoot (1.1) is drawn clamped to 1; the snapshot keeps it raw.
    assert 'fill-opacity="1.1"' not in svg


def test_the_panels_draw_as_the_filmstrip_about_the_anchor_point_and_in_3d():
    # b.view 100 × 100 at the window's origin, anchored at its top-left corner, turned 60° about y under the window's
    # perspective (m34 = −0.002): the new panel draws it as a projected quad, as seguectl does.
    import math

    def entry(angle):
        c, s = math.cos(angle), math.sin(angle)
        start = [{"id": "window", "parent": None, "frame": {"x": 0, "y": 0, "w": 320, "h": 480}, "alpha": 1,
                  "color": "#ffffff", "sublayer_transform": {"m": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1]}},
                 {"id": "b.view", "parent": "window", "frame": {"x": 0, "y": 0, "w": 100, "h": 100}, "alpha": 1,
                  "color": "#007aff", "anchor_point": {"x": 0, "y": 0},
                  "transform": {"m": [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]}}]
        return {"transitions": [{"transition": "t-1", "kind": "select", "from": "a", "to": "b", "animator": "turn",
                                 "interactive": False, "duration": 0.1, "events": [], "start": start, "frames": []}]}

    old, new = entry(0), entry(math.pi / 3)
    difference = motion.compare(old, new)
    assert difference.frame == 0
    svg = motion.picture(old, new, difference, (320, 480), "turn")
    path = svg[svg.rindex('data-view="b.view"'):]
    d = path[path.index('<path d="') + 9:]
    d = d[:d.index('"')]
    numbers = [float(x) for x in d.replace("M", " ").replace("L", " ").replace("Z", " ").split()]
    expected = []
    for x, y in [(0, 0), (100, 0), (100, 100), (0, 100)]:
        w = 1 + 0.002 * x * math.sin(math.pi / 3)
        expected += [(x * 0.5 - 160) / w + 160, (y - 240) / w + 240]
    assert len(numbers) == 8 and all(abs(a - b) < 0.01 for a, b in zip(numbers, expected)), (numbers, expected)
    assert '<rect x="0" y="0" width="100" height="100" fill="#007aff"/>' in svg


def test_tolerance_text_is_checked():
    assert motion.Tolerance.parse("alpha=0.01,frame=0.5").of("frame") == 0.5
    assert motion.Tolerance.parse("0.1").of("alpha") == 0.1
    for bad in ("alpha=x", "=1", "alpha=-1"):
        with pytest.raises(ValueError):
            motion.Tolerance.parse(bad)


def test_no_recording_says_how_to_start_one(segued_client, tmp_path):
    scene = _fresh(segued_client)
    with pytest.raises(AssertionError) as failure:
        segued.assert_motion(segued_client, scene, "x", snapshot=str(tmp_path / "x.motion.json"))
    assert "record_motion" in str(failure.value)


def test_a_file_that_is_not_a_snapshot_is_refused(tmp_path):
    path = tmp_path / "x.motion.json"
    path.write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="not a motion snapshot"):
        motion.load(str(path))
    path.write_text('{"format": "segued-motion", "version": 2, "scenarios": {}}')
    with pytest.raises(ValueError, match="version 2"):
        motion.load(str(path))


def test_recording_keeps_the_frames_out_of_the_events_queue(segued):
    segued.record_motion()
    _tabs(segued)
    types = {e["type"] for e in segued.drain_events()}
    assert "frame" not in types and "transition.completed" in types


def _seguectl():
    try:
        binary = find_binary()
    except FileNotFoundError:
        return None
    path = os.path.join(os.path.dirname(binary), "seguectl")
    return path if os.access(path, os.X_OK) else None


SCENARIO = [{"name": "fade between tabs", "steps": [
    {"call": "vc.create", "params": {"id": "first", "color": "#34c759"}},
    {"call": "vc.create", "params": {"id": "second", "color": "#5856d6"}},
    {"call": "container.create", "params": {"id": "tabs", "kind": "custom", "children": ["first", "second"]}},
    {"call": "scene.set_root", "params": {"vc": "tabs"}},
    {"call": "container.select", "params": {"container": "tabs", "vc": "second", "animator": "cross-dissolve"}},
    {"call": "clock.advance", "params": {"ms": 600}}]}]


def test_a_seguectl_snapshot_is_checked_from_python_and_back(segued_client, segued_socket, tmp_path):
    seguectl = _seguectl()
    if seguectl is None:
        pytest.skip("no seguectl beside the segued under test")
    scenario = tmp_path / "fade.json"
    scenario.write_text(json.dumps(SCENARIO))
    snapshot = tmp_path / "fade.motion.json"
    run = subprocess.run([seguectl, "--socket", segued_socket, "test", "--record", str(scenario)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    recorded = snapshot.read_text()
    # Python writes the file byte for byte as seguectl does.
    assert motion.text(motion.load(str(snapshot))) == recorded

    # The scenario's steps from Python (subscribed as a scenario is: lifecycle and transition) match it.
    scene = _fresh(segued_client)
    segued_client.record_motion(scene)
    _tabs(segued_client)
    segued.assert_motion(segued_client, scene, "fade between tabs", snapshot=str(snapshot))

    # Recorded from Python, checked by seguectl.
    snapshot.unlink()
    segued.assert_motion(segued_client, scene, "fade between tabs", snapshot=str(snapshot), mode="record")
    assert snapshot.read_text() == recorded
    run = subprocess.run([seguectl, "--socket", segued_socket, "test", "--motion", str(scenario)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_difference_is_told_and_drawn_as_seguectl_tells_and_draws_it(segued_client, segued_socket, tmp_path):
    seguectl = _seguectl()
    if seguectl is None:
        pytest.skip("no seguectl beside the segued under test")
    scenario = tmp_path / "fade.json"
    scenario.write_text(json.dumps(SCENARIO))
    snapshot = tmp_path / "fade.motion.json"
    run = subprocess.run([seguectl, "--socket", segued_socket, "test", "--record", str(scenario)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    # The snapshot as an older animator would have left it: alpha 20 % lower from frame 8 on.
    scenarios = motion.load(str(snapshot))
    for frame in scenarios["fade between tabs"]["transitions"][0]["frames"][7:]:
        for view in frame["views"]:
            if "alpha" in view:
                view["alpha"] = round(view["alpha"] * 0.8, 6)
    snapshot.write_text(motion.text(scenarios))
    picture = tmp_path / "fade.fade-between-tabs.motion-diff.svg"
    run = subprocess.run([seguectl, "--socket", segued_socket, "test", "--tolerance", "alpha=0.001", str(scenario)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1, run.stdout + run.stderr
    drawn_by_seguectl = picture.read_text()
    picture.unlink()

    scene = _fresh(segued_client)
    segued_client.record_motion(scene)
    _tabs(segued_client)
    with pytest.raises(segued.MotionMismatch) as failure:
        segued.assert_motion(segued_client, scene, "fade between tabs", snapshot=str(snapshot), tolerance="alpha=0.001")
    told = failure.value.difference.description
    assert told.startswith("transition 1 (t-1, cross-dissolve): frame 8 (t = 0.1333 s): first.view alpha "), told
    assert told in run.stdout
    assert picture.read_text() == drawn_by_seguectl
