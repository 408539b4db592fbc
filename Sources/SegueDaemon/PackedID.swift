/// A request id in one word, so the loop can record it with an atomic store: the low byte is the kind (bits 0–2)
/// and the length (bits 3–5), the next seven bytes the id's UTF-8 text (a string's value, a number's text).
struct PackedID: Equatable {
    let rawValue: UInt64

    static let notification: UInt64 = 0, null: UInt64 = 1, string: UInt64 = 2, number: UInt64 = 3
    private static let longKind: UInt64 = 4
    /// The id did not fit: it is held under `LoopActivity`'s lock.
    static let long = PackedID(rawValue: longKind)

    init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The id whose text is `bytes` (a number's text, or a string's value without escapes), read off the request
    /// line by the scan, so the loop records it without walking a String; `long` when it is over 7 bytes.
    @inline(__always)
    init(kind: UInt64, bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= 7 else {
            self = .long
            return
        }
        var word = kind | UInt64(bytes.count) << 3
        var shift: UInt64 = 8
        for byte in bytes {
            word |= UInt64(byte) << shift
            shift += 8
        }
        rawValue = word
    }

    /// Nil when the id is longer than 7 bytes.
    @inline(__always)
    init?(_ id: RequestID?) {
        switch id {
        case nil: rawValue = PackedID.notification
        case .null?: rawValue = PackedID.null
        case .string(let text)?:
            guard let word = PackedID.pack(text, kind: PackedID.string) else { return nil }
            rawValue = word
        case .number(let text)?:
            guard let word = PackedID.pack(text, kind: PackedID.number) else { return nil }
            rawValue = word
        }
    }

    @inline(__always)
    private static func pack(_ text: String, kind: UInt64) -> UInt64? {
        let utf8 = text.utf8
        guard utf8.count <= 7 else { return nil }
        var word = kind | UInt64(utf8.count) << 3
        var shift: UInt64 = 8
        for byte in utf8 {
            word |= UInt64(byte) << shift
            shift += 8
        }
        return word
    }

    /// The id packed (nil: a notification; `long` has none here).
    var id: RequestID? {
        let kind = rawValue & 7
        let count = Int(rawValue >> 3 & 7)
        var bytes: [UInt8] = []
        for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: rawValue >> (8 * UInt64(i + 1)))) }
        let text = String(decoding: bytes, as: UTF8.self)
        switch kind {
        case PackedID.null: return .null
        case PackedID.string: return .string(text)
        case PackedID.number: return .number(text)
        default: return nil
        }
    }
}
