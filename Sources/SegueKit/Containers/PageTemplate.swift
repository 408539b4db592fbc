/// How a paging container makes its pages (seed 004's data source).
public struct PageTemplate: Sendable, Equatable {
    public var titlePrefix: String
    public var colors: [Color]

    public init(titlePrefix: String = "Page ", colors: [Color] = []) {
        self.titlePrefix = titlePrefix
        self.colors = colors
    }

    public static let defaultColors: [Color] = ["#ff3b30", "#ff9500", "#ffcc00", "#34c759", "#007aff", "#5856d6"]
        .compactMap { Color(hex: $0) }

    func title(of page: Int) -> String { titlePrefix + String(page) }

    func color(of page: Int) -> Color {
        let palette = colors.isEmpty ? PageTemplate.defaultColors : colors
        return palette.isEmpty ? .white : palette[page % palette.count]
    }
}
