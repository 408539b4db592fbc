/// The valid name nearest to a misspelt one, for "did you mean" hints (unknown methods, view properties, curves).
/// Distance is optimal string alignment (Levenshtein plus adjacent swaps, so `alpah` is one edit from `alpha`),
/// ignoring case and `_`/`-` differences' cost beyond one edit; a name further than about a third of its length
/// away has no nearest name.
public enum NearestName {
    public static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        let word = Array(name.lowercased().utf8)
        guard !word.isEmpty, word.count <= 256 else { return nil }
        let limit = word.count <= 3 ? 1 : max(2, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            // The distance is at least the difference in length: most candidates end here, without the table.
            let other = Array(candidate.lowercased().utf8)
            guard abs(other.count - word.count) <= limit else { continue }
            let d = distance(word, other)
            if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        if let best { return best.name }
        // `ping` for `daemon.ping`: a dotted name whose last part is exactly the word.
        return candidates.first { $0.split(separator: ".").last.map(String.init) == name }
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
