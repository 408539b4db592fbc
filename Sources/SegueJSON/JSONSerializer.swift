extension JSONValue {
    /// Compact JSON text on one line: newlines and control characters inside strings are escaped.
    public func serialized() -> String {
        var out = ""
        out.reserveCapacity(64)
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): JSONValue.writeNumber(n, to: &out)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let array):
            out += "["
            var first = true
            for element in array {
                if !first { out += "," }
                first = false
                element.write(to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            var first = true
            for (key, value) in object {
                if !first { out += "," }
                first = false
                JSONValue.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Integral values print without a fraction; non-finite values (never produced on purpose) print as null.
    public static func writeNumber(_ n: Double, to out: inout String) {
        guard n.isFinite else {
            out += "null"
            return
        }
        if n == n.rounded(), abs(n) < 1e15 {
            out += String(Int64(n))
        } else {
            out += "\(n)"
        }
    }

    public static func writeString(_ s: String, to out: inout String) {
        out += "\""
        var needsEscape = false
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        out += "\""
    }
}
