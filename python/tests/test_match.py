"""The partial matching, the same rules as scenario files (Tests/SegueCtlKitTests/JSONMatcherTests.swift)."""

from segued.match import describe, matches, mismatches


def test_objects_match_on_listed_keys_only():
    assert matches({"a": 1}, {"a": 1, "b": 2})
    assert not matches({"a": 1, "c": 3}, {"a": 1, "b": 2})


def test_arrays_need_the_same_length_and_match_element_by_element():
    assert matches([{"id": "a"}, {"id": "b"}], [{"id": "a", "x": 1}, {"id": "b"}])
    assert not matches([1], [1, 2])


def test_numbers_within_the_tolerance_and_types_strictly():
    assert matches(0.5, 0.5000001)
    assert not matches(0.5, 0.51)
    assert matches(0.5, 0.51, tolerance=0.02)
    assert not matches(1, True)
    assert not matches("1", 1)


def test_operators():
    assert matches({"x": {"$absent": True}}, {"y": 1})
    assert not matches({"x": {"$absent": True}}, {"x": None})
    assert matches({"x": {"$any": True}}, {"x": None})
    assert not matches({"x": {"$any": True}}, {})
    events = [{"type": "a"}, {"type": "b"}, {"type": "c"}]
    assert matches({"$contains": [{"type": "a"}, {"type": "c"}]}, events)
    assert not matches({"$contains": [{"type": "c"}, {"type": "a"}]}, events)


def test_mismatches_name_the_path():
    found = mismatches({"views": [{"alpha": 1}]}, {"views": [{"alpha": 0.5}]})
    assert found == [("views.0.alpha", "1", "0.5")]
    assert describe(found) == "at views.0.alpha: expected 1, got 0.5"
    assert mismatches({"a": 1}, {}) == [("a", "1", "nothing (no such key)")]


def test_the_shared_cases_match_as_the_swift_matcher_does():
    """Tests/Fixtures/matching-cases.json is read by JSONMatcherTests.swift too: both matchers agree on each case."""
    import json
    import os

    path = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "matching-cases.json")
    with open(path) as f:
        cases = json.load(f)
    assert len(cases) >= 20
    for case in cases:
        assert matches(case["expected"], case["actual"]) is case["matches"], case


def test_near_misses_rank_the_right_type_by_differing_fields():
    from segued import match

    events = [
        {"type": "transition.began", "seq": 1, "transition": "t-1"},
        {"type": "transition.completed", "seq": 2, "transition": "t-2", "completed": False},
        {"type": "transition.completed", "seq": 3, "transition": "t-1", "completed": False},
        {"type": "transition.completed", "seq": 4, "transition": "t-1", "completed": True},
    ]
    expected = {"type": "transition.completed", "transition": "t-1", "completed": True}
    found = match.near_misses(expected, events)
    assert [index for index, _, _ in found] == [2, 1]
    text = match.describe_near_misses(expected, events)
    assert text.splitlines()[0] == "near miss #3 (transition.completed, seq 3), 1 field differs:"
    assert "  at completed: expected true, got false" in text
    # With no event of the wanted type, the closest of any type are shown.
    assert [i for i, _, _ in match.near_misses({"type": "x.y", "seq": 1}, events[:1])] == [0]
    assert match.describe_near_misses(expected, []) == ""


def test_the_protocols_shorthands_match_as_the_scenario_runner_matches_them():
    """One list with Sources/SegueCtlKit/Shorthand.swift (and the shared cases above)."""
    from segued import match

    identity = {"a": 1, "b": 0, "c": 0, "d": 1, "tx": 0, "ty": 0}
    assert matches({"transform": "identity"}, {"transform": identity})
    assert matches({"transform": "identity"}, {"transform": {"m": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}})
    assert mismatches({"transform": "identity"}, {"transform": dict(identity, tx=5)}) == [
        ("transform", '"identity"', '{"a":1,"b":0,"c":0,"d":1,"tx":5,"ty":0}')]
    assert matches({"color": "#FF3B30"}, {"color": "#ff3b30ff"})
    assert not matches({"color": "#ff3b30"}, {"color": "#ff3b3080"})
    assert len(match.SHORTHANDS) == 3
