/// Why a text is not acceptable JSON.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public var description: String { "\(message) at byte \(offset)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes: invalid UTF-8, trailing garbage, bare control characters in strings
/// and nesting deeper than `maxDepth` are errors. Numbers must be finite.
public struct JSONParser {
    public static let defaultMaxDepth = 64

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8), maxDepth: maxDepth)
    }

    public static func parse(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
        throws(JSONParseError) -> JSONValue
    {
        var parser = Cursor(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    /// Parses the one value that starts at `offset` (no whitespace before it) as if it sat `depth` levels deep,
    /// and returns it with the offset just past it. For a reader that walks a known object itself and builds only
    /// the members it needs: the value, its errors and its depth limit are exactly what `parse` would give there.
    public static func parseValue(
        in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, depth: Int, maxDepth: Int = defaultMaxDepth
    ) throws(JSONParseError) -> (value: JSONValue, end: Int) {
        var parser = Cursor(bytes: bytes, maxDepth: maxDepth)
        parser.index = offset
        let value = try parser.parseValue(depth: depth)
        return (value, parser.index)
    }

    public static func parse(bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var result: Result<JSONValue, JSONParseError> = .failure(JSONParseError(message: "empty", offset: 0))
        bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                result = .success(try parse(bytes: buffer, maxDepth: maxDepth))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }
}

private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    /// Past this many keys an object finds repeated keys with a dictionary instead of a linear search.
    static let indexedKeys = 32

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    mutating func expect(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal") }
        let start = word.utf8Start
        for i in 0..<count where bytes[index + i] != start[i] { throw error("invalid literal") }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        index += 1
        // Pairs are gathered with room for a typical protocol object, then handed over whole (growing the array
        // one key at a time reallocated it twice for a request envelope).
        var pairs: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        pairs.reserveCapacity(6)
        var keyPositions: [String: Int] = [:]
        var indexed = false
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            // A repeated key: the last one wins, in the first one's place. Protocol objects are small and searched
            // linearly; past `indexedKeys` pairs a dictionary finds repeats, so a line of a hundred thousand keys
            // costs linear time, not seconds of the event loop.
            if indexed {
                // Looked up and inserted in one access, so the dictionary is never copied.
                let i = keyPositions[key, default: pairs.count]
                if i < pairs.count { pairs[i].value = value } else {
                    keyPositions[key] = i
                    pairs.append((key, value))
                }
            } else if let i = pairs.firstIndex(where: { $0.key == key }) {
                pairs[i].value = value
            } else {
                pairs.append((key, value))
                if pairs.count == Self.indexedKeys {
                    keyPositions.reserveCapacity(pairs.count * 2)
                    for (i, pair) in pairs.enumerated() { keyPositions[pair.key] = i }
                    indexed = true
                }
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(uniquePairs: pairs)) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. ASCII needs no validation (String(validating:) is generic and costs a metadata
        // lookup per call: it was a tenth of a daemon.ping's time in the daemon).
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw JSONParseError(message: "invalid UTF-8 in string", offset: start)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        var scratch: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw JSONParseError(message: "invalid UTF-8 in string", offset: start)
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in string") }
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger, index - start <= 15 {
            var value: Int64 = 0
            var i = start
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            while i < index {
                value = value * 10 + Int64(bytes[i] - UInt8(ascii: "0"))
                i += 1
            }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(message: "number out of range", offset: start)
        }
        return value
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
