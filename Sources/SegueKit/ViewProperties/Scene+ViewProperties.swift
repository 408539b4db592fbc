extension Scene {
    /// Sets `property` of `view` to `values` (`property.count` of them, already admitted by its model range), as
    /// the typed setters do: animated inside a block when the property animates, else at once.
    public func set(_ view: View, _ property: ViewProperty, values: UnsafeBufferPointer<Double>) {
        set(view, property, values, array: nil)
    }

    /// Sets a one-number property (`alpha`, `corner_radius`, `z`) of `view` to `value`, already admitted by its
    /// model range: `set(_:_:values:)` without a buffer of values (the Lua host's scalar writes).
    public func set(_ view: View, _ property: ViewProperty, value: Double) {
        withUnsafePointer(to: value) { set(view, property, UnsafeBufferPointer(start: $0, count: 1), array: nil) }
    }
}
