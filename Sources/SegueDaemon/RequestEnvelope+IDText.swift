import SegueJSON

extension RequestEnvelope {
    /// The text of each request's number id on a line the parser has already read whole (the general path): one
    /// entry for a request object, one per member for a batch; nil where the id is missing or not a number. The
    /// parser gives numbers as Doubles, so this is where an id like `9007199254740993` keeps its digits. A repeated
    /// `id` is read as the parser reads it: the last one wins. Only valid JSON comes here; anything else gives nils.
    static func idTexts(in bytes: UnsafeBufferPointer<UInt8>) -> [String?] {
        var walker = IDWalker(bytes: bytes)
        walker.skipWhitespace()
        guard walker.index < bytes.count else { return [] }
        if bytes[walker.index] == UInt8(ascii: "{") { return [walker.objectIDText()] }
        guard bytes[walker.index] == UInt8(ascii: "[") else { return [] }
        var texts: [String?] = []
        walker.index += 1
        while true {
            walker.skipWhitespace()
            guard walker.index < bytes.count, bytes[walker.index] != UInt8(ascii: "]") else { return texts }
            if bytes[walker.index] == UInt8(ascii: "{") {
                texts.append(walker.objectIDText())
            } else {
                guard walker.skipValue() else { return texts }
                texts.append(nil)
            }
            walker.skipWhitespace()
            guard walker.index < bytes.count, bytes[walker.index] == UInt8(ascii: ",") else { return texts }
            walker.index += 1
        }
    }
}

/// Walks JSON text the parser accepted, finding the members named `id` without building any value.
private struct IDWalker {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// The text of the number-valued `id` of the object at `index` (its `{`), leaving `index` after its `}`.
    mutating func objectIDText() -> String? {
        index += 1
        var text: String?
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                index += 1  // `}` of an empty object (or anything the parser would not have taken)
                return text
            }
            let keyStart = index
            guard skipString() else { return text }
            let isID = isIDKey(keyStart, index)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return text }
            index += 1
            skipWhitespace()
            let valueStart = index
            guard skipValue() else { return text }
            if isID {
                let first = bytes[valueStart]
                let isNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
                text = isNumber
                    ? String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<index]), as: UTF8.self) : nil
            }
            skipWhitespace()
            guard index < bytes.count else { return text }
            let separator = bytes[index]
            index += 1
            if separator != UInt8(ascii: ",") { return text }
        }
    }

    /// Whether the key string `bytes[start..<end]` (quotes included) is "id", escapes and all (`"\u0069d"`).
    func isIDKey(_ start: Int, _ end: Int) -> Bool {
        if end - start == 4 { return bytes[start + 1] == UInt8(ascii: "i") && bytes[start + 2] == UInt8(ascii: "d") }
        guard bytes[start..<end].contains(UInt8(ascii: "\\")),
            let (key, _) = try? JSONParser.parseValue(in: bytes, at: start, depth: 1)
        else { return false }
        return key == .string("id")
    }

    /// Skips the string at `index` (its opening quote); false at the end of the text.
    mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return true
            default: index += 1
            }
        }
        return false
    }

    /// Skips the value at `index`: a string, a container (whatever it holds) or a literal/number.
    mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return true
                default: index += 1
                }
            }
            return true
        }
    }
}
