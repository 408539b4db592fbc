import SegueJSON

extension RequestEnvelope {
    /// The envelope of a line that holds one plain, valid request, read straight from its bytes: the request object
    /// is not built, and only `id` and `params` go through SegueJSON's parser (at the depth they sit in the line).
    ///
    /// Plain means: `jsonrpc` is exactly `"2.0"`; member names and the method name are ASCII without escapes; the
    /// id, if any, is a string of at most 256 bytes, a number or null; params, if any, are an object; no member
    /// JSON-RPC does not define and none twice. Anything else — a batch, malformed JSON, an escape in a name, a
    /// refused envelope — is nil, and the caller parses the line whole, which gives the same envelope or the error
    /// the request deserves. EnvelopeScanTests hold `scan` to that against the parser on mutated lines.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, methods: MethodTable) -> RequestEnvelope? {
        guard let (request, end) = scanObject(bytes, at: skipWhitespace(bytes, from: 0), depth: 1, methods: methods),
            skipWhitespace(bytes, from: end) == bytes.count
        else { return nil }
        return request
    }

    /// The envelopes of a line that holds a batch of plain requests (as `scan` takes them), in order. Nil when any
    /// member is not plain, or the batch is empty: the caller parses the line whole, as for `scan`. Every member is
    /// read before any runs, so a line that turns out malformed runs nothing.
    static func scanBatch(_ bytes: UnsafeBufferPointer<UInt8>, methods: MethodTable) -> [RequestEnvelope]? {
        var i = skipWhitespace(bytes, from: 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { return nil }
        var requests: [RequestEnvelope] = []
        while true {
            let start = skipWhitespace(bytes, from: i + 1)
            guard let (request, end) = scanObject(bytes, at: start, depth: 2, methods: methods) else { return nil }
            requests.append(request)
            i = skipWhitespace(bytes, from: end)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") { continue }
            guard bytes[i] == UInt8(ascii: "]"), skipWhitespace(bytes, from: i + 1) == bytes.count else { return nil }
            return requests
        }
    }

    /// A plain request object starting at `start` (its `{`), nested `depth` levels deep (1: the whole line), with
    /// the index after its `}`. Inlined into both callers: as a call it cost a daemon.ping 3 % more instructions.
    @inline(__always)
    private static func scanObject(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, depth: Int,
                                   methods: MethodTable) -> (RequestEnvelope, Int)?
    {
        let end = bytes.count
        guard start < end, bytes[start] == UInt8(ascii: "{") else { return nil }
        var i = skipWhitespace(bytes, from: start + 1)
        var seen: Member = []
        var id: RequestID?
        var packedID = PackedID(rawValue: PackedID.notification)
        var method: Method?
        var params = JSONObject()
        while true {
            guard let keyEnd = plainString(bytes, at: i), let member = Member(bytes, from: i + 1, to: keyEnd),
                !seen.contains(member)
            else { return nil }
            seen.insert(member)
            i = skipWhitespace(bytes, from: keyEnd + 1)
            guard i < end, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipWhitespace(bytes, from: i + 1)
            switch member {
            case .jsonrpc:
                guard end - i >= 5, bytes[i] == UInt8(ascii: "\""), bytes[i + 1] == UInt8(ascii: "2"),
                    bytes[i + 2] == UInt8(ascii: "."), bytes[i + 3] == UInt8(ascii: "0"),
                    bytes[i + 4] == UInt8(ascii: "\"")
                else { return nil }
                i += 5
            case .method:
                guard let close = plainString(bytes, at: i) else { return nil }
                let name = UnsafeBufferPointer(rebasing: bytes[(i + 1)..<close])
                method = methods.number(of: name).map(Method.known) ?? .unknown(String(decoding: name, as: UTF8.self))
                i = close + 1
            case .id:
                // A number id is kept as its text (RequestID): the answer carries it as sent.
                if let next = smallInteger(bytes, at: i) {
                    let text = UnsafeBufferPointer(rebasing: bytes[i..<next])
                    id = .number(asciiString(text))
                    packedID = PackedID(kind: PackedID.number, bytes: text)
                    i = next
                    break
                }
                guard let (value, next) = try? JSONParser.parseValue(in: bytes, at: i, depth: depth) else { return nil }
                switch value {
                case .string(let s) where s.utf8.count > 256: return nil
                case .string(let s):
                    id = .string(s)
                    // Without escapes the value is the bytes between the quotes.
                    let raw = UnsafeBufferPointer(rebasing: bytes[(i + 1)..<(next - 1)])
                    packedID = raw.contains(UInt8(ascii: "\\")) ? PackedID(id) ?? .long
                        : PackedID(kind: PackedID.string, bytes: raw)
                case .null:
                    id = .null
                    packedID = PackedID(rawValue: PackedID.null)
                case .number:
                    let text = UnsafeBufferPointer(rebasing: bytes[i..<next])
                    id = .number(String(decoding: text, as: UTF8.self))
                    packedID = PackedID(kind: PackedID.number, bytes: text)
                default: return nil
                }
                i = next
            default:
                if let (object, next) = scanParams(bytes, at: i, depth: depth) {
                    params = object
                    i = next
                    break
                }
                guard let (value, next) = try? JSONParser.parseValue(in: bytes, at: i, depth: depth),
                    case .object(let object) = value
                else { return nil }
                params = object
                i = next
            }
            i = skipWhitespace(bytes, from: i)
            guard i < end else { return nil }
            if bytes[i] == UInt8(ascii: ",") {
                i = skipWhitespace(bytes, from: i + 1)
                continue
            }
            guard bytes[i] == UInt8(ascii: "}"), seen.contains(.jsonrpc), let method else { return nil }
            return (RequestEnvelope(id: id, method: method, params: params, packedID: packedID), i + 1)
        }
    }

    /// The `params` object at `start` (its `{`), the request object being `depth` levels deep, read without the
    /// parser's general walk when it is plain: its member names are plain strings (printable ASCII, no escapes),
    /// none is given twice and there are fewer than 32. A name and a plain string value are their bytes
    /// (`asciiString`), a small integer its value; any other value (a string with escapes or other UTF-8, a
    /// fraction, a literal, an array, an object) goes through the parser at its depth. Nil when the object is not
    /// plain or not well-formed: the caller parses it with the parser, which gives the same object (or the same
    /// refusal). EnvelopeScanTests hold it to the parser.
    static func scanParams(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, depth: Int) -> (JSONObject, Int)? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var i = skipWhitespace(bytes, from: start + 1)
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "}") { return (JSONObject(), i + 1) }
        var pairs: [(key: String, value: JSONValue)] = []
        pairs.reserveCapacity(6)
        while true {
            guard let keyEnd = plainString(bytes, at: i) else { return nil }
            let key = asciiString(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<keyEnd]))
            // A repeated name: the parser keeps the last value in the first one's place; left to it.
            for k in pairs.indices where pairs[k].key == key { return nil }
            i = skipWhitespace(bytes, from: keyEnd + 1)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipWhitespace(bytes, from: i + 1)
            guard i < bytes.count else { return nil }
            let value: JSONValue
            if bytes[i] == UInt8(ascii: "\""), let close = plainString(bytes, at: i) {
                value = .string(asciiString(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<close])))
                i = close + 1
            } else if let next = smallInteger(bytes, at: i) {
                // The parser's own reading of an integer of at most 15 characters: its digits' value as a Double.
                var n: Int64 = 0
                let negative = bytes[i] == UInt8(ascii: "-")
                for k in (negative ? i + 1 : i)..<next { n = n * 10 + Int64(bytes[k] &- UInt8(ascii: "0")) }
                value = .number(Double(negative ? -n : n))
                i = next
            } else {
                guard let (parsed, next) = try? JSONParser.parseValue(in: bytes, at: i, depth: depth + 1) else {
                    return nil
                }
                value = parsed
                i = next
            }
            pairs.append((key, value))
            // Past a protocol object's size the parser finds repeats with a dictionary, not a search per name.
            if pairs.count == 32 { return nil }
            i = skipWhitespace(bytes, from: i)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") {
                i = skipWhitespace(bytes, from: i + 1)
                continue
            }
            guard bytes[i] == UInt8(ascii: "}") else { return nil }
            return (JSONObject(uniquePairs: pairs), i + 1)
        }
    }

    /// The members JSON-RPC defines for a request, as a set of bits (to refuse one given twice).
    private struct Member: OptionSet {
        let rawValue: UInt8
        static let jsonrpc = Member(rawValue: 1)
        static let id = Member(rawValue: 2)
        static let method = Member(rawValue: 4)
        static let params = Member(rawValue: 8)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The member named by `bytes[start..<end]`, or nil for any other name. The name's bytes are packed into one
        /// word (first byte highest, as the name reads in hex) and compared as a number.
        init?(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
            guard end - start <= 7 else { return nil }
            var word: UInt64 = 0
            for k in start..<end { word = word << 8 | UInt64(bytes[k]) }
            switch word {
            case 0x6964: self = .id  // "id"
            case 0x6D65_7468_6F64: self = .method  // "method"
            case 0x7061_7261_6D73: self = .params  // "params"
            case 0x6A73_6F6E_7270_63: self = .jsonrpc  // "jsonrpc"
            default: return nil
            }
        }
    }

    /// A String of bytes known to be ASCII (a plain string's, a number's). Up to 15 of them are written straight
    /// into a small string, which needs no UTF-8 check (`String(decoding:)` checks them first); longer ones are
    /// decoded.
    static func asciiString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= 15, let source = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { target in
            guard let base = target.baseAddress else { return 0 }
            base.initialize(from: source, count: bytes.count)
            return bytes.count
        }
    }

    private static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return i
            }
        }
        return i
    }

    /// The end of an integer of at most 15 characters (no fraction, no exponent, no leading zero) at `start`, the
    /// usual id, with no parser call. Nil for any other value, left to the parser.
    private static func smallInteger(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var i = start
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
        let first = i
        while i < bytes.count, i - first < 16, bytes[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        let digits = i - first
        guard digits > 0, i - start <= 15, digits == 1 || bytes[first] != UInt8(ascii: "0") else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] | 0x20 == UInt8(ascii: "e") { return nil }
        return i
    }

    /// The index of the closing quote of the string that starts at `start`, when it is plain: printable ASCII
    /// without escapes (what the parser would take byte for byte). Nil otherwise.
    private static func plainString(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var i = start + 1
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") { return i }
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") { return nil }
            i += 1
        }
        return nil
    }
}
