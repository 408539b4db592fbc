/// What `container.create {kind: "split"}` chooses besides the columns.
public struct SplitConfiguration: Sendable, Equatable {
    /// Nil: double column for two children, triple for three.
    public var style: SplitStyle?
    public var displayMode: SplitDisplayMode

    public init(style: SplitStyle? = nil, displayMode: SplitDisplayMode = .automatic) {
        self.style = style
        self.displayMode = displayMode
    }
}
