import SegueKit

/// What `render.*` draws: a transition's recorded timeline over a span of scene time, with what a picture needs to
/// say about it. Built from a running or finished transition; frames are rebuilt with `Timeline.sample(at:)`, so
/// nothing is re-run.
public struct RenderSource {
    public var timeline: Timeline
    /// The span drawn, in scene nanoseconds.
    public var start: Int64
    public var end: Int64
    /// The scene's time when the picture was made. Instants after it (a running transition drawn to its end) are
    /// what its running animations will show: drawn as predictions.
    public var now: Int64
    /// The duration the animator declared, in seconds.
    public var duration: Double
    /// The scene's size: each frame is clipped to it.
    public var sceneSize: Size
    /// Where the timeline's root view's superview sits in the scene.
    public var origin: Point
    /// The scene's frame rate: curves are sampled at every frame.
    public var fps: Int
    /// One line saying what this is, e.g. "cross-dissolve · select a → b · t-1".
    public var title: String
    /// Interactive phases to shade on the curves.
    public var phases: [RenderPhase]

    public init(timeline: Timeline, start: Int64, end: Int64, now: Int64, duration: Double, sceneSize: Size,
                origin: Point = .zero, fps: Int = 60, title: String, phases: [RenderPhase] = [])
    {
        self.timeline = timeline
        self.start = start
        self.end = max(start, end)
        self.now = now
        self.duration = duration
        self.sceneSize = sceneSize
        self.origin = origin
        self.fps = max(1, fps)
        self.title = title
        self.phases = phases
    }

    /// A transition of `scene`: a finished one from its start to its end; a running one from its start to its
    /// declared end (or now, if later). `until` (ns after the start) cuts the span short or stretches it.
    public init(transition t: Transition, scene: Scene, until: Int64? = nil) {
        var end: Int64
        if let ended = t.endedAt {
            end = ended
        } else {
            let declared = t.startedAt + Int64((min(max(t.duration, 0), 3600) * 1e9).rounded())
            end = max(scene.now, declared)
        }
        if let until { end = t.startedAt + max(0, until) }
        var origin = Point.zero
        var ancestor = t.timelineRoot?.superview
        var depth = 0
        while let view = ancestor, depth <= Scene.maxViewDepth {
            let values = view.model
            origin.x += values.frame.x - values.bounds.x
            origin.y += values.frame.y - values.bounds.y
            ancestor = view.superview
            depth += 1
        }
        self.init(
            timeline: t.timeline, start: t.startedAt, end: end, now: scene.now, duration: t.duration,
            sceneSize: scene.size, origin: origin, fps: scene.fps,
            title: "\(t.animatorName) · \(t.kind.rawValue) \(t.from.id) → \(t.to.id) · \(t.id)",
            phases: RenderPhase.recorded(by: t))
    }

    /// The most views the timeline's subtree held at once (what one frame may have to draw).
    public var maxViews: Int { timeline.samples.map { $0.structure.ids.count }.max() ?? 0 }

    /// Seconds from the start.
    func seconds(_ time: Int64) -> Double { Double(time - start) / 1e9 }
}
