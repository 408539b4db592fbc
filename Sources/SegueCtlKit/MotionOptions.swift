import Foundation
import SegueJSON
import SegueClient
import SegueKit

/// How a run treats motion snapshots (`seguectl test --motion/--record/--update`).
public struct MotionOptions: Sendable {
    public enum Mode: Sendable {
        /// Compare with the snapshot when there is one.
        case compare
        /// Compare; write the snapshot of a scenario that has none.
        case record
        /// Write every snapshot anew (accept the new motion).
        case update
    }

    public var mode: Mode
    /// A manual-clock scenario without a snapshot fails (unless recording).
    public var requireSnapshot: Bool
    public var tolerance: MotionTolerance
    /// Where pictures of differences go; nil: beside the snapshot.
    public var pictureFolder: String?

    public init(mode: Mode = .compare, requireSnapshot: Bool = false, tolerance: MotionTolerance = MotionTolerance(),
                pictureFolder: String? = nil)
    {
        self.mode = mode
        self.requireSnapshot = requireSnapshot
        self.tolerance = tolerance
        self.pictureFolder = pictureFolder
    }
}

/// A scenario connection that hands every event to a motion recorder and passes on only those the scenario
/// subscribed to (the runner subscribes to `transition` and `frame` events too, for the recording).
final class RecordingConnection: ScenarioConnection {
    let base: any ScenarioConnection
    let recorder: MotionRecorder
    let wanted: [String]

    init(_ base: any ScenarioConnection, recorder: MotionRecorder, wanted: [String]) {
        self.base = base
        self.recorder = recorder
        self.wanted = wanted
    }

    func request(_ method: String, _ params: JSONObject?) throws(ClientError) -> JSONValue {
        try base.request(method, params)
    }

    func takeEvents() -> [JSONValue] {
        let events = base.takeEvents()
        for event in events { recorder.take(event) }
        // Frame events carry only what changed: the views as they are when a transition begins (after the
        // animator's animate, before the first frame on a manual clock) are what the frames change.
        if let began = events.last(where: { $0["type"] == "transition.began" }), let scene = began["scene"]?.stringValue,
            let tree = try? base.request("scene.tree", ["scene": .string(scene), "presentation": true])
        {
            recorder.start(tree["views"] ?? .null)
            _ = base.takeEvents()
        }
        return events.filter { RecordingConnection.covers(wanted, $0["type"]?.stringValue ?? "") }
    }

    /// Whether a subscription list takes this event type (by type, by category, or `*`).
    static func covers(_ list: [String], _ type: String) -> Bool {
        if list.contains("*") || list.contains(type) { return true }
        guard let category = EngineEvent.Kind(name: type)?.category.rawValue else { return true }
        return list.contains(category)
    }
}

/// The snapshots a run reads, each loaded once (scenarios of one file may run on several threads).
final class MotionSnapshots: @unchecked Sendable {
    private let lock = NSLock()
    private var loaded: [String: Result<JSONObject?, ScenarioError>] = [:]

    func scenarios(in path: String) -> Result<JSONObject?, ScenarioError> {
        lock.lock()
        defer { lock.unlock() }
        if let known = loaded[path] { return known }
        let result: Result<JSONObject?, ScenarioError>
        do throws(ScenarioError) {
            result = .success(try MotionSnapshot.load(path))
        } catch {
            result = .failure(error)
        }
        loaded[path] = result
        return result
    }
}

extension ScenarioRunner {
    /// Compares a scenario's recorded motion with its snapshot: nil when it matches (or is to be written), else the
    /// failure, with a picture of the difference written.
    func judgeMotion(_ entry: JSONValue, of scenario: Scenario, options: MotionOptions, result: inout ScenarioResult) {
        guard let file = scenario.file else { return }
        let path = MotionSnapshot.path(for: file)
        result.motion = entry
        if options.mode == .update {
            result.motionToWrite = true
            return
        }
        let old: JSONValue?
        switch motionSnapshots.scenarios(in: path) {
        case .failure(let error):
            result.failure = ScenarioFailure(message: "motion: \(error)")
            return
        case .success(let scenarios):
            old = scenarios?[scenario.name]
        }
        guard let old else {
            if options.mode == .record {
                result.motionToWrite = true
            } else if options.requireSnapshot {
                result.failure = ScenarioFailure(message: "motion: no snapshot of this scenario in \(path) (run with --record to write it)")
            }
            return
        }
        guard let difference = MotionSnapshot.compare(old: old, new: entry, tolerance: options.tolerance) else { return }
        var message = "motion differs from \(path): \(difference.description)"
        let size = (scenario.scene["size"]?["w"]?.doubleValue ?? 320, scenario.scene["size"]?["h"]?.doubleValue ?? 480)
        let svg = MotionPicture.svg(old: old, new: entry, difference: difference, sceneSize: size,
                                    title: "\(scenario.name) — motion difference")
        let base = URL(fileURLWithPath: path).deletingPathExtension().deletingPathExtension().lastPathComponent
        let folder = options.pictureFolder ?? URL(fileURLWithPath: path).deletingLastPathComponent().path
        let picture = folder + "/" + base + "." + MotionPicture.slug(scenario.name) + ".motion-diff.svg"
        do {
            try svg.write(toFile: picture, atomically: true, encoding: .utf8)
            message += "\npicture: \(picture)"
        } catch {
            message += "\n(could not write the picture \(picture): \(error.localizedDescription))"
        }
        message += "\naccept the new motion with --update"
        result.failure = ScenarioFailure(message: message)
    }

    /// Writes the snapshots of a finished run's scenarios that are to be written (`--record`, `--update`), merged
    /// into each file's existing snapshot; the paths written.
    public static func writeMotion(_ report: ScenarioReport) throws(ScenarioError) -> [String] {
        var byFile: [String: [(String, JSONValue)]] = [:]
        var order: [String] = []
        for result in report.results where result.motionToWrite {
            guard let file = result.file, let motion = result.motion else { continue }
            let path = MotionSnapshot.path(for: file)
            if byFile[path] == nil { order.append(path) }
            byFile[path, default: []].append((result.name, motion))
        }
        for path in order {
            var scenarios = (try? MotionSnapshot.load(path)) ?? JSONObject()
            for (name, motion) in byFile[path] ?? [] { scenarios[name] = motion }
            do {
                try MotionSnapshot.text(scenarios).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw ScenarioError("cannot write \(path): \(error.localizedDescription)")
            }
        }
        return order
    }
}

extension MotionPicture {
    /// A scenario name as a file name part: letters and digits, the rest `-`.
    static func slug(_ name: String) -> String {
        var out = ""
        for c in name.lowercased() {
            if c.isLetter || c.isNumber { out.append(c) } else if !out.hasSuffix("-") { out.append("-") }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return String(out.prefix(60))
    }
}
