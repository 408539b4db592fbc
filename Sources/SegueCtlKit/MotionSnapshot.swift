import Foundation
import SegueJSON

/// Motion snapshots: a scenario file's recorded transitions (`MotionRecorder`) in `NAME.motion.json` beside it, and
/// their comparison with a new run. The format is versioned (README, "Motion snapshots"):
/// `{format: "segued-motion", version: 1, scenarios: {NAME: {transitions: [{transition, kind, from, to, animator,
/// interactive, duration, events: [...], frames: [{time, views: [{id, frame?, alpha?, …}]}]}]}}}`.
public enum MotionSnapshot {
    public static let format = "segued-motion"
    public static let version = 1

    /// `Tests/Scenarios/flip.json` → `Tests/Scenarios/flip.motion.json`.
    public static func path(for scenarioFile: String) -> String {
        (scenarioFile.hasSuffix(".json") ? String(scenarioFile.dropLast(5)) : scenarioFile) + ".motion.json"
    }

    /// The snapshot's scenarios by name; nil when there is no file. A file that is not a snapshot of this version
    /// is an error (never silently overwritten by a compare).
    public static func load(_ path: String) throws(ScenarioError) -> JSONObject? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text = try ScenarioFiles.read(path)
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(text)
        } catch {
            throw ScenarioError("\(path) is not valid JSON: \(error.message)")
        }
        guard value["format"]?.stringValue == format, let v = value["version"]?.intValue else {
            throw ScenarioError("\(path) is not a motion snapshot (no \"format\": \"\(format)\")")
        }
        guard v == version else {
            throw ScenarioError("\(path) is motion snapshot version \(v); this seguectl reads version \(version) (re-record with --update)")
        }
        return value["scenarios"]?.objectValue ?? JSONObject()
    }

    /// The file's text for these scenarios (sorted by name, so a re-record changes only what moved).
    public static func text(_ scenarios: JSONObject) -> String {
        let sorted = JSONObject(scenarios.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let root = JSONObject([
            ("format", .string(format)), ("version", .number(Double(version))), ("scenarios", .object(sorted)),
        ])
        return pretty(.object(root), indent: 0) + "\n"
    }

    /// One value per line down to the frames' views, which stay one line each (diffs in review stay readable).
    static func pretty(_ value: JSONValue, indent: Int, key: String? = nil) -> String {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch value {
        case .object(let o) where key != "views" && key != "events" && o.count > 0 && indent < 6:
            let inner = o.map { "\(pad)\(JSONValue.string($0.key).serialized()): \(pretty($0.value, indent: indent + 1, key: $0.key))" }
            return "{\n" + inner.joined(separator: ",\n") + "\n\(end)}"
        case .array(let a) where !a.isEmpty && (key == "transitions" || key == "frames" || key == "events"):
            let inner = a.map { "\(pad)" + (key == "events" ? $0.serialized() : pretty($0, indent: indent + 1)) }
            return "[\n" + inner.joined(separator: ",\n") + "\n\(end)]"
        default:
            return value.serialized()
        }
    }
}

/// Per-property tolerances for motion comparison: `alpha=0.01,frame=0.5`; a key is a view property (`alpha`,
/// `frame`, `transform`, `corner_radius`, …), `time` (frame times) or `*` (every other number). Default 1e-6.
public struct MotionTolerance: Sendable, Equatable {
    public var byProperty: [String: Double] = [:]
    public var other: Double = 1e-6

    public init() {}

    public static func parse(_ text: String) -> MotionTolerance? {
        var out = MotionTolerance()
        for part in text.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if pieces.count == 1, let t = Double(pieces[0]), t >= 0, t.isFinite {
                out.other = t
                continue
            }
            guard pieces.count == 2, !pieces[0].isEmpty, let t = Double(pieces[1]), t >= 0, t.isFinite else { return nil }
            if pieces[0] == "*" { out.other = t } else { out.byProperty[pieces[0]] = t }
        }
        return out
    }

    public func of(_ property: String) -> Double { byProperty[property] ?? other }
}

/// Where a new motion first differs from its snapshot, and every view property that moved differently.
public struct MotionDifference: Sendable {
    /// Index into the transitions, and into its frames with the start as 0 (nil when the difference is not in a
    /// frame).
    public var transition: Int
    public var frame: Int?
    public var description: String
    /// `view property` pairs whose values differ somewhere (for the picture).
    public var moved: [(view: String, property: String)]
}

extension MotionSnapshot {
    /// nil when `new` matches `old` within the tolerances.
    public static func compare(old: JSONValue, new: JSONValue, tolerance: MotionTolerance) -> MotionDifference? {
        let oldT = old["transitions"]?.arrayValue ?? [], newT = new["transitions"]?.arrayValue ?? []
        guard oldT.count == newT.count else {
            return MotionDifference(transition: min(oldT.count, newT.count), frame: nil,
                                    description: "\(newT.count) transitions, the snapshot has \(oldT.count)", moved: [])
        }
        for (i, (o, n)) in zip(oldT, newT).enumerated() {
            let name = "transition \(i + 1) (\(n["transition"]?.stringValue ?? "?"), \(n["animator"]?.stringValue ?? "?"))"
            for key in ["transition", "kind", "from", "to", "animator", "interactive"] where o[key] != n[key] {
                return MotionDifference(transition: i, frame: nil, description: "\(name): \(key) \(Format.compact(n[key])), the snapshot has \(Format.compact(o[key]))", moved: [])
            }
            let matcher = JSONMatcher(tolerance: tolerance.of("time"))
            let oe = o["events"]?.arrayValue ?? [], ne = n["events"]?.arrayValue ?? []
            if oe.count != ne.count || zip(oe, ne).contains(where: { !matcher.matches($0, $1) || !matcher.matches($1, $0) }) {
                let at = zip(oe, ne).enumerated().first { !matcher.matches($1.0, $1.1) || !matcher.matches($1.1, $1.0) }?.offset ?? min(oe.count, ne.count)
                let got = at < ne.count ? ScenarioFailure.summary(of: ne[at]) : "nothing"
                let was = at < oe.count ? ScenarioFailure.summary(of: oe[at]) : "nothing"
                return MotionDifference(transition: i, frame: nil,
                                        description: "\(name): event \(at + 1) is \(got), the snapshot has \(was)", moved: [])
            }
            // The views as the transition began (frame 0), then every frame.
            let of = [.object(JSONObject([("time", 0), ("views", o["start"] ?? .null)]))] + (o["frames"]?.arrayValue ?? [])
            let nf = [.object(JSONObject([("time", 0), ("views", n["start"] ?? .null)]))] + (n["frames"]?.arrayValue ?? [])
            var first: (frame: Int, text: String)?
            var moved: [(view: String, property: String)] = []
            if of.count != nf.count { first = (min(of.count, nf.count), "\(nf.count - 1) frames, the snapshot has \(of.count - 1)") }
            for (f, (ofr, nfr)) in zip(of, nf).enumerated() {
                if let ot = ofr["time"]?.doubleValue, let nt = nfr["time"]?.doubleValue, !(abs(ot - nt) <= tolerance.of("time")) {
                    if first == nil { first = (f, "\(frameName(f)) at \(Format.number(nt, decimals: 6)) s, the snapshot's at \(Format.number(ot, decimals: 6)) s") }
                }
                let ov = views(ofr), nv = views(nfr)
                for id in Set(ov.keys).union(nv.keys).sorted() {
                    let a = ov[id] ?? JSONObject(), b = nv[id] ?? JSONObject()
                    for property in Set(a.keys).union(b.keys).sorted() {
                        let t = tolerance.of(property)
                        let m = JSONMatcher(tolerance: t)
                        let same: Bool
                        if let x = a[property], let y = b[property] { same = m.matches(x, y) && m.matches(y, x) } else { same = false }
                        guard !same else { continue }
                        if !moved.contains(where: { $0.view == id && $0.property == property }) { moved.append((id, property)) }
                        if first == nil {
                            let time = Format.number(nfr["time"]?.doubleValue ?? 0, decimals: 4)
                            first = (f, "\(frameName(f)) (t = \(time) s): \(id) \(property) \(Format.compact(b[property], limit: 80)), "
                                + "the snapshot has \(Format.compact(a[property], limit: 80)) (tolerance \(Format.number(t, decimals: 9)))")
                        }
                    }
                }
            }
            if let first {
                return MotionDifference(transition: i, frame: first.frame, description: "\(name): \(first.text)", moved: moved)
            }
        }
        return nil
    }

    /// Frame 0 is the views as the transition began (`start`); frames count from 1.
    public static func frameName(_ index: Int) -> String { index == 0 ? "the start" : "frame \(index)" }

    /// A frame's views by id, each its values by property.
    static func views(_ frame: JSONValue) -> [String: JSONObject] {
        var out: [String: JSONObject] = [:]
        for view in frame["views"]?.arrayValue ?? [] {
            guard case .object(var o) = view, let id = o["id"]?.stringValue else { continue }
            o["id"] = nil
            out[id] = o
        }
        return out
    }
}
