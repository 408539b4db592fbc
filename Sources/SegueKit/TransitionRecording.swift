/// What a transition records: its timeline (for render.*), the subtree the timeline records, the views a
/// presentation plugin put in its container before animate, and the views as they were before the animator ran.
struct TransitionRecording {
    var timeline = Timeline()
    var timelineRoot: View?
    var presentationViews: [View] = []
    var baseline: TransitionBaseline?
    /// What the ended transition holds (`Transition.retainedBytes`).
    var retainedBytes = 0
}

extension Transition {
    /// What the ended transition holds, as `estimatedBytes` measured it when it ended (0 while it runs): what
    /// `engine.timeline_retention_bytes` counts.
    public internal(set) var retainedBytes: Int {
        get { recording.retainedBytes }
        set { recording.retainedBytes = newValue }
    }

    /// The heap bytes the transition keeps while retained, estimated: a fixed share for the record itself, its
    /// context, its container change lists and phases (`Transition.recordBytes`), plus its timeline's samples
    /// and animations (`Timeline.estimatedBytes`).
    public var estimatedBytes: Int { Transition.recordBytes + timeline.estimatedBytes }

    /// The fixed share of `estimatedBytes`: the transition object, its context and what they hold apart from the
    /// timeline. With it a default transition of a two-child container is estimated at 7.1 KB, against 7.1–7.5 KB
    /// of resident memory per further retained transition measured by `segue-bench memory --retention N` (release,
    /// 500 scenes; its timeline made exact when it ended, `Timeline.compact`).
    public static let recordBytes = 2048

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
