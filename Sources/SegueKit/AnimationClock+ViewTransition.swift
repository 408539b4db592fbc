/// UIView.transition(from:to:duration:options:completion:) on the clock: a snapshot of `from` and `to` animated
/// in its place (flips, curls, cross-dissolve).
extension AnimationClock {
    /// UIView.transition(from:to:duration:options:completion:). As in UIKit the model changes at once: `to`
    /// takes `from`'s place in its superview and `from` leaves it. On screen, a snapshot of `from` stands in for it
    /// while the transition plays, and goes away at the end:
    /// - flips rotate about the vertical (left/right) or horizontal (top/bottom) axis with perspective
    ///   m34 = −1/500: the snapshot turns edge-on over the first half (ease-in), then `to` turns in from the other
    ///   edge over the second half (ease-out), so `from` shows until the half-way point and `to` after it;
    /// - curl_up is approximated as the snapshot turning away about its top edge like a page lifted up (ease-in-out),
    ///   uncovering `to`; curl_down as `to` turning down about its top edge onto the snapshot;
    /// - cross_dissolve fades the snapshot out while `to` fades in.
    /// `completion(finished)` runs when it is over.
    func transitionViews(from: View, to: View, duration: Double, style: ViewTransitionStyle,
                                completion: ((Bool) -> Void)?, in scene: Scene) throws(EngineError)
    {
        guard let superview = from.superview else {
            throw .invalidParams("from", "from_view is not in a superview: there is nothing to replace")
        }
        guard from !== to else { throw .invalidParams("to", "from_view and to_view are the same view") }
        guard to.superview === superview || scene.canAdd(to, to: superview) else {
            throw .invalidParams("to", "to_view cannot go into from_view's superview (it contains it, or the scene.tree is too deep)")
        }
        let duration = min(max(duration.isFinite ? duration : 0, 0), scene.config.maxDurationS)
        // The snapshot: from_view as it looks scene.now.
        let snapshot = try scene.makeView(frame: from.presentation.frame, color: from.presentation.color)
        snapshot.presentation = from.presentation
        snapshot.model = from.presentation
        snapshot.hidden = from.hidden
        snapshot.z = from.z
        tree.markChanged(snapshot, ViewProperty.hidden.changeBit)

        // The model: to_view takes from_view's place.
        if to.superview === superview { scene.removeFromSuperview(to) }
        let index = superview.subviews.firstIndex { $0 === from } ?? superview.subviews.count
        scene.insertSubview(to, into: superview, at: index)
        scene.removeFromSuperview(from)
        let below = style == .curlDown
        scene.insertSubview(snapshot, into: superview, at: below ? index : index + 1)

        let group = newGroup(completion: { [anchor = scene.anchor, shot = snapshot.anchor] finished in
            if let scene = anchor.object, let snapshot = shot.object, snapshot.isAlive { scene.destroyView(snapshot) }
            completion?(finished)
        })
        let half = AnimationOptions(duration: duration / 2, timing: .curve(.easeIn))
        let toTransform = Array(to.model.transform.values)
        let p = Transform3D.perspective(Scene.flipPerspective)
        func turn(_ base: [Double], axis: (Double, Double, Double), from a0: Double, to a1: Double,
                  edge: Double = 0) -> (Double) -> [Double]
        {
            let baseTransform = Transform3D(values: base)
            return { progress in
                let angle = a0 + (a1 - a0) * progress
                var m = Transform3D.rotation(angle, axis.0, axis.1, axis.2)
                if edge != 0 {
                    m = Transform3D.concat(Transform3D.concat(Transform3D.translation3D(0, edge, 0), m),
                                           Transform3D.translation3D(0, -edge, 0))
                }
                return Transform3D.concat(Transform3D.concat(baseTransform, m), p).values
            }
        }
        func run(_ view: View, _ property: ViewProperty, options: AnimationOptions, from: [Double], to: [Double],
                 path: ((Double) -> [Double])?)
        {
            scene.touch(view)
            view.setPresentation(property, from)
            tree.markChanged(view, property.changeBit)
            scene.tree.valuesChanged()
            addAnimation(view, property, from: from, to: to, options: options, group: group, path: path)
        }
        let snapshotTransform = Array(snapshot.presentation.transform.values)
        switch style {
        case .flipFromLeft, .flipFromRight, .flipFromTop, .flipFromBottom:
            let vertical = style == .flipFromLeft || style == .flipFromRight
            let axis = vertical ? (0.0, 1.0, 0.0) : (1.0, 0.0, 0.0)
            let sign: Double = (style == .flipFromLeft || style == .flipFromTop) ? 1 : -1
            let outPath = turn(snapshotTransform, axis: axis, from: 0, to: sign * .pi / 2)
            run(snapshot, .transform, options: half, from: snapshotTransform, to: outPath(1), path: outPath)
            var second = half
            second.delay = duration / 2
            second.timing = .curve(.easeOut)
            let inPath = turn(toTransform, axis: axis, from: -sign * .pi / 2, to: 0)
            run(to, .transform, options: second, from: inPath(0), to: toTransform, path: inPath)
            scene.after(duration / 2) { [anchor = scene.anchor, shot = snapshot.anchor] in
                guard let scene = anchor.object, let snapshot = shot.object, snapshot.isAlive else { return }
                scene.set(snapshot, hidden: true)
            }
        case .curlUp:
            let edge = from.presentation.bounds.h / 2
            let path = turn(snapshotTransform, axis: (1, 0, 0), from: 0, to: .pi / 2, edge: edge)
            run(snapshot, .transform, options: AnimationOptions(duration: duration, timing: .curve(.easeInOut)),
                from: snapshotTransform, to: path(1), path: path)
        case .curlDown:
            let edge = to.presentation.bounds.h / 2
            let path = turn(toTransform, axis: (1, 0, 0), from: .pi / 2, to: 0, edge: edge)
            run(to, .transform, options: AnimationOptions(duration: duration, timing: .curve(.easeInOut)),
                from: path(0), to: toTransform, path: path)
        case .crossDissolve:
            let options = AnimationOptions(duration: duration, timing: .curve(.easeInOut))
            run(snapshot, .alpha, options: options, from: [snapshot.presentation.alpha], to: [0], path: nil)
            run(to, .alpha, options: options, from: [0], to: [to.model.alpha], path: nil)
        }
        completeIfEmpty(group)
    }
}
