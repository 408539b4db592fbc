import CDtoa

/// A growable run of bytes that JSON text is written into: an append is a capacity check and a copy.
///
/// `[UInt8].append(contentsOf:)` goes through the generic sequence append, several times the cost of the copy for
/// the short pieces JSON is made of (a daemon.ping's response is a dozen of them). Non-copyable so the storage has
/// one owner and is freed with it; a holder that writes often (the daemon's responses) keeps one and calls
/// `removeAll()` between uses, so its storage is allocated once.
public struct JSONOutput: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0

    /// The number of bytes written.
    public var count: Int { used }

    public init(capacity: Int = 128) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Forgets the bytes written, keeping the storage.
    public mutating func removeAll() { used = 0 }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(to: used + 1) }
        base[used] = byte
        used += 1
    }

    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = bytes.count
        if capacity - used < count { grow(to: used + count) }
        let target = base + used
        if count <= 16 {
            // JSON is mostly short pieces (`,"alpha":`, a number's digits): a byte loop beats a call to memmove.
            for i in 0..<count { target[i] = source[i] }
        } else {
            target.initialize(from: source, count: count)
        }
        used += count
    }

    @inlinable
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A number as JSON text (`JSONValue.writeNumber`'s): printed by `cdtoa_json` straight into the storage.
    @inlinable
    public mutating func appendNumber(_ value: Double) {
        if capacity - used < Int(CDTOA_BUFFER_SIZE) { grow(to: used + Int(CDTOA_BUFFER_SIZE)) }
        used += (base + used).withMemoryRebound(to: CChar.self, capacity: Int(CDTOA_BUFFER_SIZE)) {
            cdtoa_json(value, $0)
        }
    }

    /// Makes room for `count` more bytes, so that the `reserved` appends after it need no capacity check.
    @inlinable
    public mutating func reserve(_ count: Int) {
        if capacity - used < count { grow(to: used + count) }
    }

    /// Appends a byte the caller made room for with `reserve`.
    @inlinable @inline(__always)
    public mutating func appendReserved(_ byte: UInt8) {
        base[used] = byte
        used += 1
    }

    /// Appends text the caller made room for with `reserve` (fixed pieces of JSON: a key and its punctuation).
    @inlinable @inline(__always)
    public mutating func appendReserved(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        let source = text.utf8Start, target = base + used
        for i in 0..<count { target[i] = source[i] }
        used += count
    }

    /// Appends UTF-8 text escaped for inside a JSON string (as `JSONValue.writeString` escapes it, without the
    /// quotes), the caller having made room for `6 * text.count` bytes with `reserve`: text with nothing to escape
    /// (ids, names) is one scan and one copy.
    @inlinable
    public mutating func appendEscapedReserved(_ text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress else { return }
        let target = base + used
        var i = 0
        while i < text.count {
            let byte = source[i]
            guard byte >= 0x20, byte != 0x22, byte != 0x5C else { break }
            target[i] = byte
            i += 1
        }
        used += i
        guard i < text.count else { return }
        for k in i..<text.count {
            let byte = source[k]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
                appendReserved(byte)
                continue
            }
            appendReserved(0x5C)
            switch byte {
            case 0x22, 0x5C: appendReserved(byte)
            case 0x0A: appendReserved(UInt8(ascii: "n"))
            case 0x0D: appendReserved(UInt8(ascii: "r"))
            case 0x09: appendReserved(UInt8(ascii: "t"))
            default:
                appendReserved("u00")
                let high = byte >> 4, low = byte & 0xF
                appendReserved(high < 10 ? UInt8(ascii: "0") + high : UInt8(ascii: "a") + (high - 10))
                appendReserved(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + (low - 10))
            }
        }
    }

    /// Calls `body` with the bytes written (valid only during the call).
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: used))
    }

    /// The bytes written, as a String (JSON text from the serializer is valid UTF-8).
    public var string: String { String(decoding: UnsafeBufferPointer(start: base, count: used), as: UTF8.self) }

    @usableFromInline
    mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
