/// Everything a call into animator code can change in a scene, captured so that a failed call can be undone:
/// view values and hierarchy, running animations, pending completions, timers and the views created since.
struct SceneSnapshot {
    struct ViewState {
        let view: View
        let model: ViewValues
        let presentation: ViewValues
        let superview: View?
        let subviews: [View]
        let hidden: Bool
        let z: Double
    }

    let views: [ViewState]
    let nextViewSerial: Int
    let running: [PropertyAnimation]
    let groups: [(group: AnimationGroup, remaining: Int, finished: Bool, done: Bool)]
    let pendingCount: Int
    let nextTimerID: Int
}

extension Scene {
    func captureSnapshot() -> SceneSnapshot {
        let views = viewsBySerial.values.map {
            SceneSnapshot.ViewState(
                view: $0, model: $0.model, presentation: $0.presentation, superview: $0.superview,
                subviews: $0.subviews, hidden: $0.hidden, z: $0.z)
        }
        var seen = Set<ObjectIdentifier>()
        var groups: [(AnimationGroup, Int, Bool, Bool)] = []
        for animation in running where seen.insert(ObjectIdentifier(animation.group)).inserted {
            let g = animation.group
            groups.append((g, g.remaining, g.finished, g.done))
        }
        return SceneSnapshot(
            views: views, nextViewSerial: nextViewSerial, running: running.filter { !$0.removed }, groups: groups,
            pendingCount: pendingCompletions.count, nextTimerID: nextTimerID)
    }

    func restore(_ snapshot: SceneSnapshot) {
        structureVersion &+= 1
        valueVersion &+= 1
        // Views made since the snapshot go away, each on its own: their parents are views of the snapshot, whose
        // subviews are restored below, or made since and going too; a view of the snapshot the call moved under a
        // new one is no subview to destroy, it goes back where it was. One pass, not a search of a parent's
        // subviews per view: a failed call can have made the scene's limit of views.
        let created = viewsBySerial.values.filter { $0.serial >= snapshot.nextViewSerial }
        for view in created { discard(view) }
        running.removeAll { $0.removed }
        for state in snapshot.views {
            let view = state.view
            view.model = state.model
            view.presentation = state.presentation
            view.superview = state.superview
            view.subviews = state.subviews
            view.hidden = state.hidden
            view.z = state.z
            if view.dirty == 0 { dirtyViews.append(view) }
            view.dirty |= 0xFF
        }
        // Animations: exactly the ones that ran before, with their groups' counts.
        let keep = Set(snapshot.running.map { ObjectIdentifier($0) })
        for animation in running where !keep.contains(ObjectIdentifier(animation)) {
            animation.removed = true
            animation.group.done = true
            animation.group.completion = nil
            if animation.view.animations[animation.property.rawValue] === animation {
                animation.view.animations[animation.property.rawValue] = nil
            }
        }
        for animation in snapshot.running {
            animation.removed = false
            animation.view.animations[animation.property.rawValue] = animation
        }
        running = snapshot.running
        for (group, remaining, finished, done) in snapshot.groups {
            group.remaining = remaining
            group.finished = finished
            group.done = done
        }
        if pendingCompletions.count > snapshot.pendingCount {
            pendingCompletions.removeLast(pendingCompletions.count - snapshot.pendingCount)
        }
        // Blocks opened by the failed call and never committed.
        blockStack.removeAll()
        timers.removeAll { $0.id > snapshot.nextTimerID }
    }

    /// Removes a view (and its subviews) from the scene for good.
    func destroyView(_ view: View) {
        for subview in view.subviews { destroyView(subview) }
        removeFromSuperview(view)
        discard(view)
        running.removeAll { $0.removed }
    }

    /// Takes one view out of the scene (its animations marked removed, not yet dropped from `running`), leaving
    /// its place in the hierarchy to the caller.
    private func discard(_ view: View) {
        view.superview = nil
        view.subviews = []
        for property in AnimatableProperty.allCases {
            if let animation = view.animations[property.rawValue] {
                animation.removed = true
                animation.group.remaining -= 1
                view.animations[property.rawValue] = nil
            }
        }
        view.isAlive = false
        viewsByID[view.id] = nil
        viewsBySerial[view.serial] = nil
    }
}

extension Scene {
    /// Removes a view a plugin made and no longer wants (for example when its options were invalid).
    public func destroyViewForPlugin(_ view: View) {
        guard view.owner == nil, view !== window else { return }
        destroyView(view)
    }
}
