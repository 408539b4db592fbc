import CLuaShim
import SegueKit

/// `view:snapshot(rect?, {after_updates?, cap_insets?}?)`: UIView's snapshotView(afterScreenUpdates:) and, with a
/// rect, resizableSnapshotView(from:afterScreenUpdates:withCapInsets:) (issue 26, item 3).
extension PluginInstance {
    /// What the arguments ask for: the region (nil for the whole view), or the error to raise.
    enum SnapshotRequest {
        case whole
        case region(Rect)
        case refused(String)
    }

    /// Reads `rect` at 2 and the options at 3. The rect is in the view's bounds coordinates and must lie inside
    /// them (UIKit draws nothing useful outside; segued refuses it so a mistake shows); a negative size or a
    /// non-finite number is refused. `after_updates` must be a boolean when given: segued has no pending screen
    /// updates (the presentation values are what is on screen), so both values snapshot the same. `cap_insets`
    /// `{top, left, bottom, right}` must be finite and ≥ 0 and fit the rect: a snapshot is drawn as a flat view,
    /// so there is nothing to stretch, and the insets are checked and otherwise not used.
    func snapshotRequest(_ view: View, _ s: LuaState) -> SnapshotRequest {
        let name = "view:snapshot(rect, options)"
        if s.type(at: 3) != LUA_TNONE, !s.isNil(3) {
            guard s.type(at: 3) == LUA_TTABLE else { return .refused("\(name): options must be a table, got \(s.typeName(at: 3))") }
            s.rawField(3, "after_updates")
            let afterType = s.type(at: -1)
            s.pop()
            if afterType != LUA_TNIL, afterType != LUA_TBOOLEAN {
                return .refused("\(name): options.after_updates must be a boolean")
            }
        }
        guard s.type(at: 2) != LUA_TNONE, !s.isNil(2) else { return .whole }
        guard s.type(at: 2) == LUA_TTABLE, let r = rect(at: 2) else {
            return .refused("\(name): rect must be {x=, y=, w=, h=} of finite numbers, got \(describe(at: 2))")
        }
        let text = "{x=\(ModelRange.text(r.x)), y=\(ModelRange.text(r.y)), w=\(ModelRange.text(r.w)), h=\(ModelRange.text(r.h))}"
        guard r.w >= 0, r.h >= 0 else { return .refused("\(name): rect has a negative size: \(text)") }
        let b = view.presentation.bounds
        let e = 1e-9
        guard r.x >= b.x - e, r.y >= b.y - e, r.x + r.w <= b.x + b.w + e, r.y + r.h <= b.y + b.h + e else {
            return .refused("\(name): rect \(text) is outside the view's bounds {x=\(ModelRange.text(b.x)), "
                + "y=\(ModelRange.text(b.y)), w=\(ModelRange.text(b.w)), h=\(ModelRange.text(b.h))}")
        }
        if s.type(at: 3) == LUA_TTABLE {
            s.rawField(3, "cap_insets")
            defer { s.pop() }
            if !s.isNil(-1) {
                let t = s.top
                var insets: [Double] = []
                for key in ["top", "left", "bottom", "right"] {
                    guard let v = s.numberField(t, key), v.isFinite, v >= 0 else {
                        return .refused("\(name): options.cap_insets.\(key) must be a finite number ≥ 0")
                    }
                    insets.append(v)
                }
                guard insets[0] + insets[2] <= r.h + e, insets[1] + insets[3] <= r.w + e else {
                    return .refused("\(name): options.cap_insets are larger than the rect")
                }
            }
        }
        return .region(r)
    }

    /// A new view that looks like `view` now, or like its `region` (in its bounds coordinates): sized to the
    /// region and placed over it in the view's superview (where a whole snapshot is placed: at the view's frame),
    /// with the view's presentation values of every channel property but the frame's. Only the values that differ
    /// from a new view's are set (CEExplode takes ~150 region snapshots in one call).
    func makeSnapshot(of view: View, region: Rect?, in scene: Scene) throws(EngineError) -> View {
        let source = view.presentation
        var frame = source.frame
        if let region {
            let b = source.bounds
            frame = Rect(x: frame.x + region.x - b.x, y: frame.y + region.y - b.y, w: region.w, h: region.h)
        }
        let copy = try scene.makeView(frame: frame, color: source.color)
        for property in ViewProperty.allCases where !property.info.partOfFrame {
            guard case .channels(let offset) = property.info.storage else { continue }
            if copy.model.get(property).elementsEqual(source.get(property)) { continue }
            source.channels.withUnsafeBufferPointer { c in
                scene.set(copy, property, values: UnsafeBufferPointer(rebasing: c[offset..<(offset + property.count)]))
            }
        }
        // A gradient view's snapshot shows its gradient: the same stops, the points moved into the region's unit
        // square (a point of the source's bounds keeps its place on screen).
        if var gradient = source.gradient {
            if let region, region.w > 0, region.h > 0 {
                let b = source.bounds
                func moved(_ u: Point) -> Point {
                    Point(x: (b.x + u.x * b.w - region.x) / region.w, y: (b.y + u.y * b.h - region.y) / region.h)
                }
                gradient.startPoint = moved(gradient.startPoint)
                gradient.endPoint = moved(gradient.endPoint)
            }
            scene.makeGradient(copy, gradient)
        }
        return copy
    }
}
