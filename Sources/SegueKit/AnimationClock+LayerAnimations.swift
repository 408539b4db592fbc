/// Explicit layer animations (CALayer.add(_:forKey:), removeAnimation(forKey:), animationKeys()): animations of a
/// key path that show over the model value without changing it. They run on the clock with the implicit ones
/// (after them in start order, so they are drawn over them), belong to the transition whose code added them (a
/// driven transition scrubs, finishes and reverses them), and end by their fill mode and removal rule.
extension AnimationClock {
    /// Adds (or, with a key already on the view, replaces) an explicit animation; throws naming the field when
    /// the spec is refused, and then nothing is added.
    func addLayerAnimation(_ view: View, key: String, _ spec: LayerAnimationSpec,
                           completion: ((Bool) -> Void)?) throws(LayerAnimationError)
    {
        guard view.isAlive else { throw LayerAnimationError("the view no longer exists") }
        guard let property = LayerKeyPath.named(spec.keyPath)?.property else {
            _ = try spec.resolve(current: [])  // throws the key path's own error
            return
        }
        if property.isGradient, view.model.gradient == nil {
            throw LayerAnimationError("key_path '\(spec.keyPath)' needs a gradient view (segue.gradient_view); view \(view.id) is not one")
        }
        let (keyPath, timing, value, start, end) = try spec.resolve(current: view.presentationValues(of: property))
        let options = AnimationOptions(duration: min(spec.duration, 3600), delay: min(spec.beginTime, 3600),
                                       timing: timing, repeatCount: spec.repeatCount, autoreverses: spec.autoreverses)
        let final = AnimationClock.finalValue(options, value: value, start: start, end: end)
        // CA: "If an animation with the same key already exists, it is replaced."
        removeLayerAnimation(view, key: key)
        let group = newGroup(completion: completion)
        let layer = LayerAnimation(key: key, keyPath: keyPath, fillMode: spec.fillMode,
                                   removedOnCompletion: spec.removedOnCompletion, additive: spec.additive,
                                   value: value, startValue: start, finalValue: final)
        let model = Array(view.model.get(property))
        let drive = group.transition?.drive
        let begin = (drive?.local ?? now) + Int64((options.delay * 1e9).rounded())
        let animation = PropertyAnimation(
            view: view, property: property, from: keyPath.compose(start, over: model, additive: spec.additive),
            to: keyPath.compose(final, over: model, additive: spec.additive), begin: begin, options: options,
            group: group, layer: layer)
        animation.createdAt = now
        journals.touch(view)
        noteStarted(animation)
        journals.touch(group)
        group.remaining += 1
        view.layerAnimations.append(animation)
        if let drive {
            animation.held = true
            drive.animations.append(animation)
            animation.scrub(toElapsed: drive.local - begin)
            tree.markChanged(view, property.changeBit)
            tree.valuesChanged()
        } else {
            group.transition?.timeline.started(animation)
            resume(animation)
        }
    }

    /// The field's value at the end of the active time: where the last (maybe partial, maybe reversed) pass ends.
    static func finalValue(_ options: AnimationOptions, value: (Double) -> [Double], start: [Double], end: [Double])
        -> [Double]
    {
        let passes = max(1, options.repeatCount) * (options.autoreverses ? 2 : 1)
        let whole = passes.rounded(.down)
        let fraction = passes - whole
        if fraction == 0 {
            let reversed = options.autoreverses && Int(whole - 1) % 2 == 1
            return reversed ? value(options.timing.progress(at: 0, duration: options.duration)) : value(1)
        }
        let reversed = options.autoreverses && Int(whole) % 2 == 1
        let t = options.duration * (reversed ? 1 - fraction : fraction)
        return value(options.timing.progress(at: t, duration: options.duration))
    }

    /// CALayer.removeAnimation(forKey:): a running animation stops (its completion gets finished = false) and the
    /// view shows its model value again. False when no animation has the key.
    @discardableResult
    func removeLayerAnimation(_ view: View, key: String) -> Bool {
        guard let i = view.layerAnimations.firstIndex(where: { $0.layer?.key == key }) else { return false }
        journals.touch(view)
        let animation = view.layerAnimations.remove(at: i)
        if !animation.removed {
            let group = animation.group
            journals.touch(group)
            journals.noteStopped(animation)
            setRemoved(animation)
            group.transition?.timeline.stopped(animation, at: now)
            group.finished = false
            oneEnded(in: group)
        }
        showModel(view, animation.property)
        return true
    }

    /// The keys of the view's explicit animations, in the order they were added (CALayer.animationKeys()).
    func layerAnimationKeys(_ view: View) -> [String] { view.layerAnimations.compactMap { $0.layer?.key } }

    /// An explicit animation reached the end of its active time on the clock: its final value stays (fill
    /// forwards, not removed on completion) or it comes off the view, which shows its model value again.
    func endLayerAnimation(_ animation: PropertyAnimation, _ layer: LayerAnimation) {
        if layer.keepsFinalValue {
            layer.filled = true
            return
        }
        detach(animation)
    }

    /// A driven transition's explicit animation ended: forward, as on the clock; cancelled (back at its start), it
    /// comes off whatever its fill mode (percent-driven cancel puts the views back as they were).
    func retireLayerAnimation(_ animation: PropertyAnimation, _ layer: LayerAnimation, cancelled: Bool) {
        guard !animation.removed else { return }
        journals.touch(animation.view)
        journals.touch(animation.group)
        setRemoved(animation)
        let group = animation.group
        oneEnded(in: group)
        if cancelled || !layer.keepsFinalValue {
            detach(animation)
        } else {
            layer.filled = true
            animation.write(animation.layerValue(layer, atElapsed: animation.activeNs))
        }
    }

    /// A driven transition's animation handed back to the clock as a shifted copy: the copy takes its place.
    func replaceLayerAnimation(_ old: PropertyAnimation, with new: PropertyAnimation) {
        let view = old.view
        if let i = view.layerAnimations.firstIndex(where: { $0 === old }) { view.layerAnimations[i] = new }
    }

    private func detach(_ animation: PropertyAnimation) {
        let view = animation.view
        view.layerAnimations.removeAll { $0 === animation }
        showModel(view, animation.property)
    }

    /// After an explicit animation of `property` comes off: the presentation shows the model value, under any
    /// filled animation of the property still on the view. An implicit animation of it writes its own next frame.
    func showModel(_ view: View, _ property: ViewProperty) {
        guard view.animations[property.rawValue] == nil else { return }
        if property.isGradient {
            view.setPresentation(property, view.model.get(property))
        } else {
            let offset = property.offset
            let p = view.presentationChannels
            view.model.channels.withUnsafeBufferPointer { m in
                for k in 0..<property.count { p[offset + k] = m[offset + k] }
            }
        }
        tree.markChanged(view, property.changeBit)
        tree.valuesChanged()
        showFilled(view, property)
    }

    /// Writes the final values of the view's filled explicit animations of `property` over its presentation.
    func showFilled(_ view: View, _ property: ViewProperty) {
        for animation in view.layerAnimations where animation.property == property {
            guard let layer = animation.layer, layer.filled else { continue }
            animation.write(animation.layerValue(layer, atElapsed: animation.activeNs))
            tree.markChanged(view, property.changeBit)
        }
    }
}
