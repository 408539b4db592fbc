/// A plain-text table: a header row and aligned columns separated by two spaces.
public struct TextTable: Sendable {
    public var header: [String]
    public var rows: [[String]] = []
    /// Columns whose cells are right-aligned (numbers).
    public var rightAligned: Set<Int> = []

    public init(header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rightAligned = rightAligned
    }

    public mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as lines, without trailing spaces.
    public func render() -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        var lines: [String] = []
        for row in all {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i > 0 { line += "  " }
                let last = i == row.count - 1
                line += last && !rightAligned.contains(i) ? cell : Format.pad(cell, widths[i], right: rightAligned.contains(i))
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
