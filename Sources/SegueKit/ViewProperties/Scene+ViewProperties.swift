extension Scene {
    /// Sets `property` of `view` to `values` (`property.count` of them, already admitted by its model range), as
    /// the typed setters do: animated inside a block when the property animates, else at once.
    public func set(_ view: View, _ property: ViewProperty, values: UnsafeBufferPointer<Double>) {
        set(view, property, values, array: nil)
    }
}
