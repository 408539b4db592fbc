"""Views drawn as seguectl's motion pictures draw them: SegueRender's ``StateDrawing`` (the protocol's view values
read back) over ``SceneDrawing``, ``LayerLook``, ``Projection`` and ``ProjectedQuad``, line for line, so a picture
the client draws is byte-equal to seguectl's. About the anchor point, 3-D transforms projected under the superview's
sublayer transform and clipped at the eye plane, z order, double-sidedness, shadow, border, clip and mask."""

import math

from . import match as _match

_EYE = 1e-6
_MAX_DEPTH = 128  # Scene.maxViewDepth
_IDENTITY = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
_MASK_PARENT = -2


def _round(x):
    return math.copysign(math.floor(abs(x) + 0.5), x)


def num(value, digits=2):
    """SVG.num: at most ``digits`` decimals, trailing zeros dropped, no ``-0``; non-finite as 0."""
    if not math.isfinite(value):
        return "0"
    scale = math.pow(10, digits)
    rounded = _round(value * scale) / scale
    if rounded == 0:
        rounded = 0.0
    negative = rounded < 0
    magnitude = abs(rounded)
    if not magnitude < 1e15:
        return "-1e15" if negative else "1e15"
    whole = math.floor(magnitude)
    text = str(int(whole))
    fraction = int(_round((magnitude - whole) * scale))
    if fraction >= int(scale):
        text = str(int(whole) + 1)
        fraction = 0
    if fraction > 0:
        digits_text = str(fraction).rjust(digits, "0").rstrip("0")
        text += "." + digits_text
    return "-" + text if negative else text


def escape(text):
    """XMLText.escape with ``?`` for what XML cannot carry."""
    out = ""
    for c in text:
        code = ord(c)
        if c == "&":
            out += "&amp;"
        elif c == "<":
            out += "&lt;"
        elif c == ">":
            out += "&gt;"
        elif c == '"':
            out += "&quot;"
        elif c == "'":
            out += "&apos;"
        elif c in "\t\n\r":
            out += c
        elif code < 0x20 or code in (0xFFFE, 0xFFFF):
            out += "?"
        else:
            out += c
    return out


def _hex(r, g, b, a=1.0):
    """Color.hex: ``#rrggbb``, or ``#rrggbbaa`` when not opaque."""
    def byte(v):
        n = int(_round(min(max(v, 0.0), 1.0) * 255))
        return "%02x" % n

    rgb = "#" + byte(r) + byte(g) + byte(b)
    return rgb if int(_round(min(max(a, 0.0), 1.0) * 255)) == 255 else rgb + byte(a)


def _clamp(v):
    return min(max(v, 0.0), 1.0) if math.isfinite(v) else 1.0


class _Values:
    """A view's values (ViewValues) with CALayer's defaults where the protocol leaves them out."""

    def __init__(self):
        self.center = [0.0, 0.0]
        self.bounds = [0.0, 0.0, 0.0, 0.0]
        self.alpha = 1.0
        self.transform = list(_IDENTITY)
        self.color = [0.0, 0.0, 0.0, 0.0]
        self.corner_radius = 0.0
        self.anchor_point = [0.5, 0.5]
        self.sublayer_transform = list(_IDENTITY)
        self.double_sided = True
        self.border_width = 0.0
        self.border_color = [0.0, 0.0, 0.0, 1.0]
        self.shadow_color = [0.0, 0.0, 0.0, 1.0]
        self.shadow_opacity = 0.0
        self.shadow_radius = 3.0
        self.shadow_offset = [0.0, -3.0]
        self.clips_to_bounds = False


# StateDrawing.values: (name, kind) of each stored property in the table's declaration order, but center.
_PROPERTIES = [("bounds", "rect"), ("alpha", "number"), ("transform", "transform"), ("color", "color"),
               ("corner_radius", "number"), ("anchor_point", "point"), ("sublayer_transform", "transform"),
               ("double_sided", "boolean"), ("border_width", "number"), ("border_color", "color"),
               ("shadow_color", "color"), ("shadow_opacity", "number"), ("shadow_radius", "number"),
               ("shadow_offset", "size"), ("clips_to_bounds", "boolean")]


def _parse(value, kind):
    def numbers(keys):
        if not isinstance(value, dict):
            return None
        out = [float(value[k]) for k in keys if _match._is_number(value.get(k))]
        return out if len(out) == len(keys) and all(math.isfinite(v) for v in out) else None

    if kind == "number":
        return [float(value)] if _match._is_number(value) and math.isfinite(value) else None
    if kind == "boolean":
        return [1.0 if value else 0.0] if isinstance(value, bool) else None
    if kind == "point":
        return numbers(["x", "y"])
    if kind == "size":
        return numbers(["w", "h"])
    if kind == "rect":
        return numbers(["x", "y", "w", "h"])
    if kind == "transform":
        if value == "identity":
            return list(_IDENTITY)
        if isinstance(value, dict) and isinstance(value.get("m"), list):
            m = [float(v) for v in value["m"] if _match._is_number(v)]
            return m if len(m) == 16 and all(math.isfinite(v) for v in m) else None
        t = numbers(["a", "b", "c", "d", "tx", "ty"])
        return None if t is None else [t[0], t[1], 0.0, 0.0, t[2], t[3], 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, t[4], t[5], 0.0, 1.0]
    if kind == "color":
        digits = _match._color(value)
        return None if digits is None else [int(digits[k:k + 2], 16) / 255 for k in (0, 2, 4, 6)]
    return None


def values(o):
    """StateDrawing.values: a view's values from the protocol's shapes, its placement from ``frame``."""
    v = _Values()
    for name, kind in _PROPERTIES:
        if name not in o:
            continue
        parsed = _parse(o[name], kind)
        if parsed is None:
            continue
        if kind in ("number",):
            setattr(v, name, parsed[0])
        elif kind == "boolean":
            setattr(v, name, parsed[0] != 0)
        else:
            setattr(v, name, parsed)
    frame = _parse(o.get("frame"), "rect") if "frame" in o else None
    if frame is not None:
        a = v.anchor_point
        v.center = [frame[0] + a[0] * frame[2], frame[1] + a[1] * frame[3]]
        v.bounds = [v.bounds[0], v.bounds[1], frame[2], frame[3]]
    elif "center" in o and _parse(o["center"], "point") is not None:
        v.center = _parse(o["center"], "point")
    return v


def _concat(p, q):
    r = [0.0] * 16
    for i in range(4):
        for j in range(4):
            total = 0.0
            for k in range(4):
                total += p[i * 4 + k] * q[k * 4 + j]
            r[i * 4 + j] = total
    return r


def _translation3d(x, y, z):
    return [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, z, 1.0]


class _Projection:
    def __init__(self, h):
        self.h = h

    @staticmethod
    def translation(x, y):
        return _Projection([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, 1.0])

    @staticmethod
    def of(m):
        return _Projection([m[0], m[1], m[3], m[4], m[5], m[7], m[12], m[13], m[15]])

    @staticmethod
    def view(v, z=0.0, parent=None):
        b, a = v.bounds, v.anchor_point
        anchor = (b[0] + a[0] * b[2], b[1] + a[1] * b[3])
        m = _concat(_translation3d(-anchor[0], -anchor[1], 0.0), v.transform)
        m = _concat(m, _translation3d(v.center[0], v.center[1], z))
        if parent is not None and parent.sublayer_transform != _IDENTITY:
            pb, pa = parent.bounds, parent.anchor_point
            pivot = (pb[0] + pa[0] * pb[2], pb[1] + pa[1] * pb[3])
            m = _concat(m, _translation3d(-pivot[0], -pivot[1], 0.0))
            m = _concat(m, parent.sublayer_transform)
            m = _concat(m, _translation3d(pivot[0], pivot[1], 0.0))
        return _Projection.of(m)

    def then(self, n):
        h, q = self.h, n.h
        r = [0.0] * 9
        for i in range(3):
            for j in range(3):
                r[i * 3 + j] = h[i * 3] * q[j] + h[i * 3 + 1] * q[3 + j] + h[i * 3 + 2] * q[6 + j]
        return _Projection(r)

    def apply(self, x, y):
        h = self.h
        X = x * h[0] + y * h[3] + h[6]
        Y = x * h[1] + y * h[4] + h[7]
        W = x * h[2] + y * h[5] + h[8]
        if not (W > _EYE and math.isfinite(X) and math.isfinite(Y)):
            return None
        return (X / W, Y / W)

    def w(self, x, y):
        h = self.h
        return x * h[2] + y * h[5] + h[8]

    @property
    def affine(self):
        h = self.h
        if not (abs(h[2]) < 1e-12 and abs(h[5]) < 1e-12 and h[8] > 1e-12):
            return None
        w = h[8]
        return (h[0] / w, h[1] / w, h[3] / w, h[4] / w, h[6] / w, h[7] / w)


def _clip(polygon, projection):
    if not polygon:
        return []
    eye = _EYE * 2
    out = []
    for k in range(len(polygon)):
        p, q = polygon[k], polygon[(k + 1) % len(polygon)]
        wp, wq = projection.w(p[0], p[1]), projection.w(q[0], q[1])
        p_in, q_in = wp > eye, wq > eye
        if p_in:
            out.append(p)
        if p_in != q_in:
            t = (eye - wp) / (wq - wp)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def _projected(polygon, projection):
    return [q for q in (projection.apply(p[0], p[1]) for p in _clip(polygon, projection)) if q is not None]


def _faces_back(projection):
    h = projection.h
    det = (h[0] * (h[4] * h[8] - h[5] * h[7]) - h[1] * (h[3] * h[8] - h[5] * h[6])
           + h[2] * (h[3] * h[7] - h[4] * h[6]))
    return det < 0


def _corner_radius(v):
    b = v.bounds
    return min(max(v.corner_radius, 0.0), max(b[2], 0.0) / 2, max(b[3], 0.0) / 2)


def _outline(b, radius):
    if not radius > 0:
        return [(b[0], b[1]), (b[0] + b[2], b[1]), (b[0] + b[2], b[1] + b[3]), (b[0], b[1] + b[3])]
    points = []
    corners = [(b[0] + b[2] - radius, b[1] + radius, -math.pi / 2), (b[0] + b[2] - radius, b[1] + b[3] - radius, 0.0),
               (b[0] + radius, b[1] + b[3] - radius, math.pi / 2), (b[0] + radius, b[1] + radius, math.pi)]
    for cx, cy, a0 in corners:
        for k in range(8):
            a = a0 + k / 7 * math.pi / 2
            points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return points


def _linear(m):
    return " ".join(num(x, 6) for x in m[:4])


def _shape(v, projection):
    color = v.color
    if not color[3] > 0.001:
        return ""
    b = v.bounds
    if not (b[2] > 0 and b[3] > 0):
        return ""
    radius = _corner_radius(v)
    fill = 'fill="%s"' % _hex(color[0], color[1], color[2]) + (
        ' fill-opacity="%s"' % num(color[3], 3) if color[3] < 0.999 else "")
    m = projection.affine
    if m is not None:
        rect = '<rect x="%s" y="%s" width="%s" height="%s"' % (num(b[0]), num(b[1]), num(b[2]), num(b[3]))
        if radius > 0:
            rect += ' rx="%s"' % num(radius)
        if abs(m[0] - 1) < 1e-9 and abs(m[1]) < 1e-9 and abs(m[2]) < 1e-9 and abs(m[3] - 1) < 1e-9:
            if abs(m[4]) > 1e-9 or abs(m[5]) > 1e-9:
                rect += ' transform="translate(%s %s)"' % (num(m[4]), num(m[5]))
        else:
            rect += ' transform="matrix(%s %s %s)"' % (_linear(m), num(m[4]), num(m[5]))
        return rect + " " + fill + "/>"
    points = _projected(_outline(b, radius), projection)
    if len(points) < 3:
        return ""
    d = "".join(("M" if k == 0 else "L") + num(p[0]) + " " + num(p[1]) for k, p in enumerate(points))
    return '<path d="%sZ" %s/>' % (d, fill)


def _geometry(b, radius, projection):
    r = min(max(radius, 0.0), max(b[2], 0.0) / 2, max(b[3], 0.0) / 2)
    m = projection.affine
    if m is not None:
        rect = '<rect x="%s" y="%s" width="%s" height="%s"' % (num(b[0]), num(b[1]), num(max(b[2], 0.0)),
                                                                 num(max(b[3], 0.0)))
        if r > 0:
            rect += ' rx="%s"' % num(r)
        return rect + ' transform="matrix(%s %s %s)"' % (_linear(m), num(m[4]), num(m[5]))
    d = ""
    for k, (x, y) in enumerate(_outline(b, r)):
        p = projection.apply(x, y)
        if p is None:
            return None
        d += ("M" if k == 0 else "L") + num(p[0]) + " " + num(p[1])
    return '<path d="%sZ"' % d


def _shadow(v, projection, ident):
    opacity = _clamp(v.shadow_opacity) * _clamp(v.shadow_color[3])
    if not opacity > 0.001 or v.clips_to_bounds:
        return ""
    b = v.bounds
    if not (b[2] > 0 and b[3] > 0):
        return ""
    offset = v.shadow_offset
    shifted = [b[0] + offset[0], b[1] + offset[1], b[2], b[3]]
    sigma = max(v.shadow_radius, 0.0) / 2
    c = v.shadow_color
    fill = 'fill="%s" fill-opacity="%s"' % (_hex(c[0], c[1], c[2]), num(opacity, 3))
    outline = _geometry(shifted, _corner_radius(v), projection)
    if outline is None:
        return ""
    if not sigma > 0.001:
        return outline + " " + fill + "/>"
    flt = ('<filter id="%s" x="-50%%" y="-50%%" width="200%%" height="200%%"><feGaussianBlur stdDeviation="%s"/>'
           '</filter>') % (ident, num(sigma, 3))
    return "<defs>" + flt + "</defs>" + outline + " " + fill + ' filter="url(#%s)"/>' % ident


def _projected_scale(b, projection):
    cx, cy = b[0] + b[2] / 2, b[1] + b[3] / 2
    c, x, y = projection.apply(cx, cy), projection.apply(cx + 1, cy), projection.apply(cx, cy + 1)
    if c is None or x is None or y is None:
        return 1.0
    sx = math.sqrt((x[0] - c[0]) * (x[0] - c[0]) + (x[1] - c[1]) * (x[1] - c[1]))
    sy = math.sqrt((y[0] - c[0]) * (y[0] - c[0]) + (y[1] - c[1]) * (y[1] - c[1]))
    return (sx + sy) / 2


def _border(v, projection):
    c = v.border_color
    b = v.bounds
    width = min(max(v.border_width, 0.0), b[2] / 2, b[3] / 2)
    if not (width > 0.001 and c[3] > 0.001 and b[2] > 0 and b[3] > 0):
        return ""
    inset = [b[0] + width / 2, b[1] + width / 2, b[2] - width, b[3] - width]
    radius = max(_corner_radius(v) - width / 2, 0.0)
    outline = _geometry(inset, radius, projection)
    if outline is None:
        return ""
    stroke = 'fill="none" stroke="%s"' % _hex(c[0], c[1], c[2]) + (
        ' stroke-opacity="%s"' % num(c[3], 3) if c[3] < 0.999 else "")
    scale = _projected_scale(b, projection) if projection.affine is None else 1.0
    return outline + ' %s stroke-width="%s" class="border"/>' % (stroke, num(width * scale, 3))


def _clip_path(v, projection, ident):
    if not v.clips_to_bounds:
        return None
    outline = _geometry(v.bounds, _corner_radius(v), projection) or '<rect width="0" height="0"'
    return '<defs><clipPath id="%s">%s/></clipPath></defs>' % (ident, outline)


def _mask(mask, z, hidden, projection, ident):
    out = ('<defs><mask id="%s" maskUnits="userSpaceOnUse" x="-100000" y="-100000" width="200000" height="200000">'
           % ident)
    opacity = _clamp(mask.alpha) * _clamp(mask.color[3])
    if not hidden and opacity > 0.001 and mask.bounds[2] > 0 and mask.bounds[3] > 0:
        placed = _Projection.view(mask, z).then(projection)
        shape = _geometry(mask.bounds, _corner_radius(mask), placed)
        if shape is not None:
            out += shape + ' fill="#ffffff"' + (' fill-opacity="%s"' % num(opacity, 4) if opacity < 0.999 else "") + "/>"
    return out + "</mask></defs>"


def _is_automatic(ident):
    return ident.startswith("v-") and len(ident) > 2 and all(c.isdigit() for c in ident[2:])


def _label(ident, v, projection, size):
    color = v.color
    if not color[3] > 0.2:
        return None
    b = v.bounds
    c = projection.apply(b[0] + b[2] / 2, b[1] + b[3] / 2)
    l = projection.apply(b[0], b[1] + b[3] / 2)
    r = projection.apply(b[0] + b[2], b[1] + b[3] / 2)
    t = projection.apply(b[0] + b[2] / 2, b[1])
    u = projection.apply(b[0] + b[2] / 2, b[1] + b[3])
    if c is None or l is None or r is None or t is None or u is None:
        return None
    width = math.sqrt((r[0] - l[0]) * (r[0] - l[0]) + (r[1] - l[1]) * (r[1] - l[1]))
    height = math.sqrt((u[0] - t[0]) * (u[0] - t[0]) + (u[1] - t[1]) * (u[1] - t[1]))
    text = ident[:-5] if ident.endswith(".view") else ident
    if not (width > size * max(2, len(text)) * 0.7 and height > size * 1.5):
        return None
    luminance = 0.2126 * color[0] + 0.7152 * color[1] + 0.0722 * color[2]
    return (c[0], c[1], text, "#1c1c1e" if luminance > 0.55 else "#ffffff")


def svg(state, order, label_size, id_prefix, labels=True):
    """StateDrawing.svg: the views of ``state`` (values by id, ``parent`` and ``mask`` by id) as SVG elements."""
    ids = [i for i in order if i in state] + [i for i in sorted(state) if i not in order]
    index = {}
    for k, ident in enumerate(ids):
        index.setdefault(ident, k)
    masks = {state[i].get("mask") for i in ids if isinstance(state[i].get("mask"), str)}
    views = []
    for ident in ids:
        o = state.get(ident) or {}
        parent = index.get(o["parent"], -1) if isinstance(o.get("parent"), str) else -1
        if ident in masks:
            parent = _MASK_PARENT
        mask = index.get(o["mask"], -1) if isinstance(o.get("mask"), str) else -1
        z = float(o["z"]) if _match._is_number(o.get("z")) else 0.0
        views.append((ident, parent, values(o), o.get("hidden") is True, z, mask))
    return _draw(views, label_size, labels, id_prefix)


def _draw(views, label_size, labels, prefix):
    """SceneDrawing.draw(views:…) at the origin."""
    n = len(views)
    children = [[] for _ in views]
    roots = []
    for i, view in enumerate(views):
        if 0 <= view[1] < n:
            children[view[1]].append(i)
        elif view[1] != _MASK_PARENT:
            roots.append(i)
    out = []
    placed = []

    def walk(i, parent_projection, opacity, depth):
        ident, parent, v, hidden, z, mask = views[i]
        if hidden or depth > _MAX_DEPTH:
            return
        alpha = _clamp(v.alpha)
        superview = views[parent][2] if 0 <= parent < n else None
        projection = _Projection.view(v, z, superview).then(parent_projection)
        if not v.double_sided and _faces_back(projection):
            return
        masked = ""
        if 0 <= mask < n:
            m = views[mask]
            mask_id = "%s-mask-%d" % (prefix, i)
            out.append(_mask(m[2], m[4], m[3], projection, mask_id))
            masked = ' mask="url(#%s)"' % mask_id
        out.append('<g class="view" data-view="%s" opacity="%s"%s>' % (escape(ident), num(alpha, 4), masked))
        out.append(_shadow(v, projection, "%s-shadow-%d" % (prefix, i)))
        out.append(_shape(v, projection))
        if labels and depth > 0 and opacity * alpha >= 0.5 and not _is_automatic(ident):
            label = _label(ident, v, projection, label_size)
            if label is not None:
                placed.append(label)
        out.append("\n")
        order = sorted(enumerate(children[i]), key=lambda e: (views[e[1]][4], e[0]))
        clip = _clip_path(v, projection, "%s-clip-%d" % (prefix, i))
        if clip is not None and order:
            out.append(clip + '<g clip-path="url(#%s-clip-%d)">\n' % (prefix, i))
        for _, child in order:
            walk(child, projection, opacity * alpha, depth + 1)
        if clip is not None and order:
            out.append("</g>\n")
        out.append(_border(v, projection))
        out.append("</g>\n")

    for root in roots:
        walk(root, _Projection.translation(0.0, 0.0), 1.0, 0)
    kept = []
    for label in reversed(placed):
        if not any(abs(k[0] - label[0]) < label_size * 4 and abs(k[1] - label[1]) < label_size * 1.5 for k in kept):
            kept.append(label)
    for x, y, text, ink in reversed(kept):
        out.append('<text class="label" x="%s" y="%s" font-size="%s" text-anchor="middle" fill="%s">%s</text>\n'
                   % (num(x), num(y + label_size * 0.35), num(label_size), ink, escape(text)))
    return "".join(out)
