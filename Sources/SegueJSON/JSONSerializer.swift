extension JSONValue {
    /// Compact JSON text on one line: newlines and control characters inside strings are escaped.
    public func serialized() -> String {
        var out = JSONOutput()
        write(to: &out)
        return out.string
    }

    /// Appends the JSON text to a string. The text is built as bytes first: appending to a String piece by piece
    /// costs several times more (it was most of a daemon.ping's time in the daemon).
    public func write(to out: inout String) {
        var bytes = JSONOutput()
        write(to: &bytes)
        out += bytes.string
    }

    /// Appends the JSON text as UTF-8 bytes.
    public func write(to out: inout [UInt8]) {
        var bytes = JSONOutput()
        write(to: &bytes)
        bytes.withBytes { out.append(contentsOf: $0) }
    }

    /// Appends the JSON text as UTF-8 bytes.
    public func write(to out: inout JSONOutput) {
        switch self {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
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

    /// Integral values print without a fraction; non-finite values (never produced on purpose) print as null.
    public static func writeNumber(_ n: Double, to out: inout String) {
        var bytes = JSONOutput(capacity: 32)
        writeNumber(n, to: &bytes)
        out += bytes.string
    }

    public static func writeNumber(_ n: Double, to out: inout [UInt8]) {
        var bytes = JSONOutput(capacity: 32)
        writeNumber(n, to: &bytes)
        bytes.withBytes { out.append(contentsOf: $0) }
    }

    /// Whole numbers under 1e15 print as integers, every other finite number exactly as `Double.description`
    /// prints it, non-finite ones as `null`: `cdtoa_json` writes the bytes straight into `out` (README, "Hand-written:
    /// the double printer"; `DoublePrinterTests` hold it to `description`).
    public static func writeNumber(_ n: Double, to out: inout JSONOutput) {
        out.appendNumber(n)
    }

    public static func writeString(_ s: String, to out: inout String) {
        var bytes = JSONOutput()
        writeString(s, to: &bytes)
        out += bytes.string
    }

    public static func writeString(_ s: String, to out: inout [UInt8]) {
        var bytes = JSONOutput()
        writeString(s, to: &bytes)
        bytes.withBytes { out.append(contentsOf: $0) }
    }

    /// A quoted string: `"` and `\` are escaped, and so are control characters (`\n`, `\r`, `\t`, else `\u00XX`);
    /// every other byte (UTF-8 of other characters included) is copied as it is.
    ///
    /// A short string (ids, names, states: up to `reservedLength` bytes) gets room for its worst case (every byte a
    /// `\u00XX`) once and is copied with no capacity check per byte (`JSONOutput.appendEscapedReserved`, the same
    /// escapes): through an append per run each was ~230 instructions of a response. A longer one (a plugin's log
    /// message) is copied in runs, so a buffer kept from line to line never grows to six times a long text.
    public static func writeString(_ s: String, to out: inout JSONOutput) {
        var s = s
        s.withUTF8 { utf8 in
            guard utf8.count <= reservedLength else {
                out.append(UInt8(ascii: "\""))
                writeEscaped(utf8, to: &out)
                out.append(UInt8(ascii: "\""))
                return
            }
            out.reserve(6 * utf8.count + 2)
            out.appendReserved(UInt8(ascii: "\""))
            out.appendEscapedReserved(utf8)
            out.appendReserved(UInt8(ascii: "\""))
        }
    }

    /// The longest string `writeString` reserves its worst case for.
    static var reservedLength: Int { 256 }

    private static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout JSONOutput) {
        var start = 0
        for i in 0..<utf8.count {
            let byte = utf8[i]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            out.append(UnsafeBufferPointer(rebasing: utf8[start..<i]))
            start = i + 1
            out.append(0x5C)
            switch byte {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            default:
                out.append("u00")
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            }
        }
        out.append(UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
