extension JSONValue {
    /// Compact JSON text on one line: newlines and control characters inside strings are escaped.
    public func serialized() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the JSON text to a string. The text is built as bytes first: appending to a String piece by piece
    /// costs several times more (it was most of a daemon.ping's time in the daemon).
    public func write(to out: inout String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        write(to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the JSON text as UTF-8 bytes.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: JSONValue.append("null", to: &out)
        case .bool(let b): JSONValue.append(b ? "true" : "false", to: &out)
        case .number(let n): JSONValue.writeNumber(n, to: &out)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            var first = true
            for element in array {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Integral values print without a fraction; non-finite values (never produced on purpose) print as null.
    public static func writeNumber(_ n: Double, to out: inout String) {
        var bytes: [UInt8] = []
        writeNumber(n, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    public static func writeNumber(_ n: Double, to out: inout [UInt8]) {
        guard n.isFinite else {
            append("null", to: &out)
            return
        }
        if n == n.rounded(), abs(n) < 1e15 {
            var value = Int64(n)
            if value == 0 {
                out.append(UInt8(ascii: "0"))
                return
            }
            if value < 0 {
                out.append(UInt8(ascii: "-"))
                value = -value
            }
            var digits: (UInt64, UInt64) = (0, 0)  // 16 bytes of scratch: 1e15 has 16 digits
            let count = withUnsafeMutableBytes(of: &digits) { raw -> Int in
                var i = raw.count
                while value > 0 {
                    i -= 1
                    raw[i] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                out.append(contentsOf: raw[i...])
                return raw.count - i
            }
            _ = count
        } else {
            out.append(contentsOf: "\(n)".utf8)
        }
    }

    public static func writeString(_ s: String, to out: inout String) {
        var bytes: [UInt8] = []
        writeString(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    public static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var needsEscape = false
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                needsEscape = true
                break
            }
            if !needsEscape {
                out.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case 0x22: out.append(0x5C); out.append(0x22)
                case 0x5C: out.append(0x5C); out.append(0x5C)
                case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                            hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: out.append(byte)  // UTF-8 bytes of other characters pass through as they are
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
