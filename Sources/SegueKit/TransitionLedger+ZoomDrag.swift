/// Driving an interactive zoom dismissal or pop (ZoomDrag.swift, docs/PROTOCOL.md "Interactive zoom dismissal"):
/// samples and `transition.update` pose the leaving view; finish and cancel release it on the system curve.
extension TransitionLedger {
    /// A gesture sample poses the view and sets the percent.
    func poseZoom(_ t: Transition, _ drag: ZoomDrag, _ g: PanGesture, in scene: Scene) {
        let (transform, p) = drag.pose(g)
        apply(t, drag, transform, percent: p, in: scene)
    }

    /// transition.update on a zoom drag.
    func poseZoom(_ t: Transition, _ drag: ZoomDrag, percent p: Double, in scene: Scene) {
        apply(t, drag, drag.pose(percent: p), percent: p, in: scene)
    }

    private func apply(_ t: Transition, _ drag: ZoomDrag, _ transform: Transform3D, percent p: Double, in scene: Scene) {
        drag.percent = p
        if drag.view.isAlive { scene.set(drag.view, transform: transform) }
        scene.emit(.transitionUpdated(transition: t.id, percent: (p * 1e9).rounded() / 1e9))
        if !scene.clock.isTicking {
            scene.recordTimelines()
            scene.emitFrame()
        }
    }

    /// finish or cancel of a zoom drag: interaction ends (`interaction_ended`, the coordinator's handlers), then the
    /// view springs from where the gesture left it into the source — looked up again now, as Apple's provider is
    /// (gone: it fades out where it is) — or back to where it was. The release takes the system curve's 0.5 s /
    /// `speed` whatever the distance (a `curve` given to transition.finish/cancel replaces the spring).
    func releaseZoom(_ t: Transition, _ drag: ZoomDrag, cancel: Bool, speed: Double, curve: CubicBezier?, in scene: Scene) {
        endInteraction(t, cancel: cancel, speed: speed, curve: curve, in: scene)
        let saved = scene.clock.enter(t)
        defer { scene.clock.leave(restoring: saved) }
        for handler in t.interactionChangeHandlers { handler(cancel, speed) }
        guard !t.isEnded, let context = t.context, let zoom = t.animator as? ZoomAnimator else { return }
        t.state = cancel ? .cancelling : .finishing
        t.phases.append(TransitionPhase(kind: cancel ? .cancel : .finish, start: scene.now, end: nil))
        let seconds = Spring.systemDuration / speed
        let length = Int64((seconds * 1e9).rounded())
        drag.release = (begin: scene.now, length: length, from: drag.percent, to: cancel ? 0 : 1)
        let allowance = seconds * 1e9 * scene.config.watchdogFactor + Double(scene.config.watchdogGraceMs) * 1e6
        t.watchdogDeadline = scene.now + Int64(min(allowance, 1e17))
        watch(until: t.watchdogDeadline)
        zoom.release(drag, cancel: cancel, seconds: seconds, curve: curve, context: context)
    }
}
