/// The valid name nearest to a misspelt one, for "did you mean" hints (unknown methods, view properties, curves).
/// Distance is optimal string alignment (Levenshtein plus adjacent swaps, so `alpah` is one edit from `alpha`),
/// ignoring case and `_`/`-` differences' cost beyond one edit; a name further than about a third of its length
/// away has no nearest name.
public enum NearestName {
    public static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        let word = name.utf8.map(lowercasedASCII)
        guard !word.isEmpty, word.count <= 256 else { return nil }
        let limit = word.count <= 3 ? 1 : max(2, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            // The distance is at least the difference in length: most candidates end here, with nothing allocated.
            guard abs(candidate.utf8.count - word.count) <= limit else { continue }
            let d = distance(word, candidate.utf8.map(lowercasedASCII))
            if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        if let best { return best.name }
        // `ping` for `daemon.ping`: a dotted name whose last part is exactly the word (compared as bytes: splitting
        // each candidate into Characters cost ~30 µs per unknown method).
        guard !name.utf8.contains(UInt8(ascii: ".")) else { return nil }
        let suffix = [UInt8(ascii: ".")] + Array(name.utf8)
        return candidates.first { $0.utf8.count > suffix.count && $0.utf8.suffix(suffix.count).elementsEqual(suffix) }
    }

    /// Names are ASCII; case is ignored byte by byte (no Unicode case mapping, which cost more than the search).
    static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// Optimal string alignment distance.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, previous2[j - 2] + 1) }
                current[j] = d
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
