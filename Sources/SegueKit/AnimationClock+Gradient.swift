/// A gradient view's parts (`ViewProperty.isGradient`: colors, locations, start_point, end_point, type), set as
/// `AnimationClock.set` sets a channel property — animated inside a block, recorded by a keyframe block, at once
/// outside — but kept in `ViewValues.gradient`, whose lists have the view's own length.
extension AnimationClock {
    /// Sets a gradient part's model value (already checked: `GradientCheck`); ignored on a view without a gradient.
    func setGradientPart(_ view: View, _ property: ViewProperty, _ values: [Double]) {
        guard view.isAlive, view.model.gradient != nil else { return }
        journals.touch(view)
        let changed = !view.model.get(property).elementsEqual(values)
        view.model.set(property, values)
        let block = property.animates ? blockStack.last : nil
        if let block, let keyframes = block.keyframes {
            keyframes.record(view, property, values)
            return
        }
        if let block, block.options.duration > 0 || block.options.delay > 0 {
            guard changed || view.animations[property.rawValue] != nil else { return }
            let from = view.presentationValues(of: property)
            addAnimation(view, property, from: from, to: values, options: block.options, group: block.group,
                         path: property == .locations ? AnimationClock.locationsPath(from, values, view) : nil)
        } else {
            let wasAnimating = view.animations[property.rawValue] != nil
            removeAnimation(of: view, property, finished: false)
            guard changed || wasAnimating else { return }
            view.setPresentation(property, values)
            tree.markChanged(view, property.changeBit)
            tree.valuesChanged()
            if !view.layerAnimations.isEmpty { showFilled(view, property) }
        }
    }

    /// An animation of `locations` to or from nil (evenly spaced) runs between the evenly spaced locations and the
    /// list, per component, when their lengths match (CA interpolates from the stops it draws); nil otherwise.
    static func locationsPath(_ from: [Double], _ to: [Double], _ view: View) -> ((Double) -> [Double])? {
        guard from.isEmpty != to.isEmpty else { return nil }
        func even(_ n: Int) -> [Double] { (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 } }
        let a = from.isEmpty ? even(view.presentation.gradient?.colorCount ?? 0) : from
        let b = to.isEmpty ? even(view.model.gradient?.colorCount ?? 0) : to
        guard a.count == b.count, !a.isEmpty else { return nil }
        return { p in zip(a, b).map { $0 + ($1 - $0) * p } }
    }
}
