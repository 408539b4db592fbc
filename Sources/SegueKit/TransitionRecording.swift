/// What a transition records: its timeline (for render.*), the subtree the timeline records, the views a
/// presentation plugin put in its container before animate, and the views as they were before the animator ran.
struct TransitionRecording {
    var timeline = Timeline()
    var timelineRoot: View?
    var presentationViews: [View] = []
    var baseline: TransitionBaseline?
}

extension Transition {
    /// The recorded timeline (for render.*): the container's views at every tick of the transition.
    public internal(set) var timeline: Timeline {
        get { recording.timeline }
        _modify { yield &recording.timeline }
    }
    /// The subtree the timeline records: the container's view, or the whole window for a present or dismiss (so
    /// the presenting view is in the picture).
    public internal(set) var timelineRoot: View? {
        get { recording.timelineRoot }
        _modify { yield &recording.timelineRoot }
    }
    /// A present's or dismiss's container subviews when `animate` was called: what the presentation plugin put
    /// there (a dimming view), which is not the animator's to remove.
    public internal(set) var presentationViews: [View] {
        get { recording.presentationViews }
        _modify { yield &recording.presentationViews }
    }
    /// What the views looked like before the animator ran: a cancelled transition puts them back exactly.
    var baseline: TransitionBaseline? {
        get { recording.baseline }
        _modify { yield &recording.baseline }
    }
}
