/// The views of a frame event, packed for the per-frame path: per view its id, an `Entry` (what changed, whether
/// the transform is affine), and the values of what changed laid end to end in one array of doubles.
///
/// A frame of a busy scene has thousands of views, built and encoded every tick: three flat arrays filled in place
/// cost a fraction of an array of `FrameView`s (each ~270 bytes, copied through its value witness, with a 16-value
/// transform). `self[i]` gives a view back as a `FrameView`.
///
/// A view's values, in the protocol's field order, only those its changes send: the frame (x, y, w, h) when the
/// center or the bounds changed, the bounds (x, y, w, h), alpha, the transform (a, b, c, d, tx, ty when affine, else
/// the 16 row-major values), the color (r, g, b, a), the corner radius, z, hidden (1 or 0).
public struct FrameViews: Sendable, Equatable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// One view's changes, and where its values start.
    public struct Entry: Sendable, Equatable {
        public let changes: ViewChanges
        /// The transform is sent as 6 values (`{a, b, c, d, tx, ty}`), not 16 (`{m: […]}`).
        public let isAffine: Bool
        /// The index of the view's first value in `values`.
        public let start: Int32

        @inlinable
        public var sendsFrame: Bool { !changes.isDisjoint(with: [.center, .bounds]) }
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

    /// The view at `index`, unpacked (its values not in `changes` left at their defaults).
    public subscript(index: Int) -> FrameView {
        let entry = entries[index]
        var view = FrameView(id: ids[index], changes: entry.changes)
        var i = Int(entry.start)
        func next() -> Double {
            defer { i += 1 }
            return values[i]
        }
        func rect() -> Rect { Rect(x: next(), y: next(), w: next(), h: next()) }
        let changes = entry.changes
        if entry.sendsFrame {
            view.frame = rect()
            if changes.contains(.bounds) { view.bounds = rect() }
        }
        if changes.contains(.alpha) { view.alpha = next() }
        if changes.contains(.transform) {
            if entry.isAffine {
                view.transform = Transform3D(a: next(), b: next(), c: next(), d: next(), tx: next(), ty: next())
            } else {
                view.transform = Transform3D(values: (0..<16).map { _ in next() })
            }
        }
        if changes.contains(.color) { view.color = Color(r: next(), g: next(), b: next(), a: next()) }
        if changes.contains(.cornerRadius) { view.cornerRadius = next() }
        if changes.contains(.z) { view.z = next() }
        if changes.contains(.hidden) { view.hidden = next() != 0 }
        return view
    }

    /// Appends a view given as a `FrameView` (tests, tools; the scene packs its views with `append(_:changes:)`).
    public mutating func append(_ view: FrameView) {
        let changes = view.changes
        let affine = view.transform.isAffine
        entries.append(Entry(changes: changes, isAffine: affine, start: Int32(values.count)))
        ids.append(view.id)
        if view.sendsFrame {
            append(view.frame)
            if changes.contains(.bounds) { append(view.bounds) }
        }
        if changes.contains(.alpha) { values.append(view.alpha) }
        if changes.contains(.transform) {
            if affine {
                let a = view.transform.affine
                values += [a.a, a.b, a.c, a.d, a.tx, a.ty]
            } else {
                values += view.transform.values
            }
        }
        if changes.contains(.color) { values += [view.color.r, view.color.g, view.color.b, view.color.a] }
        if changes.contains(.cornerRadius) { values.append(view.cornerRadius) }
        if changes.contains(.z) { values.append(view.z) }
        if changes.contains(.hidden) { values.append(view.hidden ? 1 : 0) }
    }

    private mutating func append(_ rect: Rect) {
        values += [rect.x, rect.y, rect.w, rect.h]
    }

    /// Appends `view`'s changed presentation values, read in place from its channels: what `append(FrameView)` of
    /// the view's `FrameView` (its presentation's frame, bounds, alpha, transform, color, corner radius, its z and
    /// hidden) would append, without building the `FrameView`.
    mutating func append(_ view: View, changes: ViewChanges) {
        // The values go through 32 doubles of scratch (a view's most) and into `values` at once: one capacity and
        // uniqueness check per view, not one per value.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: FrameViews.maxValuesPerView) { scratch in
            guard let out = scratch.baseAddress else { return }
            var (n, affine) = view.presentation.channels.withUnsafeBufferPointer {
                FrameViews.pack($0, changes, into: out)
            }
            if changes.contains(.z) {
                out[n] = view.z
                n += 1
            }
            if changes.contains(.hidden) {
                out[n] = view.hidden ? 1 : 0
                n += 1
            }
            entries.append(Entry(changes: changes, isAffine: affine, start: Int32(truncatingIfNeeded: values.count)))
            ids.append(view.id)
            values.append(contentsOf: UnsafeBufferPointer(start: out, count: n))
        }
    }

    /// Writes the changed values of the channels `c` (a view's presentation) up to the corner radius into `out`;
    /// returns how many, and whether the transform is affine.
    @inline(__always)
    private static func pack(_ c: UnsafeBufferPointer<Double>, _ changes: ViewChanges,
                             into out: UnsafeMutablePointer<Double>) -> (count: Int, affine: Bool) {
        let t = AnimatableProperty.transform.offset
        // CATransform3DIsAffine, as `Transform3D.isAffine` reads it (row-major m.0 … m.15 from channel t).
        let affine = c[t + 2] == 0 && c[t + 3] == 0 && c[t + 6] == 0 && c[t + 7] == 0 && c[t + 8] == 0
            && c[t + 9] == 0 && c[t + 10] == 1 && c[t + 11] == 0 && c[t + 14] == 0 && c[t + 15] == 1
        var n = 0
        if !changes.isDisjoint(with: [.center, .bounds]) {
            // `ViewValues.frame`: a rect of the bounds' size centred on the center.
            out[0] = c[0] - c[4] / 2
            out[1] = c[1] - c[5] / 2
            out[2] = c[4]
            out[3] = c[5]
            n = 4
            if changes.contains(.bounds) {
                for k in 2..<6 { out[n + k - 2] = c[k] }
                n += 4
            }
        }
        if changes.contains(.alpha) {
            out[n] = c[AnimatableProperty.alpha.offset]
            n += 1
        }
        if changes.contains(.transform) {
            if affine {
                out[n] = c[t]
                out[n + 1] = c[t + 1]
                out[n + 2] = c[t + 4]
                out[n + 3] = c[t + 5]
                out[n + 4] = c[t + 12]
                out[n + 5] = c[t + 13]
                n += 6
            } else {
                for k in 0..<16 { out[n + k] = c[t + k] }
                n += 16
            }
        }
        if changes.contains(.color) {
            let o = AnimatableProperty.color.offset
            for k in 0..<4 { out[n + k] = c[o + k] }
            n += 4
        }
        if changes.contains(.cornerRadius) {
            out[n] = c[AnimatableProperty.cornerRadius.offset]
            n += 1
        }
        return (n, affine)
    }

    /// The most values a view has: frame 4, bounds 4, alpha 1, transform 16, color 4, corner radius, z, hidden.
    static let maxValuesPerView = 32

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
