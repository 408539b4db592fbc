/// Gradient views (`segue.gradient_view`, issue 26): a view drawn by a CAGradientLayer, its colours, locations,
/// start and end points and type kept in `ViewValues.gradient` and animated as any view property.
extension Scene {
    /// A new view (not yet in the tree) drawn by a CAGradientLayer with `gradient`; its colour is clear (a
    /// CAGradientLayer's backgroundColor is nil) unless given.
    public func makeGradientView(id: String? = nil, frame: Rect, gradient: GradientValues, color: Color = .clear)
        throws(EngineError) -> View
    {
        let view = try makeView(id: id, frame: frame, color: color)
        tree.makeGradient(view, gradient)
        return view
    }

    /// Makes `view` a gradient view with `gradient` (a snapshot of a gradient view copies its look this way).
    public func makeGradient(_ view: View, _ gradient: GradientValues) {
        guard view.isAlive else { return }
        tree.makeGradient(view, gradient)
    }

    /// Why a write of `values` to the gradient part `property` of `view` is refused, nil when it may happen: the view
    /// must be a gradient view, the colours not empty and never fewer than the locations, the locations ascending in
    /// 0…1 (CAGradientLayer.locations), the type one of CAGradientLayerType's.
    public func gradientRefusal(_ view: View, _ property: ViewProperty, _ values: [Double]) -> String? {
        guard let gradient = view.model.gradient else {
            return "view.\(property.name): view \(view.id) is not a gradient view (segue.gradient_view makes one; "
                + "the write did not happen)"
        }
        switch property {
        case .colors: return GradientCheck.colorsRefusal(values, locations: gradient.locations)
        case .locations: return GradientCheck.locationsRefusal(values, colorCount: gradient.colorCount)
        case .gradientType:
            return values.count == 1 && GradientType(code: values[0]) != nil
                ? nil : "view.type expects \"axial\", \"radial\" or \"conic\" (the write did not happen)"
        default:
            return values.allSatisfy(\.isFinite) ? nil : "view.\(property.name) expects finite numbers (the write did not happen)"
        }
    }
}
