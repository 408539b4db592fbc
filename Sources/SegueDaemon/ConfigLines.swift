/// Where each key and section of a config file's text is, found by reading the text line by line (TOMLKit gives a
/// parse error's line and column, and a parsed value no place at all): so that every config error names its line,
/// and the `section.key` whose value holds a syntax error. Only what segued's config uses is understood — section
/// headers, `key = value` lines with plain, quoted or dotted keys, and values that run over several lines (arrays,
/// inline tables, multi-line strings); the text it reads may be malformed, and then it knows less, never wrongly.
struct ConfigLines {
    /// One `key = value`: its full name (`limits.max_scenes`), the line of its key, the column (1-based) where its
    /// value starts, and the last line its value reaches.
    struct Entry {
        let key: String
        let line: Int
        let valueColumn: Int
        var lastLine: Int
    }

    private(set) var entries: [Entry] = []
    /// Section headers and their lines.
    private(set) var sections: [(name: String, line: Int)] = []

    init(_ text: String) {
        var section = ""
        // While a value runs over lines: the entry's index, the open brackets, and the multi-line string's quote.
        var open: (entry: Int, depth: Int, quote: String?)?
        for (i, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = i + 1
            let line = Array(rawLine.utf8)
            if var running = open {
                let (depth, quote) = ConfigLines.track(line, from: 0, depth: running.depth, quote: running.quote)
                entries[running.entry].lastLine = number
                running.depth = depth
                running.quote = quote
                open = depth > 0 || quote != nil ? running : nil
                continue
            }
            var at = ConfigLines.skipSpace(line, 0)
            guard at < line.count, line[at] != UInt8(ascii: "#") else { continue }
            if line[at] == UInt8(ascii: "[") {
                let double = at + 1 < line.count && line[at + 1] == UInt8(ascii: "[")
                at += double ? 2 : 1
                guard let (name, end) = ConfigLines.key(line, at), end < line.count, line[end] == UInt8(ascii: "]")
                else { continue }
                section = name
                sections.append((name, number))
                continue
            }
            guard let (name, end) = ConfigLines.key(line, at), end < line.count, line[end] == UInt8(ascii: "=") else {
                continue
            }
            let valueStart = ConfigLines.skipSpace(line, end + 1)
            entries.append(Entry(key: section.isEmpty ? name : "\(section).\(name)", line: number,
                                 valueColumn: valueStart + 1, lastLine: number))
            let (depth, quote) = ConfigLines.track(line, from: valueStart, depth: 0, quote: nil)
            if depth > 0 || quote != nil { open = (entries.count - 1, depth, quote) }
        }
    }

    /// The key whose value holds `line`, `column` (1-based; 0: anywhere on the line): nil when that place is in no
    /// value (a header, a key's name, a blank line).
    func key(at line: Int, column: Int) -> String? {
        for entry in entries.reversed() where entry.line <= line && line <= entry.lastLine {
            if line == entry.line, column > 0, column < entry.valueColumn { return nil }
            return entry.key
        }
        return nil
    }

    /// The line of a key (`limits.max_scenes`) or a section (`limits`), the first time it appears.
    func line(of name: String) -> Int? {
        entries.first { $0.key == name }?.line ?? sections.first { $0.name == name }?.line
    }

    private static func skipSpace(_ line: [UInt8], _ from: Int) -> Int {
        var i = from
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        return i
    }

    /// A key (bare, quoted or dotted) starting at `from`, as a dotted name, and where the text after it (and its
    /// spaces) starts.
    private static func key(_ line: [UInt8], _ from: Int) -> (String, Int)? {
        var parts: [String] = []
        var i = from
        while true {
            i = skipSpace(line, i)
            guard i < line.count else { return nil }
            if line[i] == UInt8(ascii: "\"") || line[i] == UInt8(ascii: "'") {
                let quote = line[i]
                var j = i + 1
                var part: [UInt8] = []
                while j < line.count, line[j] != quote {
                    if quote == UInt8(ascii: "\""), line[j] == UInt8(ascii: "\\"), j + 1 < line.count { j += 1 }
                    part.append(line[j])
                    j += 1
                }
                guard j < line.count else { return nil }
                parts.append(String(decoding: part, as: UTF8.self))
                i = j + 1
            } else {
                var j = i
                while j < line.count, isBare(line[j]) { j += 1 }
                guard j > i else { return nil }
                parts.append(String(decoding: line[i..<j], as: UTF8.self))
                i = j
            }
            i = skipSpace(line, i)
            guard i < line.count, line[i] == UInt8(ascii: ".") else { return (parts.joined(separator: "."), i) }
            i += 1
        }
    }

    private static func isBare(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
    }

    /// Follows brackets and strings through a line of a value: the brackets still open and the multi-line string
    /// still open at its end (a comment ends the line).
    private static func track(_ line: [UInt8], from: Int, depth: Int, quote: String?) -> (Int, String?) {
        var depth = depth
        var quote = quote
        var i = from
        func starts(_ s: String, _ at: Int) -> Bool {
            let u = Array(s.utf8)
            return at + u.count <= line.count && Array(line[at..<at + u.count]) == u
        }
        while i < line.count {
            if let q = quote {
                if q == "\"\"\"" || q == "'''" {
                    if starts(q, i) {
                        quote = nil
                        i += 3
                        continue
                    }
                    if q == "\"\"\"", line[i] == UInt8(ascii: "\\") { i += 1 }
                } else if line[i] == Array(q.utf8)[0] {
                    quote = nil
                } else if q == "\"", line[i] == UInt8(ascii: "\\") {
                    i += 1
                }
                i += 1
                continue
            }
            switch line[i] {
            case UInt8(ascii: "#"): return (depth, nil)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let q = line[i] == UInt8(ascii: "\"") ? "\"" : "'"
                if starts(q + q + q, i) {
                    quote = q + q + q
                    i += 3
                    continue
                }
                quote = q
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
            i += 1
        }
        // A one-line string left open is a syntax error on this line; it does not run on.
        if quote == "\"" || quote == "'" { quote = nil }
        return (depth, quote)
    }
}
