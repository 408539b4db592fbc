import SegueJSON
import SegueKit

/// Records a manual-clock scenario's transitions for a motion snapshot (`NAME.motion.json`): for each transition,
/// the events from its `transition.began` to its `transition.completed` and every `frame` event's presentation
/// values in between, as the daemon sent them. Times are relative to the transition's start; `seq` and `scene`
/// (which differ from run to run) are left out.
public final class MotionRecorder {
    struct Running {
        var id: String
        var began: Double
        var record: JSONObject
        var events: [JSONValue] = []
        var frames: [JSONValue] = []
    }

    private var running: [Running] = []
    private var finished: [(began: Double, record: JSONObject)] = []

    public init() {}

    /// Takes every event of the scenario's scene, in order.
    public func take(_ event: JSONValue) {
        guard case .object(let o) = event, let type = o["type"]?.stringValue else { return }
        let time = o["time"]?.doubleValue ?? 0
        if type == "transition.began", let id = o["transition"]?.stringValue {
            var record = JSONObject([("transition", .string(id))])
            for key in ["kind", "from", "to", "animator", "interactive", "duration"] {
                if let value = o[key] { record[key] = value }
            }
            running.append(Running(id: id, began: time, record: record))
        }
        if type == "frame" {
            guard case .array(let views)? = o["views"] else { return }
            for i in running.indices {
                running[i].frames.append(.object(JSONObject([
                    ("time", .number(MotionRecorder.rounded(time - running[i].began))), ("views", .array(views)),
                ])))
            }
            return
        }
        let transition = o["transition"]?.stringValue
        for i in running.indices where transition == nil || transition == running[i].id {
            var kept = JSONObject()
            for (key, value) in o where key != "seq" && key != "scene" {
                kept[key] = key == "time" ? .number(MotionRecorder.rounded(time - running[i].began)) : value
            }
            running[i].events.append(.object(kept))
        }
        if type == "transition.completed", let id = transition, let i = running.firstIndex(where: { $0.id == id }) {
            let done = running.remove(at: i)
            var record = done.record
            record["events"] = .array(done.events)
            record["frames"] = .array(done.frames)
            finished.append((done.began, record))
        }
    }

    /// The view tree (`scene.tree {presentation: true}`'s `views`) when the transitions that just began started:
    /// each view's presentation values, flat, as the transition's `start`.
    public func start(_ tree: JSONValue) {
        var views: [JSONValue] = []
        func walk(_ node: JSONValue, parent: JSONValue) {
            guard case .object(let o) = node, let id = o["id"] else { return }
            var values = JSONObject([("id", id), ("parent", parent)])
            for key in MotionRecorder.startKeys { if let v = o[key] { values[key] = v } }
            if case .object(let now)? = o["presentation"] { for (k, v) in now where k != "id" { values[k] = v } }
            views.append(.object(values))
            for child in o["subviews"]?.arrayValue ?? [] { walk(child, parent: id) }
        }
        walk(tree, parent: .null)
        for i in running.indices where running[i].record["start"] == nil && running[i].frames.isEmpty {
            running[i].record["start"] = .array(views)
        }
    }

    /// The values a transition's start records per view: `frame`, then every listed property not part of it (the
    /// view-property table's order: a new property is recorded without a change here), and `anchor_point`, which
    /// the motion picture needs to place the view (a tree node carries it only when it is not CA's default, so a
    /// snapshot of views that keep the default does not change).
    static let startKeys = ["frame"] + ViewProperty.listed.filter { !$0.info.partOfFrame || $0 == .anchorPoint }
        .map(\.info.name)

    /// The scenario's entry: `{transitions: [...]}` in start order (a transition still running at the end is kept
    /// with what it did so far).
    public var entry: JSONValue {
        var all = finished
        for r in running {
            var record = r.record
            record["events"] = .array(r.events)
            record["frames"] = .array(r.frames)
            record["unfinished"] = true
            all.append((r.began, record))
        }
        return .object(JSONObject([("transitions", .array(all.map { .object($0.record) }))]))
    }

    /// Scene times are multiples of a frame: rounding to 1e-9 s keeps a snapshot free of float noise.
    static func rounded(_ t: Double) -> Double { (t * 1e9).rounded() / 1e9 }
}
