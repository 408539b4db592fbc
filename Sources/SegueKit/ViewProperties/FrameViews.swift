/// The views of a frame event, packed for the per-frame path: per view its id, an `Entry` (what changed, which
/// transforms are affine), and the values of what changed laid end to end in one array of doubles.
///
/// A frame of a busy scene has thousands of views, built and encoded every tick: three flat arrays filled in place
/// cost a fraction of an array of `FrameView`s (each a few hundred bytes, copied through its value witness). `self[i]`
/// gives a view back as a `FrameView`.
///
/// A view's values, in the protocol's field order, only those its changes send: the frame (x, y, w, h) when a
/// property that is part of it changed, then each changed property that frame events carry (`sentInFrames`) in
/// change-flag order (`ViewProperty`'s raw value) — a transform as a, b, c, d, tx, ty when affine, else its 16
/// row-major values; a flag as 1 or 0.
public struct FrameViews: Sendable, Equatable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// One view's changes, and where its values start.
    public struct Entry: Sendable, Equatable {
        public let changes: ViewChanges
        /// The transform-kind properties sent as 6 values (`{a, b, c, d, tx, ty}`), not 16 (`{m: […]}`).
        public let affine: ViewChanges
        /// The index of the view's first value in `values`.
        public let start: Int32

        @inlinable
        public var sendsFrame: Bool { !changes.isDisjoint(with: .frame) }
    }

    public private(set) var ids: [String] = []
    public private(set) var entries: [Entry] = []
    public private(set) var values: [Double] = []

    public init() {}

    public init(_ views: [FrameView]) {
        for view in views { append(view) }
    }

    public init(arrayLiteral views: FrameView...) {
        self.init(views)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ids.count }

    /// The properties frame events carry under their own names.
    public static let sent = ViewChanges(
        rawValue: ViewProperty.allCases.reduce(0) { $1.info.sentInFrames ? $0 | $1.changeBit : $0 })
    /// The properties whose values are a transform.
    static let transforms = ViewChanges(
        rawValue: ViewProperty.allCases.reduce(0) { $1.info.kind == .transform ? $0 | $1.changeBit : $0 })

    /// Calls `body` with each property of `changes` that frame events carry, in change-flag order (the order the
    /// values are packed and sent in).
    @inline(__always)
    public static func forEachSent(_ changes: ViewChanges, _ body: (ViewProperty) -> Void) {
        var bits = changes.rawValue & sent.rawValue
        while bits != 0 {
            let bit = bits.trailingZeroBitCount
            bits &= bits &- 1
            if let property = ViewProperty(rawValue: bit) { body(property) }
        }
    }

    /// The view at `index`, unpacked (its values not in `changes` left at their defaults).
    public subscript(index: Int) -> FrameView {
        let entry = entries[index]
        var view = FrameView(id: ids[index], changes: entry.changes)
        var i = Int(entry.start)
        func next(_ count: Int) -> ArraySlice<Double> {
            defer { i += count }
            return values[i..<(i + count)]
        }
        if entry.sendsFrame {
            let f = next(4)
            view.frame = Rect(x: f[f.startIndex], y: f[f.startIndex + 1], w: f[f.startIndex + 2], h: f[f.startIndex + 3])
        }
        FrameViews.forEachSent(entry.changes) { property in
            if entry.affine.contains(property) {
                let v = Array(next(6))
                view.set(property, Transform3D(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]).values)
            } else if let per = FrameViews.listStride(property) {
                // A gradient's list: its length first, then its values.
                let n = Int(next(1).first ?? 0)
                view.set(property, next(n * per))
            } else {
                view.set(property, next(property.count))
            }
        }
        return view
    }

    /// Appends a view given as a `FrameView` (tests, tools; the scene packs its views with `append(_:changes:)`).
    public mutating func append(_ view: FrameView) {
        var affine = ViewChanges()
        FrameViews.forEachSent(view.changes.intersection(FrameViews.transforms)) { property in
            if Transform3D(values: Array(view.value(of: property))).isAffine { affine.insert(ViewChanges(property)) }
        }
        entries.append(Entry(changes: view.changes, affine: affine, start: Int32(values.count)))
        ids.append(view.id)
        if view.sendsFrame { values += [view.frame.x, view.frame.y, view.frame.w, view.frame.h] }
        FrameViews.forEachSent(view.changes) { property in
            let v = view.value(of: property)
            if let per = FrameViews.listStride(property) {
                values.append(Double(v.count / per))
                values += v
            } else if affine.contains(property) {
                let a = Transform3D(values: Array(v)).affine
                values += [a.a, a.b, a.c, a.d, a.tx, a.ty]
            } else {
                values += v
            }
        }
    }

    /// Appends `view`'s changed presentation values, read in place from its channels: what `append(FrameView)` of
    /// the view's `FrameView` (its presentation's frame and changed properties) would append, without building it.
    mutating func append(_ view: View, changes: ViewChanges, layout: ViewPropertyLayout) {
        // The values go through scratch room for a view's most and into `values` at once: one capacity and
        // uniqueness check per view, not one per value.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: FrameViews.maxValuesPerView) { scratch in
            guard let out = scratch.baseAddress else { return }
            let (n, affine) = FrameViews.pack(view.presentationBuffer, view, changes, layout, into: out)
            entries.append(Entry(changes: changes, affine: affine, start: Int32(truncatingIfNeeded: values.count)))
            ids.append(view.id)
            values.append(contentsOf: UnsafeBufferPointer(start: out, count: n))
        }
        // A gradient view's parts (the table's last properties, so their values come last), lists of the view's own
        // length: appended here, never by a view without a gradient (its changes have none of these bits).
        let parts = changes.rawValue & layout.gradientParts & layout.sent
        if parts != 0 { appendGradient(view, parts) }
    }

    /// Appends the changed gradient parts `parts` of `values`, in change-flag order: a list as its length, then its
    /// values (a colour's 4); a point's 2; the type's code.
    private mutating func appendGradient(_ view: View, _ parts: UInt64) {
        var bits = parts
        while bits != 0 {
            let bit = bits.trailingZeroBitCount
            bits &= bits &- 1
            guard let property = ViewProperty(rawValue: bit) else { continue }
            let v = view.presentationValues(of: property)
            if let per = FrameViews.listStride(property) { values.append(Double(v.count / per)) }
            values += v
        }
    }

    /// How many values one entry of a list property has (a colour's 4, a location's 1); nil for a fixed-size one.
    @inline(__always)
    static func listStride(_ property: ViewProperty) -> Int? {
        switch property.info.kind {
        case .colorList: 4
        case .numberList: 1
        default: nil
        }
    }

    /// Writes the changed values of `view` (its presentation channels `c`) into `out`; returns how many, and which
    /// transforms are affine. A plain loop over the change bits reading the flat `layout` (no closure, no table
    /// entry built per property).
    @inline(__always)
    private static func pack(_ c: UnsafeBufferPointer<Double>, _ view: View, _ changes: ViewChanges,
                             _ layout: ViewPropertyLayout, into out: UnsafeMutablePointer<Double>)
        -> (count: Int, affine: ViewChanges)
    {
        var n = 0
        if changes.rawValue & layout.frame != 0 {
            // `ViewValues.frame`: a rect of the bounds' size with its anchor point at the center (position).
            let p = ViewProperty.center.offset, b = ViewProperty.bounds.offset, a = ViewProperty.anchorPoint.offset
            out[0] = c[p] - c[b + 2] * c[a]
            out[1] = c[p + 1] - c[b + 3] * c[a + 1]
            out[2] = c[b + 2]
            out[3] = c[b + 3]
            n = 4
        }
        var affine: UInt64 = 0
        var bits = changes.rawValue & layout.sent
        while bits != 0 {
            let bit = bits.trailingZeroBitCount
            bits &= bits &- 1
            let o = layout.storage[bit]
            if o < 0 {
                // Kept on the view (z, hidden), or a gradient's part (appended after the scratch: `appendGradient`).
                if o == ViewPropertyLayout.zPosition {
                    out[n] = view.z
                    n += 1
                } else if o == ViewPropertyLayout.hiddenFlag {
                    out[n] = view.hidden ? 1 : 0
                    n += 1
                }
                continue
            }
            let kind = layout.kinds[bit]
            if kind == .transform, isAffine(c, o) {
                affine |= 1 << UInt64(bit)
                out[n] = c[o]
                out[n + 1] = c[o + 1]
                out[n + 2] = c[o + 4]
                out[n + 3] = c[o + 5]
                out[n + 4] = c[o + 12]
                out[n + 5] = c[o + 13]
                n += 6
            } else {
                let count = kind.count
                for k in 0..<count { out[n + k] = c[o + k] }
                n += count
            }
        }
        return (n, ViewChanges(rawValue: affine))
    }

    /// CATransform3DIsAffine, as `Transform3D.isAffine` reads it (row-major m.0 … m.15 from channel t).
    @inline(__always)
    private static func isAffine(_ c: UnsafeBufferPointer<Double>, _ t: Int) -> Bool {
        c[t + 2] == 0 && c[t + 3] == 0 && c[t + 6] == 0 && c[t + 7] == 0 && c[t + 8] == 0
            && c[t + 9] == 0 && c[t + 10] == 1 && c[t + 11] == 0 && c[t + 14] == 0 && c[t + 15] == 1
    }

    /// The most values a view has: the frame's 4 and every property's own.
    static let maxValuesPerView = 4 + ViewProperty.allCases.reduce(0) { $0 + $1.count }

    /// Room for `count` more views of about `perView` values each.
    mutating func reserve(views count: Int, values perView: Int) {
        ids.reserveCapacity(ids.count + count)
        entries.reserveCapacity(entries.count + count)
        values.reserveCapacity(values.count + count * perView)
    }

    /// Forgets the views, keeping the storage.
    mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}
