/// The views whose presentation changed in the current tick, in the order they first changed (one `frame` event
/// entry each): the frame loop's list, filled without a retain, a uniqueness check or a capacity check per view.
///
/// Entries are not retained. Every view in the list is kept alive by its scene's tree: filed by id while it is in the
/// scene, and once discarded (`ViewTree.discard`) held by `ViewTree.keptForChanges` until the list is emptied — so a
/// view destroyed by a completion inside the tick that listed it is still readable when the frame is packed (it is
/// then skipped as not alive). The storage is the list's own, kept from tick to tick.
final class ChangedViews: Sequence {
    private(set) var base: UnsafeMutablePointer<Unmanaged<View>>
    @exclusivity(unchecked) private(set) var count = 0
    private(set) var capacity: Int

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// Room for `extra` more views without growing: the frame loop reserves one per track, then appends with
    /// `appendReserved`.
    @inline(__always)
    func reserve(extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var size = capacity
        while size < needed { size *= 2 }
        let bigger = UnsafeMutablePointer<Unmanaged<View>>.allocate(capacity: size)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = size
    }

    func append(_ view: View) {
        reserve(extra: 1)
        appendReserved(view)
    }

    /// Appends `view` into room `reserve` made (not checked).
    @inline(__always)
    func appendReserved(_ view: View) {
        (base + count).initialize(to: Unmanaged.passUnretained(view))
        count += 1
    }

    /// Forgets every entry (no release: none was retained).
    func removeAll() { count = 0 }

    /// The entries, read in place.
    @inline(__always)
    var buffer: UnsafeMutableBufferPointer<Unmanaged<View>> { UnsafeMutableBufferPointer(start: base, count: count) }

    func makeIterator() -> AnyIterator<View> {
        var i = 0
        return AnyIterator { [self] in
            guard i < count else { return nil }
            defer { i += 1 }
            return base[i].takeUnretainedValue()
        }
    }
}
