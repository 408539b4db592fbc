"""Motion snapshots from Python: the same ``NAME.motion.json`` files (format ``segued-motion``, version 1) that
``seguectl test --record`` writes and compares (Sources/SegueCtlKit/MotionSnapshot.swift, MotionRecorder.swift,
MotionPicture.swift), so a snapshot recorded by one is checked by the other.

    segued.record_motion()                         # before the transitions (the pytest fixture's client)
    ...                                            # drive the scene on its manual clock
    assert_motion(segued, segued.scene, "tab select cross-dissolve", tolerance="alpha=0.01")

The file is written with the same text seguectl writes (one value per line down to each frame's views, scenarios
sorted by name), and compared the same way: the same transitions, the same events (times within the ``time``
tolerance), the same number of frames, and every view's values within its property's tolerance. On a difference,
an SVG beside the snapshot shows each property that moved differently (old curve grey and dashed, new one red) and
the first differing frame, old and new side by side.
"""

import inspect
import json
import math
import os

from . import drawing as _drawing
from . import match as _match

FORMAT = "segued-motion"
VERSION = 1

#: How ``assert_motion`` treats a snapshot when not told: ``"compare"`` (a missing snapshot fails), ``"record"``
#: (write it when missing) or ``"update"`` (write it anew); ``tolerance`` the default tolerance. The pytest plugin
#: sets these from ``--segued-record-motion``, ``--segued-update-motion`` and the ini settings.
settings = {"mode": "compare", "tolerance": None}


class MotionMismatch(AssertionError):
    """The motion differs from its snapshot (or there is none to compare with): ``path`` is the snapshot,
    ``picture`` the SVG written (or None), ``difference`` the ``MotionDifference`` (None for a missing snapshot)."""

    def __init__(self, message, path, picture=None, difference=None):
        self.path = path
        self.picture = picture
        self.difference = difference
        super().__init__(message)


# JSON text as SegueJSON writes it ------------------------------------------------------------------------------

def _number_text(n):
    """Whole numbers under 1e15 as integers, others as the shortest repr (Swift's ``Double.description``)."""
    n = float(n)
    if not math.isfinite(n):
        return "null"
    if n == int(n) and abs(n) < 1e15:
        return str(int(n))
    return repr(n)


def _string_text(s):
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def serialized(value):
    """Compact JSON text on one line, byte for byte as seguectl writes it."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number_text(value)
    if isinstance(value, str):
        return _string_text(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(serialized(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(_string_text(str(k)) + ":" + serialized(v) for k, v in value.items()) + "}"
    raise TypeError("not a JSON value: %r" % (value,))


def _pretty(value, indent, key=None):
    pad, end = "  " * (indent + 1), "  " * indent
    if isinstance(value, dict) and key not in ("views", "events") and value and indent < 6:
        inner = ["%s%s: %s" % (pad, _string_text(k), _pretty(v, indent + 1, k)) for k, v in value.items()]
        return "{\n" + ",\n".join(inner) + "\n" + end + "}"
    if isinstance(value, list) and value and key in ("transitions", "frames", "events"):
        inner = [pad + (serialized(v) if key == "events" else _pretty(v, indent + 1)) for v in value]
        return "[\n" + ",\n".join(inner) + "\n" + end + "]"
    return serialized(value)


def text(scenarios):
    """The file's text for these scenarios (sorted by name), exactly as seguectl writes it."""
    root = {"format": FORMAT, "version": VERSION, "scenarios": dict(sorted(scenarios.items()))}
    return _pretty(root, 0) + "\n"


def load(path):
    """The snapshot's scenarios by name; None when there is no file. A file that is not a snapshot of this version
    raises ``ValueError`` (it is never overwritten by a compare)."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        try:
            value = json.load(f)
        except ValueError as error:
            raise ValueError("%s is not valid JSON: %s" % (path, error)) from None
    if not isinstance(value, dict) or value.get("format") != FORMAT or not isinstance(value.get("version"), int):
        raise ValueError('%s is not a motion snapshot (no "format": "%s")' % (path, FORMAT))
    if value["version"] != VERSION:
        raise ValueError("%s is motion snapshot version %s; this client reads version %d (re-record with "
                         "--segued-update-motion)" % (path, value["version"], VERSION))
    scenarios = value.get("scenarios")
    return scenarios if isinstance(scenarios, dict) else {}


def snapshot_path(test_file):
    """``tests/test_flip.py`` → ``tests/test_flip.motion.json`` (``flip.json`` → ``flip.motion.json`` as seguectl)."""
    base = test_file
    for suffix in (".json", ".py"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    return base + ".motion.json"


# Recording -----------------------------------------------------------------------------------------------------

def _rounded(t):
    """Scene times are multiples of a frame: rounding to 1e-9 s keeps a snapshot free of float noise."""
    return _swift_round(t * 1e9) / 1e9


def _swift_round(x):
    """Half away from zero, as Swift's ``rounded()``."""
    return math.copysign(math.floor(abs(x) + 0.5), x)


class MotionRecorder:
    """A scene's transitions as ``seguectl test --record`` records them: each transition's events from its
    ``transition.began`` to its ``transition.completed``, the views as it began (``start``) and every ``frame``
    event's presentation values; times relative to the transition's start, ``seq`` and ``scene`` left out."""

    # seguectl's MotionRecorder.startKeys: `frame`, the properties not part of it in the table's order, and
    # `anchor_point` (a tree node carries it only when it is not CA's default).
    START_KEYS = ("frame", "alpha", "transform", "hidden", "color", "corner_radius", "z", "anchor_point",
                  "sublayer_transform", "double_sided", "border_width", "border_color", "shadow_color",
                  "shadow_opacity", "shadow_radius", "shadow_offset", "clips_to_bounds")

    def __init__(self, scene=None):
        self.scene = scene
        self._running = []
        self._finished = []

    def take(self, event):
        """Takes every event of the scene, in order."""
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return
        kind = event["type"]
        time = event.get("time") if _match._is_number(event.get("time")) else 0
        if kind == "transition.began" and isinstance(event.get("transition"), str):
            record = {"transition": event["transition"]}
            for key in ("kind", "from", "to", "animator", "interactive", "duration"):
                if key in event:
                    record[key] = event[key]
            self._running.append({"id": event["transition"], "began": time, "record": record, "events": [],
                                  "frames": []})
        if kind == "frame":
            views = event.get("views")
            if not isinstance(views, list):
                return
            for running in self._running:
                running["frames"].append({"time": _rounded(time - running["began"]), "views": views})
            return
        transition = event.get("transition")
        for running in self._running:
            if transition is None or transition == running["id"]:
                kept = {}
                for key, value in event.items():
                    if key in ("seq", "scene"):
                        continue
                    kept[key] = _rounded(time - running["began"]) if key == "time" else value
                running["events"].append(kept)
        if kind == "transition.completed" and isinstance(transition, str):
            for i, running in enumerate(self._running):
                if running["id"] == transition:
                    done = self._running.pop(i)
                    record = done["record"]
                    record["events"] = done["events"]
                    record["frames"] = done["frames"]
                    self._finished.append((done["began"], record))
                    break

    @property
    def wants_start(self):
        """A transition began and its views as they began are not taken yet."""
        return any("start" not in r["record"] and not r["frames"] for r in self._running)

    def start(self, tree):
        """The view tree (``scene.tree {presentation: true}``'s ``views``) as the transitions that just began
        started: each view's presentation values, flat, as the transition's ``start``."""
        views = []

        def walk(node, parent):
            if not isinstance(node, dict) or "id" not in node:
                return
            values = {"id": node["id"], "parent": parent}
            for key in self.START_KEYS:
                if key in node:
                    values[key] = node[key]
            now = node.get("presentation")
            if isinstance(now, dict):
                for k, v in now.items():
                    if k != "id":
                        values[k] = v
            views.append(values)
            for child in node.get("subviews") or []:
                walk(child, node["id"])

        walk(tree, None)
        for running in self._running:
            if "start" not in running["record"] and not running["frames"]:
                running["record"]["start"] = views

    @property
    def entry(self):
        """The scene's entry: ``{"transitions": [...]}`` in start order (one still running is kept with what it
        did so far, ``"unfinished": true``)."""
        records = [(began, dict(record)) for began, record in self._finished]
        for running in self._running:
            record = dict(running["record"])
            record["events"] = list(running["events"])
            record["frames"] = list(running["frames"])
            record["unfinished"] = True
            records.append((running["began"], record))
        return {"transitions": [record for _, record in records]}


# Comparing -----------------------------------------------------------------------------------------------------

class Tolerance:
    """Per-property tolerances: ``alpha=0.01,frame=0.5``; a key is a view property (``alpha``, ``frame``,
    ``transform``, ``corner_radius``, …), ``time`` (frame and event times) or ``*`` (every other number); a bare
    number sets ``*``. Default 1e-6. Also from a dict (``{"alpha": 0.01}``) or a number."""

    def __init__(self, by_property=None, other=1e-6):
        self.by_property = dict(by_property or {})
        self.other = other

    @classmethod
    def parse(cls, value):
        if value is None:
            return cls()
        if isinstance(value, Tolerance):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return cls(other=cls._check(value, "*"))
        if isinstance(value, dict):
            out = cls()
            for key, number in value.items():
                if key == "*":
                    out.other = cls._check(number, key)
                else:
                    out.by_property[key] = cls._check(number, key)
            return out
        if isinstance(value, str):
            out = cls()
            for part in value.split(","):
                pieces = [p.strip() for p in part.split("=", 1)]
                if len(pieces) == 1:
                    out.other = cls._check(_float(pieces[0], value), value)
                    continue
                if not pieces[0]:
                    raise ValueError("tolerance %r: PROPERTY=NUMBER pairs, e.g. alpha=0.01,frame=0.5" % value)
                number = cls._check(_float(pieces[1], value), value)
                if pieces[0] == "*":
                    out.other = number
                else:
                    out.by_property[pieces[0]] = number
            return out
        raise ValueError("tolerance %r: a number, a dict or PROPERTY=NUMBER pairs" % (value,))

    @staticmethod
    def _check(number, what):
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number) or number < 0:
            raise ValueError("tolerance %r: each must be a finite number ≥ 0" % (what,))
        return float(number)

    def of(self, prop):
        return self.by_property.get(prop, self.other)


def _float(text, whole):
    try:
        return float(text)
    except ValueError:
        raise ValueError("tolerance %r: PROPERTY=NUMBER pairs, e.g. alpha=0.01,frame=0.5" % whole) from None


class MotionDifference:
    """Where a new motion first differs from its snapshot: ``transition`` (index), ``frame`` (index, the start as
    0; None when the difference is not in a frame), ``description``, and ``moved``: the ``(view, property)`` pairs
    whose values differ somewhere."""

    def __init__(self, transition, frame, description, moved):
        self.transition = transition
        self.frame = frame
        self.description = description
        self.moved = moved

    def __repr__(self):
        return "MotionDifference(%r)" % self.description


def format_number(n, decimals=2):
    """A number with at most ``decimals`` decimals and no trailing zeros (seguectl's ``Format.number``)."""
    if not math.isfinite(n):
        return "nan" if math.isnan(n) else ("inf" if n > 0 else "-inf")
    scale = 1.0
    for _ in range(max(0, decimals)):
        scale *= 10
    rounded = _swift_round(n * scale) / scale
    if rounded == 0:
        return "0"
    if rounded == _swift_round(rounded) and abs(rounded) < 1e15:
        return str(int(rounded))
    out = repr(rounded)
    if "e" in out:
        return out
    out = out.rstrip("0")
    return out[:-1] if out.endswith(".") else out


def _truncate(s, limit):
    return s[: limit - 1] + "…" if len(s) > limit > 1 else s


_ABSENT = object()


def _compact(value, limit=160):
    return "nothing" if value is _ABSENT else _truncate(serialized(value), limit)


def _summary(event):
    if not isinstance(event, dict):
        return _compact(event)
    parts = [event.get("type") if isinstance(event.get("type"), str) else "?"]
    for key, value in event.items():
        if key in ("type", "seq", "scene", "time"):
            continue
        if isinstance(value, str):
            shown = value
        elif _match._is_number(value):
            shown = format_number(value, 4)
        else:
            shown = _compact(value, 60)
        parts.append("%s=%s" % (key, shown))
    return " ".join(parts)


def frame_name(index):
    """Frame 0 is the views as the transition began (``start``); frames count from 1."""
    return "the start" if index == 0 else "frame %d" % index


def _views(frame):
    out = {}
    for view in (frame.get("views") if isinstance(frame, dict) else None) or []:
        if isinstance(view, dict) and isinstance(view.get("id"), str):
            values = dict(view)
            del values["id"]
            out[view["id"]] = values
    return out


def _both_ways(a, b, tol):
    return _match.matches(a, b, tol) and _match.matches(b, a, tol)


def compare(old, new, tolerance=None):
    """None when ``new`` matches ``old`` (two scenario entries) within the tolerances, else the first
    ``MotionDifference`` — the same verdict and text as ``seguectl test``."""
    tolerance = Tolerance.parse(tolerance)
    old_t = (old or {}).get("transitions") or []
    new_t = (new or {}).get("transitions") or []
    if len(old_t) != len(new_t):
        return MotionDifference(min(len(old_t), len(new_t)), None,
                                "%d transitions, the snapshot has %d" % (len(new_t), len(old_t)), [])
    for i, (o, n) in enumerate(zip(old_t, new_t)):
        name = "transition %d (%s, %s)" % (i + 1, _str_or(n.get("transition")), _str_or(n.get("animator")))
        for key in ("transition", "kind", "from", "to", "animator", "interactive"):
            ov, nv = o.get(key, _ABSENT), n.get(key, _ABSENT)
            if _compact(ov, 10 ** 9) != _compact(nv, 10 ** 9):
                return MotionDifference(i, None, "%s: %s %s, the snapshot has %s" % (name, key, _compact(nv), _compact(ov)),
                                        [])
        time_tol = tolerance.of("time")
        oe, ne = o.get("events") or [], n.get("events") or []
        differing = [k for k, (a, b) in enumerate(zip(oe, ne)) if not _both_ways(a, b, time_tol)]
        if len(oe) != len(ne) or differing:
            at = differing[0] if differing else min(len(oe), len(ne))
            got = _summary(ne[at]) if at < len(ne) else "nothing"
            was = _summary(oe[at]) if at < len(oe) else "nothing"
            return MotionDifference(i, None, "%s: event %d is %s, the snapshot has %s" % (name, at + 1, got, was), [])
        of = [{"time": 0, "views": o.get("start")}] + list(o.get("frames") or [])
        nf = [{"time": 0, "views": n.get("start")}] + list(n.get("frames") or [])
        first = None
        moved = []
        if len(of) != len(nf):
            first = (min(len(of), len(nf)), "%d frames, the snapshot has %d" % (len(nf) - 1, len(of) - 1))
        for f, (ofr, nfr) in enumerate(zip(of, nf)):
            ot, nt = ofr.get("time"), nfr.get("time")
            if _match._is_number(ot) and _match._is_number(nt) and not abs(ot - nt) <= time_tol and first is None:
                first = (f, "%s at %s s, the snapshot's at %s s" % (frame_name(f), format_number(nt, 6),
                                                                   format_number(ot, 6)))
            ov, nv = _views(ofr), _views(nfr)
            for view in sorted(set(ov) | set(nv)):
                a, b = ov.get(view, {}), nv.get(view, {})
                for prop in sorted(set(a) | set(b)):
                    t = tolerance.of(prop)
                    same = prop in a and prop in b and _both_ways(a[prop], b[prop], t)
                    if same:
                        continue
                    if (view, prop) not in moved:
                        moved.append((view, prop))
                    if first is None:
                        when = format_number(nfr.get("time") if _match._is_number(nfr.get("time")) else 0, 4)
                        first = (f, "%s (t = %s s): %s %s %s, the snapshot has %s (tolerance %s)" % (
                            frame_name(f), when, view, prop, _compact(b.get(prop, _ABSENT), 80),
                            _compact(a.get(prop, _ABSENT), 80), format_number(t, 9)))
        if first is not None:
            return MotionDifference(i, first[0], "%s: %s" % (name, first[1]), moved)
    return None


def _str_or(value):
    return value if isinstance(value, str) else "?"


# The picture ---------------------------------------------------------------------------------------------------

def _n(x):
    return format_number(x, 2)


def _xml(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _svg_text(x, y, s, size=11, bold=False, color="#222222"):
    return '<text x="%s" y="%s" font-size="%s" fill="%s"%s>%s</text>\n' % (
        _n(x), _n(y), _n(size), color, ' font-weight="bold"' if bold else "", _xml(s))


def _states(transition):
    current = _views({"views": transition.get("start")})
    out = [current]
    for frame in transition.get("frames") or []:
        current = dict(current)
        for view, values in _views(frame).items():
            merged = dict(current.get(view, {}))
            merged.update(values)
            current[view] = merged
        out.append(current)
    return out


def _components(value):
    if isinstance(value, bool):
        return [("", 1.0 if value else 0.0)]
    if _match._is_number(value):
        return [("", float(value))]
    if isinstance(value, dict):
        if isinstance(value.get("m"), list):
            return [("m%d" % (i + 1), float(v)) for i, v in enumerate(value["m"]) if _match._is_number(v)]
        return [(k, float(v)) for k, v in value.items() if _match._is_number(v)]
    return []


def _clamp(prop, x):
    if prop == "alpha":
        return min(max(x, 0.0), 1.0)
    if prop == "corner_radius":
        return max(x, 0.0)
    return x


def _chart(label, old, new, x, y, w, h, mark):
    values = [v for v in old + new if v is not None]
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5
    count = max(len(old), len(new), 2)

    def px(i):
        return x + i / (count - 1) * w

    def py(v):
        return y + 16 + h - (v - lo) / (hi - lo) * h

    out = _svg_text(x, y + 10, label, bold=True)
    out += '<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#dddddd"/>\n' % (_n(x), _n(y + 16), _n(w), _n(h))
    out += _svg_text(x + w + 2, y + 20, format_number(hi, 3), color="#888888")
    out += _svg_text(x + w + 2, y + 16 + h, format_number(lo, 3), color="#888888")
    if mark is not None:
        out += '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#f5a623"/>\n' % (_n(px(mark)), _n(y + 16), _n(px(mark)),
                                                                             _n(y + 16 + h))

    def line(series, color, dash):
        points = ["%s,%s" % (_n(px(i)), _n(py(v))) for i, v in enumerate(series) if v is not None]
        if not points:
            return ""
        return '<polyline fill="none" stroke="%s" stroke-width="1.5"%s points="%s"/>\n' % (
            color, ' stroke-dasharray="4 3"' if dash else "", " ".join(points))

    return out + line(old, "#888888", True) + line(new, "#d0021b", False)


def _panel(state, order, x, y, w, h, scale, prefix):
    """One frame's views drawn as the filmstrip draws them (``drawing``: seguectl's StateDrawing), scaled into the
    panel; ``prefix`` keeps the two panels' element ids apart."""
    out = '<rect x="%s" y="%s" width="%s" height="%s" fill="#f4f4f4" stroke="#cccccc"/>\n' % (_n(x), _n(y), _n(w), _n(h))
    out += '<svg x="%s" y="%s" width="%s" height="%s"><g transform="scale(%s)">\n' % (
        _n(x), _n(y), _n(w), _n(h), format_number(scale, 6))
    out += _drawing.svg(state, order, 11 / max(scale, 1e-6), prefix)
    return out + "</g></svg>\n"


def picture(old, new, difference, scene_size=(320, 480), title="motion difference"):
    """The SVG of a difference, as seguectl draws it: each property that moved differently, the snapshot's curve
    (grey, dashed) and the new one (red) over the frames with the first differing frame marked; then that frame
    from the snapshot and from the new run side by side, each view as the filmstrip draws it (alpha clamped to 0…1,
    a negative corner radius as 0)."""
    old_t, new_t = (old or {}).get("transitions") or [], (new or {}).get("transitions") or []
    i = difference.transition
    old_frames = _states(old_t[i]) if i < len(old_t) else []
    new_frames = _states(new_t[i]) if i < len(new_t) else []
    series = []
    for view, prop in difference.moved:
        names = []
        for state in old_frames + new_frames:
            for name, _ in _components((state.get(view) or {}).get(prop)):
                if name not in names:
                    names.append(name)
        for name in names:
            def values(frames):
                out = []
                for state in frames:
                    found = [v for c, v in _components((state.get(view) or {}).get(prop)) if c == name]
                    out.append(_clamp(prop, found[0]) if found else None)
                return out

            o, n = values(old_frames), values(new_frames)
            if o == n:
                continue
            series.append(("%s %s%s" % (view, prop, "." + name if name else ""), o, n))
    series = series[:12]
    chart_w, chart_h, margin = 360.0, 120.0, 16.0
    sw, sh = float(scene_size[0]), float(scene_size[1])
    scale = min(1.0, 240 / max(sw, sh / 1.5))
    panel_w, panel_h = sw * scale, sh * scale
    columns = 2
    rows = math.ceil(len(series) / columns)
    charts_height = rows * (chart_h + 36)
    width = max(columns * (chart_w + margin) + margin, 2 * (panel_w + margin) + margin)
    top = 64.0
    height = top + charts_height + (0 if difference.frame is None else panel_h + 56) + margin
    out = '<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" font-family="sans-serif" font-size="11">\n' % (
        _n(width), _n(height))
    out += '<rect width="100%" height="100%" fill="#ffffff"/>\n'
    out += _svg_text(margin, 20, _truncate(title, 110), size=13, bold=True)
    out += _svg_text(margin, 36, _truncate(difference.description, 150))
    out += (_svg_text(margin, 52, "- - snapshot (old)", color="#888888")
            + _svg_text(margin + 120, 52, "—— new", color="#d0021b")
            + _svg_text(margin + 200, 52, "| first differing frame", color="#f5a623"))
    for k, (label, o, n) in enumerate(series):
        x = margin + (k % columns) * (chart_w + margin)
        y = top + (k // columns) * (chart_h + 36)
        out += _chart(label, o, n, x, y, chart_w, chart_h, difference.frame)
    f = difference.frame
    if f is not None:
        y = top + charts_height + 20
        out += _svg_text(margin, y - 4, "%s: snapshot" % frame_name(f), bold=True)
        out += _svg_text(margin * 2 + panel_w, y - 4, "%s: new" % frame_name(f), bold=True)
        start = new_t[i].get("start") if i < len(new_t) else None
        order = [v["id"] for v in (start or []) if isinstance(v, dict) and isinstance(v.get("id"), str)]
        out += _panel(old_frames[f] if f < len(old_frames) else {}, order, margin, y, panel_w, panel_h, scale, "old")
        out += _panel(new_frames[f] if f < len(new_frames) else {}, order, margin * 2 + panel_w, y, panel_w, panel_h,
                      scale, "new")
    return out + "</svg>\n"


def slug(name):
    """A scenario name as a file name part: letters and digits, the rest ``-`` (as seguectl names pictures)."""
    out = ""
    for c in name.lower():
        if c.isalnum():
            out += c
        elif not out.endswith("-"):
            out += "-"
    return out.rstrip("-")[:60]


# The assertion -------------------------------------------------------------------------------------------------

def _caller_file():
    """The first frame outside this package: the test that asked."""
    here = os.path.dirname(os.path.abspath(__file__))
    for frame_info in inspect.stack()[2:]:
        name = os.path.abspath(frame_info.filename)
        if os.path.dirname(name) != here:
            return name
    return os.path.abspath("motion")


def _scene_size(client, scene):
    try:
        for entry in client.call("scene.list"):
            if entry.get("scene") == scene and isinstance(entry.get("size"), dict):
                return entry["size"].get("w", 320), entry["size"].get("h", 480)
    except Exception:  # the picture's size only; a scene that is gone is drawn at the default
        pass
    return 320, 480


def assert_motion(client, scene, name, tolerance=None, snapshot=None, mode=None):
    """Asserts that the motion ``client`` recorded for ``scene`` (``client.record_motion(scene)`` before the
    transitions) matches the snapshot ``name`` in ``snapshot`` (default: the calling test file's
    ``NAME.motion.json``, e.g. ``test_flip.py`` → ``test_flip.motion.json``; a ``seguectl`` snapshot such as
    ``Tests/Scenarios/flip.motion.json`` is read the same way, ``name`` then being the scenario's name).

    ``tolerance``: ``"alpha=0.01,frame=0.5"``, ``{"alpha": 0.01}`` or a number (default: the ``segued_motion_tolerance``
    setting, else 1e-6). ``mode``: ``"compare"`` (a missing snapshot fails), ``"record"`` (write it when missing) or
    ``"update"`` (write it anew); default from ``--segued-record-motion``/``--segued-update-motion``.

    On a difference raises ``MotionMismatch`` naming the first differing frame and property, with an SVG of the old
    and new curves written beside the snapshot (``NAME.SCENARIO.motion-diff.svg``)."""
    __tracebackhide__ = True
    recorder = client.motion_recorder(scene)
    if recorder is None:
        raise AssertionError("no motion recorded for scene %r on this client: call client.record_motion(%r) before "
                             "the transitions" % (scene, scene))
    mode = mode or settings.get("mode") or "compare"
    if mode not in ("compare", "record", "update"):
        raise ValueError("mode %r: one of compare, record, update" % mode)
    tolerance = Tolerance.parse(tolerance if tolerance is not None else settings.get("tolerance"))
    path = os.path.abspath(snapshot) if snapshot else snapshot_path(_caller_file())
    new = recorder.entry
    scenarios = load(path)
    old = (scenarios or {}).get(name)
    if mode == "update" or (old is None and mode == "record"):
        merged = dict(scenarios or {})
        merged[name] = json.loads(json.dumps(new))
        with open(path, "w", encoding="utf-8") as f:
            f.write(text(merged))
        return None
    if old is None:
        raise MotionMismatch("motion: no snapshot %r in %s (run with --segued-record-motion to write it)"
                             % (name, path), path)
    difference = compare(old, new, tolerance)
    if difference is None:
        return None
    message = "motion differs from %s: %s" % (path, difference.description)
    base = os.path.basename(path)
    base = base[: -len(".motion.json")] if base.endswith(".motion.json") else base
    picture_path = os.path.join(os.path.dirname(path), "%s.%s.motion-diff.svg" % (base, slug(name)))
    svg = picture(old, new, difference, _scene_size(client, scene), "%s — motion difference" % name)
    try:
        with open(picture_path, "w", encoding="utf-8") as f:
            f.write(svg)
        message += "\npicture: %s" % picture_path
    except OSError as error:
        message += "\n(could not write the picture %s: %s)" % (picture_path, error)
        picture_path = None
    message += "\naccept the new motion with --segued-update-motion"
    raise MotionMismatch(message, path, picture_path, difference)
