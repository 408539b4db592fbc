import CEventLoop

/// The readiness of a descriptor on the event loop, as a typed set: what a handler asks the loop to watch for, and
/// what the loop tells it is ready. The raw values are the C shim's `SEG_EV_*` bits (epoll's), so the set goes to
/// and from the shim as is.
package struct LoopEvents: OptionSet, Sendable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// There is something to read (or the peer closed its side: a read returns 0).
    package static let readable = LoopEvents(rawValue: UInt32(SEG_EV_IN))
    /// The socket takes more bytes.
    package static let writable = LoopEvents(rawValue: UInt32(SEG_EV_OUT))
    /// The peer hung up (always reported, never asked for).
    package static let hangUp = LoopEvents(rawValue: UInt32(SEG_EV_HUP))
    /// An error on the descriptor (always reported, never asked for).
    package static let error = LoopEvents(rawValue: UInt32(SEG_EV_ERR))
}
