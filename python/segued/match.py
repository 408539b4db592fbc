"""Partial matching of an expected JSON value against an actual one, as scenario files use it
(Sources/SegueCtlKit/JSONMatcher.swift; the two are kept equal by tests on both sides).

- objects match when every listed key matches (other keys are ignored), recursively;
- arrays match when they have the same length and match element by element;
- numbers match when they differ by at most ``tolerance`` (absolute);
- strings, booleans and null match when equal;
- the protocol's input shorthands match what the daemon answers (docs/PROTOCOL.md "Value shapes"), as
  ``Sources/SegueCtlKit/Shorthand.swift`` does (``SHORTHANDS`` lists them): a transform written ``"identity"``
  matches the identity matrix in either form, a 2-D ``{a, b, c, d, tx, ty}`` matches the same matrix written
  ``{m: [16]}`` and back, and a color ``#rrggbb`` matches ``#rrggbbff`` (hex digits in either case).

An object whose keys all start with ``$`` is an operator:
``{"$contains": [a, b]}`` (the actual array has elements matching a, then b, in that order),
``{"$absent": True}`` (the key is not there), ``{"$any": True}`` (the key is there, any value).

``near_misses`` and ``describe_near_misses`` say which of several values came closest, field by field: what a
timeout waiting for an event shows.
"""

import json

OPERATORS = ("$contains", "$absent", "$any")
_MISSING = object()

#: The shorthands an expectation may use, one list with the scenario runner's (Sources/SegueCtlKit/Shorthand.swift;
#: the shared cases in Tests/Fixtures/matching-cases.json hold both matchers to it).
SHORTHANDS = ('"identity" for a transform', "{a, b, c, d, tx, ty} for {m: [16]} and back",
              "#rrggbb for #rrggbbff (hex digits in either case)")

_IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]


def _color(text):
    """``#rrggbb`` or ``#rrggbbaa`` as lowercase ``rrggbbaa``; None for anything else."""
    if not (isinstance(text, str) and text.startswith("#") and len(text) in (7, 9)):
        return None
    digits = text[1:].lower()
    if not all(c in "0123456789abcdef" for c in digits):
        return None
    return digits + "ff" if len(digits) == 6 else digits


def _matrix(value, allow_name):
    """A transform's 16 row-major values: ``"identity"`` (when allowed), ``{a, b, c, d, tx, ty}`` or ``{m: [16]}``."""
    if value == "identity" and allow_name:
        return _IDENTITY
    if not isinstance(value, dict):
        return None
    if len(value) == 1 and isinstance(value.get("m"), list):
        values = [v for v in value["m"] if _is_number(v)]
        return values if len(values) == 16 and len(value["m"]) == 16 else None
    keys = ("a", "b", "c", "d", "tx", "ty")
    if len(value) != 6 or not all(_is_number(value.get(k)) for k in keys):
        return None
    a, b, c, d, tx, ty = (value[k] for k in keys)
    # CATransform3DMakeAffineTransform: m11 m12 / m21 m22 / m41 m42, row-major.
    return [a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1]


def _shorthand(expected, actual, tol):
    """None when neither value is a shorthand (compare as plain JSON); else whether the two mean the same."""
    if isinstance(expected, str) and isinstance(actual, str):
        e, a = _color(expected), _color(actual)
        if e is None or a is None:
            return None
        return e == a
    e, a = _matrix(expected, True), _matrix(actual, False)
    if e is None or a is None:
        return None
    # Two objects of the same form compare as plain JSON (which reports per key).
    if isinstance(expected, dict) and (("m" in expected) == ("m" in actual)):
        return None
    return all(abs(x - y) <= tol for x, y in zip(e, a))


def _compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _type_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def mismatches(expected, actual, tolerance=1e-6, path=""):
    """Every difference as ``(path, expected, got)`` text; empty when ``actual`` matches ``expected``.
    Pass ``actual=segued.match.MISSING`` for a key that is absent."""
    out = []
    _compare(expected, actual, path, tolerance, out)
    return out


MISSING = _MISSING


def matches(expected, actual, tolerance=1e-6):
    """True when ``actual`` matches ``expected``."""
    return not mismatches(expected, actual, tolerance)


def describe(found):
    """The difference text for a list of mismatches, one per line, as seguectl prints it."""
    return "\n".join("at %s: expected %s, got %s" % (p or "(root)", e, g) for p, e, g in found)


def _join(path, segment):
    return "%s.%s" % (path, segment) if path else str(segment)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _compare(expected, actual, path, tol, out):
    if isinstance(expected, dict) and expected and all(k.startswith("$") for k in expected):
        if len(expected) != 1:
            out.append((path, "one operator per object", "%s in the expectation" % ", ".join(expected)))
            return
        (op, argument), = expected.items()
        _operator(op, argument, actual, path, tol, out)
        return
    if actual is _MISSING:
        out.append((path, _compact(expected), "nothing (no such key)"))
        return
    same = _shorthand(expected, actual, tol)
    if same is not None:
        if not same:
            out.append((path, _compact(expected), _compact(actual)))
        return
    if _is_number(expected) and _is_number(actual):
        if not abs(expected - actual) <= tol:
            out.append((path, _compact(expected), _compact(actual)))
    elif isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            _compare(value, actual.get(key, _MISSING), _join(path, key), tol, out)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append((path, "%d element%s %s" % (len(expected), "" if len(expected) == 1 else "s", _compact(expected)),
                        "%d: %s" % (len(actual), _compact(actual))))
            return
        for i, (e, a) in enumerate(zip(expected, actual)):
            _compare(e, a, _join(path, i), tol, out)
    elif not (expected == actual and _type_name(expected) == _type_name(actual)):
        same = _type_name(expected) == _type_name(actual) or actual is None
        got = _compact(actual) if same else "%s %s" % (_type_name(actual), _compact(actual))
        out.append((path, _compact(expected), got))


def _operator(op, argument, actual, path, tol, out):
    if op == "$absent":
        if actual is not _MISSING:
            out.append((path, "no such key", _compact(actual)))
    elif op == "$any":
        if actual is _MISSING:
            out.append((path, "a value", "nothing (no such key)"))
    elif op == "$contains":
        if not isinstance(argument, list):
            out.append((path, "an array after $contains", "%s in the expectation" % _type_name(argument)))
            return
        if not isinstance(actual, list):
            got = "nothing (no such key)" if actual is _MISSING else "%s %s" % (_type_name(actual), _compact(actual))
            out.append((path, "an array containing %s" % _compact(argument), got))
            return
        start = 0
        for i, wanted in enumerate(argument):
            found = next((j for j in range(start, len(actual)) if matches(wanted, actual[j], tol)), None)
            if found is None:
                out.append((path, "elements matching %s in order (element %d %s not found)"
                            % (_compact(argument), i, _compact(wanted)), _compact(actual)))
                return
            start = found + 1
    else:
        out.append((path, "one of %s" % ", ".join(OPERATORS), "unknown operator %s in the expectation" % op))


def near_misses(expected, candidates, tolerance=1e-6, limit=3):
    """The candidates that came closest to matching ``expected``, best first: ``(index, candidate, mismatches)``
    for at most ``limit`` of them. Closest means fewest differing fields; a candidate whose ``type`` differs from an
    expected ``type`` counts only when no candidate of that type was seen (a near miss is the right event with a
    wrong field, not any event at all). Matching candidates are left out."""
    scored = []
    for index, candidate in enumerate(candidates):
        found = mismatches(expected, candidate, tolerance)
        if found:
            same_type = not (isinstance(expected, dict) and "type" in expected and isinstance(candidate, dict)
                             and not matches(expected["type"], candidate.get("type", MISSING), tolerance))
            scored.append((0 if same_type else 1, len(found), index, candidate, found))
    if any(rank == 0 for rank, *_ in scored):
        scored = [entry for entry in scored if entry[0] == 0]
    scored.sort(key=lambda entry: (entry[1], entry[2]))
    return [(index, candidate, found) for _, _, index, candidate, found in scored[:limit]]


def describe_near_misses(expected, candidates, tolerance=1e-6, limit=3):
    """Text for an assertion message: each near miss (``near_misses``) with its differing fields, as seguectl
    prints differences; ``""`` when there were no candidates."""
    lines = []
    for index, candidate, found in near_misses(expected, candidates, tolerance, limit):
        label = candidate.get("type", "?") if isinstance(candidate, dict) else _type_name(candidate)
        seq = candidate.get("seq") if isinstance(candidate, dict) else None
        lines.append("near miss #%d (%s%s), %d field%s differ%s:" % (
            index + 1, label, "" if seq is None else ", seq %s" % seq, len(found), "" if len(found) == 1 else "s",
            "s" if len(found) == 1 else ""))
        lines.extend("  " + line for line in describe(found).split("\n"))
    return "\n".join(lines)
